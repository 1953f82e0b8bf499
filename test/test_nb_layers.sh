#!/bin/sh
# The harness's objects depend on each other one way: each layer below uses only what the
# layers before it define, and no object of a layer uses another of the same layer
# (doc/harness.md, "Layers"). Measured on the archive make builds, with nm: an object's
# undefined symbols against what the archive's other objects define. An object the list does
# not name fails too, so a new file is placed on purpose.
set -u
. "$(dirname "$0")/lib.sh"
command -v nm >/dev/null 2>&1 || skip "nm is not installed (binutils)"
lib=$top_builddir/src/bench/.libs/libnanobench.a
[ -f "$lib" ] || { echo "FAIL: $lib is missing: build first"; exit 1; }
make_tmp test_nb_layers

# One layer a line: its name, then its objects (alloc is src/util's, carried by the archive).
cat >"$tmp/layers" <<'EOF'
util alloc
clock nb_clock
base nb_freq nb_perf nb_stats nb_format nb_config nb_rng nb_report_html
result nb_result
output nb_markdown nb_warnings
table nb_table
bench nb_bench
valgrind-dump nb_vg_dump
valgrind nb_vg_count nb_vg_run
logic nb_logic
comparison nb_comparison
comparison-table nb_compare_table
compare nb_compare
report nb_render nb_templates nb_bigo
hooks nb_test_hooks
EOF

# "object layer-index" for every listed object.
awk '{ for (i = 2; i <= NF; ++i) print $i, NR }' "$tmp/layers" >"$tmp/rank"

# "object kind symbol" from the archive: D(efined) or U(ndefined).
nm -A "$lib" 2>/dev/null | awk '{
    split($1, p, ":"); o = p[2]; sub(/\.o$/, "", o)
    if (NF < 3) next
    if ($2 == "U") print o, "U", $3
    else if ($2 ~ /^[TDBRCGSVW]$/) print o, "D", $3
}' >"$tmp/syms"
[ -s "$tmp/syms" ] || { echo "FAIL: nm listed no symbols in $lib"; exit 1; }

awk -v rankfile="$tmp/rank" '
BEGIN { while ((getline line < rankfile) > 0) { split(line, f, " "); rank[f[1]] = f[2] } }
{ seen[$1] = 1; if ($2 == "D") def[$3] = $1; else use[$1, $3] = 1 }
END {
    bad = 0
    for (o in seen) if (!(o in rank)) { print "FAIL: object " o " is in no layer"; bad++ }
    for (o in rank)
        if (!(o in seen)) { print "FAIL: layer object " o " is not in the archive"; bad++ }
    for (k in use) {
        split(k, q, SUBSEP); o = q[1]; s = q[2]
        if (!(s in def) || def[s] == o || !(o in rank) || !(def[s] in rank)) continue
        edges++
        if (rank[def[s]] >= rank[o]) {
            print "FAIL: " o " (layer " rank[o] ") uses " s " of " def[s] \
                " (layer " rank[def[s]] ")"
            bad++
        }
    }
    if (edges == 0) { print "FAIL: no dependency found between the objects"; bad++ }
    if (!bad) print "layers: " edges " uses between objects, all pointing down"
    exit bad ? 1 : 0
}' "$tmp/syms"
