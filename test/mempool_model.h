/* A model of the toy mempool for tests and fuzz targets: it knows only which transactions
 * of a workload are in the pool, and recomputes from scratch (walks over the graph that the
 * transactions' inputs define) each entry's ancestor and descendant count, size and fees, its
 * ancestor and descendant sets, the spent-outpoint map, the totals and the dynamic usage, to
 * compare with what the pool reports. Failures are recorded with CHECK (check.h). */
#ifndef TEST_MEMPOOL_MODEL_H
#define TEST_MEMPOOL_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "mempool/mempool.h"
#include "mempool/workload.h"

typedef struct {
    const mempool_workload *w;
    size_t n;
    uint32_t **par, **chi; /* distinct parents / children among the workload */
    uint32_t *npar, *nchi;
    unsigned char *present;
    uint32_t *queue, *mark, *mark2, epoch;
    const mempool_tx **buf;
} model;

/* Index of the workload transaction with this txid among the first n, or -1. */
long model_find(const mempool_workload *w, size_t n, const unsigned char txid[32]);

/* A model of w with nothing present; exits on no memory. model_free frees it. */
void model_init(model *m, const mempool_workload *w);
void model_free(model *m);

/* The present entries reachable from i (i included) going up (parents) or down (children),
 * into m->queue, marked with a new epoch; returns how many. */
uint32_t model_closure(model *m, uint32_t i, int up);

/* The vsize and fee sums of the first qn entries of m->queue. */
void model_sums(const model *m, uint32_t qn, uint64_t *size, int64_t *fees);

/* Compares everything the pool reports with the model (CHECK on each mismatch). */
void model_verify(model *m, mempool *pool);

/* Trims the pool to limit, by total size or (by_usage) by dynamic usage, checking before each
 * eviction that its root has the lowest descendant fee rate in the pool; the model follows,
 * and the pool's minimum fee rate must be the highest evicted rate plus the incremental fee.
 * Returns how many packages were evicted. */
size_t model_trim(model *m, mempool *pool, uint64_t limit, int by_usage);

/* Whether adding i must give MEMPOOL_ERR_HAS_CHILDREN: some present entry spends an output of
 * i. The model's links are by txid alone, so this holds for any output index. */
int model_has_present_child(const model *m, uint32_t i);

#endif
