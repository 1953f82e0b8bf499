#include "crypto/cpuid.h"
#include "util/spinlock.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <stdint.h>

static uint64_t read_xcr0(void)
{
    uint32_t lo, hi;
    /* xgetbv with ecx = 0, spelled as bytes so no -mxsave flag is needed. */
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static void detect(cpu_features *f)
{
    unsigned a, b, c, d, max;
    int osxsave, avx, ymm = 0, zmm = 0;

    max = __get_cpuid_max(0, 0);
    if (max < 1)
        return;
    __cpuid(1, a, b, c, d);
    f->sse41 = (c >> 19) & 1 && (c >> 9) & 1; /* SSE4.1 and SSSE3 */
    osxsave = (c >> 27) & 1;
    avx = (c >> 28) & 1;
    if (osxsave) {
        uint64_t xcr0 = read_xcr0();
        ymm = (xcr0 & 0x6) == 0x6;     /* XMM and YMM state */
        zmm = (xcr0 & 0xe6) == 0xe6;   /* plus opmask, ZMM_Hi256, Hi16_ZMM */
    }
    if (max < 7)
        return;
    __cpuid_count(7, 0, a, b, c, d);
    f->avx2 = ymm && avx && (b >> 5) & 1;
    f->shani = f->sse41 && (b >> 29) & 1;
    f->bmi2 = (b >> 8) & 1;
    f->avx512 = zmm && (b >> 16) & 1 && (b >> 30) & 1 && (b >> 31) & 1; /* F, BW, VL */
    f->avx512ifma = f->avx512 && (b >> 21) & 1;
    f->adx = (b >> 19) & 1;
}
#else
static void detect(cpu_features *f)
{
    (void)f;
}
#endif

/* Detected once, by the first caller; a caller arriving meanwhile waits on
 * the lock until it is done. */
const cpu_features *cpu_features_get(void)
{
    static cpu_features features;
    static int done;
    static char lock;
    if (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
        bb_spin_lock(&lock);
        if (!done) {
            detect(&features);
            __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
        }
        bb_spin_unlock(&lock);
    }
    return &features;
}

int cpu_features_supports(unsigned isa)
{
    const cpu_features *f = cpu_features_get();
    unsigned have = (f->sse41 ? CPU_SSE41 : 0) | (f->avx2 ? CPU_AVX2 : 0)
                    | (f->shani ? CPU_SHANI : 0) | (f->avx512 ? CPU_AVX512 : 0)
                    | (f->bmi2 ? CPU_BMI2 : 0) | (f->avx512ifma ? CPU_AVX512IFMA : 0)
                    | (f->adx ? CPU_ADX : 0);
    return (isa & ~have) == 0;
}
