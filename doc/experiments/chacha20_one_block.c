/* One ChaCha20 block (doc/crypto.md, "ChaCha20"): what a 64-byte call, a FastRandom
 * refill, costs in general registers and in rows, and why the library's rows rotate a, c
 * and d between rounds rather than b, c and d. Times, in ns per block, the library's
 * portable block function, one block kept in vector registers as four rows (a, b, c, d;
 * the diagonal round reached by rotating b, c and d across lanes, the usual form, or a, c
 * and d, which keeps the rotations off the chain), each with SSSE3 byte shuffles for the
 * 16- and 8-bit rotations and with AVX-512's vprold, and the library's AVX-512 block
 * function on one block: the median of 21 rounds of 20,000 blocks each, this thread's CPU
 * time, all alternated within each round; and checks every block against the portable one.
 * Not built by make; x86-64 with AVX-512 F and VL; from a build directory BUILD:
 *   gcc -O2 -I SRC/src -I BUILD SRC/doc/experiments/chacha20_one_block.c \
 *       BUILD/src/crypto/.libs/libbitcoin_crypto.a -o chacha20_one_block
 *   ./chacha20_one_block */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crypto/chacha20.h"
#include "crypto/chacha20_impl.h"

#define ROUNDS 21
#define BLOCKS 20000

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* The four quarter-rounds of a round at once, one per lane. */
#define ROW_QR(ROT) \
    do { \
        a = _mm_add_epi32(a, b); d = ROT(_mm_xor_si128(d, a), 16); \
        c = _mm_add_epi32(c, d); b = ROT(_mm_xor_si128(b, c), 12); \
        a = _mm_add_epi32(a, b); d = ROT(_mm_xor_si128(d, a), 8); \
        c = _mm_add_epi32(c, d); b = ROT(_mm_xor_si128(b, c), 7); \
    } while (0)

/* One block as rows; ROT(v, n) rotates each lane left by n; DIAG and UNDIAG move the rows
 * between the column and the diagonal round. */
#define ROW_BLOCK(ROT, DIAG, UNDIAG) \
    __m128i s0 = _mm_loadu_si128((const __m128i *)(const void *)state); \
    __m128i s1 = _mm_loadu_si128((const __m128i *)(const void *)(state + 4)); \
    __m128i s2 = _mm_loadu_si128((const __m128i *)(const void *)(state + 8)); \
    __m128i s3 = _mm_loadu_si128((const __m128i *)(const void *)(state + 12)); \
    __m128i a = s0, b = s1, c = s2, d = s3; \
    for (int i = 0; i < 10; i++) { \
        ROW_QR(ROT); \
        DIAG; \
        ROW_QR(ROT); \
        UNDIAG; \
    } \
    _mm_storeu_si128((__m128i *)(void *)out, _mm_add_epi32(a, s0)); \
    _mm_storeu_si128((__m128i *)(void *)(out + 16), _mm_add_epi32(b, s1)); \
    _mm_storeu_si128((__m128i *)(void *)(out + 32), _mm_add_epi32(c, s2)); \
    _mm_storeu_si128((__m128i *)(void *)(out + 48), _mm_add_epi32(d, s3)); \
    if (++state[12] == 0) \
        state[13]++;

/* b, c, d rotated: lane j holds the diagonal through word j */
#define DIAG_B \
    (b = _mm_shuffle_epi32(b, 0x39), c = _mm_shuffle_epi32(c, 0x4e), \
     d = _mm_shuffle_epi32(d, 0x93))
#define UNDIAG_B \
    (b = _mm_shuffle_epi32(b, 0x93), c = _mm_shuffle_epi32(c, 0x4e), \
     d = _mm_shuffle_epi32(d, 0x39))
/* a, c, d rotated: lane j holds the diagonal through word 4 + j */
#define DIAG_A \
    (a = _mm_shuffle_epi32(a, 0x93), c = _mm_shuffle_epi32(c, 0x39), \
     d = _mm_shuffle_epi32(d, 0x4e))
#define UNDIAG_A \
    (a = _mm_shuffle_epi32(a, 0x39), c = _mm_shuffle_epi32(c, 0x93), \
     d = _mm_shuffle_epi32(d, 0x4e))

__attribute__((target("ssse3"))) static inline __m128i rot_ssse3(__m128i v, int n)
{
    if (n == 16)
        return _mm_shuffle_epi8(v, _mm_set_epi8(13, 12, 15, 14, 9, 8, 11, 10, 5, 4, 7, 6,
                                                1, 0, 3, 2));
    if (n == 8)
        return _mm_shuffle_epi8(v, _mm_set_epi8(14, 13, 12, 15, 10, 9, 8, 11, 6, 5, 4, 7,
                                                2, 1, 0, 3));
    return _mm_or_si128(_mm_slli_epi32(v, n), _mm_srli_epi32(v, 32 - n));
}

#define ROT_AVX512(v, n) \
    ((n) == 16 ? _mm_rol_epi32(v, 16) : (n) == 12 ? _mm_rol_epi32(v, 12) \
     : (n) == 8 ? _mm_rol_epi32(v, 8) : _mm_rol_epi32(v, 7))

__attribute__((target("ssse3"))) static void rows_b_ssse3(uint32_t state[16],
                                                           unsigned char *out)
{
    ROW_BLOCK(rot_ssse3, DIAG_B, UNDIAG_B)
}

__attribute__((target("ssse3"))) static void rows_a_ssse3(uint32_t state[16],
                                                           unsigned char *out)
{
    ROW_BLOCK(rot_ssse3, DIAG_A, UNDIAG_A)
}

__attribute__((target("avx512f,avx512vl"))) static void rows_b_avx512(uint32_t state[16],
                                                                       unsigned char *out)
{
    ROW_BLOCK(ROT_AVX512, DIAG_B, UNDIAG_B)
}

__attribute__((target("avx512f,avx512vl"))) static void rows_a_avx512(uint32_t state[16],
                                                                       unsigned char *out)
{
    ROW_BLOCK(ROT_AVX512, DIAG_A, UNDIAG_A)
}

static void scalar(uint32_t state[16], unsigned char *out)
{
    chacha20_blocks_portable(state, out, NULL, 1);
}

static void library(uint32_t state[16], unsigned char *out)
{
    chacha20_blocks_avx512(state, out, NULL, 1);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define FNS 6

int main(void)
{
    static const char *const names[FNS] = {
        "portable (general registers)", "rows, b rotated, SSSE3", "rows, a rotated, SSSE3",
        "rows, b rotated, vprold", "rows, a rotated, vprold", "library, avx512, 1 block"};
    void (*const fns[FNS])(uint32_t *, unsigned char *) = {
        scalar, rows_b_ssse3, rows_a_ssse3, rows_b_avx512, rows_a_avx512, library};
    static const unsigned char key[32] = {7};
    static unsigned char out[64], ref[64];
    double t[FNS][ROUNDS];
    chacha20_ctx base;

    if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512vl")) {
        fprintf(stderr, "chacha20_one_block: needs AVX-512 F and VL\n");
        return 1;
    }
    chacha20_set_key(&base, key);
    for (int f = 1; f < FNS; f++) {
        chacha20_ctx x = base, y = base;
        scalar(x.input, ref);
        fns[f](y.input, out);
        if (memcmp(out, ref, 64) != 0 || memcmp(&x, &y, sizeof x) != 0) {
            fprintf(stderr, "chacha20_one_block: %s differs from the portable code\n",
                    names[f]);
            return 1;
        }
    }
    for (int r = 0; r < ROUNDS; r++) {
        for (int f = 0; f < FNS; f++) {
            chacha20_ctx c = base;
            double start = now();
            for (int i = 0; i < BLOCKS; i++) {
                fns[f](c.input, out);
                __asm__ volatile("" : : "r"(out) : "memory");
            }
            t[f][r] = (now() - start) / BLOCKS;
        }
    }
    for (int f = 0; f < FNS; f++) {
        qsort(t[f], ROUNDS, sizeof t[f][0], cmp_double);
        printf("%-30s %7.1f ns/block (median of %d rounds)\n", names[f], t[f][ROUNDS / 2],
               ROUNDS);
    }
    return 0;
}
