#!/bin/sh
# bench_bitcoin -output-gbench as Google Benchmark's own compare.py reads it (Debian's
# libbenchmark-tools, which needs python3-scipy): `compare.py benchmarks A.json B.json` on two
# runs prints a row per epoch and its Mann-Whitney U test for each benchmark; with -asymptote,
# one benchmark per n, named Name/n as Google Benchmark names arguments. Skipped (77)
# where compare.py or scipy is missing.
set -u
. "$(dirname "$0")/lib.sh"
bin=$top_builddir/bench_bitcoin
compare=${GBENCH_COMPARE:-/usr/share/benchmark/compare.py}
if [ ! -f "$compare" ]; then
    skip "$compare is absent (Debian package libbenchmark-tools)"
fi
py=
for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import scipy' 2>/dev/null; then
        py=$p
        break
    fi
done
if [ -z "$py" ]; then
    skip "no python3 with scipy (Debian package python3-scipy) to run compare.py"
fi
make_tmp test_gbench

# two_runs PREFIX OPTION...: two runs of bench_bitcoin with OPTIONs into PREFIXa.json and
# PREFIXb.json, then compare.py on them, its output without colours in $tmp/plain
two_runs() {
    prefix=$1
    shift
    for run in a b; do
        NANOBENCH_SUPPRESS_WARNINGS=1 "$bin" "$@" -min-time=5 \
            -output-gbench="$tmp/$prefix$run.json" >/dev/null 2>"$tmp/err" ||
            { cat "$tmp/err"; echo "FAIL: bench_bitcoin $* -output-gbench failed"; exit 1; }
    done
    if ! "$py" "$compare" benchmarks "$tmp/${prefix}a.json" "$tmp/${prefix}b.json" \
            >"$tmp/out" 2>"$tmp/err"; then
        cat "$tmp/err"
        echo "FAIL: compare.py failed on two files of bench_bitcoin $* -output-gbench"
        exit 1
    fi
    sed 's/\x1b\[[0-9;]*m//g' "$tmp/out" >"$tmp/plain"
    cat "$tmp/plain"
}
# epochs_tested NAME: compare.py shows a row per epoch of NAME and its U test over them
epochs_tested() {
    n=$(grep -c "^$1  " "$tmp/plain")
    [ "$n" -eq 11 ] || fail "$1: $n rows, not one per epoch (11)"
    grep -q "^${1}_pvalue .*U Test, Repetitions: 11 vs 11" "$tmp/plain" ||
        fail "$1: no U test over 11 vs 11 repetitions"
}

two_runs "" -filter='SipHash_32b|SHA256_32b'
for name in SHA256_32b SipHash_32b; do
    epochs_tested "$name"
    for agg in mean median stddev; do
        grep -q "^${name}_$agg " "$tmp/plain" || fail "$name: no $agg aggregate"
    done
done
# Times are in ns: a SipHash of 32 bytes takes between 1 ns and 100 us on any machine.
awk '/^SipHash_32b_median / { t = $4 } END { exit !(t >= 1 && t <= 100000) }' "$tmp/plain" ||
    fail "SipHash_32b_median's old time is not a plausible number of ns"

# -asymptote: one entry per n, each its own benchmark for compare.py (one name for all would
# merge them into one row set of 22 epochs)
two_runs n -filter=SipHash_32b -asymptote=1,2
epochs_tested SipHash_32b/1
epochs_tested SipHash_32b/2
grep -q '"SipHash_32b"' "$tmp/na.json" && fail "-asymptote: an entry named without its n"
[ "$failures" -eq 0 ]
