/* The pool's layout, chosen so that the graph work that dominates
 * ComplexMemPool touches few cache lines and never allocates (doc/mempool.md
 * has the costs):
 *
 * - Entries live in one array and refer to each other by 32-bit index; a
 *   freed slot goes on a free list and keeps its link arrays' memory for the
 *   next entry that lands there, so a pool that is filled and emptied
 *   repeatedly stops allocating after the first round.
 * - Each entry stores the list of all its in-pool ancestors. It never
 *   changes while the entry is in the pool (see remove_closure), and it makes
 *   both an add (the union of the parents' lists) and a removal (each removed
 *   entry's list) sequential reads instead of walks over parent links.
 * - Visited-sets are marks: each walk takes a fresh epoch number and an entry
 *   is visited iff its mark equals it. No set, no clearing.
 * - The hash tables (table.h) are open-addressed (linear probing, load <= 1/2,
 *   backward-shift deletion) with the 64-bit SipHash stored in the slot, so a
 *   probe compares keys only when the hashes agree. A third table holds, per
 *   txid that is not in the pool but that inputs in the pool spend, how many
 *   such inputs there are, so that an add learns with one probe whether any
 *   entry spends any of its outputs (any index, even one it lacks), which is
 *   what refuses a parent that comes after its child. (One record per txid,
 *   not per input: a thousand inputs spending one confirmed transaction's
 *   outputs would otherwise share one home slot and make a probe run of a
 *   thousand.)
 * - Fees: each is at most MAX_MONEY and the pool's total at most INT64_MAX,
 *   so no ancestor or descendant fee sum (a sum over part of the pool) can
 *   wrap. Sizes are 32-bit and entries fewer than 2^32, so no size sum (at
 *   most the pool's total, below 2^64) can wrap either.
 * - Everything an add can allocate is reserved before the pool changes, so a
 *   failed add leaves the contents exactly as they were; removal never
 *   allocates (the walk buffers always hold as many indices as entries).
 * - The eviction heap (heap.h; min by descendant fee rate) is only built when a trim
 *   needs it and then kept up to date by the trim's removals; an add just marks
 *   it stale, sparing every ancestor update of an add a heap fix-up. */
#include "mempool/mempool.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "crypto/siphash.h"
#include "mempool/heap.h"
#include "mempool/table.h"
#include "util/alloc.h"
#include "util/splitmix64.h"

#define NONE UINT32_MAX

/* Bitcoin's MAX_MONEY in satoshi: no real fee is larger. */
#define MAX_MONEY ((int64_t)21000000 * 100000000)

typedef struct {
    uint32_t *v;
    uint32_t n, cap;
} idx_vec;

/* The hot per-entry state is split into parallel arrays indexed by slot (mark,
 * par, chi, anc, h) so that an inner loop reads a few kilobytes of marks and
 * 40-byte records rather than whole entries. */
typedef struct {
    uint64_t count, size, fees;
} pkg_stats;

/* What an add or a removal reads or updates at each ancestor. */
typedef struct {
    uint64_t fee, size;
    pkg_stats desc; /* descendant state */
} hot;

/* The rest of an entry: read once per add, remove or query. */
typedef struct {
    const mempool_tx *tx; /* NULL while the slot is free */
    uint64_t txid_hash;
    uint64_t seq;         /* order of addition, breaks fee-rate ties */
    pkg_stats anc;
    uint32_t heap_pos;
    uint32_t next_free;
    uint32_t n_outside; /* inputs whose parent was not in the pool at add time */
    uint64_t usage;     /* its share of mempool_dynamic_usage (entry_usage) */
} entry;

/* Table slots (table.h): entry is the entry's index (in the outside table, the record's),
 * aux the input index in the spent-outpoint table, 0 in the txid table, and the number of
 * inputs spending that txid in the outside table. */
typedef mempool_slot slot;
typedef mempool_table table;

struct mempool {
    uint64_t k0, k1;
    /* Per slot, e_cap allocated, e_len ever used. */
    entry *e;
    uint32_t *mark;       /* epoch of the last walk that visited the slot */
    idx_vec *par, *chi;   /* in-pool parents and children; par holds pairs
                           * (parent, this entry's index in the parent's chi)
                           * so that a child leaves its parent in O(1) */
    idx_vec *anc;         /* all in-pool ancestors (see remove_closure) */
    hot *h;
    unsigned char *rm;    /* member of the closure being removed */
    uint32_t e_len, e_cap;
    uint32_t free_head;
    size_t count;
    uint64_t total_size;
    uint64_t total_fees;  /* <= INT64_MAX (mempool_add refuses more) */
    uint64_t usage;       /* sum of the entries' usage */
    int64_t min_fee_rate; /* rolling minimum, satoshi per 1000 vbytes */
    /* txid -> its entry; outpoint -> the entry spending it; outside: per
     * txid not in the pool that inputs of entries spend, a record (its txid
     * in otxid, densely packed) and the number of such inputs. An input stays
     * outside for as long as its entry is in the pool: its parent cannot come
     * in after it (HAS_CHILDREN), and an in-pool parent leaves only with its
     * children; so an outside record for a txid never coexists with that
     * txid's entry. */
    table txids, spent, outside;
    unsigned char (*otxid)[32];
    uint32_t otxid_n, otxid_cap;
    /* Walk buffers and the heap: room for as many indices as entries. */
    uint32_t *heap, *work1, *work2;
    uint32_t heap_cap, work1_cap, work2_cap;
    uint32_t heap_n;
    int heap_valid;
    uint32_t epoch;
    uint64_t seq;
};

/* A fresh walk: afterwards no slot's mark equals p->epoch. */
static void new_epoch(mempool *p) {
    if (++p->epoch == 0) {
        memset(p->mark, 0, (size_t)p->e_len * sizeof(uint32_t));
        p->epoch = 1;
    }
}

/* ---- hash tables (table.h): lookups ------------------------------------------ */

static uint64_t hash_txid(const mempool *p, const unsigned char txid[32]) {
    return siphash_uint256(p->k0, p->k1, txid);
}

static uint64_t hash_outpoint(const mempool *p, const mempool_outpoint *o) {
    return siphash_uint256_extra(p->k0, p->k1, o->txid, o->n);
}

static uint32_t find_txid(const mempool *p, const unsigned char txid[32], uint64_t hash) {
    size_t mask, i;
    if (p->txids.cap == 0) {
        return NONE;
    }
    mask = p->txids.cap - 1;
    for (i = (size_t)hash & mask; p->txids.s[i].entry != NONE; i = (i + 1) & mask) {
        const slot *s = &p->txids.s[i];
        if (s->hash == hash && memcmp(p->e[s->entry].tx->txid, txid, 32) == 0) {
            return s->entry;
        }
    }
    return NONE;
}

/* The entry spending (txid, n), or NONE. */
static uint32_t find_spender(const mempool *p, const unsigned char txid[32], uint32_t n,
                             uint64_t hash) {
    size_t mask, i;
    if (p->spent.cap == 0) {
        return NONE;
    }
    mask = p->spent.cap - 1;
    for (i = (size_t)hash & mask; p->spent.s[i].entry != NONE; i = (i + 1) & mask) {
        const slot *s = &p->spent.s[i];
        if (s->hash == hash) {
            const mempool_outpoint *o = &p->e[s->entry].tx->vin[s->aux].prevout;
            if (o->n == n && memcmp(o->txid, txid, 32) == 0) {
                return s->entry;
            }
        }
    }
    return NONE;
}

/* The outside table's slot for txid (hashed with hash_txid), or SIZE_MAX:
 * present when an entry has an input spending any output of txid while txid
 * is not in the pool. */
static size_t find_outside(const mempool *p, const unsigned char txid[32], uint64_t hash) {
    size_t mask, i;
    if (p->outside.used == 0) {
        return SIZE_MAX;
    }
    mask = p->outside.cap - 1;
    for (i = (size_t)hash & mask; p->outside.s[i].entry != NONE; i = (i + 1) & mask) {
        const slot *s = &p->outside.s[i];
        if (s->hash == hash && memcmp(p->otxid[s->entry], txid, 32) == 0) {
            return i;
        }
    }
    return SIZE_MAX;
}

static int spent_outside(const mempool *p, const unsigned char txid[32], uint64_t hash) {
    return find_outside(p, txid, hash) != SIZE_MAX;
}

/* One more input spends txid from outside the pool. Room for a new record and
 * slot was reserved by the caller. */
static void outside_add(mempool *p, const unsigned char txid[32], uint64_t hash) {
    size_t i = find_outside(p, txid, hash);
    if (i != SIZE_MAX) {
        p->outside.s[i].aux++;
        return;
    }
    memcpy(p->otxid[p->otxid_n], txid, 32);
    mempool_table_put(&p->outside, hash, p->otxid_n++, 1);
}

/* One input fewer spends txid from outside; 1 when txid had a record (so the
 * input was one of those), else 0. The last record moves into a freed one's
 * place, keeping them dense. */
static int outside_release(mempool *p, const unsigned char txid[32], uint64_t hash) {
    size_t i = find_outside(p, txid, hash);
    uint32_t r, last;
    if (i == SIZE_MAX) {
        return 0;
    }
    if (--p->outside.s[i].aux > 0) {
        return 1;
    }
    r = p->outside.s[i].entry;
    mempool_table_erase_at(&p->outside, i);
    last = --p->otxid_n;
    if (r != last) {
        uint64_t lh = hash_txid(p, p->otxid[last]);
        memcpy(p->otxid[r], p->otxid[last], 32);
        p->outside.s[find_outside(p, p->otxid[r], lh)].entry = r;
    }
    return 1;
}

/* ---- small arrays -------------------------------------------------------- */

/* Makes *cap at least need (growing geometrically). 0 or -1 (unchanged). */
static int reserve_u32(uint32_t **v, uint32_t *cap, size_t need) {
    size_t c;
    uint32_t *nv;
    if (need <= *cap) {
        return 0;
    }
    if (need > NONE - 1) {
        return -1;
    }
    c = *cap ? (size_t)*cap * 2 : 4;
    if (c < need) {
        c = need;
    }
    if (c > NONE - 1) {
        c = NONE - 1;
    }
    if ((nv = bb_realloc(*v, c * sizeof(uint32_t))) == NULL) {
        return -1;
    }
    *v = nv;
    *cap = (uint32_t)c;
    return 0;
}

/* Room for n outside records. 0 or -1 (unchanged). */
static int reserve_otxid(mempool *p, size_t n) {
    size_t c;
    unsigned char (*nv)[32];
    if (n <= p->otxid_cap) {
        return 0;
    }
    if (n > NONE - 1) {
        return -1;
    }
    c = p->otxid_cap ? (size_t)p->otxid_cap * 2 : 16;
    if (c < n) {
        c = n;
    }
    if (c > NONE - 1) {
        c = NONE - 1;
    }
    if ((nv = bb_realloc(p->otxid, c * 32)) == NULL) {
        return -1;
    }
    p->otxid = nv;
    p->otxid_cap = (uint32_t)c;
    return 0;
}


/* ---- eviction heap --------------------------------------------------------- */

/* 1 when a should be evicted before b: lower descendant fee rate, or the same
 * rate and added later. Rates compare exactly by cross-multiplying in 128
 * bits (fees and sizes are 64-bit sums). */
#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128;
static int rate_cmp(uint64_t fa, uint64_t sa, uint64_t fb, uint64_t sb) {
    u128 x = (u128)fa * sb, y = (u128)fb * sa;
    return (x > y) - (x < y);
}
#else
static void mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo) {
    uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    *lo = (mid << 32) | (ll & 0xffffffffu);
    *hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}
static int rate_cmp(uint64_t fa, uint64_t sa, uint64_t fb, uint64_t sb) {
    uint64_t h1, l1, h2, l2;
    mul64(fa, sb, &h1, &l1);
    mul64(fb, sa, &h2, &l2);
    if (h1 != h2) {
        return h1 < h2 ? -1 : 1;
    }
    return (l1 > l2) - (l1 < l2);
}
#endif

static int evict_before(const mempool *p, uint32_t a, uint32_t b) {
    int c = rate_cmp(p->h[a].desc.fees, p->h[a].desc.size, p->h[b].desc.fees,
                     p->h[b].desc.size);
    return c != 0 ? c < 0 : p->e[a].seq > p->e[b].seq;
}

/* The heap (heap.h) over entry indices, each entry keeping its place in heap_pos. */
static int heap_before(const void *ctx, uint32_t a, uint32_t b) {
    return evict_before(ctx, a, b);
}

static void heap_place(void *ctx, uint32_t ent, uint32_t pos) {
    ((mempool *)ctx)->e[ent].heap_pos = pos;
}

static uint32_t heap_where(const void *ctx, uint32_t ent) {
    return ((const mempool *)ctx)->e[ent].heap_pos;
}

static void heap_insert(mempool *p, uint32_t ent) {
    mempool_heap h;
    h.v = p->heap;
    h.n = p->heap_n;
    mempool_heap_insert(&h, heap_before, heap_place, p, ent);
    p->heap_n = h.n;
}

static void heap_delete(mempool *p, uint32_t ent) {
    mempool_heap h;
    h.v = p->heap;
    h.n = p->heap_n;
    mempool_heap_delete(&h, heap_before, heap_place, heap_where, p, ent);
    p->heap_n = h.n;
}

static void heap_build(mempool *p) {
    mempool_heap h;
    uint32_t i, n = 0;
    for (i = 0; i < p->e_len; i++) {
        if (p->e[i].tx != NULL) {
            p->heap[n++] = i;
        }
    }
    h.v = p->heap;
    h.n = n;
    mempool_heap_build(&h, heap_before, heap_place, p);
    p->heap_n = n;
    p->heap_valid = 1;
}

/* ---- creation ---------------------------------------------------------------- */

static void random_salt(mempool *p) {
    unsigned char b[16];
    FILE *f = fopen("/dev/urandom", "rb");
    int ok = 0;
    if (f != NULL) {
        ok = fread(b, 1, sizeof(b), f) == sizeof(b);
        fclose(f);
    }
    if (ok) {
        memcpy(&p->k0, b, 8);
        memcpy(&p->k1, b + 8, 8);
    } else {
        /* Weaker, but still differs per process and per pool. */
        struct timespec ts;
        uint64_t x;
        clock_gettime(CLOCK_REALTIME, &ts);
        x = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
        x ^= (uint64_t)(uintptr_t)p;
        p->k0 = splitmix64_next(&x);
        p->k1 = splitmix64_next(&x);
    }
}

mempool *mempool_new(const uint64_t *salt) {
    mempool *p = bb_malloc(sizeof(*p));
    if (p == NULL) {
        return NULL;
    }
    memset(p, 0, sizeof(*p));
    p->free_head = NONE;
    if (salt != NULL) {
        p->k0 = salt[0];
        p->k1 = salt[1];
    } else {
        random_salt(p);
    }
    return p;
}

void mempool_free(mempool *pool) {
    uint32_t i;
    if (pool == NULL) {
        return;
    }
    for (i = 0; i < pool->e_len; i++) {
        bb_free(pool->par[i].v);
        bb_free(pool->anc[i].v);
        bb_free(pool->chi[i].v);
    }
    bb_free(pool->e);
    bb_free(pool->mark);
    bb_free(pool->par);
    bb_free(pool->anc);
    bb_free(pool->chi);
    bb_free(pool->h);
    bb_free(pool->rm);
    bb_free(pool->txids.s);
    bb_free(pool->spent.s);
    bb_free(pool->outside.s);
    bb_free(pool->otxid);
    bb_free(pool->heap);
    bb_free(pool->work1);
    bb_free(pool->work2);
    bb_free(pool);
}

/* ---- add --------------------------------------------------------------------- */

/* Grows one per-slot array to c elements of size bytes. */
static int grow_array(void **a, size_t c, size_t size) {
    void *n = bb_realloc(*a, c * size);
    if (n == NULL) {
        return -1;
    }
    *a = n;
    return 0;
}

/* Room for one more entry: a slot, and walk buffers for count + 1 indices.
 * Each array grows on its own; if a later one fails, the earlier ones just
 * keep their larger size (e_cap only counts when all have it). */
static int reserve_entry(mempool *p) {
    size_t need = p->count + 1;
    if (p->free_head == NONE && p->e_len == p->e_cap) {
        size_t c = p->e_cap ? (size_t)p->e_cap * 2 : 16;
        if (c > NONE - 1 || grow_array((void **)&p->e, c, sizeof(entry)) != 0 ||
            grow_array((void **)&p->mark, c, sizeof(uint32_t)) != 0 ||
            grow_array((void **)&p->par, c, sizeof(idx_vec)) != 0 ||
            grow_array((void **)&p->anc, c, sizeof(idx_vec)) != 0 ||
            grow_array((void **)&p->chi, c, sizeof(idx_vec)) != 0 ||
            grow_array((void **)&p->h, c, sizeof(hot)) != 0 ||
            grow_array((void **)&p->rm, c, 1) != 0) {
            return -1;
        }
        p->e_cap = (uint32_t)c;
    }
    if (reserve_u32(&p->heap, &p->heap_cap, need) != 0 ||
        reserve_u32(&p->work1, &p->work1_cap, need) != 0 ||
        reserve_u32(&p->work2, &p->work2_cap, need) != 0) {
        return -1;
    }
    return 0;
}

/* The memory model of doc/mempool.md: what an entry with np in-pool parents,
 * na in-pool ancestors and nout inputs spending from outside the pool costs.
 * Every term is fixed when the entry comes in (its parents and ancestors
 * never change while it is in the pool), so the pool's total is a plain sum
 * that an add raises and a removal lowers by the same amount. Tables count
 * two slots per key (their load is at most 1/2); the parent term counts both
 * the (parent, index) pair in the entry's list and the entry's place in the
 * parent's child list; an outside input counts a record and its slots as if
 * it were the only one spending its txid. */
static uint64_t entry_usage(const mempool_tx *tx, uint32_t np, uint32_t na, uint32_t nout) {
    const uint64_t fixed = sizeof(entry) + sizeof(hot) + 3 * sizeof(idx_vec) +
                           4 * sizeof(uint32_t) /* mark, heap, work1, work2 */ +
                           1 /* rm */ + 2 * sizeof(slot) /* txids */;
    return fixed + mempool_tx_dynamic_usage(tx) + 2 * sizeof(slot) * (uint64_t)tx->vin_count +
           3 * sizeof(uint32_t) * (uint64_t)np + sizeof(uint32_t) * (uint64_t)na +
           (2 * sizeof(slot) + 32) * (uint64_t)nout;
}

/* An add in progress: what the phases below find and hand on. */
typedef struct {
    const mempool_tx *tx;
    uint64_t h;      /* the txid's hash */
    uint32_t xi;     /* the slot it goes in */
    uint32_t np;     /* distinct in-pool parents, in work1[0 .. np) */
    uint32_t qn;     /* parents and their ancestors, in work1[0 .. qn) */
    uint32_t nout;   /* inputs whose parent is not in the pool */
    uint32_t ep;     /* the walk's epoch: marks the ancestors */
} add_state;

/* Phase 1: what can be refused before anything is reserved. */
static int add_check(const mempool *p, add_state *a) {
    const mempool_tx *tx = a->tx;
    if (tx->fee < 0 || tx->fee > MAX_MONEY || tx->vsize == 0 || tx->vin_count >= NONE) {
        return MEMPOOL_ERR_INVALID;
    }
    if (find_txid(p, tx->txid, a->h) != NONE) {
        return MEMPOOL_ERR_DUPLICATE;
    }
    /* An entry spending any output of tx, in range or not, was added while
     * tx was not in the pool: its input is in the outside table. */
    if (spent_outside(p, tx->txid, a->h)) {
        return MEMPOOL_ERR_HAS_CHILDREN;
    }
    /* total_fees <= INT64_MAX and fee <= MAX_MONEY: no wrap in the test. */
    if ((uint64_t)tx->fee > (uint64_t)INT64_MAX - p->total_fees) {
        return MEMPOOL_ERR_INVALID;
    }
    if (tx->vin_count > SIZE_MAX / 2 - p->spent.used) {
        return MEMPOOL_ERR_NOMEM;
    }
    return MEMPOOL_OK;
}

/* Phase 2: room for the entry and its table slots, and the slot it takes. */
static int add_reserve_slot(mempool *p, add_state *a) {
    uint32_t xi;
    if (reserve_entry(p) != 0 || mempool_table_reserve(&p->txids, p->txids.used + 1) != 0 ||
        mempool_table_reserve(&p->spent, p->spent.used + a->tx->vin_count) != 0) {
        return MEMPOOL_ERR_NOMEM;
    }
    if (p->free_head == NONE) {
        /* A never used slot: initialise it and put it on the free list (where
         * it stays, harmlessly, if this add fails below). */
        xi = p->e_len++;
        memset(&p->e[xi], 0, sizeof(entry));
        memset(&p->par[xi], 0, sizeof(idx_vec));
        memset(&p->anc[xi], 0, sizeof(idx_vec));
        memset(&p->chi[xi], 0, sizeof(idx_vec));
        p->mark[xi] = 0;
        p->rm[xi] = 0;
        p->e[xi].next_free = NONE;
        p->free_head = xi;
    }
    a->xi = p->free_head;
    return MEMPOOL_OK;
}

/* Phase 3: the distinct in-pool parents to work1, marked with this walk's epoch; the
 * inputs spending from outside counted. */
static int add_find_parents(mempool *p, add_state *a) {
    const mempool_tx *tx = a->tx;
    size_t k;
    new_epoch(p);
    a->ep = p->epoch;
    a->np = a->nout = 0;
    for (k = 0; k < tx->vin_count; k++) {
        const mempool_outpoint *o = &tx->vin[k].prevout;
        uint32_t par = find_txid(p, o->txid, hash_txid(p, o->txid));
        if (par == NONE) {
            a->nout++;
            continue;
        }
        if (o->n >= p->e[par].tx->vout_count) {
            return MEMPOOL_ERR_INVALID;
        }
        if (p->mark[par] != a->ep) {
            p->mark[par] = a->ep;
            p->work1[a->np++] = par;
        }
    }
    return MEMPOOL_OK;
}

/* Phase 4: the ancestors, appended to work1: the parents' stored ancestor lists merged;
 * only the marks change. Reading whole lists sequentially beats a breadth-first walk over
 * the parent links (half the time here). The append is branch-free: in this dense graph
 * most candidates are already marked, in no predictable pattern. */
static void add_collect_ancestors(mempool *p, add_state *a) {
    uint32_t i, j, qn = a->np, ep = a->ep;
    for (i = 0; i < a->np; i++) {
        const idx_vec *pv = &p->anc[p->work1[i]];
        for (j = 0; j < pv->n; j++) {
            uint32_t b = pv->v[j];
            p->work1[qn] = b;
            qn += p->mark[b] != ep;
            p->mark[b] = ep;
        }
    }
    a->qn = qn;
}

/* Phase 5: room in every link array and outside-table the entry will touch. */
static int add_reserve_links(mempool *p, add_state *a) {
    uint32_t i, xi = a->xi;
    /* outside.used + nout cannot overflow: outside.used <= spent.used, and
     * nout <= vin_count <= SIZE_MAX / 2 - spent.used (checked in add_check). */
    if (reserve_u32(&p->par[xi].v, &p->par[xi].cap, 2 * (size_t)a->np) != 0 ||
        reserve_u32(&p->anc[xi].v, &p->anc[xi].cap, a->qn) != 0 ||
        mempool_table_reserve(&p->outside, p->outside.used + a->nout) != 0 ||
        reserve_otxid(p, (size_t)p->otxid_n + a->nout) != 0) {
        return MEMPOOL_ERR_NOMEM;
    }
    for (i = 0; i < a->np; i++) {
        idx_vec *c = &p->chi[p->work1[i]];
        if (reserve_u32(&c->v, &c->cap, (size_t)c->n + 1) != 0) {
            return MEMPOOL_ERR_NOMEM;
        }
    }
    return MEMPOOL_OK;
}

/* Phase 6: claims the outpoints; on a conflict, gives back the ones taken so far. The
 * slot's tx must be set for the table to compare keys against it. */
static int add_claim_outpoints(mempool *p, add_state *a) {
    const mempool_tx *tx = a->tx;
    entry *x = &p->e[a->xi];
    size_t k;
    x->tx = tx;
    for (k = 0; k < tx->vin_count; k++) {
        const mempool_outpoint *o = &tx->vin[k].prevout;
        uint64_t oh = hash_outpoint(p, o);
        if (find_spender(p, o->txid, o->n, oh) != NONE) {
            while (k-- > 0) {
                mempool_table_erase(&p->spent, hash_outpoint(p, &tx->vin[k].prevout), a->xi,
                                    (uint32_t)k);
            }
            x->tx = NULL;
            return MEMPOOL_ERR_CONFLICT;
        }
        mempool_table_put(&p->spent, oh, a->xi, (uint32_t)k);
    }
    return MEMPOOL_OK;
}

/* Phase 7, which cannot fail: the entry's fields, its outside inputs, its links to its
 * parents, its ancestor list and state, and each ancestor's descendant state. */
static void add_commit(mempool *p, add_state *a) {
    const mempool_tx *tx = a->tx;
    uint32_t xi = a->xi, i, nout = a->nout;
    entry *x = &p->e[xi];
    hot *xh = &p->h[xi];
    pkg_stats anc;
    size_t k;
    p->free_head = x->next_free;
    x->next_free = NONE;
    x->txid_hash = a->h;
    x->seq = p->seq++;
    x->n_outside = nout;
    x->usage = entry_usage(tx, a->np, a->qn, nout);
    /* The inputs found outside in phase 3, found again (before tx's own txid is in the
     * table). Only transactions with such inputs pay for this: in ComplexMemPool, the 100
     * base transactions. */
    for (k = 0; nout > 0 && k < tx->vin_count; k++) {
        const unsigned char *pt = tx->vin[k].prevout.txid;
        uint64_t ph = hash_txid(p, pt);
        if (find_txid(p, pt, ph) == NONE) {
            outside_add(p, pt, ph);
            nout--;
        }
    }
    xh->fee = (uint64_t)tx->fee;
    xh->size = tx->vsize;
    xh->desc.count = 1;
    xh->desc.size = xh->size;
    xh->desc.fees = xh->fee;
    p->rm[xi] = 0;
    p->mark[xi] = a->ep;
    mempool_table_put(&p->txids, a->h, xi, 0);
    p->par[xi].n = a->np;
    for (i = 0; i < a->np; i++) {
        idx_vec *c = &p->chi[p->work1[i]];
        p->par[xi].v[2 * i] = p->work1[i];
        p->par[xi].v[2 * i + 1] = c->n;
        c->v[c->n++] = xi;
    }
    /* Each ancestor gains the new entry as a descendant. */
    if (a->qn > 0) {
        memcpy(p->anc[xi].v, p->work1, (size_t)a->qn * sizeof(uint32_t));
    }
    p->anc[xi].n = a->qn;
    anc.count = 1 + (uint64_t)a->qn;
    anc.size = xh->size;
    anc.fees = xh->fee;
    for (i = 0; i < a->qn; i++) {
        hot *h = &p->h[p->work1[i]];
        h->desc.count += 1;
        h->desc.size += xh->size;
        h->desc.fees += xh->fee;
        anc.size += h->size;
        anc.fees += h->fee;
    }
    x->anc = anc;
    p->count++;
    p->total_size += xh->size;
    p->total_fees += xh->fee;
    p->usage += x->usage;
    p->heap_valid = 0;
}

int mempool_add(mempool *p, const mempool_tx *tx) {
    add_state a;
    int rc;
    a.tx = tx;
    a.h = hash_txid(p, tx->txid);
    if ((rc = add_check(p, &a)) != MEMPOOL_OK || (rc = add_reserve_slot(p, &a)) != MEMPOOL_OK ||
        (rc = add_find_parents(p, &a)) != MEMPOOL_OK) {
        return rc;
    }
    add_collect_ancestors(p, &a);
    if ((rc = add_reserve_links(p, &a)) != MEMPOOL_OK ||
        (rc = add_claim_outpoints(p, &a)) != MEMPOOL_OK) {
        return rc;
    }
    add_commit(p, &a);
    return MEMPOOL_OK;
}

/* Removes the child at index i of parent's child list: the last child takes
 * its place, and the moved child's record of its index there is updated (a
 * scan of its own parents, few: a search of the parent's children instead
 * made removing the children of a wide parent one by one quadratic). */
static void unlink_child(mempool *p, uint32_t parent, uint32_t i) {
    idx_vec *c = &p->chi[parent];
    uint32_t moved = c->v[--c->n], k;
    if (i < c->n) {
        idx_vec *mp = &p->par[moved];
        c->v[i] = moved;
        for (k = 0; k < mp->n; k++) {
            if (mp->v[2 * k] == parent) {
                mp->v[2 * k + 1] = i;
                break;
            }
        }
    }
}

/* ---- removal ----------------------------------------------------------------- */

/* Removes root and all its descendants; returns how many. With a valid heap,
 * the ancestors whose descendant state changes leave the heap before the
 * change and come back after it, once each however many members of the
 * closure they lose (or, when that would cost more, the heap is dropped and
 * rebuilt when next needed). */
static size_t remove_closure(mempool *p, uint32_t root) {
    uint32_t sn, un = 0, i, j, s, ep, touched;
    int heap = p->heap_valid;

    /* The root's ancestors are among those whose key changes. When they are
     * many, re-keying them one by one (2 log n each) costs more than building
     * the heap anew at the next eviction (about 2 n): drop the heap. */
    if (heap && p->e[root].anc.count * 8 > p->heap_n) {
        p->heap_valid = heap = 0;
    }

    /* S = the descendant closure, in work1. */
    new_epoch(p);
    ep = p->epoch;
    p->mark[root] = ep;
    p->rm[root] = 1;
    p->work1[0] = root;
    sn = 1;
    for (i = 0; i < sn; i++) {
        const idx_vec *ch = &p->chi[p->work1[i]];
        for (j = 0; j < ch->n; j++) {
            uint32_t c = ch->v[j];
            if (p->mark[c] != ep) {
                p->mark[c] = ep;
                p->rm[c] = 1;
                p->work1[sn++] = c;
            }
        }
    }

    /* Every ancestor outside S loses each member of S it is an ancestor of.
     * (Members of S are only ancestors of members of S, because S is closed
     * under descendants: no ancestor state outside S changes.) The ancestor
     * lists stored at add time are exact: an entry never gains an ancestor
     * (a transaction whose outputs the pool already spends is refused, so new
     * entries are never parents of old ones), and an ancestor only leaves
     * together with all its descendants. rm is 1 for members of S, 2 for
     * ancestors already taken out of the heap. */
    touched = heap ? 2 : 0;
    for (s = 0; s < sn; s++) {
        uint32_t xi = p->work1[s];
        uint64_t xsize = p->h[xi].size, xfee = p->h[xi].fee;
        const idx_vec *av = &p->anc[xi];
        for (i = 0; i < av->n; i++) {
            uint32_t ai = av->v[i];
            if (p->rm[ai] != 1) {
                hot *a = &p->h[ai];
                if (p->rm[ai] != touched) {
                    heap_delete(p, ai);
                    p->rm[ai] = 2;
                    p->work2[un++] = ai;
                }
                a->desc.count -= 1;
                a->desc.size -= xsize;
                a->desc.fees -= xfee;
            }
        }
    }
    for (i = 0; i < un; i++) {
        p->rm[p->work2[i]] = 0;
        heap_insert(p, p->work2[i]);
    }

    /* Unlink and free. */
    for (s = 0; s < sn; s++) {
        uint32_t xi = p->work1[s];
        entry *x = &p->e[xi];
        const idx_vec *pv = &p->par[xi];
        size_t k;
        for (j = 0; j < pv->n; j++) {
            if (!p->rm[pv->v[2 * j]]) {
                unlink_child(p, pv->v[2 * j], pv->v[2 * j + 1]);
            }
        }
        for (k = 0; k < x->tx->vin_count; k++) {
            mempool_table_erase(&p->spent, hash_outpoint(p, &x->tx->vin[k].prevout), xi,
                                (uint32_t)k);
        }
        /* Which inputs are outside is not stored, only how many: try each
         * until all are gone (none to try for most entries). An input whose
         * parent txid has an outside record is one of them: that record and an
         * in-pool parent with that txid never coexist. */
        for (k = 0, j = x->n_outside; j > 0 && k < x->tx->vin_count; k++) {
            const unsigned char *pt = x->tx->vin[k].prevout.txid;
            j -= (uint32_t)outside_release(p, pt, hash_txid(p, pt));
        }
        mempool_table_erase(&p->txids, x->txid_hash, xi, 0);
        if (heap) {
            heap_delete(p, xi);
        }
        p->count--;
        p->total_size -= p->h[xi].size;
        p->total_fees -= p->h[xi].fee;
        p->usage -= x->usage;
        p->par[xi].n = 0;
        p->anc[xi].n = 0;
        p->chi[xi].n = 0;
        x->tx = NULL;
        x->next_free = p->free_head;
        p->free_head = xi;
    }
    /* Cleared only now: the unlink loop above tells members of S by it. */
    for (s = 0; s < sn; s++) {
        p->rm[p->work1[s]] = 0;
    }
    if (p->count == 0) {
        /* Hand slots out in index order again, so that refilling an emptied
         * pool in the same order puts every transaction in the slot whose
         * link arrays already fit it (no allocation), and entries sit in
         * memory in the order they were added. */
        for (s = 0; s < p->e_len; s++) {
            p->e[s].next_free = s + 1 < p->e_len ? s + 1 : NONE;
        }
        p->free_head = p->e_len > 0 ? 0 : NONE;
    }
    return sn;
}

int mempool_remove(mempool *p, const unsigned char txid[32], size_t *removed) {
    uint32_t i = find_txid(p, txid, hash_txid(p, txid));
    size_t n = 0;
    if (i != NONE) {
        n = remove_closure(p, i);
    }
    if (removed != NULL) {
        *removed = n;
    }
    return i == NONE ? MEMPOOL_ERR_NOT_FOUND : MEMPOOL_OK;
}

/* fees * 1000 / size rounded down (size > 0), at most INT64_MAX. */
static int64_t fee_rate_per_kvb(uint64_t fees, uint64_t size) {
    uint64_t q = fees / size, r = fees % size, rest;
    if (q > (uint64_t)INT64_MAX / 1000) {
        return INT64_MAX;
    }
    /* r < size; r * 1000 fits unless size passes 2^64 / 1000, which no sum of
     * 32-bit sizes in a pool that fits in memory reaches; scale down then. */
    rest = size <= UINT64_MAX / 1000 ? r * 1000 / size : r / (size / 1000);
    rest += q * 1000;
    return rest > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)rest;
}

/* Evicts packages, lowest descendant fee rate first, while *measure (the
 * pool's total size or usage, which each eviction lowers) exceeds limit. */
static size_t trim(mempool *p, const uint64_t *measure, uint64_t limit, mempool_evict_fn on_evict,
                   void *arg) {
    size_t n = 0;
    while (p->count > 0 && *measure > limit) {
        uint32_t root;
        int64_t rate;
        if (!p->heap_valid) {
            heap_build(p);
        }
        root = p->heap[0];
        rate = fee_rate_per_kvb(p->h[root].desc.fees, p->h[root].desc.size);
        rate = rate > INT64_MAX - MEMPOOL_INCREMENTAL_RELAY_FEE
                   ? INT64_MAX : rate + MEMPOOL_INCREMENTAL_RELAY_FEE;
        if (rate > p->min_fee_rate) {
            p->min_fee_rate = rate;
        }
        if (on_evict != NULL) {
            on_evict(arg, p, p->e[root].tx->txid);
        }
        n += remove_closure(p, root);
    }
    return n;
}

size_t mempool_trim(mempool *p, uint64_t limit, mempool_evict_fn on_evict, void *arg) {
    return trim(p, &p->total_size, limit, on_evict, arg);
}

size_t mempool_trim_to_usage(mempool *p, uint64_t limit, mempool_evict_fn on_evict, void *arg) {
    return trim(p, &p->usage, limit, on_evict, arg);
}

int64_t mempool_min_fee_rate(const mempool *p) {
    return p->min_fee_rate;
}

uint64_t mempool_dynamic_usage(const mempool *p) {
    return p->usage;
}

/* ---- queries ----------------------------------------------------------------- */

int mempool_exists(const mempool *p, const unsigned char txid[32]) {
    return find_txid(p, txid, hash_txid(p, txid)) != NONE;
}

int mempool_lookup(const mempool *p, const unsigned char txid[32], mempool_entry_info *info) {
    uint32_t i = find_txid(p, txid, hash_txid(p, txid));
    const entry *x;
    if (i == NONE) {
        return -1;
    }
    x = &p->e[i];
    /* Fee sums are at most total_fees <= INT64_MAX: the casts are exact. */
    info->tx = x->tx;
    info->fee = (int64_t)p->h[i].fee;
    info->size = p->h[i].size;
    info->ancestor_count = x->anc.count;
    info->ancestor_size = x->anc.size;
    info->ancestor_fees = (int64_t)x->anc.fees;
    info->descendant_count = p->h[i].desc.count;
    info->descendant_size = p->h[i].desc.size;
    info->descendant_fees = (int64_t)p->h[i].desc.fees;
    info->usage = x->usage;
    return 0;
}

const mempool_tx *mempool_spender(const mempool *p, const unsigned char txid[32],
                                  uint32_t n) {
    mempool_outpoint o;
    uint32_t i;
    memcpy(o.txid, txid, 32);
    o.n = n;
    i = find_spender(p, txid, n, hash_outpoint(p, &o));
    return i == NONE ? NULL : p->e[i].tx;
}

int mempool_descendants(mempool *p, const unsigned char txid[32], const mempool_tx **out,
                        size_t cap, size_t *count) {
    uint32_t root = find_txid(p, txid, hash_txid(p, txid)), qn = 1, i, j, ep;
    if (root == NONE) {
        *count = 0;
        return -1;
    }
    new_epoch(p);
    ep = p->epoch;
    p->mark[root] = ep;
    p->work1[0] = root;
    for (i = 0; i < qn; i++) {
        const idx_vec *v = &p->chi[p->work1[i]];
        for (j = 0; j < v->n; j++) {
            if (p->mark[v->v[j]] != ep) {
                p->mark[v->v[j]] = ep;
                p->work1[qn++] = v->v[j];
            }
        }
    }
    for (i = 1; i < qn && i - 1 < cap; i++) {
        out[i - 1] = p->e[p->work1[i]].tx;
    }
    *count = qn - 1;
    return 0;
}

int mempool_ancestors(mempool *p, const unsigned char txid[32], const mempool_tx **out,
                      size_t cap, size_t *count) {
    uint32_t x = find_txid(p, txid, hash_txid(p, txid)), i;
    if (x == NONE) {
        *count = 0;
        return -1;
    }
    for (i = 0; i < p->anc[x].n && i < cap; i++) {
        out[i] = p->e[p->anc[x].v[i]].tx;
    }
    *count = p->anc[x].n;
    return 0;
}

int mempool_parents(const mempool *p, const unsigned char txid[32], const mempool_tx **out,
                    size_t cap, size_t *count) {
    uint32_t x = find_txid(p, txid, hash_txid(p, txid)), i;
    if (x == NONE) {
        *count = 0;
        return -1;
    }
    for (i = 0; i < p->par[x].n && i < cap; i++) {
        out[i] = p->e[p->par[x].v[2 * i]].tx;
    }
    *count = p->par[x].n;
    return 0;
}

int mempool_children(const mempool *p, const unsigned char txid[32], const mempool_tx **out,
                     size_t cap, size_t *count) {
    uint32_t x = find_txid(p, txid, hash_txid(p, txid)), i;
    if (x == NONE) {
        *count = 0;
        return -1;
    }
    for (i = 0; i < p->chi[x].n && i < cap; i++) {
        out[i] = p->e[p->chi[x].v[i]].tx;
    }
    *count = p->chi[x].n;
    return 0;
}

size_t mempool_count(const mempool *p) {
    return p->count;
}

uint64_t mempool_total_size(const mempool *p) {
    return p->total_size;
}

size_t mempool_list(const mempool *p, const mempool_tx **out, size_t cap) {
    uint32_t i;
    size_t n = 0;
    for (i = 0; i < p->e_len; i++) {
        if (p->e[i].tx != NULL) {
            if (n < cap) {
                out[n] = p->e[i].tx;
            }
            n++;
        }
    }
    return n;
}
