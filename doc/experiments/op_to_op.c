/* How much one 1 MB hash differs from the next in one process: the noise an epoch of one op
 * brings to -against's rounds.
 *
 *   cc -O2 -I src -I BUILD doc/experiments/op_to_op.c BUILD/src/crypto/.libs/libbitcoin_crypto.a \
 *      -lcrypto -lm -o op_to_op && ./op_to_op 300
 *
 * times N (default 300) back-to-back hashes of a 1 MB buffer with our SHA3-256, OpenSSL's
 * SHA3-256 and our RIPEMD-160 (portable C, the only form either of ours has), one function
 * after the other, and prints per function the median op
 * and its 10th and 90th percentiles, and the spread of the ratio of each op to the one before:
 * its interquartile range over 1.349 (what a standard deviation would be for normal noise),
 * in percent. */
#include "crypto/ripemd160.h"
#include "crypto/sha3.h"

#include <math.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define LEN 1000000
#define MAX_OPS 10000

static unsigned char buf[LEN];

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static void ours_sha3(unsigned char *out)
{
    sha3_256_hash(out, buf, LEN);
}

static void ours_ripemd160(unsigned char *out)
{
    ripemd160_ctx c;
    ripemd160_init(&c);
    ripemd160_write(&c, buf, LEN);
    ripemd160_finalize(&c, out);
}

static void openssl_sha3(unsigned char *out)
{
    unsigned int n;
    EVP_Digest(buf, LEN, out, &n, EVP_sha3_256(), NULL);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*fn)(unsigned char *);
    } fns[] = {
        {"ours SHA3-256", ours_sha3},       {"OpenSSL SHA3-256", openssl_sha3},
        {"ours RIPEMD-160", ours_ripemd160},
    };
    static double t[MAX_OPS], r[MAX_OPS];
    int n = argc > 1 ? atoi(argv[1]) : 300;
    size_t f;
    if (n < 8 || n > MAX_OPS) {
        fprintf(stderr, "op_to_op: N must be 8 to %d\n", MAX_OPS);
        return 2;
    }
    for (f = 0; f < sizeof fns / sizeof fns[0]; f++) {
        unsigned char out[64];
        int i;
        for (i = 0; i < n; i++) {
            double t0 = now_ms();
            fns[f].fn(out);
            t[i] = now_ms() - t0;
            buf[i % LEN] ^= out[0];   /* each op depends on the last */
        }
        for (i = 1; i < n; i++)
            r[i - 1] = log(t[i] / t[i - 1]);
        qsort(t, (size_t)n, sizeof t[0], cmp);
        qsort(r, (size_t)n - 1, sizeof r[0], cmp);
        printf("%-17s median %.2f ms (10%%: %.2f, 90%%: %.2f); op to op: %.2f%%\n",
               fns[f].name, t[n / 2], t[n / 10], t[n * 9 / 10],
               (r[(n - 1) * 3 / 4] - r[(n - 1) / 4]) / 1.349 * 100);
    }
    return 0;
}
