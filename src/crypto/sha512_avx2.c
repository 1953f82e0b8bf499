/* SHA-512 block transform: the message schedule in vector registers, the
 * rounds in general-purpose registers, software-pipelined.
 *
 * A SHA-512 round is a serial chain of 64-bit operations with no data
 * parallelism to give SIMD, and the portable code spends most of its time
 * waiting on that chain. The schedule (W[16..79]) depends only on the
 * message, so it can run on the vector units beside the rounds, two words
 * per 128-bit register -- but only if it is not itself on the critical path.
 * Computed before the rounds of its block, its own dependency chain would
 * simply add to theirs (measured: slower than the portable code). So the
 * rounds of block i are interleaved, in the source, with the schedule of
 * block i+1: one schedule step after every two rounds, 40 steps in all (8
 * loads, 32 expansions), written into the other half of a double buffer.
 * Fewer than 32 blocks go one at a time instead, each block's schedule
 * eight steps ahead of its own rounds (sha512_one_block_avx2), which skips
 * the pipeline's start: a whole schedule before the first round.
 *
 * The rounds are compiled for BMI2 as well (rorx: a rotate into a new
 * register, sparing a move per rotation), so dispatch requires both AVX2 and
 * BMI2 for this variant; every AVX2 CPU so far has BMI2. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <immintrin.h>

#include "crypto/common.h"
#include "crypto/impl.h"
#include "crypto/variants.h"

static inline __m128i rotr2x64(__m128i x, int n)
{
    return _mm_or_si128(_mm_srli_epi64(x, n), _mm_slli_epi64(x, 64 - n));
}

/* sigma0 and sigma1 of FIPS 180-4 (4.12, 4.13), two words at a time. */
static inline __m128i sig0(__m128i x)
{
    return _mm_xor_si128(_mm_xor_si128(rotr2x64(x, 1), rotr2x64(x, 8)), _mm_srli_epi64(x, 7));
}

static inline __m128i sig1(__m128i x)
{
    return _mm_xor_si128(_mm_xor_si128(rotr2x64(x, 19), rotr2x64(x, 61)),
                         _mm_srli_epi64(x, 6));
}

/* Step s (0..39) of the schedule of the block at next, into wk: steps 0-7
 * load and byte-swap two words each, steps 8-39 expand two words each:
 * W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16] for t = 2s, 2s+1, where
 * W[t-7] and W[t-15] straddle two stored pairs. p[s % 8] holds the pair of
 * step s; s is a constant everywhere, so p lives in registers. */
#define SCHED(s) do { \
        __m128i w_; \
        if ((s) > 39) { \
            break; /* no such step: the lone block asks for steps up to 47 */ \
        } else if ((s) < 8) { \
            w_ = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(next + 16 * (s))), \
                                  bswap); \
        } else { \
            __m128i w7_ = _mm_alignr_epi8(p[((s) - 3) & 7], p[((s) - 4) & 7], 8); \
            __m128i w15_ = _mm_alignr_epi8(p[((s) - 7) & 7], p[(s) & 7], 8); \
            w_ = _mm_add_epi64(_mm_add_epi64(sig1(p[((s) - 1) & 7]), w7_), \
                               _mm_add_epi64(sig0(w15_), p[(s) & 7])); \
        } \
        p[(s) & 7] = w_; \
        _mm_storeu_si128((__m128i *)(wkn + 2 * (s)), _mm_add_epi64(w_, _mm_loadu_si128( \
                             (const __m128i *)(sha512_k + 2 * (s))))); \
    } while (0)

#define BSIG0(x) (rotr64(x, 28) ^ rotr64(x, 34) ^ rotr64(x, 39))
#define BSIG1(x) (rotr64(x, 14) ^ rotr64(x, 18) ^ rotr64(x, 41))

/* One round, reading W+K from wkc. Maj(a,b,c) = ((a^b) & (b^c)) ^ b, and
 * this round's a^b is the next round's b^c: bc carries it over. */
#define ROUND(a, b, c, d, e, f, g, h, i) do { \
        uint64_t t1_ = h + wkc[i] + (g ^ (e & (f ^ g))) + BSIG1(e); \
        uint64_t ab_ = a ^ b; \
        uint64_t t2_ = BSIG0(a) + ((ab_ & bc) ^ b); \
        bc = ab_; \
        d += t1_; \
        h = t1_ + t2_; \
    } while (0)

/* Eight rounds and four schedule steps, i / 2 + ahead to i / 2 + ahead + 3. */
#define ROUNDS8(i, ahead) do { \
        ROUND(a, b, c, d, e, f, g, h, (i)); \
        ROUND(h, a, b, c, d, e, f, g, (i) + 1); \
        SCHED((i) / 2 + (ahead)); \
        ROUND(g, h, a, b, c, d, e, f, (i) + 2); \
        ROUND(f, g, h, a, b, c, d, e, (i) + 3); \
        SCHED((i) / 2 + (ahead) + 1); \
        ROUND(e, f, g, h, a, b, c, d, (i) + 4); \
        ROUND(d, e, f, g, h, a, b, c, (i) + 5); \
        SCHED((i) / 2 + (ahead) + 2); \
        ROUND(c, d, e, f, g, h, a, b, (i) + 6); \
        ROUND(b, c, d, e, f, g, h, a, (i) + 7); \
        SCHED((i) / 2 + (ahead) + 3); \
    } while (0)

/* Eighty rounds, schedule steps ahead steps in front of them. */
#define BLOCK(ahead) do { \
        uint64_t a = state[0], b = state[1], c = state[2], d = state[3]; \
        uint64_t e = state[4], f = state[5], g = state[6], h = state[7]; \
        uint64_t bc = b ^ c; \
        ROUNDS8(0, ahead); ROUNDS8(8, ahead); ROUNDS8(16, ahead); ROUNDS8(24, ahead); \
        ROUNDS8(32, ahead); ROUNDS8(40, ahead); ROUNDS8(48, ahead); ROUNDS8(56, ahead); \
        ROUNDS8(64, ahead); ROUNDS8(72, ahead); \
        state[0] += a; state[1] += b; state[2] += c; state[3] += d; \
        state[4] += e; state[5] += f; state[6] += g; state[7] += h; \
    } while (0)

/* One block with its own schedule, eight steps (sixteen rounds) ahead of
 * the rounds that read it. For a few blocks this is the shorter path: the
 * pipelined loop below first computes a whole schedule, whose chain no
 * round overlaps (on one block it was slower than the portable code). Over
 * many blocks the two measured the same on Zen 5; the pipeline is kept for
 * long inputs, where it never lost (doc/crypto.md, "Short inputs"). */
__attribute__((target("bmi2")))
static void sha512_one_block_avx2(uint64_t state[8], const unsigned char *next)
{
    const __m128i bswap = _mm_set_epi64x(0x08090a0b0c0d0e0fLL, 0x0001020304050607LL);
    uint64_t wk[80];
    uint64_t *wkc = wk, *wkn = wk;
    __m128i p[8];

    SCHED(0); SCHED(1); SCHED(2); SCHED(3); SCHED(4); SCHED(5); SCHED(6); SCHED(7);
    BLOCK(8);
}

/* Below this many blocks, one at a time. */
#define SHA512_AVX2_PIPELINE 32

__attribute__((target("bmi2")))
void sha512_transform_avx2(uint64_t state[8], const unsigned char *blocks, size_t n)
{
    const __m128i bswap = _mm_set_epi64x(0x08090a0b0c0d0e0fLL, 0x0001020304050607LL);
    uint64_t wk[2][80];
    uint64_t *wkc = wk[0], *wkn = wk[0];
    const unsigned char *next = blocks;
    __m128i p[8];

    if (n < SHA512_AVX2_PIPELINE) {
        for (; n > 0; n--, blocks += 128)
            sha512_one_block_avx2(state, blocks);
        return;
    }
    /* The first block's schedule, on its own. */
    SCHED(0); SCHED(1); SCHED(2); SCHED(3); SCHED(4); SCHED(5); SCHED(6); SCHED(7);
    for (int s = 8; s < 40; s++)
        SCHED(s);
    for (; n > 0; n--, blocks += 128) {
        /* The last block schedules itself again, unused, rather than read
         * past the end. */
        next = n > 1 ? blocks + 128 : blocks;
        wkc = wkn;
        wkn = wkc == wk[0] ? wk[1] : wk[0];
        BLOCK(0);
    }
}
