/* SHA-512 (FIPS 180-4).
 *
 * A sha512_ctx is a plain value with no pointers inside: caller-allocated,
 * nothing to free, and a copy made with `=` is an independent midstate.
 * All functions accept any alignment and cannot fail. Inputs are limited to
 * 2^64 - 1 bytes in all (the standard allows 2^125 - 1; nobody gets there). */
#ifndef CRYPTO_SHA512_H
#define CRYPTO_SHA512_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Size of a SHA-512 digest, in bytes. */
#define SHA512_OUTPUT_SIZE 64

/* Hashing context. The fields are private: s is the chaining state, buf holds
 * the (bytes % 128) bytes not yet compressed, bytes counts all input so far. */
typedef struct {
    uint64_t s[8];
    unsigned char buf[128];
    uint64_t bytes;
} sha512_ctx;

/* Starts a new computation in ctx (previous contents are ignored). */
void sha512_init(sha512_ctx *ctx);

/* Appends len bytes from data. Any lengths, any number of calls; data may be
 * NULL when len is 0. Whole 128-byte blocks are compressed straight from
 * data. */
void sha512_write(sha512_ctx *ctx, const void *data, size_t len);

/* Writes the 64-byte digest of everything written since sha512_init to out.
 * ctx is left padded: call sha512_init before using it again. */
void sha512_finalize(sha512_ctx *ctx, unsigned char *out);

/* One-shot: out (64 bytes) = SHA-512 of the len bytes at data. */
void sha512_hash(unsigned char *out, const void *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif
