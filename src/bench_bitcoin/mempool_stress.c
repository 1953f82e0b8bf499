/* Core's mempool_stress.cpp rows (doc/benchmarks.md):
 *
 * ComplexMemPool, in its 2020 form: fill a mempool with a dense web of 100 + childTxs
 * transactions, then trim it to three quarters of its size and to empty.
 * MemPoolAncestorsDescendants and MemPoolAddTransactions, as Core runs them today, on
 * Core's current cluster generator (doc/mempool.md): one cluster's descendant and ancestor
 * queries, and 100 clusters added and trimmed to empty. */
#include "bench_bitcoin/bench.h"
#include "mempool/mempool.h"
#include "mempool/workload.h"
#include "util/alloc.h"

typedef struct {
    mempool *pool;
    mempool_workload w;
    int made;                   /* w was made (and is to be destroyed) */
} complex_ctx;

/* One iteration; the pool is empty before and after, so it is reused. The workload holds no
 * duplicates or conflicts, so only memory can make an addition fail. */
static void complex_mempool_op(void *arg) {
    complex_ctx *c = arg;
    size_t i, left;
    for (i = 0; i < c->w.count; i++) {
        if (mempool_add(c->pool, &c->w.txs[i]) != MEMPOOL_OK) {
            bench_out_of_memory("ComplexMemPool");
        }
    }
    mempool_trim(c->pool, mempool_total_size(c->pool) * 3 / 4, NULL, NULL);
    mempool_trim(c->pool, 0, NULL, NULL);
    left = mempool_count(c->pool);
    nb_do_not_optimize_away(left);
}

NB_OP_N(complex_mempool_n, complex_mempool_op)

/* n is 800 (the row's complexity_n) unless -asymptote gives it; then bench_bitcoin has
 * checked that it is a whole number from 1 to the bound. Clamped anyway, so that no n (1e12,
 * say) reaches the int conversion out of range. Core keeps 800 for n = 1 too; here
 * -asymptote=1 runs one child, so that every row's complexityN is the size it measured. */
static int complex_setup(void *state, double n) {
    complex_ctx *c = state;
    int childTxs = n < BENCH_MAX_COMPLEXITY_N ? (int)n : BENCH_MAX_COMPLEXITY_N;
    if (childTxs < 1) {
        childTxs = 1;
    }
    if (mempool_workload_make(&c->w, (size_t)childTxs, MEMPOOL_WORKLOAD_SEED) != 0) {
        return -1;
    }
    c->made = 1;
    return (c->pool = mempool_new(bench_mempool_salt())) != NULL ? 0 : -1;
}

static void complex_teardown(void *state) {
    complex_ctx *c = state;
    mempool_free(c->pool);
    if (c->made) {
        mempool_workload_destroy(&c->w);
    }
}

/* ---- Core's current rows: MemPoolAncestorsDescendants, MemPoolAddTransactions ----------- */

/* Core's AddTx fee: 1000 to 10999, drawn from the benchmark's generator as it adds. */
static int64_t core_fee(fastrandom2_ctx *r) {
    return (int64_t)fastrandom2_randrange(r, 10000) + 1000;
}

typedef struct {
    mempool *pool;
    mempool_workload w;
    fastrandom2_ctx rng;
    const mempool_tx **out;  /* room for every transaction: the queries' answers */
} cluster_ctx;

static int cluster_children(double n) {
    return n < BENCH_MAX_COMPLEXITY_N ? (n > 1 ? (int)n : 50) : BENCH_MAX_COMPLEXITY_N;
}

static void cluster_teardown(void *state) {
    cluster_ctx *c = state;
    mempool_free(c->pool);
    mempool_workload_destroy(&c->w);
    bb_free(c->out);
}

/* One cluster of 10 + childTxs transactions (50 unless -asymptote gives more than 1, as
 * Core), each added with Core's fee. */
static int ancdesc_setup(void *state, double n) {
    cluster_ctx *c = state;
    size_t i;
    fastrandom2_init_deterministic(&c->rng);
    if (mempool_workload_add_coin_cluster(&c->w, &c->rng, cluster_children(n), 1) != 0 ||
        (c->pool = mempool_new(bench_mempool_salt())) == NULL ||
        (c->out = bb_malloc_array(c->w.count, sizeof(*c->out))) == NULL) {
        return -1;
    }
    for (i = 0; i < c->w.count; i++) {
        c->w.txs[i].fee = core_fee(&c->rng);
        if (mempool_add(c->pool, &c->w.txs[i]) != MEMPOOL_OK) {
            return -1;
        }
    }
    return 0;
}

/* The descendants of the cluster's first transaction and the ancestors of its last. */
static void ancdesc_op(void *arg) {
    cluster_ctx *c = arg;
    size_t nd = 0, na = 0;
    mempool_descendants(c->pool, c->w.txs[0].txid, c->out, c->w.count, &nd);
    nb_do_not_optimize_away(c->out[0]);
    mempool_ancestors(c->pool, c->w.txs[c->w.count - 1].txid, c->out, c->w.count, &na);
    nb_do_not_optimize_away(c->out[0]);
    nd += na;
    nb_do_not_optimize_away(nd);
}

NB_OP_N(ancdesc_n, ancdesc_op)

/* 100 clusters of 10 + childTxs, made from one generator in turn. */
static int add_txs_setup(void *state, double n) {
    cluster_ctx *c = state;
    int k;
    fastrandom2_init_deterministic(&c->rng);
    for (k = 0; k < 100; k++) {
        if (mempool_workload_add_coin_cluster(&c->w, &c->rng, cluster_children(n), 1) != 0) {
            return -1;
        }
    }
    return (c->pool = mempool_new(bench_mempool_salt())) != NULL ? 0 : -1;
}

/* Every transaction added with a fresh fee, then the pool trimmed to empty (TrimToSize(0)).
 * Some 30 ms an iteration (6000 transactions whose tables outgrow the caches), so the row
 * runs 3 epochs. */
static void add_txs_op(void *arg) {
    cluster_ctx *c = arg;
    size_t i, left;
    for (i = 0; i < c->w.count; i++) {
        c->w.txs[i].fee = core_fee(&c->rng);
        if (mempool_add(c->pool, &c->w.txs[i]) != MEMPOOL_OK) {
            bench_out_of_memory("MemPoolAddTransactions");
        }
    }
    mempool_trim_to_usage(c->pool, 0, NULL, NULL);
    left = mempool_count(c->pool);
    nb_do_not_optimize_away(left);
}

NB_OP_N(add_txs_n, add_txs_op)

const bench_def bench_defs_mempool_stress[] = {
    {.name = "ComplexMemPool", .state_size = sizeof(complex_ctx), .setup = complex_setup,
     .op_n = complex_mempool_n, .teardown = complex_teardown, .complexity_n = 800},
    {.name = "MemPoolAncestorsDescendants", .state_size = sizeof(cluster_ctx),
     .setup = ancdesc_setup, .op_n = ancdesc_n, .teardown = cluster_teardown,
     .complexity_n = 50},
    {.name = "MemPoolAddTransactions", .state_size = sizeof(cluster_ctx),
     .setup = add_txs_setup, .op_n = add_txs_n, .teardown = cluster_teardown,
     .complexity_n = 50, .max_epochs = 3},
    BENCH_DEFS_END
};
