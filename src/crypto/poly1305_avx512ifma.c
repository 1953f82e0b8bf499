/* Poly1305 blocks with AVX-512 IFMA, radix 2^44: three limbs of 44, 44 and 42 bits, each
 * product taken as its low and high 52 bits by vpmadd52luq/vpmadd52huq, eight blocks in the
 * eight 64-bit lanes of three vectors. Long runs go sixteen blocks a step in two such sets,
 * every lane multiplied by r^16, so that two independent chains of multiplies and carries
 * hide each other's latency; then eight a step (r^8). After the last step every lane is
 * multiplied by the power of r its block still owes, and the lanes are summed. The powers
 * are computed once per key and kept in the context (powers_of 2). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <immintrin.h>

#include "crypto/poly1305_impl.h"

#define POWERS_ID 2
/* ctx->powers: limb k (0..2) of the final multipliers of the 8-lane pass at [8k ..] and of
 * the first set of the 16-lane pass at [24 + 8k ..], lane by lane. Lane i holds block
 * 0, 4, 1, 5, 2, 6, 3, 7 (for i = 0 .. 7) of its eight (the loads' order, below), which owes r^(8 - that) in the last
 * 8-lane step, r^(16 - that) in the first set of the last 16-lane step; the second set's
 * are the 8-lane pass's. Lane 0 is block 0: r^8 and r^16 are there, for the steps. */
#define P8(k) (8 * (k))
#define P16(k) (24 + 8 * (k))

/* A multiplier: r's limbs and 20 times limbs 1 and 2 (2^132 = 20 mod p). */
typedef struct {
    __m512i r0, r1, r2, t1, t2;
} mult;

static inline __m512i times20(__m512i x)
{
    return _mm512_add_epi64(_mm512_slli_epi64(x, 4), _mm512_slli_epi64(x, 2));
}

static inline mult make_mult(__m512i r0, __m512i r1, __m512i r2)
{
    mult m;
    m.r0 = r0;
    m.r1 = r1;
    m.r2 = r2;
    m.t1 = times20(r1);
    m.t2 = times20(r2);
    return m;
}

static inline mult load_mult(const uint64_t *p)
{
    return make_mult(_mm512_loadu_si512((const void *)p), _mm512_loadu_si512((const void *)(p + 8)),
                     _mm512_loadu_si512((const void *)(p + 16)));
}

/* a = a * m lane by lane. a's limbs below 2^46, m's r limbs below 2^44 and 2^42 (so 20 r1,
 * 20 r2 below 2^49): every product's halves fit 52 bits. d_k's low halves sum to L_k, high
 * halves (weight 2^52 = 2^44 2^8) to H_k; H_2 has weight 2^140 = 5 2^10 mod p. After the
 * carries limbs 0 and 1 are below 2^44 + 2^15, limb 2 below 2^42. */
static inline void mul(__m512i a[3], const mult *m)
{
    const __m512i z = _mm512_setzero_si512(), m44 = _mm512_set1_epi64(0xfffffffffff);
    const __m512i m42 = _mm512_set1_epi64(0x3ffffffffff);
    __m512i l0, l1, l2, h0, h1, h2, c;
    l0 = _mm512_madd52lo_epu64(z, a[0], m->r0);
    h0 = _mm512_madd52hi_epu64(z, a[0], m->r0);
    l1 = _mm512_madd52lo_epu64(z, a[0], m->r1);
    h1 = _mm512_madd52hi_epu64(z, a[0], m->r1);
    l2 = _mm512_madd52lo_epu64(z, a[0], m->r2);
    h2 = _mm512_madd52hi_epu64(z, a[0], m->r2);
    l0 = _mm512_madd52lo_epu64(l0, a[1], m->t2);
    h0 = _mm512_madd52hi_epu64(h0, a[1], m->t2);
    l1 = _mm512_madd52lo_epu64(l1, a[1], m->r0);
    h1 = _mm512_madd52hi_epu64(h1, a[1], m->r0);
    l2 = _mm512_madd52lo_epu64(l2, a[1], m->r1);
    h2 = _mm512_madd52hi_epu64(h2, a[1], m->r1);
    l0 = _mm512_madd52lo_epu64(l0, a[2], m->t1);
    h0 = _mm512_madd52hi_epu64(h0, a[2], m->t1);
    l1 = _mm512_madd52lo_epu64(l1, a[2], m->t2);
    h1 = _mm512_madd52hi_epu64(h1, a[2], m->t2);
    l2 = _mm512_madd52lo_epu64(l2, a[2], m->r0);
    h2 = _mm512_madd52hi_epu64(h2, a[2], m->r0);
    /* l_k < 3 2^52, h_k < 2^43 */
    l0 = _mm512_add_epi64(l0, _mm512_add_epi64(_mm512_slli_epi64(h2, 12),
                                               _mm512_slli_epi64(h2, 10)));
    l1 = _mm512_add_epi64(l1, _mm512_slli_epi64(h0, 8));
    l2 = _mm512_add_epi64(l2, _mm512_slli_epi64(h1, 8));
    c = _mm512_srli_epi64(l0, 44); l0 = _mm512_and_si512(l0, m44); l1 = _mm512_add_epi64(l1, c);
    c = _mm512_srli_epi64(l1, 44); l1 = _mm512_and_si512(l1, m44); l2 = _mm512_add_epi64(l2, c);
    c = _mm512_srli_epi64(l2, 42); l2 = _mm512_and_si512(l2, m42);
    l0 = _mm512_add_epi64(l0, _mm512_add_epi64(c, _mm512_slli_epi64(c, 2)));
    a[0] = l0;
    a[1] = l1;
    a[2] = l2;
}

/* a += eight blocks at in, with their 2^128 bits: lanes 0 .. 7 get blocks 0, 4, 1, 5, 2, 6,
 * 3, 7. */
static inline void add_blocks(__m512i a[3], const unsigned char *in)
{
    const __m512i m44 = _mm512_set1_epi64(0xfffffffffff);
    __m512i x = _mm512_loadu_si512((const void *)in);
    __m512i y = _mm512_loadu_si512((const void *)(in + 64));
    __m512i lo = _mm512_unpacklo_epi64(x, y), hi = _mm512_unpackhi_epi64(x, y);
    a[0] = _mm512_add_epi64(a[0], _mm512_and_si512(lo, m44));
    a[1] = _mm512_add_epi64(a[1], _mm512_and_si512(
        _mm512_or_si512(_mm512_srli_epi64(lo, 44), _mm512_slli_epi64(hi, 20)), m44));
    a[2] = _mm512_add_epi64(a[2], _mm512_or_si512(_mm512_srli_epi64(hi, 24),
                                                  _mm512_set1_epi64((long long)1 << 40)));
}

static inline mult broadcast_lane0(const mult *m)
{
    const __m512i zero = _mm512_setzero_si512();
    return make_mult(_mm512_permutexvar_epi64(zero, m->r0), _mm512_permutexvar_epi64(zero, m->r1),
                     _mm512_permutexvar_epi64(zero, m->r2));
}

/* r^1 .. r^16 from r in four vector multiplies (lane k of v holding r^(k+1) after three),
 * then permuted into the lane order above; the limbs are left partly reduced (below 2^44 +
 * 2^15 and 2^42), which mul takes as a multiplier as well. */
static void make_powers(poly1305_ctx *ctx)
{
    const uint64_t rr[3] = {ctx->r[0], ctx->r[1], 0};
    const __m512i one = _mm512_set1_epi64(1);
    const __m512i order = _mm512_set_epi64(0, 4, 1, 5, 2, 6, 3, 7);   /* 7 - the block lane i holds */
    uint64_t l[3];
    __m512i v[3], w[3];
    mult m;
    poly1305_to44(rr, l);
    for (int k = 0; k < 3; k++)
        v[k] = _mm512_set1_epi64((long long)l[k]);
    /* times (1, r, 1, r, ...): r, r^2 */
    m = make_mult(_mm512_mask_mov_epi64(one, 0xaa, v[0]), _mm512_maskz_mov_epi64(0xaa, v[1]),
                  _mm512_maskz_mov_epi64(0xaa, v[2]));
    mul(v, &m);
    /* times (1, 1, r^2, r^2, ...): r .. r^4 */
    for (int k = 0; k < 3; k++)
        w[k] = _mm512_permutexvar_epi64(_mm512_set1_epi64(1), v[k]);
    m = make_mult(_mm512_mask_mov_epi64(one, 0xcc, w[0]), _mm512_maskz_mov_epi64(0xcc, w[1]),
                  _mm512_maskz_mov_epi64(0xcc, w[2]));
    mul(v, &m);
    /* times (1, 1, 1, 1, r^4, r^4, r^4, r^4): r .. r^8 */
    for (int k = 0; k < 3; k++)
        w[k] = _mm512_permutexvar_epi64(_mm512_set1_epi64(3), v[k]);
    m = make_mult(_mm512_mask_mov_epi64(one, 0xf0, w[0]), _mm512_maskz_mov_epi64(0xf0, w[1]),
                  _mm512_maskz_mov_epi64(0xf0, w[2]));
    mul(v, &m);
    /* times r^8: r^9 .. r^16 */
    for (int k = 0; k < 3; k++)
        w[k] = _mm512_permutexvar_epi64(_mm512_set1_epi64(7), v[k]);
    m = make_mult(w[0], w[1], w[2]);
    for (int k = 0; k < 3; k++) {
        _mm512_storeu_si512((void *)&ctx->powers[P8(k)], _mm512_permutexvar_epi64(order, v[k]));
        w[k] = v[k];
    }
    mul(w, &m);
    for (int k = 0; k < 3; k++)
        _mm512_storeu_si512((void *)&ctx->powers[P16(k)], _mm512_permutexvar_epi64(order, w[k]));
    ctx->powers_of = POWERS_ID;
}

void poly1305_blocks_avx512ifma(poly1305_ctx *ctx, const unsigned char *in, size_t blocks)
{
    __m512i a[3], b[3];
    mult fin8, fin16, step;
    uint64_t l[3], sum[3];

    if (blocks < 16) {
        poly1305_blocks_portable(ctx, in, blocks);
        return;
    }
    if (ctx->powers_of != POWERS_ID)
        make_powers(ctx);
    fin8 = load_mult(&ctx->powers[P8(0)]);
    poly1305_to44(ctx->h, l);
    for (int k = 0; k < 3; k++) {
        a[k] = _mm512_maskz_set1_epi64(1, (long long)l[k]);   /* h joins block 0's lane */
        b[k] = _mm512_setzero_si512();
    }
    if (blocks >= 32) {
        size_t steps = blocks / 16;
        fin16 = load_mult(&ctx->powers[P16(0)]);
        step = broadcast_lane0(&fin16);   /* r^16 */
        for (; steps > 1; steps--, in += 256, blocks -= 16) {
            add_blocks(a, in);
            add_blocks(b, in + 128);
            mul(a, &step);
            mul(b, &step);
        }
        add_blocks(a, in);
        add_blocks(b, in + 128);
        mul(a, &fin16);
        mul(b, &fin8);
        in += 256;
        blocks -= 16;
        for (int k = 0; k < 3; k++)
            a[k] = _mm512_add_epi64(a[k], b[k]);
        if (blocks >= 8) {
            /* the sums of the lanes become block 0's lane of the next step: fold them in
             * first, so that h stays a single number */
            for (int k = 0; k < 3; k++)
                l[k] = (uint64_t)_mm512_reduce_add_epi64(a[k]);
            poly1305_from44(l, ctx->h);
            poly1305_to44(ctx->h, l);
            for (int k = 0; k < 3; k++)
                a[k] = _mm512_maskz_set1_epi64(1, (long long)l[k]);
        }
    }
    if (blocks >= 8) {
        size_t steps = blocks / 8;
        step = broadcast_lane0(&fin8);   /* r^8 */
        for (; steps > 1; steps--, in += 128, blocks -= 8) {
            add_blocks(a, in);
            mul(a, &step);
        }
        add_blocks(a, in);
        mul(a, &fin8);
        in += 128;
        blocks -= 8;
    }
    for (int k = 0; k < 3; k++)
        sum[k] = (uint64_t)_mm512_reduce_add_epi64(a[k]);
    poly1305_from44(sum, ctx->h);
    poly1305_blocks_portable(ctx, in, blocks);
}
