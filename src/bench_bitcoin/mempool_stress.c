/* ComplexMemPool: fill a mempool with a dense web of 100 + childTxs
 * transactions, then trim it to three quarters of its size and to empty, as
 * Bitcoin Core's benchmark of the same name does (doc/benchmarks.md). */
#include "bench_bitcoin/bench.h"
#include "mempool/mempool.h"
#include "mempool/workload.h"

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

const bench_def bench_defs_mempool_stress[] = {
    {.name = "ComplexMemPool", .state_size = sizeof(complex_ctx), .setup = complex_setup,
     .op_n = complex_mempool_n, .teardown = complex_teardown, .complexity_n = 800},
    BENCH_DEFS_END
};
