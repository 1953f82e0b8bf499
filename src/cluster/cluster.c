/* The cluster module: the graph, chunking, diagrams, Core's serialization, and the dispatch to
 * the width-specific algorithms of cluster_impl.h. */
#include "cluster/cluster.h"

#include <string.h>

#include "crypto/random.h"
#include "util/alloc.h"

/* Items, and per item its ancestors and descendants (each including the item) as bit sets of
 * cw 64-bit words, item i's at words [i * cw, i * cw + cw). Dependencies are kept only as
 * these closures, as in Core's DepGraph. */
struct cluster_graph {
    unsigned cw, cap, n;
    int64_t total_size;
    cluster_feefrac *fr;
    uint64_t *anc, *desc;
};

/* Fee rates compared by cross-multiplying: fee up to 2^51 times size up to 2^31 needs 83
 * bits. cl_gt and cl_lt are what the hot loops ask (one 128-bit comparison each, where a
 * three-way result tested against 0 costs two); cl_cmp is the three-way one. */
#ifdef __SIZEOF_INT128__
__extension__ typedef __int128 cl_i128;

static inline int cl_gt(cluster_feefrac a, cluster_feefrac b)
{
    return (cl_i128)a.fee * b.size > (cl_i128)b.fee * a.size;
}

static inline int cl_cmp(cluster_feefrac a, cluster_feefrac b)
{
    cl_i128 x = (cl_i128)a.fee * b.size, y = (cl_i128)b.fee * a.size;
    return (x > y) - (x < y);
}
#else
/* a * b as a 96-bit signed value (high 64 bits, low 32), totally ordered as (hi, lo). */
static void cl_mul(int64_t a, int32_t b, int64_t *hi, uint32_t *lo)
{
    int64_t low = (int64_t)(uint32_t)a * b, high = (a >> 32) * b;
    *hi = high + (low >> 32);
    *lo = (uint32_t)low;
}

static inline int cl_cmp(cluster_feefrac a, cluster_feefrac b)
{
    int64_t h1, h2;
    uint32_t l1, l2;
    cl_mul(a.fee, b.size, &h1, &l1);
    cl_mul(b.fee, a.size, &h2, &l2);
    if (h1 != h2)
        return h1 < h2 ? -1 : 1;
    return (l1 > l2) - (l1 < l2);
}

static inline int cl_gt(cluster_feefrac a, cluster_feefrac b)
{
    return cl_cmp(a, b) > 0;
}
#endif

static inline int cl_lt(cluster_feefrac a, cluster_feefrac b)
{
    return cl_gt(b, a);
}

int cluster_feerate_cmp(cluster_feefrac a, cluster_feefrac b)
{
    return cl_cmp(a, b);
}

/* Bits set in v: the POPCNT instruction where the compiler may use it (-mpopcnt, or a
 * -march that has it), else the classic SWAR count, which needs neither the instruction nor
 * a library call. */
static inline unsigned cl_popcount(uint64_t v)
{
#ifdef __POPCNT__
    return (unsigned)__builtin_popcountll(v);
#endif
    v -= (v >> 1) & UINT64_C(0x5555555555555555);
    v = (v & UINT64_C(0x3333333333333333)) + ((v >> 2) & UINT64_C(0x3333333333333333));
    v = (v + (v >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (unsigned)((v * UINT64_C(0x0101010101010101)) >> 56);
}

/* Core's InsecureRandomContext (crypto/random.h): the generator SFL draws its choices from,
 * under the names the algorithms use. */
typedef insecurerandom_ctx cl_rng;
#define cl_rng_seed insecurerandom_init
#define cl_rng_64 insecurerandom_rand64
#define cl_rng_bits insecurerandom_randbits
#define cl_rng_range insecurerandom_randrange
#define cl_rng_bool(r) ((unsigned)insecurerandom_randbool(r))

/* ---- the algorithms, once per set width --------------------------------------------------- */

#define CW 1
#define CL(x) x##_w1
#include "cluster/cluster_impl.h"
#undef CW
#undef CL

#define CW 2
#define CL(x) x##_w2
#include "cluster/cluster_impl.h"
#undef CW
#undef CL

#define CW 4
#define CL(x) x##_w4
#include "cluster/cluster_impl.h"
#undef CW
#undef CL

#define CW 8
#define CL(x) x##_w8
#include "cluster/cluster_impl.h"
#undef CW
#undef CL

/* ---- the graph ------------------------------------------------------------------------------ */

static inline int cl_has(const uint64_t *s, unsigned i)
{
    return (int)((s[i / 64] >> (i % 64)) & 1);
}

cluster_graph *cluster_graph_new(unsigned capacity)
{
    cluster_graph *g;
    unsigned cw;
    if (capacity < 1 || capacity > CLUSTER_MAX_TX)
        return NULL;
    cw = capacity <= 64 ? 1 : capacity <= 128 ? 2 : capacity <= 256 ? 4 : 8;
    if ((g = bb_malloc(sizeof(*g))) == NULL)
        return NULL;
    g->cw = cw;
    g->cap = capacity;
    g->n = 0;
    g->total_size = 0;
    g->fr = bb_malloc_array(capacity, sizeof(cluster_feefrac));
    g->anc = bb_malloc_array((size_t)capacity * cw, sizeof(uint64_t));
    g->desc = bb_malloc_array((size_t)capacity * cw, sizeof(uint64_t));
    if (g->fr == NULL || g->anc == NULL || g->desc == NULL) {
        cluster_graph_free(g);
        return NULL;
    }
    return g;
}

void cluster_graph_free(cluster_graph *g)
{
    if (g == NULL)
        return;
    bb_free(g->fr);
    bb_free(g->anc);
    bb_free(g->desc);
    bb_free(g);
}

unsigned cluster_graph_count(const cluster_graph *g)
{
    return g ? g->n : 0;
}

unsigned cluster_graph_capacity(const cluster_graph *g)
{
    return g ? g->cap : 0;
}

int cluster_graph_add(cluster_graph *g, int64_t fee, int32_t size)
{
    unsigned i;
    if (g == NULL || g->n >= g->cap || size < 1 || fee > CLUSTER_MAX_FEE ||
        fee < -CLUSTER_MAX_FEE || g->total_size + size > INT32_MAX)
        return -1;
    i = g->n++;
    g->total_size += size;
    g->fr[i].fee = fee;
    g->fr[i].size = size;
    memset(g->anc + (size_t)i * g->cw, 0, g->cw * sizeof(uint64_t));
    memset(g->desc + (size_t)i * g->cw, 0, g->cw * sizeof(uint64_t));
    g->anc[(size_t)i * g->cw + i / 64] |= (uint64_t)1 << (i % 64);
    g->desc[(size_t)i * g->cw + i / 64] |= (uint64_t)1 << (i % 64);
    return (int)i;
}

/* Core's AddDependencies for one parent: the parent's ancestors that the child lacks become
 * ancestors of every descendant of the child, and those descendants theirs. */
int cluster_graph_add_dependency(cluster_graph *g, unsigned parent, unsigned child)
{
    unsigned cw, k, a, d;
    uint64_t add[CLUSTER_MAX_TX / 64];
    const uint64_t *ca, *cd;
    if (g == NULL || parent >= g->n || child >= g->n || parent == child)
        return -1;
    cw = g->cw;
    if (cl_has(g->anc + (size_t)parent * cw, child))
        return -1;
    ca = g->anc + (size_t)child * cw;
    cd = g->desc + (size_t)child * cw;
    for (k = 0; k < cw; k++)
        add[k] = g->anc[(size_t)parent * cw + k] & ~ca[k];
    for (a = 0; a < g->n; a++) {
        if (cl_has(add, a)) {
            for (k = 0; k < cw; k++)
                g->desc[(size_t)a * cw + k] |= cd[k];
        }
    }
    for (d = 0; d < g->n; d++) {
        if (cl_has(cd, d)) {
            for (k = 0; k < cw; k++)
                g->anc[(size_t)d * cw + k] |= add[k];
        }
    }
    return 0;
}

cluster_feefrac cluster_graph_feerate(const cluster_graph *g, unsigned i)
{
    cluster_feefrac none = {0, 0};
    return g != NULL && i < g->n ? g->fr[i] : none;
}

int cluster_graph_is_ancestor(const cluster_graph *g, unsigned a, unsigned b)
{
    if (g == NULL || a >= g->n || b >= g->n || a == b)
        return 0;
    return cl_has(g->anc + (size_t)b * g->cw, a);
}

unsigned cluster_graph_parents(const cluster_graph *g, unsigned i, unsigned *out, unsigned cap)
{
    uint64_t p[CLUSTER_MAX_TX / 64];
    unsigned cw, k, w, n = 0;
    if (g == NULL || i >= g->n)
        return 0;
    cw = g->cw;
    memcpy(p, g->anc + (size_t)i * cw, cw * sizeof(uint64_t));
    p[i / 64] &= ~((uint64_t)1 << (i % 64));
    /* Each ancestor still in p drops its own ancestors (ascending; a dropped one is skipped
     * when reached, as it is no longer in p). */
    for (w = 0; w < cw; w++) {
        uint64_t v = p[w];
        while ((v &= p[w]) != 0) {
            unsigned a = w * 64 + (unsigned)__builtin_ctzll(v);
            v &= v - 1;
            for (k = 0; k < cw; k++)
                p[k] &= ~g->anc[(size_t)a * cw + k];
            p[a / 64] |= (uint64_t)1 << (a % 64);
        }
    }
    for (w = 0; w < cw; w++) {
        uint64_t v = p[w];
        while (v != 0) {
            if (n < cap)
                out[n] = w * 64 + (unsigned)__builtin_ctzll(v);
            n++;
            v &= v - 1;
        }
    }
    return n;
}

unsigned cluster_graph_dependency_count(const cluster_graph *g)
{
    unsigned i, n = 0;
    for (i = 0; g != NULL && i < g->n; i++)
        n += cluster_graph_parents(g, i, NULL, 0);
    return n;
}

/* ---- linearizations, chunks, diagrams --------------------------------------------------- */

int cluster_is_linearization(const cluster_graph *g, const unsigned *lin, size_t n)
{
    uint64_t seen[CLUSTER_MAX_TX / 64];
    size_t i;
    unsigned k;
    if (g == NULL || lin == NULL || n != g->n)
        return g != NULL && n == 0 && g->n == 0;
    memset(seen, 0, sizeof(seen));
    for (i = 0; i < n; i++) {
        unsigned x = lin[i];
        const uint64_t *a;
        if (x >= g->n || cl_has(seen, x))
            return 0;
        a = g->anc + (size_t)x * g->cw;
        seen[x / 64] |= (uint64_t)1 << (x % 64);
        for (k = 0; k < g->cw; k++) {
            if (a[k] & ~seen[k])
                return 0;
        }
    }
    return 1;
}

size_t cluster_chunk(const cluster_graph *g, const unsigned *lin, cluster_feefrac *chunks)
{
    size_t n = 0;
    unsigned i;
    for (i = 0; g != NULL && i < g->n; i++) {
        cluster_feefrac c = g->fr[lin[i]];
        while (n > 0 && cl_gt(c, chunks[n - 1])) {
            c.fee += chunks[n - 1].fee;
            c.size += chunks[n - 1].size;
            n--;
        }
        chunks[n++] = c;
    }
    return n;
}

/* Where point (x, y) lies against the segment from (x0, y0) to (x0 + dx, y0 + dy), extended
 * flat past its end: 1 above, 0 on, -1 below. x >= x0. */
static int cl_side(int64_t x, int64_t y, int64_t x0, int64_t y0, cluster_feefrac d)
{
    if (d.size == 0 || x >= x0 + d.size) {
        int64_t end = y0 + d.fee;
        return (y > end) - (y < end);
    } else {
#ifdef __SIZEOF_INT128__
        cl_i128 l = (cl_i128)(y - y0) * d.size, r = (cl_i128)d.fee * (x - x0);
#else
        long double l = (long double)(y - y0) * d.size, r = (long double)d.fee * (x - x0);
#endif
        return (l > r) - (l < r);
    }
}

/* Compares diagram a with b at every breakpoint of b: bit 1 when a is above b at one, bit 2
 * when below. */
static int cl_diagram_side(const cluster_feefrac *a, size_t na, const cluster_feefrac *b,
                           size_t nb)
{
    int64_t ax = 0, ay = 0, bx = 0, by = 0;
    size_t i = 0, j;
    int r = 0;
    for (j = 0; j <= nb; j++) {
        cluster_feefrac seg = {0, 0};
        int s;
        /* Find a's segment that holds bx (the last one, flat, past a's end). */
        while (i < na && ax + a[i].size <= bx) {
            ax += a[i].size;
            ay += a[i].fee;
            i++;
        }
        if (i < na)
            seg = a[i];
        s = cl_side(bx, by, ax, ay, seg);
        r |= s < 0 ? 1 : s > 0 ? 2 : 0;
        if (j < nb) {
            bx += b[j].size;
            by += b[j].fee;
        }
    }
    return r;
}

int cluster_diagram_cmp(const cluster_feefrac *a, size_t na, const cluster_feefrac *b, size_t nb)
{
    int ab = cl_diagram_side(a, na, b, nb), ba = cl_diagram_side(b, nb, a, na);
    int a_above = (ab & 1) || (ba & 2), b_above = (ab & 2) || (ba & 1);
    if (a_above && b_above)
        return 2;
    return a_above ? 1 : b_above ? -1 : 0;
}

/* ---- Core's DepGraphFormatter ---------------------------------------------------------- */

typedef struct {
    const unsigned char *p;
    size_t left, used;
} cl_reader;

/* Bitcoin's VARINT (7 bits a byte, most significant first, each continuation adding one):
 * 0 with *v set, or -1 at the end of the input or past max (then *v is unchanged). */
static int cl_varint(cl_reader *r, uint64_t max, uint64_t *v)
{
    uint64_t n = 0;
    for (;;) {
        unsigned char c;
        if (r->left == 0)
            return -1;
        c = *r->p++;
        r->left--;
        r->used++;
        if (n > (max >> 7))
            return -1;
        n = (n << 7) | (c & 0x7f);
        if (!(c & 0x80)) {
            *v = n;
            return 0;
        }
        if (n == max)
            return -1;
        n++;
    }
}

cluster_graph *cluster_graph_deserialize(const unsigned char *buf, size_t len, unsigned capacity,
                                         size_t *used)
{
    /* Per item in serialization (topological) order: fee and size, ancestors (in that
     * order's indices, the item included), and the position it is given. */
    cluster_feefrac fr[CLUSTER_MAX_TX];
    uint64_t anc[CLUSTER_MAX_TX][CLUSTER_MAX_TX / 64];
    unsigned pos[CLUSTER_MAX_TX], rank[CLUSTER_MAX_TX], n = 0, total = 0, i, j;
    uint64_t by_pos[CLUSTER_MAX_TX / 64];
    cluster_graph *g;
    cl_reader r;
    if (capacity < 1 || capacity > CLUSTER_MAX_TX)
        return NULL;
    r.p = buf;
    r.left = buf ? len : 0;
    r.used = 0;
    for (;;) {
        uint64_t size, coded, diff = 0, na[CLUSTER_MAX_TX / 64];
        int64_t fee;
        int err = 0;
        unsigned dist;
        memset(na, 0, sizeof(na));
        if (cl_varint(&r, INT32_MAX, &size) != 0)
            break;
        size &= 0x3fffff;
        if (size == 0 || n == capacity)
            break;
        if (cl_varint(&r, UINT64_MAX, &coded) != 0)
            break;
        coded &= UINT64_C(0xfffffffffffff);
        fee = (coded & 1) ? -(int64_t)(coded / 2) - 1 : (int64_t)(coded / 2);
        /* Skips: over earlier items (nearest first) not yet known ancestors, a zero making
         * one a parent; what is left after the last says where the item goes. */
        if (cl_varint(&r, UINT64_MAX, &diff) != 0) {
            err = 1;
        } else {
            for (dist = 0; dist < n; dist++) {
                unsigned d = n - 1 - dist, k;
                if (cl_has(na, d))
                    continue;
                if (diff == 0) {
                    for (k = 0; k < CLUSTER_MAX_TX / 64; k++)
                        na[k] |= anc[d][k];
                    if (cl_varint(&r, UINT64_MAX, &diff) != 0) {
                        err = 1;
                        break;
                    }
                } else {
                    diff--;
                }
            }
        }
        fr[n].fee = fee;
        fr[n].size = (int32_t)size;
        memcpy(anc[n], na, sizeof(na));
        anc[n][n / 64] |= (uint64_t)1 << (n % 64);
        if (total < capacity) {
            diff %= capacity;
            if (diff <= total) {
                for (i = 0; i < n; i++)
                    pos[i] += pos[i] >= total - (unsigned)diff;
                pos[n] = total++ - (unsigned)diff;
            } else {
                total = (unsigned)diff;
                pos[n] = total++;
            }
        } else {
            /* Every position taken up to the capacity: diff picks a hole. */
            uint64_t taken[CLUSTER_MAX_TX / 64];
            memset(taken, 0, sizeof(taken));
            for (i = 0; i < n; i++)
                taken[pos[i] / 64] |= (uint64_t)1 << (pos[i] % 64);
            diff %= capacity - n;
            for (j = 0; j < capacity; j++) {
                if (!cl_has(taken, j) && diff-- == 0)
                    break;
            }
            pos[n] = j;
        }
        n++;
        if (err)
            break;
    }
    if (used != NULL)
        *used = r.used;
    /* Positions in order, the holes closed up. */
    memset(by_pos, 0, sizeof(by_pos));
    for (i = 0; i < n; i++)
        by_pos[pos[i] / 64] |= (uint64_t)1 << (pos[i] % 64);
    for (i = 0; i < n; i++) {
        unsigned k = 0;
        for (j = 0; j < pos[i]; j++)
            k += (unsigned)cl_has(by_pos, j);
        rank[i] = k;
    }
    if ((g = cluster_graph_new(capacity)) == NULL)
        return NULL;
    for (j = 0; j < n; j++) {
        for (i = 0; i < n && rank[i] != j; i++) {
        }
        if (cluster_graph_add(g, fr[i].fee, fr[i].size) < 0) {
            cluster_graph_free(g);
            return NULL;
        }
    }
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            if (j != i && cl_has(anc[i], j))
                cluster_graph_add_dependency(g, rank[j], rank[i]);
        }
    }
    return g;
}

/* ---- dispatch ------------------------------------------------------------------------------ */

int cluster_linearize(const cluster_graph *g, uint64_t max_cost, uint64_t seed,
                      const unsigned *old, unsigned *out, cluster_linearize_info *info)
{
    if (g == NULL || out == NULL || (old != NULL && !cluster_is_linearization(g, old, g->n)))
        return -1;
    if (g->n == 0) {
        if (info != NULL) {
            info->optimal = 1;
            info->cost = 0;
        }
        return 0;
    }
    switch (g->cw) {
    case 1:
        return linearize_w1(g, max_cost, seed, old, out, info);
    case 2:
        return linearize_w2(g, max_cost, seed, old, out, info);
    case 4:
        return linearize_w4(g, max_cost, seed, old, out, info);
    default:
        return linearize_w8(g, max_cost, seed, old, out, info);
    }
}

int cluster_postlinearize(const cluster_graph *g, unsigned *lin)
{
    if (g == NULL || lin == NULL)
        return -1;
    switch (g->cw) {
    case 1:
        return postlinearize_w1(g, lin);
    case 2:
        return postlinearize_w2(g, lin);
    case 4:
        return postlinearize_w4(g, lin);
    default:
        return postlinearize_w8(g, lin);
    }
}
