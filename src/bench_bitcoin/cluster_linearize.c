/* Core's bench/cluster_linearize.cpp rows (doc/benchmarks.md):
 *
 * PostLinearize{16,32,48,64,75,99}TxWorstCase: PostLinearize of the index order of Core's
 *   worst case, one root and n - 1 children of rising fee rate (fee i + 1, size 1), the order
 *   reset before each call.
 * LinearizeOptimally{Historical,Synthetic}Total_<n>tx_<m>dep: one optimal linearization of
 *   one of Core's recorded clusters (src/cluster/recorded.c), each iteration with the next
 *   seed, asserting it is optimal within Core's budget of 10,000,000.
 * LinearizeOptimally{...}PerCost_<n>tx_<m>dep: the same cluster linearized for seeds 0 to
 *   99 per iteration, the batch being those runs' total cost (so the row is time per cost
 *   unit); the cost must come out the same each time. The totals are the ones Core's
 *   Linearize gives (the C module draws the same random choices, which
 *   doc/experiments/cluster_side_by_side.sh checks); each op checks them again. One
 *   iteration takes 0.2 to 13 ms, so these rows run 3 epochs (the default run's budget).
 *
 * Core makes the LinearizeOptimally rows in a loop over its clusters, naming each from the
 * cluster's transaction and dependency counts; here they are one table row each, and the
 * setup checks that the counts match the name. */
#include "bench_bitcoin/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster.h"
#include "cluster/recorded.h"

/* ---- PostLinearize*TxWorstCase --------------------------------------------------------- */

typedef struct {
    cluster_graph *g;
    unsigned n, lin[99];
    char name[32]; /* the row's name, for the out-of-memory message */
} post_ctx;

static void post_op(void *arg)
{
    post_ctx *c = arg;
    unsigned i;
    for (i = 0; i < c->n; i++)
        c->lin[i] = i;
    if (cluster_postlinearize(c->g, c->lin) != 0)
        bench_out_of_memory(c->name);
    nb_do_not_optimize_away(c->lin[0]);
}

NB_OP_N(post_n, post_op)

/* Core's MakeWideGraph: item i pays i + 1 for size 1 and spends item 0. */
static int post_setup(post_ctx *c, unsigned n)
{
    unsigned i;
    c->n = n;
    snprintf(c->name, sizeof c->name, "PostLinearize%uTxWorstCase", n);
    if ((c->g = cluster_graph_new(n)) == NULL)
        return -1;
    for (i = 0; i < n; i++) {
        cluster_graph_add(c->g, (int64_t)i + 1, 1);
        if (i > 0)
            cluster_graph_add_dependency(c->g, 0, i);
    }
    return 0;
}

static void post_teardown(void *state)
{
    cluster_graph_free(((post_ctx *)state)->g);
}

#define POST_SETUP(n) \
    static int post_setup_##n(void *state, double cn) \
    { \
        (void)cn; \
        return post_setup(state, n); \
    }
POST_SETUP(16)
POST_SETUP(32)
POST_SETUP(48)
POST_SETUP(64)
POST_SETUP(75)
POST_SETUP(99)

/* ---- LinearizeOptimally* ------------------------------------------------------------- */

/* Core's clusters in Core's order: kind, index in its list, the name's counts, and the total
 * cost of seeds 0 to 99 (the PerCost rows' batch). */
#define RECORDED_CLUSTERS(X) \
    X(Historical, 0, "_9tx_14dep", 229062) \
    X(Historical, 1, "_15tx_22dep", 525334) \
    X(Historical, 2, "_21tx_20dep", 727205) \
    X(Historical, 3, "_27tx_31dep", 889166) \
    X(Historical, 4, "_33tx_77dep", 1466265) \
    X(Historical, 5, "_39tx_38dep", 1550929) \
    X(Historical, 6, "_45tx_58dep", 1813888) \
    X(Historical, 7, "_51tx_51dep", 1646690) \
    X(Historical, 8, "_57tx_58dep", 2101847) \
    X(Historical, 9, "_63tx_75dep", 2924972) \
    X(Synthetic, 0, "_28tx_180dep", 1750350) \
    X(Synthetic, 1, "_32tx_240dep", 2125355) \
    X(Synthetic, 2, "_36tx_320dep", 2842702) \
    X(Synthetic, 3, "_40tx_399dep", 3097312) \
    X(Synthetic, 4, "_44tx_459dep", 4097089) \
    X(Synthetic, 5, "_48tx_575dep", 4381320) \
    X(Synthetic, 6, "_52tx_660dep", 5110417) \
    X(Synthetic, 7, "_56tx_780dep", 6238775) \
    X(Synthetic, 8, "_60tx_899dep", 6642688) \
    X(Synthetic, 9, "_64tx_1008dep", 8193661) \
    X(Synthetic, 10, "_28tx_81dep", 1449142) \
    X(Synthetic, 11, "_32tx_103dep", 1836601) \
    X(Synthetic, 12, "_36tx_116dep", 1924873) \
    X(Synthetic, 13, "_40tx_143dep", 2623475) \
    X(Synthetic, 14, "_44tx_163dep", 3968713) \
    X(Synthetic, 15, "_48tx_160dep", 3708160) \
    X(Synthetic, 16, "_52tx_200dep", 6975492) \
    X(Synthetic, 17, "_56tx_232dep", 7197783) \
    X(Synthetic, 18, "_60tx_251dep", 8633812) \
    X(Synthetic, 19, "_64tx_317dep", 13031609) \
    /* every line ends in a backslash */

/* Core's budget per linearization. */
#define LINEARIZE_MAX_COST 10000000

typedef struct {
    cluster_graph *g;
    const char *name;
    uint64_t seed;       /* the Total rows' next seed */
    uint64_t total_cost; /* the PerCost rows' cost of seeds 0 .. 99 */
    unsigned lin[64];
} lin_ctx;

/* Reads Core's cluster hex[index] and checks that its counts are the row name's. The
 * PerCost rows' op checks the cost on every iteration (Core computes it in its setup and
 * asserts it in its op; here it is the table's, which is what Core's Linearize gives). */
static int lin_setup(lin_ctx *c, const char *name, const char *const *hex, size_t index,
                     const char *sizes, uint64_t cost)
{
    char have[32];
    c->name = name;
    c->total_cost = cost;
    if ((c->g = cluster_recorded_graph(hex[index])) == NULL)
        return -1;
    snprintf(have, sizeof(have), "_%utx_%udep", cluster_graph_count(c->g),
             cluster_graph_dependency_count(c->g));
    if (strcmp(have, sizes) != 0) {
        bench_error("%s: the recorded cluster reads as %s", name, have);
        return -1;
    }
    return 0;
}

static void lin_teardown(void *state)
{
    cluster_graph_free(((lin_ctx *)state)->g);
}

/* One optimal linearization with the next seed. */
static void total_op(void *arg)
{
    lin_ctx *c = arg;
    cluster_linearize_info info;
    if (cluster_linearize(c->g, LINEARIZE_MAX_COST, c->seed++, NULL, c->lin, &info) != 0)
        bench_out_of_memory(c->name);
    if (!info.optimal) { /* Core asserts it */
        bench_error("%s: not optimal within the budget", c->name);
        abort();
    }
    nb_do_not_optimize_away(c->lin[0]);
}

NB_OP_N(total_n, total_op)

/* Seeds 0 to 99, each optimal, at the cost the setup found. */
static void per_cost_op(void *arg)
{
    lin_ctx *c = arg;
    uint64_t seed, total = 0;
    for (seed = 0; seed < 100; seed++) {
        cluster_linearize_info info;
        if (cluster_linearize(c->g, LINEARIZE_MAX_COST, seed, NULL, c->lin, &info) != 0)
            bench_out_of_memory(c->name);
        total += info.cost;
        if (!info.optimal)
            total = UINT64_MAX;
    }
    if (total != c->total_cost) { /* Core asserts both */
        bench_error("%s: not optimal, or not the same cost", c->name);
        abort();
    }
    nb_do_not_optimize_away(c->lin[0]);
}

NB_OP_N(per_cost_n, per_cost_op)

#define LIN_SETUP(kind, i, sizes, cost) \
    static int total_setup_##kind##i(void *state, double n) \
    { \
        (void)n; \
        return lin_setup(state, "LinearizeOptimally" #kind "Total" sizes, \
                         kind##_hex, i, sizes, cost); \
    } \
    static int per_cost_setup_##kind##i(void *state, double n) \
    { \
        (void)n; \
        return lin_setup(state, "LinearizeOptimally" #kind "PerCost" sizes, \
                         kind##_hex, i, sizes, cost); \
    }
#define Historical_hex cluster_recorded_historical
#define Synthetic_hex cluster_recorded_synthetic
RECORDED_CLUSTERS(LIN_SETUP)

#define POST_DEF(n) \
    {.name = "PostLinearize" #n "TxWorstCase", .state_size = sizeof(post_ctx), \
     .setup = post_setup_##n, .op_n = post_n, .teardown = post_teardown},
#define LIN_DEFS(kind, i, sizes, cost) \
    {.name = "LinearizeOptimally" #kind "Total" sizes, .state_size = sizeof(lin_ctx), \
     .setup = total_setup_##kind##i, .op_n = total_n, .teardown = lin_teardown}, \
    {.name = "LinearizeOptimally" #kind "PerCost" sizes, .state_size = sizeof(lin_ctx), \
     .setup = per_cost_setup_##kind##i, .op_n = per_cost_n, .teardown = lin_teardown, \
     .batch = cost, .unit = "cost", .max_epochs = 3},

const bench_def bench_defs_cluster_linearize[] = {
    POST_DEF(16) POST_DEF(32) POST_DEF(48) POST_DEF(64) POST_DEF(75) POST_DEF(99)
    RECORDED_CLUSTERS(LIN_DEFS)
    BENCH_DEFS_END
};
