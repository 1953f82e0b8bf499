/* The pool's hash tables: open addressing with linear probing, at most half full, with
 * backward-shift deletion (no tombstones). A slot holds the key's 64-bit hash and two 32-bit
 * values; the table never sees keys themselves, so a lookup walks the probe run from
 * mempool_table_home and compares keys (wherever the caller keeps them) only where the
 * stored hash agrees. Keys are hashed with salted SipHash by the caller, so nobody can
 * choose ones that collide. */
#ifndef MEMPOOL_TABLE_H
#define MEMPOOL_TABLE_H

#include <stddef.h>
#include <stdint.h>

/* An empty slot's entry. */
#define MEMPOOL_TABLE_EMPTY UINT32_MAX

typedef struct {
    uint64_t hash;
    uint32_t entry; /* MEMPOOL_TABLE_EMPTY: the slot is free */
    uint32_t aux;
} mempool_slot;

typedef struct {
    mempool_slot *s;
    size_t cap;  /* 0 or a power of two */
    size_t used;
} mempool_table;

/* An empty table that owns nothing (a zeroed struct is one too). */
void mempool_table_init(mempool_table *t);

/* Frees the slots; t is then empty. */
void mempool_table_free(mempool_table *t);

/* Makes room for n items in all at load <= 1/2, moving every item. 0, or -1 when memory
 * runs out or n is too large (t unchanged). */
int mempool_table_reserve(mempool_table *t, size_t n);

/* Adds an item (room must have been reserved); an equal item may already be there. */
void mempool_table_put(mempool_table *t, uint64_t hash, uint32_t entry, uint32_t aux);

/* Removes the item in slot i; later items of its probe run move back into the hole. */
void mempool_table_erase_at(mempool_table *t, size_t i);

/* Removes the item (entry, aux), which must be present under hash. */
void mempool_table_erase(mempool_table *t, uint64_t hash, uint32_t entry, uint32_t aux);

/* Empties the table, keeping its slots for reuse. */
void mempool_table_clear(mempool_table *t);

/* A lookup: i = mempool_table_home(t, hash), then while t->s[i].entry is not EMPTY, look at
 * slot i and go on with i = mempool_table_next(t, i). SIZE_MAX (no slot to look at) when
 * the table has no slots. */
static inline size_t mempool_table_home(const mempool_table *t, uint64_t hash)
{
    return t->cap ? (size_t)hash & (t->cap - 1) : SIZE_MAX;
}

static inline size_t mempool_table_next(const mempool_table *t, size_t i)
{
    return (i + 1) & (t->cap - 1);
}

/* 1 when slot i (from mempool_table_home or _next, not SIZE_MAX) holds an item. */
static inline int mempool_table_full(const mempool_table *t, size_t i)
{
    return t->s[i].entry != MEMPOOL_TABLE_EMPTY;
}

#endif
