/* num3072.c built a second time without unsigned __int128 (test/num3072_portable.c), so
 * that test_muhash checks the fallback arithmetic that compilers without it get. The same
 * functions as crypto/num3072.h, prefixed portable_. */
#ifndef TEST_NUM3072_PORTABLE_H
#define TEST_NUM3072_PORTABLE_H

#include "crypto/num3072.h"

void portable_num3072_mul(num3072 *r, const num3072 *a, const num3072 *b);
void portable_num3072_sqr(num3072 *r, const num3072 *a);
void portable_num3072_reduce(num3072 *a);
void portable_num3072_inverse(num3072 *r, const num3072 *a);

#endif
