/* The ComplexMemPool workload: a deterministic set of transactions that spend
 * each other in a dense random graph, shared by the benchmark and the tests.
 *
 * From a seed, it makes MEMPOOL_WORKLOAD_BASE_TXS base transactions, each
 * spending one made-up confirmed outpoint (never in a pool) and making 2 to 11
 * outputs; then child_txs children, each spending 1 to 10 outputs picked at
 * random among the still unspent outputs of earlier transactions (all of them
 * when fewer remain; a made-up confirmed outpoint when none do) and making 2
 * to 11 outputs. Output scripts are 25-byte P2PKH-shaped scripts with random
 * key hashes, values random. Each transaction's fee is its size times a fee
 * rate drawn uniformly from 1 to 100 (units per byte). Transactions come in
 * creation order, so every parent precedes its children. */
#ifndef MEMPOOL_WORKLOAD_H
#define MEMPOOL_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "mempool/tx.h"

#define MEMPOOL_WORKLOAD_BASE_TXS 100

/* The seed the benchmark uses. */
#define MEMPOOL_WORKLOAD_SEED UINT64_C(0x436f6d706c65784d) /* "ComplexM" */

typedef struct {
    mempool_tx *txs; /* count finalized transactions, parents before children */
    size_t count;    /* MEMPOOL_WORKLOAD_BASE_TXS + child_txs */
} mempool_workload;

/* Makes the workload for child_txs children from seed into w (which needs no
 * init). 0, or -1 when memory runs out (then w owns nothing). */
int mempool_workload_make(mempool_workload *w, size_t child_txs, uint64_t seed);

/* Frees every transaction; w then owns nothing. */
void mempool_workload_destroy(mempool_workload *w);

/* The MempoolEviction set (Core's bench/mempool_eviction.cpp): seven small
 * transactions, txs[0] to txs[6] being Core's tx1 to tx7. Every input has a
 * one-byte script_sig (OP_n) and a witness of one one-byte item; every output
 * is worth 10 coins and has the script OP_n OP_EQUAL. tx1, tx2 and tx4 (two
 * inputs, two outputs) spend only made-up confirmed outpoints; tx3 spends
 * tx2:0; tx5 and tx6 (two outputs each) spend tx4:0 and tx4:1 and one
 * confirmed outpoint each; tx7 (two outputs) spends tx5:0 and tx6:0. Fees are
 * 10000, 5000, 20000, 7000, 1000, 1100 and 9000 satoshi. (Core gives the
 * confirmed inputs the null outpoint, several times over, which its benchmark's
 * unchecked add lets pass; this pool refuses double spends, so each gets an
 * outpoint of its own, of the same size.) */
#define MEMPOOL_EVICTION_TXS 7

/* Makes the seven finalized transactions into txs (which need no init). 0, or
 * -1 when memory runs out (then txs own nothing). */
int mempool_eviction_make(mempool_tx txs[MEMPOOL_EVICTION_TXS]);

#endif
