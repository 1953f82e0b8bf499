/* SHA3-256 (FIPS 202): the Keccak-f[1600] sponge with a 1088-bit rate, the
 * SHA-3 domain bits 01 and pad10*1, truncated to 256 bits.
 *
 * A sha3_256_ctx is a plain value with no pointers inside: caller-allocated,
 * nothing to free, and a copy made with `=` is an independent midstate.
 * All functions accept any alignment and cannot fail. */
#ifndef CRYPTO_SHA3_H
#define CRYPTO_SHA3_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Size of a SHA3-256 digest, in bytes. */
#define SHA3_256_OUTPUT_SIZE 32

/* Hashing context. The fields are private: s is the 25-lane Keccak state
 * (lane x + 5y, each lane little-endian), into which input is xored as it
 * arrives; used counts the bytes already xored into the current 136-byte
 * block (0..135). */
typedef struct {
    uint64_t s[25];
    uint32_t used;
} sha3_256_ctx;

/* Starts a new computation in ctx (previous contents are ignored). */
void sha3_256_init(sha3_256_ctx *ctx);

/* Appends len bytes from data. Any lengths, any number of calls; data may be
 * NULL when len is 0. Whole 136-byte blocks are absorbed straight from data. */
void sha3_256_write(sha3_256_ctx *ctx, const void *data, size_t len);

/* Writes the 32-byte digest of everything written since sha3_256_init to
 * out. ctx is left padded: call sha3_256_init before using it again. */
void sha3_256_finalize(sha3_256_ctx *ctx, unsigned char *out);

/* One-shot: out (32 bytes) = SHA3-256 of the len bytes at data. */
void sha3_256_hash(unsigned char *out, const void *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif
