/* SHA-256 block transform (and finish) for CPUs with AVX2 and BMI2 but no
 * SHA-NI: the message schedule in vector registers, the rounds in
 * general-purpose registers -- the design of sha512_avx2.c with 32-bit words.
 *
 * The schedule (W[16..63]) depends only on the message, so it runs on the
 * vector units beside the rounds, four words per register, one step after
 * every four rounds. Over several blocks the rounds of block i are
 * interleaved, in the source, with the schedule of block i+1 (16 steps: 4
 * loads, 12 expansions), so that its own dependency chain stays off the
 * rounds' path. Fewer than 16 blocks (the finish's case, and short
 * messages) are done one at a time, each scheduling itself three steps
 * ahead of the rounds that read it (sha256_one_block_avx2). A
 * step computes W[t..t+3] in two halves, since W[t+2] needs W[t]: sigma1 of
 * two words at a time, each word copied into both halves of a 64-bit lane so
 * that a 64-bit shift is a 32-bit rotation (AVX2 has no vector rotate).
 *
 * W+K is kept in one 64-word buffer: step s writes words 4s..4s+3 twelve
 * rounds before the rounds that read them (one block), or just after this
 * block's rounds have read them (pipelined: the next block's words).
 *
 * The rounds use BMI2 rorx (a rotate into a new register), so dispatch gives
 * the "avx2" variant this transform and finish only where BMI2 is usable
 * too (its 8-way sha256_d64 needs AVX2 alone). The vector instructions are
 * SSSE3, VEX-encoded under this file's flags. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <immintrin.h>

#include "crypto/common.h"
#include "crypto/impl.h"
#include "crypto/variants.h"

/* sigma0 of FIPS 180-4 (4.6) on four words: ror7 ^ ror18 ^ shr3. */
static inline __m128i ssig0(__m128i x)
{
    __m128i r7 = _mm_xor_si128(_mm_srli_epi32(x, 7), _mm_slli_epi32(x, 25));
    __m128i r18 = _mm_xor_si128(_mm_srli_epi32(x, 18), _mm_slli_epi32(x, 14));
    return _mm_xor_si128(_mm_xor_si128(r7, r18), _mm_srli_epi32(x, 3));
}
/* sigma1 (4.7: ror17 ^ ror19 ^ shr10) of words u and v given as {u, u, v, v}:
 * the results are in lanes 0 and 2 (lanes 1 and 3 hold junk). */
static inline __m128i ssig1_dup(__m128i d)
{
    return _mm_xor_si128(_mm_xor_si128(_mm_srli_epi64(d, 17), _mm_srli_epi64(d, 19)),
                         _mm_srli_epi32(d, 10));
}

/* Step s (0..15) of the schedule of the block at next: words t = 4s..4s+3
 * into p[s % 4] and W+K into wk[t..t+3]. Steps 0-3 load and byte-swap;
 * steps 4-15 expand W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16]:
 * p[s % 4] holds W[t-16..t-13], the next three registers the words after,
 * W[t-15..t-12] and W[t-7..t-4] straddle two of them. s is a constant
 * everywhere, so p lives in registers. */
#define SCHED(s) do { \
        __m128i w_; \
        if ((s) > 15) { \
            break; /* no such step: ROUNDS8 asks for steps up to 19 */ \
        } else if ((s) < 4) { \
            w_ = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(next + 16 * (s))), bswap); \
        } else { \
            __m128i w15_ = _mm_alignr_epi8(p[((s) + 1) & 3], p[(s) & 3], 4); \
            __m128i w7_ = _mm_alignr_epi8(p[((s) + 3) & 3], p[((s) + 2) & 3], 4); \
            __m128i base_ = _mm_add_epi32(_mm_add_epi32(p[(s) & 3], w7_), ssig0(w15_)); \
            __m128i lo_ = _mm_add_epi32(base_, _mm_shuffle_epi8( \
                ssig1_dup(_mm_shuffle_epi32(p[((s) + 3) & 3], 0xfa)), to_lo)); \
            w_ = _mm_add_epi32(lo_, _mm_shuffle_epi8( \
                ssig1_dup(_mm_shuffle_epi32(lo_, 0x50)), to_hi)); \
        } \
        p[(s) & 3] = w_; \
        _mm_storeu_si128((__m128i *)(wk + 4 * (s)), _mm_add_epi32(w_, _mm_loadu_si128( \
                             (const __m128i *)(sha256_k + 4 * (s))))); \
    } while (0)

#define BSIG0(x) (rotr32(x, 2) ^ rotr32(x, 13) ^ rotr32(x, 22))
#define BSIG1(x) (rotr32(x, 6) ^ rotr32(x, 11) ^ rotr32(x, 25))
/* Rounds by common.h's SHA2_RND, reading W+K from wk. */
#define CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define RND(a, b, c, d, e, f, g, h, i, ab, bc) \
    SHA2_RND(uint32_t, a, b, c, d, e, f, g, h, wk[i], ab, bc)

/* Four rounds, schedule step s1, four more rounds, step s2. */
#define ROUNDS8(i, s1, s2) do { \
        RND(a, b, c, d, e, f, g, h, (i), x, y); \
        RND(h, a, b, c, d, e, f, g, (i) + 1, y, x); \
        RND(g, h, a, b, c, d, e, f, (i) + 2, x, y); \
        RND(f, g, h, a, b, c, d, e, (i) + 3, y, x); \
        SCHED(s1); \
        RND(e, f, g, h, a, b, c, d, (i) + 4, x, y); \
        RND(d, e, f, g, h, a, b, c, (i) + 5, y, x); \
        RND(c, d, e, f, g, h, a, b, (i) + 6, x, y); \
        RND(b, c, d, e, f, g, h, a, (i) + 7, y, x); \
        SCHED(s2); \
    } while (0)

#define SHUFFLES \
    const __m128i bswap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3); \
    const __m128i to_lo = _mm_set_epi8(-1, -1, -1, -1, -1, -1, -1, -1, 11, 10, 9, 8, 3, 2, 1, 0); \
    const __m128i to_hi = _mm_set_epi8(11, 10, 9, 8, 3, 2, 1, 0, -1, -1, -1, -1, -1, -1, -1, -1)

#define LOAD_STATE \
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3]; \
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7]; \
    uint32_t x, y = b ^ c
#define ADD_STATE do { \
        state[0] += a; state[1] += b; state[2] += c; state[3] += d; \
        state[4] += e; state[5] += f; state[6] += g; state[7] += h; \
    } while (0)

/* One block with its own schedule, three steps (twelve rounds) ahead of the
 * rounds that read it. For a few blocks this is the shorter path: the
 * pipelined loop below first computes a whole schedule on its own (and
 * schedules its last block twice); over many blocks the loop is faster
 * (doc/crypto.md, "Short inputs"). */
__attribute__((target("bmi2")))
static void sha256_one_block_avx2(uint32_t state[8], const unsigned char *next)
{
    SHUFFLES;
    uint32_t wk[64];
    __m128i p[4];
    LOAD_STATE;

    SCHED(0); SCHED(1); SCHED(2); SCHED(3);
    ROUNDS8(0, 4, 5); ROUNDS8(8, 6, 7); ROUNDS8(16, 8, 9); ROUNDS8(24, 10, 11);
    ROUNDS8(32, 12, 13); ROUNDS8(40, 14, 15); ROUNDS8(48, 16, 17); ROUNDS8(56, 18, 19);
    ADD_STATE;
}

__attribute__((target("bmi2")))
void sha256_transform_avx2(uint32_t state[8], const unsigned char *blocks, size_t n)
{
    SHUFFLES;
    uint32_t wk[64];
    const unsigned char *next = blocks;
    __m128i p[4];

    /* Below about 16 blocks the pipeline's start (a whole schedule before any
     * round) costs more than it saves (doc/crypto.md, "Short inputs"). */
    if (n < 16) {
        for (; n > 0; n--, blocks += 64)
            sha256_one_block_avx2(state, blocks);
        return;
    }
    /* The first block's schedule, on its own. */
    SCHED(0); SCHED(1); SCHED(2); SCHED(3);
    SCHED(4); SCHED(5); SCHED(6); SCHED(7); SCHED(8); SCHED(9); SCHED(10); SCHED(11);
    SCHED(12); SCHED(13); SCHED(14); SCHED(15);
    for (; n > 0; n--, blocks += 64) {
        LOAD_STATE;

        /* The last block schedules itself again, unused, rather than read
         * past the end. */
        next = n > 1 ? blocks + 64 : blocks;
        ROUNDS8(0, 0, 1); ROUNDS8(8, 2, 3); ROUNDS8(16, 4, 5); ROUNDS8(24, 6, 7);
        ROUNDS8(32, 8, 9); ROUNDS8(40, 10, 11); ROUNDS8(48, 12, 13); ROUNDS8(56, 14, 15);
        ADD_STATE;
    }
}

static void blocks_avx2(void *state, const unsigned char *p, size_t n)
{
    sha256_transform_avx2(state, p, n);
}

void sha256_finish_avx2(uint32_t state[8], unsigned char buf[64], uint64_t bytes,
                        unsigned char *out)
{
    md_finish_be32(state, 8, buf, bytes, blocks_avx2, out);
}
