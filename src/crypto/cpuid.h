/* What the CPU and the operating system let us run, read in exactly one place.
 *
 * A feature counts only when CPUID reports it *and*, for AVX state, XGETBV says
 * the OS saves the registers. Valgrind hides SHA-NI and AVX-512 from CPUID, so
 * code chosen from these flags runs under valgrind too. Internal to the crypto
 * library (not installed). */
#ifndef CRYPTO_CPUID_H
#define CRYPTO_CPUID_H

typedef struct {
    int sse41;   /* SSE4.1 (and SSSE3, which every SSE4.1 CPU has) */
    int avx2;    /* AVX2, with YMM state enabled by the OS */
    int shani;   /* SHA extensions (SHA1 and SHA256), with SSE4.1 */
    int avx512;  /* AVX-512 F, VL and BW, with ZMM/opmask state enabled by the OS */
    int bmi2;    /* BMI2 (rorx, a rotate that keeps its source; general registers) */
} cpu_features;

/* Reads CPUID/XGETBV once and caches the answer; all zero off x86. */
const cpu_features *cpu_features_get(void);

#endif
