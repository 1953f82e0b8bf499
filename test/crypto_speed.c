/* Side-by-side speed of every hash implementation this CPU runs, and
 * OpenSSL's, in one process.
 *
 * Not a test (speed is never asserted): a comparison program built on demand
 * with `make test/crypto_speed` (figures in doc/measurements.md). Prints the
 * time of the process's first detection (sha256_autodetect: every self-test,
 * and SHA-256's race) first.
 *
 *   test/crypto_speed [-r ROUNDS] [BENCHMARK...]
 *
 * Each benchmark has one row per implementation (every variant that its
 * primitive's set lists, crypto_variant_list, then "auto", the autodetected
 * choice) and one for OpenSSL. The rows of a benchmark are timed
 * in turns, round after round (ROUNDS, default 15), so a noisy neighbour
 * slows them alike; each timed batch lasts about 2 ms. Time is this
 * thread's CPU time, not wall time: on a shared machine the time the
 * scheduler gives other processes is not counted (their cache traffic still
 * is). Each row prints the median and the minimum over the rounds, and
 * OpenSSL's median over its median: above 1 means ours is faster.
 *
 * Benchmarks (names as bench_bitcoin's where it has one; give names to run
 * only those):
 *   SHA1, SHA256, SHA512, RIPEMD160  one-shot hash of 1,000,000 bytes, ns/byte
 *   SHA3_256_1M     the same for SHA3-256 (OpenSSL through EVP_Digest)
 *   SHA256_32b      init, write 32 bytes, finalize into those 32 bytes: each
 *                   hash's input is the previous digest (latency), ns/hash
 *   SHA256_1block   the bare transform of one block, chained through the
 *                   state: the floor under SHA256_32b (no OpenSSL row)
 *   SHA256D64_1024  sha256_d64 of 1024 blocks in place, ns per input; OpenSSL
 *                   hashes them one at a time (two SHA256 calls each)
 *   SipHash_32b     siphash_uint256, each input the previous result (like
 *                   bench_bitcoin's), ns/hash; OpenSSL through EVP_MAC
 *   SipHash_32b_stream  the same through siphash_init/write/finalize
 *   CHACHA20_1MB    1,000,000 bytes of ChaCha20 keystream, ns/byte; OpenSSL's
 *                   EVP_chacha20 encrypts 1,000,000 zero bytes (its way to
 *                   keystream), one context going on from call to call
 *   CHACHA20_CRYPT_1MB  1,000,000 bytes XORed with keystream, both sides
 *   CHACHA20_64     one 64-byte keystream call (what a FastRandom refill
 *                   makes), ns/call; OpenSSL encrypts 64 zero bytes
 *   CHACHA20_256    256 bytes XORed with keystream in one call (four blocks,
 *                   as bench_bitcoin's CHACHA20_256BYTES), ns/call, both sides
 *   POLY1305_64, POLY1305_256, POLY1305_1MB  poly1305_mac of 64, 256 and
 *                   1,000,000 bytes, ns/call and ns/byte, one fixed key (as
 *                   bench_bitcoin's rows: so consecutive calls overlap, which
 *                   is throughput, not latency); OpenSSL through EVP_MAC
 *                   "POLY1305", one context made once, EVP_MAC_init with the
 *                   key, update and final each call
 *   AEAD_64, AEAD_256, AEAD_1MB  chacha20poly1305_encrypt of 64, 256 and
 *                   1,000,000 bytes, no aad, a context made once, a new nonce
 *                   each call; OpenSSL's EVP_chacha20_poly1305 the same way (one
 *                   EVP_CIPHER_CTX keyed once; each call sets the nonce,
 *                   encrypts, finishes and reads the tag)
 *   FSAEAD_64       fschacha20poly1305_encrypt of 64 bytes (rekeying every 224
 *                   packets), ns/call; no OpenSSL row
 *
 * OpenSSL is called through SHA*_Init/Update/Final, its fastest path for
 * short inputs, with whatever assembly it picks for this CPU. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crypto/chacha20.h"
#include "crypto/chacha20poly1305.h"
#include "crypto/poly1305.h"
#include "crypto/impl.h"
#include "crypto/ripemd160.h"
#include "crypto/sha1.h"
#include "crypto/sha256.h"
#include "crypto/sha3.h"
#include "crypto/sha512.h"
#include "crypto/siphash.h"
#include "crypto/variant.h"
#include "util/timing.h"

#ifdef HAVE_OPENSSL
/* The SHA*_Init/Update/Final API is deprecated in 3.0: ask for 1.1.1's. */
#define OPENSSL_API_COMPAT 10101
#include <openssl/opensslv.h>
#include <openssl/ripemd.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <openssl/evp.h>
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#define HAVE_OPENSSL_SIPHASH 1
#endif
#endif

#define BIG (1000 * 1000)
#define D64_BLOCKS 1024
#define SIP_CHAIN 1000
#define MAX_ROWS 10
#define MAX_ROUNDS 64

static unsigned char big[BIG], bigout[BIG], zeros[BIG], digest[64], small[32], d64buf[64 * D64_BLOCKS];
static uint32_t chain_state[8];
static volatile uint64_t sink;

typedef struct {
    char label[48];
    const crypto_variant_set *set;    /* NULL: nothing to switch */
    const char *impl;
    void (*op)(void);
    int openssl;                      /* the reference row */
    double units;                     /* bytes or hashes per op */
    long iters;                       /* ops per timed batch */
    double samples[MAX_ROUNDS];
} row;

static double now_ns(void)
{
    return bb_clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

/* ---- ours --------------------------------------------------------------- */

static void op_sha1(void) { sha1_hash(digest, big, BIG); }
static void op_sha256(void) { sha256_hash(digest, big, BIG); }
static void op_sha512(void) { sha512_hash(digest, big, BIG); }
static void op_ripemd160(void) { ripemd160_hash(digest, big, BIG); }
static void op_sha3_256(void) { sha3_256_hash(digest, big, BIG); }
static void op_d64(void) { sha256_d64(d64buf, d64buf, D64_BLOCKS); }

static void op_sha256_32b(void)
{
    sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_write(&ctx, small, 32);
    sha256_finalize(&ctx, small);
}

static void op_sha256_1block(void)
{
    sha256_transform_impl(chain_state, big, 1);
}

static void op_siphash32(void)
{
    static unsigned char val[32];
    static uint64_t k1;
    for (int i = 0; i < SIP_CHAIN; i++) {
        uint64_t h = siphash_uint256(0, ++k1, val);
        memcpy(val, &h, sizeof h);
    }
}

static void op_siphash32_stream(void)
{
    static unsigned char val[32];
    static uint64_t k1;
    for (int i = 0; i < SIP_CHAIN; i++) {
        siphash_ctx c;
        uint64_t h;
        siphash_init(&c, 0, ++k1);
        siphash_write(&c, val, 32);
        h = siphash_finalize(&c);
        memcpy(val, &h, sizeof h);
    }
}

static chacha20_ctx chacha;

static void op_chacha20(void) { chacha20_keystream(&chacha, bigout, BIG); }
static void op_chacha20_crypt(void) { chacha20_crypt(&chacha, big, bigout, BIG); }
static void op_chacha20_64(void) { chacha20_keystream(&chacha, bigout, 64); }
static void op_chacha20_256(void) { chacha20_crypt(&chacha, big, bigout, 256); }

static unsigned char mac_key[32], aead_nonce[12], aead_out[BIG + 16];
static chacha20poly1305_ctx aead;
static fschacha20poly1305_ctx fsaead;

static void op_poly1305_64(void) { poly1305_mac(digest, big, 64, mac_key); }
static void op_poly1305_256(void) { poly1305_mac(digest, big, 256, mac_key); }
static void op_poly1305_1mb(void) { poly1305_mac(digest, big, BIG, mac_key); }

static void aead_op(size_t len)
{
    aead_nonce[0]++;
    chacha20poly1305_encrypt(&aead, aead_nonce, NULL, 0, big, len, aead_out);
}

static void op_aead_64(void) { aead_op(64); }
static void op_aead_256(void) { aead_op(256); }
static void op_aead_1mb(void) { aead_op(BIG); }
static void op_fsaead_64(void) { fschacha20poly1305_encrypt(&fsaead, NULL, 0, big, 64, aead_out); }

/* ---- OpenSSL ------------------------------------------------------------ */

#ifdef HAVE_OPENSSL
static void ossl_sha1(void)
{
    SHA_CTX c;
    SHA1_Init(&c);
    SHA1_Update(&c, big, BIG);
    SHA1_Final(digest, &c);
}

/* EVP only: OpenSSL has no SHA3 counterpart of SHA256_Init. Its per-call
 * overhead (a digest lookup) is microseconds against milliseconds here. */
static void ossl_sha3_256(void)
{
    EVP_Digest(big, BIG, digest, NULL, EVP_sha3_256(), NULL);
}

static void ossl_sha256(void)
{
    SHA256_CTX c;
    SHA256_Init(&c);
    SHA256_Update(&c, big, BIG);
    SHA256_Final(digest, &c);
}

static void ossl_sha512(void)
{
    SHA512_CTX c;
    SHA512_Init(&c);
    SHA512_Update(&c, big, BIG);
    SHA512_Final(digest, &c);
}

static void ossl_ripemd160(void)
{
    RIPEMD160_CTX c;
    RIPEMD160_Init(&c);
    RIPEMD160_Update(&c, big, BIG);
    RIPEMD160_Final(digest, &c);
}

static void ossl_sha256_32b(void)
{
    SHA256_CTX c;
    SHA256_Init(&c);
    SHA256_Update(&c, small, 32);
    SHA256_Final(small, &c);
}

static void ossl_d64(void)
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

static EVP_CIPHER_CTX *chacha_ossl;

static void ossl_chacha20(void)
{
    int outl;
    EVP_EncryptUpdate(chacha_ossl, bigout, &outl, zeros, BIG);
}

static void ossl_chacha20_crypt(void)
{
    int outl;
    EVP_EncryptUpdate(chacha_ossl, bigout, &outl, big, BIG);
}

static void ossl_chacha20_64(void)
{
    int outl;
    EVP_EncryptUpdate(chacha_ossl, bigout, &outl, zeros, 64);
}

static void ossl_chacha20_256(void)
{
    int outl;
    EVP_EncryptUpdate(chacha_ossl, bigout, &outl, big, 256);
}

static int chacha_setup(void)
{
    static const unsigned char key[32], iv[16];
    chacha_ossl = EVP_CIPHER_CTX_new();
    return chacha_ossl != NULL
        && EVP_EncryptInit_ex(chacha_ossl, EVP_chacha20(), NULL, key, iv) == 1;
}

static EVP_CIPHER_CTX *aead_ossl;

static void ossl_aead_op(size_t len)
{
    int outl, finl;
    aead_nonce[0]++;
    EVP_EncryptInit_ex(aead_ossl, NULL, NULL, NULL, aead_nonce);
    EVP_EncryptUpdate(aead_ossl, aead_out, &outl, big, (int)len);
    EVP_EncryptFinal_ex(aead_ossl, aead_out + outl, &finl);
    EVP_CIPHER_CTX_ctrl(aead_ossl, EVP_CTRL_AEAD_GET_TAG, 16, aead_out + len);
}

static void ossl_aead_64(void) { ossl_aead_op(64); }
static void ossl_aead_256(void) { ossl_aead_op(256); }
static void ossl_aead_1mb(void) { ossl_aead_op(BIG); }

static int aead_setup(void)
{
    static const unsigned char key[32];
    aead_ossl = EVP_CIPHER_CTX_new();
    return aead_ossl != NULL
        && EVP_EncryptInit_ex(aead_ossl, EVP_chacha20_poly1305(), NULL, key, aead_nonce) == 1;
}
#else
static int chacha_setup(void) { return 0; }
static int aead_setup(void) { return 0; }
#define ossl_aead_64 NULL
#define ossl_aead_256 NULL
#define ossl_aead_1mb NULL
#define ossl_chacha20 NULL
#define ossl_chacha20_crypt NULL
#define ossl_chacha20_64 NULL
#define ossl_chacha20_256 NULL
#define ossl_sha1 NULL
#define ossl_sha256 NULL
#define ossl_sha3_256 NULL
#define ossl_sha512 NULL
#define ossl_ripemd160 NULL
#define ossl_sha256_32b NULL
#define ossl_d64 NULL
#endif

#ifdef HAVE_OPENSSL_SIPHASH
/* One context reused, re-keyed per hash (each key taken from the previous
 * result, as ours chains): the cheapest way through EVP_MAC. */
static EVP_MAC_CTX *sip_ctx;

static void ossl_siphash32(void)
{
    unsigned char key[16] = { 0 }, out[8] = { 0 };
    size_t got;
    for (int i = 0; i < SIP_CHAIN; i++) {
        key[0] = out[0];
        EVP_MAC_init(sip_ctx, key, sizeof key, NULL);
        EVP_MAC_update(sip_ctx, big + (i & 63), 32);
        EVP_MAC_final(sip_ctx, out, &got, sizeof out);
    }
    sink = out[0];
}

static int sip_setup(void)
{
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "SIPHASH", NULL);
    size_t size = 8;
    unsigned char key[16] = { 0 };
    OSSL_PARAM p[2];

    sip_ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
    EVP_MAC_free(mac);   /* the context keeps its own reference */
    if (sip_ctx == NULL)
        return 0;
    p[0] = OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size);
    p[1] = OSSL_PARAM_construct_end();
    return EVP_MAC_init(sip_ctx, key, sizeof key, p) == 1;
}
#else
#define ossl_siphash32 NULL
static int sip_setup(void) { return 0; }
#endif

#ifdef HAVE_OPENSSL_SIPHASH
static EVP_MAC_CTX *poly_ossl;

static void ossl_poly1305_op(size_t len)
{
    size_t got;
    EVP_MAC_init(poly_ossl, mac_key, sizeof mac_key, NULL);
    EVP_MAC_update(poly_ossl, big, len);
    EVP_MAC_final(poly_ossl, digest, &got, 16);
}

static void ossl_poly1305_64(void) { ossl_poly1305_op(64); }
static void ossl_poly1305_256(void) { ossl_poly1305_op(256); }
static void ossl_poly1305_1mb(void) { ossl_poly1305_op(BIG); }

static int poly_setup(void)
{
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "POLY1305", NULL);
    poly_ossl = mac ? EVP_MAC_CTX_new(mac) : NULL;
    EVP_MAC_free(mac);
    return poly_ossl != NULL;
}
#else
#define ossl_poly1305_64 NULL
#define ossl_poly1305_256 NULL
#define ossl_poly1305_1mb NULL
static int poly_setup(void) { return 0; }
#endif

/* ---- timing ------------------------------------------------------------- */

static void prepare(const row *r)
{
    if (r->set && crypto_variant_force(r->set, r->impl) != 0) {
        fprintf(stderr, "crypto_speed: cannot force %s\n", r->impl);
        exit(1);
    }
}

/* Times the rows in turns and prints one line each. */
static void compare(const char *title, const char *unit, row *rows, size_t n, int rounds)
{
    double ref = 0;

    for (size_t i = 0; i < n; i++) {
        double t;
        prepare(&rows[i]);
        rows[i].op();   /* warm up: caches, page faults, lazy binding */
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
    for (size_t i = 0; i < n; i++) {
        bb_sort_doubles(rows[i].samples, (size_t)rounds);
        if (rows[i].openssl)
            ref = rows[i].samples[rounds / 2];
    }
    printf("\n%-18s %-38s %10s %10s %9s\n", title, unit, "median", "min", "OpenSSL/x");
    for (size_t i = 0; i < n; i++) {
        double med = rows[i].samples[rounds / 2];
        printf("%-18s %-38s %10.3f %10.3f", "", rows[i].label, med, rows[i].samples[0]);
        if (ref > 0)
            printf(" %9.2f", ref / med);
        putchar('\n');
    }
}

/* The rows of one benchmark: each implementation in the primitive's variant set (no set:
 * just "standard"), "auto", then OpenSSL when ossl_op. */
static size_t make_rows(row *rows, const crypto_variant_set *set, void (*op)(void),
                        void (*ossl_op)(void), double units)
{
    const char *names[MAX_ROWS];
    size_t n = set ? crypto_variant_list(set, names, MAX_ROWS - 2) : 0, k = 0;

    if (set == NULL) {
        rows[k] = (row){.op = op, .units = units};
        snprintf(rows[k++].label, sizeof rows[0].label, "standard");
    }
    for (size_t i = 0; i < n && i < MAX_ROWS - 2; i++) {
        rows[k] = (row){.set = set, .impl = names[i], .op = op, .units = units};
        crypto_variant_force(set, names[i]);
        snprintf(rows[k++].label, sizeof rows[0].label, "%s", crypto_variant_current(set));
    }
    if (set != NULL) {
        rows[k] = (row){.set = set, .impl = "auto", .op = op, .units = units};
        crypto_variant_force(set, "auto");
        snprintf(rows[k++].label, sizeof rows[0].label, "auto: %s",
                 crypto_variant_current(set));
    }
    if (ossl_op != NULL) {
        rows[k] = (row){.op = ossl_op, .openssl = 1, .units = units};
        snprintf(rows[k++].label, sizeof rows[0].label, "OpenSSL");
    }
    return k;
}

/* family: the variant set whose implementations get a row each (NULL: none). */
typedef struct {
    const char *name, *unit, *family;
    void (*op)(void), (*ossl_op)(void);
    double units;
} benchmark;

int main(int argc, char **argv)
{
    benchmark benches[] = {
        {"SHA1", "1 MB, ns/byte", "sha1", op_sha1, ossl_sha1, BIG},
        {"SHA256", "1 MB, ns/byte", "sha256", op_sha256, ossl_sha256, BIG},
        {"SHA512", "1 MB, ns/byte", "sha512", op_sha512, ossl_sha512, BIG},
        {"RIPEMD160", "1 MB, ns/byte", NULL, op_ripemd160, ossl_ripemd160, BIG},
        {"SHA3_256_1M", "1 MB, ns/byte", NULL, op_sha3_256, ossl_sha3_256, BIG},
        {"SHA256_32b", "ns/hash", "sha256", op_sha256_32b, ossl_sha256_32b, 1},
        {"SHA256_1block", "transform only, ns/block", "sha256", op_sha256_1block, NULL, 1},
        {"SHA256D64_1024", "ns/input", "sha256", op_d64, ossl_d64, D64_BLOCKS},
        {"SipHash_32b", "ns/hash", NULL, op_siphash32, ossl_siphash32, SIP_CHAIN},
        {"SipHash_32b_stream", "ns/hash", NULL, op_siphash32_stream, NULL, SIP_CHAIN},
        {"CHACHA20_1MB", "keystream, ns/byte", "chacha20", op_chacha20, ossl_chacha20, BIG},
        {"CHACHA20_CRYPT_1MB", "XOR, ns/byte", "chacha20", op_chacha20_crypt,
         ossl_chacha20_crypt, BIG},
        {"CHACHA20_64", "64-byte keystream, ns/call", "chacha20", op_chacha20_64,
         ossl_chacha20_64, 1},
        {"CHACHA20_256", "256-byte XOR, ns/call", "chacha20", op_chacha20_256,
         ossl_chacha20_256, 1},
        {"POLY1305_64", "64 bytes, ns/call", "poly1305", op_poly1305_64, ossl_poly1305_64, 1},
        {"POLY1305_256", "256 bytes, ns/call", "poly1305", op_poly1305_256, ossl_poly1305_256,
         1},
        {"POLY1305_1MB", "1 MB, ns/byte", "poly1305", op_poly1305_1mb, ossl_poly1305_1mb, BIG},
        {"AEAD_64", "encrypt 64 bytes, ns/call", "chacha20poly1305", op_aead_64, ossl_aead_64,
         1},
        {"AEAD_256", "encrypt 256 bytes, ns/call", "chacha20poly1305", op_aead_256,
         ossl_aead_256, 1},
        {"AEAD_1MB", "encrypt 1 MB, ns/byte", "chacha20poly1305", op_aead_1mb, ossl_aead_1mb,
         BIG},
        {"FSAEAD_64", "encrypt 64 bytes, ns/call", "chacha20poly1305", op_fsaead_64, NULL, 1},
    };
    const size_t n_benches = sizeof benches / sizeof benches[0];
    row rows[MAX_ROWS];
    int rounds = 15, first = 1, ran = 0;

    if (argc > 2 && strcmp(argv[1], "-r") == 0) {
        rounds = atoi(argv[2]);
        first = 3;
    }
    if (rounds < 1 || rounds > MAX_ROUNDS) {
        fprintf(stderr, "crypto_speed: ROUNDS must be 1..%d\n", MAX_ROUNDS);
        return 2;
    }
    for (int a = first; a < argc; a++) {
        size_t b = 0;
        while (b < n_benches && strcmp(argv[a], benches[b].name) != 0)
            b++;
        if (b == n_benches) {
            fprintf(stderr, "usage: crypto_speed [-r ROUNDS] [BENCHMARK...]\nbenchmarks:");
            for (b = 0; b < n_benches; b++)
                fprintf(stderr, " %s", benches[b].name);
            fputc('\n', stderr);
            return 2;
        }
    }
    for (size_t i = 0; i < BIG; i++)
        big[i] = (unsigned char)(i * 131 + 7);
    memcpy(chain_state, sha256_iv, sizeof chain_state);
    {
        static const unsigned char key[32];
        chacha20_set_key(&chacha, key);
    }
    if (!chacha_setup()) {
        for (size_t b = 0; b < n_benches; b++)
            if (strncmp(benches[b].name, "CHACHA20", 8) == 0)
                benches[b].ossl_op = NULL;
    }
    for (size_t i = 0; i < sizeof mac_key; i++)
        mac_key[i] = (unsigned char)(i * 37 + 11);
    {
        static const unsigned char key[32];
        chacha20poly1305_init(&aead, key);
        fschacha20poly1305_init(&fsaead, key, 224);
    }
    if (!aead_setup() || !poly_setup()) {
        for (size_t b = 0; b < n_benches; b++)
            if (strncmp(benches[b].name, "AEAD", 4) == 0
                || strncmp(benches[b].name, "POLY1305", 8) == 0)
                benches[b].ossl_op = NULL;
    }
    if (!sip_setup()) {
        for (size_t b = 0; b < n_benches; b++)
            if (strcmp(benches[b].name, "SipHash_32b") == 0)
                benches[b].ossl_op = NULL;
    }
    {
        /* the process's first detection: every self-test, and SHA-256's race */
        double t = bb_clock_ns(CLOCK_MONOTONIC);
        const char *chosen = sha256_autodetect();
        t = bb_clock_ns(CLOCK_MONOTONIC) - t;
        printf("sha256_autodetect: %s (first call %.2f ms); medians of %d rounds\n", chosen,
               t / 1e6, rounds);
    }

    for (size_t b = 0; b < n_benches; b++) {
        const crypto_variant_set *set;
        size_t n;
        int wanted = first == argc;
        for (int a = first; a < argc; a++)
            wanted |= strcmp(argv[a], benches[b].name) == 0;
        if (!wanted)
            continue;
        set = benches[b].family ? crypto_variant_set_find(benches[b].family) : NULL;
        n = make_rows(rows, set, benches[b].op, benches[b].ossl_op, benches[b].units);
        compare(benches[b].name, benches[b].unit, rows, n, rounds);
        crypto_variant_force(set, "auto");
        ran++;
    }
#ifdef HAVE_OPENSSL_SIPHASH
    EVP_MAC_CTX_free(sip_ctx);
#endif
#ifdef HAVE_OPENSSL
    EVP_CIPHER_CTX_free(chacha_ossl);
    EVP_CIPHER_CTX_free(aead_ossl);
#endif
#ifdef HAVE_OPENSSL_SIPHASH
    EVP_MAC_CTX_free(poly_ossl);
#endif
    sink = digest[0] + bigout[0] + small[0] + d64buf[0] + chain_state[0];
    return ran > 0 ? 0 : 1;
}
