/* MempoolCheckEphemeralSpends, Core's bench/mempool_ephemeral_spends.cpp (doc/mempool.md):
 * a parent in the pool with 1000 outputs (empty scripts, output i worth i cents) and a child
 * spending every one; each iteration checks the child's ephemeral spends at a dust relay rate
 * 0.1 coin per 1000 vbytes higher than the last (Core's CFeeRate(iteration * COIN / 10)). */
#include "bench_bitcoin/bench.h"

#include <string.h>

#include "mempool/mempool.h"
#include "mempool/policy.h"
#include "util/stream.h"

#define COIN ((int64_t)100000000)
#define CENT ((int64_t)1000000)

typedef struct {
    mempool *pool;
    mempool_tx parent, child;
    int made;                    /* parent and child were initialised */
    mempool_ephemeral check;
    const mempool_tx *package[1];
    uint64_t iteration;
    int result;
} ephemeral_ctx;

/* number_outputs: 1000 unless -asymptote gives more than 1, as Core. */
static int ephemeral_setup(void *state, double n) {
    ephemeral_ctx *c = state;
    size_t outputs = n > 1 ? (size_t)(n < BENCH_MAX_COMPLEXITY_N ? n : BENCH_MAX_COMPLEXITY_N)
                           : 1000, i;
    byte_stream s;
    int rc;
    mempool_tx_init(&c->parent);
    mempool_tx_init(&c->child);
    c->made = 1;
    mempool_ephemeral_init(&c->check, UINT64_C(0x45706865), UINT64_C(0x6d6572616c));
    stream_init(&s);
    rc = mempool_tx_set_counts(&c->parent, 1, outputs);
    if (rc == 0) {
        /* Core's parent spends the null outpoint; any confirmed coin will do. */
        memset(c->parent.vin[0].prevout.txid, 0x11, 32);
        for (i = 0; i < outputs; i++) {
            c->parent.vout[i].value = (int64_t)i * CENT;
        }
        rc = mempool_tx_finalize(&c->parent, &s);
    }
    if (rc == 0) {
        rc = mempool_tx_set_counts(&c->child, outputs, 1);
    }
    if (rc == 0) {
        for (i = 0; i < outputs; i++) {
            memcpy(c->child.vin[i].prevout.txid, c->parent.txid, 32);
            c->child.vin[i].prevout.n = (uint32_t)i;
        }
        rc = mempool_tx_finalize(&c->child, &s);
    }
    stream_destroy(&s);
    if (rc != 0 || (c->pool = mempool_new(bench_mempool_salt())) == NULL ||
        mempool_add(c->pool, &c->parent) != MEMPOOL_OK) {
        return -1;
    }
    c->package[0] = &c->child;
    return 0;
}

static void ephemeral_op(void *arg) {
    ephemeral_ctx *c = arg;
    size_t child = 0;
    int64_t rate = (int64_t)(c->iteration * (uint64_t)COIN / 10);
    c->result = mempool_check_ephemeral_spends(&c->check, c->pool, c->package, 1, rate, &child);
    if (c->result < 0) {
        bench_out_of_memory("MempoolCheckEphemeralSpends");
    }
    c->iteration++;
    nb_do_not_optimize_away(c->result);
}

NB_OP_N(ephemeral_n, ephemeral_op)

static void ephemeral_teardown(void *state) {
    ephemeral_ctx *c = state;
    mempool_free(c->pool);
    mempool_ephemeral_free(&c->check);
    if (c->made) {
        mempool_tx_destroy(&c->parent);
        mempool_tx_destroy(&c->child);
    }
}

const bench_def bench_defs_mempool_ephemeral[] = {
    {.name = "MempoolCheckEphemeralSpends", .state_size = sizeof(ephemeral_ctx),
     .setup = ephemeral_setup, .op_n = ephemeral_n, .teardown = ephemeral_teardown,
     .complexity_n = 1000},
    BENCH_DEFS_END
};
