#!/bin/sh
# Usage (from the build tree): sh doc/experiments/min_time_rows.sh RUNS SETTING...
# A SETTING is a -min-time in ms (10, 50, ...), "pin" (the default run) or "nopin" (-no-pin).
# Runs ./bench_bitcoin RUNS times per setting, the settings alternated (A, B, A, B, ...) so that
# a change in the host's load falls on all of them, and prints per setting the whole run's
# wall time and the number of rows whose err% cell reads 1.0% or more.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 RUNS SETTING..." >&2; exit 2; }
runs=$1; shift
bin=${BENCH_BITCOIN:-./bench_bitcoin}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
i=0
while [ "$i" -lt "$runs" ]; do
    for s in "$@"; do
        case $s in
            pin) opt= ;;
            nopin) opt=-no-pin ;;
            *) opt=-min-time=$s ;;
        esac
        t0=$(date +%s.%N)
        NANOBENCH_SUPPRESS_WARNINGS=1 $bin $opt >"$tmp/out" 2>/dev/null
        t1=$(date +%s.%N)
        # err% is the column whose header says err%; count cells >= 1.0.
        n=$(awk -F'|' '/err%/ { for (c = 1; c <= NF; c++) if ($c ~ /err%/) col = c; next }
                       col && /`/ { v = $col; gsub(/[ %]/, "", v); if (v + 0 >= 1.0) n++ }
                       END { print n + 0 }' "$tmp/out")
        printf '%s %.2f %s\n' "$s" "$(awk "BEGIN { print $t1 - $t0 }")" "$n" >>"$tmp/all"
    done
    i=$((i + 1))
done
awk '{ t[$1] = t[$1] sprintf("%s%.2f", t[$1] ? ", " : "", $2)
       r[$1] = r[$1] sprintf("%s%d", r[$1] != "" ? ", " : "", $3); sum[$1] += $3; k[$1]++
       if (!($1 in seen)) { seen[$1] = 1; order[++m] = $1 } }
     END { print "| setting | whole runs, s | rows with err% >= 1%, per run | mean |"
           print "| --- | --- | --- | --- |"
           for (i = 1; i <= m; i++) { s = order[i]
               printf "| %s | %s | %s | %.1f |\n", s, t[s], r[s], sum[s] / k[s] } }' "$tmp/all"
