/* ChaCha20 and FastRandom benchmarks: Bitcoin Core's bench/chacha20.cpp (CHACHA20_1MB) and the
 * FastRandom rows of bench/crypto_hash.cpp, as Core had them in 2020.
 *
 * Each op is a static function in this file that NB_OP_N inlines into the measured loop,
 * and with it the inline draw of crypto/fastrandom.h: only a refill of the generator's
 * 64-byte buffer is a call, as in Core.
 *
 * bench_openssl_chacha20_1mb (crypto_openssl.h), -compare's [openssl] row for CHACHA20_1MB,
 * is here too, beside the state it shares. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "bench_bitcoin/bench.h"
#include "crypto/chacha20.h"
#include "crypto/fastrandom.h"
#include "util/alloc.h"

#include "bench_bitcoin/crypto_openssl.h"

#ifdef HAVE_OPENSSL
#include <openssl/evp.h>
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

NB_OP_N(fastrandom_32bit_n, fastrandom_32bit_op)
NB_OP_N(fastrandom_1bit_n, fastrandom_1bit_op)

/* Core's FastRandomContext(true). */
static int fastrandom_setup(void *state, double n)
{
    (void)n;
    fastrandom_init_deterministic(state);
    return 0;
}

typedef struct {
    chacha20_ctx ctx;
    unsigned char *in, *out;
#ifdef HAVE_OPENSSL
    EVP_CIPHER_CTX *ossl;
#endif
} chacha20_buffers;

/* Buffers as CHACHA20_1MB has them: 1 MiB of zeros in, 1 MiB out; the all-zero key, IV 0,
 * block 0. */
static int chacha20_setup(void *state, double n)
{
    static const unsigned char key[32];
    chacha20_buffers *b = state;
    (void)n;
    b->in = bb_malloc(CHACHA20_BUFFER_SIZE);
    b->out = bb_malloc(CHACHA20_BUFFER_SIZE);
    if (!b->in || !b->out)
        return -1;
    memset(b->in, 0, CHACHA20_BUFFER_SIZE);
    memset(b->out, 0, CHACHA20_BUFFER_SIZE);
    chacha20_set_key(&b->ctx, key);
    chacha20_set_iv(&b->ctx, 0);
    chacha20_seek(&b->ctx, 0);
    return 0;
}

static void chacha20_teardown(void *state)
{
    chacha20_buffers *b = state;
#ifdef HAVE_OPENSSL
    EVP_CIPHER_CTX_free(b->ossl);
#endif
    bb_free(b->in);
    bb_free(b->out);
}

/* Core's CHACHA20_1MB: 1 MiB of zeros XORed with the keystream of the all-zero key, IV 0,
 * the stream going on from one iteration to the next. */
static void chacha20_1mb_op(void *arg)
{
    chacha20_buffers *b = arg;
    chacha20_crypt(&b->ctx, b->in, b->out, CHACHA20_BUFFER_SIZE);
}

NB_OP_N(chacha20_1mb_n, chacha20_1mb_op)

#ifdef HAVE_OPENSSL
static void openssl_chacha20_1mb_op(void *arg)
{
    chacha20_buffers *b = arg;
    int outl;
    EVP_EncryptUpdate(b->ossl, b->out, &outl, b->in, CHACHA20_BUFFER_SIZE);
}

NB_OP_N(openssl_chacha20_1mb_n, openssl_chacha20_1mb_op)

/* The same through EVP_chacha20: its 16-byte IV all zero is our block 0 and IV 0
 * (doc/crypto.md), one context going on from iteration to iteration. */
static int openssl_chacha20_setup(void *state, double n)
{
    static const unsigned char key[32], iv[16];
    chacha20_buffers *b = state;
    if (chacha20_setup(state, n) != 0)
        return -1;
    b->ossl = EVP_CIPHER_CTX_new();
    return b->ossl != NULL && EVP_EncryptInit_ex(b->ossl, EVP_chacha20(), NULL, key, iv) == 1
           ? 0 : -1;
}

const bench_def bench_openssl_chacha20_1mb = {
    .state_size = sizeof(chacha20_buffers), .setup = openssl_chacha20_setup,
    .op_n = openssl_chacha20_1mb_n, .teardown = chacha20_teardown,
    .batch = CHACHA20_BUFFER_SIZE, .unit = "byte"};
#endif

const bench_def bench_defs_chacha[] = {
    /* One rand32 a iteration from Core's FastRandomContext(true): a new 64-bit word every
     * other iteration, a new 64-byte keystream block every 16. */
    {.name = "FastRandom_32bit", .state_size = sizeof(fastrandom_ctx),
     .setup = fastrandom_setup, .op_n = fastrandom_32bit_n},
    /* One randbool a iteration: a new 64-bit word every 64 iterations, a new block every
     * 512. */
    {.name = "FastRandom_1bit", .state_size = sizeof(fastrandom_ctx),
     .setup = fastrandom_setup, .op_n = fastrandom_1bit_n},
    {.name = "CHACHA20_1MB", .state_size = sizeof(chacha20_buffers), .setup = chacha20_setup,
     .op_n = chacha20_1mb_n, .teardown = chacha20_teardown, .batch = CHACHA20_BUFFER_SIZE,
     .unit = "byte", .family = "chacha20", .openssl = BENCH_OPENSSL(chacha20_1mb)},
    BENCH_DEFS_END
};
