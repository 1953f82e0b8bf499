#include "cluster_ref.h"

#include <stdlib.h>
#include <string.h>

__extension__ typedef __int128 i128;

/* ---- maximum flow (Dinic) on a small graph ---------------------------------------------- */

typedef struct {
    unsigned to, next;
    i128 cap;
} ref_edge;

typedef struct {
    ref_edge *e;
    unsigned ne, nv, *head, *level, *it, *queue;
} ref_flow;

static void flow_init(ref_flow *f, unsigned nv, unsigned max_edges)
{
    unsigned i;
    f->e = malloc(sizeof(ref_edge) * max_edges);
    f->head = malloc(sizeof(unsigned) * nv);
    f->level = malloc(sizeof(unsigned) * nv);
    f->it = malloc(sizeof(unsigned) * nv);
    f->queue = malloc(sizeof(unsigned) * nv);
    if (!f->e || !f->head || !f->level || !f->it || !f->queue)
        abort();
    f->ne = 0;
    f->nv = nv;
    for (i = 0; i < nv; i++)
        f->head[i] = UINT32_MAX;
}

static void flow_free(ref_flow *f)
{
    free(f->e);
    free(f->head);
    free(f->level);
    free(f->it);
    free(f->queue);
}

static void flow_edge(ref_flow *f, unsigned a, unsigned b, i128 cap)
{
    f->e[f->ne].to = b;
    f->e[f->ne].cap = cap;
    f->e[f->ne].next = f->head[a];
    f->head[a] = f->ne++;
    f->e[f->ne].to = a;
    f->e[f->ne].cap = 0;
    f->e[f->ne].next = f->head[b];
    f->head[b] = f->ne++;
}

/* Breadth-first levels from s over edges with room; 1 when t is reached. */
static int flow_bfs(ref_flow *f, unsigned s, unsigned t)
{
    unsigned qh = 0, qt = 0, i;
    for (i = 0; i < f->nv; i++)
        f->level[i] = UINT32_MAX;
    f->level[s] = 0;
    f->queue[qt++] = s;
    while (qh < qt) {
        unsigned v = f->queue[qh++], k;
        for (k = f->head[v]; k != UINT32_MAX; k = f->e[k].next) {
            if (f->e[k].cap > 0 && f->level[f->e[k].to] == UINT32_MAX) {
                f->level[f->e[k].to] = f->level[v] + 1;
                f->queue[qt++] = f->e[k].to;
            }
        }
    }
    return f->level[t] != UINT32_MAX;
}

static i128 flow_dfs(ref_flow *f, unsigned v, unsigned t, i128 push)
{
    if (v == t)
        return push;
    for (; f->it[v] != UINT32_MAX; f->it[v] = f->e[f->it[v]].next) {
        ref_edge *e = &f->e[f->it[v]];
        if (e->cap > 0 && f->level[e->to] == f->level[v] + 1) {
            i128 got = flow_dfs(f, e->to, t, push < e->cap ? push : e->cap);
            if (got > 0) {
                e->cap -= got;
                f->e[f->it[v] ^ 1].cap += got;
                return got;
            }
        }
    }
    return 0;
}

static i128 flow_max(ref_flow *f, unsigned s, unsigned t, i128 inf)
{
    i128 total = 0, got;
    unsigned i;
    while (flow_bfs(f, s, t)) {
        for (i = 0; i < f->nv; i++)
            f->it[i] = f->head[i];
        while ((got = flow_dfs(f, s, t, inf)) > 0)
            total += got;
    }
    return total;
}

/* ---- densest closure --------------------------------------------------------------------- */

/* Among the remaining items (left[i]), the closed subset of maximum weight under
 * w(i) = fee(i) * den - size(i) * num, written as flags to pick; returns that weight. */
static i128 max_closure(const cluster_graph *g, unsigned *const *parents, const unsigned *npar,
                        const unsigned char *left, i128 num, i128 den, unsigned char *pick)
{
    unsigned n = cluster_graph_count(g), s = n, t = n + 1, i, j;
    ref_flow f;
    i128 pos = 0, cut;
    flow_init(&f, n + 2, 2 * (cluster_graph_dependency_count(g) + 2 * n) + 2);
    for (i = 0; i < n; i++) {
        cluster_feefrac fr;
        i128 w;
        if (!left[i])
            continue;
        fr = cluster_graph_feerate(g, i);
        w = (i128)fr.fee * den - (i128)fr.size * num;
        if (w > 0) {
            flow_edge(&f, s, i, w);
            pos += w;
        } else if (w < 0) {
            flow_edge(&f, i, t, -w);
        }
    }
    /* Taking i forces taking its remaining parents (the removed part is closed under
     * ancestors, so the parents' closure is the ancestors'): edges no cut can afford. */
    for (i = 0; i < n; i++) {
        for (j = 0; left[i] && j < npar[i]; j++) {
            if (left[parents[i][j]])
                flow_edge(&f, i, parents[i][j], pos + 1);
        }
    }
    cut = flow_max(&f, s, t, pos + 1);
    /* The source's side of the minimum cut: what the residual graph reaches from s. */
    flow_bfs(&f, s, t);
    for (i = 0; i < n; i++)
        pick[i] = left[i] && f.level[i] != UINT32_MAX;
    flow_free(&f);
    return pos - cut;
}

size_t cluster_ref_optimal(const cluster_graph *g, cluster_feefrac *out)
{
    unsigned n = cluster_graph_count(g), i, remaining = n;
    unsigned char *left = malloc(n + 1), *best = malloc(n + 1), *pick = malloc(n + 1);
    unsigned **parents = malloc(sizeof(unsigned *) * (n + 1)), *npar = malloc(4 * (n + 1));
    size_t nchunks = 0;
    if (!left || !best || !pick || !parents || !npar)
        abort();
    for (i = 0; i < n; i++) {
        npar[i] = cluster_graph_parents(g, i, NULL, 0);
        if ((parents[i] = malloc(sizeof(unsigned) * (npar[i] + 1))) == NULL)
            abort();
        cluster_graph_parents(g, i, parents[i], npar[i]);
    }
    memset(left, 1, n);
    while (remaining > 0) {
        /* Start from all that remains (closed), then Dinkelbach: a closed set of positive
         * weight at rate num/den has a higher rate; none means num/den is the best. */
        cluster_feefrac rate = {0, 0};
        memcpy(best, left, n);
        for (i = 0; i < n; i++) {
            if (left[i]) {
                rate.fee += cluster_graph_feerate(g, i).fee;
                rate.size += cluster_graph_feerate(g, i).size;
            }
        }
        for (;;) {
            cluster_feefrac r = {0, 0};
            if (max_closure(g, parents, npar, left, rate.fee, rate.size, pick) <= 0)
                break;
            for (i = 0; i < n; i++) {
                if (pick[i]) {
                    r.fee += cluster_graph_feerate(g, i).fee;
                    r.size += cluster_graph_feerate(g, i).size;
                }
            }
            memcpy(best, pick, n);
            rate = r;
        }
        out[nchunks++] = rate;
        for (i = 0; i < n; i++) {
            if (best[i]) {
                left[i] = 0;
                remaining--;
            }
        }
    }
    for (i = 0; i < n; i++)
        free(parents[i]);
    free(parents);
    free(npar);
    free(left);
    free(best);
    free(pick);
    return nchunks;
}

/* ---- every order ---------------------------------------------------------------------------- */

typedef struct {
    const cluster_graph *g;
    const cluster_feefrac *chunks;
    size_t nchunks;
    unsigned n;
    unsigned char *used;
    cluster_feefrac *stack; /* the chunking of the prefix so far */
    cluster_feefrac *saved; /* per prefix length, the chunk stack entries it popped */
    unsigned long orders, above;
} ref_walk;

static void walk(ref_walk *w, unsigned k, size_t nst)
{
    unsigned i, j;
    if (k == w->n) {
        w->orders++;
        if (cluster_diagram_cmp(w->stack, nst, w->chunks, w->nchunks) > 0)
            w->above++;
        return;
    }
    for (i = 0; i < w->n; i++) {
        cluster_feefrac c;
        size_t m = nst;
        int ok = 1;
        if (w->used[i])
            continue;
        for (j = 0; j < w->n && ok; j++)
            ok = !(cluster_graph_is_ancestor(w->g, j, i) && !w->used[j]);
        if (!ok)
            continue;
        /* Append i to the chunking, remembering what it overwrites. */
        memcpy(w->saved + (size_t)k * w->n, w->stack, nst * sizeof(cluster_feefrac));
        c = cluster_graph_feerate(w->g, i);
        while (m > 0 && cluster_feerate_cmp(c, w->stack[m - 1]) > 0) {
            c.fee += w->stack[m - 1].fee;
            c.size += w->stack[m - 1].size;
            m--;
        }
        w->stack[m++] = c;
        w->used[i] = 1;
        walk(w, k + 1, m);
        w->used[i] = 0;
        memcpy(w->stack, w->saved + (size_t)k * w->n, nst * sizeof(cluster_feefrac));
    }
}

unsigned long cluster_ref_all_orders(const cluster_graph *g, const cluster_feefrac *chunks,
                                     size_t nchunks, unsigned long *above)
{
    ref_walk w;
    w.g = g;
    w.chunks = chunks;
    w.nchunks = nchunks;
    w.n = cluster_graph_count(g);
    w.used = calloc(w.n + 1, 1);
    w.stack = malloc(sizeof(cluster_feefrac) * (w.n + 1));
    w.saved = malloc(sizeof(cluster_feefrac) * (w.n + 1) * (w.n + 1));
    w.orders = w.above = 0;
    if (!w.used || !w.stack || !w.saved)
        abort();
    walk(&w, 0, 0);
    free(w.used);
    free(w.stack);
    free(w.saved);
    *above = w.above;
    return w.orders;
}
