/* Hash benchmarks (Bitcoin Core's bench/crypto_hash.cpp): SHA-1, SHA-256, SHA3-256, SHA-512,
 * RIPEMD-160 over 1,000,000 zero bytes, short chained SHA-256, double SHA-256 of 64-byte
 * blocks, and SipHash of a 256-bit value.
 *
 * Each op is a static function in this file so that nb_run (inline) inlines it into the
 * measured loop; the op's result always lands in memory the op's argument points to, which
 * the compiler cannot prove dead.
 *
 * bench_compare_registry, at the end, lists the ones -compare runs per implementation, with
 * their OpenSSL counterparts (crypto_openssl.c): for each, a provider that sets up the same
 * state and hands over the same op, in a loop of n iterations (BENCH_OP_LOOP). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/bench.h"
#include "crypto/dispatch.h"
#include "crypto/ripemd160.h"
#include "crypto/sha1.h"
#include "crypto/sha256.h"
#include "crypto/sha3.h"
#include "crypto/sha512.h"
#include "crypto/siphash.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

#include "bench_bitcoin/crypto_openssl.h"

#define BUFFER_SIZE 1000000
#define D64_BLOCKS 1024

/* Input and output of the one-megabyte hash benchmarks. */
typedef struct {
    unsigned char *in;   /* BUFFER_SIZE zero bytes */
    unsigned char out[64];
} big_hash;

static unsigned char *zero_buffer(const char *name, size_t size)
{
    unsigned char *p = bb_malloc(size);
    if (!p)
        bench_out_of_memory(name);
    memset(p, 0, size);
    return p;
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

static void run_big_hash(nb_bench *bench, const char *name, void (*op)(void *))
{
    big_hash h;
    h.in = zero_buffer(name, BUFFER_SIZE);
    nb_run(nb_unit(nb_batch(bench, BUFFER_SIZE), "byte"), op, &h);
    bb_free(h.in);
}

/* Here op may be an indirect call: one call per megabyte hashed costs nothing measurable. */
void RIPEMD160(nb_bench *bench)
{
    run_big_hash(bench, "RIPEMD160", ripemd160_op);
}

void SHA1(nb_bench *bench)
{
    run_big_hash(bench, "SHA1", sha1_op);
}

void SHA256(nb_bench *bench)
{
    run_big_hash(bench, "SHA256", sha256_op);
}

void SHA3_256_1M(nb_bench *bench)
{
    run_big_hash(bench, "SHA3_256_1M", sha3_256_op);
}

void SHA512(nb_bench *bench)
{
    run_big_hash(bench, "SHA512", sha512_op);
}

/* Each hash is written over its own input, so every iteration depends on the last. */
static void sha256_32b_op(void *arg)
{
    unsigned char *buf = arg;
    sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_write(&ctx, buf, 32);
    sha256_finalize(&ctx, buf);
}

void SHA256_32b(nb_bench *bench)
{
    unsigned char buf[32];
    memset(buf, 0, sizeof buf);
    nb_run(nb_unit(nb_batch(bench, sizeof buf), "byte"), sha256_32b_op, buf);
}

/* In place: the 1024 digests overwrite the first half of the input. */
static void sha256_d64_op(void *arg)
{
    unsigned char *buf = arg;
    sha256_d64(buf, buf, D64_BLOCKS);
}

void SHA256D64_1024(nb_bench *bench)
{
    unsigned char *buf = zero_buffer("SHA256D64_1024", 64 * D64_BLOCKS);
    nb_run(nb_unit(nb_batch(bench, 64 * D64_BLOCKS), "byte"), sha256_d64_op, buf);
    bb_free(buf);
}

/* ---- Core's per-implementation SHA-256 rows --------------------------------------------
 *
 * SHA256_<IMPL>, SHA256_32b_<IMPL> and SHA256D64_1024_<IMPL> run the plain row's work with
 * SHA-256 pinned to one implementation, then put the automatic choice back. Core's suffixes
 * name its implementation sets; here each pins the variant of that instruction set
 * (crypto/dispatch.h): STANDARD "standard", SSE4 "sse41" (sha256_d64 4 ways; no SSE4
 * transform exists here, so long messages run the portable one), AVX2 "avx2", SHANI "shani".
 * The rows other than STANDARD are registered with an availability check, so a CPU that
 * lacks the instruction set neither lists nor runs them. */

static int sha256_offers(const char *impl)
{
    const char *names[16];
    size_t n = sha256_impl_list(names, sizeof names / sizeof names[0]), i;
    for (i = 0; i < n && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i], impl) == 0)
            return 1;
    return 0;
}

int bench_has_sha256_sse4(void) { return sha256_offers("sse41"); }
int bench_has_sha256_avx2(void) { return sha256_offers("avx2"); }
int bench_has_sha256_shani(void) { return sha256_offers("shani"); }

static void run_pinned(nb_bench *bench, const char *name, const char *impl,
                       void (*fn)(nb_bench *bench))
{
    if (sha256_impl_force(impl) != 0) {
        /* the availability check passed, so only a broken build gets here */
        bench_error("%s: cannot switch SHA-256 to '%s'", name, impl);
        exit(1);
    }
    fn(bench);
    sha256_impl_force("auto");
}

/* void row_suffix(nb_bench *bench): row's work on implementation impl. */
#define PINNED(row, suffix, impl) \
    void row##_##suffix(nb_bench *bench) \
    { \
        run_pinned(bench, #row "_" #suffix, impl, row); \
    }

PINNED(SHA256, STANDARD, "standard")
PINNED(SHA256, SSE4, "sse41")
PINNED(SHA256, AVX2, "avx2")
PINNED(SHA256, SHANI, "shani")
PINNED(SHA256_32b, STANDARD, "standard")
PINNED(SHA256_32b, SSE4, "sse41")
PINNED(SHA256_32b, AVX2, "avx2")
PINNED(SHA256_32b, SHANI, "shani")
PINNED(SHA256D64_1024, STANDARD, "standard")
PINNED(SHA256D64_1024, SSE4, "sse41")
PINNED(SHA256D64_1024, AVX2, "avx2")
PINNED(SHA256D64_1024, SHANI, "shani")

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

void SipHash_32b(nb_bench *bench)
{
    siphash_state s;
    memset(&s, 0, sizeof s);
    nb_run(bench, siphash_32b_op, &s);
}

/* ---- -compare: the same ops, for nb_compare ---- */

static void free_big_hash(void *arg)
{
    big_hash *h = arg;
    bb_free(h->in);
    bb_free(h);
}

/* A big_hash with its zero input, as run_big_hash sets it up; 0 or -1. */
static int provide_big(bench_op *op, void (*op_n)(void *, uint64_t))
{
    big_hash *h = bb_malloc(sizeof *h);
    if (!h || !(h->in = bb_malloc(BUFFER_SIZE))) {
        bb_free(h);
        return -1;
    }
    memset(h->in, 0, BUFFER_SIZE);
    op->op_n = op_n;
    op->arg = h;
    op->batch = BUFFER_SIZE;
    op->unit = "byte";
    op->release = free_big_hash;
    return 0;
}

BENCH_OP_LOOP(sha1_loop, sha1_op)
BENCH_OP_LOOP(sha256_loop, sha256_op)
BENCH_OP_LOOP(sha512_loop, sha512_op)
BENCH_OP_LOOP(sha256_32b_loop, sha256_32b_op)
BENCH_OP_LOOP(sha256_d64_loop, sha256_d64_op)
BENCH_OP_LOOP(sha3_256_loop, sha3_256_op)

static int provide_sha1(bench_op *op)
{
    return provide_big(op, sha1_loop);
}

static int provide_sha256(bench_op *op)
{
    return provide_big(op, sha256_loop);
}

static int provide_sha512(bench_op *op)
{
    return provide_big(op, sha512_loop);
}

static int provide_sha3_256(bench_op *op)
{
    return provide_big(op, sha3_256_loop);
}

size_t bench_sha3_impl_list(const char **names, size_t cap)
{
    if (cap > 0)
        names[0] = "standard";
    return 1;
}

int bench_sha3_impl_force(const char *name)
{
    return name && (strcmp(name, "standard") == 0 || strcmp(name, "auto") == 0) ? 0 : -1;
}

const char *bench_sha3_impl_current(void)
{
    return "standard";
}

static int provide_sha256_32b(bench_op *op)
{
    unsigned char *buf = bb_malloc(32);
    if (!buf)
        return -1;
    memset(buf, 0, 32);
    op->op_n = sha256_32b_loop;
    op->arg = buf;
    op->batch = 32;
    op->unit = "byte";
    op->release = bb_free;
    return 0;
}

static int provide_sha256_d64(bench_op *op)
{
    unsigned char *buf = bb_malloc(64 * D64_BLOCKS);
    if (!buf)
        return -1;
    memset(buf, 0, 64 * D64_BLOCKS);
    op->op_n = sha256_d64_loop;
    op->arg = buf;
    op->batch = 64 * D64_BLOCKS;
    op->unit = "byte";
    op->release = bb_free;
    return 0;
}

#ifdef HAVE_OPENSSL
#define OPENSSL_FN(fn) fn
#else
#define OPENSSL_FN(fn) NULL
#endif

static const bench_compare_entry compare_registry[] = {
    {"CHACHA20_1MB", BENCH_HASH_CHACHA20, bench_provide_chacha20_1mb,
     OPENSSL_FN(bench_openssl_chacha20_1mb)},
    {"SHA1", BENCH_HASH_SHA1, provide_sha1, OPENSSL_FN(bench_openssl_sha1)},
    {"SHA256", BENCH_HASH_SHA256, provide_sha256, OPENSSL_FN(bench_openssl_sha256)},
    {"SHA256D64_1024", BENCH_HASH_SHA256, provide_sha256_d64,
     OPENSSL_FN(bench_openssl_sha256d64_1024)},
    {"SHA256_32b", BENCH_HASH_SHA256, provide_sha256_32b, OPENSSL_FN(bench_openssl_sha256_32b)},
    {"SHA3_256_1M", BENCH_HASH_SHA3, provide_sha3_256, OPENSSL_FN(bench_openssl_sha3_256_1m)},
    {"SHA512", BENCH_HASH_SHA512, provide_sha512, OPENSSL_FN(bench_openssl_sha512)},
};

const bench_compare_entry *bench_compare_registry(size_t *count)
{
    *count = sizeof compare_registry / sizeof compare_registry[0];
    return compare_registry;
}
