/* Fuzz target: Poly1305 (crypto/poly1305.h) on every implementation this build and CPU run,
 * fed in pieces the input chooses, with a context copied part way and a context moving to
 * the next implementation part way, against the one-shot tag of the radix-2^26 portable
 * code (test/poly1305_radix26.c) and, when built with it (OpenSSL 3), EVP_MAC "POLY1305".
 *
 * Input: the key (32 bytes; when the first of the next bytes is odd, r's allowed bits are
 * all set, the largest r), up to 8 piece lengths, where to copy, then the message (the
 * rest; every fourth byte of it 0xff when the byte after the key says so, the largest
 * limbs). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "fuzz.h"

#include "crypto/poly1305.h"
#include "../poly1305_radix26.h"

#include <string.h>

#ifdef HAVE_OPENSSL
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
#define HAVE_OPENSSL_MAC 1
#endif
#endif

#define MAX_PIECES 8
#define MAX_IMPLS 8

typedef struct {
    unsigned char key[32];
    size_t len[MAX_PIECES + 1], count, copy_at;
    const unsigned char *msg;
    size_t msg_len;
} plan;

/* The plan on the implementation in use: the tag of the whole message in pieces into tag,
 * and that of a copy made after copy_at pieces, which continues on next (NULL: the same),
 * into copied. */
static void run(const plan *p, const char *next, unsigned char tag[16], unsigned char copied[16])
{
    poly1305_ctx c, copy;
    size_t off = 0;
    poly1305_init(&c, p->key);
    copy = c;
    for (size_t i = 0; i < p->count; i++) {
        if (i == p->copy_at)
            copy = c;
        poly1305_update(&c, p->msg + off, p->len[i]);
        off += p->len[i];
    }
    if (p->copy_at == p->count)
        copy = c;
    poly1305_finalize(&c, tag);
    if (next)
        FUZZ_CHECK(poly1305_impl_force(next) == 0);
    off = 0;
    for (size_t i = 0; i < p->count; i++) {
        if (i >= p->copy_at)
            poly1305_update(&copy, p->msg + off, p->len[i]);
        off += p->len[i];
    }
    poly1305_finalize(&copy, copied);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in;
    plan p;
    size_t pieces;
    unsigned char *buf = NULL, want[16], tag[16], copied[16];
    const char *names[MAX_IMPLS];
    size_t n;
    int ones;

    fuzz_init(&in, data, size);
    fuzz_fill(&in, p.key, 32);
    if (fuzz_bool(&in))
        memset(p.key, 0xff, 16);
    ones = fuzz_bool(&in);
    pieces = (size_t)fuzz_below(&in, MAX_PIECES + 1);
    for (size_t i = 0; i < pieces; i++)
        p.len[i] = (size_t)fuzz_below(&in, 1100);
    p.copy_at = (size_t)fuzz_below(&in, pieces + 2);
    {
        size_t got;
        const uint8_t *m = fuzz_bytes(&in, in.left, &got);
        if (!(buf = malloc(got + 1)))
            return 0;
        memcpy(buf, m, got);
        for (size_t i = 0; ones && i < got; i += 4)
            buf[i] = 0xff;
        p.msg = buf;
        p.msg_len = got;
    }
    p.count = fuzz_fit_pieces(p.len, pieces, p.msg_len);
    /* after every piece at the latest: a copy that continues with nothing */
    if (p.copy_at > p.count)
        p.copy_at = p.count;

    r26_poly1305_mac(want, p.msg, p.msg_len, p.key);
#ifdef HAVE_OPENSSL_MAC
    {
        EVP_MAC *mac = EVP_MAC_fetch(NULL, "POLY1305", NULL);
        EVP_MAC_CTX *c = mac ? EVP_MAC_CTX_new(mac) : NULL;
        unsigned char ossl[16];
        size_t olen = 0;
        FUZZ_CHECK(c != NULL && EVP_MAC_init(c, p.key, 32, NULL) == 1
                   && EVP_MAC_update(c, p.msg, p.msg_len) == 1
                   && EVP_MAC_final(c, ossl, &olen, 16) == 1 && olen == 16);
        FUZZ_CHECK(memcmp(ossl, want, 16) == 0);
        EVP_MAC_CTX_free(c);
        EVP_MAC_free(mac);
    }
#endif
    n = poly1305_impl_list(names, MAX_IMPLS);
    n = n > MAX_IMPLS ? MAX_IMPLS : n;
    for (size_t i = 0; i <= n; i++) {
        FUZZ_CHECK(poly1305_impl_force(i < n ? names[i] : "auto") == 0);
        poly1305_mac(tag, p.msg, p.msg_len, p.key);
        FUZZ_CHECK(memcmp(tag, want, 16) == 0);
        /* the copy goes on under the next implementation */
        run(&p, i + 1 < n ? names[i + 1] : NULL, tag, copied);
        FUZZ_CHECK(memcmp(tag, want, 16) == 0);
        FUZZ_CHECK(memcmp(copied, want, 16) == 0);
    }
    FUZZ_CHECK(poly1305_impl_force("auto") == 0);
    free(buf);
    return 0;
}
