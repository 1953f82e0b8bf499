/* ChaCha20 and FastRandom benchmarks: Bitcoin Core's bench/chacha20.cpp (CHACHA20_1MB, and
 * today's CHACHA20_64BYTES and CHACHA20_256BYTES) and the FastRandom rows of
 * bench/crypto_hash.cpp, as Core had them in 2020. chacha20.cpp's FSCHACHA20POLY1305 rows
 * are in aead.c.
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

/* Core's BUFFER_SIZE_LARGE: 1 MiB; BUFFER_SIZE_TINY and _SMALL: 64 and 256 bytes. */
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
    size_t size;
#ifdef HAVE_OPENSSL
    EVP_CIPHER_CTX *ossl;
#endif
} chacha20_buffers;

/* Buffers as Core's CHACHA20 rows have them: size zero bytes in, size bytes out; the
 * all-zero key, IV 0, block 0. */
static int chacha20_setup_size(chacha20_buffers *b, size_t size)
{
    static const unsigned char key[32];
    b->size = size;
    b->in = bb_malloc(size);
    b->out = bb_malloc(size);
    if (!b->in || !b->out)
        return -1;
    memset(b->in, 0, size);
    memset(b->out, 0, size);
    chacha20_set_key(&b->ctx, key);
    chacha20_set_iv(&b->ctx, 0);
    chacha20_seek(&b->ctx, 0);
    return 0;
}

static int chacha20_setup(void *state, double n)
{
    (void)n;
    return chacha20_setup_size(state, CHACHA20_BUFFER_SIZE);
}

static int chacha20_64_setup(void *state, double n)
{
    (void)n;
    return chacha20_setup_size(state, 64);
}

static int chacha20_256_setup(void *state, double n)
{
    (void)n;
    return chacha20_setup_size(state, 256);
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

/* Core's CHACHA20 rows: size zero bytes XORed with the keystream of the all-zero key, IV 0,
 * the stream going on from one iteration to the next (whole blocks each time: 64, 256 and
 * 1 MiB are multiples of 64). */
static void chacha20_op(void *arg)
{
    chacha20_buffers *b = arg;
    chacha20_crypt(&b->ctx, b->in, b->out, b->size);
}

NB_OP_N(chacha20_n, chacha20_op)

#ifdef HAVE_OPENSSL
static void openssl_chacha20_op(void *arg)
{
    chacha20_buffers *b = arg;
    int outl;
    EVP_EncryptUpdate(b->ossl, b->out, &outl, b->in, (int)b->size);
}

NB_OP_N(openssl_chacha20_n, openssl_chacha20_op)

/* The same through EVP_chacha20: its 16-byte IV all zero is our block 0 and IV 0
 * (doc/crypto.md), one context going on from iteration to iteration. */
static int openssl_chacha20_init(chacha20_buffers *b)
{
    static const unsigned char key[32], iv[16];
    b->ossl = EVP_CIPHER_CTX_new();
    return b->ossl != NULL && EVP_EncryptInit_ex(b->ossl, EVP_chacha20(), NULL, key, iv) == 1
           ? 0 : -1;
}

static int openssl_chacha20_setup(void *state, double n)
{
    return chacha20_setup(state, n) != 0 ? -1 : openssl_chacha20_init(state);
}

static int openssl_chacha20_64_setup(void *state, double n)
{
    return chacha20_64_setup(state, n) != 0 ? -1 : openssl_chacha20_init(state);
}

static int openssl_chacha20_256_setup(void *state, double n)
{
    return chacha20_256_setup(state, n) != 0 ? -1 : openssl_chacha20_init(state);
}

#define OPENSSL_CHACHA20(setup_fn, size) \
    .state_size = sizeof(chacha20_buffers), .setup = setup_fn, .op_n = openssl_chacha20_n, \
    .teardown = chacha20_teardown, .batch = size, .unit = "byte"

const bench_def bench_openssl_chacha20_1mb = {
    OPENSSL_CHACHA20(openssl_chacha20_setup, CHACHA20_BUFFER_SIZE)};
const bench_def bench_openssl_chacha20_64 = {OPENSSL_CHACHA20(openssl_chacha20_64_setup, 64)};
const bench_def bench_openssl_chacha20_256 = {
    OPENSSL_CHACHA20(openssl_chacha20_256_setup, 256)};
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
     .op_n = chacha20_n, .teardown = chacha20_teardown, .batch = CHACHA20_BUFFER_SIZE,
     .unit = "byte", .family = "chacha20", .openssl = BENCH_OPENSSL(chacha20_1mb)},
    {.name = "CHACHA20_64BYTES", .state_size = sizeof(chacha20_buffers),
     .setup = chacha20_64_setup, .op_n = chacha20_n, .teardown = chacha20_teardown,
     .batch = 64, .unit = "byte", .family = "chacha20", .openssl = BENCH_OPENSSL(chacha20_64)},
    {.name = "CHACHA20_256BYTES", .state_size = sizeof(chacha20_buffers),
     .setup = chacha20_256_setup, .op_n = chacha20_n, .teardown = chacha20_teardown,
     .batch = 256, .unit = "byte", .family = "chacha20",
     .openssl = BENCH_OPENSSL(chacha20_256)},
    BENCH_DEFS_END
};
