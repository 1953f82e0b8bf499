/* sha256_d64, 16 inputs at a time in 16 32-bit lanes (avx512). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#define XWAY_LANES 16
#define XWAY_NAME sha256_d64_avx512_16way
#include "crypto/sha256_xway.h"
