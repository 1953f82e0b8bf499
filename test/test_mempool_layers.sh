#!/bin/sh
# The objects of src/cluster and src/mempool keep a declared order, lowest first (test/lib.sh's
# layer helpers: nm over the three archives, an object's undefined symbols against what the
# others define): the linearization knows nothing of transactions, the pool's parts know
# nothing of the pool, the workloads and policy sit on the pool, and the JSON writer on top.
# An object no layer names fails, so a new file is placed on purpose. The checker is first
# shown to catch a planted use of the pool by the linearization.
set -u
. "$(dirname "$0")/lib.sh"
layer_tools
make_tmp test_mempool_layers

cat >"$tmp/layers" <<'LAYERS'
cluster cluster
recorded recorded
parts table tx
pool mempool
users policy workload
json mempool_json
LAYERS

awk '{ for (i = 2; i <= NF; i++) print $i ".o T " $i "_fn" }' "$tmp/layers" >"$tmp/planted"
echo 'cluster.o U mempool_fn' >>"$tmp/planted"
layer_edges <"$tmp/planted" >"$tmp/planted.edges"
layer_order "$tmp/layers" "$tmp/planted" "$tmp/planted.edges" >/dev/null &&
    fail "a planted use of mempool.o by cluster.o was not caught"

b=$top_builddir/src
layer_symbols "$tmp/cluster" "$b/cluster/.libs/libbitcoin_cluster.a" ""
layer_symbols "$tmp/pool" "$b/mempool/.libs/libbitcoin_mempool.a" ""
layer_symbols "$tmp/json" "$b/mempool/.libs/libbitcoin_mempool_json.a" \
    libbitcoin_mempool_json_la-
cat "$tmp/cluster" "$tmp/pool" "$tmp/json" >"$tmp/syms"
layer_edges <"$tmp/syms" >"$tmp/edges"
[ -s "$tmp/edges" ] || fail "no dependency found between the objects: nm output changed?"
if ! layer_order "$tmp/layers" "$tmp/syms" "$tmp/edges" >"$tmp/why"; then
    sed 's/^/FAIL: /' "$tmp/why"
    fail "src/cluster's and src/mempool's objects do not keep the declared layers"
fi
layer_print "$tmp/syms" "$tmp/edges"
[ "$failures" -eq 0 ]
