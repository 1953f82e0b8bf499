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
#include "crypto/num3072.c"
