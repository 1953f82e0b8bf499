/* FastRandomContext as Bitcoin Core had it in 2020: a fast random number
 * generator for non-cryptographic uses (shuffles, sampling) that draws from a
 * ChaCha20 keystream (chacha20.h, IV 0) 64 bytes at a time.
 *
 * rand64 takes the next 8 bytes of a 64-byte buffer, little-endian, refilling
 * the buffer with the next keystream block when fewer than 8 are left.
 * randbits(bits) for bits up to 32 takes the low bits of a 64-bit bit buffer
 * and shifts them out; when the buffer holds fewer bits than asked, what is
 * left is dropped and it is refilled with one whole rand64. Over 32 bits it
 * is the top bits of the next rand64, the bit buffer untouched. So a
 * deterministic context's first rand32 is the low half of the keystream's
 * first 8 bytes and its second rand32 the high half.
 *
 * A fastrandom_ctx is a plain value with no pointers inside; a copy made with
 * `=` continues independently from the same point. The drawing functions are
 * C99 inline functions (the library also carries each as an ordinary
 * function), as Core's are, so that a draw from the buffer is a few
 * instructions and only a refill is a call. */
#ifndef CRYPTO_FASTRANDOM_H
#define CRYPTO_FASTRANDOM_H

#include <stdint.h>

#include "chacha20.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Generator state. Private: the keystream, the unread tail of the last
 * keystream block (bytebuf[64 - bytebuf_size .. 64)), and the bit buffer
 * (its low bitbuf_size bits are unread). */
typedef struct {
    chacha20_ctx rng;
    unsigned char bytebuf[64];
    int bytebuf_size;
    int bitbuf_size;
    uint64_t bitbuf;
} fastrandom_ctx;

/* Core's FastRandomContext(true): keyed with 32 zero bytes, so the same
 * numbers every run. */
void fastrandom_init_deterministic(fastrandom_ctx *ctx);

/* Keyed with the 32 bytes at seed (Core's FastRandomContext(uint256)). */
void fastrandom_init_seed(fastrandom_ctx *ctx, const unsigned char seed[32]);

/* Refills the byte buffer with the next 64-byte keystream block. Called by
 * fastrandom_rand64 when fewer than 8 bytes are left; not otherwise useful. */
void fastrandom_fill(fastrandom_ctx *ctx);

/* The next 8 bytes of the byte buffer as a little-endian number. */
inline uint64_t fastrandom_rand64(fastrandom_ctx *ctx)
{
    const unsigned char *p;
    if (ctx->bytebuf_size < 8)
        fastrandom_fill(ctx);
    p = ctx->bytebuf + 64 - ctx->bytebuf_size;
    ctx->bytebuf_size -= 8;
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16
        | (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40
        | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

/* A number of bits random bits, 0 <= bits <= 64 (see above): 0 for 0 bits,
 * using nothing. */
inline uint64_t fastrandom_randbits(fastrandom_ctx *ctx, int bits)
{
    uint64_t ret;
    if (bits == 0)
        return 0;
    if (bits > 32)
        return fastrandom_rand64(ctx) >> (64 - bits);
    if (ctx->bitbuf_size < bits) {
        ctx->bitbuf = fastrandom_rand64(ctx);
        ctx->bitbuf_size = 64;
    }
    ret = ctx->bitbuf & (~(uint64_t)0 >> (64 - bits));
    ctx->bitbuf >>= bits;
    ctx->bitbuf_size -= bits;
    return ret;
}

/* randbits(32). */
inline uint32_t fastrandom_rand32(fastrandom_ctx *ctx)
{
    return (uint32_t)fastrandom_randbits(ctx, 32);
}

/* randbits(1), as 0 or 1. */
inline int fastrandom_randbool(fastrandom_ctx *ctx)
{
    return (int)fastrandom_randbits(ctx, 1);
}

#ifdef __cplusplus
}
#endif

#endif
