/* SHA-1 on 1,000,000 zero bytes, ours (whatever sha256_autodetect picks for
 * SHA-1: SHA-NI where the CPU has it) against OpenSSL's SHA1_Init/Update/
 * Final, each on the buffer bench_bitcoin -compare gives it (ours a heap
 * block, OpenSSL's a static array), in ns/byte of this thread's CPU time
 * (doc/crypto.md, "SHA-1 against OpenSSL"). Two schedules:
 *   interleaved  one hash of each in turn, 31 rounds: drift falls on both;
 *   blocked      31 of ours, then 31 of OpenSSL's, as -compare ran its rows
 *                one after the other.
 * Then the same interleaved with the buffers swapped, to rule out placement.
 * Prints medians and minima. Not built by make; from a build directory BUILD:
 *   gcc -O2 -I SRC/src SRC/doc/experiments/sha1_order.c \
 *       BUILD/src/crypto/.libs/libbitcoin_crypto.a \
 *       BUILD/src/util/.libs/libbitcoin_util.a -lcrypto -o sha1_order
 *   for i in 1 2 3; do ./sha1_order; done */
#define OPENSSL_API_COMPAT 10101
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crypto/dispatch.h"
#include "crypto/sha1.h"
#include "crypto/sha256.h"

#define LEN 1000000
#define ROUNDS 31

static unsigned char static_buf[LEN], out[20];

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ns/byte of one hash of buf by ours (which 0) or OpenSSL's (1). */
static double one(int which, const unsigned char *buf)
{
    double t = now();
    if (which == 0) {
        sha1_ctx c;
        sha1_init(&c);
        sha1_write(&c, buf, LEN);
        sha1_finalize(&c, out);
    } else {
        SHA_CTX c;
        SHA1_Init(&c);
        SHA1_Update(&c, buf, LEN);
        SHA1_Final(out, &c);
    }
    return (now() - t) / LEN;
}

static void report(const char *what, double t[2][ROUNDS])
{
    qsort(t[0], ROUNDS, sizeof t[0][0], cmp);
    qsort(t[1], ROUNDS, sizeof t[1][0], cmp);
    printf("%-34s ours %.4f (min %.4f)  OpenSSL %.4f (min %.4f)  OpenSSL/ours %.3f\n", what,
           t[0][ROUNDS / 2], t[0][0], t[1][ROUNDS / 2], t[1][0],
           t[1][ROUNDS / 2] / t[0][ROUNDS / 2]);
}

int main(void)
{
    unsigned char *heap = calloc(1, LEN);
    static double t[2][ROUNDS];
    const unsigned char *buf[2];

    if (!heap)
        return 1;
    sha256_autodetect();
    printf("SHA-1: %s; heap buffer at %lu mod 64, static at %lu\n", sha1_impl_current(),
           (unsigned long)((size_t)heap % 64), (unsigned long)((size_t)static_buf % 64));
    buf[0] = heap;
    buf[1] = static_buf;
    one(0, heap);   /* warm-up: page faults, lazy binding */
    one(1, static_buf);
    for (int r = 0; r < ROUNDS; r++)
        for (int k = 0; k < 2; k++)
            t[k][r] = one(k, buf[k]);
    report("interleaved", t);
    for (int k = 0; k < 2; k++)
        for (int r = 0; r < ROUNDS; r++)
            t[k][r] = one(k, buf[k]);
    report("blocked (as -compare's rows)", t);
    for (int r = 0; r < ROUNDS; r++)
        for (int k = 0; k < 2; k++)
            t[k][r] = one(k, buf[1 - k]);
    report("interleaved, buffers swapped", t);
    free(heap);
    return 0;
}
