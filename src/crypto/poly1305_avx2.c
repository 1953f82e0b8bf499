/* Poly1305 blocks with AVX2, radix 2^26: four blocks a step, one in each 64-bit lane of
 * five vectors (one limb each), every lane multiplied by r^4 per step; after the last step
 * lane by lane by r^4, r^3, r^2, r^1 (the power that block still owes), and the lanes
 * summed. The products are vpmuludq's 32x32->64; the powers of r are computed once per key
 * and kept in the context (powers_of 1). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <immintrin.h>

#include "crypto/poly1305_impl.h"

#define POWERS_ID 1
/* ctx->powers: limb k (0..4) of the final multipliers at [4k ..], lane by lane, and five
 * times limbs 1..4 at [20 + 4(k - 1) ..]. Lane order is the loads' (below): blocks 0, 2, 1,
 * 3 of a step, so the multipliers are r^4, r^2, r^3, r^1. */
#define P_LIMB(k) (4 * (k))
#define P_FIVE(k) (20 + 4 * ((k) - 1))

/* a * b lane by lane, b's limbs in b[0..4] and five times limbs 1..4 in f[1..4]; a's limbs
 * below 2^32. The carries leave every limb below 2^26 but 1 and 4 (a little above). */
static inline void mul(__m256i a[5], const __m256i b[5], const __m256i f[5])
{
    const __m256i m = _mm256_set1_epi64x(0x3ffffff);
    __m256i d0, d1, d2, d3, d4, c;
#define MUL(x, y) _mm256_mul_epu32(x, y)
#define ADD(x, y) _mm256_add_epi64(x, y)
    d0 = ADD(ADD(MUL(a[0], b[0]), MUL(a[1], f[4])),
             ADD(ADD(MUL(a[2], f[3]), MUL(a[3], f[2])), MUL(a[4], f[1])));
    d1 = ADD(ADD(MUL(a[0], b[1]), MUL(a[1], b[0])),
             ADD(ADD(MUL(a[2], f[4]), MUL(a[3], f[3])), MUL(a[4], f[2])));
    d2 = ADD(ADD(MUL(a[0], b[2]), MUL(a[1], b[1])),
             ADD(ADD(MUL(a[2], b[0]), MUL(a[3], f[4])), MUL(a[4], f[3])));
    d3 = ADD(ADD(MUL(a[0], b[3]), MUL(a[1], b[2])),
             ADD(ADD(MUL(a[2], b[1]), MUL(a[3], b[0])), MUL(a[4], f[4])));
    d4 = ADD(ADD(MUL(a[0], b[4]), MUL(a[1], b[3])),
             ADD(ADD(MUL(a[2], b[2]), MUL(a[3], b[1])), MUL(a[4], b[0])));
    /* two carry chains side by side: 0 -> 1 -> 2 -> 3 and 3 -> 4 -> 0 -> 1 */
    c = _mm256_srli_epi64(d3, 26); d3 = _mm256_and_si256(d3, m); d4 = ADD(d4, c);
    c = _mm256_srli_epi64(d0, 26); d0 = _mm256_and_si256(d0, m); d1 = ADD(d1, c);
    c = _mm256_srli_epi64(d4, 26); d4 = _mm256_and_si256(d4, m);
    d0 = ADD(d0, ADD(c, _mm256_slli_epi64(c, 2)));
    c = _mm256_srli_epi64(d1, 26); d1 = _mm256_and_si256(d1, m); d2 = ADD(d2, c);
    c = _mm256_srli_epi64(d2, 26); d2 = _mm256_and_si256(d2, m); d3 = ADD(d3, c);
    c = _mm256_srli_epi64(d0, 26); d0 = _mm256_and_si256(d0, m); d1 = ADD(d1, c);
    c = _mm256_srli_epi64(d3, 26); d3 = _mm256_and_si256(d3, m); d4 = ADD(d4, c);
#undef MUL
#undef ADD
    a[0] = d0; a[1] = d1; a[2] = d2; a[3] = d3; a[4] = d4;
}

/* a += four blocks at in, with their 2^128 bits: lanes hold blocks 0, 2, 1, 3. */
static inline void add_blocks(__m256i a[5], const unsigned char *in)
{
    const __m256i m = _mm256_set1_epi64x(0x3ffffff);
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)in);
    __m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(in + 32));
    __m256i lo = _mm256_unpacklo_epi64(x, y), hi = _mm256_unpackhi_epi64(x, y);
    a[0] = _mm256_add_epi64(a[0], _mm256_and_si256(lo, m));
    a[1] = _mm256_add_epi64(a[1], _mm256_and_si256(_mm256_srli_epi64(lo, 26), m));
    a[2] = _mm256_add_epi64(a[2], _mm256_and_si256(
        _mm256_or_si256(_mm256_srli_epi64(lo, 52), _mm256_slli_epi64(hi, 12)), m));
    a[3] = _mm256_add_epi64(a[3], _mm256_and_si256(_mm256_srli_epi64(hi, 14), m));
    a[4] = _mm256_add_epi64(a[4], _mm256_or_si256(_mm256_srli_epi64(hi, 40),
                                                  _mm256_set1_epi64x(1 << 24)));
}

/* r^1 .. r^4 from r in two vector multiplies (lane k holding r^(k+1) after them), then
 * permuted into the lane order above; the limbs partly reduced, as mul leaves them. */
static void make_powers(poly1305_ctx *ctx)
{
    const uint64_t rr[3] = {ctx->r[0], ctx->r[1], 0};
    const __m256i zero = _mm256_setzero_si256();
    uint32_t l[5];
    __m256i v[5], b[5], f[5];
    poly1305_to26(rr, l);
    for (int k = 0; k < 5; k++)
        v[k] = _mm256_set1_epi64x(l[k]);
    /* times (1, r, 1, r): r, r^2 (vpblendd's mask is of 32-bit lanes) */
    for (int k = 0; k < 5; k++) {
        b[k] = _mm256_blend_epi32(k == 0 ? _mm256_set1_epi64x(1) : zero, v[k], 0xcc);
        f[k] = _mm256_add_epi64(b[k], _mm256_slli_epi64(b[k], 2));
    }
    mul(v, b, f);
    /* times (1, 1, r^2, r^2): r .. r^4 */
    for (int k = 0; k < 5; k++) {
        b[k] = _mm256_blend_epi32(k == 0 ? _mm256_set1_epi64x(1) : zero,
                                  _mm256_permute4x64_epi64(v[k], 0x55), 0xf0);
        f[k] = _mm256_add_epi64(b[k], _mm256_slli_epi64(b[k], 2));
    }
    mul(v, b, f);
    for (int k = 0; k < 5; k++) {
        __m256i x = _mm256_permute4x64_epi64(v[k], 0x27);   /* r^4, r^2, r^3, r^1 */
        _mm256_storeu_si256((__m256i *)(void *)&ctx->powers[P_LIMB(k)], x);
        if (k > 0)
            _mm256_storeu_si256((__m256i *)(void *)&ctx->powers[P_FIVE(k)],
                                _mm256_add_epi64(x, _mm256_slli_epi64(x, 2)));
    }
    ctx->powers_of = POWERS_ID;
}

void poly1305_blocks_avx2(poly1305_ctx *ctx, const unsigned char *in, size_t blocks)
{
    __m256i a[5], b[5], f[5], fin[5], finf[5];
    uint32_t l[5];
    uint64_t sum[5];
    size_t steps;

    /* below these the portable code is as fast (powers cached, or made first) */
    if (blocks < (ctx->powers_of == POWERS_ID ? 12u : 24u)) {
        poly1305_blocks_portable(ctx, in, blocks);
        return;
    }
    if (ctx->powers_of != POWERS_ID)
        make_powers(ctx);
    for (int k = 0; k < 5; k++) {
        fin[k] = _mm256_loadu_si256((const __m256i *)(const void *)&ctx->powers[P_LIMB(k)]);
        b[k] = _mm256_set1_epi64x((long long)ctx->powers[P_LIMB(k)]);   /* lane 0: r^4 */
    }
    finf[0] = f[0] = _mm256_setzero_si256();
    for (int k = 1; k < 5; k++) {
        finf[k] = _mm256_loadu_si256((const __m256i *)(const void *)&ctx->powers[P_FIVE(k)]);
        f[k] = _mm256_set1_epi64x((long long)ctx->powers[P_FIVE(k)]);
    }
    poly1305_to26(ctx->h, l);
    for (int k = 0; k < 5; k++)
        a[k] = _mm256_set_epi64x(0, 0, 0, l[k]);   /* h joins block 0's lane */

    for (steps = blocks / 4; steps > 1; steps--, in += 64) {
        add_blocks(a, in);
        mul(a, b, f);
    }
    add_blocks(a, in);
    mul(a, fin, finf);
    in += 64;

    for (int k = 0; k < 5; k++) {
        __m128i s = _mm_add_epi64(_mm256_castsi256_si128(a[k]), _mm256_extracti128_si256(a[k], 1));
        sum[k] = (uint64_t)_mm_cvtsi128_si64(s) + (uint64_t)_mm_extract_epi64(s, 1);
    }
    poly1305_from26(sum, ctx->h);
    poly1305_blocks_portable(ctx, in, blocks % 4);
}
