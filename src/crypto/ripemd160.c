/* RIPEMD-160, written from Dobbertin, Bosselaers and Preneel, "RIPEMD-160: A
 * Strengthened Version of RIPEMD" (1996).
 *
 * Two parallel lines of 80 steps each over the same 16 little-endian words,
 * fully unrolled and interleaved step by step so the compiler can overlap the
 * two dependency chains. Each step renames the five working variables
 * instead of moving them. No accelerated variant exists, so the public
 * functions call ripemd160_compress directly. */
#include "crypto/ripemd160.h"

#include <string.h>

#include "crypto/common.h"

static const uint32_t ripemd160_iv[5] = {
    0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0,
};

/* The paper's f1..f5; f2 and f4 as selects, which need fewer operations. */
#define F1(x, y, z) ((x) ^ (y) ^ (z))
#define F2(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define F3(x, y, z) (((x) | ~(y)) ^ (z))
#define F4(x, y, z) ((y) ^ ((z) & ((x) ^ (y))))
#define F5(x, y, z) ((x) ^ ((y) | ~(z)))

/* One step: a = rol_s(a + f(b, c, d) + x + k) + e, c = rol_10(c). The next
 * step takes (e, a, b, c, d). */
#define STEP(a, b, c, d, e, F, x, k, s) do { \
        (a) = rotl32((a) + F(b, c, d) + (x) + (k), s) + (e); \
        (c) = rotl32(c, 10); \
    } while (0)

/* Left line: f1..f5 with constants 0, floor(2^30 * sqrt(2, 3, 5, 7)). */
#define RL1(a, b, c, d, e, x, s) STEP(a, b, c, d, e, F1, x, 0, s)
#define RL2(a, b, c, d, e, x, s) STEP(a, b, c, d, e, F2, x, 0x5a827999, s)
#define RL3(a, b, c, d, e, x, s) STEP(a, b, c, d, e, F3, x, 0x6ed9eba1, s)
#define RL4(a, b, c, d, e, x, s) STEP(a, b, c, d, e, F4, x, 0x8f1bbcdc, s)
#define RL5(a, b, c, d, e, x, s) STEP(a, b, c, d, e, F5, x, 0xa953fd4e, s)
/* Right line: f5..f1 with constants floor(2^30 * cbrt(2, 3, 5, 7)), 0. */
#define RR1(a, b, c, d, e, x, s) STEP(a, b, c, d, e, F5, x, 0x50a28be6, s)
#define RR2(a, b, c, d, e, x, s) STEP(a, b, c, d, e, F4, x, 0x5c4dd124, s)
#define RR3(a, b, c, d, e, x, s) STEP(a, b, c, d, e, F3, x, 0x6d703ef3, s)
#define RR4(a, b, c, d, e, x, s) STEP(a, b, c, d, e, F2, x, 0x7a6d76e9, s)
#define RR5(a, b, c, d, e, x, s) STEP(a, b, c, d, e, F1, x, 0, s)

static void ripemd160_compress(uint32_t h[5], const unsigned char *p)
{
    uint32_t w[16];
    uint32_t al = h[0], bl = h[1], cl = h[2], dl = h[3], el = h[4];
    uint32_t ar = al, br = bl, cr = cl, dr = dl, er = el;
    uint32_t t;
    int i;

    for (i = 0; i < 16; i++)
        w[i] = load32_le(p + 4 * i);

    /* Round 1. */
    RL1(al, bl, cl, dl, el, w[0], 11);
    RR1(ar, br, cr, dr, er, w[5], 8);
    RL1(el, al, bl, cl, dl, w[1], 14);
    RR1(er, ar, br, cr, dr, w[14], 9);
    RL1(dl, el, al, bl, cl, w[2], 15);
    RR1(dr, er, ar, br, cr, w[7], 9);
    RL1(cl, dl, el, al, bl, w[3], 12);
    RR1(cr, dr, er, ar, br, w[0], 11);
    RL1(bl, cl, dl, el, al, w[4], 5);
    RR1(br, cr, dr, er, ar, w[9], 13);
    RL1(al, bl, cl, dl, el, w[5], 8);
    RR1(ar, br, cr, dr, er, w[2], 15);
    RL1(el, al, bl, cl, dl, w[6], 7);
    RR1(er, ar, br, cr, dr, w[11], 15);
    RL1(dl, el, al, bl, cl, w[7], 9);
    RR1(dr, er, ar, br, cr, w[4], 5);
    RL1(cl, dl, el, al, bl, w[8], 11);
    RR1(cr, dr, er, ar, br, w[13], 7);
    RL1(bl, cl, dl, el, al, w[9], 13);
    RR1(br, cr, dr, er, ar, w[6], 7);
    RL1(al, bl, cl, dl, el, w[10], 14);
    RR1(ar, br, cr, dr, er, w[15], 8);
    RL1(el, al, bl, cl, dl, w[11], 15);
    RR1(er, ar, br, cr, dr, w[8], 11);
    RL1(dl, el, al, bl, cl, w[12], 6);
    RR1(dr, er, ar, br, cr, w[1], 14);
    RL1(cl, dl, el, al, bl, w[13], 7);
    RR1(cr, dr, er, ar, br, w[10], 14);
    RL1(bl, cl, dl, el, al, w[14], 9);
    RR1(br, cr, dr, er, ar, w[3], 12);
    RL1(al, bl, cl, dl, el, w[15], 8);
    RR1(ar, br, cr, dr, er, w[12], 6);
    /* Round 2. */
    RL2(el, al, bl, cl, dl, w[7], 7);
    RR2(er, ar, br, cr, dr, w[6], 9);
    RL2(dl, el, al, bl, cl, w[4], 6);
    RR2(dr, er, ar, br, cr, w[11], 13);
    RL2(cl, dl, el, al, bl, w[13], 8);
    RR2(cr, dr, er, ar, br, w[3], 15);
    RL2(bl, cl, dl, el, al, w[1], 13);
    RR2(br, cr, dr, er, ar, w[7], 7);
    RL2(al, bl, cl, dl, el, w[10], 11);
    RR2(ar, br, cr, dr, er, w[0], 12);
    RL2(el, al, bl, cl, dl, w[6], 9);
    RR2(er, ar, br, cr, dr, w[13], 8);
    RL2(dl, el, al, bl, cl, w[15], 7);
    RR2(dr, er, ar, br, cr, w[5], 9);
    RL2(cl, dl, el, al, bl, w[3], 15);
    RR2(cr, dr, er, ar, br, w[10], 11);
    RL2(bl, cl, dl, el, al, w[12], 7);
    RR2(br, cr, dr, er, ar, w[14], 7);
    RL2(al, bl, cl, dl, el, w[0], 12);
    RR2(ar, br, cr, dr, er, w[15], 7);
    RL2(el, al, bl, cl, dl, w[9], 15);
    RR2(er, ar, br, cr, dr, w[8], 12);
    RL2(dl, el, al, bl, cl, w[5], 9);
    RR2(dr, er, ar, br, cr, w[12], 7);
    RL2(cl, dl, el, al, bl, w[2], 11);
    RR2(cr, dr, er, ar, br, w[4], 6);
    RL2(bl, cl, dl, el, al, w[14], 7);
    RR2(br, cr, dr, er, ar, w[9], 15);
    RL2(al, bl, cl, dl, el, w[11], 13);
    RR2(ar, br, cr, dr, er, w[1], 13);
    RL2(el, al, bl, cl, dl, w[8], 12);
    RR2(er, ar, br, cr, dr, w[2], 11);
    /* Round 3. */
    RL3(dl, el, al, bl, cl, w[3], 11);
    RR3(dr, er, ar, br, cr, w[15], 9);
    RL3(cl, dl, el, al, bl, w[10], 13);
    RR3(cr, dr, er, ar, br, w[5], 7);
    RL3(bl, cl, dl, el, al, w[14], 6);
    RR3(br, cr, dr, er, ar, w[1], 15);
    RL3(al, bl, cl, dl, el, w[4], 7);
    RR3(ar, br, cr, dr, er, w[3], 11);
    RL3(el, al, bl, cl, dl, w[9], 14);
    RR3(er, ar, br, cr, dr, w[7], 8);
    RL3(dl, el, al, bl, cl, w[15], 9);
    RR3(dr, er, ar, br, cr, w[14], 6);
    RL3(cl, dl, el, al, bl, w[8], 13);
    RR3(cr, dr, er, ar, br, w[6], 6);
    RL3(bl, cl, dl, el, al, w[1], 15);
    RR3(br, cr, dr, er, ar, w[9], 14);
    RL3(al, bl, cl, dl, el, w[2], 14);
    RR3(ar, br, cr, dr, er, w[11], 12);
    RL3(el, al, bl, cl, dl, w[7], 8);
    RR3(er, ar, br, cr, dr, w[8], 13);
    RL3(dl, el, al, bl, cl, w[0], 13);
    RR3(dr, er, ar, br, cr, w[12], 5);
    RL3(cl, dl, el, al, bl, w[6], 6);
    RR3(cr, dr, er, ar, br, w[2], 14);
    RL3(bl, cl, dl, el, al, w[13], 5);
    RR3(br, cr, dr, er, ar, w[10], 13);
    RL3(al, bl, cl, dl, el, w[11], 12);
    RR3(ar, br, cr, dr, er, w[0], 13);
    RL3(el, al, bl, cl, dl, w[5], 7);
    RR3(er, ar, br, cr, dr, w[4], 7);
    RL3(dl, el, al, bl, cl, w[12], 5);
    RR3(dr, er, ar, br, cr, w[13], 5);
    /* Round 4. */
    RL4(cl, dl, el, al, bl, w[1], 11);
    RR4(cr, dr, er, ar, br, w[8], 15);
    RL4(bl, cl, dl, el, al, w[9], 12);
    RR4(br, cr, dr, er, ar, w[6], 5);
    RL4(al, bl, cl, dl, el, w[11], 14);
    RR4(ar, br, cr, dr, er, w[4], 8);
    RL4(el, al, bl, cl, dl, w[10], 15);
    RR4(er, ar, br, cr, dr, w[1], 11);
    RL4(dl, el, al, bl, cl, w[0], 14);
    RR4(dr, er, ar, br, cr, w[3], 14);
    RL4(cl, dl, el, al, bl, w[8], 15);
    RR4(cr, dr, er, ar, br, w[11], 14);
    RL4(bl, cl, dl, el, al, w[12], 9);
    RR4(br, cr, dr, er, ar, w[15], 6);
    RL4(al, bl, cl, dl, el, w[4], 8);
    RR4(ar, br, cr, dr, er, w[0], 14);
    RL4(el, al, bl, cl, dl, w[13], 9);
    RR4(er, ar, br, cr, dr, w[5], 6);
    RL4(dl, el, al, bl, cl, w[3], 14);
    RR4(dr, er, ar, br, cr, w[12], 9);
    RL4(cl, dl, el, al, bl, w[7], 5);
    RR4(cr, dr, er, ar, br, w[2], 12);
    RL4(bl, cl, dl, el, al, w[15], 6);
    RR4(br, cr, dr, er, ar, w[13], 9);
    RL4(al, bl, cl, dl, el, w[14], 8);
    RR4(ar, br, cr, dr, er, w[9], 12);
    RL4(el, al, bl, cl, dl, w[5], 6);
    RR4(er, ar, br, cr, dr, w[7], 5);
    RL4(dl, el, al, bl, cl, w[6], 5);
    RR4(dr, er, ar, br, cr, w[10], 15);
    RL4(cl, dl, el, al, bl, w[2], 12);
    RR4(cr, dr, er, ar, br, w[14], 8);
    /* Round 5. */
    RL5(bl, cl, dl, el, al, w[4], 9);
    RR5(br, cr, dr, er, ar, w[12], 8);
    RL5(al, bl, cl, dl, el, w[0], 15);
    RR5(ar, br, cr, dr, er, w[15], 5);
    RL5(el, al, bl, cl, dl, w[5], 5);
    RR5(er, ar, br, cr, dr, w[10], 12);
    RL5(dl, el, al, bl, cl, w[9], 11);
    RR5(dr, er, ar, br, cr, w[4], 9);
    RL5(cl, dl, el, al, bl, w[7], 6);
    RR5(cr, dr, er, ar, br, w[1], 12);
    RL5(bl, cl, dl, el, al, w[12], 8);
    RR5(br, cr, dr, er, ar, w[5], 5);
    RL5(al, bl, cl, dl, el, w[2], 13);
    RR5(ar, br, cr, dr, er, w[8], 14);
    RL5(el, al, bl, cl, dl, w[10], 12);
    RR5(er, ar, br, cr, dr, w[7], 6);
    RL5(dl, el, al, bl, cl, w[14], 5);
    RR5(dr, er, ar, br, cr, w[6], 8);
    RL5(cl, dl, el, al, bl, w[1], 12);
    RR5(cr, dr, er, ar, br, w[2], 13);
    RL5(bl, cl, dl, el, al, w[3], 13);
    RR5(br, cr, dr, er, ar, w[13], 6);
    RL5(al, bl, cl, dl, el, w[8], 14);
    RR5(ar, br, cr, dr, er, w[14], 5);
    RL5(el, al, bl, cl, dl, w[11], 11);
    RR5(er, ar, br, cr, dr, w[0], 15);
    RL5(dl, el, al, bl, cl, w[6], 8);
    RR5(dr, er, ar, br, cr, w[3], 13);
    RL5(cl, dl, el, al, bl, w[15], 5);
    RR5(cr, dr, er, ar, br, w[9], 11);
    RL5(bl, cl, dl, el, al, w[13], 6);
    RR5(br, cr, dr, er, ar, w[11], 11);

    t = h[1] + cl + dr;
    h[1] = h[2] + dl + er;
    h[2] = h[3] + el + ar;
    h[3] = h[4] + al + br;
    h[4] = h[0] + bl + cr;
    h[0] = t;
}

void ripemd160_init(ripemd160_ctx *ctx)
{
    memcpy(ctx->s, ripemd160_iv, sizeof ctx->s);
    ctx->bytes = 0;
}

static void ripemd160_blocks(void *state, const unsigned char *p, size_t n)
{
    for (; n > 0; n--, p += 64)
        ripemd160_compress(state, p);
}

void ripemd160_write(ripemd160_ctx *ctx, const void *data, size_t len)
{
    md_write(ctx->s, ctx->buf, &ctx->bytes, 64, ripemd160_blocks, data, len);
}

void ripemd160_finalize(ripemd160_ctx *ctx, unsigned char *out)
{
    md_pad(ctx->s, ctx->buf, ctx->bytes, 64, 8, 0, ripemd160_blocks);
    for (int i = 0; i < 5; i++)
        store32_le(out + 4 * i, ctx->s[i]);
}

void ripemd160_hash(unsigned char *out, const void *data, size_t len)
{
    ripemd160_ctx ctx;
    ripemd160_init(&ctx);
    ripemd160_write(&ctx, data, len);
    ripemd160_finalize(&ctx, out);
}
