/* What n ChaCha20 blocks cost each block function (doc/crypto.md, "ChaCha20-Poly1305"): the
 * AEAD asks a vector function for a whole burst of blocks where it needs fewer, because a
 * burst costs about what one block costs the portable code. Times, in ns per call, the
 * library's block functions on 1 to 8 and 16 blocks of keystream: the median of 21
 * rounds of 2,000 calls each, this thread's CPU time, the functions and counts alternated
 * within each round.
 * Not built by make; x86-64 with AVX-512 F and VL; from a build directory BUILD:
 *   gcc -O2 -I SRC/src -I BUILD SRC/doc/experiments/chacha20_burst.c \
 *       BUILD/src/crypto/.libs/libbitcoin_crypto.a -o chacha20_burst
 *   ./chacha20_burst */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "crypto/chacha20.h"
#include "crypto/chacha20_impl.h"

#define ROUNDS 21
#define CALLS 2000
#define NCOUNTS 9

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

int main(void)
{
    static const char *const names[4] = {"portable", "sse41", "avx2", "avx512"};
    static const chacha20_blocks_fn fns[4] = {chacha20_blocks_portable, chacha20_blocks_sse41,
                                              chacha20_blocks_avx2, chacha20_blocks_avx512};
    static const unsigned counts[NCOUNTS] = {1, 2, 3, 4, 5, 6, 7, 8, 16};
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
    return out[0] == 0x42;
}
