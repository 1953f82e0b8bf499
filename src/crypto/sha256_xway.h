/* Internal to the crypto library: the body of the multi-way sha256_d64
 * kernels, written once over GCC vector types. A variant file defines
 *   XWAY_LANES     the number of 32-bit lanes (4, 8 or 16),
 *   XWAY_NAME      the kernel's name,
 *   XWAY_ROTR(x,n) a lane-wise right rotation (when its instruction set has
 *                  one; otherwise the shift-and-or form below is used),
 * then includes this file, once, in a file compiled with that instruction
 * set's flags. Lane i carries input i from start to end; the inputs are
 * transposed into lanes on the way in and back on the way out, so the rounds
 * themselves are the plain FIPS 180-4 ones, LANES hashes at a time. */
#ifndef CRYPTO_SHA256_XWAY_H
#define CRYPTO_SHA256_XWAY_H

#include "crypto/common.h"
#include "crypto/variants.h"

typedef uint32_t xvec __attribute__((vector_size(4 * XWAY_LANES)));

#ifndef XWAY_ROTR
#define XWAY_ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#endif

#define XS0(x) (XWAY_ROTR(x, 2) ^ XWAY_ROTR(x, 13) ^ XWAY_ROTR(x, 22))
#define XS1(x) (XWAY_ROTR(x, 6) ^ XWAY_ROTR(x, 11) ^ XWAY_ROTR(x, 25))
#define XSIG0(x) (XWAY_ROTR(x, 7) ^ XWAY_ROTR(x, 18) ^ ((x) >> 3))
#define XSIG1(x) (XWAY_ROTR(x, 17) ^ XWAY_ROTR(x, 19) ^ ((x) >> 10))

#define XROUND(a, b, c, d, e, f, g, h, wk) do { \
        xvec t1_ = h + XS1(e) + (g ^ (e & (f ^ g))) + (wk); \
        xvec t2_ = XS0(a) + ((a & b) | (c & (a | b))); \
        d += t1_; \
        h = t1_ + t2_; \
    } while (0)

/* Eight rounds; wk(i) gives W[i] + K[i] as a vector or a scalar. */
#define XROUNDS8(i, wk) do { \
        XROUND(a, b, c, d, e, f, g, h, wk(i)); \
        XROUND(h, a, b, c, d, e, f, g, wk(i + 1)); \
        XROUND(g, h, a, b, c, d, e, f, wk(i + 2)); \
        XROUND(f, g, h, a, b, c, d, e, wk(i + 3)); \
        XROUND(e, f, g, h, a, b, c, d, wk(i + 4)); \
        XROUND(d, e, f, g, h, a, b, c, wk(i + 5)); \
        XROUND(c, d, e, f, g, h, a, b, wk(i + 6)); \
        XROUND(b, c, d, e, f, g, h, a, wk(i + 7)); \
    } while (0)

/* s += compression of the message words w[0..15] (w[16..63] is scratch). */
static inline void xway_compress(xvec s[8], xvec w[64])
{
    xvec a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];

    for (int i = 16; i < 64; i++)
        w[i] = XSIG1(w[i - 2]) + w[i - 7] + XSIG0(w[i - 15]) + w[i - 16];
#define XWK(i) (w[i] + sha256_k[i])
    for (int i = 0; i < 64; i += 8)
        XROUNDS8(i, XWK);
#undef XWK
    s[0] += a; s[1] += b; s[2] += c; s[3] += d;
    s[4] += e; s[5] += f; s[6] += g; s[7] += h;
}

/* s += compression of the padding block of a 64-byte message. */
static inline void xway_compress_pad(xvec s[8])
{
    xvec a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];

#define XWK(i) (sha256_pad64_kw[i])
    for (int i = 0; i < 64; i += 8)
        XROUNDS8(i, XWK);
#undef XWK
    s[0] += a; s[1] += b; s[2] += c; s[3] += d;
    s[4] += e; s[5] += f; s[6] += g; s[7] += h;
}

void XWAY_NAME(unsigned char *out, const unsigned char *in)
{
    xvec w[64], s[8], t[8];

    for (int j = 0; j < 16; j++)
        for (int i = 0; i < XWAY_LANES; i++)
            w[j][i] = load32_be(in + 64 * i + 4 * j);

    /* Inner hash: the input block, then its constant padding block. */
    for (int j = 0; j < 8; j++)
        s[j] = (xvec){0} + sha256_iv[j];
    xway_compress(s, w);
    for (int j = 0; j < 8; j++)
        t[j] = s[j];
    xway_compress_pad(t);

    /* Outer hash: the 32-byte inner digest, padded to one block. */
    for (int j = 0; j < 8; j++) {
        w[j] = t[j];
        s[j] = (xvec){0} + sha256_iv[j];
    }
    w[8] = (xvec){0} + 0x80000000u;
    for (int j = 9; j < 15; j++)
        w[j] = (xvec){0};
    w[15] = (xvec){0} + 256u;
    xway_compress(s, w);

    for (int i = 0; i < XWAY_LANES; i++)
        for (int j = 0; j < 8; j++)
            store32_be(out + 32 * i + 4 * j, s[j][i]);
}

#endif
