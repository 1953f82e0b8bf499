/* The hash benchmarks' work done by OpenSSL, for bench_bitcoin -compare's [openssl] rows.
 *
 * A separate header and file because OpenSSL's <openssl/sha.h> declares functions SHA1,
 * SHA256 and SHA512, the names of our benchmarks in bench.h. Each function measures exactly
 * what the benchmark of the same name does (see crypto_hash.c), through OpenSSL's low-level
 * SHA*_Init/Update/Final API: each is a bench_op_provider (bench.h) for -compare. Defined
 * only when built with OpenSSL (HAVE_OPENSSL). */
#ifndef BENCH_BITCOIN_CRYPTO_OPENSSL_H
#define BENCH_BITCOIN_CRYPTO_OPENSSL_H

#include "bench_bitcoin/bench_op.h"

int bench_openssl_sha1(bench_op *op);               /* SHA1: 1,000,000 zero bytes */
int bench_openssl_sha256(bench_op *op);            /* SHA256 */
int bench_openssl_sha512(bench_op *op);            /* SHA512 */
int bench_openssl_sha256_32b(bench_op *op);        /* SHA256_32b: chained 32-byte hashes */
int bench_openssl_sha256d64_1024(bench_op *op);    /* SHA256D64_1024, one input at a time */
int bench_openssl_sha3_256_1m(bench_op *op);       /* SHA3_256_1M, through EVP_Digest */
/* CHACHA20_1MB through EVP_chacha20 (defined in chacha.c, beside the benchmark). */
int bench_openssl_chacha20_1mb(bench_op *op);

#endif
