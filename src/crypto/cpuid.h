/* What the CPU and the operating system let us run, read in exactly one place.
 *
 * A feature counts only when CPUID reports it *and*, for AVX state, XGETBV says
 * the OS saves the registers. Valgrind hides SHA-NI and AVX-512 from CPUID, so
 * code chosen from these flags runs under valgrind too. Internal to the crypto
 * library (not installed). */
#ifndef CRYPTO_CPUID_H
#define CRYPTO_CPUID_H

typedef struct {
    int sse41;       /* SSE4.1 (and SSSE3, which every SSE4.1 CPU has) */
    int avx2;        /* AVX2, with YMM state enabled by the OS */
    int shani;       /* SHA extensions (SHA1 and SHA256), with SSE4.1 */
    int avx512;      /* AVX-512 F, VL and BW, with ZMM/opmask state enabled by the OS */
    int bmi2;        /* BMI2 (rorx, mulx, shrx; general registers) */
    int avx512ifma;  /* AVX-512 IFMA (vpmadd52luq/huq), with everything avx512 means */
    int adx;         /* ADX (adcx, adox: two independent carry chains) */
} cpu_features;

/* The features as bits, for what a variant needs (crypto_variant.isa): a variant
 * runs when every bit it names is supported. */
enum {
    CPU_SSE41 = 1 << 0,
    CPU_AVX2 = 1 << 1,
    CPU_SHANI = 1 << 2,
    CPU_AVX512 = 1 << 3,
    CPU_BMI2 = 1 << 4,
    CPU_AVX512IFMA = 1 << 5,
    CPU_ADX = 1 << 6
};

/* Reads CPUID/XGETBV once (the first caller, from any thread; others wait) and
 * caches the answer; all zero off x86. */
const cpu_features *cpu_features_get(void);

/* 1 when this CPU and OS support every feature whose CPU_* bit is set in isa
 * (0 needs nothing: 1), else 0. */
int cpu_features_supports(unsigned isa);

#endif
