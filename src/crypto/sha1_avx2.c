/* SHA-1 block transform for CPUs with AVX2 and BMI2 but no SHA-NI: the
 * message schedule in vector registers, the rounds in general-purpose
 * registers -- the design of sha256_avx2_1way.c.
 *
 * The schedule (W[16..79]) runs on the vector units, four words per
 * register, one step after every four rounds: over several blocks the rounds
 * of block i are interleaved, in the source, with the schedule of block i+1
 * (20 steps: 4 loads, 16 expansions); fewer than 8 blocks are done one at
 * a time, each scheduling itself three steps ahead of its rounds. FIPS
 * 180-4's W[t] = rol1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]) makes W[t+3]
 * depend on W[t], inside one step; steps 4-7 compute the four words with
 * that term left out and then put it into the last lane (rol1 distributes
 * over xor). From t = 32 on, the same
 * recurrence applied twice gives W[t] = rol2(W[t-6] ^ W[t-16] ^ W[t-28] ^
 * W[t-32]), whose terms are all at least six words back: four words at once
 * with nothing to mend. The ring of the last eight steps' registers holds
 * W[t-32..t-1].
 *
 * W+K is kept in one 80-word buffer, as in sha256_avx2_1way.c. The rounds use
 * BMI2 rorx, so dispatch requires BMI2 with AVX2; the vector instructions
 * are SSSE3, VEX-encoded under this file's flags. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <immintrin.h>

#include "crypto/common.h"
#include "crypto/variants.h"

static inline __m128i rol1x4(__m128i x)
{
    return _mm_or_si128(_mm_add_epi32(x, x), _mm_srli_epi32(x, 31));
}

static inline __m128i rol2x4(__m128i x)
{
    return _mm_or_si128(_mm_slli_epi32(x, 2), _mm_srli_epi32(x, 30));
}

/* Step s (0..19; larger s: nothing) of the schedule of the block at next:
 * words t = 4s..4s+3 into p[s % 8] and W+K into wk[t..t+3]. p[(s - k) % 8]
 * holds W[t-4k..t-4k+3]. */
#define SCHED(s) do { \
        __m128i w_; \
        if ((s) > 19) { \
            break; /* no such step: the lone block asks for steps up to 23 */ \
        } else if ((s) < 4) { \
            w_ = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(next + 16 * (s))), bswap); \
        } else if ((s) < 8) { \
            /* W[t-3..t-1] and a zero where W[t] goes, W[t-8..t-5], \
             * W[t-14..t-11], W[t-16..t-13]. */ \
            w_ = _mm_xor_si128(_mm_xor_si128(_mm_srli_si128(p[((s) - 1) & 7], 4), \
                                             p[((s) - 2) & 7]), \
                               _mm_xor_si128(_mm_alignr_epi8(p[((s) - 3) & 7], \
                                                             p[((s) - 4) & 7], 8), \
                                             p[((s) - 4) & 7])); \
            w_ = rol1x4(w_); \
            w_ = _mm_xor_si128(w_, rol1x4(_mm_slli_si128(w_, 12))); \
        } else { \
            /* W[t-6..t-3], W[t-16..t-13], W[t-28..t-25], W[t-32..t-29]. */ \
            w_ = _mm_xor_si128(_mm_xor_si128(_mm_alignr_epi8(p[((s) - 1) & 7], \
                                                             p[((s) - 2) & 7], 8), \
                                             p[((s) - 4) & 7]), \
                               _mm_xor_si128(p[((s) - 7) & 7], p[(s) & 7])); \
            w_ = rol2x4(w_); \
        } \
        p[(s) & 7] = w_; \
        _mm_storeu_si128((__m128i *)(wk + 4 * (s)), \
                         _mm_add_epi32(w_, _mm_set1_epi32((int)k[(s) / 5]))); \
    } while (0)

#define RND(a, b, c, d, e, F, i) SHA1_RND(a, b, c, d, e, F, wk[i])

/* Twenty rounds with function F from t, and schedule steps s..s+4 after
 * every fourth round; twenty rounds bring the names back to their places. */
#define ROUNDS20(t, F, s) do { \
        RND(a, b, c, d, e, F, (t)); RND(e, a, b, c, d, F, (t) + 1); \
        RND(d, e, a, b, c, F, (t) + 2); RND(c, d, e, a, b, F, (t) + 3); \
        SCHED(s); \
        RND(b, c, d, e, a, F, (t) + 4); RND(a, b, c, d, e, F, (t) + 5); \
        RND(e, a, b, c, d, F, (t) + 6); RND(d, e, a, b, c, F, (t) + 7); \
        SCHED((s) + 1); \
        RND(c, d, e, a, b, F, (t) + 8); RND(b, c, d, e, a, F, (t) + 9); \
        RND(a, b, c, d, e, F, (t) + 10); RND(e, a, b, c, d, F, (t) + 11); \
        SCHED((s) + 2); \
        RND(d, e, a, b, c, F, (t) + 12); RND(c, d, e, a, b, F, (t) + 13); \
        RND(b, c, d, e, a, F, (t) + 14); RND(a, b, c, d, e, F, (t) + 15); \
        SCHED((s) + 3); \
        RND(e, a, b, c, d, F, (t) + 16); RND(d, e, a, b, c, F, (t) + 17); \
        RND(c, d, e, a, b, F, (t) + 18); RND(b, c, d, e, a, F, (t) + 19); \
        SCHED((s) + 4); \
    } while (0)

#define SETUP \
    static const uint32_t k[4] = {0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6}; \
    const __m128i bswap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3); \
    uint32_t wk[80]; \
    __m128i p[8]

#define BLOCK(s0) do { \
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4]; \
        ROUNDS20(0, SHA1_CH, (s0)); \
        ROUNDS20(20, SHA1_PARITY, (s0) + 5); \
        ROUNDS20(40, SHA1_MAJ, (s0) + 10); \
        ROUNDS20(60, SHA1_PARITY, (s0) + 15); \
        state[0] += a; state[1] += b; state[2] += c; state[3] += d; state[4] += e; \
    } while (0)

/* One block with its own schedule, three steps (twelve rounds) ahead of the
 * rounds that read it: for a few blocks, the shorter path (see
 * sha256_avx2_1way.c). */
__attribute__((target("bmi2")))
static void sha1_one_block_avx2(uint32_t state[5], const unsigned char *next)
{
    SETUP;

    SCHED(0); SCHED(1); SCHED(2); SCHED(3);
    BLOCK(4);
}

__attribute__((target("bmi2")))
void sha1_transform_avx2(uint32_t state[5], const unsigned char *blocks, size_t n)
{
    SETUP;
    const unsigned char *next = blocks;

    /* Below about 8 blocks the pipeline's start costs more than it saves
     * (doc/crypto.md, "Short inputs"). */
    if (n < 8) {
        for (; n > 0; n--, blocks += 64)
            sha1_one_block_avx2(state, blocks);
        return;
    }
    /* The first block's schedule, on its own. */
    SCHED(0); SCHED(1); SCHED(2); SCHED(3); SCHED(4); SCHED(5); SCHED(6); SCHED(7);
    SCHED(8); SCHED(9); SCHED(10); SCHED(11); SCHED(12); SCHED(13); SCHED(14); SCHED(15);
    SCHED(16); SCHED(17); SCHED(18); SCHED(19);
    for (; n > 0; n--, blocks += 64) {
        /* The last block schedules itself again, unused, rather than read
         * past the end. */
        next = n > 1 ? blocks + 64 : blocks;
        BLOCK(0);
    }
}
