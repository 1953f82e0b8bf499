/* Internal to the crypto library: the instruction-set variants of the hash
 * compression functions. Each is defined in its own source file, compiled
 * with that instruction set's flags, and exists only when configure found
 * the compiler able to build it (ENABLE_SHANI, ENABLE_SSE41, ENABLE_AVX2,
 * ENABLE_AVX512). None may be called unless cpu_features_get() reports the
 * instruction set; the hashes' variant sets (sha1_variants.c,
 * sha256_variants.c, sha512_variants.c) are the only callers outside the tests.
 *
 * The multi-way sha256_d64 kernels hash exactly their width of 64-byte inputs:
 * out[32*i..] = SHA256(SHA256(in[64*i..64*i+64])) for i < width. They read
 * every input before writing any output, so out may equal in. */
#ifndef CRYPTO_VARIANTS_H
#define CRYPTO_VARIANTS_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/impl.h"   /* sha256_iv, sha256_k, sha256_pad64_kw */

/* A d64 kernel of fixed width (2, 4, 8 or 16 inputs). */
typedef void (*sha256_d64_kernel)(unsigned char *out, const unsigned char *in);

/* SHA-NI (sha256_shani.c, sha1_shani.c). */
void sha256_transform_shani(uint32_t state[8], const unsigned char *blocks, size_t n);
void sha256_finish_shani(uint32_t state[8], unsigned char buf[64], uint64_t bytes,
                         unsigned char *out);
void sha256_d64_shani(unsigned char *out, const unsigned char *in, size_t blocks);
void sha256_d64_shani_2way(unsigned char *out, const unsigned char *in);
void sha1_transform_shani(uint32_t state[5], const unsigned char *blocks, size_t n);

/* SSE4.1 (sha256_sse41.c). */
void sha256_d64_sse41_4way(unsigned char *out, const unsigned char *in);

/* AVX2 (sha256_avx2.c; sha256_avx2_1way.c, sha1_avx2.c and sha512_avx2.c
 * also need BMI2). */
void sha256_d64_avx2_8way(unsigned char *out, const unsigned char *in);
void sha256_transform_avx2(uint32_t state[8], const unsigned char *blocks, size_t n);
void sha256_finish_avx2(uint32_t state[8], unsigned char buf[64], uint64_t bytes,
                        unsigned char *out);
void sha1_transform_avx2(uint32_t state[5], const unsigned char *blocks, size_t n);
void sha512_transform_avx2(uint64_t state[8], const unsigned char *blocks, size_t n);

/* AVX-512 F+VL+BW (sha256_avx512.c, sha512_avx512.c; the latter also needs
 * BMI2). */
void sha256_d64_avx512_16way(unsigned char *out, const unsigned char *in);
void sha512_transform_avx512(uint64_t state[8], const unsigned char *blocks, size_t n);

/* Test hooks (sha*_variants.c): the self-test that decides whether a variant
 * is usable, run on functions the caller supplies, so a test can show that a
 * deliberately broken one is refused. For SHA-256 any of the functions may be
 * NULL (not tested); finish only with transform, as in the table; width is
 * 2..16 when kernel is not NULL. Each returns 1 when they pass, 0 when
 * refused; takes the variant lock; installs nothing. */
int sha256_impl_selftest(sha256_transform_fn transform, sha256_finish_fn finish,
                         sha256_d64_fn d64, sha256_d64_kernel kernel, unsigned width);
int sha1_impl_selftest(sha1_transform_fn transform);
int sha512_impl_selftest(sha512_transform_fn transform);

#endif
