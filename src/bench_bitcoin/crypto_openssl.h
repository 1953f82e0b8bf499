/* The hash benchmarks' work done by OpenSSL, for bench_bitcoin -compare's [openssl] rows.
 *
 * A separate header and file because OpenSSL's <openssl/sha.h> declares functions SHA1,
 * SHA256 and SHA512, the names of our benchmarks in bench.h. Each function measures exactly
 * what the benchmark of the same name does (see crypto_hash.c), through OpenSSL's low-level
 * SHA*_Init/Update/Final API, and calls nb_run once. Defined only when built with OpenSSL
 * (HAVE_OPENSSL). */
#ifndef BENCH_BITCOIN_CRYPTO_OPENSSL_H
#define BENCH_BITCOIN_CRYPTO_OPENSSL_H

#include "bench/nanobench.h"

void bench_openssl_sha1(nb_bench *bench);              /* SHA1: 1,000,000 zero bytes */
void bench_openssl_sha256(nb_bench *bench);            /* SHA256 */
void bench_openssl_sha512(nb_bench *bench);            /* SHA512 */
void bench_openssl_sha256_32b(nb_bench *bench);        /* SHA256_32b: chained 32-byte hashes */
void bench_openssl_sha256d64_1024(nb_bench *bench);    /* SHA256D64_1024, one input at a time */
/* CHACHA20_1MB through EVP_chacha20 (defined in chacha.c, beside the benchmark). */
void bench_openssl_chacha20_1mb(nb_bench *bench);

#endif
