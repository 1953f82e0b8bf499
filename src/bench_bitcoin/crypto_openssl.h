/* The benchmarks' work done by OpenSSL: the counterparts (bench.h: a bench_def's .openssl)
 * that -compare measures as the [openssl] rows. Each does exactly what the benchmark whose
 * .openssl names it does (crypto_hash.c, chacha.c), through OpenSSL: the hashes through the
 * low-level SHA*_Init/Update/Final API. Defined only when built with OpenSSL (HAVE_OPENSSL);
 * BENCH_OPENSSL(name) in bench.h is NULL otherwise. */
#ifndef BENCH_BITCOIN_CRYPTO_OPENSSL_H
#define BENCH_BITCOIN_CRYPTO_OPENSSL_H

#include "bench_bitcoin/bench.h"

extern const bench_def bench_openssl_sha1;            /* SHA1: 1,000,000 zero bytes */
extern const bench_def bench_openssl_sha256;          /* SHA256 */
extern const bench_def bench_openssl_sha512;          /* SHA512 */
extern const bench_def bench_openssl_sha256_32b;      /* SHA256_32b: chained 32-byte hashes */
extern const bench_def bench_openssl_sha256d64_1024;  /* SHA256D64_1024, one input at a time */
extern const bench_def bench_openssl_sha3_256_1m;     /* SHA3_256_1M, through EVP_Digest */
extern const bench_def bench_openssl_chacha20_1mb;    /* CHACHA20_1MB through EVP_chacha20
                                                       * (chacha.c, beside the benchmark) */
extern const bench_def bench_openssl_chacha20_64;     /* CHACHA20_64BYTES (chacha.c) */
extern const bench_def bench_openssl_chacha20_256;    /* CHACHA20_256BYTES (chacha.c) */
/* FSCHACHA20POLY1305_* through EVP_chacha20_poly1305, POLY1305_* through EVP_MAC (OpenSSL 3
 * only) (aead.c) */
extern const bench_def bench_openssl_fschacha20poly1305_64;
extern const bench_def bench_openssl_fschacha20poly1305_256;
extern const bench_def bench_openssl_fschacha20poly1305_1mb;
extern const bench_def bench_openssl_poly1305_64;
extern const bench_def bench_openssl_poly1305_256;
extern const bench_def bench_openssl_poly1305_1mb;

#endif
