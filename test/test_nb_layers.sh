#!/bin/sh
# The harness's objects depend on each other one way: each layer below uses only what the
# layers before it define, and no object of a layer uses another of the same layer
# (doc/harness.md, "Layers"). Measured with nm on the archive make builds (test/lib.sh's
# layer helpers). An object the list does not name fails too, so a new file is placed on
# purpose. The checker is first shown to catch a planted upward use and an unplaced object.
set -u
. "$(dirname "$0")/lib.sh"
layer_tools
make_tmp test_nb_layers

# One layer a line: its name, then its objects (alloc is src/util's, carried by the archive).
cat >"$tmp/layers" <<'LAYERS'
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
LAYERS

# The checker catches what it is for: nb_clock using the renderer, and an object no layer
# names (each planted on a copy of the layers' objects).
awk '{ for (i = 2; i <= NF; i++) print $i ".o T " $i "_fn" }' "$tmp/layers" >"$tmp/planted"
echo 'nb_clock.o U nb_render_fn' >>"$tmp/planted"
layer_edges <"$tmp/planted" >"$tmp/planted.edges"
layer_order "$tmp/layers" "$tmp/planted" "$tmp/planted.edges" >/dev/null &&
    fail "a planted use of nb_render.o by nb_clock.o was not caught"
awk '{ for (i = 2; i <= NF; i++) print $i ".o T " $i "_fn" }' "$tmp/layers" >"$tmp/planted"
echo 'nb_new.o T nb_new_fn' >>"$tmp/planted"
layer_edges <"$tmp/planted" >"$tmp/planted.edges"
layer_order "$tmp/layers" "$tmp/planted" "$tmp/planted.edges" >/dev/null &&
    fail "a planted object in no layer (nb_new.o) was not caught"

layer_symbols "$tmp/syms" "$top_builddir/src/bench/.libs/libnanobench.a" ""
layer_edges <"$tmp/syms" >"$tmp/edges"
[ -s "$tmp/edges" ] || fail "no dependency found between the objects: nm output changed?"
if layer_order "$tmp/layers" "$tmp/syms" "$tmp/edges" >"$tmp/why"; then
    echo "layers: $(wc -l <"$tmp/edges") pairs of objects where one uses the other," \
        "all pointing down"
else
    sed 's/^/FAIL: /' "$tmp/why"
    fail "src/bench's objects do not keep the declared layers"
fi
[ "$failures" -eq 0 ]
