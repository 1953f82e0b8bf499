#!/bin/sh
# The objects of src/crypto depend on each other one way (doc/crypto.md, "Layers"): an
# object's undefined symbols, matched against what the library's other objects define, give
# the edges "A uses B"; the graph must have no cycle, and
#   - an instruction-set variant (an object of a libbitcoin_crypto_<isa> convenience
#     library) is used only by a variant set (*_variants.o),
#   - a variant set is used only by the list of sets (dispatch.o),
#   - nothing uses dispatch.o.
# The checks run on the archive the build made, after a planted cycle and a planted use of
# a variant from a primitive have been shown to be caught. Prints the objects layer by layer
# (layer 0 uses nothing of the library; each object sits one above the highest it uses).
set -u
. "$(dirname "$0")/lib.sh"
command -v nm >/dev/null 2>&1 || skip "nm is not installed (binutils)"
make_tmp test_crypto_layers

# edges < "member type symbol" lines: "user used" for each symbol a member leaves undefined
# that another member defines. Members of the ISA libraries lose their "lib..._la-" prefix
# and keep an "isa:" mark.
edges() {
    awk '{
        m = $1; sub(/^lib[a-z0-9_]*_la-/, "isa:", m)
        if ($2 == "U") { used[m] = used[m] " " $3 } else { def[$3] = m }
    }
    END {
        for (m in used) {
            n = split(used[m], s, " ")
            for (i = 1; i <= n; i++)
                if ((s[i] in def) && def[s[i]] != m && !seen[m " " def[s[i]]]++)
                    print m, def[s[i]]
        }
    }'
}

# check EDGES_FILE: the rules above; prints each broken one, returns 1 if any.
check() {
    bad=0
    if ! awk '{ print $1, $2 }' "$1" | tsort >/dev/null 2>"$tmp/loop"; then
        echo "cycle: $(grep -v 'input contains a loop' "$tmp/loop" | sed 's/^tsort: //' |
            tr '\n' ' ')"
        bad=1
    fi
    while read -r user used; do
        case $used in
            isa:*) case $user in *_variants.o) ;; *) echo "$user uses the variant $used"
                bad=1 ;; esac ;;
            *_variants.o) [ "$user" = dispatch.o ] || { echo "$user uses the set $used"
                bad=1; } ;;
            dispatch.o) echo "$user uses dispatch.o"; bad=1 ;;
        esac
    done <"$1"
    return $bad
}

# The checker catches what it is for.
printf 'a.o T a_fn\na.o U b_fn\nb.o T b_fn\nb.o U a_fn\n' | edges >"$tmp/planted"
check "$tmp/planted" >"$tmp/why" && fail "a planted cycle (a.o <-> b.o) was not caught"
printf 'sha1.o U sha1_transform_shani\nlibbitcoin_crypto_shani_la-sha1_shani.o T %s\n' \
    sha1_transform_shani | edges >"$tmp/planted"
check "$tmp/planted" >"$tmp/why" && fail "sha1.o using a SHA-NI object was not caught"

archive=$top_builddir/src/crypto/.libs/libbitcoin_crypto.a
[ -f "$archive" ] || { echo "FAIL: $archive is missing: build first"; exit 1; }
# nm -A: "archive:member:[value] type name", global symbols only; the compiler's and the
# system's (defined outside the library) fall out of edges() by themselves.
nm -A -g "$archive" | awk '{ split($1, p, ":"); print p[2], $(NF - 1), $NF }' >"$tmp/syms"
edges <"$tmp/syms" | sort >"$tmp/edges"
[ -s "$tmp/edges" ] || fail "no dependency between the objects of $archive: nm output changed?"
if ! check "$tmp/edges"; then
    fail "src/crypto's objects do not depend on each other one way"
    exit 1
fi

# The layers, for the log.
awk '{ print $1 }' "$tmp/syms" | sed 's/^lib[a-z0-9_]*_la-/isa:/' | sort -u >"$tmp/objects"
awk 'NR == FNR { obj[$1] = 1; next } { use[$1] = use[$1] " " $2 }
    END {
        changed = 1
        while (changed) {
            changed = 0
            for (o in obj) {
                l = 0; n = split(use[o], u, " ")
                for (i = 1; i <= n; i++) if (level[u[i]] + 1 > l) l = level[u[i]] + 1
                if (l > level[o] && l < 100) { level[o] = l; changed = 1 }
            }
        }
        for (o in obj) print level[o] + 0, o
    }' "$tmp/objects" "$tmp/edges" | sort -n | awk '
    NR == 1 || $1 != last { if (NR > 1) print line; line = "layer " $1 ":"; last = $1 }
    { line = line " " $2 } END { print line }'
[ "$failures" -eq 0 ]
