/* FastRandomContext (see fastrandom.h). The drawing functions are inline in
 * the header; the declarations below make this file carry the one external
 * definition of each that C99 asks for. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "crypto/fastrandom.h"

extern inline uint64_t fastrandom_rand64(fastrandom_ctx *ctx);
extern inline uint64_t fastrandom_randbits(fastrandom_ctx *ctx, int bits);
extern inline uint32_t fastrandom_rand32(fastrandom_ctx *ctx);
extern inline int fastrandom_randbool(fastrandom_ctx *ctx);

void fastrandom_init_seed(fastrandom_ctx *ctx, const unsigned char seed[32])
{
    chacha20_set_key(&ctx->rng, seed);
    memset(ctx->bytebuf, 0, sizeof ctx->bytebuf);
    ctx->bytebuf_size = 0;
    ctx->bitbuf_size = 0;
    ctx->bitbuf = 0;
}

void fastrandom_init_deterministic(fastrandom_ctx *ctx)
{
    static const unsigned char zero[32];
    fastrandom_init_seed(ctx, zero);
}

void fastrandom_fill(fastrandom_ctx *ctx)
{
    chacha20_keystream(&ctx->rng, ctx->bytebuf, sizeof ctx->bytebuf);
    ctx->bytebuf_size = (int)sizeof ctx->bytebuf;
}
