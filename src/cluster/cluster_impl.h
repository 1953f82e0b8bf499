/* The set-width-specific half of the cluster module: bit sets of CW 64-bit words and the two
 * algorithms that live on them. cluster.c includes this file once per width with CW and
 * CL(name) (which appends the width to a name) defined, so that each width compiles to
 * straight-line set operations (one word: single instructions), as a C++ template would.
 *
 * Spanning-forest linearization (SFL), after Bitcoin Core's cluster_linearize.h. The state
 * is a set of "active" dependencies that forms a spanning forest of the graph (no cycle,
 * ignoring direction); each tree is a chunk. For every active dependency the state keeps its
 * top set: the part of its chunk on the parent's side. Merging two chunks activates one
 * dependency between them; splitting deactivates one. The algorithm
 *   1. merges chunks until no inactive dependency leads from a chunk to one of higher or
 *      equal fee rate (topological: the chunks sorted by fee rate are then a linearization);
 *   2. while some active dependency has a top of higher fee rate than its chunk, deactivates
 *      it and merges the two halves upwards (the top with the lowest-rate chunk it depends
 *      on) and downwards (the bottom with the highest-rate chunk depending on it) until
 *      topological again; each such step that does not merge the halves straight back
 *      raises the diagram, so this ends;
 *   3. splits equal-fee-rate chunks as far as they go (a pivot item pretended infinitesimally
 *      better, then worse);
 *   4. outputs the chunks by fee rate, each in a topological order.
 * When 2 ends, no chunk has a top subset of higher fee rate through which it could be split,
 * which is the optimality condition doc/cluster.md proves. The random choices (queue orders,
 * ties between candidates, which dependency to activate or split) use Core's generator in the
 * same order as Core, and the work is counted in Core's cost units. */

#define CL_N (CW * 64)

#if CW == 1
typedef uint8_t CL(sidx); /* a set index: chunks and active dependencies' tops */
#else
typedef uint16_t CL(sidx);
#endif
#define CL_NONE ((CL(sidx))-1)
#define CL_NOTX UINT32_MAX

typedef struct {
    uint64_t w[CW];
} CL(set);

static inline CL(set) CL(s_none)(void)
{
    CL(set) s;
    memset(&s, 0, sizeof(s));
    return s;
}

static inline CL(set) CL(s_fill)(unsigned n)
{
    CL(set) s;
    unsigned k;
    for (k = 0; k < CW; k++)
        s.w[k] = n >= 64 * (k + 1) ? UINT64_MAX
                 : n <= 64 * k     ? 0
                                   : UINT64_MAX >> (64 * (k + 1) - n);
    return s;
}

static inline CL(set) CL(s_one)(unsigned i)
{
    CL(set) s = CL(s_none)();
    s.w[i / 64] = (uint64_t)1 << (i % 64);
    return s;
}

static inline int CL(s_has)(const CL(set) *s, unsigned i)
{
    return (int)((s->w[i / 64] >> (i % 64)) & 1);
}

static inline void CL(s_add)(CL(set) *s, unsigned i)
{
    s->w[i / 64] |= (uint64_t)1 << (i % 64);
}

static inline void CL(s_del)(CL(set) *s, unsigned i)
{
    s->w[i / 64] &= ~((uint64_t)1 << (i % 64));
}

static inline void CL(s_or)(CL(set) *s, const CL(set) *a)
{
    unsigned k;
    for (k = 0; k < CW; k++)
        s->w[k] |= a->w[k];
}

static inline void CL(s_minus)(CL(set) *s, const CL(set) *a)
{
    unsigned k;
    for (k = 0; k < CW; k++)
        s->w[k] &= ~a->w[k];
}

static inline CL(set) CL(s_and)(const CL(set) *a, const CL(set) *b)
{
    CL(set) s;
    unsigned k;
    for (k = 0; k < CW; k++)
        s.w[k] = a->w[k] & b->w[k];
    return s;
}

static inline CL(set) CL(s_diff)(const CL(set) *a, const CL(set) *b)
{
    CL(set) s;
    unsigned k;
    for (k = 0; k < CW; k++)
        s.w[k] = a->w[k] & ~b->w[k];
    return s;
}

static inline int CL(s_any)(const CL(set) *s)
{
    uint64_t v = 0;
    unsigned k;
    for (k = 0; k < CW; k++)
        v |= s->w[k];
    return v != 0;
}

/* Without an early exit: for the widths here, and-or over every word is fewer instructions
 * and branches than stopping at the first overlap. */
static inline int CL(s_overlaps)(const CL(set) *a, const CL(set) *b)
{
    uint64_t v = 0;
    unsigned k;
    for (k = 0; k < CW; k++)
        v |= a->w[k] & b->w[k];
    return v != 0;
}

static inline unsigned CL(s_count)(const CL(set) *s)
{
    unsigned k, c = 0;
    for (k = 0; k < CW; k++)
        c += cl_popcount(s->w[k]);
    return c;
}

/* The lowest member; s must not be empty. */
static inline unsigned CL(s_first)(const CL(set) *s)
{
    unsigned k = 0;
    while (s->w[k] == 0)
        k++;
    return k * 64 + (unsigned)__builtin_ctzll(s->w[k]);
}

/* Iterates the members in ascending order. A word is read when the walk reaches it, so a
 * change to later words of the set during the walk is seen (as in Core's bit sets); one
 * word is read at the start. */
#if CW == 1
typedef struct {
    uint64_t v;
} CL(iter);

static inline CL(iter) CL(s_iter)(const CL(set) *s)
{
    CL(iter) it;
    it.v = s->w[0];
    return it;
}

static inline int CL(s_next)(CL(iter) *it, unsigned *out)
{
    if (it->v == 0)
        return 0;
    *out = (unsigned)__builtin_ctzll(it->v);
    it->v &= it->v - 1;
    return 1;
}
#else
typedef struct {
    const uint64_t *w;
    uint64_t v;
    unsigned k;
} CL(iter);

static inline CL(iter) CL(s_iter)(const CL(set) *s)
{
    CL(iter) it;
    it.w = s->w;
    it.v = s->w[0];
    it.k = 0;
    return it;
}

static inline int CL(s_next)(CL(iter) *it, unsigned *out)
{
    while (it->v == 0) {
        if (++it->k >= CW)
            return 0;
        it->v = it->w[it->k];
    }
    *out = it->k * 64 + (unsigned)__builtin_ctzll(it->v);
    it->v &= it->v - 1;
    return 1;
}
#endif

static inline const CL(set) *CL(anc)(const cluster_graph *g, unsigned i)
{
    return (const CL(set) *)(const void *)(g->anc + (size_t)i * CW);
}

static inline const CL(set) *CL(desc)(const cluster_graph *g, unsigned i)
{
    return (const CL(set) *)(const void *)(g->desc + (size_t)i * CW);
}

/* Core's GetReducedParents: the ancestors of i that are no other ancestor's ancestors. */
static CL(set) CL(reduced_parents)(const cluster_graph *g, unsigned i)
{
    CL(set) p = *CL(anc)(g, i);
    CL(iter) it;
    unsigned a;
    CL(s_del)(&p, i);
    it = CL(s_iter)(&p);
    while (CL(s_next)(&it, &a)) {
        if (CL(s_has)(&p, a)) {
            CL(s_minus)(&p, CL(anc)(g, a));
            CL(s_add)(&p, a);
        }
    }
    return p;
}

/* ---- spanning-forest state ------------------------------------------------------------- */

typedef struct {
    CL(set) parents, children, active_children;
    CL(sidx) chunk;              /* the chunk this item is in */
    CL(sidx) dep_top[CL_N];      /* per active child: the set index of that dependency's top */
} CL(txdata);

typedef struct {
    CL(set) tx;
    cluster_feefrac fr;
} CL(setinfo);

typedef struct {
    CL(sidx) chunk;
    uint16_t pivot;
    uint8_t flags;  /* 1: moving the pivot down; 2: the other direction was tried already */
} CL(nonmin);

typedef struct {
    const cluster_graph *g;
    cl_rng rng;
    uint64_t cost;
    unsigned n;
    CL(set) chunks;      /* set indices that are chunks (the others are active tops) */
    CL(set) inner;       /* items with an active child: the walks over a chunk's active
                          * dependencies skip the others */
    CL(set) queued;      /* set indices in the suboptimal queue */
    CL(txdata) *tx;
    CL(setinfo) *si;
    CL(set) *up, *down;  /* per chunk: items outside it that it depends on / that depend on it */
    CL(sidx) *q;         /* the suboptimal queue: a ring of qmask + 1 */
    CL(nonmin) *mq;      /* the non-minimal queue, a ring of the same size */
    unsigned qmask, qhead, qlen, mhead, mlen;
} CL(sfl);

static inline void CL(fr_add)(cluster_feefrac *a, cluster_feefrac b)
{
    a->fee += b.fee;
    a->size += b.size;
}

static inline void CL(fr_sub)(cluster_feefrac *a, cluster_feefrac b)
{
    a->fee -= b.fee;
    a->size -= b.size;
}

static inline void CL(si_or)(CL(setinfo) *a, const CL(setinfo) *b)
{
    CL(s_or)(&a->tx, &b->tx);
    CL(fr_add)(&a->fr, b->fr);
}

static inline void CL(si_minus)(CL(setinfo) *a, const CL(setinfo) *b)
{
    CL(s_minus)(&a->tx, &b->tx);
    CL(fr_sub)(&a->fr, b->fr);
}

/* a |= b when item i is in a, else nothing: without a branch, as whether a top holds the
 * item at hand is a coin toss that the predictor loses about a third of the time. */
static inline void CL(si_or_if)(CL(setinfo) *a, const CL(setinfo) *b, unsigned i)
{
    unsigned bit = (unsigned)((a->tx.w[i / 64] >> (i % 64)) & 1), k;
    uint64_t m = (uint64_t)0 - bit;
    for (k = 0; k < CW; k++)
        a->tx.w[k] |= b->tx.w[k] & m;
    a->fr.fee += b->fr.fee & -(int64_t)bit;
    a->fr.size += b->fr.size & -(int32_t)bit;
}

/* a -= b when item i is in a, else nothing (as CL(si_or_if)). */
static inline void CL(si_minus_if)(CL(setinfo) *a, const CL(setinfo) *b, unsigned i)
{
    unsigned bit = (unsigned)((a->tx.w[i / 64] >> (i % 64)) & 1), k;
    uint64_t m = (uint64_t)0 - bit;
    for (k = 0; k < CW; k++)
        a->tx.w[k] &= ~(b->tx.w[k] & m);
    a->fr.fee -= b->fr.fee & -(int64_t)bit;
    a->fr.size -= b->fr.size & -(int32_t)bit;
}

static inline CL(sidx) *CL(q_at)(CL(sfl) *s, unsigned i)
{
    return &s->q[(s->qhead + i) & s->qmask];
}

static inline void CL(q_push)(CL(sfl) *s, CL(sidx) c)
{
    *CL(q_at)(s, s->qlen++) = c;
}

static inline CL(nonmin) *CL(mq_at)(CL(sfl) *s, unsigned i)
{
    return &s->mq[(s->mhead + i) & s->qmask];
}

static inline void CL(mq_push)(CL(sfl) *s, CL(sidx) c, unsigned pivot, unsigned flags)
{
    CL(nonmin) *m = CL(mq_at)(s, s->mlen++);
    m->chunk = c;
    m->pivot = (uint16_t)pivot;
    m->flags = (uint8_t)flags;
}

/* Queues chunk c for improvement unless it is queued already. */
static inline void CL(enqueue)(CL(sfl) *s, CL(sidx) c)
{
    if (!CL(s_has)(&s->queued, c)) {
        CL(s_add)(&s->queued, c);
        CL(q_push)(s, c);
    }
}

/* A uniformly random member of the non-empty set t. */
static unsigned CL(random_tx)(CL(sfl) *s, const CL(set) *t)
{
    unsigned pos = (unsigned)cl_rng_range(&s->rng, CL(s_count)(t)), i;
    CL(iter) it = CL(s_iter)(t);
    while (CL(s_next)(&it, &i)) {
        if (pos-- == 0)
            return i;
    }
    return CL_NOTX;
}

/* Activates the dependency parent -> child between two chunks; the parent's chunk's set
 * becomes the dependency's top, the child's grows into the merged chunk (returned). Every
 * top in the parent's chunk that holds the parent gains the child's chunk, and every top in
 * the child's chunk that holds the child gains the parent's. */
static CL(sidx) CL(activate)(CL(sfl) *s, unsigned parent, unsigned child)
{
    CL(sidx) pc = s->tx[parent].chunk, cc = s->tx[child].chunk;
    CL(setinfo) *top = &s->si[pc], *bottom = &s->si[cc];
    CL(set) with = CL(s_and)(&top->tx, &s->inner);
    CL(iter) it = CL(s_iter)(&top->tx);
    unsigned t, d;
    while (CL(s_next)(&it, &t))
        s->tx[t].chunk = cc;
    it = CL(s_iter)(&with);
    while (CL(s_next)(&it, &t)) {
        CL(txdata) *x = &s->tx[t];
        CL(iter) dj = CL(s_iter)(&x->active_children);
        while (CL(s_next)(&dj, &d)) {
            CL(setinfo) *dt = &s->si[x->dep_top[d]];
            CL(si_or_if)(dt, bottom, parent);
        }
    }
    with = CL(s_and)(&bottom->tx, &s->inner);
    it = CL(s_iter)(&with);
    while (CL(s_next)(&it, &t)) {
        CL(txdata) *x = &s->tx[t];
        CL(iter) dj = CL(s_iter)(&x->active_children);
        while (CL(s_next)(&dj, &d)) {
            CL(setinfo) *dt = &s->si[x->dep_top[d]];
            CL(si_or_if)(dt, top, child);
        }
    }
    CL(si_or)(bottom, top);
    CL(s_or)(&s->up[cc], &s->up[pc]);
    CL(s_or)(&s->down[cc], &s->down[pc]);
    CL(s_minus)(&s->up[cc], &bottom->tx);
    CL(s_minus)(&s->down[cc], &bottom->tx);
    s->tx[parent].dep_top[child] = pc;
    CL(s_add)(&s->tx[parent].active_children, child);
    CL(s_add)(&s->inner, parent);
    CL(s_del)(&s->chunks, pc);
    s->cost += 10 * (uint64_t)(CL(s_count)(&bottom->tx) - 1) + 1;
    return cc;
}

/* For each active dependency of the items of `items` (those with an active child), takes
 * `gone` out of its top set where that top holds item i (CL(si_minus_if)). */
static inline void CL(tops_minus_if)(CL(sfl) *s, const CL(set) *items, const CL(setinfo) *gone,
                                     unsigned i)
{
    CL(set) with = CL(s_and)(items, &s->inner);
    CL(iter) it = CL(s_iter)(&with);
    unsigned t, d;
    while (CL(s_next)(&it, &t)) {
        CL(txdata) *x = &s->tx[t];
        CL(iter) dj = CL(s_iter)(&x->active_children);
        while (CL(s_next)(&dj, &d))
            CL(si_minus_if)(&s->si[x->dep_top[d]], gone, i);
    }
}

/* Deactivates the active dependency parent -> child, splitting its chunk into the top (which
 * keeps the top's set index, *top_out) and the rest (the chunk's index, *bottom_out). */
static void CL(deactivate)(CL(sfl) *s, unsigned parent, unsigned child, CL(sidx) *top_out,
                           CL(sidx) *bottom_out)
{
    CL(txdata) *px = &s->tx[parent];
    CL(sidx) pc = px->dep_top[child], cc = px->chunk;
    CL(setinfo) *top = &s->si[pc], *bottom = &s->si[cc];
    CL(set) tp = CL(s_none)(), tc = CL(s_none)(), bp = CL(s_none)(), bc = CL(s_none)();
    unsigned ntx, t;
    CL(iter) it;
    CL(s_del)(&px->active_children, child);
    if (!CL(s_any)(&px->active_children))
        CL(s_del)(&s->inner, parent);
    CL(s_add)(&s->chunks, pc);
    ntx = CL(s_count)(&bottom->tx);
    CL(si_minus)(bottom, top);
    it = CL(s_iter)(&top->tx);
    while (CL(s_next)(&it, &t)) {
        CL(txdata) *x = &s->tx[t];
        x->chunk = pc;
        CL(s_or)(&tp, &x->parents);
        CL(s_or)(&tc, &x->children);
    }
    CL(tops_minus_if)(s, &top->tx, bottom, parent);
    it = CL(s_iter)(&bottom->tx);
    while (CL(s_next)(&it, &t)) {
        CL(txdata) *x = &s->tx[t];
        CL(s_or)(&bp, &x->parents);
        CL(s_or)(&bc, &x->children);
    }
    CL(tops_minus_if)(s, &bottom->tx, top, child);
    s->up[pc] = CL(s_diff)(&tp, &top->tx);
    s->down[pc] = CL(s_diff)(&tc, &top->tx);
    s->up[cc] = CL(s_diff)(&bp, &bottom->tx);
    s->down[cc] = CL(s_diff)(&bc, &bottom->tx);
    s->cost += 11 * (uint64_t)(ntx - 1) + 8;
    *top_out = pc;
    *bottom_out = cc;
}

/* Activates a uniformly random dependency from chunk bottom to chunk top (one must exist);
 * returns the merged chunk. */
static CL(sidx) CL(merge)(CL(sfl) *s, CL(sidx) top, CL(sidx) bottom)
{
    const CL(set) *tt = &s->si[top].tx, *bt = &s->si[bottom].tx;
    /* The items of the top with a child in the bottom are the top's part of what the bottom
     * depends on: only those are visited (Core walks the whole top, in the same order, and
     * counts its steps; the cost below counts them the same way). */
    CL(set) from = CL(s_and)(tt, &s->up[bottom]), upto;
    CL(sidx) counts[CL_N];
    unsigned num = 0, pick, t, c;
    CL(iter) it = CL(s_iter)(&from);
    while (CL(s_next)(&it, &t)) {
        CL(set) x = CL(s_and)(&s->tx[t].children, bt);
        unsigned k = CL(s_count)(&x);
        counts[t] = (CL(sidx))k;
        num += k;
    }
    s->cost += 2 * (uint64_t)CL(s_count)(tt);
    pick = (unsigned)cl_rng_range(&s->rng, num);
    it = CL(s_iter)(&from);
    while (CL(s_next)(&it, &t)) {
        if (pick < counts[t]) {
            CL(set) x = CL(s_and)(&s->tx[t].children, bt);
            CL(iter) cj = CL(s_iter)(&x);
            while (CL(s_next)(&cj, &c)) {
                if (pick-- == 0) {
                    /* Core's steps: the top's items up to and including t. */
                    upto = CL(s_fill)(t + 1);
                    upto = CL(s_and)(tt, &upto);
                    s->cost += 3 * (uint64_t)CL(s_count)(&upto) + 5;
                    return CL(activate)(s, t, c);
                }
            }
            return CL_NONE;
        }
        pick -= counts[t];
    }
    return CL_NONE;
}

/* The chunk to merge chunk c with: downwards, the highest-fee-rate chunk that depends on c
 * among those of at least c's rate; upwards, the lowest-rate one c depends on among those of
 * at most c's rate; ties at random. CL_NONE when there is none. */
static CL(sidx) CL(merge_candidate)(CL(sfl) *s, CL(sidx) c, int down)
{
    cluster_feefrac best_fr = s->si[c].fr;
    CL(sidx) best = CL_NONE;
    uint64_t best_tb = 0;
    CL(set) todo = down ? s->down[c] : s->up[c];
    unsigned steps = 0;
    while (CL(s_any)(&todo)) {
        CL(sidx) rc = s->tx[CL(s_first)(&todo)].chunk;
        const CL(setinfo) *r = &s->si[rc];
        cluster_feefrac lo, hi; /* the candidate needs lo <= hi, and wins outright at < */
        uint64_t tb;
        steps++;
        CL(s_minus)(&todo, &r->tx);
        lo = down ? best_fr : r->fr;
        hi = down ? r->fr : best_fr;
        if (cl_gt(lo, hi))
            continue;
        tb = cl_rng_64(&s->rng);
        if (cl_lt(lo, hi) || tb >= best_tb) {
            best_fr = r->fr;
            best = rc;
            best_tb = tb;
        }
    }
    s->cost += 8 * (uint64_t)steps;
    return best;
}

/* One merge of chunk c in the given direction: the merged chunk, or CL_NONE. */
static CL(sidx) CL(merge_step)(CL(sfl) *s, CL(sidx) c, int down)
{
    CL(sidx) m = CL(merge_candidate)(s, c, down);
    if (m == CL_NONE)
        return CL_NONE;
    return down ? CL(merge)(s, c, m) : CL(merge)(s, m, c);
}

/* Merges c in one direction for as long as it goes, then queues the result. */
static void CL(merge_sequence)(CL(sfl) *s, CL(sidx) c, int down)
{
    for (;;) {
        CL(sidx) m = CL(merge_step)(s, c, down);
        if (m == CL_NONE)
            break;
        c = m;
    }
    CL(enqueue)(s, c);
}

/* Splits at parent -> child, then restores topology: a dependency from the new bottom to
 * the new top merges them straight back (a self-merge, which changes nothing); otherwise
 * the top merges upwards and the bottom downwards. */
static void CL(improve)(CL(sfl) *s, unsigned parent, unsigned child)
{
    CL(sidx) pc, cc;
    CL(deactivate)(s, parent, child, &pc, &cc);
    if (CL(s_overlaps)(&s->up[pc], &s->si[cc].tx)) {
        CL(enqueue)(s, CL(merge)(s, cc, pc));
    } else {
        CL(merge_sequence)(s, pc, 0);
        CL(merge_sequence)(s, cc, 1);
    }
}

/* Every item its own chunk; the reduced parents and children of each. */
static void CL(init)(CL(sfl) *s, const cluster_graph *g, uint64_t seed)
{
    unsigned n = g->n, i, deps = 0, p;
    s->g = g;
    cl_rng_seed(&s->rng, seed);
    s->cost = 0;
    s->n = n;
    for (i = 0; i < n; i++) {
        s->tx[i].children = CL(s_none)();
        s->tx[i].active_children = CL(s_none)();
    }
    for (i = 0; i < n; i++) {
        CL(txdata) *x = &s->tx[i];
        CL(iter) it;
        x->parents = CL(reduced_parents)(g, i);
        it = CL(s_iter)(&x->parents);
        while (CL(s_next)(&it, &p))
            CL(s_add)(&s->tx[p].children, i);
        deps += CL(s_count)(&x->parents);
        x->chunk = (CL(sidx))i;
        s->si[i].tx = CL(s_one)(i);
        s->si[i].fr = g->fr[i];
    }
    for (i = 0; i < n; i++) {
        s->up[i] = s->tx[i].parents;
        s->down[i] = s->tx[i].children;
    }
    s->chunks = CL(s_fill)(n);
    s->queued = CL(s_none)();
    s->inner = CL(s_none)();
    s->qhead = s->qlen = s->mhead = s->mlen = 0;
    s->cost += 39 * (uint64_t)n + 48 * (uint64_t)n + 4 * (uint64_t)deps;
}

/* Core's LoadLinearization: each item in the order given merged upwards while it can. */
static void CL(load)(CL(sfl) *s, const unsigned *lin)
{
    unsigned i;
    for (i = 0; i < s->n; i++) {
        CL(sidx) c = s->tx[lin[i]].chunk;
        while ((c = CL(merge_step)(s, c, 0)) != CL_NONE) {
        }
    }
}

/* Queues every chunk in a random order (each appended, then swapped with a random place). */
static void CL(queue_all)(CL(sfl) *s)
{
    CL(iter) it = CL(s_iter)(&s->chunks);
    unsigned c;
    s->queued = s->chunks;
    while (CL(s_next)(&it, &c)) {
        unsigned j;
        CL(q_push)(s, (CL(sidx))c);
        j = (CL(sidx))cl_rng_range(&s->rng, (CL(sidx))s->qlen);
        if (j != s->qlen - 1) {
            CL(sidx) tmp = *CL(q_at)(s, s->qlen - 1);
            *CL(q_at)(s, s->qlen - 1) = *CL(q_at)(s, j);
            *CL(q_at)(s, j) = tmp;
        }
    }
}

static CL(sidx) CL(q_pop)(CL(sfl) *s)
{
    CL(sidx) c = s->q[s->qhead];
    s->qhead = (s->qhead + 1) & s->qmask;
    s->qlen--;
    CL(s_del)(&s->queued, c);
    return c;
}

/* Core's MakeTopological: every chunk, in random order, tries to merge in one random first
 * direction (both for chunks that are the result of a merge) until no merge is possible. */
static void CL(make_topological)(CL(sfl) *s)
{
    unsigned init_dir = cl_rng_bool(&s->rng), nchunks, steps = 0;
    CL(set) merged = CL(s_none)();
    CL(queue_all)(s);
    nchunks = CL(s_count)(&s->chunks);
    while (s->qlen > 0) {
        CL(sidx) c = CL(q_pop)(s);
        unsigned dir, flip, i;
        steps++;
        if (!CL(s_has)(&s->chunks, c))
            continue;
        dir = CL(s_has)(&merged, c) ? 3 : init_dir + 1;
        flip = cl_rng_bool(&s->rng);
        for (i = 0; i < 2; i++) {
            int down = !(i ^ flip);
            CL(sidx) r;
            if (!(dir & (down ? 2u : 1u)))
                continue;
            r = CL(merge_step)(s, c, down);
            if (r != CL_NONE) {
                CL(enqueue)(s, r);
                CL(s_add)(&merged, r);
                break;
            }
        }
    }
    s->cost += 20 * (uint64_t)nchunks + 28 * (uint64_t)steps;
}

static void CL(start_optimizing)(CL(sfl) *s)
{
    CL(queue_all)(s);
    s->cost += 13 * (uint64_t)s->qlen;
}

/* The next queued chunk that still is one, or CL_NONE. */
static CL(sidx) CL(next_chunk)(CL(sfl) *s)
{
    unsigned steps = 0;
    while (s->qlen > 0) {
        CL(sidx) c = CL(q_pop)(s);
        steps++;
        if (CL(s_has)(&s->chunks, c)) {
            s->cost += steps + 4;
            return c;
        }
    }
    s->cost += steps + 4;
    return CL_NONE;
}

/* One improvement: 0 when the state is optimal. */
static int CL(optimize_step)(CL(sfl) *s)
{
    CL(sidx) c = CL(next_chunk)(s);
    const CL(setinfo) *ch;
    unsigned cand_p = CL_NOTX, cand_c = 0, t, d, nq = 0, k;
    uint32_t qual[CL_N]; /* the qualifying dependencies in walk order, as t * CL_N + d */
    uint64_t cand_tb = 0;
    CL(set) with;
    CL(iter) it;
    if (c == CL_NONE)
        return 0;
    /* A random active dependency of c whose top has a higher fee rate than c. Whether a
     * dependency qualifies is close to a coin toss, so the walk appends each one to the list
     * and counts it only when it does (no branch); the draws then go to the list in the
     * walk's order, as Core draws them. */
    ch = &s->si[c];
    with = CL(s_and)(&ch->tx, &s->inner);
    it = CL(s_iter)(&with);
    while (CL(s_next)(&it, &t)) {
        const CL(txdata) *x = &s->tx[t];
        CL(iter) dj = CL(s_iter)(&x->active_children);
        while (CL(s_next)(&dj, &d)) {
            qual[nq] = (uint32_t)(t * CL_N + d);
            nq += (unsigned)cl_gt(s->si[x->dep_top[d]].fr, ch->fr);
        }
    }
    for (k = 0; k < nq; k++) {
        uint64_t tb = cl_rng_64(&s->rng);
        if (tb < cand_tb)
            continue;
        cand_p = qual[k] / CL_N;
        cand_c = qual[k] % CL_N;
        cand_tb = tb;
    }
    s->cost += 8 * (uint64_t)CL(s_count)(&ch->tx) + 9;
    if (cand_p == CL_NOTX)
        return s->qlen > 0;
    CL(improve)(s, cand_p, cand_c);
    return 1;
}

static void CL(start_minimizing)(CL(sfl) *s)
{
    CL(iter) it = CL(s_iter)(&s->chunks);
    unsigned c;
    s->mhead = s->mlen = 0;
    while (CL(s_next)(&it, &c)) {
        unsigned pivot = CL(random_tx)(s, &s->si[c].tx), j;
        CL(mq_push)(s, (CL(sidx))c, pivot, (unsigned)cl_rng_bits(&s->rng, 1));
        j = (CL(sidx))cl_rng_range(&s->rng, (CL(sidx))s->mlen);
        if (j != s->mlen - 1) {
            CL(nonmin) tmp = *CL(mq_at)(s, s->mlen - 1);
            *CL(mq_at)(s, s->mlen - 1) = *CL(mq_at)(s, j);
            *CL(mq_at)(s, j) = tmp;
        }
    }
    s->cost += 18 * (uint64_t)s->mlen;
}

/* One attempt to split a chunk into equal-fee-rate parts: 0 when every chunk is minimal. A
 * split must put the pivot in the top part or in the bottom part; an equal-rate dependency
 * with the pivot on the wanted side is deactivated, and the halves merge back when the
 * bottom depends on the top. */
static int CL(minimize_step)(CL(sfl) *s)
{
    CL(nonmin) e;
    const CL(setinfo) *ch;
    unsigned cand_p = 0, cand_c = 0, t, d, down, second, have_any = 0;
    uint64_t cand_tb = 0;
    CL(sidx) pc, cc;
    CL(set) with;
    CL(iter) it;
    if (s->mlen == 0)
        return 0;
    e = s->mq[s->mhead];
    s->mhead = (s->mhead + 1) & s->qmask;
    s->mlen--;
    ch = &s->si[e.chunk];
    with = CL(s_and)(&ch->tx, &s->inner);
    down = e.flags & 1;
    second = e.flags & 2;
    it = CL(s_iter)(&with);
    while (CL(s_next)(&it, &t)) {
        const CL(txdata) *x = &s->tx[t];
        CL(iter) dj = CL(s_iter)(&x->active_children);
        while (CL(s_next)(&dj, &d)) {
            const CL(setinfo) *dt = &s->si[x->dep_top[d]];
            uint64_t tb;
            if (cl_lt(dt->fr, ch->fr))
                continue;
            have_any = 1;
            if (down == (unsigned)CL(s_has)(&dt->tx, e.pivot))
                continue;
            tb = cl_rng_64(&s->rng) | 1;
            if (tb > cand_tb) {
                cand_tb = tb;
                cand_p = t;
                cand_c = d;
            }
        }
    }
    s->cost += 11 * (uint64_t)CL(s_count)(&ch->tx) + 11;
    if (!have_any)
        return 1;
    if (cand_tb == 0) {
        if (!second)
            CL(mq_push)(s, e.chunk, e.pivot, e.flags ^ 3u);
        return 1;
    }
    CL(deactivate)(s, cand_p, cand_c, &pc, &cc);
    if (CL(s_overlaps)(&s->up[pc], &s->si[cc].tx)) {
        CL(mq_push)(s, CL(merge)(s, cc, pc), e.pivot, e.flags);
        s->cost += 7;
    } else {
        if (down) {
            unsigned pp = CL(random_tx)(s, &s->si[pc].tx);
            CL(mq_push)(s, pc, pp, (unsigned)cl_rng_bits(&s->rng, 1));
            CL(mq_push)(s, cc, e.pivot, e.flags);
        } else {
            unsigned cp = CL(random_tx)(s, &s->si[cc].tx);
            CL(mq_push)(s, pc, e.pivot, e.flags);
            CL(mq_push)(s, cc, cp, (unsigned)cl_rng_bits(&s->rng, 1));
        }
        if (cl_rng_bool(&s->rng)) {
            CL(nonmin) tmp = *CL(mq_at)(s, s->mlen - 1);
            *CL(mq_at)(s, s->mlen - 1) = *CL(mq_at)(s, s->mlen - 2);
            *CL(mq_at)(s, s->mlen - 2) = tmp;
        }
        s->cost += 17 + 7;
    }
    return 1;
}

/* ---- output ------------------------------------------------------------------------------ */

/* 1 when a goes after b: for items (chunks == 0) within a chunk, lower fee rate, then larger
 * size, then higher index; for chunks, lower fee rate, larger size, higher last item
 * (last[c]). */
static inline int CL(after)(const CL(sfl) *s, const uint16_t *last, int chunks, uint32_t a,
                            uint32_t b)
{
    const cluster_feefrac *fa = chunks ? &s->si[a].fr : &s->g->fr[a];
    const cluster_feefrac *fb = chunks ? &s->si[b].fr : &s->g->fr[b];
    if (cl_lt(*fa, *fb))
        return 1;
    if (cl_gt(*fa, *fb))
        return 0;
    if (fa->size != fb->size)
        return fa->size > fb->size;
    return chunks ? last[a] > last[b] : a > b;
}

/* A binary max-heap of items or chunks (the root is what comes first). */
static inline void CL(heap_push)(const CL(sfl) *s, const uint16_t *last, int chunks,
                                 uint32_t *h, unsigned *n, uint32_t v)
{
    unsigned i = (*n)++;
    while (i > 0) {
        unsigned up = (i - 1) / 2;
        if (!CL(after)(s, last, chunks, h[up], v))
            break;
        h[i] = h[up];
        i = up;
    }
    h[i] = v;
}

static inline uint32_t CL(heap_pop)(const CL(sfl) *s, const uint16_t *last, int chunks,
                                    uint32_t *h, unsigned *n)
{
    uint32_t top = h[0], v = h[--*n];
    unsigned i = 0, m = *n;
    for (;;) {
        unsigned c = 2 * i + 1;
        if (c >= m)
            break;
        if (c + 1 < m && CL(after)(s, last, chunks, h[c], h[c + 1]))
            c++;
        if (!CL(after)(s, last, chunks, v, h[c]))
            break;
        h[i] = h[c];
        i = c;
    }
    if (m > 0)
        h[i] = v;
    return top;
}

/* Chunk c's highest item index. */
static uint16_t CL(last_tx)(const CL(sfl) *s, unsigned c)
{
    unsigned k = CW;
    const CL(set) *t = &s->si[c].tx;
    while (t->w[k - 1] == 0)
        k--;
    return (uint16_t)((k - 1) * 64 + 63 - (unsigned)__builtin_clzll(t->w[k - 1]));
}

/* Core's GetLinearization: ready chunks best first, and within each its ready items best
 * first (both orders total, so the result does not depend on how the heaps break ties). */
static void CL(output)(CL(sfl) *s, unsigned *out)
{
    uint32_t rc[CL_N], chunk_deps[CL_N], tx_deps[CL_N], rt[CL_N];
    uint16_t last[CL_N];
    unsigned nrc = 0, nrt, done = 0, i, c;
    CL(iter) it;
    memset(chunk_deps, 0, sizeof(chunk_deps));
    for (i = 0; i < s->n; i++) {
        const CL(txdata) *x = &s->tx[i];
        CL(set) outside = CL(s_diff)(&x->parents, &s->si[x->chunk].tx);
        tx_deps[i] = CL(s_count)(&x->parents);
        chunk_deps[x->chunk] += CL(s_count)(&outside);
    }
    it = CL(s_iter)(&s->chunks);
    while (CL(s_next)(&it, &c)) {
        last[c] = CL(last_tx)(s, c);
        if (chunk_deps[c] == 0)
            CL(heap_push)(s, last, 1, rc, &nrc, c);
    }
    while (nrc > 0) {
        uint32_t r = CL(heap_pop)(s, last, 1, rc, &nrc);
        const CL(set) *ct = &s->si[r].tx;
        unsigned t;
        nrt = 0;
        it = CL(s_iter)(ct);
        while (CL(s_next)(&it, &t)) {
            if (tx_deps[t] == 0)
                CL(heap_push)(s, last, 0, rt, &nrt, t);
        }
        while (nrt > 0) {
            uint32_t x = CL(heap_pop)(s, last, 0, rt, &nrt);
            CL(iter) cj = CL(s_iter)(&s->tx[x].children);
            unsigned ch;
            out[done++] = x;
            while (CL(s_next)(&cj, &ch)) {
                CL(sidx) cc = s->tx[ch].chunk;
                if (--tx_deps[ch] == 0 && CL(s_has)(ct, ch))
                    CL(heap_push)(s, last, 0, rt, &nrt, ch);
                if (cc != r && --chunk_deps[cc] == 0)
                    CL(heap_push)(s, last, 1, rc, &nrc, cc);
            }
        }
    }
}

static int CL(linearize)(const cluster_graph *g, uint64_t max_cost, uint64_t seed,
                         const unsigned *old, unsigned *out, cluster_linearize_info *info)
{
    CL(sfl) s;
    unsigned n = g->n, qcap = 1;
    int optimal = 0;
#if CW == 1
    /* Up to 64 items the state (about 10 KB) lives on the stack: no allocation at all. */
    CL(txdata) tx[CL_N];
    CL(setinfo) si[CL_N];
    CL(set) up[CL_N], down[CL_N];
    CL(nonmin) mq[2 * CL_N];
    CL(sidx) q[2 * CL_N];
    void *mem = NULL;
    while (qcap < n + 2)
        qcap *= 2;
    s.tx = tx;
    s.si = si;
    s.up = up;
    s.down = down;
    s.mq = mq;
    s.q = q;
#else
    size_t off[6], total = 0;
    unsigned char *mem;
    while (qcap < n + 2)
        qcap *= 2;
    /* One block: items, sets, reachable sets, the two queues. */
    off[0] = total, total += (size_t)n * sizeof(CL(txdata));
    off[1] = total, total += (size_t)n * sizeof(CL(setinfo));
    off[2] = total, total += (size_t)n * sizeof(CL(set));
    off[3] = total, total += (size_t)n * sizeof(CL(set));
    off[4] = total, total += (size_t)qcap * sizeof(CL(nonmin));
    off[5] = total, total += (size_t)qcap * sizeof(CL(sidx));
    if ((mem = bb_malloc(total)) == NULL)
        return -1;
    s.tx = (CL(txdata) *)(void *)(mem + off[0]);
    s.si = (CL(setinfo) *)(void *)(mem + off[1]);
    s.up = (CL(set) *)(void *)(mem + off[2]);
    s.down = (CL(set) *)(void *)(mem + off[3]);
    s.mq = (CL(nonmin) *)(void *)(mem + off[4]);
    s.q = (CL(sidx) *)(void *)(mem + off[5]);
#endif
    s.qmask = qcap - 1;
    CL(init)(&s, g, seed);
    if (old != NULL) {
        CL(load)(&s, old);
    } else {
        CL(make_topological)(&s);
    }
    if (s.cost < max_cost) {
        CL(start_optimizing)(&s);
        do {
            if (!CL(optimize_step)(&s))
                break;
        } while (s.cost < max_cost);
    }
    if (s.cost < max_cost) {
        CL(start_minimizing)(&s);
        do {
            if (!CL(minimize_step)(&s)) {
                optimal = 1;
                break;
            }
        } while (s.cost < max_cost);
    }
    CL(output)(&s, out);
    if (info != NULL) {
        info->optimal = optimal;
        info->cost = s.cost;
    }
    bb_free(mem);
    return 0;
}

/* ---- PostLinearize ----------------------------------------------------------------------- */

/* A group of consecutive items during a pass; only the last item's entry (the tail) holds
 * the group's fields. Entry 0 is a sentinel that starts the circular list of groups; item i
 * is entry i + 1. The links are byte offsets of entries in the array, not indices: a swap
 * follows prev_group from entry to entry, and an offset is an address with no multiply in
 * between. */
typedef struct {
    uint32_t prev_tx;     /* the item before in its group (an entry's offset), 0: none */
    uint32_t first_tx;    /* tail only: the group's first item */
    uint32_t prev_group;  /* tail only: the previous group's tail (the sentinel: the last's) */
    CL(set) group;        /* tail only: the group's items */
    CL(set) deps;         /* tail only: their ancestors (forward pass) / descendants */
    cluster_feefrac fr;   /* tail only: their fee and size, the fee negated in backward passes */
} CL(pl_entry);

#define CL_PL(o) ((CL(pl_entry) *)(void *)((unsigned char *)e + (o)))
#define CL_PL_SZ ((uint32_t)sizeof(CL(pl_entry)))

/* Two passes, backward then forward. Each takes the items one by one and appends each as a
 * new group; while the group before has a lower fee rate, the two merge when the new one
 * depends on it, else they swap. A backward pass is a forward pass on the reversed order
 * with parents and children and the sign of fees exchanged. */
static int CL(postlinearize)(const cluster_graph *g, unsigned *lin)
{
    unsigned n = g->n, pass, i;
#if CW <= 2
    CL(pl_entry) e[CL_N + 1];
#else
    CL(pl_entry) *e = bb_malloc((size_t)(n + 1) * sizeof(CL(pl_entry)));
    if (e == NULL)
        return -1;
#endif
    for (pass = 0; pass < 2; pass++) {
        int rev = !(pass & 1);
        uint32_t cur, done = 0;
        e[0].prev_group = 0;
        e[0].fr.fee = 0;
        e[0].fr.size = 0;
        for (i = 0; i < n; i++) {
            unsigned idx = lin[rev ? n - 1 - i : i];
            uint32_t next = 0, prev = e[0].prev_group, first;
            /* The new group's fields live in locals while it moves (the stores to other
             * groups would otherwise make the compiler reload them every step). */
            CL(set) group = CL(s_one)(idx), deps = rev ? *CL(desc)(g, idx) : *CL(anc)(g, idx);
            cluster_feefrac fr = g->fr[idx];
            cur = (idx + 1) * CL_PL_SZ;
            first = cur;
            if (rev)
                fr.fee = -fr.fee;
            CL_PL(cur)->prev_tx = 0;
            e[0].prev_group = cur;
            while (cl_gt(fr, CL_PL(prev)->fr)) {
                CL(pl_entry) *pe = CL_PL(prev);
                if (CL(s_overlaps)(&deps, &pe->group)) {
                    CL(s_or)(&group, &pe->group);
                    CL(s_or)(&deps, &pe->deps);
                    CL(fr_add)(&fr, pe->fr);
                    CL_PL(first)->prev_tx = prev;
                    first = pe->first_tx;
                    prev = pe->prev_group;
                } else {
                    uint32_t pp = pe->prev_group;
                    CL_PL(next)->prev_group = prev;
                    pe->prev_group = cur;
                    next = prev;
                    prev = pp;
                }
            }
            CL_PL(cur)->group = group;
            CL_PL(cur)->deps = deps;
            CL_PL(cur)->fr = fr;
            CL_PL(cur)->first_tx = first;
            CL_PL(cur)->prev_group = prev;
        }
        /* Write the groups back, last group first; each group's items from its tail. */
        for (cur = e[0].prev_group; cur != 0; cur = CL_PL(cur)->prev_group) {
            uint32_t t = cur;
            do {
                if (rev)
                    lin[done++] = t / CL_PL_SZ - 1;
                else
                    lin[n - ++done] = t / CL_PL_SZ - 1;
                t = CL_PL(t)->prev_tx;
            } while (t != 0);
        }
    }
#if CW > 2
    bb_free(e);
#endif
    return 0;
}

#undef CL_PL
#undef CL_PL_SZ
#undef CL_N
#undef CL_NONE
#undef CL_NOTX
