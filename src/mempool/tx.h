/* Transactions for the toy mempool: inputs, outputs, a fee, and a txid that is
 * the double SHA-256 of a Bitcoin-style serialisation.
 *
 * Serialisation (all integers little-endian, counts as CompactSize), the same
 * bytes Bitcoin hashes for a transaction without witness data:
 *   version (4)  n_in  { prev txid (32)  prev index (4)  script_sig  sequence (4) } * n_in
 *   n_out  { value (8)  script_pubkey } * n_out  locktime (4)
 * where a script is its CompactSize length followed by its bytes. The txid is
 * stored as the 32 raw digest bytes (the reverse of the hex Bitcoin displays).
 *
 * Witness data (BIP 141) is not part of those bytes, but it counts towards the
 * transaction's weight: 3 x the size above plus the size with witness, which
 * adds a marker and a flag byte (2) and, per input, the witness stack as a
 * CompactSize item count followed by each item as a script. Each input here
 * has a stack of at most one item (enough for Core's MempoolEviction, whose
 * inputs each carry one one-byte item): an empty witness script is an empty
 * stack, anything else the one item. When no input has a witness, the size
 * with witness is the size above (no marker or flag) and the weight is 4 x it.
 *
 * A mempool_tx owns its arrays and scripts; the mempool only points at it. */
#ifndef MEMPOOL_TX_H
#define MEMPOOL_TX_H

#include <stddef.h>
#include <stdint.h>

#include "prevector/prevector.h"
#include "util/stream.h"

/* A script: up to 28 bytes inline (a 25-byte P2PKH script fits), then heap. */
PREVECTOR_DEFINE(mempool_script, unsigned char, 28)

/* An output of an earlier transaction: its txid and index. */
typedef struct {
    unsigned char txid[32];
    uint32_t n;
} mempool_outpoint;

typedef struct {
    mempool_outpoint prevout;
    mempool_script script_sig;
    uint32_t sequence;
    mempool_script witness;   /* empty: no witness; else a stack of this one item */
} mempool_txin;

typedef struct {
    int64_t value;
    mempool_script script_pubkey;
} mempool_txout;

typedef struct {
    int32_t version;
    uint32_t locktime;
    mempool_txin *vin;        /* vin_count inputs (NULL when 0) */
    size_t vin_count;
    mempool_txout *vout;      /* vout_count outputs (NULL when 0) */
    size_t vout_count;
    int64_t fee;              /* what the pool accounts (>= 0); not serialised */
    /* Set by mempool_tx_finalize from the fields above; stale after any change. */
    unsigned char txid[32];
    uint32_t size;            /* serialised size in bytes, without witness data */
    uint32_t weight;          /* 3 x size + size with witness data (BIP 141) */
    uint32_t vsize;           /* virtual size: weight / 4 rounded up; the pool's size */
} mempool_tx;

/* An empty transaction: version 2, locktime 0, no inputs or outputs, fee 0,
 * txid all zero, size, weight and vsize 0. Owns nothing. */
void mempool_tx_init(mempool_tx *tx);

/* Frees the inputs, outputs and their scripts; tx is then as after init. */
void mempool_tx_destroy(mempool_tx *tx);

/* Replaces the inputs and outputs with n_in inputs (null prevout: zero txid,
 * index 0; empty script_sig and witness; sequence 0xffffffff) and n_out outputs
 * (value 0, empty script). 0, or -1 when memory runs out (tx unchanged). */
int mempool_tx_set_counts(mempool_tx *tx, size_t n_in, size_t n_out);

/* Bytes that mempool_tx_serialize appends for tx. */
size_t mempool_tx_serialized_size(const mempool_tx *tx);

/* Appends the serialisation described above to s. 0, or -1 when memory runs
 * out (s unchanged). */
int mempool_tx_serialize(const mempool_tx *tx, byte_stream *s);

/* Computes tx->txid, size, weight and vsize from the current fields, using
 * scratch (any byte stream; it is cleared first and keeps its buffer for
 * reuse). 0, or -1 when memory runs out or the weight would pass UINT32_MAX
 * (txid, size, weight and vsize unchanged). */
int mempool_tx_finalize(mempool_tx *tx, byte_stream *scratch);

/* The bytes the allocator is taken to hold for a request of n bytes: 0 for 0,
 * else n plus one size_t of header rounded up to 2 x sizeof(size_t), and at
 * least 4 x sizeof(size_t) (glibc's chunk sizes; 32, 48, 64, ... on 64-bit
 * systems). The mempool's memory model counts every block through it. */
size_t mempool_malloc_usage(size_t n);

/* Memory tx takes by the model of doc/mempool.md: the struct itself, its input
 * and output arrays, and the heap blocks of its scripts (inline ones are in the
 * arrays already), each block through mempool_malloc_usage. */
size_t mempool_tx_dynamic_usage(const mempool_tx *tx);

#endif
