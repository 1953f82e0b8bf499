/* sha256_d64, 8 inputs at a time in 8 32-bit lanes (avx2). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#define XWAY_LANES 8
#define XWAY_NAME sha256_d64_avx2_8way
#include "crypto/sha256_xway.h"
