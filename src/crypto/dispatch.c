/* Run-time choice of hash implementations (see impl.h). */
#include "crypto/impl.h"
#include "crypto/sha256.h"

sha256_transform_fn sha256_transform_impl = sha256_transform_portable;
sha256_d64_fn sha256_d64_impl = sha256_d64_portable;
sha1_transform_fn sha1_transform_impl = sha1_transform_portable;
sha512_transform_fn sha512_transform_impl = sha512_transform_portable;

const char *sha256_autodetect(void)
{
    return "standard";
}
