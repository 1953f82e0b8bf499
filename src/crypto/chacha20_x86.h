/* Internal to the crypto library: ChaCha20 block code shared by the x86
 * variants (chacha20_sse41.c, chacha20_avx2.c, chacha20_avx512.c), each of
 * which includes this file once, compiled with its own flags. The includer
 * defines CHACHA_X86_256 for the 8-block and the 256-bit row code (AVX2), and
 * may define CHACHA_X86_OWN_ROTATE and its own
 *
 *     static inline __m128i chacha_rotl128(__m128i v, int n);
 *     static inline __m256i chacha_rotl256(__m256i v, int n);
 *
 * (a left rotation of each 32-bit lane by n, n being 16, 12, 8 or 7); by
 * default they are SSSE3/AVX2 byte shuffles for 16 and 8, two shifts and an
 * or for 12 and 7.
 *
 * Two layouts. Many blocks at once, transposed: vector i holds word i of each
 * block, one block a lane, so the quarter-rounds are plain lane-wise
 * arithmetic, limited by how many instructions the vector units retire; the
 * words are transposed back into blocks at the end. A few blocks in rows
 * (below): each block one chain of dependent steps, limited by their latency,
 * several chains side by side for the price of one. The 4- and 8-block
 * transposed code is faster from four blocks (SSE) or eight (AVX2) on; fewer,
 * and what a call leaves below that, go in rows (AVX-512 has its own 512-bit
 * rows and tail, chacha20_avx512.c), so that a call of
 * one block (a FastRandom refill) takes about two thirds of the portable
 * code's time (doc/crypto.md, "ChaCha20"; the figures in
 * doc/measurements.md). Every function writes whole blocks (XORed with in
 * when in is not NULL) and advances the counter in state, as chacha20_impl.h
 * says. */
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

/* x[i] = every lane word i of the input block, for all i but the counter's 12
 * and 13, with SET1 the width's broadcast (written out: a loop here was kept
 * as one by the compiler, through the stack). */
#define CHACHA_BROADCAST_STATE(x, SET1, state) \
    do { \
        x[0] = SET1((int)state[0]); x[1] = SET1((int)state[1]); \
        x[2] = SET1((int)state[2]); x[3] = SET1((int)state[3]); \
        x[4] = SET1((int)state[4]); x[5] = SET1((int)state[5]); \
        x[6] = SET1((int)state[6]); x[7] = SET1((int)state[7]); \
        x[8] = SET1((int)state[8]); x[9] = SET1((int)state[9]); \
        x[10] = SET1((int)state[10]); x[11] = SET1((int)state[11]); \
        x[14] = SET1((int)state[14]); x[15] = SET1((int)state[15]); \
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

/* A quarter-round whose c (of vector type V) is read from and written back to
 * the lvalue cslot once each, and a double round with words 8-11 in c[0..3]. */
#define CHACHA_QR_CMEM(V, ADD, XOR, ROT, a, b, cslot, d) \
    do { \
        V c_q_; \
        a = ADD(a, b); d = ROT(XOR(d, a), 16); \
        c_q_ = ADD(cslot, d); b = ROT(XOR(b, c_q_), 12); \
        a = ADD(a, b); d = ROT(XOR(d, a), 8); \
        c_q_ = ADD(c_q_, d); cslot = c_q_; b = ROT(XOR(b, c_q_), 7); \
    } while (0)

#define CHACHA_DOUBLE_ROUND_CMEM(V, ADD, XOR, ROT, x, c) \
    do { \
        CHACHA_QR_CMEM(V, ADD, XOR, ROT, x[0], x[4], c[0], x[12]); \
        CHACHA_QR_CMEM(V, ADD, XOR, ROT, x[1], x[5], c[1], x[13]); \
        CHACHA_QR_CMEM(V, ADD, XOR, ROT, x[2], x[6], c[2], x[14]); \
        CHACHA_QR_CMEM(V, ADD, XOR, ROT, x[3], x[7], c[3], x[15]); \
        CHACHA_QR_CMEM(V, ADD, XOR, ROT, x[0], x[5], c[2], x[15]); \
        CHACHA_QR_CMEM(V, ADD, XOR, ROT, x[1], x[6], c[3], x[12]); \
        CHACHA_QR_CMEM(V, ADD, XOR, ROT, x[2], x[7], c[0], x[13]); \
        CHACHA_QR_CMEM(V, ADD, XOR, ROT, x[3], x[4], c[1], x[14]); \
    } while (0)

/* The rounds on x. With CHACHA_X86_C_IN_MEMORY (the SSE and AVX2 files, with
 * sixteen vector registers), words 8-11 live in memory between quarter-rounds,
 * volatile so that the compiler keeps them there: each is read and written
 * once per quarter-round, and the other twelve words, a temporary and the
 * shuffle masks then nearly fit in the registers, where leaving the choice to
 * the compiler spilled about twice as much. */
#ifdef CHACHA_X86_C_IN_MEMORY
#define CHACHA_ROUNDS(V, ADD, XOR, ROT, x) \
    do { \
        volatile V c_[4]; \
        c_[0] = x[8]; c_[1] = x[9]; c_[2] = x[10]; c_[3] = x[11]; \
        for (int r_ = 0; r_ < 10; r_++) \
            CHACHA_DOUBLE_ROUND_CMEM(V, ADD, XOR, ROT, x, c_); \
        x[8] = c_[0]; x[9] = c_[1]; x[10] = c_[2]; x[11] = c_[3]; \
    } while (0)
#else
#define CHACHA_ROUNDS(V, ADD, XOR, ROT, x) \
    do { \
        for (int r_ = 0; r_ < 10; r_++) \
            CHACHA_DOUBLE_ROUND(ADD, XOR, ROT, x); \
    } while (0)
#endif

/* ---- rows: a few blocks, each one dependency chain ---------------------------------------
 *
 * A block as four rows of four words, one vector each (a = words 0-3, b = 4-7, c = 8-11,
 * d = 12-15), one block to a 128-bit lane: a quarter-round is then the block's four column
 * (or diagonal) quarter-rounds at once, and the rounds are one chain of 12 dependent
 * add, xor and rotate steps each. Between a column and a diagonal round a, c and d rotate
 * across lanes and b stays: lane j then holds the diagonal through word 4 + j, a is
 * rotated while b's last steps run and c and d long before they are needed, so no
 * rotation lengthens the chain (rotating b, as is usual, adds one to every round). A few
 * such chains (blocks a lane, or sets of vectors) run side by side for the price of one
 * while the vector units have room. */
#define CHACHA_ROWS_DOUBLE_ROUND(ADD, XOR, ROT, SHUF, a, b, c, d) \
    do { \
        CHACHA_QR(ADD, XOR, ROT, a, b, c, d); \
        a = SHUF(a, 0x93); c = SHUF(c, 0x39); d = SHUF(d, 0x4e); \
        CHACHA_QR(ADD, XOR, ROT, a, b, c, d); \
        a = SHUF(a, 0x39); c = SHUF(c, 0x93); d = SHUF(d, 0x4e); \
    } while (0)

/* Each block count of the row functions is its own code: the compiler must inline them into
 * every call with a constant count (the unused sets are then gone, not kept live). */
#ifdef __GNUC__
#define CHACHA_X86_ROWS_INLINE static inline __attribute__((always_inline))
#else
#define CHACHA_X86_ROWS_INLINE static inline
#endif

static inline __m128i chacha_x86_load128(const void *p)
{
    return _mm_loadu_si128((const __m128i *)p);
}

#define CHACHA_SHUF128(v, m) _mm_shuffle_epi32(v, m)
#define CHACHA_ROWS128_ROUND(k) \
    CHACHA_ROWS_DOUBLE_ROUND(CHACHA_ADD128, CHACHA_XOR128, chacha_rotl128, CHACHA_SHUF128, \
                             a##k, b##k, c##k, d##k)
#define CHACHA_ROWS128_STORE(k) \
    do { \
        chacha_x86_store128(out, in, 64 * k, _mm_add_epi32(a##k, s0)); \
        chacha_x86_store128(out, in, 64 * k + 16, _mm_add_epi32(b##k, s1)); \
        chacha_x86_store128(out, in, 64 * k + 32, _mm_add_epi32(c##k, s2)); \
        chacha_x86_store128(out, in, 64 * k + 48, _mm_add_epi32(d##k, t##k)); \
    } while (0)

/* n (1 to 3, a constant where inlined) blocks, one set of four 128-bit rows each. */
CHACHA_X86_ROWS_INLINE void chacha_x86_rows128(uint32_t state[16], unsigned char *out,
                                      const unsigned char *in, const int n)
{
    const __m128i s0 = chacha_x86_load128(state), s1 = chacha_x86_load128(state + 4);
    const __m128i s2 = chacha_x86_load128(state + 8), t0 = chacha_x86_load128(state + 12);
    /* words 12-13 are the 64-bit counter: one 64-bit add gives the next blocks' */
    const __m128i t1 = _mm_add_epi64(t0, _mm_set_epi64x(0, 1));
    const __m128i t2 = _mm_add_epi64(t0, _mm_set_epi64x(0, 2));
    __m128i a0 = s0, b0 = s1, c0 = s2, d0 = t0;
    __m128i a1 = s0, b1 = s1, c1 = s2, d1 = t1;
    __m128i a2 = s0, b2 = s1, c2 = s2, d2 = t2;
    for (int i = 0; i < 10; i++) {
        CHACHA_ROWS128_ROUND(0);
        if (n > 1)
            CHACHA_ROWS128_ROUND(1);
        if (n > 2)
            CHACHA_ROWS128_ROUND(2);
    }
    CHACHA_ROWS128_STORE(0);
    if (n > 1)
        CHACHA_ROWS128_STORE(1);
    if (n > 2)
        CHACHA_ROWS128_STORE(2);
    chacha_x86_advance(state, (unsigned)n);
}

/* 1 to 3 blocks as chacha_x86_rows128, each count its own code. */
static inline void chacha_x86_rows128_any(uint32_t state[16], unsigned char *out,
                                          const unsigned char *in, size_t blocks)
{
    if (blocks == 1)
        chacha_x86_rows128(state, out, in, 1);
    else if (blocks == 2)
        chacha_x86_rows128(state, out, in, 2);
    else
        chacha_x86_rows128(state, out, in, 3);
}

/* Words 4g..4g+3 of four blocks (a, b, c, d): the input words (sa .. sd)
 * added, transposed into rows, each row stored in its block. */
static inline void chacha_x86_4group(unsigned char *out, const unsigned char *in, int g,
                                     __m128i a, __m128i b, __m128i c, __m128i d, __m128i sa,
                                     __m128i sb, __m128i sc, __m128i sd)
{
    a = _mm_add_epi32(a, sa);
    b = _mm_add_epi32(b, sb);
    c = _mm_add_epi32(c, sc);
    d = _mm_add_epi32(d, sd);
#define UNPACKLO32 _mm_unpacklo_epi32
#define UNPACKHI32 _mm_unpackhi_epi32
#define UNPACKLO64 _mm_unpacklo_epi64
#define UNPACKHI64 _mm_unpackhi_epi64
    CHACHA_TRANSPOSE4(__m128i, a, b, c, d);
#undef UNPACKLO32
#undef UNPACKHI32
#undef UNPACKLO64
#undef UNPACKHI64
    chacha_x86_store128(out, in, (size_t)(16 * g), a);
    chacha_x86_store128(out, in, (size_t)(64 + 16 * g), b);
    chacha_x86_store128(out, in, (size_t)(128 + 16 * g), c);
    chacha_x86_store128(out, in, (size_t)(192 + 16 * g), d);
}

/* Four blocks, transposed across 16 registers, written out a quarter of each
 * block at a time. */
static inline void chacha_x86_4blocks(uint32_t state[16], unsigned char *out,
                                      const unsigned char *in)
{
    __m128i x[16];
    uint32_t lo[4], hi[4];
    chacha_x86_counters(state, lo, hi, 4);
    CHACHA_BROADCAST_STATE(x, _mm_set1_epi32, state);
    x[12] = _mm_loadu_si128((const __m128i *)(const void *)lo);
    x[13] = _mm_loadu_si128((const __m128i *)(const void *)hi);
    CHACHA_ROUNDS(__m128i, CHACHA_ADD128, CHACHA_XOR128, chacha_rotl128, x);
#define S(i) _mm_set1_epi32((int)state[i])
    chacha_x86_4group(out, in, 0, x[0], x[1], x[2], x[3], S(0), S(1), S(2), S(3));
    chacha_x86_4group(out, in, 1, x[4], x[5], x[6], x[7], S(4), S(5), S(6), S(7));
    chacha_x86_4group(out, in, 2, x[8], x[9], x[10], x[11], S(8), S(9), S(10), S(11));
    chacha_x86_4group(out, in, 3, x[12], x[13], x[14], x[15],
                      _mm_loadu_si128((const __m128i *)(const void *)lo),
                      _mm_loadu_si128((const __m128i *)(const void *)hi), S(14), S(15));
#undef S
    chacha_x86_advance(state, 4);
}

/* Any number of blocks: four at a time transposed, the last 1-3 in rows. */
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
        chacha_x86_rows128_any(state, out, in, blocks);
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


/* Block j's and block j + 4's 32 bytes from a (4 words) and b (the next 4),
 * after the in-lane transposes; at is where in block j they go. */
static inline void chacha_x86_store_pair(unsigned char *out, const unsigned char *in,
                                         size_t at, __m256i a, __m256i b)
{
    chacha_x86_store256(out, in, at, _mm256_permute2x128_si256(a, b, 0x20));
    chacha_x86_store256(out, in, 256 + at, _mm256_permute2x128_si256(a, b, 0x31));
}

/* Eight blocks, transposed across 16 registers. After the in-lane 4x4
 * transposes, x[4g + j] holds words 4g..4g+3 of block j in its low half and
 * of block j + 4 in its high half. Written out, words 0-7 then 8-15, so that
 * with AVX2's sixteen registers only half the block is live at the end. */
static inline void chacha_x86_8blocks(uint32_t state[16], unsigned char *out,
                                      const unsigned char *in)
{
    __m256i x[16];
    uint32_t lo[8], hi[8];
    chacha_x86_counters(state, lo, hi, 8);
    CHACHA_BROADCAST_STATE(x, _mm256_set1_epi32, state);
    x[12] = _mm256_loadu_si256((const __m256i *)(const void *)lo);
    x[13] = _mm256_loadu_si256((const __m256i *)(const void *)hi);
    CHACHA_ROUNDS(__m256i, CHACHA_ADD256, CHACHA_XOR256, chacha_rotl256, x);
#define UNPACKLO32 _mm256_unpacklo_epi32
#define UNPACKHI32 _mm256_unpackhi_epi32
#define UNPACKLO64 _mm256_unpacklo_epi64
#define UNPACKHI64 _mm256_unpackhi_epi64
#define ADD_STATE(i) x[i] = _mm256_add_epi32(x[i], _mm256_set1_epi32((int)state[i]))
    ADD_STATE(0); ADD_STATE(1); ADD_STATE(2); ADD_STATE(3);
    ADD_STATE(4); ADD_STATE(5); ADD_STATE(6); ADD_STATE(7);
    CHACHA_TRANSPOSE4(__m256i, x[0], x[1], x[2], x[3]);
    CHACHA_TRANSPOSE4(__m256i, x[4], x[5], x[6], x[7]);
    chacha_x86_store_pair(out, in, 0, x[0], x[4]);
    chacha_x86_store_pair(out, in, 64, x[1], x[5]);
    chacha_x86_store_pair(out, in, 128, x[2], x[6]);
    chacha_x86_store_pair(out, in, 192, x[3], x[7]);
    ADD_STATE(8); ADD_STATE(9); ADD_STATE(10); ADD_STATE(11);
    ADD_STATE(14); ADD_STATE(15);
#undef ADD_STATE
    x[12] = _mm256_add_epi32(x[12], _mm256_loadu_si256((const __m256i *)(const void *)lo));
    x[13] = _mm256_add_epi32(x[13], _mm256_loadu_si256((const __m256i *)(const void *)hi));
    CHACHA_TRANSPOSE4(__m256i, x[8], x[9], x[10], x[11]);
    CHACHA_TRANSPOSE4(__m256i, x[12], x[13], x[14], x[15]);
    chacha_x86_store_pair(out, in, 32, x[8], x[12]);
    chacha_x86_store_pair(out, in, 96, x[9], x[13]);
    chacha_x86_store_pair(out, in, 160, x[10], x[14]);
    chacha_x86_store_pair(out, in, 224, x[11], x[15]);
#undef UNPACKLO32
#undef UNPACKHI32
#undef UNPACKLO64
#undef UNPACKHI64
    chacha_x86_advance(state, 8);
}

#define CHACHA_SHUF256(v, m) _mm256_shuffle_epi32(v, m)
#define CHACHA_ROWS256_ROUND(k) \
    CHACHA_ROWS_DOUBLE_ROUND(CHACHA_ADD256, CHACHA_XOR256, chacha_rotl256, CHACHA_SHUF256, \
                             a##k, b##k, c##k, d##k)
/* Set k's two blocks, 2k and 2k + 1 (the second only when n > 2k + 1). */
#define CHACHA_ROWS256_STORE(k) \
    do { \
        const __m256i a_ = _mm256_add_epi32(a##k, s0), b_ = _mm256_add_epi32(b##k, s1); \
        const __m256i c_ = _mm256_add_epi32(c##k, s2), d_ = _mm256_add_epi32(d##k, t##k); \
        chacha_x86_store256(out, in, 128 * k, _mm256_permute2x128_si256(a_, b_, 0x20)); \
        chacha_x86_store256(out, in, 128 * k + 32, _mm256_permute2x128_si256(c_, d_, 0x20)); \
        if (n > 2 * k + 1) { \
            chacha_x86_store256(out, in, 128 * k + 64, \
                                _mm256_permute2x128_si256(a_, b_, 0x31)); \
            chacha_x86_store256(out, in, 128 * k + 96, \
                                _mm256_permute2x128_si256(c_, d_, 0x31)); \
        } \
    } while (0)

/* n (2 to 8, a constant where inlined) blocks in rows, two blocks to a set of four 256-bit
 * rows (one block a 128-bit lane). */
CHACHA_X86_ROWS_INLINE void chacha_x86_rows256(uint32_t state[16], unsigned char *out,
                                      const unsigned char *in, const int n)
{
    const __m256i s0 = _mm256_broadcastsi128_si256(chacha_x86_load128(state));
    const __m256i s1 = _mm256_broadcastsi128_si256(chacha_x86_load128(state + 4));
    const __m256i s2 = _mm256_broadcastsi128_si256(chacha_x86_load128(state + 8));
    const __m256i s3 = _mm256_broadcastsi128_si256(chacha_x86_load128(state + 12));
    const __m256i t0 = _mm256_add_epi64(s3, _mm256_set_epi64x(0, 1, 0, 0));
    const __m256i t1 = _mm256_add_epi64(s3, _mm256_set_epi64x(0, 3, 0, 2));
    const __m256i t2 = _mm256_add_epi64(s3, _mm256_set_epi64x(0, 5, 0, 4));
    const __m256i t3 = _mm256_add_epi64(s3, _mm256_set_epi64x(0, 7, 0, 6));
    __m256i a0 = s0, b0 = s1, c0 = s2, d0 = t0;
    __m256i a1 = s0, b1 = s1, c1 = s2, d1 = t1;
    __m256i a2 = s0, b2 = s1, c2 = s2, d2 = t2;
    __m256i a3 = s0, b3 = s1, c3 = s2, d3 = t3;
    for (int i = 0; i < 10; i++) {
        CHACHA_ROWS256_ROUND(0);
        if (n > 2)
            CHACHA_ROWS256_ROUND(1);
        if (n > 4)
            CHACHA_ROWS256_ROUND(2);
        if (n > 6)
            CHACHA_ROWS256_ROUND(3);
    }
    CHACHA_ROWS256_STORE(0);
    if (n > 2)
        CHACHA_ROWS256_STORE(1);
    if (n > 4)
        CHACHA_ROWS256_STORE(2);
    if (n > 6)
        CHACHA_ROWS256_STORE(3);
    chacha_x86_advance(state, (unsigned)n);
}

/* 1 to 7 blocks in rows: one in 128-bit vectors, more two to a 256-bit set (seven as four
 * sets cost less than four blocks transposed and three in rows), each count its own code. */
static inline void chacha_x86_rows256_any(uint32_t state[16], unsigned char *out,
                                          const unsigned char *in, size_t blocks)
{
    switch (blocks) {
    case 1: chacha_x86_rows128(state, out, in, 1); break;
    case 2: chacha_x86_rows256(state, out, in, 2); break;
    case 3: chacha_x86_rows256(state, out, in, 3); break;
    case 4: chacha_x86_rows256(state, out, in, 4); break;
    case 5: chacha_x86_rows256(state, out, in, 5); break;
    case 6: chacha_x86_rows256(state, out, in, 6); break;
    default: chacha_x86_rows256(state, out, in, 7); break;
    }
}

/* Any number of blocks: eight at a time transposed, the last 1-7 in rows. */
static inline void chacha_x86_from8(uint32_t state[16], unsigned char *out,
                                    const unsigned char *in, size_t blocks)
{
    for (; blocks >= 8; blocks -= 8) {
        chacha_x86_8blocks(state, out, in);
        out += 512;
        if (in)
            in += 512;
    }
    if (blocks > 0)
        chacha_x86_rows256_any(state, out, in, blocks);
}
#endif

#endif
