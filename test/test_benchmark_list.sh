#!/bin/sh
# doc/benchmarks.md's "The benchmarks" lists every row bench_bitcoin -list prints (a row
# added without its entry fails here), and every row it lists is one -list prints (a removed
# or renamed row fails here too), except a row whose "needs" cell names an instruction set:
# that one may be missing where this build or CPU lacks it.
set -u
. "$(dirname "$0")/lib.sh"
prog=$top_builddir/bench_bitcoin
make_tmp test_benchmark_list

run -list
[ $rc -eq 0 ] || { echo "FAIL: bench_bitcoin -list exited $rc: $(cat "$tmp/err")"; exit 1; }
LC_ALL=C sort "$tmp/out" >"$tmp/listed"
[ -s "$tmp/listed" ] || { echo "FAIL: bench_bitcoin -list printed nothing"; exit 1; }

documented_rows >"$tmp/doc"
[ -s "$tmp/doc" ] || { echo "FAIL: no benchmark row found in doc/benchmarks.md"; exit 1; }
cut -d' ' -f1 "$tmp/doc" >"$tmp/documented"

dups=$(uniq -d "$tmp/documented")
[ -z "$dups" ] || fail "doc/benchmarks.md lists these rows more than once: $dups"
for name in $(LC_ALL=C comm -23 "$tmp/listed" "$tmp/documented"); do
    fail "$name is in bench_bitcoin -list but not in doc/benchmarks.md"
done
absent=0
while read -r name needs; do
    grep -q -x -F "$name" "$tmp/listed" && continue
    if [ "$needs" = "-" ]; then
        fail "doc/benchmarks.md lists $name, which bench_bitcoin -list does not print"
    else
        absent=$((absent + 1))
        echo "$name needs $needs, which this build or CPU lacks: not listed, as documented"
    fi
done <"$tmp/doc"
echo "checked $(wc -l <"$tmp/listed") listed rows against $(wc -l <"$tmp/doc") documented" \
    "($absent documented rows absent here), both ways"
finish
