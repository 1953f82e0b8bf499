/* Fuzz target: the ChaCha20-Poly1305 AEAD and FSChaCha20Poly1305 (crypto/chacha20poly1305.h)
 * on every implementation this build and CPU run, against OpenSSL's EVP_chacha20_poly1305
 * when built with it (else the portable variant): the encryption of a message with chosen
 * key, nonce and additional data (out of place or in place), its decryption, and the
 * refusal, writing nothing, of the same with one chosen byte of ciphertext, tag or
 * additional data flipped; then a run of packets through the forward-secure wrapper at a
 * chosen rekey interval against a model of BIP324's description on the reference AEAD,
 * decrypted by a receiver that is also handed one tampered packet.
 *
 * Input: key (32 bytes), nonce (12), additional data length (0-599, taken from the message),
 * in place or not, which byte to flip, the rekey interval (1-8, or 224), the number of
 * packets (0-31) and the length of each (0-599), then the message (the rest). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "fuzz.h"

#include "crypto/chacha20poly1305.h"
#include "crypto/chacha20poly1305_impl.h"

#include <string.h>

#ifdef HAVE_OPENSSL
#include <openssl/evp.h>
#endif

#define MAX_IMPLS 8
#define MAX_PACKETS 31
#define MAX_PART 600

/* The reference encryption (out: len + 16 bytes). */
static void ref_encrypt(const unsigned char key[32], const unsigned char nonce[12],
                        const unsigned char *aad, size_t aad_len, const unsigned char *in,
                        size_t len, unsigned char *out)
{
#ifdef HAVE_OPENSSL
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int n = 0, m = 0;
    FUZZ_CHECK(c != NULL
               && EVP_EncryptInit_ex(c, EVP_chacha20_poly1305(), NULL, key, nonce) == 1
               && (aad_len == 0 || EVP_EncryptUpdate(c, NULL, &n, aad, (int)aad_len) == 1)
               && EVP_EncryptUpdate(c, out, &n, in, (int)len) == 1
               && EVP_EncryptFinal_ex(c, out + n, &m) == 1
               && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, out + len) == 1);
    EVP_CIPHER_CTX_free(c);
#else
    chacha20poly1305_ctx c;
    chacha20poly1305_init(&c, key);
    chacha20poly1305_encrypt_with(&chacha20poly1305_portable, &c, nonce, aad, aad_len, in, len,
                                  out);
#endif
}

static void store_le(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

typedef struct {
    unsigned char key[32], nonce[12];
    size_t aad_len, flip, interval, packets, part[MAX_PACKETS];
    int in_place;
    const unsigned char *msg;   /* aad first, then the message */
    size_t msg_len;
} plan;

/* The single message on the implementation in use, against want (ciphertext and tag). */
static void one_message(const plan *p, const unsigned char *want, unsigned char *out,
                        unsigned char *back)
{
    const unsigned char *aad = p->msg, *m = p->msg + p->aad_len;
    size_t len = p->msg_len - p->aad_len, at;
    unsigned char aad2[MAX_PART];
    chacha20poly1305_ctx c;
    chacha20poly1305_init(&c, p->key);
    if (p->in_place) {
        memcpy(out, m, len);
        chacha20poly1305_encrypt(&c, p->nonce, aad, p->aad_len, out, len, out);
    } else {
        chacha20poly1305_encrypt(&c, p->nonce, aad, p->aad_len, m, len, out);
    }
    FUZZ_CHECK(memcmp(out, want, len + 16) == 0);
    FUZZ_CHECK(chacha20poly1305_decrypt(&c, p->nonce, aad, p->aad_len, out, len, back) == 0);
    FUZZ_CHECK(memcmp(back, m, len) == 0);
    /* one byte flipped: refused, nothing written */
    memcpy(aad2, aad, p->aad_len);
    at = p->flip % (len + 16 + p->aad_len);
    if (at < len + 16)
        out[at] ^= 0x20;
    else
        aad2[at - len - 16] ^= 0x20;
    memset(back, 0xc3, len);
    FUZZ_CHECK(chacha20poly1305_decrypt(&c, p->nonce, aad2, p->aad_len, out, len, back) == -1);
    for (size_t i = 0; i < len; i++)
        FUZZ_CHECK(back[i] == 0xc3);
    if (p->in_place) {
        /* decryption in place, of the untampered ciphertext */
        memcpy(back, want, len + 16);
        FUZZ_CHECK(chacha20poly1305_decrypt(&c, p->nonce, aad, p->aad_len, back, len, back)
                   == 0);
        FUZZ_CHECK(memcmp(back, m, len) == 0);
    }
}

/* The packets through a sender and a receiver on the implementation in use, against BIP324's
 * description: packet k's nonce is (k mod interval, k div interval), and after every
 * interval'th packet the key is the first 32 bytes of the encryption of 32 zero bytes under
 * nonce (0xffffffff, k div interval). Packet 3 reaches the receiver tampered with. */
static void packets(const plan *p, unsigned char *want, unsigned char *out, unsigned char *back)
{
    fschacha20poly1305_ctx tx, rx;
    unsigned char key[32], nonce[12];
    size_t off = 0;
    memcpy(key, p->key, 32);
    fschacha20poly1305_init(&tx, key, (uint32_t)p->interval);
    fschacha20poly1305_init(&rx, key, (uint32_t)p->interval);
    for (size_t k = 0; k < p->packets; k++) {
        size_t len = p->part[k];
        const unsigned char *m;
        if (len > p->msg_len)
            len = p->msg_len;
        if (off + len > p->msg_len)
            off = 0;
        m = p->msg + off;
        off += len;
        store_le(nonce, k % p->interval, 4);
        store_le(nonce + 4, k / p->interval, 8);
        ref_encrypt(key, nonce, NULL, 0, m, len, want);
        if ((k + 1) % p->interval == 0) {
            static const unsigned char zeros[32];
            unsigned char next[48];
            store_le(nonce, 0xffffffffu, 4);
            ref_encrypt(key, nonce, NULL, 0, zeros, 32, next);
            memcpy(key, next, 32);
        }
        fschacha20poly1305_encrypt(&tx, NULL, 0, m, len, out);
        FUZZ_CHECK(memcmp(out, want, len + 16) == 0);
        if (k == 3) {
            out[len] ^= 1;
            memset(back, 0x3c, len);
            FUZZ_CHECK(fschacha20poly1305_decrypt(&rx, NULL, 0, out, len, back) == -1);
            for (size_t i = 0; i < len; i++)
                FUZZ_CHECK(back[i] == 0x3c);
        } else {
            FUZZ_CHECK(fschacha20poly1305_decrypt(&rx, NULL, 0, out, len, back) == 0);
            FUZZ_CHECK(memcmp(back, m, len) == 0);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in;
    plan p;
    unsigned char *buf, *want, *out, *back;
    const char *names[MAX_IMPLS];
    size_t n, cap;

    fuzz_init(&in, data, size);
    fuzz_fill(&in, p.key, 32);
    fuzz_fill(&in, p.nonce, 12);
    p.aad_len = (size_t)fuzz_below(&in, MAX_PART);
    p.in_place = fuzz_bool(&in);
    p.flip = (size_t)fuzz_below(&in, 1 << 16);
    p.interval = (size_t)fuzz_below(&in, 9);
    if (p.interval == 0)
        p.interval = 224;
    p.packets = (size_t)fuzz_below(&in, MAX_PACKETS + 1);
    for (size_t k = 0; k < p.packets; k++)
        p.part[k] = (size_t)fuzz_below(&in, MAX_PART);
    p.msg = fuzz_bytes(&in, in.left, &p.msg_len);
    if (p.aad_len > p.msg_len)
        p.aad_len = p.msg_len;

    /* want, out, back: the message and a tag each (or a packet and its tag) */
    cap = (p.msg_len > MAX_PART ? p.msg_len : MAX_PART) + 16;
    if (!(buf = calloc(3, cap)))
        return 0;
    want = buf;
    out = want + cap;
    back = out + cap;
    n = chacha20poly1305_impl_list(names, MAX_IMPLS);
    n = n > MAX_IMPLS ? MAX_IMPLS : n;
    for (size_t i = 0; i <= n; i++) {
        FUZZ_CHECK(chacha20poly1305_impl_force(i < n ? names[i] : "auto") == 0);
        ref_encrypt(p.key, p.nonce, p.msg, p.aad_len, p.msg + p.aad_len,
                    p.msg_len - p.aad_len, want);
        one_message(&p, want, out, back);
        packets(&p, want, out, back);
    }
    FUZZ_CHECK(chacha20poly1305_impl_force("auto") == 0);
    free(buf);
    return 0;
}
