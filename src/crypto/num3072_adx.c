/* Num3072's 24-limb product with BMI2's mulx and ADX's two carry chains (num3072_impl.h):
 * each row r[i .. i + 24] += a[i] * b[0 .. 24) adds the low words with adox (OF) and the
 * previous high words with adcx (CF), so the two chains run side by side and mulx touches
 * neither flag. Inline assembly, so the compiler needs no flags for these instructions; the
 * variant set installs it only where CPUID says the CPU has both. No branch or address
 * depends on the values. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "crypto/num3072_impl.h"

#ifdef NUM3072_HAVE_ADX

/* One product: r[j] += lo(x * b[j]) + hi(x * b[j - 1]), carries on two chains. */
#define NUM3072_ADX_STEP(j) \
    "mulx " #j "*8(%[b]), %%rax, %%rbx\n\t" \
    "adcx %%r8, %%rax\n\t" \
    "adox " #j "*8(%[r]), %%rax\n\t" \
    "mov %%rax, " #j "*8(%[r])\n\t" \
    "mov %%rbx, %%r8\n\t"

/* r[0 .. 24] = r[0 .. 24) + x * b[0 .. 24) (r[24] is written, not added to). */
static inline void row24(uint64_t *r, uint64_t x, const uint64_t *b)
{
    __asm__ volatile(
        "xor %%r8d, %%r8d\n\t"          /* clears CF and OF; r8 holds the previous high word */
        NUM3072_ADX_STEP(0) NUM3072_ADX_STEP(1) NUM3072_ADX_STEP(2) NUM3072_ADX_STEP(3)
        NUM3072_ADX_STEP(4) NUM3072_ADX_STEP(5) NUM3072_ADX_STEP(6) NUM3072_ADX_STEP(7)
        NUM3072_ADX_STEP(8) NUM3072_ADX_STEP(9) NUM3072_ADX_STEP(10) NUM3072_ADX_STEP(11)
        NUM3072_ADX_STEP(12) NUM3072_ADX_STEP(13) NUM3072_ADX_STEP(14) NUM3072_ADX_STEP(15)
        NUM3072_ADX_STEP(16) NUM3072_ADX_STEP(17) NUM3072_ADX_STEP(18) NUM3072_ADX_STEP(19)
        NUM3072_ADX_STEP(20) NUM3072_ADX_STEP(21) NUM3072_ADX_STEP(22) NUM3072_ADX_STEP(23)
        "mov $0, %%eax\n\t"             /* the last high word and both carries: r[24] */
        "adcx %%rax, %%r8\n\t"
        "adox %%rax, %%r8\n\t"
        "mov %%r8, 24*8(%[r])\n\t"
        :
        : [r] "r"(r), [b] "r"(b), "d"(x)
        : "rax", "rbx", "r8", "cc", "memory");
}

void num3072_mul24_adx(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    int i;
    memset(r, 0, 2 * NUM3072_HALF * sizeof *r);
    for (i = 0; i < NUM3072_HALF; i++)
        row24(r + i, a[i], b);
}

/* The full product of a with itself: at this width, faster than the portable square. */
void num3072_sqr24_adx(uint64_t *r, const uint64_t *a)
{
    num3072_mul24_adx(r, a, a);
}

#endif
