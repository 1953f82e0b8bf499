/* SHA-1 (FIPS 180-4). Broken for collision resistance; kept because Bitcoin
 * Core benchmarks it (script opcode OP_SHA1).
 *
 * A sha1_ctx is a plain value with no pointers inside: caller-allocated,
 * nothing to free, and a copy made with `=` is an independent midstate.
 * All functions accept any alignment and cannot fail. */
#ifndef CRYPTO_SHA1_H
#define CRYPTO_SHA1_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Size of a SHA-1 digest, in bytes. */
#define SHA1_OUTPUT_SIZE 20

/* Hashing context. The fields are private: s is the chaining state, buf holds
 * the (bytes % 64) bytes not yet compressed, bytes counts all input so far. */
typedef struct {
    uint32_t s[5];
    unsigned char buf[64];
    uint64_t bytes;
} sha1_ctx;

/* Starts a new computation in ctx (previous contents are ignored). */
void sha1_init(sha1_ctx *ctx);

/* Appends len bytes from data. Any lengths, any number of calls; data may be
 * NULL when len is 0. Whole 64-byte blocks are compressed straight from data. */
void sha1_write(sha1_ctx *ctx, const void *data, size_t len);

/* Writes the 20-byte digest of everything written since sha1_init to out.
 * ctx is left padded: call sha1_init before using it again. */
void sha1_finalize(sha1_ctx *ctx, unsigned char *out);

/* One-shot: out (20 bytes) = SHA-1 of the len bytes at data. */
void sha1_hash(unsigned char *out, const void *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif
