/* SHA-1, written from FIPS 180-4 section 6.1.
 *
 * Fully unrolled like sha256.c: the five working variables stay put and each
 * round renames them; the schedule is a 16-word ring (W[t] needs only W[t-3],
 * W[t-8], W[t-14] and W[t-16]). */
#include "crypto/sha1.h"

#include <string.h>

#include "crypto/common.h"
#include "crypto/impl.h"

const uint32_t sha1_iv[5] = {
    0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0,
};

/* The transform in use: portable until a variant set installs another (sha1_variants.c). */
sha1_transform_fn sha1_transform_impl = sha1_transform_portable;

#define W_LOAD(t) (w[t] = load32_be(p + 4 * (t)))
#define W_EXPAND(t) (w[(t) & 15] = rotl32(w[((t) + 13) & 15] ^ w[((t) + 8) & 15] \
                                          ^ w[((t) + 2) & 15] ^ w[(t) & 15], 1))

/* One round (common.h): only e and b change (e becomes the new a, b is
 * rotated). */
#define RND(a, b, c, d, e, F, k, wt) SHA1_RND(a, b, c, d, e, F, (k) + (wt))

#define RND5(t, F, k, W) \
    RND(a, b, c, d, e, F, k, W((t) + 0)); \
    RND(e, a, b, c, d, F, k, W((t) + 1)); \
    RND(d, e, a, b, c, F, k, W((t) + 2)); \
    RND(c, d, e, a, b, F, k, W((t) + 3)); \
    RND(b, c, d, e, a, F, k, W((t) + 4))

#define RND20(t, F, k, W) \
    RND5(t, F, k, W); RND5((t) + 5, F, k, W); RND5((t) + 10, F, k, W); RND5((t) + 15, F, k, W)

static inline void sha1_compress(uint32_t s[5], const unsigned char *p)
{
    uint32_t w[16];
    uint32_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4];

    RND5(0, SHA1_CH, 0x5a827999, W_LOAD);
    RND5(5, SHA1_CH, 0x5a827999, W_LOAD);
    RND5(10, SHA1_CH, 0x5a827999, W_LOAD);
    RND(a, b, c, d, e, SHA1_CH, 0x5a827999, W_LOAD(15));
    RND(e, a, b, c, d, SHA1_CH, 0x5a827999, W_EXPAND(16));
    RND(d, e, a, b, c, SHA1_CH, 0x5a827999, W_EXPAND(17));
    RND(c, d, e, a, b, SHA1_CH, 0x5a827999, W_EXPAND(18));
    RND(b, c, d, e, a, SHA1_CH, 0x5a827999, W_EXPAND(19));
    RND20(20, SHA1_PARITY, 0x6ed9eba1, W_EXPAND);
    RND20(40, SHA1_MAJ, 0x8f1bbcdc, W_EXPAND);
    RND20(60, SHA1_PARITY, 0xca62c1d6, W_EXPAND);
    s[0] += a;
    s[1] += b;
    s[2] += c;
    s[3] += d;
    s[4] += e;
}

void sha1_transform_portable(uint32_t state[5], const unsigned char *blocks, size_t n)
{
    while (n--) {
        sha1_compress(state, blocks);
        blocks += 64;
    }
}

void sha1_init(sha1_ctx *ctx)
{
    memcpy(ctx->s, sha1_iv, sizeof ctx->s);
    ctx->bytes = 0;
}

static void sha1_blocks(void *state, const unsigned char *p, size_t n)
{
    sha1_transform_impl(state, p, n);
}

void sha1_write(sha1_ctx *ctx, const void *data, size_t len)
{
    md_write(ctx->s, ctx->buf, &ctx->bytes, 64, sha1_blocks, data, len);
}

void sha1_finalize(sha1_ctx *ctx, unsigned char *out)
{
    md_finish_be32(ctx->s, 5, ctx->buf, ctx->bytes, sha1_blocks, out);
}

void sha1_hash(unsigned char *out, const void *data, size_t len)
{
    sha1_ctx ctx;
    sha1_init(&ctx);
    sha1_write(&ctx, data, len);
    sha1_finalize(&ctx, out);
}
