#!/bin/sh
# bench_bitcoin -output-html as a browser shows it, offline: headless Chromium renders the
# report (its script draws the charts and tables) with networking off, and the page's DOM must
# name every result, in a chart (an SVG text) and in a table, and carry one chart per title
# and unit. Skipped (77) where Chromium is missing.
set -u
: "${top_builddir:=.}"
bin=$top_builddir/bench_bitcoin
chrome=
for c in chromium chromium-browser google-chrome; do
    if command -v "$c" >/dev/null 2>&1; then chrome=$c; break; fi
done
if [ -z "$chrome" ]; then
    echo "SKIP: Chromium is not installed (Debian package chromium), so the report is not rendered"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_html.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

NANOBENCH_SUPPRESS_WARNINGS=1 "$bin" -filter='SipHash_32b|SHA1|SHA256_32b|PrevectorClear.*' \
    -min-time=2 -output-html="$tmp/report.html" >/dev/null 2>"$tmp/err" ||
    { cat "$tmp/err"; echo "FAIL: bench_bitcoin -output-html failed"; exit 1; }
grep -q '<script src\|<link\|https:' "$tmp/report.html" &&
    fail "the report loads something from elsewhere"
timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$tmp/profile" --dump-dom "file://$tmp/report.html" >"$tmp/dom" \
    2>"$tmp/chrome.err"
if [ ! -s "$tmp/dom" ]; then
    tail -n 5 "$tmp/chrome.err"
    echo "FAIL: Chromium dumped no DOM"
    exit 1
fi
charts=$(grep -o '<svg' "$tmp/dom" | wc -l)
[ "$charts" -eq 2 ] || fail "$charts charts, not 2 (one per title and unit: op and byte)"
for name in PrevectorClearNontrivial PrevectorClearTrivial SHA1 SHA256_32b SipHash_32b; do
    grep -q "<text[^>]*>$name</text>" "$tmp/dom" || fail "no chart label for $name"
    grep -q "<td>$name</td>" "$tmp/dom" || fail "no table row for $name"
done
grep -q '<title>Benchmark results: benchmark</title>' "$tmp/dom" ||
    fail "page title: $(grep -o '<title>[^<]*</title>' "$tmp/dom")"
# every epoch is a point: 5 results x 11 epochs
points=$(grep -o '<circle' "$tmp/dom" | wc -l)
[ "$points" -eq 55 ] || fail "$points epoch points, not 55"
[ "$failures" -eq 0 ]
