#!/bin/sh
# The objects of src/crypto depend on each other one way (doc/crypto.md, "Adding a primitive"), measured
# with test/lib.sh's layer helpers (nm over the library's archive: an object's undefined
# symbols against what the others define). The graph must have no cycle, and
#   - an instruction-set variant (an object of a libbitcoin_crypto_<isa> convenience
#     library) is used only by a variant set (*_variants.o),
#   - a variant set is used only by the list of sets (dispatch.o),
#   - nothing uses dispatch.o.
# The checks run on the archive the build made, after a planted cycle and a planted use of
# a variant from a primitive have been shown to be caught. Prints the objects layer by layer.
set -u
. "$(dirname "$0")/lib.sh"
layer_tools
make_tmp test_crypto_layers

# isa_mark < "member type symbol" lines: the members of the ISA libraries lose their
# "lib..._la-" prefix and gain an "isa:" mark.
isa_mark() { sed 's/^lib[a-z0-9_]*_la-/isa:/'; }

# check EDGES_FILE: the rules above; prints each broken one, returns 1 if any.
check() {
    bad=0
    layer_cycle "$1" || bad=1
    while read -r user used sym; do
        case $used in
            isa:*) case $user in *_variants.o) ;; *) echo "$user uses the variant $used ($sym)"
                bad=1 ;; esac ;;
            *_variants.o) [ "$user" = dispatch.o ] || { echo "$user uses the set $used ($sym)"
                bad=1; } ;;
            dispatch.o) echo "$user uses dispatch.o ($sym)"; bad=1 ;;
        esac
    done <"$1"
    return $bad
}

# The checker catches what it is for.
printf 'a.o T a_fn\na.o U b_fn\nb.o T b_fn\nb.o U a_fn\n' | layer_edges >"$tmp/planted"
check "$tmp/planted" >"$tmp/why" && fail "a planted cycle (a.o <-> b.o) was not caught"
printf 'sha1.o U sha1_transform_shani\nlibbitcoin_crypto_shani_la-sha1_shani.o T %s\n' \
    sha1_transform_shani | isa_mark | layer_edges >"$tmp/planted"
check "$tmp/planted" >"$tmp/why" && fail "sha1.o using a SHA-NI object was not caught"

archive=$top_builddir/src/crypto/.libs/libbitcoin_crypto.a
layer_symbols "$tmp/raw" "$archive" ""
isa_mark <"$tmp/raw" >"$tmp/syms"
layer_edges <"$tmp/syms" >"$tmp/edges"
[ -s "$tmp/edges" ] || fail "no dependency between the objects of $archive: nm output changed?"
if ! check "$tmp/edges"; then
    fail "src/crypto's objects do not depend on each other one way"
    exit 1
fi

layer_print "$tmp/syms" "$tmp/edges"
[ "$failures" -eq 0 ]
