/* SHA-512 block transform for CPUs with AVX-512 (F, VL and BW: the file is
 * built with all three) and BMI2: the message schedule on the vector units
 * with single-instruction rotations, the rounds in general-purpose registers
 * arranged for a shorter dependency chain than sha512_avx2.c's.
 *
 * The rounds. FIPS 180-4 6.4.2 computes T1 = h + S1(e) + Ch(e,f,g) + K + W,
 * then e' = d + T1 and a' = T1 + S0(a) + Maj(a,b,c). Written that way, both
 * new words wait for all of T1 and then one more addition: with the
 * three-rotation S1 (3 cycles: rotations, then two xors) that is five
 * cycles a round along e, and as many along a. Here every addition that
 * does not depend on this round's e or a comes first:
 *     e' = (((d + h + K + W) + Ch(e,f,g)) + S1(e))
 * has S1(e) last (four cycles), and with Maj(a,b,c) = (b & c) + ((b^c) & a)
 * (where b and c agree the majority is their bit, elsewhere it is a's; the
 * two terms never share a bit, so + is |),
 *     a' = (((e' + ((b & c) - d)) + ((b^c) & a)) + S0(a))
 * has S0(a) last: four cycles from a to a' (a' also waits for e', so a
 * runs a few cycles behind e, at the same pace). b^c is the previous
 * round's a^b, carried in bc. The cost is about two more instructions a
 * round; measured, the shorter chain wins here, and loses when paired with
 * sha512_avx2.c's heavier schedule (see doc/crypto.md).
 *
 * The schedule. W[16..79] of the next block is computed two words per
 * 128-bit register during this block's rounds (as in sha512_avx2.c), one
 * step after every two rounds, so that its own chain (each pair needs the
 * one before it) stays off the rounds' path. vprorq makes a rotation one
 * instruction instead of three (and gcc folds each sigma's three terms
 * into one vpternlogq).
 *
 * The loop. The rounds run sixteen at a time: sixteen rounds bring the
 * working variables back to their names, and eight schedule steps bring
 * the ring of eight register pairs back to its start, so one copy of
 * sixteen rounds (plus one for the first sixteen, where the schedule loads
 * the next block rather than expanding it) serves all eighty: less than
 * half the code of sha512_avx2.c's fully unrolled block.
 *
 * W+K is kept in one 80-word buffer: step s writes words 2s and 2s+1 of the
 * next block just after the rounds that read those words of this block.
 * Fewer than four blocks go one at a time (sha512_one_block_avx512), which
 * skips the pipeline's start: a whole schedule before the first round. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <immintrin.h>

#include "crypto/common.h"
#include "crypto/impl.h"
#include "crypto/variants.h"

#define SIG0(x) _mm_xor_si128(_mm_xor_si128(_mm_ror_epi64(x, 1), _mm_ror_epi64(x, 8)), \
                              _mm_srli_epi64(x, 7))
#define SIG1(x) _mm_xor_si128(_mm_xor_si128(_mm_ror_epi64(x, 19), _mm_ror_epi64(x, 61)), \
                              _mm_srli_epi64(x, 6))

/* Schedule step j (0..7) of group g (0..4) for the next block: words
 * t = 16g + 2j and t + 1 into p[j], and W+K into wk[t..t+1]. Group 0 loads
 * and byte-swaps; groups 1-4 expand: W[t] = s1(W[t-2]) + W[t-7] +
 * s0(W[t-15]) + W[t-16], where W[t-7] and W[t-15] straddle two pairs. */
#define LOAD(j) do { \
        p[j] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(next + 16 * (j))), bswap); \
        _mm_storeu_si128((__m128i *)(wk + 2 * (j)), _mm_add_epi64(p[j], _mm_loadu_si128( \
                             (const __m128i *)(sha512_k + 2 * (j))))); \
    } while (0)
#define EXPAND(j) do { \
        __m128i w7_ = _mm_alignr_epi8(p[((j) - 3) & 7], p[((j) - 4) & 7], 8); \
        __m128i w15_ = _mm_alignr_epi8(p[((j) - 7) & 7], p[j], 8); \
        p[j] = _mm_add_epi64(SIG1(p[((j) - 1) & 7]), \
                             _mm_add_epi64(w7_, _mm_add_epi64(SIG0(w15_), p[j]))); \
        _mm_storeu_si128((__m128i *)(wk + 16 * g + 2 * (j)), \
                         _mm_add_epi64(p[j], _mm_loadu_si128( \
                             (const __m128i *)(sha512_k + 16 * g + 2 * (j))))); \
    } while (0)

#define NOSCHED(j) do { } while (0)
#define BSIG0(x) (rotr64(x, 28) ^ rotr64(x, 34) ^ rotr64(x, 39))
#define BSIG1(x) (rotr64(x, 14) ^ rotr64(x, 18) ^ rotr64(x, 41))

/* Round t of the group (W+K from wr[t]); the new e goes into d, the new a
 * into h, as the names rotate. */
#define ROUND(a, b, c, d, e, f, g, h, t) do { \
        uint64_t s1_ = BSIG1(e); \
        uint64_t n_ = (b & c) - d; \
        uint64_t ab_ = a ^ b; \
        h += wr[t]; \
        d += h; \
        d += g ^ (e & (f ^ g)); \
        d += s1_; \
        h = d + n_; \
        h += bc & a; \
        h += BSIG0(a); \
        bc = ab_; \
    } while (0)

/* Sixteen rounds with the eight schedule steps S(0..7) between them. */
#define ROUNDS16(S) do { \
        ROUND(a, b, c, d, e, f, gg, h, 0); ROUND(h, a, b, c, d, e, f, gg, 1); S(0); \
        ROUND(gg, h, a, b, c, d, e, f, 2); ROUND(f, gg, h, a, b, c, d, e, 3); S(1); \
        ROUND(e, f, gg, h, a, b, c, d, 4); ROUND(d, e, f, gg, h, a, b, c, 5); S(2); \
        ROUND(c, d, e, f, gg, h, a, b, 6); ROUND(b, c, d, e, f, gg, h, a, 7); S(3); \
        ROUND(a, b, c, d, e, f, gg, h, 8); ROUND(h, a, b, c, d, e, f, gg, 9); S(4); \
        ROUND(gg, h, a, b, c, d, e, f, 10); ROUND(f, gg, h, a, b, c, d, e, 11); S(5); \
        ROUND(e, f, gg, h, a, b, c, d, 12); ROUND(d, e, f, gg, h, a, b, c, 13); S(6); \
        ROUND(c, d, e, f, gg, h, a, b, 14); ROUND(b, c, d, e, f, gg, h, a, 15); S(7); \
    } while (0)

/* The first sixteen words, loaded; the next sixteen (group g), expanded. */
#define LOADS8 do { \
        LOAD(0); LOAD(1); LOAD(2); LOAD(3); LOAD(4); LOAD(5); LOAD(6); LOAD(7); \
    } while (0)
#define EXPANDS8 do { \
        EXPAND(0); EXPAND(1); EXPAND(2); EXPAND(3); \
        EXPAND(4); EXPAND(5); EXPAND(6); EXPAND(7); \
    } while (0)

#define LOAD_STATE \
    uint64_t a = state[0], b = state[1], c = state[2], d = state[3]; \
    uint64_t e = state[4], f = state[5], gg = state[6], h = state[7]; \
    uint64_t bc = b ^ c
#define ADD_STATE do { \
        state[0] += a; state[1] += b; state[2] += c; state[3] += d; \
        state[4] += e; state[5] += f; state[6] += gg; state[7] += h; \
    } while (0)

/* One block with its own schedule: words 16-31 before the first round,
 * then each group of sixteen during the rounds two groups before the ones
 * that read it. For up to three blocks this is the shorter path (the
 * pipelined loop below first computes a whole schedule); over many blocks
 * the loop is faster (doc/crypto.md, "Short inputs"). */
__attribute__((target("bmi2")))
static void sha512_one_block_avx512(uint64_t state[8], const unsigned char *next)
{
    const __m128i bswap = _mm_set_epi64x(0x08090a0b0c0d0e0fLL, 0x0001020304050607LL);
    uint64_t wk[80];
    __m128i p[8];
    LOAD_STATE;
    const uint64_t *wr;

    LOADS8;
    {
        const int g = 1;
        EXPANDS8;
    }
    for (int g = 2; g < 5; g++) {
        wr = wk + 16 * (g - 2);
        ROUNDS16(EXPAND);
    }
    for (int g = 3; g < 5; g++) {
        wr = wk + 16 * g;
        ROUNDS16(NOSCHED);
    }
    ADD_STATE;
}

__attribute__((target("bmi2")))
void sha512_transform_avx512(uint64_t state[8], const unsigned char *blocks, size_t n)
{
    const __m128i bswap = _mm_set_epi64x(0x08090a0b0c0d0e0fLL, 0x0001020304050607LL);
    uint64_t wk[80];
    const unsigned char *next = blocks;
    __m128i p[8];

    if (n < 4) {
        for (; n > 0; n--, blocks += 128)
            sha512_one_block_avx512(state, blocks);
        return;
    }
    /* The first block's schedule, on its own. */
    LOADS8;
    for (int g = 1; g < 5; g++)
        EXPANDS8;
    for (; n > 0; n--, blocks += 128) {
        LOAD_STATE;
        const uint64_t *wr = wk;

        /* The last block schedules itself again, unused, rather than read
         * past the end. */
        next = n > 1 ? blocks + 128 : blocks;
        ROUNDS16(LOAD);
        for (int g = 1; g < 5; g++) {
            wr = wk + 16 * g;
            ROUNDS16(EXPAND);
        }
        ADD_STATE;
    }
}
