/* Poly1305 (crypto/poly1305.h) on every implementation this build and CPU run, and on the
 * radix-2^26 portable code (test/poly1305_radix26.c): RFC 8439's vectors (section 2.5.2 and
 * Appendix A.3, which aim at the carries and the final reduction), every split point of
 * short messages, copied contexts, a context moving between implementations, random keys
 * and lengths past 64 KiB in random pieces against OpenSSL's EVP_MAC "POLY1305" (when built
 * with it; against the portable code always), the variant self-test refusing broken block
 * functions, and NULL arguments. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "crypto/poly1305.h"
#include "crypto/poly1305_impl.h"
#include "poly1305_radix26.h"

#ifdef HAVE_OPENSSL
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
#define HAVE_OPENSSL_MAC 1
#endif
#endif

/* One Poly1305, as a set of functions: the installed implementation, or the radix-2^26
 * build. */
typedef struct {
    const char *name;
    void (*init)(poly1305_ctx *, const unsigned char *);
    void (*update)(poly1305_ctx *, const void *, size_t);
    void (*finalize)(poly1305_ctx *, unsigned char *);
    void (*mac)(unsigned char *, const void *, size_t, const unsigned char *);
} impl;

static const impl installed = {"installed", poly1305_init, poly1305_update, poly1305_finalize,
                               poly1305_mac};
static const impl radix26 = {"radix26", r26_poly1305_init, r26_poly1305_update,
                             r26_poly1305_finalize, r26_poly1305_mac};

/* ---- known answers ------------------------------------------------------------------ */

typedef struct {
    const char *key, *msg, *tag;
} vector;

#define IETF_TEXT \
    "416e79207375626d697373696f6e20746f20746865204945544620696e74656e6465642062792074686520" \
    "436f6e7472696275746f7220666f72207075626c69636174696f6e20617320616c6c206f72207061727420" \
    "6f6620616e204945544620496e7465726e65742d4472616674206f722052464320616e6420616e79207374" \
    "6174656d656e74206d6164652077697468696e2074686520636f6e74657874206f6620616e204945544620" \
    "616374697669747920697320636f6e7369646572656420616e20224945544620436f6e747269627574696f" \
    "6e222e20537563682073746174656d656e747320696e636c756465206f72616c2073746174656d656e7473" \
    "20696e20494554462073657373696f6e732c2061732077656c6c206173207772697474656e20616e642065" \
    "6c656374726f6e696320636f6d6d756e69636174696f6e73206d61646520617420616e792074696d65206f" \
    "7220706c6163652c207768696368206172652061646472657373656420746f"

static const vector vectors[] = {
    /* section 2.5.2 */
    {"85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b",
     "43727970746f6772617068696320466f72756d2052657365617263682047726f7570",
     "a8061dc1305136c6c22b8baf0c0127a9"},
    /* Appendix A.3, #1 to #11 */
    {"0000000000000000000000000000000000000000000000000000000000000000",
     "0000000000000000000000000000000000000000000000000000000000000000"
     "0000000000000000000000000000000000000000000000000000000000000000",
     "00000000000000000000000000000000"},
    {"0000000000000000000000000000000036e5f6b5c5e06070f0efca96227a863e", IETF_TEXT,
     "36e5f6b5c5e06070f0efca96227a863e"},
    {"36e5f6b5c5e06070f0efca96227a863e00000000000000000000000000000000", IETF_TEXT,
     "f3477e7cd95417af89a6b8794c310cf0"},
    {"1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0",
     "2754776173206272696c6c69672c20616e642074686520736c6974687920746f7665730a446964206779"
     "726520616e642067696d626c6520696e2074686520776162653a0a416c6c206d696d737920776572652074"
     "686520626f726f676f7665732c0a416e6420746865206d6f6d65207261746873206f757467726162652e",
     "4541669a7eaaee61e708dc7cbcc5eb62"},
    {"0200000000000000000000000000000000000000000000000000000000000000",
     "ffffffffffffffffffffffffffffffff", "03000000000000000000000000000000"},
    {"02000000000000000000000000000000ffffffffffffffffffffffffffffffff",
     "02000000000000000000000000000000", "03000000000000000000000000000000"},
    {"0100000000000000000000000000000000000000000000000000000000000000",
     "fffffffffffffffffffffffffffffffff0ffffffffffffffffffffffffffffff"
     "11000000000000000000000000000000", "05000000000000000000000000000000"},
    {"0100000000000000000000000000000000000000000000000000000000000000",
     "fffffffffffffffffffffffffffffffffbfefefefefefefefefefefefefefefe"
     "01010101010101010101010101010101", "00000000000000000000000000000000"},
    {"0200000000000000000000000000000000000000000000000000000000000000",
     "fdffffffffffffffffffffffffffffff", "faffffffffffffffffffffffffffffff"},
    {"0100000000000000040000000000000000000000000000000000000000000000",
     "e33594d7505e43b900000000000000003394d7505e4379cd01000000000000000000000000000000"
     "000000000000000001000000000000000000000000000000", "14000000000000005500000000000000"},
    {"0100000000000000040000000000000000000000000000000000000000000000",
     "e33594d7505e43b900000000000000003394d7505e4379cd010000000000000000000000000000000000"
     "000000000000", "13000000000000000000000000000000"},
};

static void test_vectors(const impl *p)
{
    for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; i++) {
        unsigned char key[32], msg[512], want[16], got[16];
        size_t n = check_unhex(msg, sizeof msg, vectors[i].msg);
        poly1305_ctx c;
        CHECK(check_unhex(key, 32, vectors[i].key) == 32);
        CHECK(check_unhex(want, 16, vectors[i].tag) == 16);
        if (!CHECK(n != (size_t)-1))
            continue;
        p->mac(got, msg, n, key);
        CHECKF(memcmp(got, want, 16) == 0, "%s: vector %zu", p->name, i);
        /* a byte at a time */
        p->init(&c, key);
        for (size_t k = 0; k < n; k++)
            p->update(&c, msg + k, 1);
        p->finalize(&c, got);
        CHECKF(memcmp(got, want, 16) == 0, "%s: vector %zu a byte at a time", p->name, i);
    }
}

/* ---- splits and copies ---------------------------------------------------------------- */

/* Every split point of every length up to 160 (two pieces), and of every length up to 48
 * into three, against the one-shot; keys random or all ones (the largest r), messages
 * random or all ones (the largest limbs). */
static void test_splits(const impl *p)
{
    unsigned char key[32], msg[160], want[16], got[16];
    for (int kind = 0; kind < 4; kind++) {
        if (kind & 1)
            memset(key, 0xff, 32);
        else
            check_rng_fill(key, 32);
        if (kind & 2)
            memset(msg, 0xff, sizeof msg);
        else
            check_rng_fill(msg, sizeof msg);
        for (size_t len = 0; len <= sizeof msg; len++) {
            p->mac(want, msg, len, key);
            for (size_t s = 0; s <= len; s++) {
                poly1305_ctx c;
                p->init(&c, key);
                p->update(&c, msg, s);
                p->update(&c, msg + s, len - s);
                p->finalize(&c, got);
                CHECKF(memcmp(got, want, 16) == 0, "%s: %zu bytes split at %zu", p->name, len,
                       s);
            }
            for (size_t s = 0; len <= 48 && s <= len; s++) {
                for (size_t t = s; t <= len; t++) {
                    poly1305_ctx c;
                    p->init(&c, key);
                    p->update(&c, msg, s);
                    p->update(&c, msg + s, t - s);
                    p->update(&c, msg + t, len - t);
                    p->finalize(&c, got);
                    CHECKF(memcmp(got, want, 16) == 0, "%s: %zu bytes split at %zu, %zu",
                           p->name, len, s, t);
                }
            }
        }
    }
}

/* A context copied after a first part (shorter than a block, and long enough for the
 * vector code to have cached powers) continues independently of the original. */
static void test_copies(const impl *p)
{
    static unsigned char msg[4000];
    unsigned char key[32], a[16], b[16], want_a[16], want_b[16];
    static const size_t firsts[] = {7, 16, 1000, 2049};
    check_rng_fill(key, 32);
    check_rng_fill(msg, sizeof msg);
    for (size_t i = 0; i < sizeof firsts / sizeof firsts[0]; i++) {
        size_t first = firsts[i];
        poly1305_ctx c, copy;
        p->init(&c, key);
        p->update(&c, msg, first);
        copy = c;
        p->update(&c, msg + first, 1500);
        p->update(&copy, msg + first + 3, 999);
        p->finalize(&c, a);
        p->finalize(&copy, b);
        p->mac(want_a, msg, first + 1500, key);
        {
            poly1305_ctx d;
            p->init(&d, key);
            p->update(&d, msg, first);
            p->update(&d, msg + first + 3, 999);
            p->finalize(&d, want_b);
        }
        CHECKF(memcmp(a, want_a, 16) == 0, "%s: original after a copy at %zu", p->name, first);
        CHECKF(memcmp(b, want_b, 16) == 0, "%s: copy at %zu", p->name, first);
    }
}

/* ---- against OpenSSL and the portable code --------------------------------------------- */

#ifdef HAVE_OPENSSL_MAC
static EVP_MAC *ossl_mac;

static void ossl_poly1305(unsigned char tag[16], const unsigned char *msg, size_t len,
                          const unsigned char key[32])
{
    EVP_MAC_CTX *c = EVP_MAC_CTX_new(ossl_mac);
    size_t out = 0;
    if (!CHECK(c != NULL && EVP_MAC_init(c, key, 32, NULL) == 1
               && EVP_MAC_update(c, msg, len) == 1 && EVP_MAC_final(c, tag, &out, 16) == 1
               && out == 16))
        memset(tag, 0, 16);
    EVP_MAC_CTX_free(c);
}
#endif

/* The reference tag: OpenSSL's when built with it, else the portable code's (which the
 * vectors pin). */
static void reference(unsigned char tag[16], const unsigned char *msg, size_t len,
                      const unsigned char key[32])
{
#ifdef HAVE_OPENSSL_MAC
    if (ossl_mac) {
        ossl_poly1305(tag, msg, len, key);
        return;
    }
#endif
    r26_poly1305_mac(tag, msg, len, key);
}

/* Random keys; every length to 300, then random ones to 70,000 (and 65,536 exactly) at
 * random offsets, written in random pieces. */
static void test_random(const impl *p)
{
    static unsigned char buf[70016];
    unsigned char key[32], want[16], got[16];
    check_rng_fill(buf, sizeof buf);
    for (size_t round = 0; round < 301 + 40; round++) {
        size_t len = round <= 300 ? round : round == 301 ? 65536
                     : (size_t)check_rng_below(70001);
        const unsigned char *msg = buf + check_rng_below(16);
        poly1305_ctx c;
        size_t at = 0;
        check_rng_fill(key, 32);
        reference(want, msg, len, key);
        p->mac(got, msg, len, key);
        CHECKF(memcmp(got, want, 16) == 0, "%s: %zu bytes, one shot", p->name, len);
        p->init(&c, key);
        while (at < len) {
            size_t piece = (size_t)check_rng_below(check_rng_below(2) ? 40 : 9000) + 1;
            if (piece > len - at)
                piece = len - at;
            p->update(&c, msg + at, piece);
            at += piece;
        }
        p->finalize(&c, got);
        CHECKF(memcmp(got, want, 16) == 0, "%s: %zu bytes in pieces", p->name, len);
    }
}

/* ---- across implementations, self-test, NULL ------------------------------------------ */

/* One context, its implementation changed between updates (each leaving powers of its own
 * cached), gives the tag of the whole message. */
static void test_moving(const char **names, size_t n)
{
    static unsigned char msg[3 * 3000];
    unsigned char key[32], want[16], got[16];
    poly1305_ctx c;
    check_rng_fill(key, 32);
    check_rng_fill(msg, sizeof msg);
    r26_poly1305_mac(want, msg, sizeof msg, key);
    poly1305_init(&c, key);
    for (size_t k = 0; k < 3; k++) {
        CHECK(poly1305_impl_force(names[(k + 1) % n]) == 0);
        poly1305_update(&c, msg + 3000 * k, 3000);
    }
    poly1305_finalize(&c, got);
    CHECK(memcmp(got, want, 16) == 0);
    CHECK(poly1305_impl_force("auto") == 0);
}

static size_t bad_from;

/* Right up to bad_from blocks a call, then drops the last block. */
static void bad_blocks(poly1305_ctx *ctx, const unsigned char *in, size_t blocks)
{
    poly1305_blocks_portable(ctx, in, blocks >= bad_from ? blocks - 1 : blocks);
}

/* Right, but leaves h[2] above the bound the other functions rely on. */
static void bad_unfolded(poly1305_ctx *ctx, const unsigned char *in, size_t blocks)
{
    poly1305_blocks_portable(ctx, in, blocks);
    if (blocks > 20) {
        /* h + 2p = h + 2^131 - 10: the same value mod p, h[2] too large */
        ctx->h[2] += 8;
        ctx->h[0] -= 10;
    }
}

static void test_selftest_hook(void)
{
    static const size_t thresholds[] = {1, 8, 16, 17, 32, 33, 80, 129};
    CHECK(poly1305_impl_selftest(poly1305_blocks_portable) == 1);
    CHECK(poly1305_impl_selftest(poly1305_blocks_radix26) == 1);
    for (size_t i = 0; i < sizeof thresholds / sizeof thresholds[0]; i++) {
        bad_from = thresholds[i];
        CHECKF(poly1305_impl_selftest(bad_blocks) == 0,
               "a block function dropping a block from %zu blocks on passed", bad_from);
    }
    CHECK(poly1305_impl_selftest(bad_unfolded) == 0);
    CHECK(poly1305_blocks_impl != bad_blocks && poly1305_blocks_impl != bad_unfolded);
}

static void test_null(void)
{
    unsigned char key[32] = {1}, tag[16], want[16];
    poly1305_ctx c;
    poly1305_init(NULL, key);
    poly1305_update(NULL, key, 5);
    poly1305_finalize(NULL, tag);
    poly1305_mac(NULL, key, 5, key);
    poly1305_mac(tag, key, 5, NULL);
    poly1305_mac(want, NULL, 0, key);
    poly1305_init(&c, key);
    poly1305_init(&c, NULL);            /* ignored: still keyed by key */
    poly1305_update(&c, NULL, 0);
    poly1305_update(&c, NULL, 7);       /* ignored */
    poly1305_finalize(&c, NULL);        /* ignored */
    poly1305_finalize(&c, tag);
    CHECK(memcmp(tag, want, 16) == 0);
}

static void test_impl(const impl *p)
{
    test_vectors(p);
    test_splits(p);
    test_copies(p);
    test_random(p);
}

int main(void)
{
    const char *names[8];
    size_t n;
    check_rng_init("test_poly1305");
#ifdef HAVE_OPENSSL_MAC
    ossl_mac = EVP_MAC_fetch(NULL, "POLY1305", NULL);
    printf("OpenSSL %s\n", ossl_mac ? "EVP_MAC POLY1305: the reference"
                                    : "has no POLY1305 MAC: the portable code is the reference");
#else
    printf("without OpenSSL's EVP_MAC: the portable code is the reference\n");
#endif
    test_impl(&radix26);
    n = poly1305_impl_list(names, 8);
    if (!CHECK(n >= 1 && n <= 8))
        return check_finish();
    for (size_t i = 0; i <= n; i++) {
        const char *name = i < n ? names[i] : "auto";
        CHECK(poly1305_impl_force(name) == 0);
        printf("poly1305 %s: %s\n", name, poly1305_impl_current());
        test_impl(&installed);
    }
    test_moving(names, n);
    test_selftest_hook();
    test_null();
#ifdef HAVE_OPENSSL_MAC
    EVP_MAC_free(ossl_mac);
#endif
    return check_finish();
}
