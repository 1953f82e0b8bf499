/* RIPEMD-160 (Dobbertin, Bosselaers, Preneel, 1996).
 *
 * A ripemd160_ctx is a plain value with no pointers inside: caller-allocated,
 * nothing to free, and a copy made with `=` is an independent midstate.
 * All functions accept any alignment and cannot fail. */
#ifndef CRYPTO_RIPEMD160_H
#define CRYPTO_RIPEMD160_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Size of a RIPEMD-160 digest, in bytes. */
#define RIPEMD160_OUTPUT_SIZE 20

/* Hashing context. The fields are private: s is the chaining state, buf holds
 * the (bytes % 64) bytes not yet compressed, bytes counts all input so far. */
typedef struct {
    uint32_t s[5];
    unsigned char buf[64];
    uint64_t bytes;
} ripemd160_ctx;

/* Starts a new computation in ctx (previous contents are ignored). */
void ripemd160_init(ripemd160_ctx *ctx);

/* Appends len bytes from data. Any lengths, any number of calls; data may be
 * NULL when len is 0. Whole 64-byte blocks are compressed straight from data. */
void ripemd160_write(ripemd160_ctx *ctx, const void *data, size_t len);

/* Writes the 20-byte digest of everything written since ripemd160_init to
 * out. ctx is left padded: call ripemd160_init before using it again. */
void ripemd160_finalize(ripemd160_ctx *ctx, unsigned char *out);

/* One-shot: out (20 bytes) = RIPEMD-160 of the len bytes at data. */
void ripemd160_hash(unsigned char *out, const void *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif
