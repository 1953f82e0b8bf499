/* Tests for the toy mempool, its transactions and the ComplexMemPool workload.
 *
 * The pool is checked against a model that knows only which workload
 * transactions are in the pool: after every operation each entry's ancestor
 * and descendant count, size and fees, its ancestor and descendant sets and the
 * spent-outpoint map are recomputed from scratch (walks over the graph that
 * the transactions' inputs define) and compared with what the pool reports. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_OPENSSL
#include <openssl/sha.h>
#endif

#include "check.h"
#include "mempool_model.h"
#include "crypto/sha256.h"
#include "mempool/mempool.h"
#include "mempool/mempool_json.h"
#include "mempool/policy.h"
#include "mempool/workload.h"
#include "util/alloc.h"

/* ---- transactions ----------------------------------------------------------- */

/* Double SHA-256, from OpenSSL when there is one: independent of our code. */
static void dsha256(unsigned char out[32], const unsigned char *data, size_t len) {
    unsigned char h[32];
#ifdef HAVE_OPENSSL
    SHA256(data, len, h);
    SHA256(h, 32, out);
#else
    sha256_hash(h, data, len);
    sha256_hash(out, h, 32);
#endif
}

static unsigned char *put_le(unsigned char *p, uint64_t v, int bytes) {
    int i;
    for (i = 0; i < bytes; i++) {
        *p++ = (unsigned char)(v >> (8 * i));
    }
    return p;
}

static unsigned char *put_compact(unsigned char *p, uint64_t n) {
    if (n < 253) {
        return put_le(p, n, 1);
    }
    if (n <= 0xffff) {
        *p++ = 253;
        return put_le(p, n, 2);
    }
    if (n <= 0xffffffffu) {
        *p++ = 254;
        return put_le(p, n, 4);
    }
    *p++ = 255;
    return put_le(p, n, 8);
}

static unsigned char *put_script(unsigned char *p, mempool_script *s) {
    size_t n = mempool_script_size(s);
    p = put_compact(p, n);
    if (n > 0) {
        memcpy(p, mempool_script_data(s), n);
    }
    return p + n;
}

/* The serialisation written out by hand, field by field; with witness set
 * and some input having a witness, the BIP 144 form (marker 0 and flag 1
 * after the version, each input's stack after the outputs). buf must be large
 * enough (the caller sizes it generously). Returns its length. */
static size_t hand_serialize(mempool_tx *tx, unsigned char *buf, int witness) {
    unsigned char *p = buf;
    size_t i, any = 0;
    for (i = 0; witness && i < tx->vin_count; i++) {
        any += mempool_script_size(&tx->vin[i].witness) > 0;
    }
    p = put_le(p, (uint32_t)tx->version, 4);
    if (any) {
        *p++ = 0;
        *p++ = 1;
    }
    p = put_compact(p, tx->vin_count);
    for (i = 0; i < tx->vin_count; i++) {
        memcpy(p, tx->vin[i].prevout.txid, 32);
        p = put_le(p + 32, tx->vin[i].prevout.n, 4);
        p = put_script(p, &tx->vin[i].script_sig);
        p = put_le(p, tx->vin[i].sequence, 4);
    }
    p = put_compact(p, tx->vout_count);
    for (i = 0; i < tx->vout_count; i++) {
        p = put_le(p, (uint64_t)tx->vout[i].value, 8);
        p = put_script(p, &tx->vout[i].script_pubkey);
    }
    for (i = 0; any && i < tx->vin_count; i++) {
        if (mempool_script_size(&tx->vin[i].witness) == 0) {
            *p++ = 0;
        } else {
            *p++ = 1;
            p = put_script(p, &tx->vin[i].witness);
        }
    }
    p = put_le(p, tx->locktime, 4);
    return (size_t)(p - buf);
}

/* Bitcoin's genesis coinbase transaction: a known answer for txid and size. */
static void test_genesis(void) {
    static const char sig_hex[] =
        "04ffff001d0104455468652054696d65732030332f4a616e2f32303039204368616e63656c6c"
        "6f72206f6e206272696e6b206f66207365636f6e64206261696c6f757420666f722062616e6b73";
    static const char pk_hex[] =
        "4104678afdb0fe5548271967f1a67130b7105cd6a828e03909a67962e0ea1f61deb649f6bc3f4c"
        "ef38c4f35504e51ec112de5c384df7ba0b8d578a4c702b6bf11d5fac";
    static const char txid_hex[] =
        "4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b";
    unsigned char sig[100], pk[100], want[32], got[32];
    size_t nsig = check_unhex(sig, sizeof(sig), sig_hex);
    size_t npk = check_unhex(pk, sizeof(pk), pk_hex);
    mempool_tx tx;
    byte_stream s;
    int i;
    CHECK(check_unhex(want, 32, txid_hex) == 32);
    mempool_tx_init(&tx);
    stream_init(&s);
    tx.version = 1;
    CHECK(mempool_tx_set_counts(&tx, 1, 1) == 0);
    tx.vin[0].prevout.n = 0xffffffffu;
    CHECK(mempool_script_assign(&tx.vin[0].script_sig, sig, nsig) == 0);
    tx.vout[0].value = 5000000000;
    CHECK(mempool_script_assign(&tx.vout[0].script_pubkey, pk, npk) == 0);
    CHECK(mempool_tx_finalize(&tx, &s) == 0);
    for (i = 0; i < 32; i++) {
        got[i] = tx.txid[31 - i]; /* displayed txids are byte-reversed */
    }
    CHECK(memcmp(got, want, 32) == 0);
    CHECK(tx.size == 204);
    mempool_tx_destroy(&tx);
    stream_destroy(&s);
}

static void random_script(mempool_script *s) {
    unsigned char b[600];
    /* Empty, inline, just past inline, and past CompactSize's one-byte form. */
    static const size_t lens[] = {0, 1, 25, 28, 29, 100, 252, 253, 600};
    size_t n = lens[check_rng_below(sizeof(lens) / sizeof(lens[0]))];
    check_rng_fill(b, n);
    CHECK(mempool_script_assign(s, b, n) == 0);
}

static void random_tx(mempool_tx *tx) {
    size_t i, nin = (size_t)check_rng_below(5), nout = (size_t)check_rng_below(5);
    if (check_rng_below(8) == 0) {
        nin = 253 + (size_t)check_rng_below(3); /* a three-byte input count */
    }
    CHECK(mempool_tx_set_counts(tx, nin, nout) == 0);
    tx->version = (int32_t)check_rng_u64();
    tx->locktime = (uint32_t)check_rng_u64();
    for (i = 0; i < nin; i++) {
        check_rng_fill(&tx->vin[i].prevout, sizeof(tx->vin[i].prevout));
        tx->vin[i].sequence = (uint32_t)check_rng_u64();
        if (check_rng_below(4) == 0) {
            random_script(&tx->vin[i].script_sig);
        }
        if (check_rng_below(4) == 0) {
            random_script(&tx->vin[i].witness);
        }
    }
    for (i = 0; i < nout; i++) {
        tx->vout[i].value = (int64_t)check_rng_u64();
        random_script(&tx->vout[i].script_pubkey);
    }
}

/* txid = double SHA-256 of an independently written serialisation; weight =
 * 3 x its length + the length with witness data. */
static void test_txid_random(void) {
    static unsigned char buf[1 << 20], wbuf[1 << 20];
    byte_stream s;
    int iter;
    stream_init(&s);
    for (iter = 0; iter < 200; iter++) {
        mempool_tx tx;
        unsigned char want[32];
        size_t n, wn;
        mempool_tx_init(&tx);
        random_tx(&tx);
        n = hand_serialize(&tx, buf, 0);
        dsha256(want, buf, n);
        CHECK(mempool_tx_serialized_size(&tx) == n);
        stream_clear(&s);
        CHECK(mempool_tx_serialize(&tx, &s) == 0);
        CHECK(s.size == n && memcmp(s.data, buf, n) == 0);
        CHECK(mempool_tx_finalize(&tx, &s) == 0);
        CHECKF(memcmp(tx.txid, want, 32) == 0 && tx.size == n, "iteration %d", iter);
        wn = hand_serialize(&tx, wbuf, 1);
        CHECKF(tx.weight == 3 * n + wn && tx.vsize == (3 * n + wn + 3) / 4,
               "iteration %d: weight %u, vsize %u, sizes %zu and %zu", iter, tx.weight, tx.vsize,
               n, wn);
        mempool_tx_destroy(&tx);
    }
    stream_destroy(&s);
}

/* Every allocation of set_counts and finalize may fail, leaving tx unchanged. */
static void test_tx_alloc_failure(void) {
    mempool_tx tx;
    unsigned char before[32];
    long k;
    int done = 0;
    mempool_tx_init(&tx);
    random_tx(&tx);
    memset(tx.txid, 0xab, 32);
    memcpy(before, tx.txid, 32);
    for (k = 0; !done; k++) {
        byte_stream s;
        int rc;
        stream_init(&s);
        bb_alloc_fail_after(k);
        rc = mempool_tx_finalize(&tx, &s);
        bb_alloc_fail_after(-1);
        if (rc != 0) {
            CHECK(memcmp(tx.txid, before, 32) == 0 && s.size == 0);
        } else {
            done = 1;
        }
        stream_destroy(&s);
    }
    for (k = 0, done = 0; !done; k++) {
        size_t nin = tx.vin_count, nout = tx.vout_count;
        int rc;
        bb_alloc_fail_after(k);
        rc = mempool_tx_set_counts(&tx, nin + 3, nout + 2);
        bb_alloc_fail_after(-1);
        if (rc != 0) {
            CHECK(tx.vin_count == nin && tx.vout_count == nout);
        } else {
            CHECK(tx.vin_count == nin + 3 && tx.vout_count == nout + 2);
            done = 1;
        }
    }
    mempool_tx_destroy(&tx);
    CHECK(tx.vin == NULL && tx.vout == NULL && tx.vin_count == 0);
}

/* ---- workload ----------------------------------------------------------------- */

static void test_workload(void) {
    mempool_workload a, b, c;
    size_t i, k, children = 300, same = 0, spent_total = 0;
    unsigned char *spent;
    static unsigned char buf[4096];
    CHECK(mempool_workload_make(&a, children, MEMPOOL_WORKLOAD_SEED) == 0);
    CHECK(mempool_workload_make(&b, children, MEMPOOL_WORKLOAD_SEED) == 0);
    CHECK(mempool_workload_make(&c, children, MEMPOOL_WORKLOAD_SEED + 1) == 0);
    CHECK(a.count == 100 + children && b.count == a.count && c.count == a.count);
    for (i = 0; i < a.count && i < b.count; i++) {
        CHECK(memcmp(a.txs[i].txid, b.txs[i].txid, 32) == 0);
        CHECK(a.txs[i].fee == b.txs[i].fee);
        same += i < c.count && memcmp(a.txs[i].txid, c.txs[i].txid, 32) == 0;
    }
    CHECK(same == 0);
    spent = calloc(a.count * 11, 1);
    CHECK(spent != NULL);
    for (i = 0; i < a.count && spent != NULL; i++) {
        const mempool_tx *tx = &a.txs[i];
        unsigned char want[32];
        size_t n = hand_serialize((mempool_tx *)tx, buf, 0);
        dsha256(want, buf, n);
        CHECK(memcmp(want, tx->txid, 32) == 0 && tx->size == n);
        CHECK(tx->vout_count >= 2 && tx->vout_count <= 11);
        CHECK(tx->vin_count >= 1 && tx->vin_count <= 10);
        CHECK(tx->fee % tx->size == 0 && tx->fee / tx->size >= 1 && tx->fee / tx->size <= 100);
        for (k = 0; k < tx->vin_count; k++) {
            long par = model_find(&a, a.count, tx->vin[k].prevout.txid);
            if (i < MEMPOOL_WORKLOAD_BASE_TXS) {
                CHECK(par < 0 && tx->vin_count == 1);
            } else if (par >= 0) {
                size_t o = tx->vin[k].prevout.n;
                CHECK((size_t)par < i && o < a.txs[par].vout_count);
                CHECK(!spent[(size_t)par * 11 + o]); /* no outpoint spent twice */
                spent[(size_t)par * 11 + o] = 1;
                spent_total++;
            } else {
                CHECK(tx->vin_count == 1); /* only when no unspent coin was left */
            }
        }
    }
    CHECK(spent_total > children); /* the graph is dense: many multi-input children */
    free(spent);
    mempool_workload_destroy(&a);
    mempool_workload_destroy(&b);
    mempool_workload_destroy(&c);
    CHECK(a.txs == NULL && a.count == 0);
}

static void test_workload_alloc_failure(void) {
    long k;
    for (k = 0;; k++) {
        mempool_workload w;
        int rc;
        bb_alloc_fail_after(k);
        rc = mempool_workload_make(&w, 20, 7);
        bb_alloc_fail_after(-1);
        if (rc == 0) {
            CHECK(w.count == 120);
            mempool_workload_destroy(&w);
            break;
        }
        CHECK(w.txs == NULL && w.count == 0); /* and nothing leaked (ASan) */
    }
    CHECK(k > 0);
}

/* ---- the random model test ---------------------------------------------------- */

static uint32_t random_with(const model *m, int present) {
    uint32_t i = (uint32_t)check_rng_below(m->n), k;
    for (k = 0; k < m->n; k++, i = (i + 1) % (uint32_t)m->n) {
        if (m->present[i] == present) {
            return i;
        }
    }
    return UINT32_MAX;
}

static void test_model_random(void) {
    mempool_workload w;
    model m;
    mempool *pool;
    uint64_t salt[2];
    size_t children = 30 + (size_t)check_rng_below(170), packages = 0, lowest = 0;
    int step, adds = 0, removes = 0, trims = 0, refused = 0;
    salt[0] = check_rng_u64();
    salt[1] = check_rng_u64();
    CHECK(mempool_workload_make(&w, children, check_rng_u64()) == 0);
    model_init(&m, &w);
    pool = mempool_new(salt);
    if (!CHECK(pool != NULL)) {
        model_free(&m);
        mempool_workload_destroy(&w);
        return;
    }
    for (step = 0; step < 300; step++) {
        int op = (int)check_rng_below(13);
        uint32_t i;
        if (op < 6) {
            /* Add: mostly the lowest absent transaction, so that the pool
             * fills up the way the workload was meant to be added. */
            if (op < 3) {
                while (lowest < m.n && m.present[lowest]) {
                    lowest++;
                }
                i = lowest < m.n ? (uint32_t)lowest : UINT32_MAX;
            } else {
                i = random_with(&m, 0);
            }
            if (i == UINT32_MAX) {
                continue;
            }
            if (model_has_present_child(&m, i)) {
                CHECK(mempool_add(pool, &w.txs[i]) == MEMPOOL_ERR_HAS_CHILDREN);
                refused++;
            } else {
                CHECK(mempool_add(pool, &w.txs[i]) == MEMPOOL_OK);
                m.present[i] = 1;
                adds++;
            }
        } else if (op < 8) {
            size_t removed = 99, qn, k;
            i = random_with(&m, 1);
            if (i == UINT32_MAX) {
                continue;
            }
            qn = model_closure(&m, i, 0);
            CHECK(mempool_remove(pool, w.txs[i].txid, &removed) == MEMPOOL_OK);
            CHECK(removed == qn);
            for (k = 0; k < qn; k++) {
                m.present[m.queue[k]] = 0;
            }
            lowest = 0;
            removes++;
        } else if (op < 10) {
            int by_usage = op == 9;
            uint64_t total = by_usage ? mempool_dynamic_usage(pool) : mempool_total_size(pool);
            packages += model_trim(&m, pool, total * check_rng_below(101) / 100, by_usage);
            lowest = 0;
            trims++;
        } else if (op == 10) {
            i = random_with(&m, 1);
            if (i != UINT32_MAX) {
                CHECK(mempool_add(pool, &w.txs[i]) == MEMPOOL_ERR_DUPLICATE);
                refused++;
            }
        } else if (op == 12) {
            /* An outsider spending an output index that workload transaction i
             * lacks: refused while i is in the pool; otherwise accepted, and
             * then i's add is refused (its child came first) until it leaves. */
            mempool_tx tx;
            byte_stream s;
            size_t removed = 99;
            i = (uint32_t)check_rng_below(m.n);
            mempool_tx_init(&tx);
            stream_init(&s);
            CHECK(mempool_tx_set_counts(&tx, 2, 1) == 0);
            check_rng_fill(&tx.vin[0].prevout, sizeof(tx.vin[0].prevout));
            memcpy(tx.vin[1].prevout.txid, w.txs[i].txid, 32);
            tx.vin[1].prevout.n = (uint32_t)(w.txs[i].vout_count + check_rng_below(3));
            tx.fee = 1000;
            CHECK(mempool_tx_finalize(&tx, &s) == 0);
            if (m.present[i]) {
                CHECK(mempool_add(pool, &tx) == MEMPOOL_ERR_INVALID);
            } else {
                CHECK(mempool_add(pool, &tx) == MEMPOOL_OK);
                CHECK(mempool_add(pool, &w.txs[i]) == MEMPOOL_ERR_HAS_CHILDREN);
                CHECK(mempool_remove(pool, tx.txid, &removed) == MEMPOOL_OK && removed == 1);
            }
            CHECK(!mempool_exists(pool, tx.txid));
            mempool_tx_destroy(&tx);
            stream_destroy(&s);
            refused++;
        } else {
            /* A transaction double-spending one input of an entry in the pool. */
            mempool_tx tx;
            byte_stream s;
            i = random_with(&m, 1);
            if (i == UINT32_MAX) {
                continue;
            }
            mempool_tx_init(&tx);
            stream_init(&s);
            CHECK(mempool_tx_set_counts(&tx, 2, 1) == 0);
            check_rng_fill(&tx.vin[0].prevout, sizeof(tx.vin[0].prevout));
            tx.vin[1].prevout = w.txs[i].vin[check_rng_below(w.txs[i].vin_count)].prevout;
            tx.fee = 1000;
            CHECK(mempool_tx_finalize(&tx, &s) == 0);
            CHECK(mempool_add(pool, &tx) == MEMPOOL_ERR_CONFLICT);
            CHECK(mempool_spender(pool, tx.vin[0].prevout.txid, tx.vin[0].prevout.n) == NULL);
            mempool_tx_destroy(&tx);
            stream_destroy(&s);
            refused++;
        }
        model_verify(&m, pool);
    }
    /* Fill completely, then trim to empty the way the benchmark does. */
    for (step = 0; step < (int)m.n; step++) {
        if (!m.present[step] && !model_has_present_child(&m, (uint32_t)step)) {
            CHECK(mempool_add(pool, &w.txs[step]) == MEMPOOL_OK);
            m.present[step] = 1;
        }
    }
    model_verify(&m, pool);
    packages += model_trim(&m, pool, mempool_dynamic_usage(pool) * 3 / 4, 1);
    model_verify(&m, pool);
    packages += model_trim(&m, pool, mempool_total_size(pool) / 2, 0);
    model_verify(&m, pool);
    packages += model_trim(&m, pool, 0, 0);
    model_verify(&m, pool);
    CHECK(mempool_count(pool) == 0 && mempool_total_size(pool) == 0);
    CHECK(mempool_dynamic_usage(pool) == 0);
    CHECK(adds > 0 && removes > 0 && trims > 0 && refused > 0 && packages > 0);
    mempool_free(pool);
    model_free(&m);
    mempool_workload_destroy(&w);
}

/* ---- refusals ------------------------------------------------------------------ */

static void make_tx(mempool_tx *tx, byte_stream *s, const mempool_outpoint *ins, size_t nin,
                    size_t nout, int64_t fee) {
    size_t k;
    mempool_tx_init(tx);
    CHECK(mempool_tx_set_counts(tx, nin, nout) == 0);
    for (k = 0; k < nin; k++) {
        tx->vin[k].prevout = ins[k];
    }
    for (k = 0; k < nout; k++) {
        tx->vout[k].value = (int64_t)(k + 1);
    }
    tx->fee = fee;
    CHECK(mempool_tx_finalize(tx, s) == 0);
}

static void test_refusals(void) {
    mempool *pool = mempool_new(NULL);
    byte_stream s;
    mempool_outpoint o[4];
    mempool_tx a, b, x, y, z, dup2, bad;
    mempool_entry_info info;
    size_t removed = 7, k;
    int i;
    CHECK(pool != NULL);
    if (pool == NULL) {
        return;
    }
    stream_init(&s);
    for (i = 0; i < 4; i++) {
        check_rng_fill(&o[i], sizeof(o[i]));
    }
    make_tx(&a, &s, &o[0], 1, 3, 500);
    CHECK(mempool_add(pool, &a) == MEMPOOL_OK);
    CHECK(mempool_add(pool, &a) == MEMPOOL_ERR_DUPLICATE);
    /* b spends a:1 and an unknown coin. */
    {
        mempool_outpoint ins[2];
        memcpy(ins[0].txid, a.txid, 32);
        ins[0].n = 1;
        ins[1] = o[1];
        make_tx(&b, &s, ins, 2, 2, 300);
    }
    CHECK(mempool_add(pool, &b) == MEMPOOL_OK);

    /* x spends two fresh coins, then a:1 again: refused, and the two fresh
     * coins it claimed before meeting the conflict are released. */
    {
        mempool_outpoint ins[3];
        ins[0] = o[2];
        ins[1] = o[3];
        memcpy(ins[2].txid, a.txid, 32);
        ins[2].n = 1;
        make_tx(&x, &s, ins, 3, 1, 100);
    }
    CHECK(mempool_add(pool, &x) == MEMPOOL_ERR_CONFLICT);
    CHECK(!mempool_exists(pool, x.txid) && mempool_count(pool) == 2);
    CHECK(mempool_spender(pool, o[2].txid, o[2].n) == NULL);
    CHECK(mempool_spender(pool, a.txid, 1) == &b);
    CHECK(mempool_lookup(pool, a.txid, &info) == 0 && info.descendant_count == 2);
    CHECK(info.descendant_size == (uint64_t)a.size + b.size && info.descendant_fees == 800);
    make_tx(&y, &s, &o[2], 1, 1, 100);
    CHECK(mempool_add(pool, &y) == MEMPOOL_OK);

    /* A transaction spending the same coin twice is a conflict with itself. */
    {
        mempool_outpoint ins[2];
        ins[0] = o[3];
        ins[1] = o[3];
        make_tx(&dup2, &s, ins, 2, 1, 100);
    }
    CHECK(mempool_add(pool, &dup2) == MEMPOOL_ERR_CONFLICT);
    CHECK(mempool_spender(pool, o[3].txid, o[3].n) == NULL);
    make_tx(&z, &s, &o[3], 1, 1, 100);
    CHECK(mempool_add(pool, &z) == MEMPOOL_OK);

    /* An output index a's transaction does not have; a negative fee; an
     * unfinalized transaction. */
    {
        mempool_outpoint in;
        memcpy(in.txid, a.txid, 32);
        in.n = 3;
        make_tx(&bad, &s, &in, 1, 1, 100);
        CHECK(mempool_add(pool, &bad) == MEMPOOL_ERR_INVALID);
        mempool_tx_destroy(&bad);
        in.n = 2;
        make_tx(&bad, &s, &in, 1, 1, -1);
        CHECK(mempool_add(pool, &bad) == MEMPOOL_ERR_INVALID);
        bad.fee = 0;
        bad.vsize = 0; /* as if never finalized */
        CHECK(mempool_add(pool, &bad) == MEMPOOL_ERR_INVALID);
        mempool_tx_destroy(&bad);
    }
    CHECK(mempool_count(pool) == 4);
    CHECK(mempool_total_size(pool) == (uint64_t)a.size + b.size + y.size + z.size);

    /* A parent arriving after its child would corrupt the bookkeeping. */
    CHECK(mempool_remove(pool, a.txid, &removed) == MEMPOOL_OK && removed == 2);
    CHECK(mempool_add(pool, &b) == MEMPOOL_OK);
    CHECK(mempool_add(pool, &a) == MEMPOOL_ERR_HAS_CHILDREN);
    CHECK(mempool_remove(pool, b.txid, &removed) == MEMPOOL_OK && removed == 1);
    CHECK(mempool_add(pool, &a) == MEMPOOL_OK);

    removed = 7;
    CHECK(mempool_remove(pool, o[0].txid, &removed) == MEMPOOL_ERR_NOT_FOUND && removed == 0);
    CHECK(mempool_ancestors(pool, o[0].txid, NULL, 0, &k) == -1 && k == 0);
    CHECK(mempool_lookup(pool, o[0].txid, &info) == -1);
    CHECK(mempool_trim(pool, mempool_total_size(pool), NULL, NULL) == 0);
    CHECK(mempool_trim(pool, 0, NULL, NULL) == 3 && mempool_count(pool) == 0);

    mempool_free(pool);
    mempool_tx_destroy(&a);
    mempool_tx_destroy(&b);
    mempool_tx_destroy(&x);
    mempool_tx_destroy(&y);
    mempool_tx_destroy(&z);
    mempool_tx_destroy(&dup2);
    stream_destroy(&s);
}

/* Known eviction orders: by descendant fee rate of the root's package, ties
 * to the newer root, a package judged by its root's descendant rate. */
typedef struct {
    const unsigned char *txids[8];
    size_t n;
} evict_log;

static void log_evict(void *arg, mempool *pool, const unsigned char txid[32]) {
    evict_log *l = arg;
    (void)pool;
    if (l->n < 8) {
        l->txids[l->n] = txid;
    }
    l->n++;
}

static void test_trim_order(void) {
    mempool *pool = mempool_new(NULL);
    byte_stream s;
    mempool_outpoint o[4], in;
    mempool_tx t[5];
    evict_log log;
    int i;
    if (!CHECK(pool != NULL)) {
        return;
    }
    stream_init(&s);
    for (i = 0; i < 4; i++) {
        check_rng_fill(&o[i], sizeof(o[i]));
    }
    /* t0, t1, t2 independent with one output each, so equal sizes; t0 and t2
     * pay the same rate, t1 more. t3 spends t1 and pays nothing, which drags
     * t1's package below t0/t2 even though t1 alone pays most; t4 spends t0
     * and pays a lot, lifting t0's package above t2. */
    make_tx(&t[0], &s, &o[0], 1, 1, 1000);
    make_tx(&t[1], &s, &o[1], 1, 1, 1500);
    make_tx(&t[2], &s, &o[2], 1, 1, 1000);
    memcpy(in.txid, t[1].txid, 32);
    in.n = 0;
    make_tx(&t[3], &s, &in, 1, 1, 0);
    memcpy(in.txid, t[0].txid, 32);
    make_tx(&t[4], &s, &in, 1, 1, 100000);
    CHECK(t[0].size == t[1].size && t[1].size == t[2].size);
    for (i = 0; i < 5; i++) {
        CHECK(mempool_add(pool, &t[i]) == MEMPOOL_OK);
    }
    /* Rates: t1's package 1500/2sz and t3 alone 0: t3 goes first, then
     * (t1 alone now pays 1500/sz) t2 before t0's package (t0+t4). */
    log.n = 0;
    CHECK(mempool_trim(pool, mempool_total_size(pool) - 1, log_evict, &log) == 1);
    CHECK(log.n == 1 && memcmp(log.txids[0], t[3].txid, 32) == 0);
    log.n = 0;
    CHECK(mempool_trim(pool, mempool_total_size(pool) - 1, log_evict, &log) == 1);
    CHECK(log.n == 1 && memcmp(log.txids[0], t[2].txid, 32) == 0);
    log.n = 0;
    CHECK(mempool_trim(pool, mempool_total_size(pool) - 1, log_evict, &log) == 1);
    CHECK(log.n == 1 && memcmp(log.txids[0], t[1].txid, 32) == 0);
    /* t0's package (t0 + t4) leaves whole, by t0's rate, before t4 alone. */
    log.n = 0;
    CHECK(mempool_trim(pool, mempool_total_size(pool) - 1, log_evict, &log) == 2);
    CHECK(log.n == 1 && memcmp(log.txids[0], t[0].txid, 32) == 0);
    CHECK(mempool_count(pool) == 0);

    /* Equal rates: the newer root goes first. */
    CHECK(mempool_add(pool, &t[2]) == MEMPOOL_OK);
    CHECK(mempool_add(pool, &t[0]) == MEMPOOL_OK);
    log.n = 0;
    CHECK(mempool_trim(pool, 0, log_evict, &log) == 2);
    CHECK(log.n == 2 && memcmp(log.txids[0], t[0].txid, 32) == 0 &&
          memcmp(log.txids[1], t[2].txid, 32) == 0);
    mempool_free(pool);
    for (i = 0; i < 5; i++) {
        mempool_tx_destroy(&t[i]);
    }
    stream_destroy(&s);
}

/* ---- fee limits ----------------------------------------------------------------- */

#define TEST_MAX_MONEY ((int64_t)21000000 * 100000000)

/* What a refused add must not change: the count, the total size, and the
 * state of up to 8 given transactions. */
typedef struct {
    size_t count;
    uint64_t size;
    int found[8];
    mempool_entry_info info[8];
} pool_state;

static void state_take(mempool *pool, const mempool_tx *const *txs, size_t n, pool_state *st) {
    size_t i;
    memset(st, 0, sizeof(*st));
    st->count = mempool_count(pool);
    st->size = mempool_total_size(pool);
    for (i = 0; i < n && i < 8; i++) {
        st->found[i] = mempool_lookup(pool, txs[i]->txid, &st->info[i]) == 0;
    }
}

static int state_same(mempool *pool, const mempool_tx *const *txs, size_t n,
                      const pool_state *a) {
    pool_state b;
    size_t i;
    int ok;
    state_take(pool, txs, n, &b);
    ok = a->count == b.count && a->size == b.size;
    for (i = 0; ok && i < n && i < 8; i++) {
        const mempool_entry_info *x = &a->info[i], *y = &b.info[i];
        ok = a->found[i] == b.found[i] &&
             (!a->found[i] ||
              (x->tx == y->tx && x->fee == y->fee && x->size == y->size &&
               x->ancestor_count == y->ancestor_count && x->ancestor_size == y->ancestor_size &&
               x->ancestor_fees == y->ancestor_fees &&
               x->descendant_count == y->descendant_count &&
               x->descendant_size == y->descendant_size &&
               x->descendant_fees == y->descendant_fees));
    }
    return ok;
}

static void spend(mempool_outpoint *o, const mempool_tx *parent, uint32_t n) {
    memcpy(o->txid, parent->txid, 32);
    o->n = n;
}

/* mempool_ancestors and mempool_descendants with out shorter than the set:
 * they write exactly min(count, cap) entries, each a member, and still report
 * the whole count (a caller sizes its array from it and asks again). A chain
 * a <- b <- c <- d: three descendants of a, three ancestors of d. */
static void test_partial_lists(void) {
    mempool *pool = mempool_new(NULL);
    byte_stream s;
    mempool_tx tx[4];
    mempool_outpoint in;
    static const mempool_tx canary; /* never in the pool */
    size_t i, cap, k, j;
    int up;
    if (!CHECK(pool != NULL)) {
        return;
    }
    stream_init(&s);
    check_rng_fill(&in, sizeof(in));
    for (i = 0; i < 4; i++) {
        make_tx(&tx[i], &s, &in, 1, 1, 100);
        CHECK(mempool_add(pool, &tx[i]) == MEMPOOL_OK);
        spend(&in, &tx[i], 0);
    }
    for (up = 0; up < 2; up++) {
        const mempool_tx *start = up ? &tx[3] : &tx[0];
        const mempool_tx *others = up ? &tx[0] : &tx[1]; /* the three in the set */
        for (cap = 0; cap <= 4; cap++) {
            const mempool_tx *out[6];
            int rc;
            for (k = 0; k < 6; k++) {
                out[k] = &canary;
            }
            k = 99;
            rc = up ? mempool_ancestors(pool, start->txid, out, cap, &k)
                    : mempool_descendants(pool, start->txid, out, cap, &k);
            CHECKF(rc == 0 && k == 3, "%s, cap %zu: rc %d, count %zu (want 3)",
                   up ? "ancestors" : "descendants", cap, rc, k);
            for (j = 0; j < 6; j++) {
                /* ==, not <: out[j] may be the canary, outside the array */
                int member = out[j] == &others[0] || out[j] == &others[1] ||
                             out[j] == &others[2];
                size_t l;
                for (l = 0; l < j; l++) {
                    member = member && out[l] != out[j]; /* distinct */
                }
                CHECKF(j < cap && j < 3 ? member : out[j] == &canary,
                       "%s, cap %zu: out[%zu] %s", up ? "ancestors" : "descendants", cap, j,
                       j < cap && j < 3 ? "not a member" : "written past min(count, cap)");
            }
        }
        k = 99;
        CHECK((up ? mempool_ancestors(pool, start->txid, NULL, 0, &k)
                  : mempool_descendants(pool, start->txid, NULL, 0, &k)) == 0 && k == 3);
    }
    mempool_free(pool);
    for (i = 0; i < 4; i++) {
        mempool_tx_destroy(&tx[i]);
    }
    stream_destroy(&s);
}

/* Fees above MAX_MONEY are refused, and so is an add that would take the
 * pool's total fees above INT64_MAX, so that no fee sum can wrap. */
static void test_fee_limits(void) {
    const size_t nfull = (size_t)(INT64_MAX / TEST_MAX_MONEY); /* 4392 */
    const int64_t rest = INT64_MAX % TEST_MAX_MONEY;
    mempool *pool = mempool_new(NULL);
    byte_stream s;
    mempool_outpoint o[6], in;
    mempool_tx t[4], root, one, big, zero, *kids;
    mempool_entry_info info;
    evict_log log;
    pool_state st;
    const mempool_tx *watch[4];
    size_t i, removed;
    if (!CHECK(pool != NULL)) {
        return;
    }
    kids = calloc(nfull, sizeof(*kids));
    if (kids == NULL) {
        fprintf(stderr, "test_mempool: out of memory\n");
        exit(1);
    }
    stream_init(&s);
    for (i = 0; i < 6; i++) {
        check_rng_fill(&o[i], sizeof(o[i]));
    }

    /* The old overflow: t0 and t1 (its child) each pay INT64_MAX, t2 (their
     * grandchild) 2, t3 alone 1. t0's package summed to 0 (mod 2^64) and was
     * evicted first. Now t0's and t1's fees are refused outright. */
    make_tx(&t[0], &s, &o[0], 1, 1, INT64_MAX);
    spend(&in, &t[0], 0);
    make_tx(&t[1], &s, &in, 1, 1, INT64_MAX);
    CHECK(mempool_add(pool, &t[0]) == MEMPOOL_ERR_INVALID);
    CHECK(mempool_add(pool, &t[1]) == MEMPOOL_ERR_INVALID);
    CHECK(mempool_count(pool) == 0 && mempool_total_size(pool) == 0);
    mempool_tx_destroy(&t[0]);
    mempool_tx_destroy(&t[1]);

    /* MAX_MONEY itself is a valid fee; one more is not. */
    make_tx(&big, &s, &o[1], 1, 1, TEST_MAX_MONEY + 1);
    CHECK(mempool_add(pool, &big) == MEMPOOL_ERR_INVALID && mempool_count(pool) == 0);
    big.fee = TEST_MAX_MONEY;
    CHECK(mempool_add(pool, &big) == MEMPOOL_OK);
    CHECK(mempool_lookup(pool, big.txid, &info) == 0 && info.fee == TEST_MAX_MONEY &&
          info.descendant_fees == TEST_MAX_MONEY && info.ancestor_fees == TEST_MAX_MONEY);
    CHECK(mempool_remove(pool, big.txid, &removed) == MEMPOOL_OK && removed == 1);

    /* The same shape at MAX_MONEY: exact sums, and t3 is evicted first. */
    make_tx(&t[0], &s, &o[0], 1, 1, TEST_MAX_MONEY);
    spend(&in, &t[0], 0);
    make_tx(&t[1], &s, &in, 1, 1, TEST_MAX_MONEY);
    spend(&in, &t[1], 0);
    make_tx(&t[2], &s, &in, 1, 1, 2);
    make_tx(&t[3], &s, &o[2], 1, 1, 1);
    for (i = 0; i < 4; i++) {
        CHECK(mempool_add(pool, &t[i]) == MEMPOOL_OK);
    }
    CHECK(mempool_lookup(pool, t[0].txid, &info) == 0 &&
          info.descendant_fees == 2 * TEST_MAX_MONEY + 2 && info.descendant_count == 3);
    CHECK(mempool_lookup(pool, t[2].txid, &info) == 0 &&
          info.ancestor_fees == 2 * TEST_MAX_MONEY + 2 && info.ancestor_count == 3);
    log.n = 0;
    CHECK(mempool_trim(pool, mempool_total_size(pool) - 1, log_evict, &log) == 1);
    CHECK(log.n == 1 && memcmp(log.txids[0], t[3].txid, 32) == 0);
    CHECK(mempool_trim(pool, 0, NULL, NULL) == 3 && mempool_count(pool) == 0);

    /* A root with nfull outputs paying the rest, and nfull children paying
     * MAX_MONEY each: the total is exactly INT64_MAX, and so is the root's
     * descendant fee sum. */
    make_tx(&root, &s, &o[3], 1, nfull, rest);
    for (i = 0; i < nfull; i++) {
        spend(&in, &root, (uint32_t)i);
        make_tx(&kids[i], &s, &in, 1, 1, TEST_MAX_MONEY);
    }
    CHECK(mempool_add(pool, &root) == MEMPOOL_OK);
    for (i = 0; i < nfull; i++) {
        CHECK(mempool_add(pool, &kids[i]) == MEMPOOL_OK);
    }
    CHECK(mempool_lookup(pool, root.txid, &info) == 0 && info.descendant_fees == INT64_MAX &&
          info.descendant_count == nfull + 1);
    CHECK(mempool_lookup(pool, kids[0].txid, &info) == 0 &&
          info.ancestor_fees == rest + TEST_MAX_MONEY);

    /* One more satoshi anywhere is refused (here a grandchild, as t2 above),
     * and the pool is as it was; a zero fee still fits. */
    spend(&in, &kids[0], 0);
    make_tx(&one, &s, &in, 1, 1, 1);
    watch[0] = &root;
    watch[1] = &kids[0];
    watch[2] = &kids[nfull - 1];
    watch[3] = &one;
    state_take(pool, watch, 4, &st);
    CHECK(mempool_add(pool, &one) == MEMPOOL_ERR_INVALID);
    CHECK(state_same(pool, watch, 4, &st));
    CHECK(mempool_spender(pool, kids[0].txid, 0) == NULL);
    make_tx(&zero, &s, &o[4], 1, 1, 0);
    CHECK(mempool_add(pool, &zero) == MEMPOOL_OK);
    CHECK(mempool_remove(pool, zero.txid, &removed) == MEMPOOL_OK && removed == 1);

    /* Removal gives its fees back: MAX_MONEY fits again, one more does not. */
    CHECK(mempool_remove(pool, kids[0].txid, &removed) == MEMPOOL_OK && removed == 1);
    CHECK(mempool_add(pool, &big) == MEMPOOL_OK);
    CHECK(mempool_add(pool, &one) == MEMPOOL_ERR_INVALID);
    CHECK(mempool_remove(pool, big.txid, &removed) == MEMPOOL_OK && removed == 1);

    /* So does trimming: empty the pool, and it all fits again. */
    CHECK(mempool_trim(pool, 0, NULL, NULL) == nfull && mempool_count(pool) == 0);
    CHECK(mempool_add(pool, &root) == MEMPOOL_OK);
    for (i = 0; i < nfull; i++) {
        CHECK(mempool_add(pool, &kids[i]) == MEMPOOL_OK);
    }
    CHECK(mempool_lookup(pool, root.txid, &info) == 0 && info.descendant_fees == INT64_MAX);
    CHECK(mempool_add(pool, &one) == MEMPOOL_ERR_INVALID);
    CHECK(mempool_trim(pool, 0, NULL, NULL) == nfull + 1 && mempool_count(pool) == 0);

    mempool_free(pool);
    for (i = 0; i < 4; i++) {
        mempool_tx_destroy(&t[i]);
    }
    for (i = 0; i < nfull; i++) {
        mempool_tx_destroy(&kids[i]);
    }
    free(kids);
    mempool_tx_destroy(&root);
    mempool_tx_destroy(&one);
    mempool_tx_destroy(&big);
    mempool_tx_destroy(&zero);
    stream_destroy(&s);
}

/* ---- a parent after its child ---------------------------------------------------- */

/* Acceptance must not depend on the order of adds: an entry spending any
 * output index of p (even one p lacks) refuses p's later add, just as p in
 * the pool refuses that entry (MEMPOOL_ERR_INVALID). */
static void test_late_parent(void) {
    mempool *pool = mempool_new(NULL);
    byte_stream s;
    mempool_outpoint o[4], ins[2];
    mempool_tx p, b, c, d, e, f, g;
    pool_state st;
    const mempool_tx *watch[2];
    size_t removed;
    int i;
    if (!CHECK(pool != NULL)) {
        return;
    }
    stream_init(&s);
    for (i = 0; i < 4; i++) {
        check_rng_fill(&o[i], sizeof(o[i]));
    }
    make_tx(&p, &s, &o[0], 1, 2, 100);
    spend(&ins[0], &p, 5);
    ins[1] = o[1];
    make_tx(&b, &s, ins, 2, 1, 100);

    /* b spends p:5; p has 2 outputs. Parent first: b is invalid. */
    CHECK(mempool_add(pool, &p) == MEMPOOL_OK);
    CHECK(mempool_add(pool, &b) == MEMPOOL_ERR_INVALID);
    CHECK(mempool_remove(pool, p.txid, &removed) == MEMPOOL_OK && removed == 1);
    /* Child first: p is refused, and the pool is unchanged. */
    CHECK(mempool_add(pool, &b) == MEMPOOL_OK);
    watch[0] = &b;
    watch[1] = &p;
    state_take(pool, watch, 2, &st);
    CHECK(mempool_add(pool, &p) == MEMPOOL_ERR_HAS_CHILDREN);
    CHECK(state_same(pool, watch, 2, &st));
    CHECK(!mempool_exists(pool, p.txid) && mempool_spender(pool, p.txid, 5) == &b);
    CHECK(mempool_spender(pool, o[0].txid, o[0].n) == NULL);
    CHECK(mempool_remove(pool, b.txid, &removed) == MEMPOOL_OK && removed == 1);
    CHECK(mempool_add(pool, &p) == MEMPOOL_OK);
    CHECK(mempool_remove(pool, p.txid, &removed) == MEMPOOL_OK && removed == 1);

    /* Several spenders, one of them of two indices: p stays refused until
     * the last one leaves. d spends an index p has. */
    spend(&ins[0], &p, 7);
    spend(&ins[1], &p, 9);
    make_tx(&c, &s, ins, 2, 1, 100);
    spend(&ins[0], &p, 1);
    make_tx(&d, &s, ins, 1, 1, 100);
    CHECK(mempool_add(pool, &b) == MEMPOOL_OK);
    CHECK(mempool_add(pool, &c) == MEMPOOL_OK);
    CHECK(mempool_add(pool, &d) == MEMPOOL_OK);
    CHECK(mempool_add(pool, &p) == MEMPOOL_ERR_HAS_CHILDREN);
    CHECK(mempool_remove(pool, b.txid, &removed) == MEMPOOL_OK && removed == 1);
    CHECK(mempool_add(pool, &p) == MEMPOOL_ERR_HAS_CHILDREN);
    CHECK(mempool_remove(pool, d.txid, &removed) == MEMPOOL_OK && removed == 1);
    CHECK(mempool_add(pool, &p) == MEMPOOL_ERR_HAS_CHILDREN);
    CHECK(mempool_trim(pool, 0, NULL, NULL) == 1 && mempool_count(pool) == 0);
    CHECK(mempool_add(pool, &p) == MEMPOOL_OK);
    CHECK(mempool_remove(pool, p.txid, &removed) == MEMPOOL_OK && removed == 1);

    /* Refused spenders leave nothing behind: e claims p:6, then meets f's
     * coin (a conflict); g pays too much. */
    make_tx(&f, &s, &o[2], 1, 1, 100);
    CHECK(mempool_add(pool, &f) == MEMPOOL_OK);
    spend(&ins[0], &p, 6);
    ins[1] = o[2];
    make_tx(&e, &s, ins, 2, 1, 100);
    CHECK(mempool_add(pool, &e) == MEMPOOL_ERR_CONFLICT);
    make_tx(&g, &s, ins, 1, 1, TEST_MAX_MONEY + 1);
    CHECK(mempool_add(pool, &g) == MEMPOOL_ERR_INVALID);
    CHECK(mempool_add(pool, &p) == MEMPOOL_OK && mempool_count(pool) == 2);
    CHECK(mempool_trim(pool, 0, NULL, NULL) == 2);

    mempool_free(pool);
    mempool_tx_destroy(&p);
    mempool_tx_destroy(&b);
    mempool_tx_destroy(&c);
    mempool_tx_destroy(&d);
    mempool_tx_destroy(&e);
    mempool_tx_destroy(&f);
    mempool_tx_destroy(&g);
    stream_destroy(&s);
}

/* ---- allocation failure ------------------------------------------------------------ */

/* For each of the first transactions of a workload (the pool grows through
 * all its tables in them), and for every allocation point of its add: a
 * fresh pool holding the ones before it, the add made to fail at that point,
 * and the pool must still equal the model. */
static void test_add_alloc_failure(void) {
    mempool_workload w;
    model m;
    uint64_t salt[2] = {1, 2};
    size_t t, j, max_points = 0;
    bb_alloc_fail_after(0);
    CHECK(mempool_new(NULL) == NULL);
    bb_alloc_fail_after(-1);
    CHECK(mempool_workload_make(&w, 60, 99) == 0);
    model_init(&m, &w);
    for (t = 0; t < m.n; t += (t < 40 ? 1 : 7)) {
        long k;
        for (k = 0;; k++) {
            mempool *pool = mempool_new(salt);
            int rc;
            if (!CHECK(pool != NULL)) {
                break;
            }
            memset(m.present, 0, m.n);
            for (j = 0; j < t; j++) {
                CHECK(mempool_add(pool, &w.txs[j]) == MEMPOOL_OK);
                m.present[j] = 1;
            }
            bb_alloc_fail_after(k);
            rc = mempool_add(pool, &w.txs[t]);
            bb_alloc_fail_after(-1);
            if (rc == MEMPOOL_OK) {
                m.present[t] = 1;
                model_verify(&m, pool);
                mempool_free(pool);
                if ((size_t)k > max_points) {
                    max_points = (size_t)k;
                }
                break;
            }
            CHECK(rc == MEMPOOL_ERR_NOMEM);
            model_verify(&m, pool);
            /* The pool works on after the failure. */
            CHECK(mempool_add(pool, &w.txs[t]) == MEMPOOL_OK);
            m.present[t] = 1;
            model_verify(&m, pool);
            mempool_free(pool);
        }
    }
    CHECK(max_points >= 5); /* slot array, walk buffers, tables, link arrays */
    model_free(&m);
    mempool_workload_destroy(&w);
}

/* The table of inputs whose parent is not in the pool grows and may fail like
 * the others. p stays out; its children (each also spends a coin of its own:
 * two such inputs apiece) go in. For each child and every allocation point
 * of its add: a fresh pool holding the children before it (as in
 * test_add_alloc_failure: capacity a failed add reserved would hide later
 * points), the add made to fail there, and then no trace of it: p is refused
 * while a child is in and accepted once all have left. */
/* Many absent parents, each spent by one or more children (up to three
 * indices of one parent in one child): removing the children in random
 * order, a parent is refused while any child of it is in and accepted after;
 * the per-txid records move when one is freed, which this exercises. Then a
 * wide parent's children leave one by one in random order: the parent's
 * descendant state and the remaining children's links stay exact. */
static void test_outside_records_and_wide_parent(void) {
    enum { PARENTS = 40, WIDE = 300 };
    mempool *pool = mempool_new(NULL);
    byte_stream s;
    mempool_outpoint o, ins[3];
    mempool_tx parents[PARENTS], kids[2 * PARENTS], root, wide[WIDE];
    size_t order[2 * PARENTS], i, j, removed, n_kids = 0, left[PARENTS];
    mempool_entry_info info;
    if (!CHECK(pool != NULL)) {
        return;
    }
    stream_init(&s);
    for (i = 0; i < PARENTS; i++) {
        size_t nk = 1 + i % 2, k;
        check_rng_fill(&o, sizeof(o));
        make_tx(&parents[i], &s, &o, 1, 8, 100);
        left[i] = nk;
        for (k = 0; k < nk; k++) {
            size_t nin = 1 + (i + k) % 3, m;
            for (m = 0; m < nin; m++) {
                spend(&ins[m], &parents[i], (uint32_t)(k * 3 + m));
            }
            make_tx(&kids[n_kids], &s, ins, nin, 1, 10);
            CHECK(mempool_add(pool, &kids[n_kids]) == MEMPOOL_OK);
            order[n_kids] = n_kids;
            n_kids++;
        }
    }
    for (i = n_kids; i > 1; i--) { /* shuffle */
        j = (size_t)check_rng_below(i);
        size_t t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
    for (i = 0; i < n_kids; i++) {
        size_t kid = order[i], par = 0, k;
        /* the kid's parent: the one whose txid its first input names */
        for (k = 0; k < PARENTS; k++) {
            if (memcmp(kids[kid].vin[0].prevout.txid, parents[k].txid, 32) == 0) {
                par = k;
            }
        }
        CHECK(mempool_add(pool, &parents[par]) == MEMPOOL_ERR_HAS_CHILDREN);
        CHECK(mempool_remove(pool, kids[kid].txid, &removed) == MEMPOOL_OK && removed == 1);
        left[par]--;
        CHECK(mempool_add(pool, &parents[par]) ==
              (left[par] ? MEMPOOL_ERR_HAS_CHILDREN : MEMPOOL_OK));
        if (!left[par]) {
            CHECK(mempool_remove(pool, parents[par].txid, &removed) == MEMPOOL_OK);
        }
        for (k = 0; k < PARENTS; k++) { /* every other parent as it should be */
            if (left[k]) {
                CHECK(mempool_add(pool, &parents[k]) == MEMPOOL_ERR_HAS_CHILDREN);
            }
        }
    }
    CHECK(mempool_count(pool) == 0);

    check_rng_fill(&o, sizeof(o));
    make_tx(&root, &s, &o, 1, WIDE, 1000);
    CHECK(mempool_add(pool, &root) == MEMPOOL_OK);
    for (i = 0; i < WIDE; i++) {
        spend(&ins[0], &root, (uint32_t)i);
        make_tx(&wide[i], &s, ins, 1, 1, 10 + (int64_t)i);
        CHECK(mempool_add(pool, &wide[i]) == MEMPOOL_OK);
    }
    {
        size_t perm[WIDE], gone = 0;
        int64_t fees = 1000;
        const mempool_tx *desc[WIDE];
        unsigned char present[WIDE];
        memset(present, 1, sizeof present);
        for (i = 0; i < WIDE; i++) {
            perm[i] = i;
            fees += 10 + (int64_t)i;
        }
        for (i = WIDE; i > 1; i--) {
            j = (size_t)check_rng_below(i);
            size_t t = perm[i - 1];
            perm[i - 1] = perm[j];
            perm[j] = t;
        }
        /* two thirds leave one by one, then the root takes the rest with it */
        for (i = 0; i < 2 * WIDE / 3; i++) {
            CHECK(mempool_remove(pool, wide[perm[i]].txid, &removed) == MEMPOOL_OK &&
                  removed == 1);
            present[perm[i]] = 0;
            gone++;
            fees -= 10 + (int64_t)perm[i];
            CHECK(mempool_lookup(pool, root.txid, &info) == 0);
            CHECK(info.descendant_count == 1 + WIDE - gone && info.descendant_fees == fees);
            if (i % 37 == 0) { /* the links of those left: exactly the children left */
                size_t count = 0, k, ok = 1;
                CHECK(mempool_descendants(pool, root.txid, desc, WIDE, &count) == 0 &&
                      count == WIDE - gone);
                for (k = 0; k < count && k < WIDE; k++) {
                    size_t w = (size_t)(desc[k] - wide);
                    ok &= w < WIDE && present[w];
                }
                CHECK(ok);
            }
        }
        CHECK(mempool_remove(pool, root.txid, &removed) == MEMPOOL_OK &&
              removed == 1 + WIDE - gone);
    }
    CHECK(mempool_count(pool) == 0);
    for (i = 0; i < PARENTS; i++) {
        mempool_tx_destroy(&parents[i]);
    }
    for (i = 0; i < n_kids; i++) {
        mempool_tx_destroy(&kids[i]);
    }
    for (i = 0; i < WIDE; i++) {
        mempool_tx_destroy(&wide[i]);
    }
    mempool_tx_destroy(&root);
    stream_destroy(&s);
    mempool_free(pool);
}

static void test_outside_alloc_failure(void) {
    enum { KIDS = 20 };
    uint64_t salt[2] = {3, 4};
    byte_stream s;
    mempool_outpoint o, ins[2];
    mempool_tx p, kids[KIDS];
    size_t t, j, removed, points = 0;
    stream_init(&s);
    check_rng_fill(&o, sizeof(o));
    make_tx(&p, &s, &o, 1, KIDS, 100);
    for (t = 0; t < KIDS; t++) {
        spend(&ins[0], &p, (uint32_t)t);
        check_rng_fill(&ins[1], sizeof(ins[1]));
        make_tx(&kids[t], &s, ins, 2, 1, 10);
    }
    for (t = 0; t < KIDS; t++) {
        long k;
        for (k = 0;; k++) {
            mempool *pool = mempool_new(salt);
            int rc;
            if (!CHECK(pool != NULL)) {
                break;
            }
            for (j = 0; j < t; j++) {
                CHECK(mempool_add(pool, &kids[j]) == MEMPOOL_OK);
            }
            bb_alloc_fail_after(k);
            rc = mempool_add(pool, &kids[t]);
            bb_alloc_fail_after(-1);
            if (rc != MEMPOOL_OK) {
                points++;
                CHECK(rc == MEMPOOL_ERR_NOMEM);
                CHECK(mempool_count(pool) == t && !mempool_exists(pool, kids[t].txid));
                CHECK(mempool_spender(pool, p.txid, (uint32_t)t) == NULL);
                if (t == 0) {
                    CHECK(mempool_add(pool, &p) == MEMPOOL_OK);
                    CHECK(mempool_remove(pool, p.txid, &removed) == MEMPOOL_OK && removed == 1);
                } else {
                    CHECK(mempool_add(pool, &p) == MEMPOOL_ERR_HAS_CHILDREN);
                }
                CHECK(mempool_add(pool, &kids[t]) == MEMPOOL_OK);
            }
            for (j = 0; j <= t; j++) {
                CHECK(mempool_add(pool, &p) == MEMPOOL_ERR_HAS_CHILDREN);
                CHECK(mempool_remove(pool, kids[j].txid, &removed) == MEMPOOL_OK &&
                      removed == 1);
            }
            CHECK(mempool_add(pool, &p) == MEMPOOL_OK && mempool_count(pool) == 1);
            mempool_free(pool);
            if (rc == MEMPOOL_OK) {
                break;
            }
        }
    }
    CHECK(points >= 13 + 3); /* the first add: 13; the tables' growth: more */
    mempool_tx_destroy(&p);
    for (t = 0; t < KIDS; t++) {
        mempool_tx_destroy(&kids[t]);
    }
    stream_destroy(&s);
}

/* A pool filled and emptied again and again stops allocating: the benchmark
 * measures graph work, not malloc. */
static void test_steady_state(void) {
    mempool_workload w;
    mempool *pool = mempool_new(NULL);
    unsigned long before;
    size_t i, round;
    CHECK(pool != NULL);
    CHECK(mempool_workload_make(&w, 200, MEMPOOL_WORKLOAD_SEED) == 0);
    before = 0;
    /* The first round sizes everything; an emptied pool hands its slots out
     * in the same order again, so later rounds fit in what is there. */
    for (round = 0; round < 3 && pool != NULL; round++) {
        if (round == 1) {
            before = bb_alloc_count();
        }
        for (i = 0; i < w.count; i++) {
            CHECK(mempool_add(pool, &w.txs[i]) == MEMPOOL_OK);
        }
        CHECK(mempool_count(pool) == w.count);
        mempool_trim(pool, mempool_total_size(pool) * 3 / 4, NULL, NULL);
        CHECK(mempool_count(pool) < w.count);
        CHECK(mempool_trim(pool, 0, NULL, NULL) > 0 && mempool_count(pool) == 0);
    }
    CHECK(bb_alloc_count() == before);
    mempool_free(pool);
    mempool_workload_destroy(&w);
}

/* ---- dynamic memory usage and Core's TrimToSize ------------------------------ */

/* The allocator model and a transaction's memory, by hand. */
static void test_tx_usage(void) {
    mempool_tx tx;
    unsigned char b[29] = {0};
    size_t base;
    if (sizeof(size_t) == 8) {
        CHECK(mempool_malloc_usage(0) == 0 && mempool_malloc_usage(1) == 32 &&
              mempool_malloc_usage(24) == 32 && mempool_malloc_usage(25) == 48 &&
              mempool_malloc_usage(40) == 48 && mempool_malloc_usage(41) == 64);
    }
    mempool_tx_init(&tx);
    CHECK(mempool_tx_dynamic_usage(&tx) == sizeof(mempool_tx));
    CHECK(mempool_tx_set_counts(&tx, 2, 3) == 0);
    base = sizeof(mempool_tx) + mempool_malloc_usage(2 * sizeof(mempool_txin)) +
           mempool_malloc_usage(3 * sizeof(mempool_txout));
    CHECK(mempool_tx_dynamic_usage(&tx) == base);
    /* 28 bytes stay inline (in the arrays already counted); 29 take a block. */
    CHECK(mempool_script_assign(&tx.vout[1].script_pubkey, b, 28) == 0);
    CHECK(mempool_tx_dynamic_usage(&tx) == base);
    CHECK(mempool_script_assign(&tx.vin[1].witness, b, 29) == 0);
    CHECK(mempool_tx_dynamic_usage(&tx) == base + mempool_malloc_usage(29));
    CHECK(mempool_script_assign(&tx.vin[0].script_sig, b, 29) == 0);
    CHECK(mempool_tx_dynamic_usage(&tx) == base + 2 * mempool_malloc_usage(29));
    mempool_tx_destroy(&tx);
}

/* The pool's usage is the sum of its entries' shares: an add raises it by the
 * new entry's share, removing that entry lowers it by the same, whatever else
 * happened in between; an empty pool uses 0. */
static void test_pool_usage(void) {
    mempool *pool = mempool_new(NULL);
    mempool_tx t[MEMPOOL_EVICTION_TXS];
    mempool_entry_info info;
    uint64_t share[MEMPOOL_EVICTION_TXS], before, sum;
    size_t removed = 0;
    int i;
    if (!CHECK(pool != NULL) || !CHECK(mempool_eviction_make(t) == 0)) {
        mempool_free(pool);
        return;
    }
    CHECK(mempool_dynamic_usage(pool) == 0);
    for (i = 0; i < MEMPOOL_EVICTION_TXS; i++) {
        before = mempool_dynamic_usage(pool);
        CHECK(mempool_add(pool, &t[i]) == MEMPOOL_OK);
        CHECK(mempool_lookup(pool, t[i].txid, &info) == 0);
        share[i] = info.usage;
        CHECK(info.usage >= mempool_tx_dynamic_usage(&t[i]));
        CHECK(mempool_dynamic_usage(pool) == before + info.usage);
    }
    /* Shares are fixed at add time: the sum still matches after all adds. */
    for (i = 0, sum = 0; i < MEMPOOL_EVICTION_TXS; i++) {
        CHECK(mempool_lookup(pool, t[i].txid, &info) == 0 && info.usage == share[i]);
        sum += info.usage;
    }
    CHECK(mempool_dynamic_usage(pool) == sum);
    /* tx1 and tx3 have the same shape; tx3 has an in-pool parent (tx2) where
     * tx1 has a confirmed input, and the two cost differently. */
    CHECK(t[0].size == t[2].size && share[0] != share[2]);
    /* A failed add changes nothing. */
    before = mempool_dynamic_usage(pool);
    CHECK(mempool_add(pool, &t[3]) == MEMPOOL_ERR_DUPLICATE);
    CHECK(mempool_dynamic_usage(pool) == before);
    /* Removing tx5 takes tx7 too. */
    CHECK(mempool_remove(pool, t[4].txid, &removed) == MEMPOOL_OK && removed == 2);
    CHECK(mempool_dynamic_usage(pool) == sum - share[4] - share[6]);
    CHECK(mempool_add(pool, &t[4]) == MEMPOOL_OK);
    CHECK(mempool_add(pool, &t[6]) == MEMPOOL_OK);
    CHECK(mempool_dynamic_usage(pool) == sum);
    CHECK(mempool_remove(pool, t[3].txid, &removed) == MEMPOOL_OK && removed == 4);
    CHECK(mempool_remove(pool, t[0].txid, &removed) == MEMPOOL_OK && removed == 1);
    CHECK(mempool_dynamic_usage(pool) == share[1] + share[2]);
    CHECK(mempool_remove(pool, t[1].txid, &removed) == MEMPOOL_OK && removed == 2);
    CHECK(mempool_dynamic_usage(pool) == 0 && mempool_count(pool) == 0);
    mempool_free(pool);
    for (i = 0; i < MEMPOOL_EVICTION_TXS; i++) {
        mempool_tx_destroy(&t[i]);
    }
}

/* The MempoolEviction set, by hand. Sizes: tx1, tx2, tx3 serialise to 63
 * bytes (4 version, 1 input count, 42 input, 1 output count, 11 output, 4
 * locktime) and add 5 of witness data (marker, flag, a one-item stack of one
 * byte), weight 3 x 63 + 68 = 257, vsize 65; tx4 to tx7 (two inputs, two
 * outputs) serialise to 116 bytes and add 8, weight 472, vsize 118.
 * Descendant packages and their rates (satoshi per 1000 vbytes, rounded
 * down): tx1 10000/65 (153846); tx2+tx3 25000/130 (192307); tx3 20000/65;
 * tx4+tx5+tx6+tx7 18100/472 (38347); tx5+tx7 10000/236; tx6+tx7 10100/236;
 * tx7 9000/118. Trimming to 3/4 of the usage evicts tx4's package alone (four
 * of the seven entries, and the larger ones); trimming to tx1's vsize then
 * evicts tx1 (153846), then tx2's package. */
static void test_eviction_set(void) {
    mempool *pool = mempool_new(NULL);
    mempool_tx t[MEMPOOL_EVICTION_TXS];
    evict_log log;
    mempool_entry_info info;
    uint64_t limit;
    int i, round;
    if (!CHECK(pool != NULL) || !CHECK(mempool_eviction_make(t) == 0)) {
        mempool_free(pool);
        return;
    }
    for (i = 0; i < MEMPOOL_EVICTION_TXS; i++) {
        int wide = i >= 3;
        CHECKF(t[i].size == (wide ? 116u : 63u) && t[i].weight == (wide ? 472u : 257u) &&
               t[i].vsize == (wide ? 118u : 65u), "tx%d: size %u, weight %u, vsize %u", i + 1,
               t[i].size, t[i].weight, t[i].vsize);
    }
    CHECK(memcmp(t[2].vin[0].prevout.txid, t[1].txid, 32) == 0 && t[2].vin[0].prevout.n == 0);
    CHECK(memcmp(t[6].vin[1].prevout.txid, t[5].txid, 32) == 0);
    /* Twice: the second round runs on a pool that has been filled and emptied. */
    for (round = 0; round < 2; round++) {
        for (i = 0; i < MEMPOOL_EVICTION_TXS; i++) {
            CHECK(mempool_add(pool, &t[i]) == MEMPOOL_OK);
        }
        CHECK(mempool_lookup(pool, t[3].txid, &info) == 0 && info.descendant_count == 4 &&
              info.descendant_size == 472 && info.descendant_fees == 18100);
        CHECK(mempool_lookup(pool, t[6].txid, &info) == 0 && info.ancestor_count == 4);
        log.n = 0;
        limit = mempool_dynamic_usage(pool) * 3 / 4;
        CHECK(mempool_trim_to_usage(pool, limit, log_evict, &log) == 4);
        CHECK(log.n == 1 && memcmp(log.txids[0], t[3].txid, 32) == 0);
        CHECK(mempool_count(pool) == 3 && mempool_dynamic_usage(pool) <= limit);
        CHECK(mempool_exists(pool, t[0].txid) && mempool_exists(pool, t[1].txid) &&
              mempool_exists(pool, t[2].txid));
        /* 18100 * 1000 / 472 = 38347.4, plus the incremental relay fee; the
         * second round's first trim evicts the same and keeps the higher rate
         * from the first round's second trim. */
        CHECK(mempool_min_fee_rate(pool) == (round == 0 ? 38347 + 1000 : 192307 + 1000));
        log.n = 0;
        CHECK(mempool_trim_to_usage(pool, t[0].vsize, log_evict, &log) == 3);
        CHECK(log.n == 2 && memcmp(log.txids[0], t[0].txid, 32) == 0 &&
              memcmp(log.txids[1], t[1].txid, 32) == 0);
        CHECK(mempool_count(pool) == 0 && mempool_dynamic_usage(pool) == 0);
        CHECK(mempool_min_fee_rate(pool) == 192307 + 1000);
    }
    /* A limit the pool is already under evicts nothing and keeps the rate. */
    CHECK(mempool_add(pool, &t[0]) == MEMPOOL_OK);
    CHECK(mempool_trim_to_usage(pool, mempool_dynamic_usage(pool), NULL, NULL) == 0);
    CHECK(mempool_count(pool) == 1 && mempool_min_fee_rate(pool) == 192307 + 1000);
    mempool_free(pool);
    for (i = 0; i < MEMPOOL_EVICTION_TXS; i++) {
        mempool_tx_destroy(&t[i]);
    }
}

/* Every allocation of mempool_eviction_make may fail; it then owns nothing. */
static void test_eviction_set_alloc_failure(void) {
    mempool_tx t[MEMPOOL_EVICTION_TXS];
    long k;
    int i, rc = -1;
    for (k = 0; rc != 0 && k < 1000; k++) {
        bb_alloc_fail_after(k);
        rc = mempool_eviction_make(t);
        bb_alloc_fail_after(-1);
    }
    CHECK(rc == 0 && k > 1);
    for (i = 0; rc == 0 && i < MEMPOOL_EVICTION_TXS; i++) {
        mempool_tx_destroy(&t[i]);
    }
}

/* ---- Core's current cluster generator, dust, ephemeral spends, JSON ------------------ */

/* The generator: parents before children; every transaction adds (no double spend); one
 * cluster's transactions are all connected; the same draws make the same transactions; a
 * pool of 100 clusters empties with one trim to 0. */
static void test_coin_cluster(void) {
    mempool_workload w, w2;
    fastrandom2_ctx r, r2;
    mempool *pool = mempool_new(NULL);
    size_t i, k, count = 0;
    w.txs = NULL;
    w.count = 0;
    w2 = w;
    fastrandom2_init_deterministic(&r);
    fastrandom2_init_deterministic(&r2);
    CHECK(mempool_workload_add_coin_cluster(&w, &r, 50, 1) == 0);
    CHECK(mempool_workload_add_coin_cluster(&w2, &r2, 50, 1) == 0);
    CHECK(w.count == 60 && w2.count == 60);
    for (i = 0; i < w.count; i++) {
        CHECK(memcmp(w.txs[i].txid, w2.txs[i].txid, 32) == 0);
        CHECK(w.txs[i].vin_count >= 1 && w.txs[i].vout_count >= 2 && w.txs[i].vout_count <= 11);
        CHECK(mempool_add(pool, &w.txs[i]) == MEMPOOL_OK);
    }
    /* Every child spends from the cluster, so all are descendants of the base ones: the
     * union of the ten base transactions' descendants is the rest. */
    for (i = 0; i < 10; i++) {
        mempool_entry_info info;
        CHECK(mempool_lookup(pool, w.txs[i].txid, &info) == 0);
        CHECK(info.ancestor_count == 1);
        count += info.descendant_count;
    }
    CHECK(count >= 50);
    {
        mempool_entry_info info;
        CHECK(mempool_lookup(pool, w.txs[59].txid, &info) == 0);
        CHECK(info.ancestor_count >= 2 && info.descendant_count == 1);
    }
    /* 99 more clusters from the same stream (the pool points into w.txs, which growing w
     * moves: empty it first), all distinct, all added. */
    mempool_trim_to_usage(pool, 0, NULL, NULL);
    CHECK(mempool_count(pool) == 0);
    for (k = 1; k < 100; k++) {
        CHECK(mempool_workload_add_coin_cluster(&w, &r, 50, 1) == 0);
    }
    CHECK(w.count == 6000);
    for (i = 0; i < w.count; i++) {
        CHECK(mempool_add(pool, &w.txs[i]) == MEMPOOL_OK);
    }
    CHECK(mempool_count(pool) == 6000);
    mempool_trim_to_usage(pool, 0, NULL, NULL);
    CHECK(mempool_count(pool) == 0);
    mempool_free(pool);
    mempool_workload_destroy(&w);
    mempool_workload_destroy(&w2);
}

static void set_script(mempool_script *sc, const char *hex) {
    unsigned char b[64];
    size_t n = check_unhex(b, sizeof(b), hex);
    CHECK(n != (size_t)-1 && mempool_script_assign(sc, b, n) == 0);
}

/* Core's well-known thresholds at its default 3000 sat/kvB: 546 for P2PKH, 294 for P2WPKH;
 * OP_RETURN is never dust; rounding up; a negative rate. */
static void test_dust(void) {
    mempool_txout out;
    mempool_script_init(&out.script_pubkey);
    out.value = 545;
    set_script(&out.script_pubkey, "76a914000000000000000000000000000000000000000088ac");
    CHECK(mempool_dust_threshold(&out, MEMPOOL_DUST_RELAY_FEE) == 546);
    CHECK(mempool_is_dust(&out, MEMPOOL_DUST_RELAY_FEE));
    out.value = 546;
    CHECK(!mempool_is_dust(&out, MEMPOOL_DUST_RELAY_FEE));
    set_script(&out.script_pubkey, "00140000000000000000000000000000000000000000");
    CHECK(mempool_dust_threshold(&out, MEMPOOL_DUST_RELAY_FEE) == 294);
    set_script(&out.script_pubkey, "6a0401020304");
    CHECK(mempool_dust_threshold(&out, 1000000) == 0);
    set_script(&out.script_pubkey, "");
    /* 9 + 148 = 157 bytes: 157 at 1000, 1 at 1 (157 / 1000 rounded up), 0 at 0. */
    CHECK(mempool_dust_threshold(&out, 1000) == 157);
    CHECK(mempool_dust_threshold(&out, 1) == 1);
    CHECK(mempool_dust_threshold(&out, 0) == 0);
    CHECK(mempool_dust_threshold(&out, -1) == -1);
    CHECK(mempool_dust_threshold(&out, -2000) == -314);
    CHECK(mempool_dust_threshold(&out, INT64_MAX) == INT64_C(1448069409786199802));
    set_script(&out.script_pubkey, "00");
    mempool_script_resize(&out.script_pubkey, 9000);
    CHECK(mempool_dust_threshold(&out, INT64_MAX) == INT64_MAX); /* 9157 bytes: saturates */
    mempool_script_destroy(&out.script_pubkey);
}

/* A parent with dust outputs in the pool: a child spending all of them passes, one leaving
 * one out fails; parents in the package are found there; parents met twice count once. */
static void test_ephemeral(void) {
    mempool *pool = mempool_new(NULL);
    mempool_ephemeral e;
    byte_stream s;
    mempool_outpoint o, ins[5];
    mempool_tx parent, all, most, pkg_parent, pkg_child;
    const mempool_tx *package[2];
    size_t child = 99, k;
    stream_init(&s);
    mempool_ephemeral_init(&e, 1, 2);
    memset(&o, 0x33, sizeof(o));
    make_tx(&parent, &s, &o, 1, 5, 0); /* values 1 .. 5 */
    CHECK(mempool_add(pool, &parent) == MEMPOOL_OK);
    for (k = 0; k < 5; k++) {
        memcpy(ins[k].txid, parent.txid, 32);
        ins[k].n = (uint32_t)k;
    }
    make_tx(&all, &s, ins, 5, 1, 0);
    make_tx(&most, &s, ins, 4, 1, 0);
    package[0] = &all;
    /* Rate 0: nothing is dust. At 20000 sat/kvB an empty script's threshold is 3140. */
    CHECK(mempool_check_ephemeral_spends(&e, pool, package, 1, 0, &child) == 0);
    CHECK(mempool_check_ephemeral_spends(&e, pool, package, 1, 20000, &child) == 0);
    package[0] = &most;
    CHECK(mempool_check_ephemeral_spends(&e, pool, package, 1, 0, &child) == 0);
    CHECK(mempool_check_ephemeral_spends(&e, pool, package, 1, 20000, &child) == 1);
    CHECK(child == 0);
    /* Output 4 (value 5) is dust only once the threshold passes 5: at 32 sat/kvB it is 6. */
    CHECK(mempool_check_ephemeral_spends(&e, pool, package, 1, 25, &child) == 0);
    CHECK(mempool_check_ephemeral_spends(&e, pool, package, 1, 32, &child) == 1);
    /* Parent in the package, not in the pool. */
    memset(&o, 0x44, sizeof(o));
    make_tx(&pkg_parent, &s, &o, 1, 2, 0);
    memcpy(ins[0].txid, pkg_parent.txid, 32);
    ins[0].n = 0;
    make_tx(&pkg_child, &s, ins, 1, 1, 0);
    package[0] = &pkg_parent;
    package[1] = &pkg_child;
    CHECK(mempool_check_ephemeral_spends(&e, pool, package, 2, 20000, &child) == 1);
    CHECK(child == 1);
    bb_alloc_fail_after(0);
    {
        mempool_ephemeral e2;
        mempool_ephemeral_init(&e2, 1, 2);
        package[0] = &all;
        CHECK(mempool_check_ephemeral_spends(&e2, pool, package, 1, 20000, &child) == -1);
        bb_alloc_fail_after(-1);
        mempool_ephemeral_free(&e2);
    }
    bb_alloc_fail_after(-1);
    mempool_ephemeral_free(&e);
    mempool_free(pool);
    mempool_tx_destroy(&parent);
    mempool_tx_destroy(&all);
    mempool_tx_destroy(&most);
    mempool_tx_destroy(&pkg_parent);
    mempool_tx_destroy(&pkg_child);
    stream_destroy(&s);
}

/* Direct parents and children, and the verbose JSON of a small pool: a parent with two
 * children, one of which also has a grandchild. */
static void test_json(void) {
    mempool *pool = mempool_new(NULL);
    byte_stream s;
    mempool_outpoint o, in;
    mempool_tx a, b, c, d;
    const mempool_tx *rel[4];
    size_t n, k;
    json_t *j, *ea, *eb, *ed;
    char hex[65];
    stream_init(&s);
    memset(&o, 0x55, sizeof(o));
    make_tx(&a, &s, &o, 1, 2, 150000000);
    memcpy(in.txid, a.txid, 32);
    in.n = 0;
    make_tx(&b, &s, &in, 1, 1, 1000);
    in.n = 1;
    make_tx(&c, &s, &in, 1, 1, 2000);
    memcpy(in.txid, b.txid, 32);
    in.n = 0;
    make_tx(&d, &s, &in, 1, 1, 3);
    CHECK(mempool_add(pool, &a) == 0 && mempool_add(pool, &b) == 0);
    CHECK(mempool_add(pool, &c) == 0 && mempool_add(pool, &d) == 0);
    CHECK(mempool_children(pool, a.txid, rel, 4, &n) == 0 && n == 2);
    CHECK((rel[0] == &b && rel[1] == &c) || (rel[0] == &c && rel[1] == &b));
    CHECK(mempool_parents(pool, d.txid, rel, 4, &n) == 0 && n == 1 && rel[0] == &b);
    CHECK(mempool_parents(pool, a.txid, rel, 4, &n) == 0 && n == 0);
    CHECK(mempool_children(pool, o.txid, rel, 4, &n) == -1 && n == 0);
    j = mempool_to_json(pool);
    CHECK(j != NULL && json_object_size(j) == 4);
    for (k = 0; k < 32; k++) {
        sprintf(hex + 2 * k, "%02x", a.txid[31 - k]);
    }
    ea = json_object_get(j, hex);
    CHECK(ea != NULL);
    CHECK(json_integer_value(json_object_get(ea, "vsize")) == a.vsize);
    CHECK(json_integer_value(json_object_get(ea, "weight")) == a.weight);
    CHECK(json_integer_value(json_object_get(ea, "descendantcount")) == 4);
    CHECK(json_integer_value(json_object_get(ea, "descendantsize")) ==
          a.vsize + b.vsize + c.vsize + d.vsize);
    CHECK(json_integer_value(json_object_get(ea, "ancestorcount")) == 1);
    CHECK(json_real_value(json_object_get(json_object_get(ea, "fees"), "base")) == 1.5);
    CHECK(json_real_value(json_object_get(json_object_get(ea, "fees"), "descendant")) ==
          (150000000 + 1000 + 2000 + 3) / 1e8);
    CHECK(json_array_size(json_object_get(ea, "depends")) == 0);
    CHECK(json_array_size(json_object_get(ea, "spentby")) == 2);
    for (k = 0; k < 32; k++) {
        sprintf(hex + 2 * k, "%02x", d.txid[31 - k]);
    }
    ed = json_object_get(j, hex);
    CHECK(json_integer_value(json_object_get(ed, "ancestorcount")) == 3);
    CHECK(json_integer_value(json_object_get(ed, "ancestorsize")) == a.vsize + b.vsize + d.vsize);
    CHECK(json_real_value(json_object_get(json_object_get(ed, "fees"), "ancestor")) ==
          (150000000 + 1000 + 3) / 1e8);
    CHECK(json_array_size(json_object_get(ed, "depends")) == 1);
    for (k = 0; k < 32; k++) {
        sprintf(hex + 2 * k, "%02x", b.txid[31 - k]);
    }
    CHECK(strcmp(json_string_value(json_array_get(json_object_get(ed, "depends"), 0)), hex) == 0);
    eb = json_object_get(j, hex);
    CHECK(json_real_value(json_object_get(json_object_get(eb, "fees"), "modified")) == 1000 / 1e8);
    json_decref(j);
    bb_alloc_fail_after(0);
    j = mempool_to_json(pool);
    bb_alloc_fail_after(-1);
    CHECK(j == NULL);
    mempool_free(pool);
    mempool_tx_destroy(&a);
    mempool_tx_destroy(&b);
    mempool_tx_destroy(&c);
    mempool_tx_destroy(&d);
    stream_destroy(&s);
}

int main(int argc, char **argv) {
    int i;
    (void)argc;
    check_rng_init(argv[0]);
    test_genesis();
    test_txid_random();
    test_tx_alloc_failure();
    test_workload();
    test_workload_alloc_failure();
    test_refusals();
    test_trim_order();
    test_tx_usage();
    test_pool_usage();
    test_eviction_set();
    test_eviction_set_alloc_failure();
    test_fee_limits();
    test_partial_lists();
    test_late_parent();
    test_outside_records_and_wide_parent();
    for (i = 0; i < 6; i++) {
        test_model_random();
    }
    test_add_alloc_failure();
    test_outside_alloc_failure();
    test_steady_state();
    test_coin_cluster();
    test_dust();
    test_ephemeral();
    test_json();
    return check_finish();
}
