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
