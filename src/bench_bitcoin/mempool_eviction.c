/* MempoolEviction: add seven small transactions to a mempool, then trim it by
 * its dynamic memory usage twice, as Bitcoin Core's bench/mempool_eviction.cpp
 * does (doc/benchmarks.md). */
#include "bench_bitcoin/bench.h"
#include "mempool/mempool.h"
#include "mempool/workload.h"

#include <stddef.h>

typedef struct {
    mempool *pool;
    mempool_tx txs[MEMPOOL_EVICTION_TXS];
    int made;                   /* txs were made (and are to be destroyed) */
} eviction_ctx;

/* One iteration: the seven adds, a trim to 3/4 of the usage, then a trim to
 * tx1's virtual size, which is below any one entry's usage and so empties the
 * pool for the next iteration. The seven neither repeat nor conflict, so only
 * memory can make an addition fail. */
static void mempool_eviction_op(void *arg) {
    eviction_ctx *c = arg;
    size_t i, left;
    for (i = 0; i < MEMPOOL_EVICTION_TXS; i++) {
        if (mempool_add(c->pool, &c->txs[i]) != MEMPOOL_OK) {
            bench_out_of_memory("MempoolEviction");
        }
    }
    mempool_trim_to_usage(c->pool, mempool_dynamic_usage(c->pool) * 3 / 4, NULL, NULL);
    mempool_trim_to_usage(c->pool, c->txs[0].vsize, NULL, NULL);
    left = mempool_count(c->pool);
    nb_do_not_optimize_away(left);
}

NB_OP_N(mempool_eviction_n, mempool_eviction_op)

static int eviction_setup(void *state, double n) {
    eviction_ctx *c = state;
    (void)n;
    if (mempool_eviction_make(c->txs) != 0) {
        return -1;
    }
    c->made = 1;
    return (c->pool = mempool_new(bench_mempool_salt())) != NULL ? 0 : -1;
}

static void eviction_teardown(void *state) {
    eviction_ctx *c = state;
    size_t i;
    mempool_free(c->pool);
    for (i = 0; c->made && i < MEMPOOL_EVICTION_TXS; i++) {
        mempool_tx_destroy(&c->txs[i]);
    }
}

const bench_def bench_defs_mempool_eviction[] = {
    {.name = "MempoolEviction", .state_size = sizeof(eviction_ctx), .setup = eviction_setup,
     .op_n = mempool_eviction_n, .teardown = eviction_teardown},
    BENCH_DEFS_END
};
