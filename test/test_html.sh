#!/bin/sh
# bench_bitcoin -output-html as a browser shows it, offline: headless Chromium renders the
# report (its script draws the charts and tables) with networking off, and the page's DOM must
# name every result, in a chart (an SVG text) and in a table, and carry one chart per title
# and unit. A -compare run's report must show, for every alternative, the ratio to the
# baseline and its interval as -output-json of the same run holds them, in the table and as a
# mark on the chart. Skipped (77) where Chromium is missing.
set -u
. "$(dirname "$0")/lib.sh"
bin=$top_builddir/bench_bitcoin
chrome=$(first_command chromium chromium-browser google-chrome) ||
    skip "Chromium is not installed (Debian package chromium), so the report is not rendered"
make_tmp test_html

NANOBENCH_SUPPRESS_WARNINGS=1 "$bin" -filter='SipHash_32b|SHA1|SHA256_32b|PrevectorClear.*' \
    -min-time=2 -output-html="$tmp/report.html" >/dev/null 2>"$tmp/err" ||
    { cat "$tmp/err"; echo "FAIL: bench_bitcoin -output-html failed"; exit 1; }
grep -q '<script src\|<link\|https:' "$tmp/report.html" &&
    fail "the report loads something from elsewhere"
# dump HTML DOM: Chromium renders HTML offline and writes the DOM its script built to DOM
dump() {
    timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$tmp/profile" --dump-dom "file://$1" >"$2" 2>"$tmp/chrome.err"
    if [ ! -s "$2" ]; then
        tail -n 5 "$tmp/chrome.err"
        echo "FAIL: Chromium dumped no DOM"
        exit 1
    fi
}
dump "$tmp/report.html" "$tmp/dom"
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
grep -q '<g class="ci">\|<th>speed vs' "$tmp/dom" && fail "a comparison mark without a comparison"
# the cycles column where the table has one: estimated cycles on x86-64 and AArch64 (no
# counter here), counted ones where a PMU is there
case $(uname -m) in
x86_64 | aarch64)
    grep -q '<th>~cyc/op</th>\|<th>cyc/op</th>' "$tmp/dom" || fail "no cycles column" ;;
esac

NANOBENCH_SUPPRESS_WARNINGS=1 "$bin" -compare -filter=SHA256_32b -min-time=1 \
    -output-html="$tmp/cmp.html" -output-json="$tmp/cmp.json" >/dev/null 2>"$tmp/err" ||
    { cat "$tmp/err"; echo "FAIL: bench_bitcoin -compare -output-html failed"; exit 1; }
dump "$tmp/cmp.html" "$tmp/cmpdom"
if ! first_command python3 >/dev/null; then
    untested "the -compare report's figures against its JSON (python3 is not installed)"
else
    python3 - "$tmp/cmp.json" "$tmp/cmpdom" <<'PY' || fail "the -compare report"
import json, re, sys
results = json.load(open(sys.argv[1]))["results"]
dom = open(sys.argv[2], encoding="utf-8").read()
bad = 0
def fail(msg):
    global bad
    print("FAIL: -compare report: " + msg)
    bad += 1
base = [r for r in results if r["baseline"]]
if len(base) != 1 or len(results) < 2:
    fail("%d results, %d baselines in the JSON" % (len(results), len(base)))
else:
    head = "<th>speed vs %s [95%% interval]</th>" % base[0]["name"]
    if head not in dom:
        fail("no column " + head)
rows = {}
for tr in re.findall(r"<tr>(.*?)</tr>", dom):
    cells = re.findall(r"<td[^>]*>(.*?)</td>", tr)
    if cells:
        rows[cells[0]] = cells
for r in results:
    cells = rows.get(r["name"])
    if not cells:
        fail("no row for " + r["name"])
        continue
    if r["baseline"]:
        if cells[-2] != "baseline":
            fail("%s: %r, not 'baseline'" % (r["name"], cells[-2]))
        continue
    m = re.fullmatch(r"(\d+\.\d{3})\u00d7 \[(\d+\.\d{3}), (\d+\.\d{3})\]", cells[-2])
    want = (r["ratio"], r["ratioLow"], r["ratioHigh"])
    if not m or any(abs(float(g) - w) > 0.00051 for g, w in zip(m.groups(), want)):
        fail("%s: cell %r, the JSON says %r" % (r["name"], cells[-2], want))
    verdict = ("faster" if r["ratio"] > 1 else "slower") if r["significant"] else "no difference"
    if not cells[-1].startswith(verdict):
        fail("%s: verdict %r, not %r" % (r["name"], cells[-1], verdict))
marks = dom.count('<g class="ci">')
if marks != len(results) - 1:
    fail("%d interval marks on the chart, not %d" % (marks, len(results) - 1))
sys.exit(bad != 0)
PY
fi
finish
