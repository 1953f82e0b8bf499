/* MempoolEviction: add seven small transactions to a mempool, then trim it by
 * its dynamic memory usage twice, as Bitcoin Core's bench/mempool_eviction.cpp
 * does (doc/benchmarks.md). */
#include "bench_bitcoin/bench.h"
#include "mempool/mempool.h"
#include "mempool/workload.h"

typedef struct {
    mempool *pool;
    mempool_tx *txs;
    int failed;
} eviction_ctx;

/* One iteration: the seven adds, a trim to 3/4 of the usage, then a trim to
 * tx1's virtual size, which is below any one entry's usage and so empties the
 * pool for the next iteration. */
static void mempool_eviction_op(void *arg) {
    eviction_ctx *c = arg;
    size_t i, left;
    for (i = 0; i < MEMPOOL_EVICTION_TXS; i++) {
        if (mempool_add(c->pool, &c->txs[i]) != MEMPOOL_OK) {
            c->failed = 1;
        }
    }
    mempool_trim_to_usage(c->pool, mempool_dynamic_usage(c->pool) * 3 / 4, NULL, NULL);
    mempool_trim_to_usage(c->pool, c->txs[0].vsize, NULL, NULL);
    left = mempool_count(c->pool);
    nb_do_not_optimize_away(left);
}

void MempoolEviction(nb_bench *bench) {
    mempool_tx txs[MEMPOOL_EVICTION_TXS];
    eviction_ctx c;
    size_t i;
    if (mempool_eviction_make(txs) != 0) {
        bench_out_of_memory("MempoolEviction");
    }
    c.txs = txs;
    c.failed = 0;
    if ((c.pool = mempool_new(bench_mempool_salt())) == NULL) {
        c.failed = 1;
    } else {
        nb_run(bench, mempool_eviction_op, &c);
    }
    mempool_free(c.pool);
    for (i = 0; i < MEMPOOL_EVICTION_TXS; i++) {
        mempool_tx_destroy(&txs[i]);
    }
    /* The seven neither repeat nor conflict, so only memory can fail. */
    if (c.failed) {
        bench_out_of_memory("MempoolEviction");
    }
}
