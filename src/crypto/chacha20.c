/* ChaCha20 (see chacha20.h): the key and counter handling, the portable block
 * function, and the pointer through which every call reaches the block function
 * in use: the portable one until ChaCha20's variant set (chacha20_variants.c)
 * installs another. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "crypto/chacha20.h"
#include "crypto/chacha20_impl.h"
#include "crypto/common.h"

void chacha20_set_key(chacha20_ctx *ctx, const unsigned char key[32])
{
    /* "expand 32-byte k" as four little-endian words */
    ctx->input[0] = 0x61707865;
    ctx->input[1] = 0x3320646e;
    ctx->input[2] = 0x79622d32;
    ctx->input[3] = 0x6b206574;
    for (int i = 0; i < 8; i++)
        ctx->input[4 + i] = load32_le(key + 4 * i);
    ctx->input[12] = ctx->input[13] = ctx->input[14] = ctx->input[15] = 0;
}

void chacha20_set_iv(chacha20_ctx *ctx, uint64_t iv)
{
    ctx->input[14] = (uint32_t)iv;
    ctx->input[15] = (uint32_t)(iv >> 32);
}

void chacha20_seek(chacha20_ctx *ctx, uint64_t block)
{
    ctx->input[12] = (uint32_t)block;
    ctx->input[13] = (uint32_t)(block >> 32);
}

/* ---- portable block function -------------------------------------------- */

#define QR(a, b, c, d) \
    do { \
        a += b; d = rotl32(d ^ a, 16); \
        c += d; b = rotl32(b ^ c, 12); \
        a += b; d = rotl32(d ^ a, 8); \
        c += d; b = rotl32(b ^ c, 7); \
    } while (0)

void chacha20_blocks_portable(uint32_t state[16], unsigned char *out, const unsigned char *in,
                              size_t blocks)
{
    for (; blocks > 0; blocks--) {
        uint32_t x[16];
        memcpy(x, state, sizeof x);
        for (int i = 0; i < 10; i++) {
            QR(x[0], x[4], x[8], x[12]);
            QR(x[1], x[5], x[9], x[13]);
            QR(x[2], x[6], x[10], x[14]);
            QR(x[3], x[7], x[11], x[15]);
            QR(x[0], x[5], x[10], x[15]);
            QR(x[1], x[6], x[11], x[12]);
            QR(x[2], x[7], x[8], x[13]);
            QR(x[3], x[4], x[9], x[14]);
        }
        for (int i = 0; i < 16; i++) {
            uint32_t w = x[i] + state[i];
            if (in)
                w ^= load32_le(in + 4 * i);
            store32_le(out + 4 * i, w);
        }
        if (in)
            in += 64;
        out += 64;
        if (++state[12] == 0)
            state[13]++;
    }
}

chacha20_blocks_fn chacha20_blocks_impl = chacha20_blocks_portable;

/* ---- streaming ------------------------------------------------------------ */

/* Whole blocks straight into out; a final partial block through a buffer,
 * the rest of it thrown away (the next call starts at the next block). */
static void run(chacha20_ctx *ctx, const unsigned char *in, unsigned char *out, size_t len)
{
    chacha20_blocks_fn fn = chacha20_blocks_impl;
    size_t whole = len / 64, rest = len % 64;
    if (whole > 0)
        fn(ctx->input, out, in, whole);
    if (rest > 0) {
        unsigned char buf[64];
        size_t at = 64 * whole;
        fn(ctx->input, buf, NULL, 1);
        for (size_t i = 0; i < rest; i++)
            out[at + i] = in ? (unsigned char)(buf[i] ^ in[at + i]) : buf[i];
    }
}

void chacha20_keystream(chacha20_ctx *ctx, unsigned char *out, size_t len)
{
    run(ctx, NULL, out, len);
}

void chacha20_crypt(chacha20_ctx *ctx, const unsigned char *in, unsigned char *out, size_t len)
{
    run(ctx, in, out, len);
}
