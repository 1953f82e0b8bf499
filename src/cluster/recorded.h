/* Bitcoin Core's recorded benchmark clusters (recorded.c says where they come from): hex
 * strings of DepGraphFormatter serializations, for the LinearizeOptimally rows and the tests. */
#ifndef CLUSTER_RECORDED_H
#define CLUSTER_RECORDED_H

#include <stddef.h>

#include "cluster/cluster.h"

/* Core's CLUSTERS_HISTORICAL (10 clusters, 9 to 63 transactions) and CLUSTERS_SYNTHETIC (20
 * clusters, 28 to 64 transactions), in Core's order. */
extern const char *const cluster_recorded_historical[];
extern const size_t cluster_recorded_historical_count;
extern const char *const cluster_recorded_synthetic[];
extern const size_t cluster_recorded_synthetic_count;

/* The graph one of those strings holds (hex digits, two a byte, read by
 * cluster_graph_deserialize with capacity 64), or NULL when memory runs out or the string is
 * not hex of at most 4096 bytes. */
cluster_graph *cluster_recorded_graph(const char *hex);

#endif
