/* ChaCha20 blocks with AVX-512 (F and VL): sixteen blocks at a time
 * transposed across 512-bit registers, then eight across 256-bit ones, the
 * last one to seven in rows in 128- and 256-bit registers (chacha20_x86.h),
 * every rotation one vprold. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <immintrin.h>

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

/* Block j, 4 + j, 8 + j and 12 + j of sixteen from a = x[j], b = x[4 + j],
 * c = x[8 + j], d = x[12 + j] after the in-lane transposes: a 4x4 transpose
 * of 128-bit lanes. */
static inline void store4(unsigned char *out, const unsigned char *in, size_t j, __m512i a,
                          __m512i b, __m512i c, __m512i d)
{
    __m512i ab_lo = _mm512_shuffle_i32x4(a, b, 0x44);      /* a0 a1 b0 b1 */
    __m512i ab_hi = _mm512_shuffle_i32x4(a, b, 0xee);      /* a2 a3 b2 b3 */
    __m512i cd_lo = _mm512_shuffle_i32x4(c, d, 0x44);
    __m512i cd_hi = _mm512_shuffle_i32x4(c, d, 0xee);
    store512(out, in, 64 * j, _mm512_shuffle_i32x4(ab_lo, cd_lo, 0x88));        /* a0 b0 c0 d0 */
    store512(out, in, 64 * (4 + j), _mm512_shuffle_i32x4(ab_lo, cd_lo, 0xdd));
    store512(out, in, 64 * (8 + j), _mm512_shuffle_i32x4(ab_hi, cd_hi, 0x88));
    store512(out, in, 64 * (12 + j), _mm512_shuffle_i32x4(ab_hi, cd_hi, 0xdd));
}

#define UNPACKLO32 _mm512_unpacklo_epi32
#define UNPACKHI32 _mm512_unpackhi_epi32
#define UNPACKLO64 _mm512_unpacklo_epi64
#define UNPACKHI64 _mm512_unpackhi_epi64

/* Sixteen blocks. After the in-lane 4x4 transposes, 128-bit lane L of
 * x[4g + j] holds words 4g..4g+3 of block 4L + j; block 4L + j is then lane
 * L of x[j], x[4 + j], x[8 + j], x[12 + j]. The loops after the rounds are
 * written out so that x stays in registers (32 of them: no spills). */
static void blocks16(uint32_t state[16], unsigned char *out, const unsigned char *in)
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

void chacha20_blocks_avx512(uint32_t state[16], unsigned char *out, const unsigned char *in,
                            size_t blocks)
{
    for (; blocks >= 16; blocks -= 16) {
        blocks16(state, out, in);
        out += 1024;
        if (in)
            in += 1024;
    }
    chacha_x86_from8(state, out, in, blocks);
}
