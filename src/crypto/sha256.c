/* SHA-256, written from FIPS 180-4 section 6.2.
 *
 * The compression function is fully unrolled: the eight working variables
 * never move, each round just renames them (RND8 rotates the argument list),
 * and the message schedule lives in a 16-word ring computed as the rounds
 * consume it. sha256_d64_portable exploits what is fixed in a double hash of
 * 64 bytes: the first hash's second block is pure padding, so its message
 * schedule plus round constants is one precomputed table, and the second
 * hash's block is the 32-byte digest plus constant padding words, which the
 * compiler folds into the schedule. */
#include "crypto/sha256.h"

#include <string.h>

#include "crypto/common.h"
#include "crypto/impl.h"

const uint32_t sha256_iv[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

const uint32_t sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* K[t] + W[t] for the block that pads a 64-byte message: W[0] = 0x80000000,
 * W[15] = 512 (the length in bits), zeros between, expanded per FIPS 180-4.
 * Also the accelerated sha256_d64 kernels' second compression. */
const uint32_t sha256_pad64_kw[64] = {
    0xc28a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf374,
    0x649b69c1, 0xf0fe4786, 0x0fe1edc6, 0x240cf254, 0x4fe9346f, 0x6cc984be, 0x61b9411e, 0x16f988fa,
    0xf2c65152, 0xa88e5a6d, 0xb019fc65, 0xb9d99ec7, 0x9a1231c3, 0xe70eeaa0, 0xfdb1232b, 0xc7353eb0,
    0x3069bad5, 0xcb976d5f, 0x5a0f118f, 0xdc1eeefd, 0x0a35b689, 0xde0b7a04, 0x58f4ca9d, 0xe15d5b16,
    0x007f3e86, 0x37088980, 0xa507ea32, 0x6fab9537, 0x17406110, 0x0d8cd6f1, 0xcdaa3b6d, 0xc0bbbe37,
    0x83613bda, 0xdb48a363, 0x0b02e931, 0x6fd15ca7, 0x521afaca, 0x31338431, 0x6ed41a95, 0x6d437890,
    0xc39c91f2, 0x9eccabbd, 0xb5c9a0e6, 0x532fb63c, 0xd2c741c6, 0x07237ea3, 0xa4954b68, 0x4c191d76,
};

#define BSIG0(x) (rotr32(x, 2) ^ rotr32(x, 13) ^ rotr32(x, 22))
#define BSIG1(x) (rotr32(x, 6) ^ rotr32(x, 11) ^ rotr32(x, 25))
/* The schedule's sigmas nest their rotations (ror7(x ^ ror11(x)) is
 * ror7(x) ^ ror18(x)), which saves a register copy each; the round's sigmas
 * keep the flat form, whose three rotations run in parallel on the critical
 * path. */
#define SSIG0(x) (rotr32((x) ^ rotr32(x, 11), 7) ^ ((x) >> 3))
#define SSIG1(x) (rotr32((x) ^ rotr32(x, 2), 17) ^ ((x) >> 10))
/* Ch with one operation fewer than the textbook form; Maj is in SHA2_RND. */
#define CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))

#define RND8(t, KW) SHA2_RND8(uint32_t, t, KW)

/* 64 rounds: KW_HEAD gives K[t] + W[t] for t < 16, KW_TAIL for the rest. */
#define RND64(KW_HEAD, KW_TAIL) \
    RND8(0, KW_HEAD); RND8(8, KW_HEAD); \
    RND8(16, KW_TAIL); RND8(24, KW_TAIL); RND8(32, KW_TAIL); RND8(40, KW_TAIL); \
    RND8(48, KW_TAIL); RND8(56, KW_TAIL)

/* Message schedule: W[t] in the ring w[t % 16], from W[t-16], W[t-15],
 * W[t-7] and W[t-2]. */
#define KW_LOAD(t) (sha256_k[t] + (w[t] = load32_be(p + 4 * (t))))
#define KW_WORD(t) (sha256_k[t] + w[t])
#define KW_EXPAND(t) (sha256_k[t] + (w[(t) & 15] += SSIG1(w[((t) + 14) & 15]) \
                                      + w[((t) + 9) & 15] + SSIG0(w[((t) + 1) & 15])))
#define KW_PAD64(t) sha256_pad64_kw[t]

#define LOAD_STATE(s) \
    uint32_t a = (s)[0], b = (s)[1], c = (s)[2], d = (s)[3]; \
    uint32_t e = (s)[4], f = (s)[5], g = (s)[6], h = (s)[7]; \
    uint32_t x, y = b ^ c
#define ADD_STATE(s) do { \
        (s)[0] += a; (s)[1] += b; (s)[2] += c; (s)[3] += d; \
        (s)[4] += e; (s)[5] += f; (s)[6] += g; (s)[7] += h; \
    } while (0)

static inline void sha256_compress(uint32_t s[8], const unsigned char *p)
{
    uint32_t w[16];
    LOAD_STATE(s);
    RND64(KW_LOAD, KW_EXPAND);
    ADD_STATE(s);
}

void sha256_transform_portable(uint32_t state[8], const unsigned char *blocks, size_t n)
{
    while (n--) {
        sha256_compress(state, blocks);
        blocks += 64;
    }
}

/* sha256_d64_portable uses nested rotations in the round sigmas too
 * (ror2(x ^ ror11(x ^ ror9(x))) is ror2(x) ^ ror13(x) ^ ror22(x)): a copy
 * fewer each but a longer dependency chain. In the plain compression that
 * measured slightly slower here; across the three compressions of a double
 * hash, about 10% faster. */
#undef BSIG0
#undef BSIG1
#define BSIG0(x) rotr32((x) ^ rotr32((x) ^ rotr32(x, 9), 11), 2)
#define BSIG1(x) rotr32((x) ^ rotr32((x) ^ rotr32(x, 14), 5), 6)

void sha256_d64_portable(unsigned char *out, const unsigned char *in, size_t blocks)
{
    for (; blocks; blocks--, in += 64, out += 32) {
        uint32_t mid[8];
        memcpy(mid, sha256_iv, sizeof mid);
        /* Reads the whole input block before anything is written: in place
         * works because out trails in. */
        {
            const unsigned char *p = in;
            uint32_t w[16];
            LOAD_STATE(mid);
            RND64(KW_LOAD, KW_EXPAND);
            ADD_STATE(mid);
        }
        {
            LOAD_STATE(mid);
            RND64(KW_PAD64, KW_PAD64);
            ADD_STATE(mid);
        }
        {
            uint32_t w[16] = {
                mid[0], mid[1], mid[2], mid[3], mid[4], mid[5], mid[6], mid[7],
                0x80000000, 0, 0, 0, 0, 0, 0, 256,
            };
            LOAD_STATE(sha256_iv);
            RND64(KW_WORD, KW_EXPAND);
            store32_be(out, sha256_iv[0] + a);
            store32_be(out + 4, sha256_iv[1] + b);
            store32_be(out + 8, sha256_iv[2] + c);
            store32_be(out + 12, sha256_iv[3] + d);
            store32_be(out + 16, sha256_iv[4] + e);
            store32_be(out + 20, sha256_iv[5] + f);
            store32_be(out + 24, sha256_iv[6] + g);
            store32_be(out + 28, sha256_iv[7] + h);
        }
    }
}

/* What the public functions call: portable until a variant set installs others
 * (sha256_variants.c). */
sha256_transform_fn sha256_transform_impl = sha256_transform_portable;
sha256_finish_fn sha256_finish_impl = sha256_finish_portable;
sha256_d64_fn sha256_d64_impl = sha256_d64_portable;

void sha256_init(sha256_ctx *ctx)
{
    memcpy(ctx->s, sha256_iv, sizeof ctx->s);
    ctx->bytes = 0;
}

static void sha256_blocks(void *state, const unsigned char *p, size_t n)
{
    sha256_transform_impl(state, p, n);
}

void sha256_write(sha256_ctx *ctx, const void *data, size_t len)
{
    md_write(ctx->s, ctx->buf, &ctx->bytes, 64, sha256_blocks, data, len);
}

static void sha256_blocks_portable(void *state, const unsigned char *p, size_t n)
{
    sha256_transform_portable(state, p, n);
}

void sha256_finish_portable(uint32_t state[8], unsigned char buf[64], uint64_t bytes,
                            unsigned char *out)
{
    md_finish_be32(state, 8, buf, bytes, sha256_blocks_portable, out);
}

/* Through a pointer of its own: a variant may pad and finish in registers
 * (sha256_shani.c), which for short messages saves a good part of the time. */
void sha256_finalize(sha256_ctx *ctx, unsigned char *out)
{
    sha256_finish_impl(ctx->s, ctx->buf, ctx->bytes, out);
}

void sha256_hash(unsigned char *out, const void *data, size_t len)
{
    sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_write(&ctx, data, len);
    sha256_finalize(&ctx, out);
}

void sha256_d64(unsigned char *out, const unsigned char *in, size_t blocks)
{
    sha256_d64_impl(out, in, blocks);
}
