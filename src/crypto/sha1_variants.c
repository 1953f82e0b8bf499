/* SHA-1's variant set (variant_impl.h): the transforms, each checked against the portable
 * one on every block count that reaches its paths, and the pointer they are installed in
 * (sha1_transform_impl, sha1.c). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "crypto/dispatch.h"
#include "crypto/impl.h"
#include "crypto/variant_impl.h"
#include "crypto/variants.h"

typedef struct {
    sha1_transform_fn transform;
} sha1_fns;

static const sha1_fns portable_fns = {sha1_transform_portable};

/* The automatic choice last. */
static const crypto_variant sha1_table[] = {
    {"standard", 0, &portable_fns},
#ifdef ENABLE_AVX2
    {"avx2", CPU_AVX2 | CPU_BMI2, &(const sha1_fns){sha1_transform_avx2}},
#endif
#ifdef ENABLE_SHANI
    {"shani", CPU_SHANI, &(const sha1_fns){sha1_transform_shani}},
#endif
};

static void call_transform(const void *impl, void *state, const unsigned char *in, size_t n)
{
    ((const sha1_fns *)impl)->transform(state, in, n);
}

static int sha1_selftest(const crypto_variant *v)
{
    static const crypto_variant_blocks_test t = {64, sizeof sha1_iv, sha1_iv, call_transform};
    return crypto_variant_test_blocks(&t, &portable_fns, v->impl);
}

/* One transform at a time: the last variant in use. */
static void sha1_install(unsigned use);

CRYPTO_VARIANT_SET_DEFINE(sha1, "SHA1", sha1_table, sha1_selftest, sha1_install, NULL, NULL)
CRYPTO_VARIANT_WRAPPERS(sha1)

static void sha1_install(unsigned use)
{
    const sha1_fns *f = crypto_variant_last_in_use(&sha1_variant_set, use);
    sha1_transform_impl = f->transform;
}

int sha1_impl_selftest(sha1_transform_fn transform)
{
    const sha1_fns fns = {transform};
    const crypto_variant v = {"test", 0, &fns};
    return crypto_variant_selftest(&sha1_variant_set, &v);
}
