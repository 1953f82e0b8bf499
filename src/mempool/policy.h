/* Bitcoin Core's dust rule and its check of ephemeral spends (policy/policy.cpp,
 * policy/ephemeral_policy.cpp), on the toy pool's transactions.
 *
 * An output is dust when its value is below what spending it would cost at the dust relay
 * fee rate: GetDustThreshold charges the output's serialized size (8-byte value, the
 * script with its CompactSize length) plus the input that would spend it, 148 bytes (67 for a
 * witness program: its 107-byte signature and key at a quarter), at the rate in satoshi per
 * 1000 virtual bytes, rounded up (Core's CFeeRate::GetFee). Provably unspendable outputs
 * (OP_RETURN first, or a script over 10,000 bytes) have threshold 0. */
#ifndef MEMPOOL_POLICY_H
#define MEMPOOL_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "mempool/mempool.h"
#include "mempool/table.h"

/* Core's default dust relay fee rate: 3000 satoshi per 1000 virtual bytes. */
#define MEMPOOL_DUST_RELAY_FEE 3000

/* The dust threshold of out at rate satoshi per 1000 vbytes (Core's GetDustThreshold), at
 * most INT64_MAX. */
int64_t mempool_dust_threshold(const mempool_txout *out, int64_t rate);

/* 1 when out's value is below its dust threshold at rate (Core's IsDust), else 0. */
int mempool_is_dust(const mempool_txout *out, int64_t rate);

/* Reusable state for mempool_check_ephemeral_spends: two hash sets and their keys. */
typedef struct {
    uint64_t k0, k1;              /* SipHash key of the sets */
    mempool_table dust, seen;     /* unspent dust outpoints; parents already looked at */
    const unsigned char **keys;   /* each set item's txid (inside the transactions) */
    const mempool_tx **parent;    /* per key: the parent found, or NULL */
    size_t nkeys, cap;
} mempool_ephemeral;

/* A new state, its sets keyed with salt (k0, k1). */
void mempool_ephemeral_init(mempool_ephemeral *e, uint64_t k0, uint64_t k1);
void mempool_ephemeral_free(mempool_ephemeral *e);

/* Core's CheckEphemeralSpends: for each transaction of package[0 .. n) in turn, every dust
 * output (at rate) of each distinct parent it spends from, looked up in the package first
 * and then in the pool, must be spent by that same transaction. 0 when every one is; 1 when
 * one is not (*child receives the index of the first transaction that leaves dust unspent);
 * -1 when memory runs out. */
int mempool_check_ephemeral_spends(mempool_ephemeral *e, const mempool *pool,
                                   const mempool_tx *const *package, size_t n, int64_t rate,
                                   size_t *child);

#endif
