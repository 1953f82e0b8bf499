#!/bin/sh
# The tour's programs in examples/: each runs and prints what it is for (a comparison of two
# sorts, three memcpy rows in bytes, seven scan rows and their Big-O fits), and each is at
# most 1.3 times the non-blank lines of its nanobench C++ version in examples/nanobench/.
set -u
. "$(dirname "$0")/lib.sh"
make_tmp test_examples
ex=$top_builddir/examples
for name in sort_compare memcpy_sizes bigo_scan; do
    c=$(grep -cv '^[[:space:]]*$' "$top_srcdir/examples/$name.c")
    cxx=$(grep -cv '^[[:space:]]*$' "$top_srcdir/examples/nanobench/$name.cpp")
    [ $((c * 10)) -le $((cxx * 13)) ] ||
        fail "examples/$name.c has $c non-blank lines, over 1.3 x the C++ version's $cxx"
    if ! NANOBENCH_SUPPRESS_WARNINGS=1 "$ex/$name" >"$tmp/$name" 2>&1; then
        fail "examples/$name failed: $(tail -n 5 "$tmp/$name")"
    fi
done
grep -q '`qsort` (baseline)' "$tmp/sort_compare" &&
    grep -q '`insertion sort`' "$tmp/sort_compare" ||
    fail "sort_compare: no comparison table: $(cat "$tmp/sort_compare")"
[ "$(grep -c '`memcpy [0-9]*`' "$tmp/memcpy_sizes")" -eq 3 ] &&
    grep -q 'ns/byte' "$tmp/memcpy_sizes" ||
    fail "memcpy_sizes: not three rows in bytes: $(cat "$tmp/memcpy_sizes")"
[ "$(grep -c '`scan`' "$tmp/bigo_scan")" -eq 7 ] && grep -q '| O(n)$' "$tmp/bigo_scan" ||
    fail "bigo_scan: not seven rows and a fit table: $(cat "$tmp/bigo_scan")"
[ "$failures" -eq 0 ]
