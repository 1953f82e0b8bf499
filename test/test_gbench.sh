#!/bin/sh
# bench_bitcoin -output-gbench as Google Benchmark's own compare.py reads it (Debian's
# libbenchmark-tools, which needs python3-scipy): `compare.py benchmarks A.json B.json` on two
# runs prints a row per epoch and its Mann-Whitney U test for each benchmark. Skipped (77)
# where compare.py or scipy is missing.
set -u
: "${top_builddir:=.}"
bin=$top_builddir/bench_bitcoin
compare=${GBENCH_COMPARE:-/usr/share/benchmark/compare.py}
if [ ! -f "$compare" ]; then
    echo "SKIP: $compare is absent (Debian package libbenchmark-tools)"
    exit 77
fi
py=
for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import scipy' 2>/dev/null; then
        py=$p
        break
    fi
done
if [ -z "$py" ]; then
    echo "SKIP: no python3 with scipy (Debian package python3-scipy) to run compare.py"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_gbench.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

for run in a b; do
    NANOBENCH_SUPPRESS_WARNINGS=1 "$bin" -filter='SipHash_32b|SHA256_32b' -min-time=5 \
        -output-gbench="$tmp/$run.json" >/dev/null 2>"$tmp/err" ||
        { cat "$tmp/err"; echo "FAIL: bench_bitcoin -output-gbench failed"; exit 1; }
done
if ! "$py" "$compare" benchmarks "$tmp/a.json" "$tmp/b.json" >"$tmp/out" 2>"$tmp/err"; then
    cat "$tmp/err"
    echo "FAIL: compare.py failed on two -output-gbench files"
    exit 1
fi
sed 's/\x1b\[[0-9;]*m//g' "$tmp/out" >"$tmp/plain"
cat "$tmp/plain"
for name in SHA256_32b SipHash_32b; do
    n=$(grep -c "^$name  " "$tmp/plain")
    [ "$n" -eq 11 ] || fail "$name: $n rows, not one per epoch (11)"
    grep -q "^${name}_pvalue .*U Test, Repetitions: 11 vs 11" "$tmp/plain" ||
        fail "$name: no U test over 11 vs 11 repetitions"
    for agg in mean median stddev; do
        grep -q "^${name}_$agg " "$tmp/plain" || fail "$name: no $agg aggregate"
    done
done
# Times are in ns: a SipHash of 32 bytes takes between 1 ns and 100 us on any machine.
awk '/^SipHash_32b_median / { t = $4 } END { exit !(t >= 1 && t <= 100000) }' "$tmp/plain" ||
    fail "SipHash_32b_median's old time is not a plausible number of ns"
[ "$failures" -eq 0 ]
