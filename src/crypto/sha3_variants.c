/* SHA3-256's variant set: one variant, the portable code, so that SHA3-256 is listed,
 * forced and described like every other primitive (variant.h); nothing to test or
 * install. */
#include "crypto/variant_impl.h"

static const crypto_variant sha3_256_table[] = {
    {"standard", 0, NULL},
};

CRYPTO_VARIANT_SET_DEFINE(sha3_256, "SHA3-256", sha3_256_table, NULL, NULL, NULL, NULL)
