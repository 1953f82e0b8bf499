/* Poly1305 (see poly1305.h): the key, the buffering of incomplete blocks, the portable block
 * functions, and the pointer through which every whole block reaches the block function in
 * use: the portable one until Poly1305's variant set (poly1305_variants.c) installs another.
 *
 * The accumulator is kept between calls as three 64-bit words, whatever radix a block
 * function computes in: converting at the start and end of a call costs a few shifts, and a
 * context can then go from one implementation to another (a copy made under one, finished
 * under another).
 *
 * The portable block function is radix 2^64 where the compiler has unsigned __int128 (four
 * 64x64->128 products a block), else radix 2^26 (25 32x32->64 products); defining
 * POLY1305_NO_INT128 forces the latter, which the tests use to check it too. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stddef.h>
#include <string.h>

#include "crypto/common.h"
#include "crypto/poly1305.h"
#include "crypto/poly1305_impl.h"

/* r with the bits RFC 8439 clears: the top 4 of bytes 3, 7, 11, 15 and the low 2 of bytes
 * 4, 8, 12. So r < 2^124 and r[1] is a multiple of 4, which the radix-2^64 code relies on. */
static inline void key_words(const unsigned char key[32], uint64_t r[2], uint64_t s[2])
{
    r[0] = load64_le(key) & 0x0ffffffc0fffffffu;
    r[1] = load64_le(key + 8) & 0x0ffffffc0ffffffcu;
    s[0] = load64_le(key + 16);
    s[1] = load64_le(key + 24);
}

void poly1305_init(poly1305_ctx *ctx, const unsigned char key[32])
{
    if (ctx == NULL || key == NULL)
        return;
    key_words(key, ctx->r, ctx->s);
    ctx->h[0] = ctx->h[1] = ctx->h[2] = 0;
    ctx->powers_of = 0;
    ctx->used = 0;
}

/* ---- radix 2^26: five limbs, 32x32->64 products (any C99 compiler) ------------------- */

#define M26 0x3ffffffu

/* h = (h + block + hibit * 2^128) * r per block, in five 26-bit limbs: the limbs' products
 * stay below 2^60, and 2^130 = 5 mod p folds the high half back as multiples of 5 r. */
static inline void blocks26(uint64_t h[3], const uint64_t r[2], const unsigned char *in, size_t n,
                     uint32_t hibit)
{
    const uint64_t r3w[3] = {r[0], r[1], 0};
    uint32_t l[5], r0, r1, r2, r3, r4, s1, s2, s3, s4, h0, h1, h2, h3, h4;
    uint64_t c, out[5];

    poly1305_to26(r3w, l);
    r0 = l[0]; r1 = l[1]; r2 = l[2]; r3 = l[3]; r4 = l[4];
    s1 = r1 * 5; s2 = r2 * 5; s3 = r3 * 5; s4 = r4 * 5;
    poly1305_to26(h, l);   /* h4 < 2^28 */
    h0 = l[0]; h1 = l[1]; h2 = l[2]; h3 = l[3]; h4 = l[4];

    for (; n > 0; n--, in += 16) {
        uint64_t d0, d1, d2, d3, d4;
        h0 += load32_le(in) & M26;
        h1 += (load32_le(in + 3) >> 2) & M26;
        h2 += (load32_le(in + 6) >> 4) & M26;
        h3 += (load32_le(in + 9) >> 6) & M26;
        h4 += (load32_le(in + 12) >> 8) | hibit << 24;
        d0 = (uint64_t)h0 * r0 + (uint64_t)h1 * s4 + (uint64_t)h2 * s3 + (uint64_t)h3 * s2
             + (uint64_t)h4 * s1;
        d1 = (uint64_t)h0 * r1 + (uint64_t)h1 * r0 + (uint64_t)h2 * s4 + (uint64_t)h3 * s3
             + (uint64_t)h4 * s2;
        d2 = (uint64_t)h0 * r2 + (uint64_t)h1 * r1 + (uint64_t)h2 * r0 + (uint64_t)h3 * s4
             + (uint64_t)h4 * s3;
        d3 = (uint64_t)h0 * r3 + (uint64_t)h1 * r2 + (uint64_t)h2 * r1 + (uint64_t)h3 * r0
             + (uint64_t)h4 * s4;
        d4 = (uint64_t)h0 * r4 + (uint64_t)h1 * r3 + (uint64_t)h2 * r2 + (uint64_t)h3 * r1
             + (uint64_t)h4 * r0;
        c = d0 >> 26; h0 = (uint32_t)d0 & M26; d1 += c;
        c = d1 >> 26; h1 = (uint32_t)d1 & M26; d2 += c;
        c = d2 >> 26; h2 = (uint32_t)d2 & M26; d3 += c;
        c = d3 >> 26; h3 = (uint32_t)d3 & M26; d4 += c;
        c = d4 >> 26; h4 = (uint32_t)d4 & M26;
        c = h0 + c * 5;
        h0 = (uint32_t)c & M26;
        h1 += (uint32_t)(c >> 26);
    }
    out[0] = h0; out[1] = h1; out[2] = h2; out[3] = h3; out[4] = h4;
    poly1305_from26(out, h);
}

void poly1305_blocks_radix26(poly1305_ctx *ctx, const unsigned char *in, size_t blocks)
{
    blocks26(ctx->h, ctx->r, in, blocks, 1);
}

/* ---- radix 2^64: two words and a few bits, 64x64->128 products ----------------------- */

#if defined(__SIZEOF_INT128__) && !defined(POLY1305_NO_INT128)
__extension__ typedef unsigned __int128 poly1305_u128;

/* The same in 64-bit words: h[2] < 8 on entry and on return. r[1] is a multiple of 4, so
 * r[1] 2^128 = (r[1] / 4) 2^130 = 5 (r[1] / 4) = s1 mod p: four products and two small
 * ones a block. */
static inline void blocks64(uint64_t h[3], const uint64_t r[2], const unsigned char *in,
                            size_t n, uint64_t hibit)
{
    const uint64_t r0 = r[0], r1 = r[1], s1 = r1 + (r1 >> 2);
    uint64_t h0 = h[0], h1 = h[1], h2 = h[2];

    for (; n > 0; n--, in += 16) {
        poly1305_u128 d0, d1;
        uint64_t c;
        d0 = (poly1305_u128)h0 + load64_le(in);
        h0 = (uint64_t)d0;
        d1 = (poly1305_u128)h1 + load64_le(in + 8) + (uint64_t)(d0 >> 64);
        h1 = (uint64_t)d1;
        h2 += (uint64_t)(d1 >> 64) + hibit;
        /* h2 <= 9 and r0 < 2^60: h2 r0 fits, and so does everything below */
        d0 = (poly1305_u128)h0 * r0 + (poly1305_u128)h1 * s1;
        d1 = (poly1305_u128)h0 * r1 + (poly1305_u128)h1 * r0 + (poly1305_u128)h2 * s1
             + (uint64_t)(d0 >> 64);
        h0 = (uint64_t)d0;
        h1 = (uint64_t)d1;
        h2 = h2 * r0 + (uint64_t)(d1 >> 64);
        /* what lies above 2^130, times 5, back into the low end */
        c = (h2 >> 2) + (h2 & ~(uint64_t)3);
        h2 &= 3;
        h0 += c;
        c = h0 < c;
        h1 += c;
        c = h1 < c;
        h2 += c;
    }
    h[0] = h0;
    h[1] = h1;
    h[2] = h2;
}

void poly1305_blocks_portable(poly1305_ctx *ctx, const unsigned char *in, size_t blocks)
{
    blocks64(ctx->h, ctx->r, in, blocks, 1);
}

#define BLOCKS_PORTABLE blocks64
#else
void poly1305_blocks_portable(poly1305_ctx *ctx, const unsigned char *in, size_t blocks)
{
    blocks26(ctx->h, ctx->r, in, blocks, 1);
}

#define BLOCKS_PORTABLE blocks26
#endif

poly1305_blocks_fn poly1305_blocks_impl = poly1305_blocks_portable;

/* ---- reduction ----------------------------------------------------------------- */

void poly1305_reduce(const uint64_t h_in[3], uint64_t out[3])
{
    uint64_t h[3], g0, g1, g2, c, mask;
    memcpy(h, h_in, sizeof h);
    poly1305_fold(h);   /* h[2] <= 4: h < 2p, one conditional subtraction is enough */
    g0 = h[0] + 5;
    c = g0 < 5;
    g1 = h[1] + c;
    c = g1 < c;
    g2 = h[2] + c;
    mask = 0 - (g2 >> 2);   /* all ones when h + 5 >= 2^130, that is h >= p */
    out[0] = (h[0] & ~mask) | (g0 & mask);
    out[1] = (h[1] & ~mask) | (g1 & mask);
    out[2] = (h[2] & ~mask) | (g2 & 3 & mask);
}

/* ---- streaming -------------------------------------------------------------------------- */

void poly1305_update(poly1305_ctx *ctx, const void *data, size_t len)
{
    const unsigned char *p = data;
    size_t whole;
    if (ctx == NULL || p == NULL || len == 0)
        return;
    if (ctx->used > 0) {
        size_t take = 16 - ctx->used;
        if (take > len)
            take = len;
        memcpy(ctx->buf + ctx->used, p, take);
        ctx->used += (uint32_t)take;
        p += take;
        len -= take;
        if (ctx->used < 16)
            return;
        poly1305_blocks_impl(ctx, ctx->buf, 1);
        ctx->used = 0;
    }
    whole = len / 16;
    if (whole > 0)
        poly1305_blocks_impl(ctx, p, whole);
    p += 16 * whole;
    len -= 16 * whole;
    memcpy(ctx->buf, p, len);
    ctx->used = (uint32_t)len;
}

/* The last steps, on h, r and s held by the caller: an incomplete last block of used bytes
 * (its bytes, a 1 after them, zeros, no 2^128 bit), the full reduction, and tag = h + s mod
 * 2^128. */
static inline void finish(uint64_t h[3], const uint64_t r[2], const uint64_t s[2],
                          const unsigned char *last, size_t used, unsigned char tag[16])
{
    uint64_t f[3], t0, t1;
    if (used > 0) {
        unsigned char buf[16] = {0};
        memcpy(buf, last, used);
        buf[used] = 1;
        BLOCKS_PORTABLE(h, r, buf, 1, 0);
    }
    poly1305_reduce(h, f);
    t0 = f[0] + s[0];
    t1 = f[1] + s[1] + (t0 < f[0]);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* GCC 12 builds store64_le's bytes one by one here: tens of instructions */
    memcpy(tag, &t0, 8);
    memcpy(tag + 8, &t1, 8);
#else
    store64_le(tag, t0);
    store64_le(tag + 8, t1);
#endif
}

void poly1305_finalize(poly1305_ctx *ctx, unsigned char tag[16])
{
    if (ctx == NULL || tag == NULL)
        return;
    finish(ctx->h, ctx->r, ctx->s, ctx->buf, ctx->used, tag);
    /* r and s are the key, and the powers of r reveal r: leave none of them behind (the
     * powers only where some were made: wiping them costs more than a short message) */
    if (ctx->powers_of != 0)
        memset(ctx->powers, 0, sizeof ctx->powers);
    memset(ctx, 0, offsetof(poly1305_ctx, powers));
    memset(ctx->buf, 0, sizeof ctx->buf);
    ctx->powers_of = 0;
    ctx->used = 0;
}

void poly1305_mac(unsigned char tag[16], const void *data, size_t len, const unsigned char key[32])
{
    const unsigned char *p = data;
    size_t whole = len / 16;
    poly1305_ctx ctx;
    if (tag == NULL || key == NULL || (p == NULL && len > 0))
        return;
    if (whole < POLY1305_VECTOR_MIN) {
        /* where every implementation runs the portable code: here, in registers */
        uint64_t h[3] = {0, 0, 0}, r[2], s[2];
        key_words(key, r, s);
        BLOCKS_PORTABLE(h, r, p, whole, 1);
        finish(h, r, s, p + 16 * whole, len % 16, tag);
        return;
    }
    poly1305_init(&ctx, key);
    poly1305_blocks_impl(&ctx, p, whole);
    finish(ctx.h, ctx.r, ctx.s, p + 16 * whole, len % 16, tag);
    memset(&ctx, 0, sizeof ctx);
}
