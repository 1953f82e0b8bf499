#!/bin/sh
# The objects of src/bench_bitcoin depend on each other one way (test/lib.sh's layer
# helpers: nm over the library's archive, an object's undefined symbols against what the
# others define), and diag.o, the bottom, uses nothing of any library of this build (the C
# library only). main is not in the library, so nothing can use it. The checker is first
# shown to catch a planted cycle. Prints the objects layer by layer.
set -u
. "$(dirname "$0")/lib.sh"
layer_tools
make_tmp test_bench_bitcoin_layers

printf 'a.o T a_fn\na.o U b_fn\nb.o T b_fn\nb.o U a_fn\nc.o T c_fn\n' | layer_edges >"$tmp/planted"
layer_cycle "$tmp/planted" >/dev/null && fail "a planted cycle (a.o <-> b.o) was not caught"

archive=$top_builddir/src/bench_bitcoin/.libs/libbench_bitcoin.a
layer_symbols "$tmp/syms" "$archive" libbench_bitcoin_la-
layer_edges <"$tmp/syms" >"$tmp/edges"
[ -s "$tmp/edges" ] || fail "no dependency between the objects of $archive: nm output changed?"
layer_cycle "$tmp/edges" || fail "src/bench_bitcoin's objects do not depend on each other one way"

# diag.o: every symbol it leaves undefined is defined by no library of this build.
grep -q '^diag\.o ' "$tmp/syms" || fail "no diag.o in $archive"
for a in $(find "$top_builddir/src" -path '*/.libs/*.a' | sort); do
    nm -g --defined-only "$a" 2>/dev/null | awk 'NF == 3 { print $3 }'
done | sort -u >"$tmp/project"
awk '$1 == "diag.o" && $2 == "U" { print $3 }' "$tmp/syms" | sort -u >"$tmp/diag_uses"
comm -12 "$tmp/diag_uses" "$tmp/project" >"$tmp/diag_project"
[ ! -s "$tmp/diag_project" ] ||
    fail "diag.o uses the project's $(tr '\n' ' ' <"$tmp/diag_project")(it must use libc only)"

layer_print "$tmp/syms" "$tmp/edges"
[ "$failures" -eq 0 ]
