#include "mempool/workload.h"

#include <string.h>

#include "crypto/sha256.h"
#include "util/alloc.h"
#include "util/rng.h"

typedef struct {
    uint32_t tx, n;
} wl_coin;

/* A made-up confirmed outpoint, different for every counter value. */
static void fake_outpoint(mempool_outpoint *o, uint64_t seed, uint64_t counter) {
    unsigned char b[24];
    int i;
    memcpy(b, "confirmd", 8);
    for (i = 0; i < 8; i++) {
        b[8 + i] = (unsigned char)(seed >> (8 * i));
        b[16 + i] = (unsigned char)(counter >> (8 * i));
    }
    sha256_hash(o->txid, b, sizeof(b));
    o->n = 0;
}

static int make_outputs(mempool_tx *tx, bb_rng *r) {
    size_t i, k;
    for (i = 0; i < tx->vout_count; i++) {
        unsigned char script[25];
        script[0] = 0x76; /* OP_DUP OP_HASH160 <20 bytes> OP_EQUALVERIFY OP_CHECKSIG */
        script[1] = 0xa9;
        script[2] = 20;
        for (k = 0; k < 20; k++) {
            script[3 + k] = (unsigned char)bb_rng_next(r);
        }
        script[23] = 0x88;
        script[24] = 0xac;
        tx->vout[i].value = (int64_t)(1000 + bb_rng_below(r, 100000000));
        if (mempool_script_assign(&tx->vout[i].script_pubkey, script, sizeof(script)) != 0) {
            return -1;
        }
    }
    return 0;
}

void mempool_workload_destroy(mempool_workload *w) {
    size_t i;
    for (i = 0; i < w->count; i++) {
        mempool_tx_destroy(&w->txs[i]);
    }
    bb_free(w->txs);
    w->txs = NULL;
    w->count = 0;
}

int mempool_workload_make(mempool_workload *w, size_t child_txs, uint64_t seed) {
    size_t total, i, k, n_coins = 0, fakes = 0;
    wl_coin *coins = NULL;
    byte_stream scratch;
    bb_rng r;

    w->txs = NULL;
    w->count = 0;
    if (child_txs > (size_t)UINT32_MAX - MEMPOOL_WORKLOAD_BASE_TXS) {
        return -1;
    }
    total = MEMPOOL_WORKLOAD_BASE_TXS + child_txs;
    /* Each transaction makes at most 11 outputs. */
    if ((w->txs = bb_malloc_array(total, sizeof(mempool_tx))) == NULL ||
        (coins = bb_malloc_array(total, 11 * sizeof(wl_coin))) == NULL) {
        bb_free(w->txs);
        w->txs = NULL;
        return -1;
    }
    stream_init(&scratch);
    bb_rng_seed(&r, seed);
    for (i = 0; i < total; i++) {
        mempool_tx *tx = &w->txs[i];
        size_t n_in, n_out = 2 + (size_t)bb_rng_below(&r, 10);
        mempool_tx_init(tx);
        w->count = i + 1;
        if (i < MEMPOOL_WORKLOAD_BASE_TXS) {
            n_in = 1;
        } else {
            n_in = 1 + (size_t)bb_rng_below(&r, 10);
            if (n_in > n_coins) {
                n_in = n_coins ? n_coins : 1;
            }
        }
        if (mempool_tx_set_counts(tx, n_in, n_out) != 0) {
            goto fail;
        }
        if (i < MEMPOOL_WORKLOAD_BASE_TXS || n_coins == 0) {
            fake_outpoint(&tx->vin[0].prevout, seed, fakes++);
        } else {
            for (k = 0; k < n_in; k++) {
                /* Take a random unspent coin out of the list (swap with the last). */
                size_t pick = (size_t)bb_rng_below(&r, n_coins);
                wl_coin c = coins[pick];
                coins[pick] = coins[--n_coins];
                memcpy(tx->vin[k].prevout.txid, w->txs[c.tx].txid, 32);
                tx->vin[k].prevout.n = c.n;
            }
        }
        if (make_outputs(tx, &r) != 0 || mempool_tx_finalize(tx, &scratch) != 0) {
            goto fail;
        }
        tx->fee = (int64_t)tx->size * (int64_t)(1 + bb_rng_below(&r, 100));
        for (k = 0; k < n_out; k++) {
            coins[n_coins].tx = (uint32_t)i;
            coins[n_coins].n = (uint32_t)k;
            n_coins++;
        }
    }
    stream_destroy(&scratch);
    bb_free(coins);
    return 0;

fail:
    stream_destroy(&scratch);
    bb_free(coins);
    mempool_workload_destroy(w);
    return -1;
}

/* One input of the MempoolEviction set: the index of the transaction it
 * spends (-1: a confirmed outpoint) and which output, the opcode number of
 * its script_sig and its witness byte. */
typedef struct {
    int parent, n, sig, wit;
} ev_in;

typedef struct {
    int n_in;
    ev_in in[2];
    int n_out, out_op;
    int64_t fee;
} ev_tx;

static const ev_tx eviction_set[MEMPOOL_EVICTION_TXS] = {
    {1, {{-1, 0, 1, 1}}, 1, 1, 10000},
    {1, {{-1, 0, 2, 2}}, 1, 2, 5000},
    {1, {{1, 0, 2, 3}}, 1, 3, 20000},
    {2, {{-1, 0, 4, 4}, {-1, 0, 4, 4}}, 2, 4, 7000},
    {2, {{3, 0, 4, 4}, {-1, 0, 5, 5}}, 2, 5, 1000},
    {2, {{3, 1, 4, 4}, {-1, 0, 6, 6}}, 2, 6, 1100},
    {2, {{4, 0, 5, 5}, {5, 0, 6, 6}}, 2, 7, 9000},
};

int mempool_eviction_make(mempool_tx txs[MEMPOOL_EVICTION_TXS]) {
    const int64_t coin = 100000000;
    const unsigned char op_equal = 0x87;
    byte_stream scratch;
    uint64_t confirmed = 0;
    int i, k, made = 0, rc = 0;
    stream_init(&scratch);
    for (i = 0; i < MEMPOOL_EVICTION_TXS && rc == 0; i++) {
        const ev_tx *e = &eviction_set[i];
        mempool_tx *tx = &txs[i];
        mempool_tx_init(tx);
        made++;
        rc = mempool_tx_set_counts(tx, (size_t)e->n_in, (size_t)e->n_out);
        for (k = 0; k < e->n_in && rc == 0; k++) {
            const ev_in *in = &e->in[k];
            unsigned char sig = (unsigned char)(0x50 + in->sig), wit = (unsigned char)in->wit;
            if (in->parent < 0) {
                fake_outpoint(&tx->vin[k].prevout, UINT64_C(0x4576696374696f6e), confirmed++);
            } else {
                memcpy(tx->vin[k].prevout.txid, txs[in->parent].txid, 32);
                tx->vin[k].prevout.n = (uint32_t)in->n;
            }
            rc = mempool_script_assign(&tx->vin[k].script_sig, &sig, 1) |
                 mempool_script_assign(&tx->vin[k].witness, &wit, 1);
        }
        for (k = 0; k < e->n_out && rc == 0; k++) {
            unsigned char spk[2];
            spk[0] = (unsigned char)(0x50 + e->out_op);
            spk[1] = op_equal;
            tx->vout[k].value = 10 * coin;
            rc = mempool_script_assign(&tx->vout[k].script_pubkey, spk, 2);
        }
        tx->fee = e->fee;
        if (rc == 0) {
            rc = mempool_tx_finalize(tx, &scratch);
        }
    }
    stream_destroy(&scratch);
    if (rc != 0) {
        for (i = 0; i < made; i++) {
            mempool_tx_destroy(&txs[i]);
        }
        return -1;
    }
    return 0;
}

/* ---- Core's current CreateCoinCluster -------------------------------------------------- */

/* The minimal CScriptNum bytes of n >= 0 (none for 0) into out (room for 9); their count. */
static size_t scriptnum_bytes(uint64_t n, unsigned char *out) {
    size_t k = 0;
    while (n > 0) {
        out[k++] = (unsigned char)(n & 0xff);
        n >>= 8;
    }
    if (k > 0 && (out[k - 1] & 0x80)) {
        out[k++] = 0; /* the top bit is the sign: a zero byte keeps n positive */
    }
    return k;
}

/* Appends a push of len bytes (len < 76, OP_PUSHBYTES) to script s[*n]. */
static void push_bytes(unsigned char *s, size_t *n, const unsigned char *b, size_t len) {
    s[(*n)++] = (unsigned char)len;
    memcpy(s + *n, b, len);
    *n += len;
}

typedef struct {
    uint32_t tx;       /* index in the workload */
    uint32_t spent;    /* outputs spent so far (Core's vin_left) */
    uint64_t counter;  /* its counter in the cluster */
} cc_coin;

/* Gives tx n_out outputs of 10 coins to <counter> OP_EQUAL. */
static int cc_outputs(mempool_tx *tx, size_t n_out, uint64_t counter) {
    unsigned char spk[12], num[9];
    size_t len = 0, i;
    push_bytes(spk, &len, num, scriptnum_bytes(counter, num));
    spk[len++] = 0x87; /* OP_EQUAL */
    /* tx has no outputs yet; set_counts would reset the inputs. */
    if ((tx->vout = bb_malloc_array(n_out, sizeof(mempool_txout))) == NULL) {
        return -1;
    }
    for (i = 0; i < n_out; i++) {
        mempool_script_init(&tx->vout[i].script_pubkey);
        tx->vout[i].value = (int64_t)10 * 100000000;
    }
    tx->vout_count = n_out;
    for (i = 0; i < n_out; i++) {
        if (mempool_script_assign(&tx->vout[i].script_pubkey, spk, len) != 0) {
            return -1;
        }
    }
    return 0;
}

/* Resizes tx's inputs to n, keeping the first ones (mempool_tx_set_counts resets them). */
static int cc_grow_inputs(mempool_tx *tx, size_t n) {
    mempool_txin *v = bb_realloc(tx->vin, n * sizeof(mempool_txin));
    size_t i;
    if (v == NULL) {
        return -1;
    }
    for (i = tx->vin_count; i < n; i++) {
        memset(&v[i], 0, sizeof(v[i]));
        mempool_script_init(&v[i].script_sig);
        mempool_script_init(&v[i].witness);
        v[i].sequence = 0xffffffffu;
    }
    tx->vin = v;
    tx->vin_count = n;
    return 0;
}

int mempool_workload_add_coin_cluster(mempool_workload *w, fastrandom2_ctx *r, int child_txs,
                                      int min_ancestors) {
    size_t first = w->count, cap = first + 10 + (child_txs > 0 ? (size_t)child_txs : 0), n_av = 0;
    mempool_tx *txs;
    cc_coin *av = NULL;
    byte_stream scratch;
    uint64_t counter = 1;
    int x, rc = 0;
    if ((txs = bb_realloc(w->txs, cap * sizeof(mempool_tx))) == NULL ||
        (av = bb_malloc_array(cap - first, sizeof(cc_coin))) == NULL) {
        if (txs != NULL) {
            w->txs = txs;
        }
        return -1;
    }
    w->txs = txs;
    stream_init(&scratch);
    for (x = 0; x < 10 && rc == 0; x++) {
        mempool_tx *tx = &w->txs[w->count];
        unsigned char sig[10], num[9];
        size_t len = 0, nb = scriptnum_bytes(counter, num);
        mempool_tx_init(tx);
        w->count++;
        push_bytes(sig, &len, num, nb);
        nb = scriptnum_bytes((uint64_t)x, num);
        rc = mempool_tx_set_counts(tx, 1, 0);
        if (rc == 0) {
            fake_outpoint(&tx->vin[0].prevout, UINT64_C(0x436f696e436c7573), (uint64_t)w->count);
            tx->vin[0].prevout.n = 1;
            rc = mempool_script_assign(&tx->vin[0].script_sig, sig, len) |
                 mempool_script_assign(&tx->vin[0].witness, num, nb);
        }
        if (rc == 0) {
            rc = cc_outputs(tx, 2 + (size_t)fastrandom2_randrange(r, 10), counter);
        }
        if (rc == 0) {
            rc = mempool_tx_finalize(tx, &scratch);
        }
        av[n_av].tx = (uint32_t)(w->count - 1);
        av[n_av].spent = 0;
        av[n_av++].counter = counter++;
    }
    for (x = 0; x < child_txs && n_av > 0 && rc == 0; x++) {
        mempool_tx *tx = &w->txs[w->count];
        uint64_t n_anc = fastrandom2_randrange(r, 10) + 1, a;
        size_t n_out = 2;
        mempool_tx_init(tx);
        w->count++;
        for (a = 0; a < n_anc && n_av > 0 && rc == 0; a++) {
            size_t idx = (size_t)fastrandom2_randrange(r, n_av), i, base;
            cc_coin *c = &av[idx];
            const mempool_tx *parent = &w->txs[c->tx];
            size_t take = (size_t)min_ancestors;
            unsigned char sig[10], num[9];
            size_t len = 0, nb = scriptnum_bytes(c->counter, num);
            if (fastrandom2_randrange(r, 2) != 0) {
                take += (size_t)fastrandom2_randrange(r, parent->vout_count - c->spent);
            }
            if (c->counter >= 1 && c->counter <= 16) {
                sig[len++] = (unsigned char)(0x50 + c->counter); /* OP_1 .. OP_16 */
            } else {
                push_bytes(sig, &len, num, nb);
            }
            base = tx->vin_count;
            if (take > parent->vout_count - c->spent) {
                take = parent->vout_count - c->spent;
            }
            rc = cc_grow_inputs(tx, base + take);
            for (i = 0; i < take && rc == 0; i++) {
                mempool_txin *in = &tx->vin[base + i];
                memcpy(in->prevout.txid, parent->txid, 32);
                in->prevout.n = c->spent++;
                rc = mempool_script_assign(&in->script_sig, sig, len) |
                     mempool_script_assign(&in->witness, num, nb);
            }
            if (c->spent == parent->vout_count) {
                av[idx] = av[--n_av];
            }
            n_out = 2 + (size_t)fastrandom2_randrange(r, 10);
        }
        if (rc == 0) {
            rc = cc_outputs(tx, n_out, counter);
        }
        if (rc == 0) {
            rc = mempool_tx_finalize(tx, &scratch);
        }
        av[n_av].tx = (uint32_t)(w->count - 1);
        av[n_av].spent = 0;
        av[n_av++].counter = counter++;
    }
    stream_destroy(&scratch);
    bb_free(av);
    if (rc != 0) {
        while (w->count > first) {
            mempool_tx_destroy(&w->txs[--w->count]);
        }
        return -1;
    }
    return 0;
}
