/* Bitcoin Core's random generators as they are today (random.h of Core since 2024): a fast
 * non-cryptographic one, InsecureRandomContext, and today's FastRandomContext, with the
 * bit-level methods that Core's RandomMixin gives every generator.
 *
 * insecurerandom_: xoroshiro128++ (Blackman and Vigna), whose two state words are the first
 *   two outputs of SplitMix64 started at the seed. Not for anything secret.
 * fastrandom2_: FastRandomContext: a ChaCha20 keystream (key 0 when deterministic, IV and
 *   block counter 0) read as a byte stream, rand64 its next 8 bytes little-endian. The
 *   numbers rand64 gives are the 2020 generator's (fastrandom.h); what changed since is
 *   every method built on them, so these are its own functions, named with a 2 for the
 *   second generation of the same class: the fastrandom_ functions keep the 2020 meaning
 *   that the 2020 benchmarks measure.
 *
 * The methods shared by both (Core's RandomMixin):
 *   randbits(bits), 0 <= bits <= 64: 64 bits are the next rand64. Fewer come from a 64-bit
 *     buffer, low bits first; when it holds fewer than asked, all it holds becomes the low
 *     part of the answer, the rest comes from the low bits of a new rand64, and that draw's
 *     unused high bits stay buffered for the next call. 0 bits is 0 and uses nothing.
 *   rand32, randbool: randbits(32), randbits(1).
 *   randrange(range), range >= 1: uniform in [0, range): randbits(bit width of range - 1)
 *     until the draw is below range (so range 1 is 0, using nothing).
 *   stdshuffle(data, n): what std::shuffle(data, data + n, rng) does with libstdc++ (GCC
 *     11 and later) when rng is the generator, whose operator() is rand64: for n^2 below
 *     2^64, one position for the first element when n is even, then positions two at a
 *     time from one uniform draw of their product range; each uniform draw is Lemire's
 *     multiply-and-reject on rand64 (uniform_int_distribution for a 64-bit generator). So
 *     the same generator state gives the same permutation as Core built with GCC.
 * rand64 and the bit buffer are separate: rand64 (and fastrandom2_fill) neither reads nor
 * changes the buffer, as in Core.
 *
 * A context is a plain value with no pointers inside: a copy made with `=` continues
 * independently from the same point. The drawing functions are C99 inline functions (the
 * library carries each as an ordinary function too), as Core's are templates and inline. */
#ifndef CRYPTO_RANDOM_H
#define CRYPTO_RANDOM_H

#include <stddef.h>
#include <stdint.h>

#include "chacha20.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- InsecureRandomContext --------------------------------------------------------------- */

/* Generator state. Private: xoroshiro128++'s two words, and the bit buffer (its low
 * bitbuf_size bits unread). */
typedef struct {
    uint64_t s0, s1;
    uint64_t bitbuf;
    int bitbuf_size;
} insecurerandom_ctx;

/* Core's InsecureRandomContext(seed): the state is SplitMix64's first two outputs from seed;
 * the bit buffer is empty. */
void insecurerandom_init(insecurerandom_ctx *ctx, uint64_t seed);

/* The next xoroshiro128++ output. */
inline uint64_t insecurerandom_rand64(insecurerandom_ctx *ctx)
{
    uint64_t s0 = ctx->s0, s1 = ctx->s1, sum = s0 + s1;
    uint64_t out = ((sum << 17) | (sum >> 47)) + s0;
    s1 ^= s0;
    ctx->s0 = ((s0 << 49) | (s0 >> 15)) ^ s1 ^ (s1 << 21);
    ctx->s1 = (s1 << 28) | (s1 >> 36);
    return out;
}

/* bits = the number of bits x needs (0 for 0), C++20's std::bit_width; a macro, since the
 * inline functions below may not call a static function. */
#if defined(__GNUC__) || defined(__clang__)
#define RANDOM_BIT_WIDTH(bits, x) ((bits) = (x) ? 64 - __builtin_clzll(x) : 0)
#else
#define RANDOM_BIT_WIDTH(bits, x) \
    do { \
        uint64_t x_ = (x); \
        (bits) = 0; \
        if (x_ >> 32) { (bits) += 32; x_ >>= 32; } \
        if (x_ >> 16) { (bits) += 16; x_ >>= 16; } \
        if (x_ >> 8) { (bits) += 8; x_ >>= 8; } \
        if (x_ >> 4) { (bits) += 4; x_ >>= 4; } \
        if (x_ >> 2) { (bits) += 2; x_ >>= 2; } \
        if (x_ >> 1) { (bits) += 1; x_ >>= 1; } \
        (bits) += (int)x_; \
    } while (0)
#endif

/* The RandomMixin methods (see above) over a generator: defines, for prefix P and context type
 * T, P_randbits, P_rand32, P_randbool and P_randrange as inline functions on P_rand64. Used
 * below for both generators; not meant for other code. */
#define RANDOM_MIXIN_DEFINE(P, T) \
    inline uint64_t P##_randbits(T *ctx, int bits) \
    { \
        uint64_t ret, gen; \
        if (bits >= 64) \
            return P##_rand64(ctx); \
        if (bits <= ctx->bitbuf_size) { \
            ret = ctx->bitbuf; \
            ctx->bitbuf >>= bits; \
            ctx->bitbuf_size -= bits; \
        } else { \
            gen = P##_rand64(ctx); \
            ret = gen << ctx->bitbuf_size | ctx->bitbuf; \
            ctx->bitbuf = gen >> (bits - ctx->bitbuf_size); \
            ctx->bitbuf_size += 64 - bits; \
        } \
        return ret & ((UINT64_C(1) << bits) - 1); \
    } \
    inline uint32_t P##_rand32(T *ctx) \
    { \
        return (uint32_t)P##_randbits(ctx, 32); \
    } \
    inline int P##_randbool(T *ctx) \
    { \
        return (int)P##_randbits(ctx, 1); \
    } \
    inline uint64_t P##_randrange(T *ctx, uint64_t range) \
    { \
        uint64_t maxval = range - 1, ret; \
        int bits; \
        RANDOM_BIT_WIDTH(bits, maxval); \
        do \
            ret = P##_randbits(ctx, bits); \
        while (ret > maxval); \
        return ret; \
    }

/* randbits(bits), 0 <= bits <= 64. */
inline uint64_t insecurerandom_randbits(insecurerandom_ctx *ctx, int bits);
/* randbits(32). */
inline uint32_t insecurerandom_rand32(insecurerandom_ctx *ctx);
/* randbits(1), as 0 or 1. */
inline int insecurerandom_randbool(insecurerandom_ctx *ctx);
/* Uniform in [0, range); range >= 1. */
inline uint64_t insecurerandom_randrange(insecurerandom_ctx *ctx, uint64_t range);
RANDOM_MIXIN_DEFINE(insecurerandom, insecurerandom_ctx)

/* Permutes data[0 .. n) as std::shuffle does with this generator (libstdc++; see above). */
void insecurerandom_stdshuffle(insecurerandom_ctx *ctx, uint64_t *data, size_t n);

/* ---- FastRandomContext, today ----------------------------------------------------------- */

/* Keystream bytes generated at a time: 8 blocks, which the vector implementations of
 * ChaCha20 make in one pass (Core makes one block at a time; the bytes are the same). */
#define FASTRANDOM2_BUFFER 512

/* Generator state. Private: the keystream, the unread tail of the keystream generated last
 * (buf[FASTRANDOM2_BUFFER - buf_left ..)), and the bit buffer. */
typedef struct {
    chacha20_ctx rng;
    unsigned char buf[FASTRANDOM2_BUFFER];
    int buf_left;
    int bitbuf_size;
    uint64_t bitbuf;
} fastrandom2_ctx;

/* Core's FastRandomContext(true): keyed with 32 zero bytes. */
void fastrandom2_init_deterministic(fastrandom2_ctx *ctx);

/* Keyed with the 32 bytes at seed (Core's FastRandomContext(uint256)). */
void fastrandom2_init_seed(fastrandom2_ctx *ctx, const unsigned char seed[32]);

/* The next len bytes of the keystream (Core's fillrand, randbytes and rand256, which write
 * keystream bytes in order); the bit buffer is untouched. out may be NULL when len is 0. */
void fastrandom2_fill(fastrandom2_ctx *ctx, void *out, size_t len);

/* rand64 when fewer than 8 bytes are buffered: called by fastrandom2_rand64 only. */
uint64_t fastrandom2_rand64_refill(fastrandom2_ctx *ctx);

/* The next 8 keystream bytes, little-endian. */
inline uint64_t fastrandom2_rand64(fastrandom2_ctx *ctx)
{
    const unsigned char *p;
    if (ctx->buf_left < 8)
        return fastrandom2_rand64_refill(ctx);
    p = ctx->buf + FASTRANDOM2_BUFFER - ctx->buf_left;
    ctx->buf_left -= 8;
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16
        | (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40
        | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

/* randbits(bits), 0 <= bits <= 64. */
inline uint64_t fastrandom2_randbits(fastrandom2_ctx *ctx, int bits);
/* randbits(32). */
inline uint32_t fastrandom2_rand32(fastrandom2_ctx *ctx);
/* randbits(1), as 0 or 1. */
inline int fastrandom2_randbool(fastrandom2_ctx *ctx);
/* Uniform in [0, range); range >= 1. */
inline uint64_t fastrandom2_randrange(fastrandom2_ctx *ctx, uint64_t range);
RANDOM_MIXIN_DEFINE(fastrandom2, fastrandom2_ctx)

/* Permutes data[0 .. n) as std::shuffle does with this generator (libstdc++; see above). */
void fastrandom2_stdshuffle(fastrandom2_ctx *ctx, uint64_t *data, size_t n);

#ifdef __cplusplus
}
#endif

#endif
