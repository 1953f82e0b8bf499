/* Core's random generators today (random.h). The drawing functions are inline in the
 * header; the declarations below make this file carry the one external definition of each
 * that C99 asks for. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "crypto/random.h"
#include "util/splitmix64.h"

extern inline uint64_t insecurerandom_rand64(insecurerandom_ctx *ctx);
extern inline uint64_t insecurerandom_randbits(insecurerandom_ctx *ctx, int bits);
extern inline uint32_t insecurerandom_rand32(insecurerandom_ctx *ctx);
extern inline int insecurerandom_randbool(insecurerandom_ctx *ctx);
extern inline uint64_t insecurerandom_randrange(insecurerandom_ctx *ctx, uint64_t range);
extern inline uint64_t fastrandom2_rand64(fastrandom2_ctx *ctx);
extern inline uint64_t fastrandom2_randbits(fastrandom2_ctx *ctx, int bits);
extern inline uint32_t fastrandom2_rand32(fastrandom2_ctx *ctx);
extern inline int fastrandom2_randbool(fastrandom2_ctx *ctx);
extern inline uint64_t fastrandom2_randrange(fastrandom2_ctx *ctx, uint64_t range);

void insecurerandom_init(insecurerandom_ctx *ctx, uint64_t seed)
{
    ctx->s0 = splitmix64_next(&seed);
    ctx->s1 = splitmix64_next(&seed);
    ctx->bitbuf = 0;
    ctx->bitbuf_size = 0;
}

void fastrandom2_init_seed(fastrandom2_ctx *ctx, const unsigned char seed[32])
{
    chacha20_set_key(&ctx->rng, seed);
    memset(ctx->buf, 0, sizeof ctx->buf);
    ctx->buf_left = 0;
    ctx->bitbuf_size = 0;
    ctx->bitbuf = 0;
}

void fastrandom2_init_deterministic(fastrandom2_ctx *ctx)
{
    static const unsigned char zero[32];
    fastrandom2_init_seed(ctx, zero);
}

/* The keystream is a byte stream: buf holds the unread tail of what was generated last;
 * whole blocks that a request covers beyond it are written straight to it (chacha20_keystream
 * of a multiple of 64 bytes continues the stream exactly), and a tail refills the buffer. */
void fastrandom2_fill(fastrandom2_ctx *ctx, void *out, size_t len)
{
    unsigned char *p = out;
    size_t take = len < (size_t)ctx->buf_left ? len : (size_t)ctx->buf_left, whole;
    if (take) {
        memcpy(p, ctx->buf + FASTRANDOM2_BUFFER - ctx->buf_left, take);
        ctx->buf_left -= (int)take;
        p += take;
        len -= take;
    }
    if (len == 0)
        return;
    whole = len - len % 64;
    if (whole) {
        chacha20_keystream(&ctx->rng, p, whole);
        p += whole;
        len -= whole;
    }
    if (len) {
        chacha20_keystream(&ctx->rng, ctx->buf, sizeof ctx->buf);
        memcpy(p, ctx->buf, len);
        ctx->buf_left = FASTRANDOM2_BUFFER - (int)len;
    }
}

uint64_t fastrandom2_rand64_refill(fastrandom2_ctx *ctx)
{
    unsigned char b[8];
    fastrandom2_fill(ctx, b, sizeof b);
    return (uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 | (uint64_t)b[3] << 24
        | (uint64_t)b[4] << 32 | (uint64_t)b[5] << 40 | (uint64_t)b[6] << 48
        | (uint64_t)b[7] << 56;
}

#if defined(__SIZEOF_INT128__)
/* __extension__: the type is a GCC and Clang extension, not ISO C. */
__extension__ typedef unsigned __int128 u128;
#endif

/* The high word of a * b, and the low word in *lo. */
static inline uint64_t mul_hi(uint64_t a, uint64_t b, uint64_t *lo)
{
#if defined(__SIZEOF_INT128__)
    u128 t = (u128)a * b;
    *lo = (uint64_t)t;
    return (uint64_t)(t >> 64);
#else
    uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    *lo = (ll & 0xffffffffu) | mid << 32;
    return ah * bh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
}

/* std::shuffle for a generator P whose operator() is P_rand64, as libstdc++ writes it
 * (bits/stl_algo.h, bits/uniform_int_dist.h):
 * - uniform in [0, range) (uniform_int_distribution{0, range - 1} on a 64-bit generator,
 *   Lemire's method): the high word of rand64 * range, drawing again while the low word is
 *   below 2^64 mod range (tested only when the low word is below range);
 * - when n^2 fits in 64 bits: for even n, element 1 swaps with position uniform(2); then
 *   elements i and i + 1 (i = 1 or 2, stepping by 2) swap with x / (i + 2) and x % (i + 2)
 *   for x = uniform((i + 1) (i + 2));
 * - otherwise element i (from 1) swaps with uniform(i + 1). */
#define RANDOM_STDSHUFFLE_DEFINE(P, T) \
    static uint64_t P##_uniform(T *ctx, uint64_t range) \
    { \
        uint64_t lo, hi = mul_hi(P##_rand64(ctx), range, &lo); \
        if (lo < range) { \
            uint64_t threshold = (0 - range) % range; \
            while (lo < threshold) \
                hi = mul_hi(P##_rand64(ctx), range, &lo); \
        } \
        return hi; \
    } \
    void P##_stdshuffle(T *ctx, uint64_t *data, size_t n) \
    { \
        uint64_t tmp, x, range = n; \
        size_t i = 1, j; \
        if (n == 0) \
            return; \
        if (UINT64_MAX / range < range) { \
            for (; i < n; i++) { \
                j = (size_t)P##_uniform(ctx, (uint64_t)i + 1); \
                tmp = data[i]; data[i] = data[j]; data[j] = tmp; \
            } \
            return; \
        } \
        if (n % 2 == 0) { \
            j = (size_t)P##_uniform(ctx, 2); \
            tmp = data[i]; data[i] = data[j]; data[j] = tmp; \
            i++; \
        } \
        for (; i < n; i += 2) { \
            uint64_t b0 = (uint64_t)i + 1, b1 = b0 + 1; \
            x = P##_uniform(ctx, b0 * b1); \
            j = (size_t)(x / b1); \
            tmp = data[i]; data[i] = data[j]; data[j] = tmp; \
            j = (size_t)(x % b1); \
            tmp = data[i + 1]; data[i + 1] = data[j]; data[j] = tmp; \
        } \
    }

RANDOM_STDSHUFFLE_DEFINE(insecurerandom, insecurerandom_ctx)
RANDOM_STDSHUFFLE_DEFINE(fastrandom2, fastrandom2_ctx)
