#!/bin/sh
# What -baseline's false alarms are in estimated cycles and in time. From the build directory:
#   sh SRC/doc/experiments/baseline_cycles.sh [RUNS]
# One default run of ./bench_bitcoin writes a file; the same binary then runs
# -baseline=FILE -max-regression=2 RUNS times against it and RUNS times against a copy with
# every "estcycles" removed (so compared in time), alternated. Nothing differs but when the
# runs were made, so every row called significant is a false alarm. Prints, per way, the
# rows called faster and slower per run (of all compared) and how many runs tripped the gate.
set -eu
runs=${1:-10}
bench=${BENCH_BITCOIN:-./bench_bitcoin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bench" -output-json="$tmp/base.json" >/dev/null 2>&1
grep -v '"estcycles": [0-9]' "$tmp/base.json" >"$tmp/time.json"
i=0
while [ "$i" -lt "$runs" ]; do
    for way in cycles time; do
        f=$tmp/base.json
        [ "$way" = time ] && f=$tmp/time.json
        rc=0
        "$bench" -baseline="$f" -max-regression=2 >"$tmp/out" 2>&1 || rc=$?
        sed -n 's/^\([0-9]*\) benchmarks compared.*: \([0-9]*\) faster, \([0-9]*\) slower.*/\1 \2 \3/p' \
            "$tmp/out" | sed "s/^/$way $rc /" >>"$tmp/all"
    done
    i=$((i + 1))
done
awk '{ n[$1]++; rows[$1] = $3; f[$1] += $4; s[$1] += $5; if ($2 == 1) g[$1]++ }
     END { for (w in n) printf "%s: %d runs, significant rows per run %.1f faster + %.1f " \
           "slower of %d, the 2%% gate tripped in %d\n", w, n[w], f[w] / n[w], s[w] / n[w],
           rows[w], g[w] + 0 }' "$tmp/all"
