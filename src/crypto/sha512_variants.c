/* SHA-512's variant set (variant_impl.h): the transforms, each checked against the portable
 * one on every block count that reaches its paths, and the pointer they are installed in
 * (sha512_transform_impl, sha512.c). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "crypto/dispatch.h"
#include "crypto/impl.h"
#include "crypto/variant_impl.h"
#include "crypto/variants.h"

typedef struct {
    sha512_transform_fn transform;
} sha512_fns;

static const sha512_fns portable_fns = {sha512_transform_portable};

/* The automatic choice last. */
static const crypto_variant sha512_table[] = {
    {"standard", 0, &portable_fns},
#ifdef ENABLE_AVX2
    {"avx2", CPU_AVX2 | CPU_BMI2, &(const sha512_fns){sha512_transform_avx2}},
#endif
#ifdef ENABLE_AVX512
    {"avx512", CPU_AVX512 | CPU_BMI2, &(const sha512_fns){sha512_transform_avx512}},
#endif
};

static void call_transform(const void *impl, void *state, const unsigned char *in, size_t n)
{
    ((const sha512_fns *)impl)->transform(state, in, n);
}

static int sha512_selftest(const crypto_variant *v)
{
    static const crypto_variant_blocks_test t = {128, sizeof sha512_iv, sha512_iv, call_transform};
    return crypto_variant_test_blocks(&t, &portable_fns, v->impl);
}

/* One transform at a time: the last variant in use. */
static void sha512_install(unsigned use);

CRYPTO_VARIANT_SET_DEFINE(sha512, "SHA512", sha512_table, sha512_selftest, sha512_install, NULL, NULL)
CRYPTO_VARIANT_WRAPPERS(sha512)

static void sha512_install(unsigned use)
{
    const sha512_fns *f = crypto_variant_last_in_use(&sha512_variant_set, use);
    sha512_transform_impl = f->transform;
}

int sha512_impl_selftest(sha512_transform_fn transform)
{
    const sha512_fns fns = {transform};
    const crypto_variant v = {"test", 0, &fns};
    return crypto_variant_selftest(&sha512_variant_set, &v);
}
