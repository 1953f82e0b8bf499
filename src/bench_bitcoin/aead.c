/* Poly1305 and AEAD benchmarks: Bitcoin Core's bench/poly1305.cpp (POLY1305_64BYTES,
 * _256BYTES, _1MB) and the FSCHACHA20POLY1305 rows of bench/chacha20.cpp, as Core has them
 * today. chacha20.cpp's CHACHA20 rows are in chacha.c.
 *
 * Each op is a static function that NB_OP_N inlines into the measured loop. The OpenSSL
 * counterparts (crypto_openssl.h), -compare's [openssl] rows, are here too, beside the state
 * they share: Poly1305 through EVP_MAC (OpenSSL 3; none before it), the forward-secure AEAD
 * through EVP_chacha20_poly1305 with the nonces and rekeying done here. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "bench_bitcoin/bench.h"
#include "bench_bitcoin/crypto_openssl.h"
#include "crypto/chacha20poly1305.h"
#include "crypto/poly1305.h"
#include "util/alloc.h"

#ifdef HAVE_OPENSSL
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
#define HAVE_OPENSSL_POLY1305 1
#endif
#endif

/* Core's BUFFER_SIZE_TINY, _SMALL and _LARGE. */
#define SIZE_TINY 64
#define SIZE_SMALL 256
#define SIZE_LARGE (1024 * 1024)
/* BIP324's rekey interval, as Core's benchmark constructs its FSChaCha20Poly1305. */
#define REKEY_INTERVAL 224

/* ---- POLY1305_*: a fresh Poly1305 under the all-zero key over size zero bytes ---------- */

typedef struct {
    unsigned char *in;
    size_t size;
    unsigned char key[32], tag[16];
#ifdef HAVE_OPENSSL_POLY1305
    EVP_MAC_CTX *ossl;
#endif
} poly_state;

static int poly_setup_size(poly_state *p, size_t size)
{
    p->size = size;
    if ((p->in = bb_malloc(size)) == NULL)
        return -1;
    memset(p->in, 0, size);
    return 0;
}

static int poly_64_setup(void *state, double n)
{
    (void)n;
    return poly_setup_size(state, SIZE_TINY);
}

static int poly_256_setup(void *state, double n)
{
    (void)n;
    return poly_setup_size(state, SIZE_SMALL);
}

static int poly_1mb_setup(void *state, double n)
{
    (void)n;
    return poly_setup_size(state, SIZE_LARGE);
}

static void poly_teardown(void *state)
{
    poly_state *p = state;
#ifdef HAVE_OPENSSL_POLY1305
    EVP_MAC_CTX_free(p->ossl);
#endif
    bb_free(p->in);
}

static void poly_op(void *arg)
{
    poly_state *p = arg;
    poly1305_mac(p->tag, p->in, p->size, p->key);
}

NB_OP_N(poly_n, poly_op)

#ifdef HAVE_OPENSSL_POLY1305
/* One EVP_MAC context made in the setup; each iteration keys it (a fresh Poly1305), then
 * update and final: OpenSSL's cheapest way to a Poly1305 tag. */
static void openssl_poly_op(void *arg)
{
    poly_state *p = arg;
    size_t len;
    EVP_MAC_init(p->ossl, p->key, sizeof p->key, NULL);
    EVP_MAC_update(p->ossl, p->in, p->size);
    EVP_MAC_final(p->ossl, p->tag, &len, sizeof p->tag);
}

NB_OP_N(openssl_poly_n, openssl_poly_op)

static int openssl_poly_init(poly_state *p)
{
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "POLY1305", NULL);
    p->ossl = mac ? EVP_MAC_CTX_new(mac) : NULL;
    EVP_MAC_free(mac);   /* the context keeps its own reference */
    return p->ossl != NULL ? 0 : -1;
}

static int openssl_poly_64_setup(void *state, double n)
{
    return poly_64_setup(state, n) != 0 ? -1 : openssl_poly_init(state);
}

static int openssl_poly_256_setup(void *state, double n)
{
    return poly_256_setup(state, n) != 0 ? -1 : openssl_poly_init(state);
}

static int openssl_poly_1mb_setup(void *state, double n)
{
    return poly_1mb_setup(state, n) != 0 ? -1 : openssl_poly_init(state);
}

#define OPENSSL_POLY(setup_fn, size) \
    .state_size = sizeof(poly_state), .setup = setup_fn, .op_n = openssl_poly_n, \
    .teardown = poly_teardown, .batch = size, .unit = "byte"

const bench_def bench_openssl_poly1305_64 = {OPENSSL_POLY(openssl_poly_64_setup, SIZE_TINY)};
const bench_def bench_openssl_poly1305_256 = {OPENSSL_POLY(openssl_poly_256_setup, SIZE_SMALL)};
const bench_def bench_openssl_poly1305_1mb = {OPENSSL_POLY(openssl_poly_1mb_setup, SIZE_LARGE)};
#define POLY_OPENSSL(name) (&bench_openssl_poly1305_##name)
#else
#define POLY_OPENSSL(name) NULL
#endif

/* ---- FSCHACHA20POLY1305_*: one forward-secure context, each message a packet ----------- */

typedef struct {
    fschacha20poly1305_ctx ctx;
    unsigned char *in, *out;   /* size zero bytes; size + 16 */
    size_t size;
#ifdef HAVE_OPENSSL
    EVP_CIPHER_CTX *ossl;
    uint32_t packet;
    uint64_t rekey;
#endif
} fs_state;

/* Core's: the all-zero key, a rekey every 224 packets, empty additional data. */
static int fs_setup_size(fs_state *f, size_t size)
{
    static const unsigned char key[32];
    f->size = size;
    f->in = bb_malloc(size);
    f->out = bb_malloc(size + CHACHA20POLY1305_EXPANSION);
    if (!f->in || !f->out)
        return -1;
    memset(f->in, 0, size);
    memset(f->out, 0, size + CHACHA20POLY1305_EXPANSION);
    fschacha20poly1305_init(&f->ctx, key, REKEY_INTERVAL);
    return 0;
}

static int fs_64_setup(void *state, double n)
{
    (void)n;
    return fs_setup_size(state, SIZE_TINY);
}

static int fs_256_setup(void *state, double n)
{
    (void)n;
    return fs_setup_size(state, SIZE_SMALL);
}

static int fs_1mb_setup(void *state, double n)
{
    (void)n;
    return fs_setup_size(state, SIZE_LARGE);
}

static void fs_teardown(void *state)
{
    fs_state *f = state;
#ifdef HAVE_OPENSSL
    EVP_CIPHER_CTX_free(f->ossl);
#endif
    memset(&f->ctx, 0, sizeof f->ctx);
    bb_free(f->in);
    bb_free(f->out);
}

static void fs_op(void *arg)
{
    fs_state *f = arg;
    fschacha20poly1305_encrypt(&f->ctx, NULL, 0, f->in, f->size, f->out);
}

NB_OP_N(fs_n, fs_op)

#ifdef HAVE_OPENSSL
static void le32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void le64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* The same packets through one EVP_chacha20_poly1305 context keyed in the setup: each sets
 * the packet's nonce, encrypts, finishes and reads the tag; every 224th is followed by the
 * rekey, the encryption of 32 zero bytes under nonce (0xffffffff, rekeys so far) whose
 * first 32 bytes become the key (OpenSSL also computes that encryption's tag, which Core's
 * rekey does without: 3 Poly1305 blocks every 224 packets). */
static void openssl_fs_op(void *arg)
{
    fs_state *f = arg;
    unsigned char nonce[12];
    int len;
    le32(nonce, f->packet);
    le64(nonce + 4, f->rekey);
    EVP_EncryptInit_ex(f->ossl, NULL, NULL, NULL, nonce);
    EVP_EncryptUpdate(f->ossl, f->out, &len, f->in, (int)f->size);
    EVP_EncryptFinal_ex(f->ossl, f->out + len, &len);
    EVP_CIPHER_CTX_ctrl(f->ossl, EVP_CTRL_AEAD_GET_TAG, 16, f->out + f->size);
    if (++f->packet == REKEY_INTERVAL) {
        static const unsigned char zeros[32];
        unsigned char key[32];
        le32(nonce, 0xffffffffu);
        EVP_EncryptInit_ex(f->ossl, NULL, NULL, NULL, nonce);
        EVP_EncryptUpdate(f->ossl, key, &len, zeros, 32);
        EVP_EncryptFinal_ex(f->ossl, key + len, &len);
        EVP_EncryptInit_ex(f->ossl, NULL, NULL, key, NULL);
        f->packet = 0;
        f->rekey++;
    }
}

NB_OP_N(openssl_fs_n, openssl_fs_op)

static int openssl_fs_init(fs_state *f)
{
    static const unsigned char key[32], nonce[12];
    f->ossl = EVP_CIPHER_CTX_new();
    return f->ossl != NULL
           && EVP_EncryptInit_ex(f->ossl, EVP_chacha20_poly1305(), NULL, key, nonce) == 1
           ? 0 : -1;
}

static int openssl_fs_64_setup(void *state, double n)
{
    return fs_64_setup(state, n) != 0 ? -1 : openssl_fs_init(state);
}

static int openssl_fs_256_setup(void *state, double n)
{
    return fs_256_setup(state, n) != 0 ? -1 : openssl_fs_init(state);
}

static int openssl_fs_1mb_setup(void *state, double n)
{
    return fs_1mb_setup(state, n) != 0 ? -1 : openssl_fs_init(state);
}

#define OPENSSL_FS(setup_fn, size) \
    .state_size = sizeof(fs_state), .setup = setup_fn, .op_n = openssl_fs_n, \
    .teardown = fs_teardown, .batch = size, .unit = "byte"

const bench_def bench_openssl_fschacha20poly1305_64 = {OPENSSL_FS(openssl_fs_64_setup,
                                                                  SIZE_TINY)};
const bench_def bench_openssl_fschacha20poly1305_256 = {OPENSSL_FS(openssl_fs_256_setup,
                                                                   SIZE_SMALL)};
const bench_def bench_openssl_fschacha20poly1305_1mb = {OPENSSL_FS(openssl_fs_1mb_setup,
                                                                   SIZE_LARGE)};
#endif

/* The fields of a row: state, setup, op, teardown, batch and unit, family. */
#define POLY_ROW(setup_fn, size) \
    .state_size = sizeof(poly_state), .setup = setup_fn, .op_n = poly_n, \
    .teardown = poly_teardown, .batch = size, .unit = "byte", .family = "poly1305"
#define FS_ROW(setup_fn, size) \
    .state_size = sizeof(fs_state), .setup = setup_fn, .op_n = fs_n, .teardown = fs_teardown, \
    .batch = size, .unit = "byte", .family = "chacha20poly1305"

const bench_def bench_defs_aead[] = {
    {.name = "FSCHACHA20POLY1305_64BYTES", FS_ROW(fs_64_setup, SIZE_TINY),
     .openssl = BENCH_OPENSSL(fschacha20poly1305_64)},
    {.name = "FSCHACHA20POLY1305_256BYTES", FS_ROW(fs_256_setup, SIZE_SMALL),
     .openssl = BENCH_OPENSSL(fschacha20poly1305_256)},
    {.name = "FSCHACHA20POLY1305_1MB", FS_ROW(fs_1mb_setup, SIZE_LARGE),
     .openssl = BENCH_OPENSSL(fschacha20poly1305_1mb)},
    {.name = "POLY1305_64BYTES", POLY_ROW(poly_64_setup, SIZE_TINY),
     .openssl = POLY_OPENSSL(64)},
    {.name = "POLY1305_256BYTES", POLY_ROW(poly_256_setup, SIZE_SMALL),
     .openssl = POLY_OPENSSL(256)},
    {.name = "POLY1305_1MB", POLY_ROW(poly_1mb_setup, SIZE_LARGE),
     .openssl = POLY_OPENSSL(1mb)},
    BENCH_DEFS_END
};
