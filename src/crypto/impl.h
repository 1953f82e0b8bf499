/* Internal to the crypto library: the compression functions behind the public
 * hashes, and the pointers through which the public functions reach the
 * variant in use. Each hash's file defines its pointers, starting on its
 * portable code; only that hash's variant set (sha*_variants.c) changes them,
 * after checking each candidate against the portable code. Not installed;
 * include only from src/crypto and tests. */
#ifndef CRYPTO_IMPL_H
#define CRYPTO_IMPL_H

#include <stddef.h>
#include <stdint.h>

/* Compress n consecutive 64-byte blocks into the state (big-endian words). */
typedef void (*sha256_transform_fn)(uint32_t state[8], const unsigned char *blocks, size_t n);
/* out[32*i..] = SHA256(SHA256(in[64*i..64*i+64])) for i < blocks; out may equal in. */
typedef void (*sha256_d64_fn)(unsigned char *out, const unsigned char *in, size_t blocks);
/* Finishes a SHA-256 message: pads the bytes % 64 message bytes at the start
 * of buf (the rest of buf is ignored), compresses the last block or two into
 * state and writes the 32-byte digest to out. bytes is the message length.
 * state and buf may be clobbered; out may overlap neither. */
typedef void (*sha256_finish_fn)(uint32_t state[8], unsigned char buf[64], uint64_t bytes,
                                 unsigned char *out);
/* Compress n consecutive 64-byte blocks into a SHA1 state. */
typedef void (*sha1_transform_fn)(uint32_t state[5], const unsigned char *blocks, size_t n);
/* Compress n consecutive 128-byte blocks into a SHA512 state. */
typedef void (*sha512_transform_fn)(uint64_t state[8], const unsigned char *blocks, size_t n);

/* SHA-256 constants (sha256.c), shared with the accelerated variants: the
 * initial state, the round constants K (FIPS 180-4 5.3.3, 4.2.2), and
 * K[t] + W[t] for the block that pads a 64-byte message, whose schedule is
 * the same for every message. */
extern const uint32_t sha256_iv[8];
extern const uint32_t sha256_k[64];
extern const uint32_t sha256_pad64_kw[64];
/* SHA-512's round constants and initial state (sha512.c; FIPS 180-4 4.2.3,
 * 5.3.5), and SHA-1's initial state (sha1.c; 5.3.1). */
extern const uint64_t sha512_k[80];
extern const uint64_t sha512_iv[8];
extern const uint32_t sha1_iv[5];

void sha256_transform_portable(uint32_t state[8], const unsigned char *blocks, size_t n);
void sha256_d64_portable(unsigned char *out, const unsigned char *in, size_t blocks);
void sha256_finish_portable(uint32_t state[8], unsigned char buf[64], uint64_t bytes,
                            unsigned char *out);
void sha1_transform_portable(uint32_t state[5], const unsigned char *blocks, size_t n);
void sha512_transform_portable(uint64_t state[8], const unsigned char *blocks, size_t n);

/* The variants in use (defined in sha1.c, sha256.c, sha512.c). */
extern sha256_transform_fn sha256_transform_impl;
extern sha256_d64_fn sha256_d64_impl;
extern sha256_finish_fn sha256_finish_impl;
extern sha1_transform_fn sha1_transform_impl;
extern sha512_transform_fn sha512_transform_impl;

#endif
