/* What n ChaCha20 blocks cost each block function (doc/crypto.md, "ChaCha20-Poly1305"): the
 * AEAD computes the blocks a step needs, or a whole burst where that costs the function
 * less. Times, in ns per call, the library's block functions on 1 to 16 blocks of
 * keystream; then the AEAD (the avx512ifma pair, no additional data) on 64, 256, 384, 1000
 * and 4096 bytes, each step computing what it needs (burst 8, the whole burst from 7 blocks:
 * the library's choice) against every step computing the whole burst of 8 (from 1): the
 * median of 21 rounds of 2,000 calls each, this thread's CPU time, the functions and counts
 * alternated within each round.
 * Not built by make; x86-64 with AVX-512 F, VL and IFMA; from a build directory BUILD:
 *   gcc -O2 -I SRC/src -I BUILD SRC/doc/experiments/chacha20_burst.c \
 *       BUILD/src/crypto/.libs/libbitcoin_crypto.a -o chacha20_burst
 *   ./chacha20_burst */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "crypto/chacha20.h"
#include "crypto/chacha20_impl.h"
#include "crypto/chacha20poly1305.h"
#include "crypto/chacha20poly1305_impl.h"

#define ROUNDS 21
#define CALLS 2000
#define NCOUNTS 16
#define NLENS 5

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The AEAD with the whole burst from burst_from blocks on, against always. */
static void aead(void)
{
    static const size_t lens[NLENS] = {64, 256, 384, 1000, 4096};
    static const chacha20poly1305_fns pair[2] = {
        {chacha20_blocks_avx512, poly1305_blocks_avx512ifma, 8, 7},
        {chacha20_blocks_avx512, poly1305_blocks_avx512ifma, 8, 1}};
    static unsigned char msg[4096], out[4096 + 16];
    static double t[2][NLENS][ROUNDS];
    const unsigned char key[32] = {2};
    unsigned char nonce[12] = {0};
    chacha20poly1305_ctx c;

    chacha20poly1305_init(&c, key);
    for (int r = 0; r < ROUNDS; r++) {
        for (int k = 0; k < NLENS; k++) {
            for (int f = 0; f < 2; f++) {
                double start = now();
                for (int i = 0; i < CALLS; i++) {
                    nonce[0]++;
                    chacha20poly1305_encrypt_with(&pair[f], &c, nonce, NULL, 0, msg, lens[k],
                                                  out);
                }
                t[f][k][r] = (now() - start) / CALLS;
            }
        }
    }
    printf("\nAEAD, ns/call   needed  whole burst  bytes\n");
    for (int k = 0; k < NLENS; k++) {
        qsort(t[0][k], ROUNDS, sizeof(double), by_value);
        qsort(t[1][k], ROUNDS, sizeof(double), by_value);
        printf("%15s %8.1f %12.1f  %zu\n", "", t[0][k][ROUNDS / 2], t[1][k][ROUNDS / 2],
               lens[k]);
    }
}

int main(void)
{
    static const char *const names[4] = {"portable", "sse41", "avx2", "avx512"};
    static const chacha20_blocks_fn fns[4] = {chacha20_blocks_portable, chacha20_blocks_sse41,
                                              chacha20_blocks_avx2, chacha20_blocks_avx512};
    static const unsigned counts[NCOUNTS] = {1, 2, 3, 4, 5, 6, 7, 8,
                                              9, 10, 11, 12, 13, 14, 15, 16};
    static unsigned char out[16 * 64];
    static double t[4][NCOUNTS][ROUNDS];
    const unsigned char key[32] = {1};
    chacha20_ctx c;

    chacha20_set_key(&c, key);
    for (int r = 0; r < ROUNDS; r++) {
        for (int f = 0; f < 4; f++) {
            for (int k = 0; k < NCOUNTS; k++) {
                double start = now();
                for (int i = 0; i < CALLS; i++)
                    fns[f](c.input, out, NULL, counts[k]);
                t[f][k][r] = (now() - start) / CALLS;
            }
        }
    }
    printf("%-9s", "ns/call");
    for (int k = 0; k < NCOUNTS; k++)
        printf(" %6u", counts[k]);
    printf("  blocks\n");
    for (int f = 0; f < 4; f++) {
        printf("%-9s", names[f]);
        for (int k = 0; k < NCOUNTS; k++) {
            qsort(t[f][k], ROUNDS, sizeof(double), by_value);
            printf(" %6.1f", t[f][k][ROUNDS / 2]);
        }
        printf("\n");
    }
    aead();
    return out[0] == 0x42;
}
