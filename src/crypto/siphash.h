/* SipHash-2-4 (Aumasson and Bernstein, 2012): a keyed 64-bit hash for hash
 * tables. The 128-bit key is given as two 64-bit words, k0 and k1, which are
 * the key's first and last 8 bytes read little-endian (the paper's key
 * 00 01 .. 0f is k0 = 0x0706050403020100, k1 = 0x0f0e0d0c0b0a0908). The
 * result is the paper's 64-bit output as an integer (its bytes, stored
 * little-endian, are the paper's output bytes).
 *
 * A siphash_ctx is a plain value with no pointers inside: caller-allocated,
 * nothing to free, and a copy made with `=` is an independent midstate. */
#ifndef CRYPTO_SIPHASH_H
#define CRYPTO_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Hashing context. The fields are private: v is the SipHash state, tail holds
 * the last (count % 8) input bytes not yet absorbed (little-endian, low byte
 * first), count is the number of bytes written so far. */
typedef struct {
    uint64_t v[4];
    uint64_t tail;
    uint64_t count;
} siphash_ctx;

/* Starts a new computation keyed with (k0, k1). */
void siphash_init(siphash_ctx *ctx, uint64_t k0, uint64_t k1);

/* Appends len bytes from data. Any lengths, any number of calls; data may be
 * NULL when len is 0. */
void siphash_write(siphash_ctx *ctx, const void *data, size_t len);

/* Appends the 8 little-endian bytes of v: the same as siphash_write of those
 * bytes, faster when the bytes written so far are a multiple of 8. */
void siphash_write_u64(siphash_ctx *ctx, uint64_t v);

/* Returns SipHash-2-4 of everything written since siphash_init. Does not
 * change ctx: more can be written and finalized again. */
uint64_t siphash_finalize(const siphash_ctx *ctx);

/* SipHash-2-4 with key (k0, k1) of the 32 bytes at v: the same as init,
 * write(v, 32), finalize, in straight-line code. */
uint64_t siphash_uint256(uint64_t k0, uint64_t k1, const unsigned char v[32]);

/* SipHash-2-4 with key (k0, k1) of the 32 bytes at v followed by the 4
 * little-endian bytes of extra (36 bytes in all). */
uint64_t siphash_uint256_extra(uint64_t k0, uint64_t k1, const unsigned char v[32],
                               uint32_t extra);

#ifdef __cplusplus
}
#endif

#endif
