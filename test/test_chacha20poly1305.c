/* The AEAD and FSChaCha20Poly1305 (crypto/chacha20poly1305.h) on every variant this build
 * and CPU run: RFC 8439's vectors (section 2.8.2, Appendix A.5); random keys, nonces,
 * additional data and lengths past 64 KiB, out of place and in place, against OpenSSL's
 * EVP_chacha20_poly1305 (when built with it; against the portable variant always);
 * decryption refusing every flipped byte of ciphertext, tag and additional data and then
 * writing nothing; the forward-secure wrapper against a model written from BIP324's
 * description, over many rekeys at intervals 1, 2, 3, 7 and 224 (and 0, which is 2^32),
 * with failed decryptions and copied contexts; the variant self-test refusing broken
 * functions; NULL arguments. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "crypto/chacha20poly1305.h"
#include "crypto/chacha20poly1305_impl.h"
#include "crypto/common.h"

#ifdef HAVE_OPENSSL
#include <openssl/evp.h>
#endif

#define MAX_LEN 70000

/* ---- the reference AEAD ------------------------------------------------------------- */

#ifdef HAVE_OPENSSL
/* OpenSSL's: encrypt (out: len + 16 bytes) or decrypt (in: len + 16 bytes); 0 or -1. */
static int ossl_aead(int enc, const unsigned char key[32], const unsigned char nonce[12],
                     const unsigned char *aad, size_t aad_len, const unsigned char *in,
                     size_t len, unsigned char *out)
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int n = 0, m = 0, ok;
    ok = c != NULL && EVP_CipherInit_ex(c, EVP_chacha20_poly1305(), NULL, NULL, NULL, enc) == 1
         && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) == 1
         && (enc || EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 16,
                                        (void *)(in + len)) == 1)
         && EVP_CipherInit_ex(c, NULL, NULL, key, nonce, enc) == 1
         && (aad_len == 0 || EVP_CipherUpdate(c, NULL, &n, aad, (int)aad_len) == 1)
         && EVP_CipherUpdate(c, out, &n, in, (int)len) == 1
         && EVP_CipherFinal_ex(c, out + n, &m) == 1
         && (!enc || EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, out + len) == 1);
    EVP_CIPHER_CTX_free(c);
    return ok ? 0 : -1;
}
#endif

/* The reference encryption: OpenSSL's when built with it, else the portable variant's
 * (which the vectors pin). */
static void ref_encrypt(const unsigned char key[32], const unsigned char nonce[12],
                        const unsigned char *aad, size_t aad_len, const unsigned char *in,
                        size_t len, unsigned char *out)
{
#ifdef HAVE_OPENSSL
    CHECK(ossl_aead(1, key, nonce, aad, aad_len, in, len, out) == 0);
#else
    chacha20poly1305_ctx c;
    chacha20poly1305_init(&c, key);
    chacha20poly1305_encrypt_with(&chacha20poly1305_portable, &c, nonce, aad, aad_len, in, len,
                                  out);
#endif
}

/* ---- known answers ------------------------------------------------------------------ */

typedef struct {
    const char *key, *nonce, *aad, *pt, *ct, *tag;
} vector;

static const vector vectors[] = {
    /* section 2.8.2 */
    {"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f",
     "070000004041424344454647", "50515253c0c1c2c3c4c5c6c7",
     "4c616469657320616e642047656e746c656d656e206f662074686520636c617373206f66202739393a20"
     "4966204920636f756c64206f6666657220796f75206f6e6c79206f6e652074697020666f722074686520"
     "6675747572652c2073756e73637265656e20776f756c642062652069742e",
     "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fa"
     "fb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4"
     "fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b6116",
     "1ae10b594f09e26a7e902ecbd0600691"},
    /* Appendix A.5 */
    {"1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0",
     "000000000102030405060708", "f33388860000000000004e91",
     "496e7465726e65742d4472616674732061726520647261667420646f63756d656e74732076616c696420"
     "666f722061206d6178696d756d206f6620736978206d6f6e74687320616e64206d617920626520757064"
     "617465642c207265706c616365642c206f72206f62736f6c65746564206279206f7468657220646f6375"
     "6d656e747320617420616e792074696d652e20497420697320696e617070726f70726961746520746f20"
     "75736520496e7465726e65742d447261667473206173207265666572656e6365206d6174657269616c20"
     "6f7220746f2063697465207468656d206f74686572207468616e206173202fe2809c776f726b20696e20"
     "70726f67726573732e2fe2809d",
     "64a0861575861af460f062c79be643bd5e805cfd345cf389f108670ac76c8cb24c6cfc18755d43eea09e"
     "e94e382d26b0bdb7b73c321b0100d4f03b7f355894cf332f830e710b97ce98c8a84abd0b948114ad176e"
     "008d33bd60f982b1ff37c8559797a06ef4f0ef61c186324e2b3506383606907b6a7c02b0f9f6157b53c8"
     "67e4b9166c767b804d46a59b5216cde7a4e99040c5a40433225ee282a1b0a06c523eaf4534d7f83fa115"
     "5b0047718cbc546a0d072b04b3564eea1b422273f548271a0bb2316053fa76991955ebd63159434ecebb"
     "4e466dae5a1073a6727627097a1049e617d91d361094fa68f0ff77987130305beaba2eda04df997b714d"
     "6c6f2c29a6ad5cb4022b02709b",
     "eead9d67890cbb22392336fea1851f38"},
};

static void test_vectors(const char *variant)
{
    for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; i++) {
        unsigned char key[32], nonce[12], aad[16], pt[300], ct[316], got[316];
        size_t al = check_unhex(aad, sizeof aad, vectors[i].aad);
        size_t n = check_unhex(pt, sizeof pt, vectors[i].pt);
        chacha20poly1305_ctx c;
        CHECK(check_unhex(key, 32, vectors[i].key) == 32);
        CHECK(check_unhex(nonce, 12, vectors[i].nonce) == 12);
        if (!CHECK(n != (size_t)-1 && al != (size_t)-1
                   && check_unhex(ct, sizeof ct, vectors[i].ct) == n
                   && check_unhex(ct + n, 16, vectors[i].tag) == 16))
            continue;
        chacha20poly1305_init(&c, key);
        chacha20poly1305_encrypt(&c, nonce, aad, al, pt, n, got);
        CHECKF(memcmp(got, ct, n + 16) == 0, "%s: vector %zu encrypted", variant, i);
        memset(got, 0, sizeof got);
        CHECKF(chacha20poly1305_decrypt(&c, nonce, aad, al, ct, n, got) == 0
               && memcmp(got, pt, n) == 0, "%s: vector %zu decrypted", variant, i);
    }
}

/* ---- random messages, tampering ------------------------------------------------------- */

static unsigned char buf_msg[MAX_LEN + 16], buf_want[MAX_LEN + 32], buf_got[MAX_LEN + 32],
    buf_back[MAX_LEN + 32];

/* Encrypts (out of place, then in place) and decrypts (both ways) one message, against the
 * reference. */
static void one_message(const char *variant, size_t len, size_t aad_len)
{
    unsigned char key[32], nonce[12], aad[2048];
    const unsigned char *msg = buf_msg + check_rng_below(16);
    unsigned char *got = buf_got + check_rng_below(16);
    chacha20poly1305_ctx c, copy;
    check_rng_fill(key, sizeof key);
    check_rng_fill(nonce, sizeof nonce);
    check_rng_fill(aad, aad_len);
    ref_encrypt(key, nonce, aad, aad_len, msg, len, buf_want);
    chacha20poly1305_init(&c, key);
    copy = c;
    chacha20poly1305_encrypt(&copy, nonce, aad, aad_len, msg, len, got);
    CHECKF(memcmp(got, buf_want, len + 16) == 0, "%s: %zu bytes, %zu of aad", variant, len,
           aad_len);
    memcpy(got, msg, len);
    chacha20poly1305_encrypt(&c, nonce, aad, aad_len, got, len, got);
    CHECKF(memcmp(got, buf_want, len + 16) == 0, "%s: %zu bytes in place", variant, len);
    memset(buf_back, 0, len);
    CHECKF(chacha20poly1305_decrypt(&c, nonce, aad, aad_len, buf_want, len, buf_back) == 0
           && memcmp(buf_back, msg, len) == 0, "%s: %zu bytes decrypted", variant, len);
    CHECKF(chacha20poly1305_decrypt(&c, nonce, aad, aad_len, got, len, got) == 0
           && memcmp(got, msg, len) == 0, "%s: %zu bytes decrypted in place", variant, len);
}

/* Every length to 300 (with 0-40 bytes of aad), then random lengths to 70,000 (and 65,536)
 * with up to 2 KiB of aad. */
static void test_random(const char *variant)
{
    check_rng_fill(buf_msg, sizeof buf_msg);
    for (size_t len = 0; len <= 300; len++)
        one_message(variant, len, (size_t)check_rng_below(41));
    one_message(variant, 65536, 0);
    for (int i = 0; i < 30; i++)
        one_message(variant, (size_t)check_rng_below(MAX_LEN + 1),
                    (size_t)check_rng_below(2049));
}

/* 1 when decrypting in under (key, nonce, aad) is refused and writes nothing. */
static int refused(const chacha20poly1305_ctx *key, const unsigned char nonce[12],
                   const unsigned char *aad, size_t aad_len, const unsigned char *in,
                   size_t len)
{
    chacha20poly1305_ctx c = *key;
    memset(buf_back, 0x5a, len + 1);
    if (chacha20poly1305_decrypt(&c, nonce, aad, aad_len, in, len, buf_back) != -1)
        return 0;
    for (size_t i = 0; i <= len; i++)
        if (buf_back[i] != 0x5a)
            return 0;
    return 1;
}

/* Every byte of ciphertext, tag and aad flipped in turn (lengths 0 to 70 and 1000), one
 * bit each, and a wrong nonce. */
static void test_tamper(const char *variant)
{
    static const size_t lens[] = {0, 1, 15, 16, 17, 63, 64, 70, 1000};
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t len = lens[li], al = li % 3 == 0 ? 0 : 13, bad = 0;
        unsigned char key[32], nonce[12], aad[13];
        chacha20poly1305_ctx c;
        check_rng_fill(key, sizeof key);
        check_rng_fill(nonce, sizeof nonce);
        check_rng_fill(aad, sizeof aad);
        chacha20poly1305_init(&c, key);
        chacha20poly1305_encrypt(&c, nonce, aad, al, buf_msg, len, buf_got);
        for (size_t i = 0; i < len + 16; i++) {
            unsigned char bit = (unsigned char)(1u << check_rng_below(8));
            buf_got[i] ^= bit;
            bad += !refused(&c, nonce, aad, al, buf_got, len);
            buf_got[i] ^= bit;
        }
        for (size_t i = 0; i < al; i++) {
            aad[i] ^= 0x80;
            bad += !refused(&c, nonce, aad, al, buf_got, len);
            aad[i] ^= 0x80;
        }
        nonce[11] ^= 1;
        bad += !refused(&c, nonce, aad, al, buf_got, len);
        nonce[11] ^= 1;
        CHECKF(bad == 0, "%s: %zu bytes: %zu tamperings accepted or written", variant, len,
               bad);
        CHECK(chacha20poly1305_decrypt(&c, nonce, aad, al, buf_got, len, buf_back) == 0);
    }
}

/* ---- FSChaCha20Poly1305 against BIP324's description ------------------------------------ */

/* BIP324's FSChaCha20Poly1305, written from its description: the nonce from an absolute
 * packet number, and the key after each interval'th packet replaced by the reference AEAD's
 * encryption of 32 zero bytes. */
typedef struct {
    unsigned char key[32];
    uint64_t packet, interval;
} fs_model;

static void model_crypt(fs_model *m, const unsigned char *aad, size_t aad_len,
                        const unsigned char *in, size_t len, unsigned char *out)
{
    unsigned char nonce[12];
    store32_le(nonce, (uint32_t)(m->packet % m->interval));
    store64_le(nonce + 4, m->packet / m->interval);
    ref_encrypt(m->key, nonce, aad, aad_len, in, len, out);
    if ((m->packet + 1) % m->interval == 0) {
        static const unsigned char zeros[32];
        unsigned char next[48];
        store32_le(nonce, 0xffffffffu);
        ref_encrypt(m->key, nonce, NULL, 0, zeros, 32, next);
        memcpy(m->key, next, 32);
    }
    m->packet++;
}

/* A sender and a receiver, against the model, packet after packet: random lengths (0-300)
 * and aad; every 5th packet is tampered with on the way and refused (both sides' counters
 * go on); midway the sender is copied, and the copy sends the same next packets. */
static void test_fs(const char *variant, uint32_t interval, unsigned packets)
{
    unsigned char key[32], aad[20], msg[300], want[316], got[316], back[316];
    fschacha20poly1305_ctx tx, rx, copy;
    fs_model m;
    unsigned wrong = 0;
    check_rng_fill(key, sizeof key);
    fschacha20poly1305_init(&tx, key, interval);
    fschacha20poly1305_init(&rx, key, interval);
    memcpy(m.key, key, 32);
    m.packet = 0;
    m.interval = interval ? interval : (uint64_t)1 << 32;
    copy = tx;
    for (unsigned p = 0; p < packets; p++) {
        size_t len = (size_t)check_rng_below(301), al = (size_t)check_rng_below(21);
        check_rng_fill(msg, len);
        check_rng_fill(aad, al);
        model_crypt(&m, aad, al, msg, len, want);
        if (p == packets / 2)
            copy = tx;
        fschacha20poly1305_encrypt(&tx, aad, al, msg, len, got);
        wrong += memcmp(got, want, len + 16) != 0;
        if (p >= packets / 2 && p < packets / 2 + 3) {
            unsigned char again[316];
            fschacha20poly1305_encrypt(&copy, aad, al, msg, len, again);
            wrong += memcmp(again, want, len + 16) != 0;
        }
        if (p % 5 == 4) {
            got[(size_t)check_rng_below(len + 16)] ^= 4;
            memset(back, 0x33, sizeof back);
            wrong += fschacha20poly1305_decrypt(&rx, aad, al, got, len, back) != -1;
            for (size_t i = 0; i < sizeof back; i++)
                wrong += back[i] != 0x33;
        } else {
            wrong += fschacha20poly1305_decrypt(&rx, aad, al, got, len, back) != 0
                     || memcmp(back, msg, len) != 0;
        }
    }
    CHECKF(wrong == 0, "%s: interval %u: %u of %u packets wrong", variant, (unsigned)interval,
           wrong, packets);
}

/* ---- the self-test hook, NULL ------------------------------------------------------------ */

static size_t bad_from;

static void bad_poly(poly1305_ctx *ctx, const unsigned char *in, size_t blocks)
{
    poly1305_blocks_portable(ctx, in, blocks >= bad_from ? blocks - 1 : blocks);
}

/* Right, except that a call of bad_from blocks or more leaves its last block unwritten. */
static void bad_chacha(uint32_t state[16], unsigned char *out, const unsigned char *in,
                       size_t blocks)
{
    unsigned char keep[64];
    if (blocks >= bad_from)
        memcpy(keep, out + 64 * (blocks - 1), 64);
    chacha20_blocks_portable(state, out, in, blocks);
    if (blocks >= bad_from)
        memcpy(out + 64 * (blocks - 1), keep, 64);
}

static void test_selftest_hook(void)
{
    static const size_t thresholds[] = {1, 2, 4, 5, 17, 64};
    chacha20poly1305_fns f = chacha20poly1305_portable;
    CHECK(chacha20poly1305_impl_selftest(&f) == 1);
    f.burst = 16;
    CHECK(chacha20poly1305_impl_selftest(&f) == 1);
    for (size_t i = 0; i < sizeof thresholds / sizeof thresholds[0]; i++) {
        bad_from = thresholds[i];
        f = chacha20poly1305_portable;
        f.poly = bad_poly;
        CHECKF(chacha20poly1305_impl_selftest(&f) == 0, "a Poly1305 function dropping a "
               "block from %zu on passed", bad_from);
        f = chacha20poly1305_portable;
        f.chacha = bad_chacha;
        CHECKF(chacha20poly1305_impl_selftest(&f) == 0, "a ChaCha20 function wrong from "
               "%zu blocks on passed", bad_from);
    }
}

static void test_null(void)
{
    unsigned char key[32] = {7}, nonce[12] = {0}, out[32] = {0}, zero[32] = {0};
    chacha20poly1305_ctx c;
    fschacha20poly1305_ctx fs;
    chacha20poly1305_init(NULL, key);
    chacha20poly1305_init(&c, key);
    chacha20poly1305_encrypt(NULL, nonce, NULL, 0, key, 16, out);
    chacha20poly1305_encrypt(&c, NULL, NULL, 0, key, 16, out);
    chacha20poly1305_encrypt(&c, nonce, NULL, 5, key, 16, out);
    chacha20poly1305_encrypt(&c, nonce, NULL, 0, NULL, 16, out);
    CHECK(memcmp(out, zero, 32) == 0);
    CHECK(chacha20poly1305_decrypt(NULL, nonce, NULL, 0, out, 16, out) == -1);
    CHECK(chacha20poly1305_decrypt(&c, nonce, NULL, 0, NULL, 16, out) == -1);
    CHECK(chacha20poly1305_decrypt(&c, nonce, NULL, 0, out, 16, NULL) == -1);
    /* empty message: the tag alone, and in/out NULL with len 0 */
    chacha20poly1305_encrypt(&c, nonce, NULL, 0, NULL, 0, out);
    CHECK(chacha20poly1305_decrypt(&c, nonce, NULL, 0, out, 0, NULL) == 0);
    fschacha20poly1305_init(NULL, key, 224);
    fschacha20poly1305_init(&fs, NULL, 224);
    fschacha20poly1305_encrypt(NULL, NULL, 0, key, 16, out);
    CHECK(fschacha20poly1305_decrypt(NULL, NULL, 0, out, 16, out) == -1);
}

int main(void)
{
    const char *names[8];
    size_t n;
    check_rng_init("test_chacha20poly1305");
#ifdef HAVE_OPENSSL
    printf("reference: OpenSSL's EVP_chacha20_poly1305\n");
#else
    printf("reference: the portable variant (built without OpenSSL)\n");
#endif
    n = chacha20poly1305_impl_list(names, 8);
    if (!CHECK(n >= 1 && n <= 8))
        return check_finish();
    for (size_t i = 0; i <= n; i++) {
        const char *name = i < n ? names[i] : "auto";
        CHECK(chacha20poly1305_impl_force(name) == 0);
        printf("chacha20poly1305 %s: %s\n", name, chacha20poly1305_impl_current());
        test_vectors(name);
        test_random(name);
        test_tamper(name);
        test_fs(name, 224, 224 * 3 + 5);
        test_fs(name, 1, 40);
        test_fs(name, 2, 40);
        test_fs(name, 3, 40);
        test_fs(name, 7, 60);
        test_fs(name, 0, 20);
    }
    test_selftest_hook();
    test_null();
    return check_finish();
}
