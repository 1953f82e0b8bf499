/* ChaCha20 blocks with AVX-512 (F and VL): sixteen blocks at a time
 * transposed across 512-bit registers; what is left, 9-15 blocks, as sixteen
 * into a buffer, and 1-8 in rows: one block in 128-bit rows and two in 256-bit
 * ones (chacha20_x86.h), three to eight four to a set of 512-bit rows; every
 * rotation one vprold. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <immintrin.h>
#include <string.h>

#include "crypto/chacha20_impl.h"

/* The count is a constant wherever these are inlined; the switch gives the
 * intrinsics the immediates they need when compiled without optimisation. */
static inline __m128i chacha_rotl128(__m128i v, int n)
{
    switch (n) {
    case 16: return _mm_rol_epi32(v, 16);
    case 12: return _mm_rol_epi32(v, 12);
    case 8: return _mm_rol_epi32(v, 8);
    default: return _mm_rol_epi32(v, 7);
    }
}

static inline __m256i chacha_rotl256(__m256i v, int n)
{
    switch (n) {
    case 16: return _mm256_rol_epi32(v, 16);
    case 12: return _mm256_rol_epi32(v, 12);
    case 8: return _mm256_rol_epi32(v, 8);
    default: return _mm256_rol_epi32(v, 7);
    }
}

static inline __m512i chacha_rotl512(__m512i v, int n)
{
    switch (n) {
    case 16: return _mm512_rol_epi32(v, 16);
    case 12: return _mm512_rol_epi32(v, 12);
    case 8: return _mm512_rol_epi32(v, 8);
    default: return _mm512_rol_epi32(v, 7);
    }
}

#define CHACHA_X86_256 1
#define CHACHA_X86_OWN_ROTATE 1
#include "crypto/chacha20_x86.h"

static inline void store512(unsigned char *out, const unsigned char *in, size_t at, __m512i v)
{
    if (in)
        v = _mm512_xor_si512(v, _mm512_loadu_si512((const void *)(in + at)));
    _mm512_storeu_si512((void *)(out + at), v);
}

#define CHACHA_ADD512(a, b) _mm512_add_epi32(a, b)
#define CHACHA_XOR512(a, b) _mm512_xor_si512(a, b)

/* A 4x4 transpose of 128-bit lanes: lane L of the result r[k] is lane k of
 * the k-th input (a, b, c, d), lane L of output k coming from input L. */
#define CHACHA_LANES4(a, b, c, d, r0, r1, r2, r3) \
    do { \
        const __m512i ab_lo_ = _mm512_shuffle_i32x4(a, b, 0x44); /* a0 a1 b0 b1 */ \
        const __m512i ab_hi_ = _mm512_shuffle_i32x4(a, b, 0xee); /* a2 a3 b2 b3 */ \
        const __m512i cd_lo_ = _mm512_shuffle_i32x4(c, d, 0x44); \
        const __m512i cd_hi_ = _mm512_shuffle_i32x4(c, d, 0xee); \
        r0 = _mm512_shuffle_i32x4(ab_lo_, cd_lo_, 0x88); /* a0 b0 c0 d0 */ \
        r1 = _mm512_shuffle_i32x4(ab_lo_, cd_lo_, 0xdd); \
        r2 = _mm512_shuffle_i32x4(ab_hi_, cd_hi_, 0x88); \
        r3 = _mm512_shuffle_i32x4(ab_hi_, cd_hi_, 0xdd); \
    } while (0)

/* Block j, 4 + j, 8 + j and 12 + j of sixteen from a = x[j], b = x[4 + j],
 * c = x[8 + j], d = x[12 + j] after the in-lane transposes. */
static inline void store4(unsigned char *out, const unsigned char *in, size_t j, __m512i a,
                          __m512i b, __m512i c, __m512i d)
{
    __m512i r0, r1, r2, r3;
    CHACHA_LANES4(a, b, c, d, r0, r1, r2, r3);
    store512(out, in, 64 * j, r0);
    store512(out, in, 64 * (4 + j), r1);
    store512(out, in, 64 * (8 + j), r2);
    store512(out, in, 64 * (12 + j), r3);
}

#define UNPACKLO32 _mm512_unpacklo_epi32
#define UNPACKHI32 _mm512_unpackhi_epi32
#define UNPACKLO64 _mm512_unpacklo_epi64
#define UNPACKHI64 _mm512_unpackhi_epi64

/* Sixteen blocks. After the in-lane 4x4 transposes, 128-bit lane L of
 * x[4g + j] holds words 4g..4g+3 of block 4L + j; block 4L + j is then lane
 * L of x[j], x[4 + j], x[8 + j], x[12 + j]. The loops after the rounds are
 * written out so that x stays in registers (32 of them: no spills). */
/* Always inlined, as the row functions are: called out of line it was slower. */
CHACHA_X86_ROWS_INLINE void blocks16(uint32_t state[16], unsigned char *out,
                                     const unsigned char *in)
{
    __m512i x[16];
    const uint64_t c = (uint64_t)state[13] << 32 | state[12];
    const __m512i lo = _mm512_set1_epi32((int)(uint32_t)c);
    /* counters c + 0 .. c + 15, the carry into word 13 lane by lane */
    const __m512i w12 = _mm512_add_epi32(lo, _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8,
                                                               7, 6, 5, 4, 3, 2, 1, 0));
    const __m512i w13 = _mm512_mask_add_epi32(_mm512_set1_epi32((int)state[13]),
                                              _mm512_cmplt_epu32_mask(w12, lo),
                                              _mm512_set1_epi32((int)state[13]),
                                              _mm512_set1_epi32(1));
    CHACHA_BROADCAST_STATE(x, _mm512_set1_epi32, state);
    x[12] = w12;
    x[13] = w13;
    for (int i = 0; i < 5; i++) {
        CHACHA_DOUBLE_ROUND(CHACHA_ADD512, CHACHA_XOR512, chacha_rotl512, x);
        CHACHA_DOUBLE_ROUND(CHACHA_ADD512, CHACHA_XOR512, chacha_rotl512, x);
    }
#define ADD_STATE(i) x[i] = _mm512_add_epi32(x[i], _mm512_set1_epi32((int)state[i]))
    ADD_STATE(0); ADD_STATE(1); ADD_STATE(2); ADD_STATE(3);
    ADD_STATE(4); ADD_STATE(5); ADD_STATE(6); ADD_STATE(7);
    ADD_STATE(8); ADD_STATE(9); ADD_STATE(10); ADD_STATE(11);
    ADD_STATE(14); ADD_STATE(15);
#undef ADD_STATE
    x[12] = _mm512_add_epi32(x[12], w12);
    x[13] = _mm512_add_epi32(x[13], w13);
    CHACHA_TRANSPOSE4(__m512i, x[0], x[1], x[2], x[3]);
    CHACHA_TRANSPOSE4(__m512i, x[4], x[5], x[6], x[7]);
    CHACHA_TRANSPOSE4(__m512i, x[8], x[9], x[10], x[11]);
    CHACHA_TRANSPOSE4(__m512i, x[12], x[13], x[14], x[15]);
    store4(out, in, 0, x[0], x[4], x[8], x[12]);
    store4(out, in, 1, x[1], x[5], x[9], x[13]);
    store4(out, in, 2, x[2], x[6], x[10], x[14]);
    store4(out, in, 3, x[3], x[7], x[11], x[15]);
    chacha_x86_advance(state, 16);
}

#undef UNPACKLO32
#undef UNPACKHI32
#undef UNPACKLO64
#undef UNPACKHI64

#define CHACHA_SHUF512(v, m) _mm512_shuffle_epi32(v, (_MM_PERM_ENUM)(m))
#define CHACHA_ROWS512_ROUND(k) \
    CHACHA_ROWS_DOUBLE_ROUND(CHACHA_ADD512, CHACHA_XOR512, chacha_rotl512, CHACHA_SHUF512, \
                             a##k, b##k, c##k, d##k)
/* Set k's blocks 4k .. 4k + 3, those below n. */
#define CHACHA_ROWS512_STORE(k) \
    do { \
        __m512i r0_, r1_, r2_, r3_; \
        CHACHA_LANES4(_mm512_add_epi32(a##k, s0), _mm512_add_epi32(b##k, s1), \
                      _mm512_add_epi32(c##k, s2), _mm512_add_epi32(d##k, t##k), \
                      r0_, r1_, r2_, r3_); \
        store512(out, in, 256 * k, r0_); \
        if (n > 4 * k + 1) \
            store512(out, in, 256 * k + 64, r1_); \
        if (n > 4 * k + 2) \
            store512(out, in, 256 * k + 128, r2_); \
        if (n > 4 * k + 3) \
            store512(out, in, 256 * k + 192, r3_); \
    } while (0)

/* n (3 to 8, a constant where inlined) blocks in rows, four blocks to a set of four
 * 512-bit rows (one block a 128-bit lane): one chain for up to four blocks, two for more. */
CHACHA_X86_ROWS_INLINE void rows512(uint32_t state[16], unsigned char *out,
                                    const unsigned char *in, const int n)
{
    const __m512i s0 = _mm512_broadcast_i32x4(chacha_x86_load128(state));
    const __m512i s1 = _mm512_broadcast_i32x4(chacha_x86_load128(state + 4));
    const __m512i s2 = _mm512_broadcast_i32x4(chacha_x86_load128(state + 8));
    const __m512i s3 = _mm512_broadcast_i32x4(chacha_x86_load128(state + 12));
    const __m512i t0 = _mm512_add_epi64(s3, _mm512_set_epi64(0, 3, 0, 2, 0, 1, 0, 0));
    const __m512i t1 = _mm512_add_epi64(s3, _mm512_set_epi64(0, 7, 0, 6, 0, 5, 0, 4));
    __m512i a0 = s0, b0 = s1, c0 = s2, d0 = t0;
    __m512i a1 = s0, b1 = s1, c1 = s2, d1 = t1;
    for (int i = 0; i < 10; i++) {
        CHACHA_ROWS512_ROUND(0);
        if (n > 4)
            CHACHA_ROWS512_ROUND(1);
    }
    CHACHA_ROWS512_STORE(0);
    if (n > 4)
        CHACHA_ROWS512_STORE(1);
    chacha_x86_advance(state, (unsigned)n);
}

/* 1 to 8 blocks in rows: one in 128-bit rows, two in 256-bit ones, more four to a set of
 * 512-bit rows, each count its own code. */
static inline void rows_any(uint32_t state[16], unsigned char *out, const unsigned char *in,
                            size_t blocks)
{
    switch (blocks) {
    case 1: chacha_x86_rows128(state, out, in, 1); break;
    case 2: chacha_x86_rows256(state, out, in, 2); break;
    case 3: rows512(state, out, in, 3); break;
    case 4: rows512(state, out, in, 4); break;
    case 5: rows512(state, out, in, 5); break;
    case 6: rows512(state, out, in, 6); break;
    case 7: rows512(state, out, in, 7); break;
    default: rows512(state, out, in, 8); break;
    }
}

/* 9 to 15 blocks: sixteen, into a buffer, of which the first `blocks` go to out (one
 * 16-block step costs less than eight blocks in rows and the rest). */
static void blocks16_part(uint32_t state[16], unsigned char *out, const unsigned char *in,
                          size_t blocks)
{
    __m512i buf[16]; /* aligned: no access splits a cache line */
    uint32_t from[16];
    memcpy(from, state, sizeof from);
    blocks16(from, (unsigned char *)buf, NULL);
    for (size_t i = 0; i < blocks; i++)
        store512(out, in, 64 * i, buf[i]);
    chacha_x86_advance(state, (unsigned)blocks);
}

void chacha20_blocks_avx512(uint32_t state[16], unsigned char *out, const unsigned char *in,
                            size_t blocks)
{
    for (; blocks >= 16; blocks -= 16) {
        blocks16(state, out, in);
        out += 1024;
        if (in)
            in += 1024;
    }
    if (blocks > 8)
        blocks16_part(state, out, in, blocks);
    else if (blocks > 0)
        rows_any(state, out, in, blocks);
}
