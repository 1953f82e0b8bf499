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
