/* ComplexMemPool: fill a mempool with a dense web of 100 + childTxs
 * transactions, then trim it to three quarters of its size and to empty, as
 * Bitcoin Core's benchmark of the same name does (doc/benchmarks.md). */
#include "bench_bitcoin/bench.h"
#include "mempool/mempool.h"
#include "mempool/workload.h"

typedef struct {
    mempool *pool;
    const mempool_workload *w;
    int failed;
} complex_ctx;

/* One iteration; the pool is empty before and after, so it is reused. */
static void complex_mempool_op(void *arg) {
    complex_ctx *c = arg;
    size_t i, left;
    for (i = 0; i < c->w->count; i++) {
        if (mempool_add(c->pool, &c->w->txs[i]) != MEMPOOL_OK) {
            c->failed = 1;
        }
    }
    mempool_trim(c->pool, mempool_total_size(c->pool) * 3 / 4, NULL, NULL);
    mempool_trim(c->pool, 0, NULL, NULL);
    left = mempool_count(c->pool);
    nb_do_not_optimize_away(left);
}

const uint64_t *bench_mempool_salt(void) {
    static const uint64_t fixed[2] = {UINT64_C(0x9e3779b97f4a7c15),
                                      UINT64_C(0xd1b54a32d192ed03)};
    return nb_valgrind_counting() ? fixed : NULL;
}

void ComplexMemPool(nb_bench *bench) {
    int childTxs = 800;
    mempool_workload w;
    complex_ctx c;
    double n = nb_get_complexity_n(bench);
    /* n is unset (negative) unless -asymptote gives it; then bench_bitcoin has checked that it
     * is a whole number from 1 to the bound. Clamp anyway, so that no n (1e12, say) reaches the
     * int conversion out of range. Core keeps 800 for n = 1 too; here -asymptote=1 runs one
     * child, so that every row's complexityN is the size it measured. */
    if (n >= 1) {
        childTxs = n < BENCH_MAX_COMPLEXITY_N ? (int)n : BENCH_MAX_COMPLEXITY_N;
    }
    if (mempool_workload_make(&w, (size_t)childTxs, MEMPOOL_WORKLOAD_SEED) != 0) {
        bench_out_of_memory("ComplexMemPool");
    }
    c.w = &w;
    c.failed = 0;
    if ((c.pool = mempool_new(bench_mempool_salt())) == NULL) {
        mempool_workload_destroy(&w);
        bench_out_of_memory("ComplexMemPool");
    }
    nb_run(bench, complex_mempool_op, &c);
    mempool_free(c.pool);
    mempool_workload_destroy(&w);
    /* The workload holds no duplicates or conflicts, so only memory can fail. */
    if (c.failed) {
        bench_out_of_memory("ComplexMemPool");
    }
}
