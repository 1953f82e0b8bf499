/* RpcMempool, Core's bench/rpc_mempool.cpp (doc/mempool.md): the verbose JSON of a pool of
 * 1000 unrelated transactions, each with one input (script_sig OP_1, a witness of the one
 * byte 1) and one output (OP_1 OP_EQUAL, worth i satoshi), fee i. Each iteration builds the
 * JSON object with jansson and frees it (Core builds its UniValue and drops it; neither
 * writes text). Core's inputs all spend the null outpoint, which only its unchecked add
 * accepts: here each spends a confirmed outpoint of its own, of the same size. An
 * iteration takes several milliseconds (5000 allocations), so the row runs 3 epochs. */
#include "bench_bitcoin/bench.h"

#include <string.h>

#include "mempool/mempool.h"
#include "mempool/mempool_json.h"
#include "util/alloc.h"
#include "util/stream.h"

#define RPC_TXS 1000

typedef struct {
    mempool *pool;
    mempool_tx *txs;
    size_t made;
} rpc_ctx;

static int rpc_setup(void *state, double n) {
    rpc_ctx *c = state;
    static const unsigned char op_1 = 0x51, one = 1, spk[2] = {0x51, 0x87};
    byte_stream s;
    int rc = 0;
    (void)n;
    if ((c->txs = bb_malloc_array(RPC_TXS, sizeof(mempool_tx))) == NULL ||
        (c->pool = mempool_new(bench_mempool_salt())) == NULL) {
        return -1;
    }
    stream_init(&s);
    for (c->made = 0; c->made < RPC_TXS && rc == 0; c->made++) {
        mempool_tx *tx = &c->txs[c->made];
        uint32_t i = (uint32_t)c->made;
        mempool_tx_init(tx);
        rc = mempool_tx_set_counts(tx, 1, 1);
        if (rc == 0) {
            memset(tx->vin[0].prevout.txid, 0x52, 32);
            memcpy(tx->vin[0].prevout.txid, &i, sizeof(i));
            rc = mempool_script_assign(&tx->vin[0].script_sig, &op_1, 1) |
                 mempool_script_assign(&tx->vin[0].witness, &one, 1) |
                 mempool_script_assign(&tx->vout[0].script_pubkey, spk, 2);
            tx->vout[0].value = (int64_t)i;
            tx->fee = (int64_t)i;
        }
        if (rc == 0) {
            rc = mempool_tx_finalize(tx, &s);
        }
        if (rc == 0 && mempool_add(c->pool, tx) != MEMPOOL_OK) {
            rc = -1;
        }
    }
    stream_destroy(&s);
    return rc;
}

static void rpc_op(void *arg) {
    rpc_ctx *c = arg;
    json_t *j = mempool_to_json(c->pool);
    if (j == NULL) {
        bench_out_of_memory("RpcMempool");
    }
    nb_do_not_optimize_away(j);
    json_decref(j);
}

NB_OP_N(rpc_n, rpc_op)

static void rpc_teardown(void *state) {
    rpc_ctx *c = state;
    size_t i;
    mempool_free(c->pool);
    for (i = 0; c->txs != NULL && i < c->made; i++) {
        mempool_tx_destroy(&c->txs[i]);
    }
    bb_free(c->txs);
}

const bench_def bench_defs_rpc_mempool[] = {
    {.name = "RpcMempool", .state_size = sizeof(rpc_ctx), .setup = rpc_setup, .op_n = rpc_n,
     .teardown = rpc_teardown, .max_epochs = 3},
    BENCH_DEFS_END
};
