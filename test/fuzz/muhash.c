/* Fuzz target: MuHash3072 (crypto/muhash.h) and its arithmetic (crypto/num3072.h) on every
 * variant this build and CPU run, with OpenSSL's BIGNUM as the oracle when built with it.
 *
 * Input: two numbers, each one byte saying how it is made (the 384 bytes that follow, or one
 * of the edge values 0, 1, p - 1, p, p + 1, 2^3072 - 1, 2^1536, ... plus or minus the next
 * byte), whose product, square, reduction and inverse are checked (and each variant's
 * against the portable code's); then MuHash steps (on the automatic choice), one
 * byte each for the operation and the slots, the element's bytes a length byte and that many
 * bytes: insert, remove, init_element, mul, div, copy, serialize/deserialize, finalize. Each
 * slot's numerator and denominator are followed in BIGNUM, the elements through OpenSSL's
 * SHA-256 and ChaCha20; without OpenSSL the checks are the algebra's own (a * a^-1 = 1, sqr
 * = mul(a, a), reduce below p, x * y / (y * x) = the empty set). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "fuzz.h"

#include "crypto/muhash.h"
#include "crypto/num3072.h"

#include <string.h>

#ifdef HAVE_OPENSSL
#include <openssl/bn.h>
#include <openssl/evp.h>
#endif

#define EDGE_COUNT 12

/* The edge value e, plus delta (mod 2^3072, so p - 1 - 3 and 2^3072 - 1 + 2 happen). */
static void edge(num3072 *a, unsigned e, int delta)
{
    uint64_t carry;
    int i;
    memset(a, 0, sizeof *a);
    switch (e % EDGE_COUNT) {
    case 0: break;                                            /* 0 */
    case 1: a->limbs[0] = 1; break;                           /* 1 */
    case 2: case 3: case 4:                                   /* p - 1, p, p + 1 */
        memset(a->limbs, 0xff, sizeof a->limbs);              /* p = 2^3072 - 1 - (C - 1) */
        a->limbs[0] -= NUM3072_PRIME_DIFF - (e % EDGE_COUNT - 2);
        break;
    case 5: memset(a->limbs, 0xff, sizeof a->limbs); break;   /* 2^3072 - 1 */
    case 6: a->limbs[24] = 1; break;                          /* 2^1536 */
    case 7: a->limbs[47] = UINT64_C(1) << 63; break;          /* 2^3071 */
    case 8: a->limbs[0] = NUM3072_PRIME_DIFF; break;          /* 2^3072 mod p */
    case 9: for (i = 0; i < 24; i++) a->limbs[i] = ~(uint64_t)0; break;
    case 10: for (i = 24; i < 48; i++) a->limbs[i] = ~(uint64_t)0; break;
    default: for (i = 0; i < 48; i++) a->limbs[i] = 0x5555555555555555u; break;
    }
    if (delta >= 0) {
        carry = (uint64_t)delta;
        for (i = 0; i < NUM3072_LIMBS; i++) {
            a->limbs[i] += carry;
            carry = a->limbs[i] < carry;
        }
    } else {
        uint64_t borrow = (uint64_t)-delta;
        for (i = 0; i < NUM3072_LIMBS; i++) {
            uint64_t before = a->limbs[i];
            a->limbs[i] -= borrow;
            borrow = before < borrow;
        }
    }
}

static void read_number(fuzz_input *in, num3072 *a)
{
    uint8_t how = fuzz_u8(in);
    if (how & 1) {
        unsigned char b[NUM3072_BYTES];
        fuzz_fill(in, b, sizeof b);
        num3072_from_bytes(a, b);
    } else {
        edge(a, how >> 1, (int)(int8_t)fuzz_u8(in));
    }
}

#ifdef HAVE_OPENSSL
static BN_CTX *bn_ctx;
static BIGNUM *bn_p;

static BIGNUM *to_bn(const num3072 *a)
{
    unsigned char b[NUM3072_BYTES];
    num3072_to_bytes(b, a);
    return BN_lebin2bn(b, sizeof b, NULL);
}

/* 1 when a is congruent to v mod p */
static int same(const num3072 *a, const BIGNUM *v)
{
    BIGNUM *x = to_bn(a), *w = BN_new();
    int ok;
    BN_nnmod(x, x, bn_p, bn_ctx);
    BN_nnmod(w, v, bn_p, bn_ctx);
    ok = BN_cmp(x, w) == 0;
    BN_free(x);
    BN_free(w);
    return ok;
}

static BIGNUM *element_bn(const unsigned char *data, size_t len)
{
    unsigned char key[32], iv[16], zero[NUM3072_BYTES], ks[NUM3072_BYTES];
    unsigned int klen = 32;
    int outl = 0;
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    FUZZ_CHECK(c != NULL);
    EVP_Digest(data, len, key, &klen, EVP_sha256(), NULL);
    memset(iv, 0, sizeof iv);
    memset(zero, 0, sizeof zero);
    EVP_EncryptInit_ex(c, EVP_chacha20(), NULL, key, iv);
    EVP_EncryptUpdate(c, ks, &outl, zero, sizeof zero);
    EVP_CIPHER_CTX_free(c);
    return BN_lebin2bn(ks, sizeof ks, NULL);
}
#endif

/* Every variant this CPU runs gives the portable product, square and inverse. */
static void check_variants(const num3072 *a, const num3072 *b)
{
    const char *names[8];
    size_t n = num3072_impl_list(names, 8), i;
    num3072 mul, sqr, inv, r;
    FUZZ_CHECK(num3072_impl_force("standard") == 0);
    num3072_mul(&mul, a, b);
    num3072_sqr(&sqr, a);
    num3072_inverse(&inv, b);
    for (i = 1; i < n && i < 8; i++) {
        FUZZ_CHECK(num3072_impl_force(names[i]) == 0);
        num3072_mul(&r, a, b);
        FUZZ_CHECK(memcmp(&r, &mul, sizeof r) == 0);
        num3072_sqr(&r, a);
        FUZZ_CHECK(memcmp(&r, &sqr, sizeof r) == 0);
        num3072_inverse(&r, b);
        FUZZ_CHECK(memcmp(&r, &inv, sizeof r) == 0);
    }
    FUZZ_CHECK(num3072_impl_force("auto") == 0);
}

static void check_arith(const num3072 *a, const num3072 *b)
{
    num3072 r, s, t, one;
    check_variants(a, b);
    num3072_set_one(&one);
    num3072_mul(&r, a, b);
    num3072_mul(&s, b, a);
    FUZZ_CHECK(num3072_equal(&r, &s));
    num3072_sqr(&r, a);
    num3072_mul(&s, a, a);
    FUZZ_CHECK(memcmp(&r, &s, sizeof r) == 0);
    t = *a;
    num3072_reduce(&t);
    FUZZ_CHECK(num3072_equal(&t, a));
    s = t;
    num3072_reduce(&s);                           /* below p: a second reduction is a no-op */
    FUZZ_CHECK(memcmp(&s, &t, sizeof s) == 0);
    num3072_inverse(&r, a);
    num3072_mul(&s, &r, a);
    t = *a;
    num3072_reduce(&t);
    {
        num3072 zero;
        memset(&zero, 0, sizeof zero);
        FUZZ_CHECK(num3072_equal(&t, &zero) ? num3072_equal(&r, &zero)
                                            : num3072_equal(&s, &one));
    }
#ifdef HAVE_OPENSSL
    {
        BIGNUM *x = to_bn(a), *y = to_bn(b), *w = BN_new();
        num3072_mul(&r, a, b);
        BN_mod_mul(w, x, y, bn_p, bn_ctx);
        FUZZ_CHECK(same(&r, w));
        num3072_sqr(&r, b);
        BN_mod_sqr(w, y, bn_p, bn_ctx);
        FUZZ_CHECK(same(&r, w));
        num3072_inverse(&r, b);
        BN_nnmod(w, y, bn_p, bn_ctx);
        if (!BN_is_zero(w))
            BN_mod_inverse(w, w, bn_p, bn_ctx);
        {
            BIGNUM *got = to_bn(&r);
            FUZZ_CHECK(BN_cmp(got, w) == 0);
            BN_free(got);
        }
        BN_free(x);
        BN_free(y);
        BN_free(w);
    }
#endif
}

#define SLOTS 3

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in;
    num3072 a, b;
    muhash3072 h[SLOTS];
    unsigned char out[32], out2[32];
    int i, steps = 0;
#ifdef HAVE_OPENSSL
    BIGNUM *num[SLOTS], *den[SLOTS];
    if (!bn_ctx) {
        bn_ctx = BN_CTX_new();
        bn_p = BN_new();
        BN_one(bn_p);
        BN_lshift(bn_p, bn_p, 3072);
        BN_sub_word(bn_p, NUM3072_PRIME_DIFF);
    }
    for (i = 0; i < SLOTS; i++) {
        num[i] = BN_new();
        den[i] = BN_new();
        BN_one(num[i]);
        BN_one(den[i]);
    }
#endif
    fuzz_init(&in, data, size);
    read_number(&in, &a);
    read_number(&in, &b);
    check_arith(&a, &b);

    for (i = 0; i < SLOTS; i++)
        muhash3072_init(&h[i]);
    while (!fuzz_done(&in) && steps++ < 32) {
        uint8_t op = fuzz_u8(&in), which = fuzz_u8(&in);
        int s = which % SLOTS, o = which / SLOTS % SLOTS;
        size_t len;
        const uint8_t *bytes = fuzz_bytes(&in, fuzz_u8(&in), &len);
        unsigned char ser[MUHASH3072_SERIALIZED_SIZE];
        switch (op % 8) {
        case 0: muhash3072_insert(&h[s], bytes, len); break;
        case 1: muhash3072_remove(&h[s], bytes, len); break;
        case 2: muhash3072_init_element(&h[s], bytes, len); break;
        case 3: muhash3072_mul(&h[s], &h[o]); break;
        case 4: muhash3072_div(&h[s], &h[o]); break;
        case 5: h[o] = h[s]; break;
        case 6:
            muhash3072_serialize(&h[s], ser);
            muhash3072_deserialize(&h[o], ser);
            break;
        default: {
            muhash3072 copy = h[s];
            muhash3072_finalize(&h[s], out);
            muhash3072_finalize(&copy, out2);   /* finalizing again changes nothing */
            FUZZ_CHECK(memcmp(out, out2, 32) == 0);
            muhash3072_finalize(&h[s], out2);
            FUZZ_CHECK(memcmp(out, out2, 32) == 0);
        }
        }
#ifdef HAVE_OPENSSL
        {
            BIGNUM *e, *on = BN_dup(num[o]), *od = BN_dup(den[o]);
            switch (op % 8) {
            case 0:
            case 1:
                e = element_bn(bytes, len);
                BN_mod_mul(op % 8 ? den[s] : num[s], op % 8 ? den[s] : num[s], e, bn_p, bn_ctx);
                BN_free(e);
                break;
            case 2:
                BN_free(num[s]);
                num[s] = element_bn(bytes, len);
                BN_one(den[s]);
                break;
            case 3:
                BN_mod_mul(num[s], num[s], on, bn_p, bn_ctx);
                BN_mod_mul(den[s], den[s], od, bn_p, bn_ctx);
                break;
            case 4:
                BN_mod_mul(num[s], num[s], od, bn_p, bn_ctx);
                BN_mod_mul(den[s], den[s], on, bn_p, bn_ctx);
                break;
            case 5:
            case 6:
                BN_copy(num[o], num[s]);
                BN_copy(den[o], den[s]);
                break;
            default: {
                BIGNUM *v = BN_new();
                unsigned char bytes384[NUM3072_BYTES], want[32];
                unsigned int wl = 32;
                BN_nnmod(v, den[s], bn_p, bn_ctx);
                if (!BN_is_zero(v))
                    BN_mod_inverse(v, v, bn_p, bn_ctx);
                BN_mod_mul(v, v, num[s], bn_p, bn_ctx);
                BN_bn2lebinpad(v, bytes384, sizeof bytes384);
                EVP_Digest(bytes384, sizeof bytes384, want, &wl, EVP_sha256(), NULL);
                FUZZ_CHECK(memcmp(out, want, 32) == 0);
                BN_copy(num[s], v);
                BN_one(den[s]);
                BN_free(v);
            }
            }
            BN_free(on);
            BN_free(od);
            FUZZ_CHECK(same(&h[s].numerator, num[s]) && same(&h[s].denominator, den[s]));
            FUZZ_CHECK(same(&h[o].numerator, num[o]) && same(&h[o].denominator, den[o]));
        }
#endif
    }
    /* the algebra: x * y / (y * x) is the empty set, for the states the steps left (unless a
     * denominator or numerator is 0 mod p, which no element's number is in practice: then
     * both halves are 0 and so is the quotient) */
    {
        muhash3072 x = h[0], y = h[1], z, empty;
        num3072 zero;
        int degenerate;
        memset(&zero, 0, sizeof zero);
        muhash3072_init(&z);
        muhash3072_init(&empty);
        muhash3072_mul(&z, &x);
        muhash3072_mul(&z, &y);
        muhash3072_mul(&y, &x);
        muhash3072_div(&z, &y);
        FUZZ_CHECK(num3072_equal(&z.numerator, &z.denominator));
        degenerate = num3072_equal(&z.denominator, &zero);
        muhash3072_finalize(&z, out);
        muhash3072_finalize(&empty, out2);
        FUZZ_CHECK(degenerate || memcmp(out, out2, 32) == 0);
    }
#ifdef HAVE_OPENSSL
    for (i = 0; i < SLOTS; i++) {
        BN_free(num[i]);
        BN_free(den[i]);
    }
#endif
    return 0;
}
