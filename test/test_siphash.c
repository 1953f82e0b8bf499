/* SipHash-2-4: the SipHash paper's 64 test vectors; every split point up to
 * 300 bytes; copies and repeated finalize; siphash_write_u64 against writing
 * 8 little-endian bytes; siphash_uint256(_extra) against streaming; and,
 * with OpenSSL 3, EVP_MAC "SIPHASH" on random keys, lengths and pieces. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "crypto/siphash.h"

#ifdef HAVE_OPENSSL
#include <openssl/opensslv.h>
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#define SIPHASH_TEST_EVP_MAC 1
#endif
#endif

/* Appendix A of the paper: key 00 01 .. 0f, message i = 00 01 .. (i-1),
 * outputs as the paper prints them (bytes of the 64-bit result,
 * little-endian). */
static const char *const paper_vectors[64] = {
    "310e0edd47db6f72", "fd67dc93c539f874", "5a4fa9d909806c0d", "2d7efbd796666785",
    "b7877127e09427cf", "8da699cd64557618", "cee3fe586e46c9cb", "37d1018bf50002ab",
    "6224939a79f5f593", "b0e4a90bdf82009e", "f3b9dd94c5bb5d7a", "a7ad6b22462fb3f4",
    "fbe50e86bc8f1e75", "903d84c02756ea14", "eef27a8e90ca23f7", "e545be4961ca29a1",
    "db9bc2577fcc2a3f", "9447be2cf5e99a69", "9cd38d96f0b3c14b", "bd6179a71dc96dbb",
    "98eea21af25cd6be", "c7673b2eb0cbf2d0", "883ea3e395675393", "c8ce5ccd8c030ca8",
    "94af49f6c650adb8", "eab8858ade92e1bc", "f315bb5bb835d817", "adcf6b0763612e2f",
    "a5c91da7acaa4dde", "716595876650a2a6", "28ef495c53a387ad", "42c341d8fa92d832",
    "ce7cf2722f512771", "e37859f94623f3a7", "381205bb1ab0e012", "ae97a10fd434e015",
    "b4a31508beff4d31", "81396229f0907902", "4d0cf49ee5d4dcca", "5c73336a76d8bf9a",
    "d0a704536ba93e0e", "925958fcd6420cad", "a915c29bc8067318", "952b79f3bc0aa6d4",
    "f21df2e41d4535f9", "87577519048f53a9", "10a56cf5dfcd9adb", "eb75095ccd986cd0",
    "51a9cb9ecba312e6", "96afadfc2ce666c7", "72fe52975a4364ee", "5a1645b276d592a1",
    "b274cb8ebf87870a", "6f9bb4203de7b381", "eaecb2a30b22a87f", "9924a43cc1315724",
    "bd838d3aafbf8db7", "0b1a2a3265d51aea", "135079a3231ce660", "932b2846e4d70666",
    "e1915f5cb1eca46c", "f325965ca16d629f", "575ff28e60381be5", "724506eb4c328a95",
};

static const uint64_t paper_k0 = 0x0706050403020100;
static const uint64_t paper_k1 = 0x0f0e0d0c0b0a0908;

static uint64_t le64(const unsigned char *p)
{
    uint64_t v = 0;
    int i;
    for (i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void put_le64(unsigned char *p, uint64_t v)
{
    int i;
    for (i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t siphash_oneshot(uint64_t k0, uint64_t k1, const unsigned char *m, size_t len)
{
    siphash_ctx c;
    siphash_init(&c, k0, k1);
    siphash_write(&c, m, len);
    return siphash_finalize(&c);
}

static void test_paper(void)
{
    unsigned char msg[64], want[8];
    size_t i, j;
    for (i = 0; i < 64; i++)
        msg[i] = (unsigned char)i;
    for (i = 0; i < 64; i++) {
        siphash_ctx c;
        uint64_t w;
        CHECK(check_unhex(want, sizeof want, paper_vectors[i]) == 8);
        w = le64(want);
        CHECKF(siphash_oneshot(paper_k0, paper_k1, msg, i) == w, "paper vector %zu", i);
        siphash_init(&c, paper_k0, paper_k1);
        for (j = 0; j < i; j++)
            siphash_write(&c, msg + j, 1);
        CHECKF(siphash_finalize(&c) == w, "paper vector %zu, byte by byte", i);
    }
    /* The fixed-size paths on the paper's key and messages 32 and 36. */
    CHECK(check_unhex(want, sizeof want, paper_vectors[32]) == 8);
    CHECK(siphash_uint256(paper_k0, paper_k1, msg) == le64(want));
    CHECK(check_unhex(want, sizeof want, paper_vectors[36]) == 8);
    CHECK(siphash_uint256_extra(paper_k0, paper_k1, msg, 0x23222120) == le64(want));
}

static void test_splits(const unsigned char *msg)
{
    uint64_t k0 = check_rng_u64(), k1 = check_rng_u64();
    size_t len, cut;
    for (len = 0; len <= 300; len++) {
        uint64_t want = siphash_oneshot(k0, k1, msg, len);
        unsigned long before = check_failures();
        for (cut = 0; cut <= len; cut++) {
            siphash_ctx c;
            siphash_init(&c, k0, k1);
            siphash_write(&c, msg, cut);
            siphash_write(&c, NULL, 0);
            siphash_write(&c, msg + cut, len - cut);
            CHECKF(siphash_finalize(&c) == want, "split (len %zu, cut %zu)", len, cut);
            if (check_failures() > before + 3)
                return;
        }
    }
}

/* Copies are midstates; finalize leaves the context as it was, so writing
 * can go on after it. */
static void test_copies_and_finalize(const unsigned char *msg)
{
    uint64_t k0 = check_rng_u64(), k1 = check_rng_u64();
    size_t pre, tail;
    for (pre = 0; pre <= 40; pre++) {
        siphash_ctx a, b;
        uint64_t first;
        siphash_init(&a, k0, k1);
        siphash_write(&a, msg, pre);
        b = a;
        first = siphash_finalize(&a);
        CHECK(first == siphash_finalize(&a));
        CHECK(first == siphash_oneshot(k0, k1, msg, pre));
        CHECK(memcmp(&a, &b, sizeof a) == 0);
        for (tail = 1; tail <= 20; tail += 19) {
            siphash_ctx c = b;
            unsigned char joined[64];
            memcpy(joined, msg, pre);
            memcpy(joined + pre, msg + 100, tail);
            siphash_write(&c, msg + 100, tail);
            CHECKF(siphash_finalize(&c) == siphash_oneshot(k0, k1, joined, pre + tail),
                   "copy %zu + %zu", pre, tail);
        }
        /* a: continue after finalize with msg[pre..pre+9); b: with other bytes. */
        siphash_write(&a, msg + pre, 9);
        siphash_write(&b, msg + 200, 9);
        CHECKF(siphash_finalize(&a) == siphash_oneshot(k0, k1, msg, pre + 9),
               "write after finalize, prefix %zu", pre);
        {
            unsigned char joined[64];
            memcpy(joined, msg, pre);
            memcpy(joined + pre, msg + 200, 9);
            CHECKF(siphash_finalize(&b) == siphash_oneshot(k0, k1, joined, pre + 9),
                   "copied context, prefix %zu", pre);
        }
    }
}

static void test_write_u64(const unsigned char *msg)
{
    size_t pre, i;
    for (pre = 0; pre <= 24; pre++) {
        uint64_t k0 = check_rng_u64(), k1 = check_rng_u64();
        siphash_ctx a, b;
        siphash_init(&a, k0, k1);
        siphash_write(&a, msg, pre);
        b = a;
        for (i = 0; i < 5; i++) {
            uint64_t v = check_rng_u64();
            unsigned char bytes[8];
            put_le64(bytes, v);
            siphash_write_u64(&a, v);
            siphash_write(&b, bytes, 8);
            CHECKF(siphash_finalize(&a) == siphash_finalize(&b),
                   "write_u64 after %zu bytes, word %zu", pre, i);
        }
        siphash_write(&a, msg, 3); /* and byte writes still line up after it */
        siphash_write(&b, msg, 3);
        CHECK(siphash_finalize(&a) == siphash_finalize(&b));
    }
}

static void test_uint256(void)
{
    int i;
    for (i = 0; i < 2000; i++) {
        uint64_t k0 = check_rng_u64(), k1 = check_rng_u64();
        unsigned char v[37];
        uint32_t extra = (uint32_t)check_rng_u64();
        size_t off = (size_t)(i % 5); /* any alignment */
        check_rng_fill(v, sizeof v);
        CHECKF(siphash_uint256(k0, k1, v + off) == siphash_oneshot(k0, k1, v + off, 32),
               "siphash_uint256, case %d", i);
        {
            siphash_ctx c;
            unsigned char e[4];
            e[0] = (unsigned char)extra;
            e[1] = (unsigned char)(extra >> 8);
            e[2] = (unsigned char)(extra >> 16);
            e[3] = (unsigned char)(extra >> 24);
            siphash_init(&c, k0, k1);
            siphash_write(&c, v + off, 32);
            siphash_write(&c, e, 4);
            CHECKF(siphash_uint256_extra(k0, k1, v + off, extra) == siphash_finalize(&c),
                   "siphash_uint256_extra, case %d", i);
        }
    }
}

#ifdef SIPHASH_TEST_EVP_MAC
/* OpenSSL's SipHash-2-4 with an 8-byte output, which it writes
 * little-endian. Returns 0 when OpenSSL refuses. */
static int openssl_siphash(EVP_MAC *mac, const unsigned char key[16], const unsigned char *m,
                           size_t len, uint64_t *out)
{
    EVP_MAC_CTX *c = EVP_MAC_CTX_new(mac);
    size_t size = 8, got = 0;
    unsigned char res[8];
    OSSL_PARAM params[2];
    int ok;

    params[0] = OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size);
    params[1] = OSSL_PARAM_construct_end();
    ok = c != NULL && EVP_MAC_init(c, key, 16, params) == 1
        && EVP_MAC_update(c, m, len) == 1
        && EVP_MAC_final(c, res, &got, sizeof res) == 1 && got == 8;
    EVP_MAC_CTX_free(c);
    if (ok)
        *out = le64(res);
    return ok;
}

/* Returns 1 when the comparison ran. */
static int test_openssl(const unsigned char *msg, size_t cap)
{
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "SIPHASH", NULL);
    unsigned char key[16];
    uint64_t want = 0;
    int i;

    if (!mac)
        return 0;
    /* The harness itself, on the paper's first vectors. */
    for (i = 0; i < 16; i++)
        key[i] = (unsigned char)i;
    for (i = 0; i < 3; i++) {
        unsigned char w[8];
        CHECK(openssl_siphash(mac, key, key, (size_t)i, &want));
        CHECK(check_unhex(w, sizeof w, paper_vectors[i]) == 8 && want == le64(w));
    }
    for (i = 0; i < 400; i++) {
        size_t max = check_rng_below(2) ? 300 : 40000;
        size_t len = (size_t)check_rng_below(max + 1);
        size_t off = (size_t)check_rng_below(16), done = 0;
        uint64_t k0, k1;
        siphash_ctx c;
        if (off + len > cap)
            len = cap - off;
        check_rng_fill(key, sizeof key);
        k0 = le64(key);
        k1 = le64(key + 8);
        if (!CHECK(openssl_siphash(mac, key, msg + off, len, &want)))
            break;
        CHECKF(siphash_oneshot(k0, k1, msg + off, len) == want,
               "vs OpenSSL, one write (offset %zu, len %zu)", off, len);
        siphash_init(&c, k0, k1);
        while (done < len) {
            static const uint64_t scale[] = { 3, 9, 40, 3000 };
            size_t piece = (size_t)check_rng_below(scale[check_rng_below(4)]);
            if (piece > len - done)
                piece = len - done;
            if (piece == 8 && check_rng_below(2)) {
                siphash_write_u64(&c, le64(msg + off + done));
            } else {
                siphash_write(&c, msg + off + done, piece);
            }
            done += piece;
        }
        CHECKF(siphash_finalize(&c) == want, "vs OpenSSL, pieces (offset %zu, len %zu)",
               off, len);
    }
    EVP_MAC_free(mac);
    return 1;
}
#endif

int main(int argc, char **argv)
{
    enum { CAP = 40000 + 16 };
    unsigned char *msg;
    int compared = 0;

    (void)argc;
    check_rng_init(argv[0]);
    msg = malloc(CAP);
    if (!CHECK(msg != NULL))
        return check_finish();
    check_rng_fill(msg, CAP);
    test_paper();
    test_splits(msg);
    test_copies_and_finalize(msg);
    test_write_u64(msg);
    test_uint256();
#ifdef SIPHASH_TEST_EVP_MAC
    compared = test_openssl(msg, CAP);
    if (compared)
        printf("SipHash: compared against OpenSSL EVP_MAC SIPHASH (%s)\n", OPENSSL_VERSION_TEXT);
#endif
    if (!compared)
        printf("SipHash: no OpenSSL EVP_MAC SIPHASH here: known answers and "
               "self-consistency only\n");
    free(msg);
    return check_finish();
}
