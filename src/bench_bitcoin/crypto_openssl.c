/* OpenSSL doing the hash benchmarks' work (crypto_openssl.h), for -compare.
 *
 * Buffers are static (zeroed before each run) so that nothing here allocates. libcrypto calls
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

static void run_big(nb_bench *bench, void (*op)(void *))
{
    memset(big_in, 0, sizeof big_in);
    nb_run(nb_unit(nb_batch(bench, BUFFER_SIZE), "byte"), op, big_out);
}

void bench_openssl_sha1(nb_bench *bench)
{
    run_big(bench, sha1_op);
}

void bench_openssl_sha256(nb_bench *bench)
{
    run_big(bench, sha256_op);
}

void bench_openssl_sha512(nb_bench *bench)
{
    run_big(bench, sha512_op);
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

void bench_openssl_sha256_32b(nb_bench *bench)
{
    unsigned char buf[32];
    memset(buf, 0, sizeof buf);
    nb_run(nb_unit(nb_batch(bench, sizeof buf), "byte"), sha256_32b_op, buf);
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

void bench_openssl_sha256d64_1024(nb_bench *bench)
{
    memset(d64_buf, 0, sizeof d64_buf);
    nb_run(nb_unit(nb_batch(bench, sizeof d64_buf), "byte"), sha256_d64_op, d64_buf);
}

#else
/* ISO C forbids an empty translation unit. */
typedef int bench_openssl_unused;
#endif
