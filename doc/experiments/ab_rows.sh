#!/bin/sh
# Usage: sh doc/experiments/ab_rows.sh PAIRS FILTER BIN_A BIN_B [MIN_TIME_MS]
# Runs two bench_bitcoin builds alternately (A, B, A, B, ...: PAIRS of each) on the benchmarks
# FILTER selects, each run with -min-time=MIN_TIME_MS (default 200), so that a change in the
# host's load falls on both. Prints per row the median ns/op of A's runs and of B's, the median
# over the pairs of B's run / A's run next to it (below 1: B is faster), and in how many pairs
# B was faster.
set -eu
[ $# -ge 4 ] || { echo "usage: $0 PAIRS FILTER BIN_A BIN_B [MIN_TIME_MS]" >&2; exit 2; }
pairs=$1 filter=$2 a=$3 b=$4 ms=${5:-200}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
i=0
while [ "$i" -lt "$pairs" ]; do
    for side in A B; do
        if [ "$side" = A ]; then bin=$a; else bin=$b; fi
        # Rows "pair side name ns/op": the name between backticks, ns/op the first cell.
        NANOBENCH_SUPPRESS_WARNINGS=1 "$bin" -filter="$filter" -min-time="$ms" 2>/dev/null |
            awk -F'|' -v p="$i" -v s="$side" '/`/ { v = $2; gsub(/[ ,]/, "", v); n = $0
                                                   sub(/^[^`]*`/, "", n); sub(/`.*/, "", n)
                                                   print p, s, n, v }' >>"$tmp/all"
    done
    i=$((i + 1))
done
median() {
    sort -g | awk '{ v[NR] = $1 }
                   END { if (NR % 2) print v[(NR + 1) / 2]
                         else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
printf '%-38s %11s %11s %9s %8s\n' benchmark 'A ns/op' 'B ns/op' 'B/A pair' 'B faster'
for row in $(awk '{ print $3 }' "$tmp/all" | sort -u); do
    ma=$(awk -v r="$row" '$3 == r && $2 == "A" { print $4 }' "$tmp/all" | median)
    mb=$(awk -v r="$row" '$3 == r && $2 == "B" { print $4 }' "$tmp/all" | median)
    # Pair p's ratio: its B over its A.
    awk -v r="$row" '$3 == r { x[$1 " " $2] = $4; p[$1] = 1 }
                     END { for (k in p) if ((k " A") in x && (k " B") in x)
                               print x[k " B"] / x[k " A"] }' "$tmp/all" >"$tmp/ratios"
    mr=$(median <"$tmp/ratios")
    nf=$(awk '$1 < 1' "$tmp/ratios" | wc -l)
    printf '%-38s %11.2f %11.2f %9.3f %5d/%d\n' "$row" "$ma" "$mb" "$mr" "$nf" \
        "$(wc -l <"$tmp/ratios")"
done
