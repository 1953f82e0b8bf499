/* MuHash3072 (crypto/muhash.h) and its arithmetic (crypto/num3072.h).
 *
 * Known answers from Bitcoin Core's muhash_tests (crypto_tests.cpp): FromInt(0) * FromInt(1)
 * / FromInt(2), by mul/div and by insert/remove; the serialization of FromInt(1) *
 * FromInt(2); the overflow state (a numerator of 384 0xff bytes); Core's order and
 * cancellation properties. Then, against OpenSSL's BIGNUM: every product, square, reduction
 * and inverse, on edge values (0, 1, p - 1, p, p + 1, values at and near 2^3072, halves that
 * make Karatsuba's differences 0 or negative) and random ones, on both builds of the
 * arithmetic (with unsigned __int128 and without); and random sequences of MuHash
 * operations against a model on BIGNUM whose elements come from OpenSSL's SHA-256 and
 * ChaCha20. Without OpenSSL only the known answers run.
 *
 * Usage: test_muhash [--quick]   (--quick: fewer random rounds) */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "crypto/muhash.h"
#include "crypto/num3072.h"
#include "crypto/sha256.h"
#include "num3072_portable.h"

#ifdef HAVE_OPENSSL
#include <openssl/bn.h>
#include <openssl/evp.h>
#endif

static int rounds = 100;

static void from_int(muhash3072 *m, unsigned char i)
{
    unsigned char t[32];
    memset(t, 0, sizeof t);
    t[0] = i;
    muhash3072_init_element(m, t, sizeof t);
}

/* Core prints a uint256 with its bytes reversed. */
static int digest_is(const unsigned char out[32], const char *core_hex)
{
    unsigned char want[32], rev[32];
    int i;
    if (check_unhex(want, sizeof want, core_hex) != 32)
        return 0;
    for (i = 0; i < 32; i++)
        rev[i] = want[31 - i];
    return memcmp(out, rev, 32) == 0;
}

static void test_core_vectors(void)
{
    /* The numerator of FromInt(1) * FromInt(2), little-endian: Core's ser_exp, whose
     * denominator half is 1. */
    static const char *ser_num =
        "1fa093295ea30a6a3acdc7b3f770fa538eff537528e990e2910e40bbcfd7f6696b1256901929094694b5"
        "6316de342f593303dd12ac43e06dce1be1ff8301c845beb15468fff0ef002dbf80c29f26e6452bccc91b"
        "5cb9437ad410d2a67ea847887fa3c6a6553309946880fe20db2c73fe0641adbd4e86edfee0d9f8cd0ee1"
        "230898873dc13ed8ddcaf045c80faa082774279007a2253f8922ee3ef361d378a6af3ddaf180b190ac97"
        "e556888c36b3d1fb1c85aab9ccd46e3deaeb7b7cf5db067a7e9ff86b658cf3acd6662bbcce37232daa75"
        "3c48b794356c020090c831a8304416e2aa7ad633c0ddb2f11be1be316a81be7f7e472071c042cb68faef"
        "549c221ebff209273638b741aba5a81675c45a5fa92fea4ca821d7a324cb1e1a2ccd3b76c4228ec8066d"
        "ad2a5df6e1bd0de45c7dd5de8070bdb46db6c554cf9aefc9b7b2bbf9f75b1864d9f95005314593905c01"
        "09b71f703d49944ae94477b51dac10a816bb6d1c700bafabc8bd86fac8df24be519a2f2836b16392e180"
        "36cb13e48c5c";
    static const char *cancel = "10d312b100cbd32ada024a6646e40d3482fcff103668d2625f10002a607d5863";
    unsigned char out[32], out2[32], one[32], ser[MUHASH3072_SERIALIZED_SIZE], want[384];
    unsigned char t1[32], t2[32];
    muhash3072 acc, b, x, y, z;
    int iter;

    from_int(&acc, 0);
    from_int(&b, 1);
    muhash3072_mul(&acc, &b);
    from_int(&b, 2);
    muhash3072_div(&acc, &b);
    muhash3072_finalize(&acc, out);
    CHECK(digest_is(out, cancel));

    from_int(&acc, 0);
    memset(t1, 0, sizeof t1);
    memset(t2, 0, sizeof t2);
    t1[0] = 1;
    t2[0] = 2;
    muhash3072_insert(&acc, t1, sizeof t1);
    muhash3072_remove(&acc, t2, sizeof t2);
    muhash3072_finalize(&acc, out);
    CHECK(digest_is(out, cancel));

    from_int(&acc, 1);
    from_int(&b, 2);
    muhash3072_mul(&acc, &b);
    muhash3072_serialize(&acc, ser);
    CHECK(check_unhex(want, sizeof want, ser_num) == sizeof want);
    CHECK(memcmp(ser, want, sizeof want) == 0);
    CHECK(ser[384] == 1);
    memset(want, 0, sizeof want);
    CHECK(memcmp(ser + 385, want, 383) == 0);
    /* Core's deserialization check: the state read back finalizes the same */
    muhash3072_deserialize(&b, ser);
    muhash3072_finalize(&acc, out);
    muhash3072_finalize(&b, out2);
    CHECK(memcmp(out, out2, 32) == 0);

    /* Core's overflow check: numerator 2^3072 - 1 (above p), denominator 1; Core compares
     * HexStr(out), so these bytes are in order */
    memset(ser, 0xff, 384);
    memset(ser + 384, 0, 384);
    ser[384] = 1;
    muhash3072_deserialize(&acc, ser);
    muhash3072_finalize(&acc, out);
    CHECK(check_unhex(want, 32,
                      "3a31e6903aff0de9f62f9a9f7f8b861de76ce2cda09822b90014319ae5dc2271") == 32);
    CHECK(memcmp(out, want, 32) == 0);

    /* the empty set: SHA-256 of the number 1, 384 bytes little-endian */
    memset(want, 0, sizeof want);
    want[0] = 1;
    sha256_hash(one, want, sizeof want);
    muhash3072_init(&acc);
    muhash3072_finalize(&acc, out);
    CHECK(memcmp(out, one, 32) == 0);

    /* Core's random part: four multiplications or divisions in any of four orders give one
     * digest; X * Y / (Y * X) is the empty set */
    for (iter = 0; iter < 10; iter++) {
        int table[4], order, i;
        for (i = 0; i < 4; i++)
            table[i] = (int)check_rng_below(8);
        for (order = 0; order < 4; order++) {
            muhash3072_init(&acc);
            for (i = 0; i < 4; i++) {
                int t = table[i ^ order];
                from_int(&b, (unsigned char)(t & 3));
                if (t & 4)
                    muhash3072_div(&acc, &b);
                else
                    muhash3072_mul(&acc, &b);
            }
            muhash3072_finalize(&acc, order ? out2 : out);
            if (order)
                CHECK(memcmp(out, out2, 32) == 0);
        }
        from_int(&x, (unsigned char)check_rng_below(16));
        from_int(&y, (unsigned char)check_rng_below(16));
        muhash3072_init(&z);
        muhash3072_mul(&z, &x);
        muhash3072_mul(&z, &y);
        muhash3072_mul(&y, &x);
        muhash3072_div(&z, &y);
        muhash3072_finalize(&z, out);
        CHECK(memcmp(out, one, 32) == 0);
    }

    /* m * m and m / m, with m its own other */
    from_int(&x, 3);
    y = x;
    muhash3072_mul(&x, &x);
    muhash3072_div(&x, &y);
    muhash3072_div(&x, &y);
    muhash3072_finalize(&x, out);
    CHECK(memcmp(out, one, 32) == 0);
    from_int(&x, 4);
    muhash3072_div(&x, &x);
    muhash3072_finalize(&x, out);
    CHECK(memcmp(out, one, 32) == 0);
}

#ifdef HAVE_OPENSSL

/* ---- the arithmetic against BIGNUM ------------------------------------------------------ */

static BN_CTX *bn_ctx;
static BIGNUM *bn_p;

static BIGNUM *to_bn(const num3072 *a)
{
    unsigned char b[NUM3072_BYTES];
    num3072_to_bytes(b, a);
    return BN_lebin2bn(b, sizeof b, NULL);
}

/* a = v mod 2^3072 (v >= 0) */
static void from_bn(num3072 *a, const BIGNUM *v)
{
    unsigned char b[NUM3072_BYTES];
    BIGNUM *t = BN_dup(v);
    BN_mask_bits(t, 3072);
    BN_bn2lebinpad(t, b, sizeof b);
    num3072_from_bytes(a, b);
    BN_free(t);
}

/* 1 when a stands for v mod p */
static int same_residue(const num3072 *a, const BIGNUM *v)
{
    BIGNUM *x = to_bn(a), *r = BN_new();
    int ok;
    BN_nnmod(r, v, bn_p, bn_ctx);
    BN_nnmod(x, x, bn_p, bn_ctx);
    ok = BN_cmp(x, r) == 0;
    BN_free(x);
    BN_free(r);
    return ok;
}

typedef struct {
    const char *name;
    void (*mul)(num3072 *, const num3072 *, const num3072 *);
    void (*sqr)(num3072 *, const num3072 *);
    void (*reduce)(num3072 *);
    void (*inverse)(num3072 *, const num3072 *);
} arith;

static const arith ariths[] = {
    {"int128", num3072_mul, num3072_sqr, num3072_reduce, num3072_inverse},
    {"portable (no __int128)", portable_num3072_mul, portable_num3072_sqr,
     portable_num3072_reduce, portable_num3072_inverse},
};

/* Edge values: i < EDGES picks one. */
#define EDGES 20
static void edge_value(num3072 *a, int i)
{
    BIGNUM *v = BN_new();
    int k;
    memset(a, 0, sizeof *a);
    switch (i) {
    case 0: break;                                            /* 0 */
    case 1: a->limbs[0] = 1; break;                           /* 1 */
    case 2: a->limbs[0] = 2; break;
    case 3: BN_sub_word(BN_copy(v, bn_p), 1); from_bn(a, v); break;   /* p - 1 */
    case 4: from_bn(a, bn_p); break;                          /* p */
    case 5: BN_add_word(BN_copy(v, bn_p), 1); from_bn(a, v); break;   /* p + 1 */
    case 6: memset(a->limbs, 0xff, sizeof a->limbs); break;   /* 2^3072 - 1 */
    case 7: memset(a->limbs, 0xff, sizeof a->limbs); a->limbs[0] -= 5; break;
    case 8: a->limbs[0] = NUM3072_PRIME_DIFF; break;          /* 2^3072 mod p */
    case 9: a->limbs[0] = NUM3072_PRIME_DIFF - 1; break;      /* = -(p - ...) */
    case 10: a->limbs[47] = UINT64_C(1) << 63; break;         /* 2^3071 */
    case 11: a->limbs[24] = 1; break;                         /* 2^1536: halves 0 and 1 */
    case 12: for (k = 0; k < 24; k++) a->limbs[k] = ~(uint64_t)0; break;   /* low half only */
    case 13: for (k = 24; k < 48; k++) a->limbs[k] = ~(uint64_t)0; break;  /* high half only */
    case 14: for (k = 0; k < 48; k++) a->limbs[k] = 7; break;       /* equal halves */
    case 15: a->limbs[0] = 1; a->limbs[47] = ~(uint64_t)0; break;
    case 16: BN_sub_word(BN_copy(v, bn_p), 2); from_bn(a, v); break;   /* p - 2 */
    case 17: for (k = 0; k < 48; k++) a->limbs[k] = (uint64_t)k * 0x0101010101010101u; break;
    case 18: a->limbs[23] = ~(uint64_t)0; a->limbs[47] = 1; break;
    default: BN_set_word(v, 1); BN_lshift(v, v, 3071); BN_sub_word(v, 1); from_bn(a, v);
    }
    BN_free(v);
}

static void random_value(num3072 *a)
{
    int k;
    check_rng_fill(a->limbs, sizeof a->limbs);
    switch (check_rng_below(8)) {
    case 0: for (k = (int)check_rng_below(48); k < 48; k++) a->limbs[k] = 0; break;
    case 1: for (k = (int)check_rng_below(48); k < 48; k++) a->limbs[k] = ~(uint64_t)0; break;
    case 2: a->limbs[check_rng_below(48)] = 0; break;
    default: break;
    }
}

static int check_ops(const arith *ar, const num3072 *a, const num3072 *b)
{
    BIGNUM *x = to_bn(a), *y = to_bn(b), *want = BN_new(), *got;
    num3072 r, s;
    int ok = 1;

    ar->mul(&r, a, b);
    BN_mod_mul(want, x, y, bn_p, bn_ctx);
    ok &= CHECKF(same_residue(&r, want), "%s: mul", ar->name);
    s = *a;                                   /* r = a, then r = b */
    ar->mul(&s, &s, b);
    ok &= CHECKF(memcmp(&s, &r, sizeof r) == 0, "%s: mul into its first operand", ar->name);
    s = *b;
    ar->mul(&s, a, &s);
    ok &= CHECKF(memcmp(&s, &r, sizeof r) == 0, "%s: mul into its second operand", ar->name);

    ar->sqr(&r, a);
    BN_mod_sqr(want, x, bn_p, bn_ctx);
    ok &= CHECKF(same_residue(&r, want), "%s: sqr", ar->name);
    ar->mul(&s, a, a);
    ok &= CHECKF(memcmp(&s, &r, sizeof r) == 0, "%s: sqr is mul(a, a)", ar->name);

    r = *a;
    ar->reduce(&r);
    BN_nnmod(want, x, bn_p, bn_ctx);
    got = to_bn(&r);
    ok &= CHECKF(BN_cmp(got, want) == 0, "%s: reduce", ar->name);
    BN_free(got);
    ok &= CHECK(num3072_equal(&r, a));

    ar->inverse(&r, a);
    got = to_bn(&r);
    if (BN_is_zero(want)) {
        ok &= CHECKF(BN_is_zero(got), "%s: the inverse of 0 is 0", ar->name);
    } else {
        BN_mod_inverse(want, x, bn_p, bn_ctx);
        ok &= CHECKF(BN_cmp(got, want) == 0, "%s: inverse", ar->name);
    }
    s = *a;
    ar->inverse(&s, &s);
    ok &= CHECKF(memcmp(&s, &r, sizeof r) == 0, "%s: inverse in place", ar->name);
    BN_free(got);
    BN_free(x);
    BN_free(y);
    BN_free(want);
    return ok;
}

static void run_arith(const arith *ar)
{
    num3072 a, b;
    int i, j, round, ok = 1;
    {
        for (i = 0; i < EDGES && ok; i++)
            for (j = 0; j < EDGES && ok; j++) {
                edge_value(&a, i);
                edge_value(&b, j);
                ok = check_ops(ar, &a, &b);
                if (!ok)
                    fprintf(stderr, "  edge values %d and %d\n", i, j);
            }
        for (round = 0; round < 5 * rounds && ok; round++) {
            random_value(&a);
            if (check_rng_below(4) == 0)
                edge_value(&b, (int)check_rng_below(EDGES));
            else
                random_value(&b);
            ok = check_ops(ar, &a, &b);
        }
    }
}

/* The portable build without unsigned __int128, then every variant of the set this CPU runs
 * (each installed with num3072_impl_force, reached through the public functions). */
static void test_arith(void)
{
    const char *names[8];
    size_t n = num3072_impl_list(names, 8), i;
    run_arith(&ariths[1]);
    for (i = 0; i < n && i < 8; i++) {
        if (!CHECK(num3072_impl_force(names[i]) == 0))
            continue;
        printf("num3072: %s\n", names[i]);
        run_arith(&(const arith){names[i], num3072_mul, num3072_sqr, num3072_reduce,
                                 num3072_inverse});
    }
    CHECK(num3072_impl_force("auto") == 0);
    /* the constant the inverse's updates use: p * P_INV62 = 1 mod 2^62 */
    CHECK((((uint64_t)0 - NUM3072_PRIME_DIFF) * UINT64_C(0x070a1421da087d93)
           & ((UINT64_C(1) << 62) - 1)) == 1);
}

/* ---- MuHash against a model ------------------------------------------------------------- */

/* The element of data through OpenSSL: SHA-256, then ChaCha20 (OpenSSL's IV is the 32-bit
 * block counter then the 96-bit nonce, all zero here) over 384 zero bytes. */
static BIGNUM *model_element(const unsigned char *data, size_t len)
{
    unsigned char key[32], iv[16], zero[384], stream[384];
    unsigned int klen = 32;
    int outl = 0;
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    EVP_Digest(data, len, key, &klen, EVP_sha256(), NULL);
    memset(iv, 0, sizeof iv);
    memset(zero, 0, sizeof zero);
    EVP_EncryptInit_ex(c, EVP_chacha20(), NULL, key, iv);
    EVP_EncryptUpdate(c, stream, &outl, zero, sizeof zero);
    EVP_CIPHER_CTX_free(c);
    return BN_lebin2bn(stream, sizeof stream, NULL);
}

typedef struct {
    BIGNUM *num, *den;
} model_set;

static void model_finalize(model_set *m, unsigned char out[32])
{
    BIGNUM *v = BN_new();
    unsigned char bytes[384];
    unsigned int len = 32;
    BN_nnmod(v, m->den, bn_p, bn_ctx);
    if (!BN_is_zero(v))                      /* num / 0 is 0, as the inverse of 0 is */
        BN_mod_inverse(v, v, bn_p, bn_ctx);
    BN_mod_mul(v, v, m->num, bn_p, bn_ctx);
    BN_bn2lebinpad(v, bytes, sizeof bytes);
    EVP_Digest(bytes, sizeof bytes, out, &len, EVP_sha256(), NULL);
    BN_copy(m->num, v);
    BN_one(m->den);
    BN_free(v);
}

#define SLOTS 4
static void test_model(void)
{
    muhash3072 h[SLOTS];
    model_set m[SLOTS];
    int round, i, ok = 1;
    for (i = 0; i < SLOTS; i++) {
        m[i].num = BN_new();
        m[i].den = BN_new();
    }
    for (round = 0; round < rounds && ok; round++) {
        for (i = 0; i < SLOTS; i++) {
            muhash3072_init(&h[i]);
            BN_one(m[i].num);
            BN_one(m[i].den);
        }
        for (i = 0; i < 12 && ok; i++) {
            int s = (int)check_rng_below(SLOTS), o = (int)check_rng_below(SLOTS);
            unsigned char data[100], out[32], want[32], ser[MUHASH3072_SERIALIZED_SIZE];
            size_t len = (size_t)check_rng_below(sizeof data);
            BIGNUM *e;
            check_rng_fill(data, len);
            switch (check_rng_below(8)) {
            case 0:
                muhash3072_insert(&h[s], data, len);
                e = model_element(data, len);
                BN_mod_mul(m[s].num, m[s].num, e, bn_p, bn_ctx);
                BN_free(e);
                break;
            case 1:
                muhash3072_remove(&h[s], data, len);
                e = model_element(data, len);
                BN_mod_mul(m[s].den, m[s].den, e, bn_p, bn_ctx);
                BN_free(e);
                break;
            case 2:
                muhash3072_init_element(&h[s], data, len);
                BN_free(m[s].num);
                m[s].num = model_element(data, len);
                BN_one(m[s].den);
                break;
            case 3: {
                BIGNUM *on = BN_dup(m[o].num), *od = BN_dup(m[o].den);
                muhash3072_mul(&h[s], &h[o]);
                BN_mod_mul(m[s].num, m[s].num, on, bn_p, bn_ctx);
                BN_mod_mul(m[s].den, m[s].den, od, bn_p, bn_ctx);
                BN_free(on);
                BN_free(od);
                break;
            }
            case 4: {
                BIGNUM *on = BN_dup(m[o].num), *od = BN_dup(m[o].den);
                muhash3072_div(&h[s], &h[o]);
                BN_mod_mul(m[s].num, m[s].num, od, bn_p, bn_ctx);
                BN_mod_mul(m[s].den, m[s].den, on, bn_p, bn_ctx);
                BN_free(on);
                BN_free(od);
                break;
            }
            case 5:                            /* a copy is an independent state */
                h[o] = h[s];
                BN_copy(m[o].num, m[s].num);
                BN_copy(m[o].den, m[s].den);
                break;
            case 6:                            /* through the serialized form */
                muhash3072_serialize(&h[s], ser);
                muhash3072_deserialize(&h[o], ser);
                BN_copy(m[o].num, m[s].num);
                BN_copy(m[o].den, m[s].den);
                break;
            default:
                muhash3072_finalize(&h[s], out);
                model_finalize(&m[s], want);
                ok &= CHECKF(memcmp(out, want, 32) == 0, "round %d step %d: digest", round, i);
                ok &= CHECK(same_residue(&h[s].numerator, m[s].num));
            }
            ok &= CHECKF(same_residue(&h[s].numerator, m[s].num)
                         && same_residue(&h[s].denominator, m[s].den),
                         "round %d step %d: state", round, i);
        }
        for (i = 0; i < SLOTS && ok; i++) {
            unsigned char out[32], want[32];
            muhash3072_finalize(&h[i], out);
            model_finalize(&m[i], want);
            ok &= CHECKF(memcmp(out, want, 32) == 0, "round %d: final digest %d", round, i);
        }
    }
    for (i = 0; i < SLOTS; i++) {
        BN_free(m[i].num);
        BN_free(m[i].den);
    }
}
#endif

int main(int argc, char **argv)
{
    check_rng_init("test_muhash");
    if (argc > 1 && strcmp(argv[1], "--quick") == 0)
        rounds = 10;
    test_core_vectors();
#ifdef HAVE_OPENSSL
    bn_ctx = BN_CTX_new();
    bn_p = BN_new();
    BN_one(bn_p);
    BN_lshift(bn_p, bn_p, 3072);
    BN_sub_word(bn_p, NUM3072_PRIME_DIFF);
    test_arith();
    test_model();
    BN_free(bn_p);
    BN_CTX_free(bn_ctx);
#else
    printf("built without OpenSSL: the comparisons with BIGNUM are left out\n");
#endif
    return check_finish();
}
