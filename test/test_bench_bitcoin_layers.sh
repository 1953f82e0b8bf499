#!/bin/sh
# The objects of src/bench_bitcoin depend on each other one way: an object's undefined
# symbols, matched against what the library's other objects define, give the edges "A uses
# B", and the graph has no cycle. diag.o, the bottom, uses nothing of any library of this
# build (the C library only). main is not in the library, so nothing can use it. The checker
# is first shown to catch a planted cycle. Prints the objects layer by layer.
set -u
. "$(dirname "$0")/lib.sh"
command -v nm >/dev/null 2>&1 || skip "nm is not installed (binutils)"
command -v tsort >/dev/null 2>&1 || skip "tsort is not installed (coreutils)"
make_tmp test_bench_bitcoin_layers

printf 'a.o T a_fn\na.o U b_fn\nb.o T b_fn\nb.o U a_fn\nc.o T c_fn\n' | layer_edges >"$tmp/planted"
layer_cycle "$tmp/planted" >/dev/null && fail "a planted cycle (a.o <-> b.o) was not caught"

archive=$top_builddir/src/bench_bitcoin/.libs/libbench_bitcoin.a
[ -f "$archive" ] || { echo "FAIL: $archive is missing: build first"; exit 1; }
archive_symbols "$archive" libbench_bitcoin_la- >"$tmp/syms"
layer_edges <"$tmp/syms" | sort >"$tmp/edges"
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

awk '{ print $1 }' "$tmp/syms" | sort -u >"$tmp/objects"
layer_print "$tmp/objects" "$tmp/edges"
[ "$failures" -eq 0 ]
