/* The arithmetic of crypto/num3072.c with its 64x64->128 products built from 32-bit halves
 * (NUM3072_NO_INT128), under names of its own (num3072_portable.h). */
#define NUM3072_NO_INT128 1
#define num3072_set_one portable_num3072_set_one
#define num3072_from_bytes portable_num3072_from_bytes
#define num3072_to_bytes portable_num3072_to_bytes
#define num3072_mul portable_num3072_mul
#define num3072_sqr portable_num3072_sqr
#define num3072_reduce portable_num3072_reduce
#define num3072_inverse portable_num3072_inverse
#define num3072_equal portable_num3072_equal
#define num3072_mul24_portable portable_num3072_mul24_portable
#define num3072_sqr24_portable portable_num3072_sqr24_portable
#define num3072_mul24_impl portable_num3072_mul24_impl
#define num3072_sqr24_impl portable_num3072_sqr24_impl
#define num3072_inverse_portable portable_num3072_inverse_portable
#define num3072_inverse_impl portable_num3072_inverse_impl
#include "crypto/num3072.c"
