/* Num3072's inverse with AVX-512 IFMA (num3072_impl.h): the same constant-time safegcd as
 * num3072.c, the matrix applied to f, g, d, e eight limbs at a time with vpmadd52luq and
 * vpmadd52huq. Built with AVX512IFMA_CFLAGS; installed only where the CPU runs IFMA.
 *
 * Representation. A number is 64 signed 64-bit lanes, each standing for lane_j 2^(50 j),
 * kept in [-2^10, 2^50 + 2^10) by one parallel carry step after each batch (the top lane
 * takes what is above). Redundant, so negative numbers need no special limb, and the only
 * carry propagation is the one step, lane-parallel.
 *
 * Batches of 50 divsteps (the matrix entries then fit IFMA's 52-bit inputs with a bias), 142
 * of them: 7100 >= 7077, the same bound as num3072.c's 115 batches of 62. The matrix entries
 * u are biased to U = u + 2^50 in [0, 2^51] and the lanes to x + 2^51 in (0, 2^52), so the
 * unsigned 52-bit products are those of IFMA; the biases come out as constants per row:
 * with P_j = U (x_j + 2^51) + V (y_j + 2^51) = A_j + 2^52 B_j (the low and high IFMA sums),
 *   (u x + v y) / 2^50 has lane j = A_{j+1} + 4 B_j - x_j - y_j - 2 (U + V),
 * plus A_0 / 2^50 in lane 0 (A_0 is divisible by 2^50: the matrix makes the sum so).
 *
 * d and e (mod p) get md p with md in [0, 2^50) making the sum divisible by 2^50, as in
 * num3072.c; p = 2^3072 - C is -C in lane 0 and 2^22 in lane 61. They are not kept in
 * (-2p, p) (that needs their signs, which the redundant form does not give for free): each
 * batch moves them by less than p, so after 142 they are below 143 p in size, well inside 64
 * lanes, and one reduction at the end brings d into [0, p). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <immintrin.h>
#include <string.h>

#include "crypto/num3072.h"
#include "crypto/num3072_impl.h"

#define L_BITS 50
#define L_MASK ((UINT64_C(1) << L_BITS) - 1)
#define VECS 8                       /* 8 vectors of 8 lanes: 64 lanes, 3200 bits */
#define LANES (8 * VECS)
#define STEPS 50
#define BATCHES 142
#define C NUM3072_PRIME_DIFF
/* p^-1 mod 2^50 (p = -C mod 2^50); the selftest's inverses check it. */
#define P_INV50 (UINT64_C(0x070a1421da087d93) & L_MASK)

typedef struct {
    __m512i v[VECS];
} lanes64;

/* __extension__: the types are a GCC and Clang extension, not ISO C. */
__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;

/* out = (a x + b y) / 2^50 for the row (a, b), lane-parallel, before the carry step; a0
 * receives the low IFMA sum of lane 0 (A_0) for the caller's exact lane-0 term. */
static inline void row(__m512i *out, const lanes64 *x, const lanes64 *y, int64_t a, int64_t b,
                       uint64_t *a0)
{
    const __m512i bias = _mm512_set1_epi64((int64_t)1 << 51), zero = _mm512_setzero_si512();
    const __m512i ua = _mm512_set1_epi64(a + ((int64_t)1 << L_BITS));
    const __m512i ub = _mm512_set1_epi64(b + ((int64_t)1 << L_BITS));
    const __m512i k = _mm512_set1_epi64(-2 * (a + b + ((int64_t)2 << L_BITS)));
    __m512i lo[VECS], hi[VECS];
    int i;
    for (i = 0; i < VECS; i++) {
        __m512i xb = _mm512_add_epi64(x->v[i], bias), yb = _mm512_add_epi64(y->v[i], bias);
        lo[i] = _mm512_madd52lo_epu64(_mm512_madd52lo_epu64(zero, ua, xb), ub, yb);
        hi[i] = _mm512_madd52hi_epu64(_mm512_madd52hi_epu64(zero, ua, xb), ub, yb);
    }
    *a0 = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(lo[0]));
    for (i = 0; i < VECS; i++) {
        /* A_{j+1}: lo shifted down a lane, the next vector's lane 0 coming in */
        __m512i next = _mm512_alignr_epi64(i + 1 < VECS ? lo[i + 1] : zero, lo[i], 1);
        __m512i t = _mm512_add_epi64(next, _mm512_slli_epi64(hi[i], 2));
        t = _mm512_sub_epi64(t, _mm512_add_epi64(x->v[i], y->v[i]));
        out[i] = _mm512_add_epi64(t, k);
    }
}

/* The parallel carry step: lane_j = (t_j mod 2^50) + (t_{j-1} >> 50), the top lane keeping
 * its whole value. */
static inline void carry_step(lanes64 *r, const __m512i *t)
{
    const __m512i mask = _mm512_set1_epi64((int64_t)L_MASK), zero = _mm512_setzero_si512();
    __m512i prev = zero;
    int i;
    for (i = 0; i < VECS; i++) {
        __m512i c = _mm512_srai_epi64(t[i], L_BITS);
        __m512i low = _mm512_and_si512(t[i], mask);
        if (i == VECS - 1)
            low = _mm512_mask_mov_epi64(low, 0x80, t[i]);
        /* lane 0 gets the previous vector's top carry, lane k the carry of lane k - 1 */
        r->v[i] = _mm512_add_epi64(low, _mm512_alignr_epi64(c, prev, 7));
        prev = c;
    }
}

static inline uint64_t lane0(const lanes64 *x)
{
    return (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(x->v[0]));
}

/* Adds add to lane j of t (a lane-index constant, not a value). */
static inline void add_lane(__m512i *t, int j, int64_t add)
{
    t[j / 8] = _mm512_mask_add_epi64(t[j / 8], (__mmask8)(1u << (j % 8)), t[j / 8],
                                     _mm512_set1_epi64(add));
}

static void update_fg(lanes64 *f, lanes64 *g, const num3072_trans *m)
{
    __m512i tf[VECS], tg[VECS];
    uint64_t a0;
    row(tf, f, g, m->u, m->v, &a0);
    add_lane(tf, 0, (int64_t)(a0 >> L_BITS));
    row(tg, f, g, m->q, m->r, &a0);
    add_lane(tg, 0, (int64_t)(a0 >> L_BITS));
    carry_step(f, tf);
    carry_step(g, tg);
}

/* One of d, e: the row sum t, plus md p, divided by 2^50; a0 is A_0 of the row. */
static inline void add_multiple_of_p(__m512i *t, uint64_t a0, uint64_t md)
{
    /* lane 0: (A_0 - C md) / 2^50, exact (md makes it so); lane 61 of p (2^22 md) lands in
     * lane 60 after the division, split at 50 bits into lanes 60 and 61 */
    i128 s = (i128)a0 - (i128)C * md;
    add_lane(t, 0, (int64_t)(s >> L_BITS));
    add_lane(t, 60, (int64_t)((md << 22) & L_MASK));
    add_lane(t, 61, (int64_t)(md >> 28));
}

static void update_de(lanes64 *d, lanes64 *e, const num3072_trans *m)
{
    __m512i td[VECS], te[VECS];
    uint64_t a0, d0 = lane0(d), e0 = lane0(e), md, me;
    /* md: (u d + v e + md p) = 0 mod 2^50, with p = -C mod 2^50, from the lanes 0 alone */
    md = (((uint64_t)m->u * d0 + (uint64_t)m->v * e0) * P_INV50) & L_MASK;
    md = (0 - md) & L_MASK;
    me = (((uint64_t)m->q * d0 + (uint64_t)m->r * e0) * P_INV50) & L_MASK;
    me = (0 - me) & L_MASK;
    row(td, d, e, m->u, m->v, &a0);
    add_multiple_of_p(td, a0, md);
    row(te, d, e, m->q, m->r, &a0);
    add_multiple_of_p(te, a0, me);
    carry_step(d, td);
    carry_step(e, te);
}

/* x (below 2^3072) as lanes of 50 bits. */
static void to_lanes(lanes64 *out, const num3072 *x)
{
    int64_t l[LANES];
    int j;
    for (j = 0; j < LANES; j++) {
        int bit = j * L_BITS, word = bit / 64, off = bit % 64;
        uint64_t v = 0;
        if (word < NUM3072_LIMBS) {
            v = x->limbs[word] >> off;
            if (off > 64 - L_BITS && word + 1 < NUM3072_LIMBS)
                v |= x->limbs[word + 1] << (64 - off);
        }
        l[j] = (int64_t)(v & L_MASK);
    }
    for (j = 0; j < VECS; j++)
        out->v[j] = _mm512_loadu_si512((const void *)(l + 8 * j));
}

static void store_lanes(int64_t l[LANES], const lanes64 *x)
{
    int j;
    for (j = 0; j < VECS; j++)
        _mm512_storeu_si512((void *)(l + 8 * j), x->v[j]);
}

/* Carries l[] so that lanes 0..62 are in [0, 2^50), the value sum(l[j] 2^(50 j)) unchanged
 * (the top lane signed); returns the value's sign as a mask. */
static uint64_t carry_lanes(int64_t l[LANES])
{
    int64_t c = 0;
    int j;
    for (j = 0; j < LANES - 1; j++) {
        int64_t t = l[j] + c;
        l[j] = (int64_t)((uint64_t)t & L_MASK);
        c = t >> L_BITS;
    }
    l[LANES - 1] += c;
    return 0 - ((uint64_t)l[LANES - 1] >> 63);
}

void num3072_inverse_avx512ifma(num3072 *r, const num3072 *a)
{
    lanes64 d, e, f, g;
    num3072 x = *a;
    int64_t zeta = -1, l[LANES];
    uint64_t neg, w[52], top, carry;
    num3072_trans m;
    int i, j;

    num3072_reduce(&x);                      /* the bound needs 0 <= g <= f = p */
    memset(&d, 0, sizeof d);
    memset(&e, 0, sizeof e);
    memset(&f, 0, sizeof f);
    e.v[0] = _mm512_maskz_mov_epi64(1, _mm512_set1_epi64(1));
    f.v[0] = _mm512_maskz_mov_epi64(1, _mm512_set1_epi64(-(int64_t)C));     /* f = p */
    f.v[7] = _mm512_maskz_mov_epi64(0x20, _mm512_set1_epi64((int64_t)1 << 22));
    to_lanes(&g, &x);
    for (i = 0; i < BATCHES; i++) {
        zeta = num3072_divsteps(zeta, lane0(&f), lane0(&g), STEPS, &m);
        update_fg(&f, &g, &m);
        update_de(&d, &e, &m);
    }

    /* f = +-1 (f = p, d = 0 for x = 0): the inverse is d f. Negate d with f's sign, add
     * 256 p (= 2^3080 - 256 C, 2^3080 being 2^30 in lane 61; d is below 143 p in size) to
     * make it positive, carry, then fold 2^3072 = C twice and reduce. */
    store_lanes(l, &f);
    neg = carry_lanes(l);
    store_lanes(l, &d);
    for (j = 0; j < LANES; j++)
        l[j] = (int64_t)(((uint64_t)l[j] ^ neg) - neg);
    l[0] -= 256 * (int64_t)C;
    l[61] += (int64_t)1 << 30;
    carry_lanes(l);
    /* the lanes (50 bits each now, the value positive and below 2^3082) as 64-bit words */
    memset(w, 0, sizeof w);
    for (j = 0; j < LANES; j++) {
        int bit = j * L_BITS, word = bit / 64, off = bit % 64;
        uint64_t v = (uint64_t)l[j];
        w[word] |= v << off;
        if (off > 64 - L_BITS)
            w[word + 1] |= v >> (64 - off);
    }
    /* w = low 3072 bits + 2^3072 top with top = w[48] below 2^10 (w[49..] are 0): fold
     * twice (the second fold's top is 0 or 1, and leaves none), then reduce */
    for (i = 0; i < 2; i++) {
        u128 t;
        top = w[48];
        t = (u128)top * C + w[0];
        w[0] = (uint64_t)t;
        carry = (uint64_t)(t >> 64);
        for (j = 1; j < NUM3072_LIMBS; j++) {
            w[j] += carry;
            carry = w[j] < carry;
        }
        w[48] = carry;
    }
    memcpy(r->limbs, w, sizeof r->limbs);
    num3072_reduce(r);
}
