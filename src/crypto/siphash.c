/* SipHash-2-4, written from Aumasson and Bernstein, "SipHash: a fast
 * short-input PRF" (2012): two rounds per 8-byte word, four to finish. */
#include "crypto/siphash.h"

#include "crypto/common.h"

#define SIPROUND(v0, v1, v2, v3) do { \
        (v0) += (v1); (v1) = rotl64(v1, 13); (v1) ^= (v0); (v0) = rotl64(v0, 32); \
        (v2) += (v3); (v3) = rotl64(v3, 16); (v3) ^= (v2); \
        (v0) += (v3); (v3) = rotl64(v3, 21); (v3) ^= (v0); \
        (v2) += (v1); (v1) = rotl64(v1, 17); (v1) ^= (v2); (v2) = rotl64(v2, 32); \
    } while (0)

/* Absorbs one message word m (c = 2 rounds). */
#define COMPRESS(v0, v1, v2, v3, m) do { \
        uint64_t m_ = (m); \
        (v3) ^= m_; \
        SIPROUND(v0, v1, v2, v3); \
        SIPROUND(v0, v1, v2, v3); \
        (v0) ^= m_; \
    } while (0)

/* The d = 4 finishing rounds; returns the 64-bit output. */
static inline uint64_t siphash_finish(uint64_t v0, uint64_t v1, uint64_t v2, uint64_t v3)
{
    v2 ^= 0xff;
    SIPROUND(v0, v1, v2, v3);
    SIPROUND(v0, v1, v2, v3);
    SIPROUND(v0, v1, v2, v3);
    SIPROUND(v0, v1, v2, v3);
    return v0 ^ v1 ^ v2 ^ v3;
}

/* The initial state: the key xored with "somepseudorandomlygeneratedbytes". */
#define INIT_STATE(k0, k1) \
    uint64_t v0 = (k0) ^ 0x736f6d6570736575; \
    uint64_t v1 = (k1) ^ 0x646f72616e646f6d; \
    uint64_t v2 = (k0) ^ 0x6c7967656e657261; \
    uint64_t v3 = (k1) ^ 0x7465646279746573

void siphash_init(siphash_ctx *ctx, uint64_t k0, uint64_t k1)
{
    INIT_STATE(k0, k1);
    ctx->v[0] = v0;
    ctx->v[1] = v1;
    ctx->v[2] = v2;
    ctx->v[3] = v3;
    ctx->tail = 0;
    ctx->count = 0;
}

void siphash_write(siphash_ctx *ctx, const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t v0 = ctx->v[0], v1 = ctx->v[1], v2 = ctx->v[2], v3 = ctx->v[3];
    uint64_t t = ctx->tail;
    unsigned fill = (unsigned)(ctx->count & 7);

    ctx->count += len;
    while (len) {
        t |= (uint64_t)*p++ << (8 * fill);
        len--;
        if (++fill == 8) {
            COMPRESS(v0, v1, v2, v3, t);
            t = 0;
            fill = 0;
            break;
        }
    }
    if (fill == 0) {
        for (; len >= 8; p += 8, len -= 8)
            COMPRESS(v0, v1, v2, v3, load64_le(p));
        for (; len; len--)
            t |= (uint64_t)*p++ << (8 * fill++);
    }
    ctx->v[0] = v0;
    ctx->v[1] = v1;
    ctx->v[2] = v2;
    ctx->v[3] = v3;
    ctx->tail = t;
}

void siphash_write_u64(siphash_ctx *ctx, uint64_t v)
{
    if (ctx->count & 7) {
        unsigned char b[8];
        store64_le(b, v);
        siphash_write(ctx, b, 8);
        return;
    }
    {
        uint64_t v0 = ctx->v[0], v1 = ctx->v[1], v2 = ctx->v[2], v3 = ctx->v[3];
        COMPRESS(v0, v1, v2, v3, v);
        ctx->v[0] = v0;
        ctx->v[1] = v1;
        ctx->v[2] = v2;
        ctx->v[3] = v3;
        ctx->count += 8;
    }
}

uint64_t siphash_finalize(const siphash_ctx *ctx)
{
    uint64_t v0 = ctx->v[0], v1 = ctx->v[1], v2 = ctx->v[2], v3 = ctx->v[3];
    /* The last word: the leftover bytes, and the length mod 256 on top. */
    COMPRESS(v0, v1, v2, v3, ctx->tail | ctx->count << 56);
    return siphash_finish(v0, v1, v2, v3);
}

uint64_t siphash_uint256(uint64_t k0, uint64_t k1, const unsigned char v[32])
{
    INIT_STATE(k0, k1);
    COMPRESS(v0, v1, v2, v3, load64_le(v));
    COMPRESS(v0, v1, v2, v3, load64_le(v + 8));
    COMPRESS(v0, v1, v2, v3, load64_le(v + 16));
    COMPRESS(v0, v1, v2, v3, load64_le(v + 24));
    COMPRESS(v0, v1, v2, v3, (uint64_t)32 << 56);
    return siphash_finish(v0, v1, v2, v3);
}

uint64_t siphash_uint256_extra(uint64_t k0, uint64_t k1, const unsigned char v[32],
                               uint32_t extra)
{
    INIT_STATE(k0, k1);
    COMPRESS(v0, v1, v2, v3, load64_le(v));
    COMPRESS(v0, v1, v2, v3, load64_le(v + 8));
    COMPRESS(v0, v1, v2, v3, load64_le(v + 16));
    COMPRESS(v0, v1, v2, v3, load64_le(v + 24));
    COMPRESS(v0, v1, v2, v3, (uint64_t)36 << 56 | extra);
    return siphash_finish(v0, v1, v2, v3);
}
