/* OpenSSL doing the hash benchmarks' work (crypto_openssl.h), for -compare.
 *
 * The one-megabyte input is static (zeroed by each setup: a comparison has one state of a
 * counterpart at a time), so that nothing here allocates a megabyte; the chained and the
 * in-place rows keep their bytes in their state, as ours do. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#ifdef HAVE_OPENSSL
/* SHA*_Init/Update/Final is OpenSSL's cheapest path for short messages (no EVP context or
 * provider lookup per hash) and what the figures in doc/crypto.md are measured against; it is
 * deprecated in 3.0, so ask for the 1.1.1 API. */
#define OPENSSL_API_COMPAT 10101

#include "bench_bitcoin/crypto_openssl.h"

#include <openssl/evp.h>
#include <openssl/sha.h>
#include <string.h>

#define BUFFER_SIZE 1000000
#define D64_BLOCKS 1024

static unsigned char big_in[BUFFER_SIZE];
static unsigned char big_out[64];

static int big_setup(void *state, double n)
{
    (void)state;
    (void)n;
    memset(big_in, 0, sizeof big_in);
    return 0;
}

static void sha1_op(void *arg)
{
    SHA_CTX ctx;
    (void)arg;
    SHA1_Init(&ctx);
    SHA1_Update(&ctx, big_in, BUFFER_SIZE);
    SHA1_Final(big_out, &ctx);
}

static void sha256_op(void *arg)
{
    SHA256_CTX ctx;
    (void)arg;
    SHA256_Init(&ctx);
    SHA256_Update(&ctx, big_in, BUFFER_SIZE);
    SHA256_Final(big_out, &ctx);
}

static void sha512_op(void *arg)
{
    SHA512_CTX ctx;
    (void)arg;
    SHA512_Init(&ctx);
    SHA512_Update(&ctx, big_in, BUFFER_SIZE);
    SHA512_Final(big_out, &ctx);
}

/* OpenSSL has no low-level SHA3 API: EVP_Digest, whose per-call set-up (a context and the
 * digest's lookup) is microseconds against the millisecond the megabyte takes. */
static void sha3_256_op(void *arg)
{
    (void)arg;
    EVP_Digest(big_in, BUFFER_SIZE, big_out, NULL, EVP_sha3_256(), NULL);
}

NB_OP_N(sha1_n, sha1_op)
NB_OP_N(sha3_256_n, sha3_256_op)
NB_OP_N(sha256_n, sha256_op)
NB_OP_N(sha512_n, sha512_op)

/* The fields of a one-megabyte counterpart. */
#define BIG(op) .setup = big_setup, .op_n = op, .batch = BUFFER_SIZE, .unit = "byte"

const bench_def bench_openssl_sha1 = {BIG(sha1_n)};
const bench_def bench_openssl_sha3_256_1m = {BIG(sha3_256_n)};
const bench_def bench_openssl_sha256 = {BIG(sha256_n)};
const bench_def bench_openssl_sha512 = {BIG(sha512_n)};

/* Each hash overwrites its own input, as in SHA256_32b. */
static void sha256_32b_op(void *arg)
{
    unsigned char *buf = arg;
    SHA256_CTX ctx;
    SHA256_Init(&ctx);
    SHA256_Update(&ctx, buf, 32);
    SHA256_Final(buf, &ctx);
}

NB_OP_N(sha256_32b_n, sha256_32b_op)

const bench_def bench_openssl_sha256_32b = {
    .state_size = 32, .op_n = sha256_32b_n, .batch = 32, .unit = "byte"};

/* OpenSSL has no multi-input double SHA-256: each 64-byte input is hashed twice, one input at
 * a time, in place as sha256_d64 does in SHA256D64_1024 (digest i lands on bytes 32i..32i+32,
 * part of an input already hashed, or of input i itself once it has been read). */
static void sha256_d64_op(void *arg)
{
    unsigned char *buf = arg;
    unsigned char mid[32];
    SHA256_CTX ctx;
    size_t i;
    for (i = 0; i < D64_BLOCKS; i++) {
        SHA256_Init(&ctx);
        SHA256_Update(&ctx, buf + 64 * i, 64);
        SHA256_Final(mid, &ctx);
        SHA256_Init(&ctx);
        SHA256_Update(&ctx, mid, sizeof mid);
        SHA256_Final(buf + 32 * i, &ctx);
    }
}

NB_OP_N(sha256_d64_n, sha256_d64_op)

const bench_def bench_openssl_sha256d64_1024 = {
    .state_size = 64 * D64_BLOCKS, .op_n = sha256_d64_n, .batch = 64 * D64_BLOCKS,
    .unit = "byte"};

#else
/* ISO C forbids an empty translation unit. */
typedef int bench_openssl_unused;
#endif
