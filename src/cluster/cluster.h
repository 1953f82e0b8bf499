/* Cluster linearization: ordering a small dependency graph of weighted items so that the
 * best fee rates come first, as Bitcoin Core's mempool orders each cluster of transactions.
 * Knows nothing of transactions: an item is a fee and a size, a dependency says that one item
 * must come after another.
 *
 * A linearization is an order of all items in which every item comes after its ancestors (a
 * topological order). Its chunks: go through it front to back, start a new group with each
 * item, and merge the last group into the one before while it has the higher fee rate; what is
 * left is a sequence of groups of non-increasing fee rate. Its fee-rate diagram is the broken
 * line through (0, 0) and each chunk's cumulative (size, fee). A linearization is optimal when
 * its diagram lies nowhere below the diagram of any other linearization of the same graph.
 *
 * cluster_linearize finds an optimal one with the spanning-forest algorithm of Bitcoin Core
 * (doc/cluster.md explains it and why its result is optimal), making the same random choices
 * as Core's Linearize for the same seed, so that its cost (Core's unit of work) is Core's.
 * cluster_postlinearize improves any linearization in O(n^2) (Core's PostLinearize).
 *
 * Fee rates are compared exactly (cross-multiplied in 128 bits), never in floating point. A
 * graph holds at most CLUSTER_MAX_TX items; its sets are bit sets of 64, 128, 256 or 512 bits,
 * the smallest that holds the capacity given when it is made. No function prints or exits;
 * every one accepts NULL where it takes a graph and then fails (or reports nothing). */
#ifndef CLUSTER_CLUSTER_H
#define CLUSTER_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

/* The most items a graph can hold. */
#define CLUSTER_MAX_TX 512

/* The largest fee magnitude an item may have: 2^51 satoshi (about twice all the coins there
 * will ever be, as Core's DepGraph serialization allows), so that no sum over a graph can
 * overflow 64 bits. */
#define CLUSTER_MAX_FEE ((int64_t)1 << 51)

/* A fee and a size; a fee rate is fee / size. A size is at least 1 for an item; sums over a
 * graph stay below 2^31 (cluster_graph_add refuses more). */
typedef struct {
    int64_t fee;
    int32_t size;
} cluster_feefrac;

/* Compares a's fee rate with b's exactly: -1, 0 or 1. A feefrac of size 0 (fee 0) compares
 * equal to every other, as in Core. */
int cluster_feerate_cmp(cluster_feefrac a, cluster_feefrac b);

typedef struct cluster_graph cluster_graph;

/* A new empty graph for up to capacity items (1 to CLUSTER_MAX_TX); NULL when capacity is out
 * of range or memory runs out. Its set width, and so its speed, follows capacity: up to 64
 * items one 64-bit word per set. */
cluster_graph *cluster_graph_new(unsigned capacity);

/* Frees the graph; NULL is fine. */
void cluster_graph_free(cluster_graph *g);

/* The number of items, and the capacity the graph was made with (0 for NULL). */
unsigned cluster_graph_count(const cluster_graph *g);
unsigned cluster_graph_capacity(const cluster_graph *g);

/* Adds an item with this fee and size; returns its index (0, 1, 2, ... in order of addition),
 * or -1 when the graph is full, size < 1, |fee| > CLUSTER_MAX_FEE or the graph's total size
 * would pass INT32_MAX (graph unchanged). */
int cluster_graph_add(cluster_graph *g, int64_t fee, int32_t size);

/* Makes child depend on parent (child comes after parent in every linearization). 0, or -1
 * when an index is not an item, parent == child, or parent already depends on child (a
 * cycle); graph unchanged then. Adding a dependency that is already implied is fine. */
int cluster_graph_add_dependency(cluster_graph *g, unsigned parent, unsigned child);

/* Item i's fee and size ({0, 0} when i is not an item). */
cluster_feefrac cluster_graph_feerate(const cluster_graph *g, unsigned i);

/* 1 when a is an ancestor of b (a != b, and b depends on a directly or through others). */
int cluster_graph_is_ancestor(const cluster_graph *g, unsigned a, unsigned b);

/* The reduced parents of item i: its ancestors that are not ancestors of another of its
 * ancestors (the direct dependencies no other implies). Writes up to cap of them, ascending,
 * to out and returns how many there are. */
unsigned cluster_graph_parents(const cluster_graph *g, unsigned i, unsigned *out, unsigned cap);

/* The number of reduced dependencies: the sum over items of their reduced parents (Core's
 * CountDependencies, the <m> of its benchmark names). */
unsigned cluster_graph_dependency_count(const cluster_graph *g);

/* Reads a graph in Core's DepGraphFormatter serialization (src/test/util/cluster_linearize.h:
 * per item in topological order a VARINT size, a VARINT zigzag fee, VARINT skips that encode
 * the direct parents and the item's position, then a 0), giving the reader the same
 * positions as Core's DepGraph<BitSet<capacity>>; Core's holes (unused positions) are closed
 * up, which keeps the order of the items. Like Core's reader, it takes what it can from
 * truncated or odd input rather than failing. Returns the new graph (made with capacity) and
 * stores the bytes read in *used when used is not NULL; NULL when memory runs out, capacity
 * is out of range or the sizes add up past INT32_MAX. */
cluster_graph *cluster_graph_deserialize(const unsigned char *buf, size_t len, unsigned capacity,
                                         size_t *used);

/* 1 when lin[0 .. n) is a linearization of g: every item exactly once, each after its
 * ancestors; else 0. */
int cluster_is_linearization(const cluster_graph *g, const unsigned *lin, size_t n);

/* Writes the chunks of the linearization lin (of g's every item) to chunks, in order, and
 * returns their number (at most the item count). */
size_t cluster_chunk(const cluster_graph *g, const unsigned *lin, cluster_feefrac *chunks);

/* Compares two fee-rate diagrams given by their chunks (each of non-increasing fee rate, as
 * cluster_chunk writes them; a diagram stays flat after its last point): 0 when they are
 * the same line, 1 when a lies nowhere below b and somewhere above, -1 the reverse, 2 when
 * each is above the other somewhere (Core's CompareChunks). */
int cluster_diagram_cmp(const cluster_feefrac *a, size_t na, const cluster_feefrac *b, size_t nb);

/* What cluster_linearize reports besides the order. */
typedef struct {
    int optimal;    /* 1 when the result is known optimal, with chunks split as far as equal
                     * fee rates allow; 0 when max_cost ran out first */
    uint64_t cost;  /* the work done, in Core's cost units (roughly a nanosecond each) */
} cluster_linearize_info;

/* Finds a linearization of g's items into out (count entries) by Core's spanning-forest
 * algorithm, stopping once max_cost is spent (UINT64_MAX: run to the optimum), its random
 * choices drawn from seed. old, when not NULL, is a linearization to start from: the result
 * is then at least as good. Within the order, chunks go by fee rate, then size, then
 * position; items within a chunk by their own fee rate, size and index (Core's
 * GetLinearization with its index order). Graphs of capacity up to 64 allocate nothing (the
 * state lives on the stack, about 10 KB); larger ones one block. 0, or -1 when memory runs
 * out or old is not a linearization (out undefined); info may be NULL. */
int cluster_linearize(const cluster_graph *g, uint64_t max_cost, uint64_t seed,
                      const unsigned *old, unsigned *out, cluster_linearize_info *info);

/* Improves the linearization lin of g's every item in place (Core's PostLinearize): the
 * result is at least as good, its chunks are connected, and it is optimal when every item has
 * at most one parent or every item at most one child. 0, or -1 when memory runs out (lin
 * unchanged). */
int cluster_postlinearize(const cluster_graph *g, unsigned *lin);

#endif
