/* The mempool model checker (mempool_model.h). */
#include "mempool_model.h"

#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Index of the workload transaction with this txid among the first n, or -1. */
long model_find(const mempool_workload *w, size_t n, const unsigned char txid[32]) {
    size_t i;
    for (i = 0; i < n; i++) {
        if (memcmp(w->txs[i].txid, txid, 32) == 0) {
            return (long)i;
        }
    }
    return -1;
}



void model_init(model *m, const mempool_workload *w) {
    size_t i, k;
    m->w = w;
    m->n = w->count;
    m->par = calloc(m->n, sizeof(*m->par));
    m->chi = calloc(m->n, sizeof(*m->chi));
    m->npar = calloc(m->n, sizeof(uint32_t));
    m->nchi = calloc(m->n, sizeof(uint32_t));
    m->present = calloc(m->n, 1);
    m->queue = calloc(m->n, sizeof(uint32_t));
    m->mark = calloc(m->n, sizeof(uint32_t));
    m->mark2 = calloc(m->n, sizeof(uint32_t));
    m->buf = calloc(m->n, sizeof(*m->buf));
    m->epoch = 0;
    if (!m->par || !m->chi || !m->npar || !m->nchi || !m->present || !m->queue ||
        !m->mark || !m->mark2 || !m->buf) {
        fprintf(stderr, "mempool model: out of memory\n");
        exit(1);
    }
    for (i = 0; i < m->n; i++) {
        m->par[i] = calloc(10, sizeof(uint32_t));
        m->chi[i] = calloc(11, sizeof(uint32_t));
        if (!m->par[i] || !m->chi[i]) {
            fprintf(stderr, "mempool model: out of memory\n");
            exit(1);
        }
    }
    for (i = 0; i < m->n; i++) {
        for (k = 0; k < w->txs[i].vin_count; k++) {
            long p = model_find(w, i, w->txs[i].vin[k].prevout.txid);
            uint32_t j;
            int dup = 0;
            if (p < 0) {
                continue;
            }
            for (j = 0; j < m->npar[i]; j++) {
                dup |= m->par[i][j] == (uint32_t)p;
            }
            if (!dup) {
                m->par[i][m->npar[i]++] = (uint32_t)p;
                m->chi[p][m->nchi[p]++] = (uint32_t)i;
            }
        }
    }
}

void model_free(model *m) {
    size_t i;
    for (i = 0; i < m->n; i++) {
        free(m->par[i]);
        free(m->chi[i]);
    }
    free(m->par);
    free(m->chi);
    free(m->npar);
    free(m->nchi);
    free(m->present);
    free(m->queue);
    free(m->mark);
    free(m->mark2);
    free(m->buf);
}

/* The present entries reachable from i (i included) going up (parents) or
 * down (children), into m->queue, marked with a new epoch; returns how many. */
uint32_t model_closure(model *m, uint32_t i, int up) {
    uint32_t qn = 1, q, j;
    m->epoch++;
    m->queue[0] = i;
    m->mark[i] = m->epoch;
    for (q = 0; q < qn; q++) {
        uint32_t x = m->queue[q], n = up ? m->npar[x] : m->nchi[x];
        const uint32_t *v = up ? m->par[x] : m->chi[x];
        for (j = 0; j < n; j++) {
            if (m->present[v[j]] && m->mark[v[j]] != m->epoch) {
                m->mark[v[j]] = m->epoch;
                m->queue[qn++] = v[j];
            }
        }
    }
    return qn;
}

/* Sums of the closure in m->queue. */
void model_sums(const model *m, uint32_t qn, uint64_t *size, int64_t *fees) {
    uint32_t q;
    *size = 0;
    *fees = 0;
    for (q = 0; q < qn; q++) {
        *size += m->w->txs[m->queue[q]].vsize;
        *fees += m->w->txs[m->queue[q]].fee;
    }
}

/* The set mempool_ancestors/descendants reports equals the closure just
 * computed (marks of m->epoch), minus i itself. */
static int model_same_set(model *m, mempool *pool, uint32_t i, int up, uint32_t qn) {
    size_t cnt = 0, j;
    int ok;
    const mempool_tx *t = &m->w->txs[i];
    ok = (up ? mempool_ancestors(pool, t->txid, m->buf, m->n, &cnt)
             : mempool_descendants(pool, t->txid, m->buf, m->n, &cnt)) == 0;
    ok = ok && cnt + 1 == qn;
    for (j = 0; ok && j < cnt; j++) {
        long x = m->buf[j] - m->w->txs;
        ok = x >= 0 && (size_t)x < m->n && (uint32_t)x != i && m->mark[x] == m->epoch &&
             m->mark2[x] != m->epoch; /* distinct */
        if (ok) {
            m->mark2[x] = m->epoch;
        }
    }
    return ok;
}

/* Compares everything the pool reports with the model. */
void model_verify(model *m, mempool *pool) {
    size_t i, k, cnt = 0, listed, bad = 0;
    uint64_t total = 0, usage = 0;
    for (i = 0; i < m->n; i++) {
        const mempool_tx *t = &m->w->txs[i];
        mempool_entry_info info;
        uint64_t size;
        int64_t fees;
        uint32_t qn;
        if (mempool_exists(pool, t->txid) != m->present[i]) {
            bad++;
            continue;
        }
        for (k = 0; k < t->vin_count; k++) {
            const mempool_tx *sp = mempool_spender(pool, t->vin[k].prevout.txid,
                                                   t->vin[k].prevout.n);
            bad += sp != (m->present[i] ? t : NULL);
        }
        if (!m->present[i]) {
            bad += mempool_lookup(pool, t->txid, &info) != -1;
            continue;
        }
        cnt++;
        total += t->vsize;
        if (mempool_lookup(pool, t->txid, &info) != 0) {
            bad++;
            continue;
        }
        bad += info.tx != t || info.fee != t->fee || info.size != t->vsize;
        /* An entry's share covers at least its transaction's memory. */
        bad += info.usage < mempool_tx_dynamic_usage(t);
        usage += info.usage;
        qn = model_closure(m, (uint32_t)i, 1);
        model_sums(m, qn, &size, &fees);
        bad += info.ancestor_count != qn || info.ancestor_size != size ||
               info.ancestor_fees != fees;
        bad += !model_same_set(m, pool, (uint32_t)i, 1, qn);
        qn = model_closure(m, (uint32_t)i, 0);
        model_sums(m, qn, &size, &fees);
        bad += info.descendant_count != qn || info.descendant_size != size ||
               info.descendant_fees != fees;
        bad += !model_same_set(m, pool, (uint32_t)i, 0, qn);
    }
    CHECKF(bad == 0, "%zu mismatches between the pool and the model", bad);
    CHECK(mempool_count(pool) == cnt);
    CHECK(mempool_total_size(pool) == total);
    CHECK(mempool_dynamic_usage(pool) == usage);
    CHECK((usage == 0) == (cnt == 0));
    listed = mempool_list(pool, m->buf, m->n);
    CHECK(listed == cnt);
    for (i = 0; i < listed && i < m->n; i++) {
        long x = m->buf[i] - m->w->txs;
        CHECK(x >= 0 && (size_t)x < m->n && m->present[x]);
    }
}

/* ---- trimming ------------------------------------------------------------------- */

typedef struct {
    model *m;
    unsigned char *evicted; /* members of evicted closures, by workload index */
    uint64_t limit;
    int by_usage;         /* mempool_trim_to_usage, else mempool_trim */
    int64_t max_rate;     /* highest evicted package rate + incremental fee */
    size_t packages, expected;
    mempool *pool;
} model_trim_ctx;

/* What the trim compares with its limit. */
static uint64_t model_trim_measure(const model_trim_ctx *c) {
    return c->by_usage ? mempool_dynamic_usage(c->pool) : mempool_total_size(c->pool);
}

/* Called before each eviction: the root must have the lowest descendant fee
 * rate in the pool, recomputed from scratch; records its closure. */
static void model_on_evict(void *arg, mempool *pool, const unsigned char txid[32]) {
    model_trim_ctx *c = arg;
    model *m = c->m;
    long root = model_find(m->w, m->n, txid);
    uint64_t rsize, size;
    int64_t rfees, fees;
    uint32_t i, qn;
    CHECK(pool == c->pool);
    CHECK(model_trim_measure(c) > c->limit);
    if (!CHECK(root >= 0 && m->present[root])) {
        return;
    }
    model_sums(m, model_closure(m, (uint32_t)root, 0), &rsize, &rfees);
    if (rfees * 1000 / (int64_t)rsize + MEMPOOL_INCREMENTAL_RELAY_FEE > c->max_rate) {
        c->max_rate = rfees * 1000 / (int64_t)rsize + MEMPOOL_INCREMENTAL_RELAY_FEE;
    }
    for (i = 0; i < m->n; i++) {
        if (!m->present[i]) {
            continue;
        }
        model_sums(m, model_closure(m, i, 0), &size, &fees);
        /* rfees/rsize <= fees/size; the products fit easily in 64 bits here. */
        CHECKF(rfees * (int64_t)size <= fees * (int64_t)rsize,
               "evicted root %ld (%lld/%llu) but %u has %lld/%llu", root, (long long)rfees,
               (unsigned long long)rsize, i, (long long)fees, (unsigned long long)size);
    }
    /* Removed right after this returns: the model drops them now, so that the
     * next call sees the pool as it will be then. */
    qn = model_closure(m, (uint32_t)root, 0);
    for (i = 0; i < qn; i++) {
        c->evicted[m->queue[i]] = 1;
        m->present[m->queue[i]] = 0;
    }
    c->expected += qn;
    c->packages++;
}

/* Trims through the pool with the checking callback (by total size, or by
 * dynamic usage); the model follows. */
size_t model_trim(model *m, mempool *pool, uint64_t limit, int by_usage) {
    model_trim_ctx c;
    size_t n;
    c.m = m;
    c.evicted = calloc(m->n, 1);
    c.limit = limit;
    c.by_usage = by_usage;
    c.max_rate = mempool_min_fee_rate(pool);
    c.packages = c.expected = 0;
    c.pool = pool;
    if (c.evicted == NULL) {
        fprintf(stderr, "mempool model: out of memory\n");
        exit(1);
    }
    n = by_usage ? mempool_trim_to_usage(pool, limit, model_on_evict, &c)
                 : mempool_trim(pool, limit, model_on_evict, &c);
    CHECK(n == c.expected);
    CHECK(model_trim_measure(&c) <= limit);
    CHECK(mempool_min_fee_rate(pool) == c.max_rate);
    free(c.evicted);
    return c.packages;
}

/* Whether adding i must give MEMPOOL_ERR_HAS_CHILDREN: some present entry
 * spends an output of i. The model's links are by txid alone, so this holds
 * for any output index; workload transactions spend only indices their
 * parents have, and the outsider op of test_model_random covers the rest. */
int model_has_present_child(const model *m, uint32_t i) {
    uint32_t j;
    for (j = 0; j < m->nchi[i]; j++) {
        if (m->present[m->chi[i][j]]) {
            return 1;
        }
    }
    return 0;
}

