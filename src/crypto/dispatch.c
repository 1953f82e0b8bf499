/* The list of variant sets, and the automatic choice for all of them (variant.h). Dispatch
 * only installs: each set writes its own primitive's pointers. */
#include <string.h>

#include "crypto/sha256.h"
#include "crypto/variant.h"
#include "crypto/variant_impl.h"

/* Every set of this build, in this order: one line a primitive. */
#define CRYPTO_VARIANT_SETS(X) \
    X(sha1) \
    X(sha256) \
    X(sha512) \
    X(chacha20) \
    X(sha3_256) \
    X(num3072) \
    X(poly1305) \
    X(chacha20poly1305)

#define DECLARE_SET(P) extern const crypto_variant_set P##_variant_set;
#define LIST_SET(P) &P##_variant_set,
CRYPTO_VARIANT_SETS(DECLARE_SET)
static const crypto_variant_set *const all_sets[] = {CRYPTO_VARIANT_SETS(LIST_SET)};
#define N_SETS (sizeof all_sets / sizeof all_sets[0])

size_t crypto_variant_sets(const crypto_variant_set **sets, size_t cap)
{
    for (size_t i = 0; sets != NULL && i < cap && i < N_SETS; i++)
        sets[i] = all_sets[i];
    return N_SETS;
}

const crypto_variant_set *crypto_variant_set_find(const char *family)
{
    for (size_t i = 0; family != NULL && i < N_SETS; i++)
        if (strcmp(family, crypto_variant_set_family(all_sets[i])) == 0)
            return all_sets[i];
    return NULL;
}

void crypto_autodetect(void)
{
    for (size_t i = 0; i < N_SETS; i++)
        crypto_variant_autodetect(all_sets[i]);
}

const char *sha256_autodetect(void)
{
    crypto_autodetect();
    return crypto_variant_autodetect(&sha256_variant_set);
}
