/* sha256_d64, 4 inputs at a time in 4 32-bit lanes (sse41). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#define XWAY_LANES 4
#define XWAY_NAME sha256_d64_sse41_4way
#include "crypto/sha256_xway.h"
