/* Fuzz target: every hash, on every implementation this build and CPU run, fed in pieces the
 * input chooses, with a context copied part way, against the portable one-shot digest and,
 * when built with it, OpenSSL.
 *
 * Input: which hash (SHA-1, SHA-256, SHA-512, RIPEMD-160, SipHash, sha256_d64, SHA3-256), up
 * to 8 piece lengths, where to copy the context, then the message (the rest). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "fuzz.h"

#include "crypto/dispatch.h"
#include "crypto/ripemd160.h"
#include "crypto/sha1.h"
#include "crypto/sha256.h"
#include "crypto/sha3.h"
#include "crypto/sha512.h"
#include "crypto/siphash.h"

#include <string.h>

#ifdef HAVE_OPENSSL
#include <openssl/evp.h>
#endif

#define MAX_PIECES 8
#define MAX_IMPLS 16
#define MAX_OUT 64

typedef struct {
    size_t len[MAX_PIECES + 1]; /* piece lengths; the last takes the rest */
    size_t count;
    size_t copy_at;             /* the context is copied after this many pieces */
    const uint8_t *msg;
    size_t msg_len;
} plan;

/* One hash behind a common shape: init, write, finalize on an opaque context. */
typedef struct {
    const char *openssl;        /* OpenSSL's name, NULL when it has none to compare */
    size_t out_len;
    size_t ctx_size;
    void (*init)(void *ctx);
    void (*write)(void *ctx, const void *data, size_t len);
    void (*finalize)(void *ctx, unsigned char *out);
    size_t (*list)(const char **names, size_t cap);
    int (*force)(const char *name);
} hash_desc;

#define WRAP(name) \
    static void name##_init_v(void *c) { name##_init(c); } \
    static void name##_write_v(void *c, const void *d, size_t n) { name##_write(c, d, n); } \
    static void name##_final_v(void *c, unsigned char *o) { name##_finalize(c, o); }
WRAP(sha1)
WRAP(sha256)
WRAP(sha512)
WRAP(ripemd160)
WRAP(sha3_256)

static const hash_desc hashes[] = {
    {"SHA1", 20, sizeof(sha1_ctx), sha1_init_v, sha1_write_v, sha1_final_v, sha1_impl_list,
     sha1_impl_force},
    {"SHA256", 32, sizeof(sha256_ctx), sha256_init_v, sha256_write_v, sha256_final_v,
     sha256_impl_list, sha256_impl_force},
    {"SHA512", 64, sizeof(sha512_ctx), sha512_init_v, sha512_write_v, sha512_final_v,
     sha512_impl_list, sha512_impl_force},
    {"RIPEMD160", 20, sizeof(ripemd160_ctx), ripemd160_init_v, ripemd160_write_v,
     ripemd160_final_v, NULL, NULL},
    {"SHA3-256", 32, sizeof(sha3_256_ctx), sha3_256_init_v, sha3_256_write_v,
     sha3_256_final_v, NULL, NULL},
};

/* The pieces as planned: every length, then the context copied after copy_at pieces and both
 * finished on the rest; both digests into out and out2. */
static void digest_pieces(const hash_desc *h, const plan *p, unsigned char *out,
                          unsigned char *out2)
{
    union {
        sha1_ctx a;
        sha256_ctx b;
        sha512_ctx c;
        ripemd160_ctx d;
        sha3_256_ctx e;
    } ctx, copy;
    size_t i, off = 0;
    int copied = 0;
    h->init(&ctx);
    for (i = 0; i < p->count; i++) {
        if (i == p->copy_at) {
            memcpy(&copy, &ctx, h->ctx_size);
            copied = 1;
        }
        h->write(&ctx, p->msg + off, p->len[i]);
        if (copied)
            h->write(&copy, p->msg + off, p->len[i]);
        off += p->len[i];
    }
    if (!copied)
        memcpy(&copy, &ctx, h->ctx_size);
    h->finalize(&ctx, out);
    h->finalize(&copy, out2);
}

static void check_hash(const hash_desc *h, const plan *p)
{
    unsigned char want[MAX_OUT], got[MAX_OUT], got2[MAX_OUT];
    const char *names[MAX_IMPLS];
    size_t n = 1, i;

    if (h->force)
        FUZZ_CHECK(h->force("standard") == 0);
    { /* the reference: one write */
        plan one = *p;
        one.len[0] = p->msg_len;
        one.count = 1;
        one.copy_at = 1;
        digest_pieces(h, &one, want, got2);
        FUZZ_CHECK(memcmp(want, got2, h->out_len) == 0);
    }
#ifdef HAVE_OPENSSL
    if (h->openssl) {
        const EVP_MD *md = EVP_get_digestbyname(h->openssl);
        unsigned char ossl[EVP_MAX_MD_SIZE];
        unsigned int olen = 0;
        if (md && EVP_Digest(p->msg, p->msg_len, ossl, &olen, md, NULL) == 1) {
            FUZZ_CHECK(olen == h->out_len);
            FUZZ_CHECK(memcmp(ossl, want, h->out_len) == 0);
        }
    }
#endif
    if (h->list) {
        n = h->list(names, MAX_IMPLS);
        n = n > MAX_IMPLS ? MAX_IMPLS : n;
    }
    for (i = 0; i < n; i++) {
        if (h->force)
            FUZZ_CHECK(h->force(names[i]) == 0);
        digest_pieces(h, p, got, got2);
        FUZZ_CHECK(memcmp(got, want, h->out_len) == 0);
        FUZZ_CHECK(memcmp(got2, want, h->out_len) == 0);
    }
    if (h->force)
        FUZZ_CHECK(h->force("auto") == 0);
}

/* SipHash: in pieces, with a copy, against one write; 8-byte words through write_u64; the
 * 32-byte forms against their byte streams. */
static void check_siphash(const plan *p, uint64_t k0, uint64_t k1)
{
    siphash_ctx ctx, copy;
    uint64_t want;
    size_t i, off = 0;
    siphash_init(&ctx, k0, k1);
    siphash_write(&ctx, p->msg, p->msg_len);
    want = siphash_finalize(&ctx);
    siphash_init(&ctx, k0, k1);
    copy = ctx;
    for (i = 0; i < p->count; i++) {
        if (i == p->copy_at)
            copy = ctx;
        siphash_write(&ctx, p->msg + off, p->len[i]);
        if (i >= p->copy_at)
            siphash_write(&copy, p->msg + off, p->len[i]);
        off += p->len[i];
    }
    FUZZ_CHECK(siphash_finalize(&ctx) == want);
    if (p->copy_at < p->count)
        FUZZ_CHECK(siphash_finalize(&copy) == want);
    if (p->msg_len % 8 == 0) {
        siphash_init(&ctx, k0, k1);
        for (off = 0; off < p->msg_len; off += 8) {
            uint64_t v = 0;
            for (i = 0; i < 8; i++)
                v |= (uint64_t)p->msg[off + i] << (8 * i);
            siphash_write_u64(&ctx, v);
        }
        FUZZ_CHECK(siphash_finalize(&ctx) == want);
    }
    if (p->msg_len == 32)
        FUZZ_CHECK(siphash_uint256(k0, k1, p->msg) == want);
    if (p->msg_len == 36) {
        uint32_t extra = (uint32_t)p->msg[32] | (uint32_t)p->msg[33] << 8
                         | (uint32_t)p->msg[34] << 16 | (uint32_t)p->msg[35] << 24;
        FUZZ_CHECK(siphash_uint256_extra(k0, k1, p->msg, extra) == want);
    }
}

/* sha256_d64 on every implementation, out of place and in place, against two portable
 * SHA-256 calls per 64-byte block. */
static void check_d64(const plan *p)
{
    enum { MAX_BLOCKS = 64 };
    static unsigned char want[MAX_BLOCKS * 32], got[MAX_BLOCKS * 32], inplace[MAX_BLOCKS * 64];
    const char *names[MAX_IMPLS];
    size_t blocks = p->msg_len / 64, n, i, b;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    FUZZ_CHECK(sha256_impl_force("standard") == 0);
    for (b = 0; b < blocks; b++) {
        unsigned char mid[32];
        sha256_hash(mid, p->msg + 64 * b, 64);
        sha256_hash(want + 32 * b, mid, 32);
    }
    n = sha256_impl_list(names, MAX_IMPLS);
    n = n > MAX_IMPLS ? MAX_IMPLS : n;
    for (i = 0; i <= n; i++) {
        FUZZ_CHECK(sha256_impl_force(i < n ? names[i] : "auto") == 0);
        sha256_d64(got, p->msg, blocks);
        FUZZ_CHECK(blocks == 0 || memcmp(got, want, 32 * blocks) == 0);
        if (blocks)
            memcpy(inplace, p->msg, 64 * blocks);
        sha256_d64(inplace, inplace, blocks);
        FUZZ_CHECK(blocks == 0 || memcmp(inplace, want, 32 * blocks) == 0);
    }
    FUZZ_CHECK(sha256_impl_force("auto") == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in;
    plan p;
    size_t which, pieces, i;
    uint64_t k0, k1;

    fuzz_init(&in, data, size);
    which = (size_t)fuzz_below(&in, 7);
    pieces = (size_t)fuzz_below(&in, MAX_PIECES + 1);
    for (i = 0; i < pieces; i++)
        p.len[i] = (size_t)fuzz_below(&in, 300);
    p.copy_at = (size_t)fuzz_below(&in, pieces + 2);
    k0 = which == 4 ? fuzz_u64(&in) : 0;
    k1 = which == 4 ? fuzz_u64(&in) : 0;
    p.msg = fuzz_bytes(&in, in.left, &p.msg_len);
    p.count = fuzz_fit_pieces(p.len, pieces, p.msg_len);

    if (which < 4)
        check_hash(&hashes[which], &p);
    else if (which == 4)
        check_siphash(&p, k0, k1);
    else if (which == 5)
        check_d64(&p);
    else
        check_hash(&hashes[4], &p);
    return 0;
}
