/* Choosing among the implementations of SHA-256, SHA-1 and SHA-512: each hash's
 * variant set (variant.h, the mechanism every primitive shares), and the
 * per-hash functions over it.
 *
 * The library starts on portable C. crypto_autodetect() (variant.h), or
 * sha256_autodetect() (sha256.h), switches each hash to the fastest variant
 * that this build contains, that CPUID and XGETBV say the CPU and operating
 * system run, and that gives the same answers as the portable code on a
 * self-test (ranked by instruction set, except that where SHA-NI and AVX-512
 * both run, the first detection times the two for sha256_d64 and keeps the
 * faster). The functions here let a benchmark or a test pin one
 * implementation instead. They may be called from several threads at once
 * (they take turns under one lock), but none of them while another thread is
 * hashing.
 *
 * Implementation names, each the instruction set it needs:
 *   SHA-256  "standard" (portable C), "sse41" (sha256_d64 4 ways),
 *            "avx2" (sha256_d64 8 ways), "shani" (the transform, and
 *            sha256_d64 1 and 2 ways), "avx512" (sha256_d64 16 ways);
 *   SHA-1    "standard", "avx2", "shani";
 *   SHA-512  "standard", "avx2", "avx512".
 * Forcing a name uses that variant's code for what it covers and portable
 * code for the rest (so "avx2" hashes long messages with the portable
 * transform where the CPU lacks BMI2, and sha256_d64 hands the inputs left
 * over after the groups of 8 to portable code). The name "auto" means what
 * sha256_autodetect picks, which may combine several variants.
 *
 * A description says what is in use, in the form sha256_autodetect returns:
 * "standard" when everything is portable, otherwise a comma-separated list of
 * name(parts), widest sha256_d64 first, where the parts are "1way" (the
 * transform and finish; with SHA-NI also sha256_d64 one input at a time,
 * which is otherwise portable) and "Nway" (sha256_d64 N inputs at a time):
 * e.g. "avx512(16way),shani(1way,2way)", "avx2(1way,8way),sse41(4way)".
 * Inputs left over by a wider part go to the next narrower part. SHA-1 and SHA-512
 * descriptions are just the name in use. */
#ifndef CRYPTO_DISPATCH_H
#define CRYPTO_DISPATCH_H

#include <stddef.h>

#include "variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* crypto_variant_list, _force and _current (variant.h) on SHA-256's set.
 *
 * Stores in names[0 .. cap) the SHA-256 implementations this build and CPU
 * can run and that pass the self-test, "standard" first, and returns how
 * many there are (which may exceed cap; names may be NULL when cap is 0).
 * The strings are static. */
size_t sha256_impl_list(const char **names, size_t cap);

/* Switches SHA-256 (the transform behind sha256_write/finalize/hash, and
 * sha256_d64) to the implementation called name, or to the autodetected
 * choice for "auto". Returns 0, or -1 when name is unknown, not in this
 * build, not supported by this CPU or failing its self-test; on -1 nothing
 * changes. */
int sha256_impl_force(const char *name);

/* A static string describing the SHA-256 code in use (see above); its text
 * stays the same after later forces. */
const char *sha256_impl_current(void);

/* The same three for SHA-1 and SHA-512. */
size_t sha1_impl_list(const char **names, size_t cap);
int sha1_impl_force(const char *name);
const char *sha1_impl_current(void);

size_t sha512_impl_list(const char **names, size_t cap);
int sha512_impl_force(const char *name);
const char *sha512_impl_current(void);

#ifdef __cplusplus
}
#endif

#endif
