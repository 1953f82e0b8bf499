#!/bin/sh
# Checks what this project's 2-core VM cannot: the hardware counter columns and
# err% on a quieter CPU. Meant for a borrowed machine with a real PMU, from a
# build made elsewhere and copied over (static, so the machine's libc does not
# matter):
#
#   mkdir _dev && cd _dev && ../configure --enable-werror \
#       && make -j"$(nproc)" LDFLAGS=-all-static bench_bitcoin test/test_nb_perf_hw && cd ..
#   tools/device-check.sh _dev          # on the borrowed machine
#
# Prints: the hardware test, test_nb_perf_hw (it skips where there is no PMU),
# then N whole default runs of bench_bitcoin (the last one's table in full) and,
# per run, the rows whose err% is 1% or more and the wall time.
set -u
dir=${1:-.}
runs=${2:-5}
[ -x "$dir/bench_bitcoin" ] && [ -x "$dir/test/test_nb_perf_hw" ] || {
    echo "device-check: no $dir/bench_bitcoin or $dir/test/test_nb_perf_hw (see the comment)" >&2
    exit 2
}
echo "== cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), $(nproc) CPUs," \
     "perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)"
echo "== test_nb_perf_hw (hardware counters)"
"$dir/test/test_nb_perf_hw" | grep -E '^perf:|checks|`known`' || true
i=1
while [ "$i" -le "$runs" ]; do
    start=$(date +%s.%N)
    "$dir/bench_bitcoin" >"$dir/device-run.txt" 2>&1
    rc=$?
    end=$(date +%s.%N)
    noisy=$(grep '`' "$dir/device-run.txt" | awk -F'|' '{
        for (c = 1; c <= NF; c++) if ($c ~ /^ *[0-9.]+% *$/ && c > 2) { e = $c; break }
        gsub(/[ %]/, "", e); if (e + 0 >= 1.0) printf "%s %s%%; ", $NF, e }')
    echo "== run $i: exit $rc, $(echo "$end - $start" | bc) s, rows at err% >= 1%: ${noisy:-none}"
    i=$((i + 1))
done
cat "$dir/device-run.txt"
