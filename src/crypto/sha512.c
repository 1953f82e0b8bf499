/* SHA-512, written from FIPS 180-4 section 6.4.
 *
 * The same shape as sha256.c with 64-bit words, 80 rounds and 128-byte
 * blocks: fully unrolled, working variables renamed rather than moved, the
 * message schedule in a 16-word ring. */
#include "crypto/sha512.h"

#include <string.h>

#include "crypto/common.h"
#include "crypto/impl.h"

const uint64_t sha512_iv[8] = {
    0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
    0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
};

const uint64_t sha512_k[80] = {
    0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc,
    0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118,
    0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694,
    0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
    0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
    0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70,
    0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df,
    0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
    0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30,
    0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
    0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b,
    0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178,
    0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
    0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
};

#define BSIG0(x) (rotr64(x, 28) ^ rotr64(x, 34) ^ rotr64(x, 39))
#define BSIG1(x) (rotr64(x, 14) ^ rotr64(x, 18) ^ rotr64(x, 41))
/* Nested rotations in the schedule save a register copy (see sha256.c). */
#define SSIG0(x) (rotr64((x) ^ rotr64(x, 7), 1) ^ ((x) >> 7))
#define SSIG1(x) (rotr64((x) ^ rotr64(x, 42), 19) ^ ((x) >> 6))
#define CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))

#define RND8(t, KW) SHA2_RND8(uint64_t, t, KW)

#define KW_LOAD(t) (sha512_k[t] + (w[t] = load64_be(p + 8 * (t))))
#define KW_EXPAND(t) (sha512_k[t] + (w[(t) & 15] += SSIG1(w[((t) + 14) & 15]) \
                                      + w[((t) + 9) & 15] + SSIG0(w[((t) + 1) & 15])))

static inline void sha512_compress(uint64_t s[8], const unsigned char *p)
{
    uint64_t w[16];
    uint64_t a = s[0], b = s[1], c = s[2], d = s[3];
    uint64_t e = s[4], f = s[5], g = s[6], h = s[7];
    uint64_t x, y = b ^ c;

    RND8(0, KW_LOAD);
    RND8(8, KW_LOAD);
    RND8(16, KW_EXPAND);
    RND8(24, KW_EXPAND);
    RND8(32, KW_EXPAND);
    RND8(40, KW_EXPAND);
    RND8(48, KW_EXPAND);
    RND8(56, KW_EXPAND);
    RND8(64, KW_EXPAND);
    RND8(72, KW_EXPAND);
    s[0] += a;
    s[1] += b;
    s[2] += c;
    s[3] += d;
    s[4] += e;
    s[5] += f;
    s[6] += g;
    s[7] += h;
}

void sha512_transform_portable(uint64_t state[8], const unsigned char *blocks, size_t n)
{
    while (n--) {
        sha512_compress(state, blocks);
        blocks += 128;
    }
}

/* The transform in use: portable until a variant set installs another (sha512_variants.c). */
sha512_transform_fn sha512_transform_impl = sha512_transform_portable;

void sha512_init(sha512_ctx *ctx)
{
    memcpy(ctx->s, sha512_iv, sizeof ctx->s);
    ctx->bytes = 0;
}

static void sha512_blocks(void *state, const unsigned char *p, size_t n)
{
    sha512_transform_impl(state, p, n);
}

void sha512_write(sha512_ctx *ctx, const void *data, size_t len)
{
    md_write(ctx->s, ctx->buf, &ctx->bytes, 128, sha512_blocks, data, len);
}

/* The length field is 128 bits; md_pad fills its high half from the top three
 * bits of the 64-bit byte count. */
void sha512_finalize(sha512_ctx *ctx, unsigned char *out)
{
    md_pad(ctx->s, ctx->buf, ctx->bytes, 128, 16, 1, sha512_blocks);
    for (int i = 0; i < 8; i++)
        store64_be(out + 8 * i, ctx->s[i]);
}

void sha512_hash(unsigned char *out, const void *data, size_t len)
{
    sha512_ctx ctx;
    sha512_init(&ctx);
    sha512_write(&ctx, data, len);
    sha512_finalize(&ctx, out);
}
