#!/bin/sh
# shellcheck disable=SC2086 # $OURS_FLAGS is a word list on purpose
# How well does a row's figure repeat between processes: this harness against nanobench, on
# the very same benchmark code. Builds nanobench_same_ops.cpp (bench_bitcoin's benchmark
# bodies, compiled once by make, measured by nanobench's own iteration logic at Core's 10 ms
# per benchmark), then runs this build's bench_bitcoin and that program alternately in time
# (A, B, A, B, ...), both pinned to one CPU, each writing its JSON, and prints per row the
# robust CV between processes (1.4826 * MAD / median) of what each reports (the median
# epoch, the fastest epoch, and here also the ~cyc column's figure, the lower quartile of the
# epochs' estimated cycles), the range of the whole-process factor of the time, and the whole
# run's wall time. doc/measurements.md ("What a row reports") quotes it.
#
# Usage (from the build directory, after make):
#   sh SRC/doc/experiments/repeat_vs_nanobench.sh NANOBENCH_H [PROCESSES] [CPU]
# NANOBENCH_H is nanobench's single header (src/include/nanobench.h of its repository).
# OURS_FLAGS (default "-min-time=10") are bench_bitcoin's options; FILTER (default: every
# row) selects benchmarks on both sides. Needs g++, taskset and python3. KEEP=DIR keeps the
# JSON files there. BENCH_BITCOIN (default ./bench_bitcoin) is the command that runs ours and
# NB_WRAPPER a command to run the nanobench program under (say, "setarch -R").
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 NANOBENCH_H [PROCESSES] [CPU]" >&2
    exit 2
fi
nbh=$1
procs=${2:-12}
cpu=${3:-1}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
flags=${OURS_FLAGS:--min-time=10}
bench=${BENCH_BITCOIN:-./bench_bitcoin}
nbwrap=${NB_WRAPPER:-}
filter=${FILTER:-.*}
for f in "$nbh" "${bench##* }" src/bench_bitcoin/bench_bitcoin-registry.o; do
    [ -e "$f" ] || { echo "$0: missing $f (run from a build directory after make)" >&2; exit 1; }
done
work=${KEEP:-$(mktemp -d)}
mkdir -p "$work"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
cp "$nbh" "$work/ankerl_nanobench.h"
objs=""
for o in crypto_hash chacha prevector mempool_eviction mempool_stress registry crypto_openssl; do
    objs="$objs src/bench_bitcoin/bench_bitcoin-$o.o"
done
g++ -std=c++17 -O2 -I"$src/src" -I. -I"$work" -c "$here/nanobench_same_ops.cpp" \
    -o "$work/so.o"
libcrypto=$(pkg-config --libs libcrypto 2>/dev/null || true)
g++ -o "$work/nanobench_same_ops" "$work/so.o" $objs src/mempool/.libs/libbitcoin_mempool.a \
    src/crypto/.libs/libbitcoin_crypto.a src/util/.libs/libbitcoin_util.a $libcrypto
now() { date +%s.%N; }
i=1
while [ "$i" -le "$procs" ]; do
    t0=$(now)
    taskset -c "$cpu" $bench -filter="$filter" $flags \
        -output-json="$work/ours$i.json" >/dev/null 2>"$work/ours.err"
    t1=$(now)
    taskset -c "$cpu" $nbwrap "$work/nanobench_same_ops" -filter "$filter" -o "$work/nb$i.json" \
        >/dev/null 2>"$work/nb.err"
    t2=$(now)
    echo "$t0 $t1 $t2" >>"$work/times"
    i=$((i + 1))
done
echo "bench_bitcoin $flags against nanobench at 10 ms, $procs processes each, alternated;" \
    "load average $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work" "$procs" <<'EOF'
import json, statistics, sys
work, procs = sys.argv[1], int(sys.argv[2])

def robust_cv(v):
    med = statistics.median(v)
    return 1.4826 * statistics.median([abs(x - med) for x in v]) / med

def rows(path):
    out = {}
    for r in json.load(open(path))["results"]:
        per = sorted(m["elapsed"] for m in r["measurements"])
        out[r["name"]] = {"median": statistics.median(per), "min": per[0],
                          "cycles": r.get("lowerQuartile(estcycles)")}
    return out

ours = [rows(f"{work}/ours{i}.json") for i in range(1, procs + 1)]
nb = [rows(f"{work}/nb{i}.json") for i in range(1, procs + 1)]
names = [n for n in ours[0] if all(n in o for o in ours) and all(n in b for b in nb)]
has_cyc = all(o[n]["cycles"] for o in ours for n in names)
print("| row | ours: median | ours: fastest epoch | ours: ~cyc | nanobench: median "
      "| nanobench: fastest | nanobench median CV / ours ~cyc CV |")
print("|---|---:|---:|---:|---:|---:|---:|")
cols = {k: [] for k in ("om", "on", "oc", "nm", "nn", "ratio")}
for n in names:
    om = robust_cv([o[n]["median"] for o in ours])
    on = robust_cv([o[n]["min"] for o in ours])
    oc = robust_cv([o[n]["cycles"] for o in ours]) if has_cyc else float("nan")
    nm = robust_cv([b[n]["median"] for b in nb])
    nn = robust_cv([b[n]["min"] for b in nb])
    ratio = nm / oc if oc > 0 else float("nan")
    for k, v in zip(cols, (om, on, oc, nm, nn, ratio)):
        cols[k].append(v)
    print(f"| {n} | {100*om:.2f}% | {100*on:.2f}% | {100*oc:.2f}% | {100*nm:.2f}% "
          f"| {100*nn:.2f}% | {ratio:.1f} |")
med = {k: statistics.median(v) for k, v in cols.items()}
print(f"| median over {len(names)} rows | {100*med['om']:.2f}% | {100*med['on']:.2f}% "
      f"| {100*med['oc']:.2f}% | {100*med['nm']:.2f}% | {100*med['nn']:.2f}% "
      f"| {med['ratio']:.1f} |")
# The whole-process factor: per process, the median over the rows of its median time over
# that row's median across all processes (what moves every row of a process together).
for label, procs_rows in (("ours", ours), ("nanobench", nb)):
    mid = {n: statistics.median([p[n]["median"] for p in procs_rows]) for n in names}
    fac = [statistics.median([p[n]["median"] / mid[n] for n in names]) for p in procs_rows]
    print(f"process factor of the time, {label}: {min(fac):.3f} to {max(fac):.3f}")
t = [list(map(float, line.split())) for line in open(f"{work}/times")]
a = [x[1] - x[0] for x in t]
b = [x[2] - x[1] for x in t]
print(f"whole run (median wall time): ours {statistics.median(a):.3f} s, "
      f"nanobench {statistics.median(b):.3f} s, ratio {statistics.median(a)/statistics.median(b):.3f}")
EOF
