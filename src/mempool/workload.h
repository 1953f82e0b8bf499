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

#include "crypto/random.h"
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

/* Core's current CreateCoinCluster (bench/mempool_stress.cpp, the cluster mempool's): appends
 * to w (empty or from earlier calls) 10 base transactions and then child_txs children drawn
 * from r, in creation order. Base transaction x (0 to 9) spends a made-up confirmed outpoint
 * (index 1) with script_sig <counter> and witness item <x> (the number pushed as its minimal
 * CScriptNum bytes; counter counts the cluster's transactions from 1) and makes 2 to 11
 * outputs. Each child, while coins are available: 1 to 10 times, picks an available coin
 * (a transaction with unspent outputs) at random and spends min_ancestors of its outputs,
 * or at random min_ancestors plus up to what the coin has left, each input with script_sig
 * the coin's counter as a small integer and witness item its CScriptNum bytes; each pick
 * draws the child's output count (2 to 11) anew, the last draw counting. Every output is 10
 * coins to <counter> OP_EQUAL. Transactions are made available as they are created.
 *
 * The draws from r are Core's, in Core's order, with one difference: Core takes the picked
 * coin by value, so its count of spent outputs never advances (and it tests that count
 * against the coin's inputs to drop it), and later children spend the same outputs again,
 * which Core's unchecked benchmark add accepts. The toy pool refuses double spends, so here
 * the count advances in place and a coin is dropped once all its outputs are spent. An
 * empty witness item (base transaction 0's) is counted as no witness (tx.h's model), one
 * weight unit less. Fees are 0 (the benchmarks draw them as they add). Growing w may move
 * its transactions: none may be in a pool meanwhile. 0, or -1 when memory runs out (w then
 * holds what it held before). */
int mempool_workload_add_coin_cluster(mempool_workload *w, fastrandom2_ctx *r, int child_txs,
                                      int min_ancestors);

#endif
