/* Shared checks for the digest tests (test_sha1, test_sha256, test_sha512,
 * test_ripemd160). Each test describes its hash with a hash_desc (wrappers
 * over the public functions, so the checks call them through one shape) and
 * calls hash_test_all. Header-only: every function is static, and each test
 * program includes this once.
 *
 * What is checked:
 *   - known answers (message given as text repeated n times);
 *   - every split point of two writes, for every length 0..300, against the
 *     one-shot P_hash;
 *   - copied contexts (midstates) continue independently;
 *   - a NULL write of length 0 changes nothing;
 *   - random lengths up to ~48 KB at misaligned offsets, written in random
 *     pieces, against the one-shot;
 *   - with OpenSSL: P_hash of every length 0..300 and random lengths up to
 *     ~48 KB at misaligned offsets, written in random-sized pieces, against
 *     the EVP digest of the same name. */
#ifndef TEST_HASH_TEST_H
#define TEST_HASH_TEST_H

#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#ifdef HAVE_OPENSSL
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
#include <openssl/provider.h>
#endif
#endif

#define HASH_TEST_MAX_OUT 64
#define HASH_TEST_MAX_CTX 512
#define HASH_TEST_SPLIT_MAX 300

typedef struct {
    const char *name;        /* for messages, and the OpenSSL digest name */
    size_t out_len;
    size_t ctx_size;         /* sizeof the context, at most HASH_TEST_MAX_CTX */
    void (*init)(void *ctx);
    void (*write)(void *ctx, const void *data, size_t len);
    void (*finalize)(void *ctx, unsigned char *out);
    void (*hash)(unsigned char *out, const void *data, size_t len);
} hash_desc;

/* Defines the wrappers and a hash_desc named P_desc for prefix P. */
#define HASH_TEST_DESC(P, NAME, OUT) \
    static void P##_init_w(void *c) { P##_init((P##_ctx *)c); } \
    static void P##_write_w(void *c, const void *d, size_t n) { P##_write((P##_ctx *)c, d, n); } \
    static void P##_final_w(void *c, unsigned char *o) { P##_finalize((P##_ctx *)c, o); } \
    static const hash_desc P##_desc = { \
        NAME, OUT, sizeof(P##_ctx), P##_init_w, P##_write_w, P##_final_w, P##_hash \
    }

typedef struct {
    const char *text;        /* written `repeat` times */
    size_t repeat;
    const char *hex;         /* expected digest */
} hash_kat;

/* Context storage with the strictest alignment a context needs. */
typedef union {
    unsigned char bytes[HASH_TEST_MAX_CTX];
    uint64_t align64;
    long double align_ld;
    void *align_ptr;
} hash_test_ctx;

static int hash_test_equal(const hash_desc *h, const unsigned char *got,
                           const unsigned char *want, const char *what, size_t a, size_t b)
{
    char gh[2 * HASH_TEST_MAX_OUT + 1], wh[2 * HASH_TEST_MAX_OUT + 1];
    if (memcmp(got, want, h->out_len) == 0)
        return CHECK(1);
    check_hex(gh, got, h->out_len);
    check_hex(wh, want, h->out_len);
    return CHECKF(0, "%s %s (%zu, %zu): got %s want %s", h->name, what, a, b, gh, wh);
}

static void hash_test_kats(const hash_desc *h, const hash_kat *kats, size_t n)
{
    size_t i, r;
    for (i = 0; i < n; i++) {
        hash_test_ctx ctx;
        unsigned char want[HASH_TEST_MAX_OUT], got[HASH_TEST_MAX_OUT];
        size_t tlen = strlen(kats[i].text);
        CHECK(check_unhex(want, sizeof want, kats[i].hex) == h->out_len);
        h->init(&ctx);
        for (r = 0; r < kats[i].repeat; r++)
            h->write(&ctx, kats[i].text, tlen);
        h->finalize(&ctx, got);
        hash_test_equal(h, got, want, "known answer", i, kats[i].repeat);
        if (kats[i].repeat == 1) {
            h->hash(got, kats[i].text, tlen);
            hash_test_equal(h, got, want, "known answer one-shot", i, 1);
        }
    }
}

/* Two writes split at every point, for every length up to 300: catches every
 * buffer boundary case (partial block, exactly full, spill into the next). */
static void hash_test_splits(const hash_desc *h, const unsigned char *msg)
{
    size_t len, cut;
    for (len = 0; len <= HASH_TEST_SPLIT_MAX; len++) {
        unsigned char want[HASH_TEST_MAX_OUT];
        unsigned long before = check_failures();
        h->hash(want, msg, len);
        for (cut = 0; cut <= len; cut++) {
            hash_test_ctx ctx;
            unsigned char got[HASH_TEST_MAX_OUT];
            h->init(&ctx);
            h->write(&ctx, msg, cut);
            h->write(&ctx, NULL, 0);
            h->write(&ctx, msg + cut, len - cut);
            h->finalize(&ctx, got);
            hash_test_equal(h, got, want, "split (len, cut)", len, cut);
            if (check_failures() > before + 3)
                return; /* one broken length would print thousands of lines */
        }
    }
}

/* A copy of a context taken mid-stream is a midstate: the copy and the
 * original, fed different tails, each give the hash of their own message. */
static void hash_test_copies(const hash_desc *h, const unsigned char *msg)
{
    static const size_t prefixes[] = { 0, 1, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129,
                                       135, 136, 137, 200, 271, 272 };
    size_t i, k;
    for (i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t pre = prefixes[i];
        hash_test_ctx orig, copies[3];
        unsigned char buf[512], want[HASH_TEST_MAX_OUT], got[HASH_TEST_MAX_OUT];
        h->init(&orig);
        h->write(&orig, msg, pre);
        for (k = 0; k < 3; k++)
            memcpy(&copies[k], &orig, h->ctx_size); /* what `copy = ctx` does */
        for (k = 0; k < 3; k++) {
            /* tails of different lengths and contents per copy */
            size_t tail = 17 + 70 * k;
            memcpy(buf, msg, pre);
            memcpy(buf + pre, msg + 300 - tail, tail);
            h->write(&copies[k], msg + 300 - tail, tail);
            h->finalize(&copies[k], got);
            h->hash(want, buf, pre + tail);
            hash_test_equal(h, got, want, "copied context (prefix, copy)", pre, k);
        }
        h->finalize(&orig, got);
        h->hash(want, msg, pre);
        hash_test_equal(h, got, want, "original after copies (prefix)", pre, 0);
    }
}

/* Writes len bytes of msg in random-sized pieces (from single bytes to many
 * blocks) and finalizes. */
static void hash_test_pieces(const hash_desc *h, const unsigned char *msg, size_t len,
                             unsigned char *out)
{
    hash_test_ctx ctx;
    size_t done = 0;
    h->init(&ctx);
    while (done < len) {
        static const uint64_t scale[] = { 4, 70, 300, 5000 };
        size_t piece = (size_t)check_rng_below(scale[check_rng_below(4)]);
        if (piece > len - done)
            piece = len - done;
        h->write(&ctx, msg + done, piece);
        done += piece;
    }
    h->finalize(&ctx, out);
}

/* Random lengths and offsets in random pieces against the one-shot: the
 * buffering logic checked on long messages even without OpenSSL. */
static void hash_test_random_pieces(const hash_desc *h, const unsigned char *buf, size_t cap)
{
    int i;
    for (i = 0; i < 100; i++) {
        unsigned char want[HASH_TEST_MAX_OUT], got[HASH_TEST_MAX_OUT];
        size_t off = (size_t)check_rng_below(16);
        size_t len = (size_t)check_rng_below(cap - 15);
        h->hash(want, buf + off, len);
        hash_test_pieces(h, buf + off, len, got);
        hash_test_equal(h, got, want, "pieces vs one-shot (offset, len)", off, len);
    }
}

#ifdef HAVE_OPENSSL
static const EVP_MD *hash_test_md;
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
static EVP_MD *hash_test_md_fetched;
static OSSL_PROVIDER *hash_test_prov_legacy, *hash_test_prov_default;
#endif

/* Finds OpenSSL's digest; NULL when this OpenSSL lacks it (RIPEMD-160 lives
 * in OpenSSL 3's legacy provider, which may be absent). */
static const EVP_MD *hash_test_openssl(const char *name)
{
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
    /* Loading "legacy" replaces the implicit default provider, so load both;
     * hash_test_report unloads them (LeakSanitizer counts them otherwise). */
    if (!hash_test_prov_default) {
        hash_test_prov_legacy = OSSL_PROVIDER_load(NULL, "legacy");
        hash_test_prov_default = OSSL_PROVIDER_load(NULL, "default");
    }
    hash_test_md_fetched = EVP_MD_fetch(NULL, name, NULL);
    return hash_test_md_fetched;
#else
    return EVP_get_digestbyname(name);
#endif
}

static void hash_test_vs_openssl(const hash_desc *h, unsigned char *buf, size_t cap)
{
    size_t len, i;
    unsigned char want[EVP_MAX_MD_SIZE], got[HASH_TEST_MAX_OUT];
    unsigned int wlen;

    CHECK((size_t)EVP_MD_size(hash_test_md) == h->out_len);
    check_rng_fill(buf, cap);
    for (len = 0; len <= HASH_TEST_SPLIT_MAX; len++) {
        CHECK(EVP_Digest(buf, len, want, &wlen, hash_test_md, NULL) == 1);
        h->hash(got, buf, len);
        hash_test_equal(h, got, want, "vs OpenSSL (len)", len, 0);
    }
    for (i = 0; i < 300; i++) {
        /* Half short messages (block boundaries), half up to ~48 KB. */
        size_t max = check_rng_below(2) ? 600 : 48 * 1024;
        size_t off = (size_t)check_rng_below(16);
        len = (size_t)check_rng_below(max + 1);
        if (off + len > cap)
            len = cap - off;
        CHECK(EVP_Digest(buf + off, len, want, &wlen, hash_test_md, NULL) == 1);
        hash_test_pieces(h, buf + off, len, got);
        hash_test_equal(h, got, want, "vs OpenSSL, pieces (offset, len)", off, len);
        h->hash(got, buf + off, len);
        hash_test_equal(h, got, want, "vs OpenSSL, one-shot (offset, len)", off, len);
    }
}
#endif

/* Runs every check above for h. Returns 1 when the OpenSSL comparison ran. */
static int hash_test_all(const hash_desc *h, const hash_kat *kats, size_t nkats)
{
    enum { CAP = 48 * 1024 + 64 };
    unsigned char *buf = malloc(CAP);
    int compared = 0;

    if (!CHECK(buf != NULL))
        return 0;
    check_rng_fill(buf, CAP);
    hash_test_kats(h, kats, nkats);
    hash_test_splits(h, buf + 1);
    hash_test_copies(h, buf + 3);
    hash_test_random_pieces(h, buf, CAP);
#ifdef HAVE_OPENSSL
    if (!hash_test_md)
        hash_test_md = hash_test_openssl(h->name);
    if (hash_test_md) {
        hash_test_vs_openssl(h, buf, CAP);
        compared = 1;
    }
#endif
    free(buf);
    return compared;
}

/* Prints what was compared; frees what hash_test_all fetched and loaded.
 * Call last: OpenSSL comparisons after it would reload. */
static void hash_test_report(const hash_desc *h, int compared)
{
#ifdef HAVE_OPENSSL
    if (compared)
        printf("%s: compared against OpenSSL %s\n", h->name, OPENSSL_VERSION_TEXT);
    else
        printf("%s: OpenSSL has no %s here: known answers and self-consistency only\n",
               h->name, h->name);
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
    EVP_MD_free(hash_test_md_fetched);
    hash_test_md_fetched = NULL;
    if (hash_test_prov_legacy)
        OSSL_PROVIDER_unload(hash_test_prov_legacy);
    if (hash_test_prov_default)
        OSSL_PROVIDER_unload(hash_test_prov_default);
    hash_test_prov_legacy = hash_test_prov_default = NULL;
#endif
    hash_test_md = NULL;
#else
    (void)compared;
    printf("%s: built without OpenSSL: known answers and self-consistency only\n", h->name);
#endif
}

#endif
