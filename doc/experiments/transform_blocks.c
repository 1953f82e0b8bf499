/* Transforms on short runs of blocks (doc/crypto.md, "Short inputs"): each
 * SHA-1, SHA-256 and SHA-512 implementation this CPU runs, called directly
 * on n = 1, 2, 3, 4, 8, 16 and 32 consecutive blocks, in ns per block: the
 * median of 21 rounds of 2,000 calls each, this thread's CPU time, the
 * implementations of one hash alternated within each round. Not built by
 * make; from a build directory BUILD:
 *   gcc -O2 -I SRC/src -I BUILD SRC/doc/experiments/transform_blocks.c \
 *       BUILD/src/crypto/.libs/libbitcoin_crypto.a -o transform_blocks
 *   ./transform_blocks
 * Built against the library of commit 1c843a8's parent, it shows the
 * pipelined transforms before short runs went one block at a time. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "crypto/dispatch.h"
#include "crypto/impl.h"

#define ROUNDS 21
#define CALLS 2000
#define MAX_IMPLS 8

static unsigned char blocks[32 * 128];

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Calls the transform in use for this hash CALLS times on n blocks. */
typedef void (*run_fn)(size_t n);
static uint32_t st32[8];
static uint64_t st64[8];
static void run_sha1(size_t n)
{
    for (int i = 0; i < CALLS; i++)
        sha1_transform_impl(st32, blocks, n);
}

static void run_sha256(size_t n)
{
    for (int i = 0; i < CALLS; i++)
        sha256_transform_impl(st32, blocks, n);
}

static void run_sha512(size_t n)
{
    for (int i = 0; i < CALLS; i++)
        sha512_transform_impl(st64, blocks, n);
}

static void sweep(const char *hash, size_t (*list)(const char **, size_t),
                  int (*force)(const char *), run_fn run)
{
    static const size_t ns[] = {1, 2, 3, 4, 8, 16, 32};
    const char *names[MAX_IMPLS];
    size_t k = list(names, MAX_IMPLS);

    printf("%s, ns per block:\n", hash);
    for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++) {
        double t[MAX_IMPLS][ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            for (size_t i = 0; i < k; i++) {
                double t0;
                force(names[i]);
                t0 = now();
                run(ns[j]);
                t[i][r] = (now() - t0) / CALLS / (double)ns[j];
            }
        }
        printf("  n=%2zu", ns[j]);
        for (size_t i = 0; i < k; i++) {
            qsort(t[i], ROUNDS, sizeof t[i][0], cmp);
            printf("  %s %.1f", names[i], t[i][ROUNDS / 2]);
        }
        putchar('\n');
    }
    force("auto");
}

int main(void)
{
    for (size_t i = 0; i < sizeof blocks; i++)
        blocks[i] = (unsigned char)(i * 7 + 1);
    sweep("SHA-1", sha1_impl_list, sha1_impl_force, run_sha1);
    sweep("SHA-256", sha256_impl_list, sha256_impl_force, run_sha256);
    sweep("SHA-512", sha512_impl_list, sha512_impl_force, run_sha512);
    return 0;
}
