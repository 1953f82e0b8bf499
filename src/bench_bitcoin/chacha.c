/* ChaCha20 and FastRandom benchmarks: Bitcoin Core's bench/chacha20.cpp (CHACHA20_1MB) and the
 * FastRandom rows of bench/crypto_hash.cpp, as Core had them in 2020.
 *
 * Each op is a static function in this file so that nb_run (inline) inlines it into the
 * measured loop, and with it the inline draw of crypto/fastrandom.h: only a refill of the
 * generator's 64-byte buffer is a call, as in Core.
 *
 * bench_openssl_chacha20_1mb (crypto_openssl.h), -compare's [openssl] row for CHACHA20_1MB,
 * is here too: <openssl/evp.h>, unlike <openssl/sha.h>, declares nothing named as our
 * benchmarks are. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "bench_bitcoin/bench.h"
#include "crypto/chacha20.h"
#include "crypto/fastrandom.h"
#include "util/alloc.h"

#ifdef HAVE_OPENSSL
#include <openssl/evp.h>

#include "bench_bitcoin/crypto_openssl.h"
#endif

/* Core's BUFFER_SIZE_LARGE: 1 MiB. */
#define CHACHA20_BUFFER_SIZE (1024 * 1024)

static void fastrandom_32bit_op(void *arg)
{
    uint32_t v = fastrandom_rand32(arg);
    nb_do_not_optimize_away(v);
}

static void fastrandom_1bit_op(void *arg)
{
    int v = fastrandom_randbool(arg);
    nb_do_not_optimize_away(v);
}

/* One rand32 a iteration from Core's FastRandomContext(true): a new 64-bit word every other
 * iteration, a new 64-byte keystream block every 16. */
void FastRandom_32bit(nb_bench *bench)
{
    fastrandom_ctx rng;
    fastrandom_init_deterministic(&rng);
    nb_run(bench, fastrandom_32bit_op, &rng);
}

/* One randbool a iteration: a new 64-bit word every 64 iterations, a new block every 512. */
void FastRandom_1bit(nb_bench *bench)
{
    fastrandom_ctx rng;
    fastrandom_init_deterministic(&rng);
    nb_run(bench, fastrandom_1bit_op, &rng);
}

typedef struct {
    chacha20_ctx ctx;
    unsigned char *in, *out;
#ifdef HAVE_OPENSSL
    EVP_CIPHER_CTX *ossl;
#endif
} chacha20_buffers;

static void chacha20_buffers_new(chacha20_buffers *b, const char *name)
{
    b->in = bb_malloc(CHACHA20_BUFFER_SIZE);
    b->out = bb_malloc(CHACHA20_BUFFER_SIZE);
    if (!b->in || !b->out) {
        bb_free(b->in);
        bb_free(b->out);
        bench_out_of_memory(name);
    }
    memset(b->in, 0, CHACHA20_BUFFER_SIZE);
    memset(b->out, 0, CHACHA20_BUFFER_SIZE);
}

static void chacha20_buffers_free(chacha20_buffers *b)
{
    bb_free(b->in);
    bb_free(b->out);
}

static void chacha20_1mb_op(void *arg)
{
    chacha20_buffers *b = arg;
    chacha20_crypt(&b->ctx, b->in, b->out, CHACHA20_BUFFER_SIZE);
}

/* Core's CHACHA20_1MB: 1 MiB of zeros XORed with the keystream of the all-zero key, IV 0,
 * the stream going on from one iteration to the next. */
void CHACHA20_1MB(nb_bench *bench)
{
    static const unsigned char key[32];
    chacha20_buffers b;
    chacha20_buffers_new(&b, "CHACHA20_1MB");
    chacha20_set_key(&b.ctx, key);
    chacha20_set_iv(&b.ctx, 0);
    chacha20_seek(&b.ctx, 0);
    nb_run(nb_unit(nb_batch(bench, CHACHA20_BUFFER_SIZE), "byte"), chacha20_1mb_op, &b);
    chacha20_buffers_free(&b);
}

/* ---- -compare: the same op (and OpenSSL's) as bench_op providers (bench_op.h) ---- */

BENCH_OP_LOOP(chacha20_1mb_loop, chacha20_1mb_op)

static void chacha20_release(void *arg)
{
    chacha20_buffers *b = arg;
#ifdef HAVE_OPENSSL
    EVP_CIPHER_CTX_free(b->ossl);
#endif
    chacha20_buffers_free(b);
    bb_free(b);
}

/* Buffers as CHACHA20_1MB sets them up, and the key, IV and position; 0 or -1. */
static int chacha20_provide(bench_op *op, void (*op_n)(void *, uint64_t))
{
    static const unsigned char key[32];
    chacha20_buffers *b = bb_malloc(sizeof *b);
    if (!b)
        return -1;
    memset(b, 0, sizeof *b);
    b->in = bb_malloc(CHACHA20_BUFFER_SIZE);
    b->out = bb_malloc(CHACHA20_BUFFER_SIZE);
    if (!b->in || !b->out) {
        chacha20_release(b);
        return -1;
    }
    memset(b->in, 0, CHACHA20_BUFFER_SIZE);
    memset(b->out, 0, CHACHA20_BUFFER_SIZE);
    chacha20_set_key(&b->ctx, key);
    chacha20_set_iv(&b->ctx, 0);
    chacha20_seek(&b->ctx, 0);
    op->op_n = op_n;
    op->arg = b;
    op->batch = CHACHA20_BUFFER_SIZE;
    op->unit = "byte";
    op->release = chacha20_release;
    return 0;
}

int bench_provide_chacha20_1mb(bench_op *op)
{
    return chacha20_provide(op, chacha20_1mb_loop);
}

#ifdef HAVE_OPENSSL
static void openssl_chacha20_1mb_op(void *arg)
{
    chacha20_buffers *b = arg;
    int outl;
    EVP_EncryptUpdate(b->ossl, b->out, &outl, b->in, CHACHA20_BUFFER_SIZE);
}

BENCH_OP_LOOP(openssl_chacha20_1mb_loop, openssl_chacha20_1mb_op)

/* The same through EVP_chacha20: its 16-byte IV all zero is our block 0 and IV 0
 * (doc/crypto.md), one context going on from iteration to iteration. */
int bench_openssl_chacha20_1mb(bench_op *op)
{
    static const unsigned char key[32], iv[16];
    chacha20_buffers *b;
    if (chacha20_provide(op, openssl_chacha20_1mb_loop) != 0)
        return -1;
    b = op->arg;
    b->ossl = EVP_CIPHER_CTX_new();
    if (b->ossl == NULL || EVP_EncryptInit_ex(b->ossl, EVP_chacha20(), NULL, key, iv) != 1) {
        chacha20_release(b);
        return -1;
    }
    return 0;
}
#endif
