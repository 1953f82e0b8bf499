/* OpenSSL doing the hash benchmarks' work (crypto_openssl.h), for -compare.
 *
 * Buffers are static (zeroed by each provider: one comparison uses one provider of a kind at
 * a time) so that nothing here allocates. libcrypto calls
 * its own SHA256() and friends directly (it has no dynamic relocations for them), so our
 * benchmark functions of the same names cannot interpose on it. */
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
static unsigned char d64_buf[64 * D64_BLOCKS];

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

BENCH_OP_LOOP(sha1_loop, sha1_op)
BENCH_OP_LOOP(sha3_256_loop, sha3_256_op)
BENCH_OP_LOOP(sha256_loop, sha256_op)
BENCH_OP_LOOP(sha512_loop, sha512_op)

static int provide(bench_op *op, void (*op_n)(void *, uint64_t), unsigned char *buf,
                   size_t size)
{
    memset(buf, 0, size);
    op->op_n = op_n;
    op->arg = buf;
    op->batch = (double)size;
    op->unit = "byte";
    op->release = NULL;
    return 0;
}

int bench_openssl_sha1(bench_op *op)
{
    return provide(op, sha1_loop, big_in, sizeof big_in);
}

int bench_openssl_sha3_256_1m(bench_op *op)
{
    return provide(op, sha3_256_loop, big_in, sizeof big_in);
}

int bench_openssl_sha256(bench_op *op)
{
    return provide(op, sha256_loop, big_in, sizeof big_in);
}

int bench_openssl_sha512(bench_op *op)
{
    return provide(op, sha512_loop, big_in, sizeof big_in);
}

/* Each hash overwrites its own input, as in SHA256_32b. */
static void sha256_32b_op(void *arg)
{
    unsigned char *buf = arg;
    SHA256_CTX ctx;
    SHA256_Init(&ctx);
    SHA256_Update(&ctx, buf, 32);
    SHA256_Final(buf, &ctx);
}

static unsigned char chain_buf[32];

BENCH_OP_LOOP(sha256_32b_loop, sha256_32b_op)

int bench_openssl_sha256_32b(bench_op *op)
{
    return provide(op, sha256_32b_loop, chain_buf, sizeof chain_buf);
}

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

BENCH_OP_LOOP(sha256_d64_loop, sha256_d64_op)

int bench_openssl_sha256d64_1024(bench_op *op)
{
    return provide(op, sha256_d64_loop, d64_buf, sizeof d64_buf);
}

#else
/* ISO C forbids an empty translation unit. */
typedef int bench_openssl_unused;
#endif
