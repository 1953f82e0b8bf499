/* The pool as Bitcoin Core's getrawmempool with verbose=true writes it (MempoolToJSON): one
 * object member per entry, named by its txid in hex (display order: the digest's bytes
 * reversed), whose value holds every field of Core's entry that the toy pool knows:
 *   vsize, weight, descendantcount, descendantsize, ancestorcount, ancestorsize (sizes in
 *   virtual bytes, counts and sizes including the entry), fees {base, modified, ancestor,
 *   descendant} in coins (satoshi / 1e8, as JSON numbers; modified is base, since the pool
 *   has no fee deltas), depends (the txids of its in-pool parents), spentby (of its in-pool
 *   children).
 * Left out, as the toy pool has no such thing: time and height (no clock, no chain), wtxid
 * (no witness hash), bip125-replaceable and unbroadcast (no relay), and the cluster fields of
 * Core's cluster mempool (the pool keeps no chunks). */
#ifndef MEMPOOL_MEMPOOL_JSON_H
#define MEMPOOL_MEMPOOL_JSON_H

#include <jansson.h>

#include "mempool/mempool.h"

/* The verbose JSON object of every entry of pool (a new reference the caller releases with
 * json_decref), or NULL when memory runs out. */
json_t *mempool_to_json(mempool *pool);

#endif
