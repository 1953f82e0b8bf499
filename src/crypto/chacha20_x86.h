/* Internal to the crypto library: ChaCha20 block code shared by the x86
 * variants (chacha20_sse41.c, chacha20_avx2.c, chacha20_avx512.c), each of
 * which includes this file once, compiled with its own flags. The includer
 * defines CHACHA_X86_256 for the 8-block code (AVX2), and may define
 * CHACHA_X86_OWN_ROTATE and its own
 *
 *     static inline __m128i chacha_rotl128(__m128i v, int n);
 *     static inline __m256i chacha_rotl256(__m256i v, int n);
 *
 * (a left rotation of each 32-bit lane by n, n being 16, 12, 8 or 7); by
 * default they are SSSE3/AVX2 byte shuffles for 16 and 8, two shifts and an
 * or for 12 and 7.
 *
 * Several blocks at once, transposed: vector i holds word i of each block,
 * one block a lane, so the quarter-rounds are plain lane-wise arithmetic; the
 * words are transposed back into blocks at the end. Every function writes
 * whole blocks (XORed with in when in is not NULL) and advances the counter
 * in state, as chacha20_impl.h says.
 *
 * The last one to three blocks of a call go to the portable code, and so does
 * a call of one block (a FastRandom refill): one block in vector registers,
 * its four rows in four registers, is a chain of 80 dependent add-xor-rotate
 * steps, each slower in vector units than in the general registers, where the
 * four columns' chains also run side by side (doc/crypto.md has the figures). */
#ifndef CRYPTO_CHACHA20_X86_H
#define CRYPTO_CHACHA20_X86_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/chacha20_impl.h"

#ifndef CHACHA_X86_OWN_ROTATE
static inline __m128i chacha_rotl128(__m128i v, int n)
{
    if (n == 16)
        return _mm_shuffle_epi8(v, _mm_set_epi8(13, 12, 15, 14, 9, 8, 11, 10,
                                                5, 4, 7, 6, 1, 0, 3, 2));
    if (n == 8)
        return _mm_shuffle_epi8(v, _mm_set_epi8(14, 13, 12, 15, 10, 9, 8, 11,
                                                6, 5, 4, 7, 2, 1, 0, 3));
    return _mm_or_si128(_mm_slli_epi32(v, n), _mm_srli_epi32(v, 32 - n));
}

#ifdef CHACHA_X86_256
static inline __m256i chacha_rotl256(__m256i v, int n)
{
    if (n == 16)
        return _mm256_shuffle_epi8(v, _mm256_set_epi8(13, 12, 15, 14, 9, 8, 11, 10,
                                                      5, 4, 7, 6, 1, 0, 3, 2,
                                                      13, 12, 15, 14, 9, 8, 11, 10,
                                                      5, 4, 7, 6, 1, 0, 3, 2));
    if (n == 8)
        return _mm256_shuffle_epi8(v, _mm256_set_epi8(14, 13, 12, 15, 10, 9, 8, 11,
                                                      6, 5, 4, 7, 2, 1, 0, 3,
                                                      14, 13, 12, 15, 10, 9, 8, 11,
                                                      6, 5, 4, 7, 2, 1, 0, 3));
    return _mm256_or_si256(_mm256_slli_epi32(v, n), _mm256_srli_epi32(v, 32 - n));
}
#endif
#endif

/* One quarter-round and a double round (columns, then diagonals) on any
 * vector type, given its add, xor and rotate. */
#define CHACHA_QR(ADD, XOR, ROT, a, b, c, d) \
    do { \
        a = ADD(a, b); d = ROT(XOR(d, a), 16); \
        c = ADD(c, d); b = ROT(XOR(b, c), 12); \
        a = ADD(a, b); d = ROT(XOR(d, a), 8); \
        c = ADD(c, d); b = ROT(XOR(b, c), 7); \
    } while (0)

#define CHACHA_DOUBLE_ROUND(ADD, XOR, ROT, x) \
    do { \
        CHACHA_QR(ADD, XOR, ROT, x[0], x[4], x[8], x[12]); \
        CHACHA_QR(ADD, XOR, ROT, x[1], x[5], x[9], x[13]); \
        CHACHA_QR(ADD, XOR, ROT, x[2], x[6], x[10], x[14]); \
        CHACHA_QR(ADD, XOR, ROT, x[3], x[7], x[11], x[15]); \
        CHACHA_QR(ADD, XOR, ROT, x[0], x[5], x[10], x[15]); \
        CHACHA_QR(ADD, XOR, ROT, x[1], x[6], x[11], x[12]); \
        CHACHA_QR(ADD, XOR, ROT, x[2], x[7], x[8], x[13]); \
        CHACHA_QR(ADD, XOR, ROT, x[3], x[4], x[9], x[14]); \
    } while (0)

/* Words 12 and 13 of n consecutive blocks from the state's 64-bit counter,
 * and the counter moved on by n. */
static inline void chacha_x86_counters(const uint32_t state[16], uint32_t *lo, uint32_t *hi,
                                       unsigned n)
{
    uint64_t c = (uint64_t)state[13] << 32 | state[12];
    for (unsigned i = 0; i < n; i++) {
        lo[i] = (uint32_t)(c + i);
        hi[i] = (uint32_t)((c + i) >> 32);
    }
}

static inline void chacha_x86_advance(uint32_t state[16], unsigned n)
{
    uint64_t c = ((uint64_t)state[13] << 32 | state[12]) + n;
    state[12] = (uint32_t)c;
    state[13] = (uint32_t)(c >> 32);
}

/* Stores v (XORed with in's 16 bytes at the same offset when in is set). */
static inline void chacha_x86_store128(unsigned char *out, const unsigned char *in, size_t at,
                                       __m128i v)
{
    if (in)
        v = _mm_xor_si128(v, _mm_loadu_si128((const __m128i *)(const void *)(in + at)));
    _mm_storeu_si128((__m128i *)(void *)(out + at), v);
}

#define CHACHA_ADD128(a, b) _mm_add_epi32(a, b)
#define CHACHA_XOR128(a, b) _mm_xor_si128(a, b)

/* 4x4 transpose of 32-bit words within each 128-bit lane: row j of the
 * result holds lane j of a, b, c, d. Works lane by lane on wider vectors. */
#define CHACHA_TRANSPOSE4(W, a, b, c, d) \
    do { \
        W t0 = UNPACKLO32(a, b), t1 = UNPACKHI32(a, b); \
        W t2 = UNPACKLO32(c, d), t3 = UNPACKHI32(c, d); \
        a = UNPACKLO64(t0, t2); \
        b = UNPACKHI64(t0, t2); \
        c = UNPACKLO64(t1, t3); \
        d = UNPACKHI64(t1, t3); \
    } while (0)

/* Four blocks, transposed across 16 registers. */
static inline void chacha_x86_4blocks(uint32_t state[16], unsigned char *out,
                                      const unsigned char *in)
{
    __m128i x[16], s[16];
    uint32_t lo[4], hi[4];
    chacha_x86_counters(state, lo, hi, 4);
    for (int i = 0; i < 16; i++)
        s[i] = _mm_set1_epi32((int)state[i]);
    s[12] = _mm_loadu_si128((const __m128i *)(const void *)lo);
    s[13] = _mm_loadu_si128((const __m128i *)(const void *)hi);
    for (int i = 0; i < 16; i++)
        x[i] = s[i];
    for (int i = 0; i < 10; i++)
        CHACHA_DOUBLE_ROUND(CHACHA_ADD128, CHACHA_XOR128, chacha_rotl128, x);
    for (int i = 0; i < 16; i++)
        x[i] = _mm_add_epi32(x[i], s[i]);
#define UNPACKLO32 _mm_unpacklo_epi32
#define UNPACKHI32 _mm_unpackhi_epi32
#define UNPACKLO64 _mm_unpacklo_epi64
#define UNPACKHI64 _mm_unpackhi_epi64
    for (int g = 0; g < 4; g++) {
        CHACHA_TRANSPOSE4(__m128i, x[4 * g], x[4 * g + 1], x[4 * g + 2], x[4 * g + 3]);
        for (int j = 0; j < 4; j++)
            chacha_x86_store128(out, in, (size_t)(64 * j + 16 * g), x[4 * g + j]);
    }
#undef UNPACKLO32
#undef UNPACKHI32
#undef UNPACKLO64
#undef UNPACKHI64
    chacha_x86_advance(state, 4);
}

/* Any number of blocks: four at a time, the rest by the portable code. */
static inline void chacha_x86_from4(uint32_t state[16], unsigned char *out,
                                    const unsigned char *in, size_t blocks)
{
    for (; blocks >= 4; blocks -= 4) {
        chacha_x86_4blocks(state, out, in);
        out += 256;
        if (in)
            in += 256;
    }
    if (blocks > 0)
        chacha20_blocks_portable(state, out, in, blocks);
}

#ifdef CHACHA_X86_256
static inline void chacha_x86_store256(unsigned char *out, const unsigned char *in, size_t at,
                                       __m256i v)
{
    if (in)
        v = _mm256_xor_si256(v, _mm256_loadu_si256((const __m256i *)(const void *)(in + at)));
    _mm256_storeu_si256((__m256i *)(void *)(out + at), v);
}

#define CHACHA_ADD256(a, b) _mm256_add_epi32(a, b)
#define CHACHA_XOR256(a, b) _mm256_xor_si256(a, b)

/* Eight blocks, transposed across 16 registers. After the in-lane 4x4
 * transposes, x[4g + j] holds words 4g..4g+3 of block j in its low half and
 * of block j + 4 in its high half. */
static inline void chacha_x86_8blocks(uint32_t state[16], unsigned char *out,
                                      const unsigned char *in)
{
    __m256i x[16], s[16];
    uint32_t lo[8], hi[8];
    chacha_x86_counters(state, lo, hi, 8);
    for (int i = 0; i < 16; i++)
        s[i] = _mm256_set1_epi32((int)state[i]);
    s[12] = _mm256_loadu_si256((const __m256i *)(const void *)lo);
    s[13] = _mm256_loadu_si256((const __m256i *)(const void *)hi);
    for (int i = 0; i < 16; i++)
        x[i] = s[i];
    for (int i = 0; i < 10; i++)
        CHACHA_DOUBLE_ROUND(CHACHA_ADD256, CHACHA_XOR256, chacha_rotl256, x);
    for (int i = 0; i < 16; i++)
        x[i] = _mm256_add_epi32(x[i], s[i]);
#define UNPACKLO32 _mm256_unpacklo_epi32
#define UNPACKHI32 _mm256_unpackhi_epi32
#define UNPACKLO64 _mm256_unpacklo_epi64
#define UNPACKHI64 _mm256_unpackhi_epi64
    for (int g = 0; g < 4; g++)
        CHACHA_TRANSPOSE4(__m256i, x[4 * g], x[4 * g + 1], x[4 * g + 2], x[4 * g + 3]);
#undef UNPACKLO32
#undef UNPACKHI32
#undef UNPACKLO64
#undef UNPACKHI64
    for (int h = 0; h < 2; h++) {           /* words 0-7, then 8-15 */
        for (int j = 0; j < 4; j++) {
            __m256i a = x[8 * h + j], b = x[8 * h + 4 + j];
            chacha_x86_store256(out, in, (size_t)(64 * j + 32 * h),
                                _mm256_permute2x128_si256(a, b, 0x20));
            chacha_x86_store256(out, in, (size_t)(64 * (j + 4) + 32 * h),
                                _mm256_permute2x128_si256(a, b, 0x31));
        }
    }
    chacha_x86_advance(state, 8);
}

/* Any number of blocks: eight at a time, then as chacha_x86_from4. */
static inline void chacha_x86_from8(uint32_t state[16], unsigned char *out,
                                    const unsigned char *in, size_t blocks)
{
    for (; blocks >= 8; blocks -= 8) {
        chacha_x86_8blocks(state, out, in);
        out += 512;
        if (in)
            in += 512;
    }
    chacha_x86_from4(state, out, in, blocks);
}
#endif

#endif
