/* Side-by-side speed of every hash implementation this CPU runs and OpenSSL's.
 *
 * Not a test (speed is never asserted): a comparison program built on demand
 * with `make test/crypto_speed`. Each benchmark's rows are timed in turns,
 * round after round (so a noisy neighbour slows them alike), and each row
 * reports the median over the rounds. Time is this thread's CPU time, not
 * wall time, so the time the scheduler gives other processes on a busy
 * machine is not counted (their cache traffic still is). The last column is
 * OpenSSL's time over ours: above 1 means ours is faster.
 *
 * Usage: crypto_speed [rounds]   (default 15) */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crypto/dispatch.h"
#include "crypto/sha1.h"
#include "crypto/sha256.h"
#include "crypto/sha512.h"

#ifdef HAVE_OPENSSL
/* The one-call-per-step SHA*_Init/Update/Final API is OpenSSL's fastest for
 * short messages; it is deprecated in 3.0, so ask for the 1.1.1 API. */
#define OPENSSL_API_COMPAT 10101
#include <openssl/sha.h>
#endif

#define BIG (1000 * 1000)
#define D64_BLOCKS 1024
#define MAX_ROWS 8

static unsigned char big[BIG], digest[64], small[32], d64buf[64 * D64_BLOCKS];

typedef struct {
    char label[40];
    int (*force)(const char *name);   /* NULL for OpenSSL rows */
    const char *impl;
    void (*op)(void);
    double units;                     /* bytes or inputs per op */
    long iters;                       /* ops per timed batch */
    double samples[64];
} row;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void op_sha256(void) { sha256_hash(digest, big, BIG); }
static void op_sha1(void) { sha1_hash(digest, big, BIG); }
static void op_sha512(void) { sha512_hash(digest, big, BIG); }

static void op_sha256_32b(void)
{
    sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_write(&ctx, small, 32);
    sha256_finalize(&ctx, small);
}

static void op_d64(void) { sha256_d64(d64buf, d64buf, D64_BLOCKS); }

#ifdef HAVE_OPENSSL
static void op_ossl_sha256(void)
{
    SHA256_CTX c;
    SHA256_Init(&c);
    SHA256_Update(&c, big, BIG);
    SHA256_Final(digest, &c);
}

static void op_ossl_sha1(void)
{
    SHA_CTX c;
    SHA1_Init(&c);
    SHA1_Update(&c, big, BIG);
    SHA1_Final(digest, &c);
}

static void op_ossl_sha512(void)
{
    SHA512_CTX c;
    SHA512_Init(&c);
    SHA512_Update(&c, big, BIG);
    SHA512_Final(digest, &c);
}

static void op_ossl_sha256_32b(void)
{
    SHA256_CTX c;
    SHA256_Init(&c);
    SHA256_Update(&c, small, 32);
    SHA256_Final(small, &c);
}

/* The same double hashes, one input at a time. */
static void op_ossl_d64(void)
{
    unsigned char mid[32];
    for (size_t i = 0; i < D64_BLOCKS; i++) {
        SHA256_CTX c;
        SHA256_Init(&c);
        SHA256_Update(&c, d64buf + 64 * i, 64);
        SHA256_Final(mid, &c);
        SHA256_Init(&c);
        SHA256_Update(&c, mid, 32);
        SHA256_Final(d64buf + 32 * i, &c);
    }
}
#endif

static void prepare(row *r)
{
    if (r->force && r->force(r->impl) != 0) {
        fprintf(stderr, "crypto_speed: cannot force %s\n", r->impl);
        exit(1);
    }
}

/* Times the rows in turns; prints one line each. */
static void compare(const char *title, const char *unit, row *rows, size_t n, int rounds)
{
    double ossl = 0;

    /* Size each batch to about 2 ms. */
    for (size_t i = 0; i < n; i++) {
        double t;
        prepare(&rows[i]);
        rows[i].op();
        t = now_ns();
        rows[i].op();
        t = now_ns() - t;
        rows[i].iters = t > 2e6 ? 1 : (long)(2e6 / (t + 1)) + 1;
    }
    for (int k = 0; k < rounds; k++) {
        for (size_t i = 0; i < n; i++) {
            double t;
            prepare(&rows[i]);
            t = now_ns();
            for (long j = 0; j < rows[i].iters; j++)
                rows[i].op();
            t = now_ns() - t;
            rows[i].samples[k] = t / ((double)rows[i].iters * rows[i].units);
        }
    }
    for (size_t i = 0; i < n; i++)
        qsort(rows[i].samples, (size_t)rounds, sizeof(double), cmp_double);
    for (size_t i = 0; i < n; i++)
        if (rows[i].force == NULL)
            ossl = rows[i].samples[rounds / 2];
    printf("\n%-16s %-34s %12s %10s\n", title, "implementation", unit, "OpenSSL/x");
    for (size_t i = 0; i < n; i++) {
        double med = rows[i].samples[rounds / 2];
        printf("%-16s %-34s %12.3f", "", rows[i].label, med);
        if (ossl > 0)
            printf(" %10.2f", ossl / med);
        printf("\n");
    }
}

/* One row per implementation of a hash, plus "auto" and OpenSSL. */
static size_t make_rows(row *rows, size_t (*list)(const char **, size_t),
                        int (*force)(const char *), const char *(*current)(void),
                        void (*op)(void), void (*ossl_op)(void), double units)
{
    const char *names[MAX_ROWS];
    size_t n = list(names, MAX_ROWS - 2), k = 0;

    for (size_t i = 0; i < n && i < MAX_ROWS - 2; i++) {
        rows[k] = (row){.force = force, .impl = names[i], .op = op, .units = units};
        force(names[i]);
        snprintf(rows[k++].label, sizeof rows[0].label, "%s", current());
    }
    rows[k] = (row){.force = force, .impl = "auto", .op = op, .units = units};
    force("auto");
    snprintf(rows[k++].label, sizeof rows[0].label, "auto: %s", current());
#ifdef HAVE_OPENSSL
    rows[k] = (row){.op = ossl_op, .units = units};
    snprintf(rows[k++].label, sizeof rows[0].label, "OpenSSL");
#else
    (void)ossl_op;
#endif
    return k;
}

#ifndef HAVE_OPENSSL
#define op_ossl_sha256 NULL
#define op_ossl_sha1 NULL
#define op_ossl_sha512 NULL
#define op_ossl_sha256_32b NULL
#define op_ossl_d64 NULL
#endif

int main(int argc, char **argv)
{
    row rows[MAX_ROWS];
    size_t n;
    int rounds = argc > 1 ? atoi(argv[1]) : 15;

    if (rounds < 1 || rounds > 64) {
        fprintf(stderr, "crypto_speed: rounds must be 1..64\n");
        return 1;
    }
    for (size_t i = 0; i < BIG; i++)
        big[i] = (unsigned char)(i * 131 + 7);
    printf("sha256_autodetect: %s; medians of %d rounds\n", sha256_autodetect(), rounds);

    n = make_rows(rows, sha1_impl_list, sha1_impl_force, sha1_impl_current, op_sha1,
                  op_ossl_sha1, BIG);
    compare("SHA1 1MB", "ns/byte", rows, n, rounds);
    n = make_rows(rows, sha256_impl_list, sha256_impl_force, sha256_impl_current, op_sha256,
                  op_ossl_sha256, BIG);
    compare("SHA256 1MB", "ns/byte", rows, n, rounds);
    n = make_rows(rows, sha512_impl_list, sha512_impl_force, sha512_impl_current, op_sha512,
                  op_ossl_sha512, BIG);
    compare("SHA512 1MB", "ns/byte", rows, n, rounds);
    n = make_rows(rows, sha256_impl_list, sha256_impl_force, sha256_impl_current,
                  op_sha256_32b, op_ossl_sha256_32b, 1);
    compare("SHA256_32b", "ns/hash", rows, n, rounds);
    n = make_rows(rows, sha256_impl_list, sha256_impl_force, sha256_impl_current, op_d64,
                  op_ossl_d64, D64_BLOCKS);
    compare("SHA256D64_1024", "ns/input", rows, n, rounds);
    return 0;
}
