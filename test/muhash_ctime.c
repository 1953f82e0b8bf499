/* Constant time, checked by valgrind's memcheck: the inputs of the arithmetic and of MuHash
 * are marked undefined (secret), so memcheck reports any branch or memory address that
 * depends on them ("conditional jump or move depends on uninitialised value", "use of
 * uninitialised value" for an address). The results are marked defined again before the
 * next step. Run by test_muhash_ctime.sh under valgrind; alone it only runs the code.
 *
 * Exit status: 0, or 77 when built without valgrind's headers. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <string.h>

#include "crypto/muhash.h"
#include "crypto/num3072.h"

#ifdef HAVE_VALGRIND_CALLGRIND_H
#include <valgrind/memcheck.h>
#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

int main(void)
{
    num3072 a, b, r;
    muhash3072 m, o;
    unsigned char data[100], out[32];
    int i, eq;
    for (i = 0; i < NUM3072_LIMBS; i++) {
        a.limbs[i] = UINT64_C(0x9e3779b97f4a7c15) * (uint64_t)(i + 1);
        b.limbs[i] = ~(uint64_t)0 - (uint64_t)i;       /* above p: reduce has work to do */
    }
    for (i = 0; i < (int)sizeof data; i++)
        data[i] = (unsigned char)(i * 7);
    SECRET(&a, sizeof a);
    SECRET(&b, sizeof b);
    SECRET(data, sizeof data);

    num3072_mul(&r, &a, &b);
    num3072_sqr(&r, &r);
    num3072_reduce(&r);
    num3072_inverse(&r, &a);
    num3072_inverse(&r, &b);
    eq = num3072_equal(&a, &b);
    PUBLIC(&eq, sizeof eq);

    muhash3072_init_element(&m, data, 32);
    muhash3072_insert(&m, data + 32, 40);
    muhash3072_remove(&m, data + 72, 28);
    o = m;
    muhash3072_mul(&m, &o);
    muhash3072_div(&m, &o);
    muhash3072_mul(&m, &m);
    muhash3072_finalize(&m, out);
    PUBLIC(out, sizeof out);
    PUBLIC(&r, sizeof r);
    printf("ran the arithmetic and MuHash on secret inputs (equal %d, digest %02x...)\n", eq,
           out[0]);
    return 0;
}
#else
int main(void)
{
    printf("built without valgrind's headers: nothing to check\n");
    return 77;
}
#endif
