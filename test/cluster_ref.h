/* Slow, independent ways to know the optimal fee-rate diagram of a cluster, to check
 * cluster_linearize against. Both use only the public graph queries (fee rates, ancestry),
 * none of the module's algorithms but its chunking and diagram comparison. */
#ifndef TEST_CLUSTER_REF_H
#define TEST_CLUSTER_REF_H

#include <stddef.h>

#include "cluster/cluster.h"

/* The optimal diagram by repeated densest closure: while items remain, the subset of them
 * closed under ancestors (among the remaining) with the highest fee rate, found exactly by
 * Dinkelbach's iteration over maximum-weight closures (each a minimum cut, by max-flow),
 * becomes the next chunk. Writes the chunks to out (room for the item count) and returns
 * their number; a chunk of equal rate to the one before may stay separate. */
size_t cluster_ref_optimal(const cluster_graph *g, cluster_feefrac *out);

/* Walks every topological order of g (n! at most: keep n small) and compares its diagram
 * with the diagram of chunks[0 .. nchunks): returns how many orders there were, and stores in
 * *above the number of orders whose diagram lies somewhere above it (0 when it is optimal by
 * definition). */
unsigned long cluster_ref_all_orders(const cluster_graph *g, const cluster_feefrac *chunks,
                                     size_t nchunks, unsigned long *above);

#endif
