/* Hash benchmarks (Bitcoin Core's bench/crypto_hash.cpp): SHA-1, SHA-256, SHA3-256, SHA-512,
 * RIPEMD-160 over 1,000,000 zero bytes, short chained SHA-256, double SHA-256 of 64-byte
 * blocks, and SipHash of a 256-bit value; and Core's SHA256_<IMPL> rows, the SHA-256 ones
 * pinned on one implementation (bench.h: pins).
 *
 * Each op is a static function in this file that NB_OP_N inlines into the measured loop; the
 * op's result always lands in memory the op's argument points to, which the compiler cannot
 * prove dead. The OpenSSL counterparts (-compare's [openssl] rows) are in crypto_openssl.c. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/bench.h"
#include "bench_bitcoin/crypto_openssl.h"
#include "crypto/ripemd160.h"
#include "crypto/sha1.h"
#include "crypto/sha256.h"
#include "crypto/sha3.h"
#include "crypto/sha512.h"
#include "crypto/siphash.h"
#include "util/alloc.h"

#include <string.h>

#define BUFFER_SIZE 1000000
#define D64_BLOCKS 1024

/* Input and output of the one-megabyte hash benchmarks. */
typedef struct {
    unsigned char *in;   /* BUFFER_SIZE zero bytes */
    unsigned char out[64];
} big_hash;

static int big_hash_setup(void *state, double n)
{
    big_hash *h = state;
    (void)n;
    if ((h->in = bb_malloc(BUFFER_SIZE)) == NULL)
        return -1;
    memset(h->in, 0, BUFFER_SIZE);
    return 0;
}

static void big_hash_teardown(void *state)
{
    big_hash *h = state;
    bb_free(h->in);
}

static void ripemd160_op(void *arg)
{
    big_hash *h = arg;
    ripemd160_ctx ctx;
    ripemd160_init(&ctx);
    ripemd160_write(&ctx, h->in, BUFFER_SIZE);
    ripemd160_finalize(&ctx, h->out);
}

static void sha1_op(void *arg)
{
    big_hash *h = arg;
    sha1_ctx ctx;
    sha1_init(&ctx);
    sha1_write(&ctx, h->in, BUFFER_SIZE);
    sha1_finalize(&ctx, h->out);
}

static void sha256_op(void *arg)
{
    big_hash *h = arg;
    sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_write(&ctx, h->in, BUFFER_SIZE);
    sha256_finalize(&ctx, h->out);
}

static void sha512_op(void *arg)
{
    big_hash *h = arg;
    sha512_ctx ctx;
    sha512_init(&ctx);
    sha512_write(&ctx, h->in, BUFFER_SIZE);
    sha512_finalize(&ctx, h->out);
}

static void sha3_256_op(void *arg)
{
    big_hash *h = arg;
    sha3_256_ctx ctx;
    sha3_256_init(&ctx);
    sha3_256_write(&ctx, h->in, BUFFER_SIZE);
    sha3_256_finalize(&ctx, h->out);
}

NB_OP_N(ripemd160_n, ripemd160_op)
NB_OP_N(sha1_n, sha1_op)
NB_OP_N(sha256_n, sha256_op)
NB_OP_N(sha512_n, sha512_op)
NB_OP_N(sha3_256_n, sha3_256_op)

/* Each hash is written over its own input, so every iteration depends on the last. The
 * state is the 32 bytes. */
static void sha256_32b_op(void *arg)
{
    unsigned char *buf = arg;
    sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_write(&ctx, buf, 32);
    sha256_finalize(&ctx, buf);
}

NB_OP_N(sha256_32b_n, sha256_32b_op)

/* In place: the 1024 digests overwrite the first half of the input, the state. */
static void sha256_d64_op(void *arg)
{
    unsigned char *buf = arg;
    sha256_d64(buf, buf, D64_BLOCKS);
}

NB_OP_N(sha256_d64_n, sha256_d64_op)

typedef struct {
    unsigned char x[32];
    uint64_t k1;
} siphash_state;

/* x's first 8 bytes become the hash of x under a key that changes every call. */
static void siphash_32b_op(void *arg)
{
    siphash_state *s = arg;
    uint64_t h = siphash_uint256(0, ++s->k1, s->x);
    memcpy(s->x, &h, sizeof h);
}

NB_OP_N(siphash_32b_n, siphash_32b_op)

/* Core's SHA256_<IMPL>, SHA256_32b_<IMPL> and SHA256D64_1024_<IMPL>: the plain row's work with
 * SHA-256 pinned on one implementation. Core's suffixes name its implementation sets; here
 * each pins the variant of that instruction set (crypto/dispatch.h): STANDARD "standard",
 * SSE4 "sse41" (sha256_d64 4 ways; no SSE4 transform exists here, so long messages run the
 * portable one), AVX2 "avx2", SHANI "shani". A CPU that lacks the instruction set neither
 * lists nor runs the row. */
static const bench_pin sha256_pins[] = {
    {"STANDARD", "standard"},
    {"SSE4", "sse41"},
    {"AVX2", "avx2"},
    {"SHANI", "shani"},
    {NULL, NULL},
};

/* The fields of a one-megabyte hash row. */
#define BIG_HASH(op) \
    .state_size = sizeof(big_hash), .setup = big_hash_setup, .op_n = op, \
    .teardown = big_hash_teardown, .batch = BUFFER_SIZE, .unit = "byte"

const bench_def bench_defs_crypto_hash[] = {
    {.name = "RIPEMD160", BIG_HASH(ripemd160_n)},
    {.name = "SHA1", BIG_HASH(sha1_n), .family = "sha1", .openssl = BENCH_OPENSSL(sha1)},
    {.name = "SHA256", BIG_HASH(sha256_n), .family = "sha256", .pins = sha256_pins,
     .openssl = BENCH_OPENSSL(sha256)},
    {.name = "SHA3_256_1M", BIG_HASH(sha3_256_n), .family = "sha3_256",
     .openssl = BENCH_OPENSSL(sha3_256_1m)},
    {.name = "SHA512", BIG_HASH(sha512_n), .family = "sha512",
     .openssl = BENCH_OPENSSL(sha512)},
    {.name = "SHA256_32b", .state_size = 32, .op_n = sha256_32b_n, .batch = 32,
     .unit = "byte", .family = "sha256", .pins = sha256_pins,
     .openssl = BENCH_OPENSSL(sha256_32b)},
    {.name = "SHA256D64_1024", .state_size = 64 * D64_BLOCKS, .op_n = sha256_d64_n,
     .batch = 64 * D64_BLOCKS, .unit = "byte", .family = "sha256", .pins = sha256_pins,
     .openssl = BENCH_OPENSSL(sha256d64_1024)},
    {.name = "SipHash_32b", .state_size = sizeof(siphash_state), .op_n = siphash_32b_n},
    BENCH_DEFS_END
};
