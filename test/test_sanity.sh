#!/bin/sh
# bench_bitcoin -sanity-check: every registered benchmark runs exactly once, one epoch of one
# iteration, prints no table and exits 0. Under --enable-sanitizers this is the run that puts
# every benchmark's code through ASan and UBSan.
set -u
. "$(dirname "$0")/lib.sh"
prog=$top_builddir/bench_bitcoin
make_tmp test_sanity

# The benchmarks every CPU runs (doc/benchmarks.md's rows with an empty "needs" cell, which
# test_benchmark_list.sh holds to -list), and Core's per-implementation SHA-256 rows for the
# implementations this one offers (as -compare lists them: each "SHA256 [impl]" row), in
# byte-wise order.
always=$(documented_rows | awk '$2 == "-" { print $1 }')
[ -n "$always" ] || { echo "FAIL: no benchmark row found in doc/benchmarks.md"; exit 1; }
"$prog" -list -compare -filter=SHA256 >"$tmp/impls" 2>/dev/null || fail "-list -compare exited $?"
pinned=
for pair in sse41:SSE4 avx2:AVX2 shani:SHANI; do
    grep -q -x -F "SHA256 [${pair%%:*}]" "$tmp/impls" || continue
    for row in SHA256 SHA256_32b SHA256D64_1024; do
        pinned="$pinned
${row}_${pair#*:}"
    done
done
expected=$(printf '%s%s\n' "$always" "$pinned" | LC_ALL=C sort)

"$prog" -list >"$tmp/list" 2>"$tmp/list.err" || fail "-list exited $?"
[ "$(cat "$tmp/list")" = "$expected" ] || fail "-list is not the expected benchmarks in byte-wise order:
$(cat "$tmp/list")"

"$prog" -sanity-check -output-csv="$tmp/sanity.csv" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "-sanity-check exited $rc: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "-sanity-check printed on stdout: $(head -3 "$tmp/out")"
grep -q "^Using the '.*' SHA256 implementation\$" "$tmp/err" ||
    fail "no SHA256 implementation line on stderr: $(cat "$tmp/err")"

# One CSV row per benchmark, in order, each with 1 epoch of 1 iteration (its time may be 0
# where the clock is coarse).
if [ -f "$tmp/sanity.csv" ]; then
    tail -n +2 "$tmp/sanity.csv" | cut -d, -f1 >"$tmp/names"
    [ "$(cat "$tmp/names")" = "$expected" ] || fail "CSV rows are not the registered benchmarks:
$(cat "$tmp/names")"
    bad=$(tail -n +2 "$tmp/sanity.csv" | awk -F, '!($2 == 1 && $3 == 1 && $7 >= 0) { print }')
    [ -z "$bad" ] || fail "rows without exactly one epoch of one iteration: $bad"
else
    fail "-output-csv wrote no file"
fi

# Each name as a filter selects exactly that benchmark (whole-name match: SHA256 is not
# SHA256_32b, SHA1 is not a prefix match of anything else).
for name in $expected; do
    got=$("$prog" -list -filter="$name" 2>&1)
    [ "$got" = "$name" ] || fail "-filter=$name selects: $got"
done

# -compare: every implementation of every hash benchmark, and OpenSSL's rows, once each (under
# --enable-sanitizers, the pinned variants and the OpenSSL calls go through ASan and UBSan).
"$prog" -list -compare >"$tmp/rows" 2>/dev/null || fail "-list -compare exited $?"
"$prog" -sanity-check -compare -output-csv="$tmp/compare.csv" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "-sanity-check -compare exited $rc: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "-sanity-check -compare printed on stdout: $(head -3 "$tmp/out")"
if [ -f "$tmp/compare.csv" ]; then
    [ "$(tail -n +2 "$tmp/compare.csv" | cut -d, -f1)" = "$(cat "$tmp/rows")" ] ||
        fail "-sanity-check -compare rows differ from -list -compare: $(cat "$tmp/compare.csv")"
    [ "$(wc -l <"$tmp/rows")" -ge 10 ] ||
        fail "-list -compare lists too few rows: $(cat "$tmp/rows")"
else
    fail "-sanity-check -compare wrote no CSV"
fi

[ $failures -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "sanity check passed for all $(echo "$expected" | wc -l) benchmarks"
