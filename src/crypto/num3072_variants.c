/* Num3072's variant set (variant_impl.h): the 24-limb product and square behind num3072_mul
 * and num3072_sqr, and the inverse, each checked against the portable ones on edge and
 * generated operands, and the pointers they are installed in (num3072_mul24_impl,
 * num3072_sqr24_impl, num3072_inverse_impl; num3072.c). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "crypto/num3072.h"
#include "crypto/num3072_impl.h"
#include "crypto/variant_impl.h"

typedef struct {
    num3072_mul24_fn mul24;
    num3072_sqr24_fn sqr24;
    num3072_inverse_fn inverse;
} num3072_fns;

static const num3072_fns portable_fns = {num3072_mul24_portable, num3072_sqr24_portable,
                                         num3072_inverse_portable};

/* The automatic choice last. "avx512ifma" is the inverse of that name with the ADX
 * products (every CPU with IFMA has ADX); "adx" the products alone. */
static const crypto_variant num3072_table[] = {
    {"standard", 0, &portable_fns},
#ifdef NUM3072_HAVE_ADX
    {"adx", CPU_BMI2 | CPU_ADX,
     &(const num3072_fns){num3072_mul24_adx, num3072_sqr24_adx, num3072_inverse_portable}},
#if defined(ENABLE_AVX512IFMA)
    {"avx512ifma", CPU_BMI2 | CPU_ADX | CPU_AVX512IFMA,
     &(const num3072_fns){num3072_mul24_adx, num3072_sqr24_adx, num3072_inverse_avx512ifma}},
#endif
#endif
};

/* Operands that reach every carry path: zero, all ones (each product's high word
 * 2^64 - 2, so every addition carries), single limbs, and generated ones. */
static void operand(uint64_t *x, int kind, uint32_t seed)
{
    int i;
    switch (kind) {
    case 0: memset(x, 0, NUM3072_HALF * sizeof *x); break;
    case 1: memset(x, 0xff, NUM3072_HALF * sizeof *x); break;
    case 2:
        memset(x, 0, NUM3072_HALF * sizeof *x);
        x[seed % NUM3072_HALF] = ~(uint64_t)0;
        break;
    case 3:
        for (i = 0; i < NUM3072_HALF; i++)
            x[i] = i % 2 ? ~(uint64_t)0 : 1;
        break;
    default: crypto_variant_test_fill((unsigned char *)x, NUM3072_HALF * sizeof *x, seed);
    }
}

/* An inverse against the portable one: 0, 1, p - 1, p, 2^3072 - 1 (above p) and generated
 * values, some with their high limbs 0; about ten inverses, once per process. */
static int inverse_agrees(num3072_inverse_fn inverse)
{
    num3072 x, ref, got;
    int i;
    for (i = 0; i < 10; i++) {
        memset(&x, 0, sizeof x);
        switch (i) {
        case 0: break;
        case 1: x.limbs[0] = 1; break;
        case 2: case 3:
            memset(x.limbs, 0xff, sizeof x.limbs);
            x.limbs[0] -= NUM3072_PRIME_DIFF - (uint64_t)(i - 2);
            break;
        case 4: memset(x.limbs, 0xff, sizeof x.limbs); break;
        default:
            crypto_variant_test_fill((unsigned char *)x.limbs, (size_t)(8 * (i + 36)),
                                     0x6a09e667u + (uint32_t)i);
        }
        num3072_inverse_portable(&ref, &x);
        inverse(&got, &x);
        if (memcmp(&ref, &got, sizeof ref) != 0)
            return 0;
    }
    return 1;
}

static int num3072_selftest(const crypto_variant *v)
{
    const num3072_fns *f = v->impl;
    uint64_t a[NUM3072_HALF], b[NUM3072_HALF], ref[2 * NUM3072_HALF], got[2 * NUM3072_HALF];
    int i, j;
    for (i = 0; i < 8; i++)
        for (j = 0; j < 8; j++) {
            operand(a, i, 0x9e3779b9u + (uint32_t)(i * 8 + j));
            operand(b, j, 0x7f4a7c15u + (uint32_t)(i * 8 + j));
            num3072_mul24_portable(ref, a, b);
            f->mul24(got, a, b);
            if (memcmp(ref, got, sizeof ref) != 0)
                return 0;
        }
    for (i = 0; i < 8; i++) {
        operand(a, i, 0x2545f491u + (uint32_t)i);
        num3072_sqr24_portable(ref, a);
        f->sqr24(got, a);
        if (memcmp(ref, got, sizeof ref) != 0)
            return 0;
    }
    return f->inverse == num3072_inverse_portable || inverse_agrees(f->inverse);
}

static void num3072_install(unsigned use);

CRYPTO_VARIANT_SET_DEFINE(num3072, "Num3072", num3072_table, num3072_selftest,
                          num3072_install, NULL, NULL)
CRYPTO_VARIANT_WRAPPERS(num3072)

/* One pair of products at a time: the last variant in use. */
static void num3072_install(unsigned use)
{
    const num3072_fns *f = crypto_variant_last_in_use(&num3072_variant_set, use);
    num3072_mul24_impl = f->mul24;
    num3072_sqr24_impl = f->sqr24;
    num3072_inverse_impl = f->inverse;
}
