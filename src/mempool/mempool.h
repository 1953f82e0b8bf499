/* A toy transaction memory pool with Bitcoin Core's ancestor/descendant
 * bookkeeping: enough of the real thing for the ComplexMemPool benchmark to
 * measure the same graph work, with none of the validation.
 *
 * The pool holds transactions that may spend each other's outputs. For every
 * entry it keeps, exact after every add and remove:
 *   ancestors:   count, size and fees of the entry and everything it depends
 *                on in the pool (parents, their parents, ...);
 *   descendants: count, size and fees of the entry and everything in the pool
 *                that depends on it.
 * Sizes are virtual sizes (mempool_tx's vsize: weight / 4 rounded up, which is
 * the serialised size for a transaction without witness data), as Core's;
 * counts and sums include the entry itself, as in Core. A fee is at most
 * Bitcoin's MAX_MONEY and the pool's fees at most INT64_MAX in all, so every
 * fee sum is exact.
 *
 * Transactions are found by txid through a hash table keyed with salted
 * SipHash, and spent outpoints map to the entry that spends them (what
 * detects a double spend). Trimming evicts the package (an entry and all its
 * descendants) with the lowest descendant fee rate first, until the pool's
 * total size (mempool_trim) or its dynamic memory usage (mempool_trim_to_usage,
 * Core's TrimToSize) is under a limit, and raises the pool's minimum fee rate
 * to what the evicted packages paid plus MEMPOOL_INCREMENTAL_RELAY_FEE.
 *
 * Dynamic memory usage is a model, defined in doc/mempool.md: per entry, the
 * transaction's memory (mempool_tx_dynamic_usage) and the pool's bookkeeping
 * for it, fixed when it is added, so that the total rises and falls by exactly
 * the entry's share with each add and removal, and is 0 for an empty pool.
 * Spare capacity the pool keeps for reuse is not counted.
 *
 * The pool does not copy transactions: it keeps the pointer given to
 * mempool_add, and the caller must keep that transaction alive and unchanged
 * until it leaves the pool (removed, trimmed, or the pool freed). Not
 * thread-safe; queries that walk the graph take a non-const pool because they
 * use its scratch marks. */
#ifndef MEMPOOL_MEMPOOL_H
#define MEMPOOL_MEMPOOL_H

#include <stddef.h>
#include <stdint.h>

#include "mempool/tx.h"

/* Results of mempool_add and mempool_remove. Every error leaves the pool as it
 * was (its contents; spare capacity it reserved may remain). */
enum {
    MEMPOOL_OK = 0,
    MEMPOOL_ERR_NOMEM = -1,     /* memory ran out */
    MEMPOOL_ERR_DUPLICATE = -2, /* a transaction with this txid is in the pool */
    MEMPOOL_ERR_CONFLICT = -3,  /* an input spends an outpoint already spent in the
                                 * pool, or one spent twice by the transaction itself */
    MEMPOOL_ERR_INVALID = -4,   /* fee negative or above MAX_MONEY (2.1e15: 21 million
                                 * coins in satoshi), the pool's total fees would pass
                                 * INT64_MAX (so no fee sum can overflow), zero vsize
                                 * (not finalized), or an input naming an output its
                                 * in-pool parent lacks */
    MEMPOOL_ERR_NOT_FOUND = -5, /* no transaction with this txid in the pool */
    MEMPOOL_ERR_HAS_CHILDREN = -6 /* an entry spends an output of this txid, at any
                                   * index (even one the transaction lacks): its child
                                   * came first, and the pool links only new children to
                                   * old parents (as Core's add; it relinks after a reorg
                                   * by other means) */
};

typedef struct mempool mempool;

/* Core's DEFAULT_INCREMENTAL_RELAY_FEE, in satoshi per 1000 vbytes: what a
 * trim adds to an evicted package's fee rate to get the pool's minimum. */
#define MEMPOOL_INCREMENTAL_RELAY_FEE 1000

/* An entry's state, as mempool_lookup reports it. */
typedef struct {
    const mempool_tx *tx;
    int64_t fee;
    uint64_t size;
    uint64_t ancestor_count, ancestor_size;
    int64_t ancestor_fees;
    uint64_t descendant_count, descendant_size;
    int64_t descendant_fees;
    uint64_t usage;  /* the entry's share of mempool_dynamic_usage, in bytes */
} mempool_entry_info;

/* A new empty pool. salt, when not NULL, is the SipHash key (k0, k1) of its
 * hash tables; when NULL the key is drawn at random (from /dev/urandom, or
 * from the clock and addresses where that cannot be read), so that nobody can
 * pick txids that collide in a given pool. NULL when memory runs out. */
mempool *mempool_new(const uint64_t *salt);

/* Frees the pool (not the transactions it points at); NULL is fine. */
void mempool_free(mempool *pool);

/* Adds tx, which must have been finalized (mempool_tx_finalize) and must stay
 * alive and unchanged while it is in the pool. Inputs that spend outputs of
 * in-pool transactions make those its parents; inputs spending outpoints the
 * pool does not know are taken as confirmed coins. Updates the descendant
 * state of every in-pool ancestor and sets the new entry's ancestor state.
 * MEMPOOL_OK or one of the errors above (pool unchanged). */
int mempool_add(mempool *pool, const mempool_tx *tx);

/* Removes the transaction with this txid and every descendant of it. When
 * removed is not NULL it receives how many left. MEMPOOL_OK, or
 * MEMPOOL_ERR_NOT_FOUND (pool unchanged). Never allocates, cannot run out of
 * memory. */
int mempool_remove(mempool *pool, const unsigned char txid[32], size_t *removed);

/* Called by mempool_trim and mempool_trim_to_usage before each eviction with
 * the txid of the package's root (the entry whose descendant fee rate is
 * lowest); the pool is still intact during the call, which must not change
 * it. */
typedef void (*mempool_evict_fn)(void *arg, mempool *pool, const unsigned char txid[32]);

/* While the pool's total size exceeds limit, evicts the package with the
 * lowest descendant fee rate (descendant fees / descendant size; ties go to
 * the most recently added root). Each eviction raises the minimum fee rate
 * (mempool_min_fee_rate) to at least the package's rate plus
 * MEMPOOL_INCREMENTAL_RELAY_FEE. on_evict may be NULL. Returns how many
 * transactions were evicted. Never allocates. */
size_t mempool_trim(mempool *pool, uint64_t limit, mempool_evict_fn on_evict, void *arg);

/* Core's TrimToSize: mempool_trim, but while mempool_dynamic_usage exceeds
 * limit. */
size_t mempool_trim_to_usage(mempool *pool, uint64_t limit, mempool_evict_fn on_evict,
                             void *arg);

/* The pool's dynamic memory usage in bytes, by the model above: the sum of its
 * entries' usage (mempool_entry_info); 0 when empty. */
uint64_t mempool_dynamic_usage(const mempool *pool);

/* The rolling minimum fee rate, in satoshi per 1000 vbytes: 0 for a new pool,
 * then the highest (package fee rate, rounded down, + incremental relay fee)
 * of any package a trim evicted (at most INT64_MAX). Core lets this decay over
 * time once a block has come since the last rise; the toy pool has neither a
 * clock nor blocks, so it only rises. */
int64_t mempool_min_fee_rate(const mempool *pool);

/* 1 when a transaction with this txid is in the pool, else 0. */
int mempool_exists(const mempool *pool, const unsigned char txid[32]);

/* Fills *info for the entry with this txid: 0, or -1 when it is not there. */
int mempool_lookup(const mempool *pool, const unsigned char txid[32],
                   mempool_entry_info *info);

/* The transaction in the pool that spends outpoint (txid, n), or NULL. */
const mempool_tx *mempool_spender(const mempool *pool, const unsigned char txid[32],
                                  uint32_t n);

/* The in-pool ancestors (descendants) of the entry with this txid, itself
 * excluded, in no particular order. Writes the first min(count, cap) to out
 * (out may be NULL when cap is 0) and stores count in *count. 0, or -1 when
 * the txid is not in the pool. Never allocates. */
int mempool_ancestors(mempool *pool, const unsigned char txid[32],
                      const mempool_tx **out, size_t cap, size_t *count);
int mempool_descendants(mempool *pool, const unsigned char txid[32],
                        const mempool_tx **out, size_t cap, size_t *count);

/* The in-pool parents (children) of the entry with this txid: the entries whose outputs it
 * spends (that spend its outputs), each once, in no particular order. Same contract as
 * mempool_ancestors. */
int mempool_parents(const mempool *pool, const unsigned char txid[32], const mempool_tx **out,
                    size_t cap, size_t *count);
int mempool_children(const mempool *pool, const unsigned char txid[32], const mempool_tx **out,
                     size_t cap, size_t *count);

/* Number of transactions in the pool. */
size_t mempool_count(const mempool *pool);

/* Sum of the virtual sizes of the transactions in the pool, in vbytes. */
uint64_t mempool_total_size(const mempool *pool);

/* Writes the first min(count, cap) transactions of the pool to out, in no
 * particular order, and returns count. */
size_t mempool_list(const mempool *pool, const mempool_tx **out, size_t cap);

#endif
