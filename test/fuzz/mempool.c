/* Fuzz target: sequences of mempool operations (src/mempool/mempool.h) checked after every
 * step against the model in test/mempool_model.h, which recomputes from scratch every entry's
 * ancestor and descendant count, size, fees and sets, the spent-outpoint map, the totals and
 * the dynamic usage.
 *
 * Input: which of three ComplexMemPool workloads (10, 40 or 100 children after the 100 base
 * transactions; built once per process), then up to 96 operations: add a chosen transaction
 * after its absent ancestors, or alone (so before its parents, if they are absent), with
 * allocation failing after a chosen number of allocations when the input says; remove one with
 * its descendants; trim by total size or by dynamic usage to a chosen fraction (checking that
 * every evicted package had the lowest descendant fee rate); or add a transaction that
 * double-spends an input of an entry. Each result is
 * what the model predicts: OK, DUPLICATE, HAS_CHILDREN, NOT_FOUND, CONFLICT, or NOMEM (only
 * where memory was made to run out, and then the pool is as it was). */
#include "fuzz.h"

#include "../check.h"
#include "../mempool_model.h"
#include "mempool/mempool.h"
#include "mempool/workload.h"
#include "util/alloc.h"
#include "util/stream.h"

#include <string.h>

#define MAX_OPS 96

static const size_t children[] = {10, 40, 100};
static mempool_workload workloads[3];
static int made[3];

static void add(model *m, mempool *pool, uint32_t i, long fail_after)
{
    int rc, want = m->present[i] ? MEMPOOL_ERR_DUPLICATE
                   : model_has_present_child(m, i) ? MEMPOOL_ERR_HAS_CHILDREN : MEMPOOL_OK;
    bb_alloc_fail_after(fail_after);
    rc = mempool_add(pool, &m->w->txs[i]);
    bb_alloc_fail_after(-1);
    FUZZ_CHECK(rc == want || (fail_after >= 0 && want == MEMPOOL_OK && rc == MEMPOOL_ERR_NOMEM));
    if (rc == MEMPOOL_OK)
        m->present[i] = 1;
}

/* Adds i's absent ancestors among the workload (parents come before children, so in index
 * order), then i itself (with allocation failing as asked): how a pool fills with chains. */
static void add_with_ancestors(model *m, mempool *pool, uint32_t i, long fail_after)
{
    unsigned char need[256];
    uint32_t j, k;
    if (m->n > sizeof need)
        abort();
    memset(need, 0, m->n);
    need[i] = 1;
    for (j = i + 1; j-- > 0;)
        for (k = 0; need[j] && k < m->npar[j]; k++)
            need[m->par[j][k]] = 1;
    for (j = 0; j < i; j++)
        if (need[j] && !m->present[j])
            add(m, pool, j, -1);
    add(m, pool, i, fail_after);
}

static void remove_one(model *m, mempool *pool, uint32_t i)
{
    size_t removed = 0, k, qn;
    if (!m->present[i]) {
        FUZZ_CHECK(mempool_remove(pool, m->w->txs[i].txid, &removed) == MEMPOOL_ERR_NOT_FOUND);
        return;
    }
    qn = model_closure(m, i, 0);
    FUZZ_CHECK(mempool_remove(pool, m->w->txs[i].txid, &removed) == MEMPOOL_OK);
    FUZZ_CHECK(removed == qn);
    for (k = 0; k < qn; k++)
        m->present[m->queue[k]] = 0;
}

/* A transaction spending a made-up outpoint and input k of entry i: refused as a conflict
 * when i is present (its input is spent in the pool), else accepted and removed again. */
static void double_spend(model *m, mempool *pool, uint32_t i, fuzz_input *in)
{
    const mempool_tx *t = &m->w->txs[i];
    mempool_tx tx;
    byte_stream s;
    size_t removed = 0;
    mempool_tx_init(&tx);
    stream_init(&s);
    FUZZ_CHECK(mempool_tx_set_counts(&tx, 2, 1) == 0);
    fuzz_fill(in, tx.vin[0].prevout.txid, 32);
    tx.vin[0].prevout.txid[0] ^= 0x5a; /* never a workload txid by chance of the input */
    tx.vin[1].prevout = t->vin[fuzz_below(in, t->vin_count)].prevout;
    tx.fee = 1000;
    FUZZ_CHECK(mempool_tx_finalize(&tx, &s) == 0);
    if (m->present[i]) {
        FUZZ_CHECK(mempool_add(pool, &tx) == MEMPOOL_ERR_CONFLICT);
    } else if (mempool_add(pool, &tx) == MEMPOOL_OK) {
        FUZZ_CHECK(mempool_remove(pool, tx.txid, &removed) == MEMPOOL_OK && removed == 1);
    }
    FUZZ_CHECK(!mempool_exists(pool, tx.txid));
    mempool_tx_destroy(&tx);
    stream_destroy(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint64_t salt[2] = {0x0123456789abcdefu, 0xfedcba9876543210u};
    fuzz_input in;
    size_t which, step;
    mempool *pool;
    model m;

    fuzz_init(&in, data, size);
    which = (size_t)fuzz_below(&in, 3);
    if (!made[which]) {
        if (mempool_workload_make(&workloads[which], children[which], 20 + which) != 0)
            abort();
        made[which] = 1;
    }
    model_init(&m, &workloads[which]);
    if (!(pool = mempool_new(salt)))
        abort();
    for (step = 0; step < MAX_OPS && !fuzz_done(&in); step++) {
        uint8_t op = fuzz_u8(&in);
        uint32_t i = (uint32_t)fuzz_below(&in, m.n);
        switch (op % 8) {
        case 0:
        case 1:
            add_with_ancestors(&m, pool, i, op & 0x80 ? (long)fuzz_below(&in, 8) : -1);
            break;
        case 2:
        case 3:
            add(&m, pool, i, op & 0x80 ? (long)fuzz_below(&in, 8) : -1);
            break;
        case 4:
            remove_one(&m, pool, i);
            break;
        case 5:
        case 6:
            model_trim(&m, pool, (op % 8 == 6 ? mempool_dynamic_usage(pool)
                                               : mempool_total_size(pool))
                                     * fuzz_below(&in, 101) / 100, op % 8 == 6);
            break;
        default:
            double_spend(&m, pool, i, &in);
            break;
        }
        model_verify(&m, pool);
        FUZZ_CHECK(check_failures() == 0);
    }
    mempool_free(pool);
    model_free(&m);
    return 0;
}
