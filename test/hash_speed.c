/* Speed of the portable hashes, side by side with OpenSSL: not a test (the
 * machine is shared and noisy), built on demand with `make test/hash_speed`.
 *
 *   test/hash_speed [-a] [-r RUNS]
 *
 * Prints, per hash, the median and the minimum over RUNS (default 7) of
 * thread CPU time: ns/byte on a 1 MB message, ns per 32-byte SipHash
 * (siphash_uint256, and init/write/finalize: "st"), and ns per 64-byte block
 * of sha256_d64 (1024 blocks in place). Without -a the public functions use the portable
 * code (the dispatch pointers start there); with -a sha256_autodetect runs
 * first. OpenSSL's figures use whatever assembly it picks for this CPU. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crypto/ripemd160.h"
#include "crypto/sha1.h"
#include "crypto/sha256.h"
#include "crypto/sha512.h"
#include "crypto/siphash.h"

#ifdef HAVE_OPENSSL
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#endif
#endif

#define MSG_LEN (1u << 20)
#define MAX_RUNS 64

static unsigned char *msg;
static unsigned char digest[64];
static volatile uint64_t sink;

static double now_ns(void)
{
    struct timespec ts;
    /* CPU time of this thread, not wall time: on a shared, overloaded
     * machine the time spent waiting for a core is not the hash's. */
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Fastest run, of the last measure(): on a loaded machine the minimum is
 * the figure least disturbed by other processes. */
static double last_min;

/* Median over runs of (time of `iters` calls of op) / units. */
static double measure(void (*op)(void *), void *arg, long iters, double units, int runs)
{
    double t[MAX_RUNS];
    int r;
    long i;
    op(arg); /* warm caches and page in the message */
    for (r = 0; r < runs; r++) {
        double start = now_ns();
        for (i = 0; i < iters; i++)
            op(arg);
        t[r] = (now_ns() - start) / (iters * units);
    }
    qsort(t, (size_t)runs, sizeof t[0], cmp_double);
    last_min = t[0];
    return t[runs / 2];
}

static void op_sha1(void *arg) { (void)arg; sha1_hash(digest, msg, MSG_LEN); }
static void op_sha256(void *arg) { (void)arg; sha256_hash(digest, msg, MSG_LEN); }
static void op_sha512(void *arg) { (void)arg; sha512_hash(digest, msg, MSG_LEN); }
static void op_ripemd160(void *arg) { (void)arg; ripemd160_hash(digest, msg, MSG_LEN); }
static void op_d64(void *arg) { (void)arg; sha256_d64(msg, msg, 1024); }

/* 1000 hashes per call, each of the 32 bytes the previous one's result was
 * stored into (as bench_bitcoin's SipHash_32b does): latency, not
 * throughput, store-to-load forwarding included. */
static void op_siphash32(void *arg)
{
    static unsigned char val[32];
    static uint64_t k1;
    int i;
    (void)arg;
    for (i = 0; i < 1000; i++) {
        uint64_t h = siphash_uint256(0, ++k1, val);
        memcpy(val, &h, sizeof h);
    }
}

static void op_siphash32_stream(void *arg)
{
    static unsigned char val[32];
    static uint64_t k1;
    int i;
    (void)arg;
    for (i = 0; i < 1000; i++) {
        siphash_ctx c;
        uint64_t h;
        siphash_init(&c, 0, ++k1);
        siphash_write(&c, val, 32);
        h = siphash_finalize(&c);
        memcpy(val, &h, sizeof h);
    }
}

#ifdef HAVE_OPENSSL
static void op_evp(void *arg)
{
    unsigned int n;
    EVP_Digest(msg, MSG_LEN, digest, &n, (const EVP_MD *)arg, NULL);
}

#if OPENSSL_VERSION_NUMBER >= 0x30000000L
/* One context reused, re-keyed per hash: the cheapest way through EVP_MAC. */
static void op_evp_siphash32(void *arg)
{
    EVP_MAC_CTX *c = arg;
    unsigned char key[16] = { 0 }, out[8];
    size_t got;
    int i;
    for (i = 0; i < 1000; i++) {
        key[0] = out[0];
        EVP_MAC_init(c, key, sizeof key, NULL);
        EVP_MAC_update(c, msg + (i & 63), 32);
        EVP_MAC_final(c, out, &got, sizeof out);
    }
    sink = out[0];
}
#endif

static const EVP_MD *fetch_md(const char *name)
{
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
    return EVP_MD_fetch(NULL, name, NULL);
#else
    return EVP_get_digestbyname(name);
#endif
}
#endif

static void row(const char *name, const char *unit, double ours, double ours_min,
                double theirs)
{
    printf("%-14s %9.3f %9.3f %9s", name, ours, ours_min, unit);
    if (theirs > 0)
        printf(" %9.3f %7.2fx", theirs, ours / theirs);
    putchar('\n');
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name, *evp;
        void (*op)(void *);
    } hashes[] = {
        { "SHA1", "SHA1", op_sha1 },
        { "SHA256", "SHA256", op_sha256 },
        { "SHA512", "SHA512", op_sha512 },
        { "RIPEMD160", "RIPEMD160", op_ripemd160 },
    };
    const char *impl = "standard (portable, not autodetected)";
    double ours_d64;
    int runs = 7, i;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-a") == 0) {
            impl = sha256_autodetect();
        } else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
            runs = atoi(argv[++i]);
            if (runs < 1 || runs > MAX_RUNS) {
                fprintf(stderr, "hash_speed: -r wants 1..%d\n", MAX_RUNS);
                return 2;
            }
        } else {
            fprintf(stderr, "usage: hash_speed [-a] [-r RUNS]\n");
            return 2;
        }
    }
    msg = malloc(MSG_LEN);
    if (!msg) {
        fprintf(stderr, "hash_speed: out of memory\n");
        return 1;
    }
    for (i = 0; i < (int)MSG_LEN; i++)
        msg[i] = (unsigned char)(i * 131 + 7);

#if defined(HAVE_OPENSSL) && OPENSSL_VERSION_NUMBER >= 0x30000000L
    (void)OSSL_PROVIDER_load(NULL, "legacy");
    (void)OSSL_PROVIDER_load(NULL, "default");
#endif
    printf("implementation: %s; median of %d runs\n", impl, runs);
    printf("%-14s %9s %9s %9s %9s %8s\n", "", "median", "min", "unit", "openssl", "ratio");
    for (i = 0; i < 4; i++) {
        double ours = measure(hashes[i].op, NULL, 4, MSG_LEN, runs), ours_min = last_min;
        double theirs = 0;
#ifdef HAVE_OPENSSL
        const EVP_MD *md = fetch_md(hashes[i].evp);
        if (md)
            theirs = measure(op_evp, (void *)md, 4, MSG_LEN, runs);
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
        EVP_MD_free((EVP_MD *)md);
#endif
#endif
        row(hashes[i].name, "ns/byte", ours, ours_min, theirs);
    }
    {
        double ours = measure(op_siphash32, NULL, 100, 1000, runs), ours_min = last_min;
        double theirs = 0;
#if defined(HAVE_OPENSSL) && OPENSSL_VERSION_NUMBER >= 0x30000000L
        EVP_MAC *mac = EVP_MAC_fetch(NULL, "SIPHASH", NULL);
        EVP_MAC_CTX *c = mac ? EVP_MAC_CTX_new(mac) : NULL;
        if (c) {
            size_t size = 8;
            unsigned char key[16] = { 0 };
            OSSL_PARAM p[2];
            p[0] = OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size);
            p[1] = OSSL_PARAM_construct_end();
            if (EVP_MAC_init(c, key, sizeof key, p) == 1)
                theirs = measure(op_evp_siphash32, c, 20, 1000, runs);
        }
        EVP_MAC_CTX_free(c);
        EVP_MAC_free(mac);
#endif
        row("SipHash 32b", "ns", ours, ours_min, theirs);
        ours = measure(op_siphash32_stream, NULL, 100, 1000, runs);
        row("SipHash 32b st", "ns", ours, last_min, 0);
    }
    ours_d64 = measure(op_d64, NULL, 20, 1024, runs);
    row("SHA256D64", "ns/block", ours_d64, last_min, 0);
    free(msg);
    return 0;
}
