/* ChaCha20 (crypto/chacha20.h): known answers from Bernstein's original
 * layout (the draft-agl-tls-chacha20poly1305 vectors) and from RFC 7539
 * mapped onto it; every split point of a two-call stream; zero-length calls,
 * set_iv keeping the counter, copies; OpenSSL's EVP_chacha20 on random keys,
 * IVs, seeks (across the carry from word 12 into 13) and split calls; every
 * implementation this CPU runs against the portable one on random lengths,
 * offsets and counters; the process's first detection made from several
 * threads at once, each going on to its ChaCha20 call; and the start-up
 * self-test refusing broken block functions.
 *
 * Usage: test_chacha20 [--quick]   (--quick: fewer random rounds, for valgrind) */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "crypto/chacha20.h"
#include "crypto/chacha20_impl.h"
#include "crypto/cpuid.h"
#include "crypto/variant.h"

#ifdef HAVE_OPENSSL
#include <openssl/evp.h>
#endif

static int rounds = 400;

static void put_le32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void check_hex_eq(const unsigned char *got, const char *want_hex, const char *what)
{
    unsigned char want[512];
    size_t n = check_unhex(want, sizeof want, want_hex);
    char hex[2 * 512 + 1];
    CHECKF(n != (size_t)-1, "%s: bad vector", what);
    if (n == (size_t)-1)
        return;
    check_hex(hex, got, n);
    CHECKF(memcmp(got, want, n) == 0, "%s: got %s, want %s", what, hex, want_hex);
}

/* ---- the first detection, from several threads ---------------------------------- */

#define FIRST_THREADS 4
#define FIRST_LEN (64 * 37 + 5)

static pthread_barrier_t first_barrier;
static unsigned char first_out[FIRST_THREADS][FIRST_LEN];

/* Each thread waits for the others, then detects (the first detection of the
 * process, racing the others': one runs the self-tests and installs, the
 * others wait; a later one writes nothing) and makes its ChaCha20 call, while
 * the others may still be detecting. */
static void *first_call(void *arg)
{
    unsigned char *out = arg;
    static const unsigned char key[32] = {1, 2, 3};
    chacha20_ctx c;
    chacha20_set_key(&c, key);
    chacha20_seek(&c, 0xfffffffe);
    pthread_barrier_wait(&first_barrier);
    crypto_autodetect();
    chacha20_keystream(&c, out, FIRST_LEN);
    return NULL;
}

/* Must run before anything else in the process detects. */
static void test_first_call_threads(void)
{
    pthread_t t[FIRST_THREADS];
    unsigned char ref[FIRST_LEN];
    static const unsigned char key[32] = {1, 2, 3};
    chacha20_ctx c;
    int started = 0;
    if (pthread_barrier_init(&first_barrier, NULL, FIRST_THREADS) != 0) {
        CHECKF(0, "pthread_barrier_init failed");
        return;
    }
    for (int i = 0; i < FIRST_THREADS; i++)
        started += pthread_create(&t[i], NULL, first_call, first_out[i]) == 0;
    CHECK(started == FIRST_THREADS);
    if (started != FIRST_THREADS)
        return;   /* the barrier would never open */
    for (int i = 0; i < FIRST_THREADS; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&first_barrier);
    chacha20_set_key(&c, key);
    chacha20_seek(&c, 0xfffffffe);
    chacha20_blocks_portable(c.input, ref, NULL, FIRST_LEN / 64);
    {
        unsigned char last[64];
        chacha20_blocks_portable(c.input, last, NULL, 1);
        memcpy(ref + FIRST_LEN / 64 * 64, last, FIRST_LEN % 64);
    }
    for (int i = 0; i < FIRST_THREADS; i++)
        CHECKF(memcmp(first_out[i], ref, FIRST_LEN) == 0, "thread %d's first call", i);
    {
        /* what they ran: the automatic choice, and so the widest this CPU runs */
        const char *names[8];
        size_t n = chacha20_impl_list(names, 8);
        CHECK(n >= 1 && n <= 8 && strcmp(chacha20_impl_current(), names[n - 1]) == 0);
    }
}

/* ---- known answers -------------------------------------------------------- */

/* The original layout (64-bit counter from 0, 64-bit IV as 8 bytes read
 * little-endian), as draft-agl-tls-chacha20poly1305-04 section 7 gives them,
 * and as Bitcoin Core tested its ChaCha20. */
static const struct {
    const char *key, *iv, *stream;
} djb_vectors[] = {
    {"0000000000000000000000000000000000000000000000000000000000000000", "0000000000000000",
     "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
     "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"},
    {"0000000000000000000000000000000000000000000000000000000000000001", "0000000000000000",
     "4540f05a9f1fb296d7736e7b208e3c96eb4fe1834688d2604f450952ed432d41"
     "bbe2a0b6ea7566d2a5d1e7e20d42af2c53d792b1c43fea817e9ad275ae546963"},
    {"0000000000000000000000000000000000000000000000000000000000000000", "0000000000000001",
     "de9cba7bf3d69ef5e786dc63973f653a0b49e015adbff7134fcb7df137821031"
     "e85a050278a7084527214f73efc7fa5b5277062eb7a0433e445f41e3"},
    {"0000000000000000000000000000000000000000000000000000000000000000", "0100000000000000",
     "ef3fdfd6c61578fbf5cf35bd3dd33b8009631634d21e42ac33960bd138e50d32"
     "111e4caf237ee53ca8ad6426194a88545ddc497a0b466e7d6bbdb0041b2f586b"},
    {"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "0001020304050607",
     "f798a189f195e66982105ffb640bb7757f579da31602fc93ec01ac56f85ac3c1"
     "34a4547b733b46413042c9440049176905d3be59ea1c53f15916155c2be8241a"
     "38008b9a26bc35941e2444177c8ade6689de95264986d95889fb60e84629c9bd"
     "9a5acb1cc118be563eb9b3a4a472f82e09a7e778492b562ef7130e88dfe031c7"
     "9db9d4f7c7a899151b9a475032b63fc385245fe054e3dd5a97a5f576fe064025"
     "d3ce042c566ab2c507b138db853e3d6959660996546cc9c4a6eafdc777c040d7"
     "0eaf46f76dad3979e5c5360c3317166a1c894c94a371876a94df7628fe4eaaf2"
     "ccb27d5aaae0ad7ad0f9d4b6ad3b54098746d4524d38407a6deb3ab78fab78c9"},
};

static uint64_t le64_hex(const char *hex)
{
    unsigned char b[8];
    uint64_t v = 0;
    check_unhex(b, sizeof b, hex);
    for (int i = 7; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

static void test_djb_vectors(void)
{
    for (size_t i = 0; i < sizeof djb_vectors / sizeof djb_vectors[0]; i++) {
        unsigned char key[32], out[256];
        size_t len = strlen(djb_vectors[i].stream) / 2;
        chacha20_ctx ctx;
        check_unhex(key, sizeof key, djb_vectors[i].key);
        chacha20_set_key(&ctx, key);
        chacha20_set_iv(&ctx, le64_hex(djb_vectors[i].iv));
        chacha20_keystream(&ctx, out, len);
        check_hex_eq(out, djb_vectors[i].stream, "draft-agl vector");
        /* the next call starts at the block after the last (partial) one */
        CHECK(ctx.input[12] == (uint32_t)((len + 63) / 64) && ctx.input[13] == 0);
    }
}

/* RFC 7539's block is counter (word 12) and a 96-bit nonce (words 13-15). Our
 * word 13 is the counter's high half and words 14-15 the IV: the RFC's block
 * with counter c and nonce bytes N[0..12) is ours with block counter
 * (le32(N[0..4)) << 32 | c) and IV (le32(N[8..12)) << 32 | le32(N[4..8))). */
static void rfc_to_djb(uint32_t counter, const char *nonce_hex, uint64_t *block, uint64_t *iv)
{
    unsigned char n[12];
    CHECK(check_unhex(n, sizeof n, nonce_hex) == 12);
    *block = (uint64_t)le32(n) << 32 | counter;
    *iv = (uint64_t)le32(n + 8) << 32 | le32(n + 4);
}

static const struct {
    const char *key, *nonce;
    uint32_t counter;
    const char *stream;
} rfc_keystream[] = {
    /* 2.3.2: the block function */
    {"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "000000090000004a00000000", 1,
     "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
     "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"},
    /* A.1 #2: counter 1 */
    {"0000000000000000000000000000000000000000000000000000000000000000",
     "000000000000000000000000", 1,
     "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
     "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f"},
    /* A.1 #3 */
    {"0000000000000000000000000000000000000000000000000000000000000001",
     "000000000000000000000000", 1,
     "3aeb5224ecf849929b9d828db1ced4dd832025e8018b8160b82284f3c949aa5a"
     "8eca00bbb4a73bdad192b5c42f73f2fd4e273644c8b36125a64addeb006c13a0"},
    /* A.1 #4 */
    {"00ff000000000000000000000000000000000000000000000000000000000000",
     "000000000000000000000000", 2,
     "72d54dfbf12ec44b362692df94137f328fea8da73990265ec1bbbea1ae9af0ca"
     "13b25aa26cb4a648cb9b9d1be65b2c0924a66c54d545ec1b7374f4872e99f096"},
    /* A.1 #5: the last nonce word, our IV's high half */
    {"0000000000000000000000000000000000000000000000000000000000000000",
     "000000000000000000000002", 0,
     "c2c64d378cd536374ae204b9ef933fcd1a8b2288b3dfa49672ab765b54ee27c7"
     "8a970e0e955c14f3a88e741b97c286f75f8fc299e8148362fa198a39531bed6d"},
};

static void test_rfc7539(void)
{
    for (size_t i = 0; i < sizeof rfc_keystream / sizeof rfc_keystream[0]; i++) {
        unsigned char key[32], out[64];
        uint64_t block, iv;
        chacha20_ctx ctx;
        check_unhex(key, sizeof key, rfc_keystream[i].key);
        rfc_to_djb(rfc_keystream[i].counter, rfc_keystream[i].nonce, &block, &iv);
        chacha20_set_key(&ctx, key);
        chacha20_set_iv(&ctx, iv);
        chacha20_seek(&ctx, block);
        chacha20_keystream(&ctx, out, 64);
        check_hex_eq(out, rfc_keystream[i].stream, "RFC 7539 keystream");
    }

    /* 2.4.2: encryption from counter 1 (114 bytes: one partial block) */
    static const char plain[] = "Ladies and Gentlemen of the class of '99: If I could offer "
                                "you only one tip for the future, sunscreen would be it.";
    static const char cipher[] =
        "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
        "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
        "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
        "5af90bbf74a35be6b40b8eedf2785e42874d";
    unsigned char key[32], out[sizeof plain];
    uint64_t block, iv;
    chacha20_ctx ctx;
    check_unhex(key, sizeof key,
                "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
    rfc_to_djb(1, "000000000000004a00000000", &block, &iv);
    chacha20_set_key(&ctx, key);
    chacha20_set_iv(&ctx, iv);
    chacha20_seek(&ctx, block);
    chacha20_crypt(&ctx, (const unsigned char *)plain, out, sizeof plain - 1);
    check_hex_eq(out, cipher, "RFC 7539 2.4.2 encryption");
    /* and back, in place */
    chacha20_seek(&ctx, block);
    chacha20_crypt(&ctx, out, out, sizeof plain - 1);
    CHECK(memcmp(out, plain, sizeof plain - 1) == 0);
}

/* ---- streaming semantics ---------------------------------------------------- */

#define SPLIT_LEN (64 * 5 + 17)

/* A ctx keyed with random bytes, at a random IV and a counter just below the
 * carry from word 12 into 13 (so the blocks of a call cross it). */
static void random_ctx(chacha20_ctx *ctx)
{
    unsigned char key[32];
    check_rng_fill(key, sizeof key);
    chacha20_set_key(ctx, key);
    chacha20_set_iv(ctx, check_rng_u64());
    chacha20_seek(ctx, (check_rng_u64() & 0xffffffff00000000) | (0xffffffff - check_rng_below(4)));
}

/* Every split point of a two-call stream, keystream and crypt: the second
 * call starts at the block after the one the first ended in. */
static void test_split_points(void)
{
    unsigned char flat[SPLIT_LEN + 64], in[SPLIT_LEN], out[SPLIT_LEN];
    chacha20_ctx base, c;
    random_ctx(&base);
    check_rng_fill(in, sizeof in);
    c = base;
    chacha20_keystream(&c, flat, sizeof flat);
    for (size_t k = 0; k <= SPLIT_LEN; k++) {
        size_t next = 64 * ((k + 63) / 64);
        int ok = 1;
        c = base;
        chacha20_keystream(&c, out, k);
        chacha20_keystream(&c, out + k, SPLIT_LEN - k);
        ok &= memcmp(out, flat, k) == 0 && memcmp(out + k, flat + next, SPLIT_LEN - k) == 0;
        c = base;
        chacha20_crypt(&c, in, out, k);
        chacha20_crypt(&c, in + k, out + k, SPLIT_LEN - k);
        for (size_t i = 0; i < SPLIT_LEN; i++)
            ok &= out[i] == (in[i] ^ (i < k ? flat[i] : flat[next + i - k]));
        CHECKF(ok, "split at %zu", k);
    }
}

static void test_semantics(void)
{
    unsigned char a[130], b[130];
    chacha20_ctx c, d;
    random_ctx(&c);
    d = c;
    /* 0 bytes use nothing; NULL is fine with 0 */
    chacha20_keystream(&c, NULL, 0);
    chacha20_crypt(&c, NULL, NULL, 0);
    CHECK(memcmp(&c, &d, sizeof c) == 0);
    /* 10 then 10 bytes: bytes 0-9 of block 0, then of block 1 */
    chacha20_keystream(&d, a, 128);
    chacha20_keystream(&c, b, 10);
    chacha20_keystream(&c, b + 10, 10);
    CHECK(memcmp(b, a, 10) == 0 && memcmp(b + 10, a + 64, 10) == 0);
    /* both advanced by 2 blocks */
    CHECK(memcmp(&c, &d, sizeof c) == 0);
    /* set_iv keeps the counter; seek keeps the IV */
    random_ctx(&c);
    d = c;
    chacha20_set_iv(&c, 0x1122334455667788);
    CHECK(c.input[12] == d.input[12] && c.input[13] == d.input[13]);
    CHECK(c.input[14] == 0x55667788 && c.input[15] == 0x11223344);
    chacha20_seek(&c, 0xa1b2c3d4e5f60718);
    CHECK(c.input[12] == 0xe5f60718 && c.input[13] == 0xa1b2c3d4 && c.input[14] == 0x55667788);
    /* a copy is an independent stream */
    d = c;
    chacha20_keystream(&c, a, 100);
    chacha20_keystream(&c, a, 100);
    chacha20_keystream(&d, b, 100);
    chacha20_seek(&c, 0xa1b2c3d4e5f60718);
    chacha20_keystream(&c, a, 100);
    CHECK(memcmp(a, b, 100) == 0);
    /* the counter wraps at 2^64 */
    chacha20_seek(&c, ~(uint64_t)0);
    chacha20_keystream(&c, a, 128);
    d = c;
    chacha20_seek(&d, 0);
    chacha20_keystream(&d, b, 64);
    CHECK(memcmp(a + 64, b, 64) == 0);
    CHECK(c.input[12] == 1 && c.input[13] == 0);
}

/* ---- OpenSSL ------------------------------------------------------------------ */

#ifdef HAVE_OPENSSL
/* len bytes of in XOR OpenSSL's keystream for our (key, block, iv): its 16-byte
 * IV is the 32-bit little-endian counter (our word 12) and the 96-bit nonce
 * (our words 13, 14, 15). OpenSSL carries a counter overflow into the nonce's
 * first word, as our 64-bit counter does. */
static int openssl_crypt(const unsigned char key[32], uint64_t block, uint64_t iv,
                         const unsigned char *in, unsigned char *out, size_t len)
{
    unsigned char oiv[16];
    int outl = 0, ok;
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    if (c == NULL)
        return 0;
    put_le32(oiv, (uint32_t)block);
    put_le32(oiv + 4, (uint32_t)(block >> 32));
    put_le32(oiv + 8, (uint32_t)iv);
    put_le32(oiv + 12, (uint32_t)(iv >> 32));
    ok = EVP_EncryptInit_ex(c, EVP_chacha20(), NULL, key, oiv) == 1
        && EVP_EncryptUpdate(c, out, &outl, in, (int)len) == 1 && (size_t)outl == len;
    EVP_CIPHER_CTX_free(c);
    return ok;
}

/* Random keys, IVs and counters (a third of them a few blocks below a carry
 * into word 13), a message cut into 1-5 calls of random lengths: each of our
 * calls is OpenSSL's stream from the block where that call starts. */
static void test_openssl(void)
{
    enum { MAX = 3000 };
    static unsigned char in[MAX], ours[MAX], theirs[MAX];
    for (int r = 0; r < rounds; r++) {
        unsigned char key[32];
        uint64_t iv = check_rng_u64(), block = check_rng_u64();
        chacha20_ctx c;
        size_t len = check_rng_below(MAX + 1), at = 0;
        int crypt = (int)check_rng_below(2), ok = 1;
        if (r % 3 == 0)
            block = (block & 0xffffffff00000000) | (0xffffffff - check_rng_below(40));
        if (r % 7 == 0)
            iv = 0;
        check_rng_fill(key, sizeof key);
        check_rng_fill(in, len);
        chacha20_set_key(&c, key);
        chacha20_set_iv(&c, iv);
        chacha20_seek(&c, block);
        while (at < len) {
            size_t piece = len - at;
            uint64_t here = (uint64_t)c.input[13] << 32 | c.input[12];
            if (check_rng_below(3) != 0)
                piece = 1 + check_rng_below(piece);
            if (crypt) {
                chacha20_crypt(&c, in + at, ours + at, piece);
                ok &= openssl_crypt(key, here, iv, in + at, theirs + at, piece);
            } else {
                static const unsigned char zero[MAX];
                chacha20_keystream(&c, ours + at, piece);
                ok &= openssl_crypt(key, here, iv, zero, theirs + at, piece);
            }
            at += piece;
        }
        CHECKF(ok && memcmp(ours, theirs, len) == 0,
               "OpenSSL: round %d, len %zu, block %016llx, iv %016llx, %s", r, len,
               (unsigned long long)block, (unsigned long long)iv,
               crypt ? "crypt" : "keystream");
    }
}
#endif

/* ---- implementations ------------------------------------------------------------ */

/* Each implementation against the portable one: random lengths (0 to 40
 * blocks and a bit, so every width's loop and tails), random buffer offsets,
 * counters at and away from a carry, keystream, crypt and crypt in place. */
static void test_implementations(void)
{
    const char *names[8];
    size_t n = chacha20_impl_list(names, 8);
    enum { MAX = 64 * 41 + 8 };
    static unsigned char in[MAX + 64], ref[MAX + 64], got[MAX + 64];
    CHECK(n >= 1 && n <= 8 && strcmp(names[0], "standard") == 0);
    printf("implementations:");
    for (size_t i = 0; i < n && i < 8; i++)
        printf(" %s", names[i]);
    printf("\n");
    for (size_t v = 1; v < n && v < 8; v++) {
        int bad = 0;
        for (int r = 0; r < rounds; r++) {
            chacha20_ctx base, a, b;
            size_t len = check_rng_below(MAX + 1);
            size_t oi = check_rng_below(33), oo = check_rng_below(33);
            int mode = (int)check_rng_below(3);
            random_ctx(&base);
            if (r % 2)
                chacha20_seek(&base, check_rng_u64());
            check_rng_fill(in + oi, len);
            a = base;
            b = base;
            CHECK(chacha20_impl_force("standard") == 0);
            if (mode == 0)
                chacha20_keystream(&a, ref + oo, len);
            else
                chacha20_crypt(&a, in + oi, ref + oo, len);
            CHECK(chacha20_impl_force(names[v]) == 0);
            if (mode == 0) {
                chacha20_keystream(&b, got + oo, len);
            } else if (mode == 1) {
                chacha20_crypt(&b, in + oi, got + oo, len);
            } else {
                memcpy(got + oo, in + oi, len);
                chacha20_crypt(&b, got + oo, got + oo, len);
            }
            if (memcmp(ref + oo, got + oo, len) != 0 || memcmp(&a, &b, sizeof a) != 0)
                bad++;
        }
        CHECKF(bad == 0, "%s: %d of %d rounds differ from standard", names[v], bad, rounds);
        CHECK(strcmp(chacha20_impl_current(), names[v]) == 0);
    }
    CHECK(chacha20_impl_force("no-such") == -1);
    CHECK(chacha20_impl_force("auto") == 0);
    /* the automatic choice is the widest usable, which CPUID allows */
    {
        const cpu_features *f = cpu_features_get();
        const char *chosen = chacha20_impl_current();
        printf("cpu: sse41=%d avx2=%d avx512=%d\n", f->sse41, f->avx2, f->avx512);
        printf("chacha20_impl_current: %s\n", chosen);
        CHECK(strcmp(chosen, names[n - 1 < 8 ? n - 1 : 7]) == 0);
        CHECK(strcmp(chosen, "avx512") != 0 || f->avx512);
        CHECK(strcmp(chosen, "avx2") != 0 || f->avx2);
        CHECK(strcmp(chosen, "sse41") != 0 || f->sse41);
    }
}

/* ---- the self-test refuses what it should ------------------------------------------ */

/* Portable code with one fault, each where only some paths would go. */
static int fault;

static void faulty_blocks(uint32_t state[16], unsigned char *out, const unsigned char *in,
                          size_t blocks)
{
    const unsigned char *orig_in = in;
    uint64_t start = (uint64_t)state[13] << 32 | state[12];
    if (fault == 1 || (fault == 5 && blocks < 8)) {
        /* blocks after a carry from word 12 into 13 made without it (the
         * counter left in state is right); fault 5 only in calls of fewer
         * than 8 blocks, which the row code computes */
        for (size_t i = 0; i < blocks; i++) {
            uint32_t lane[16];
            memcpy(lane, state, sizeof lane);
            lane[12] = state[12] + (uint32_t)i;
            chacha20_blocks_portable(lane, out + 64 * i, in ? in + 64 * i : NULL, 1);
        }
        state[12] = (uint32_t)(start + blocks);
        state[13] = (uint32_t)((start + blocks) >> 32);
        return;
    }
    chacha20_blocks_portable(state, out, in, blocks);
    switch (fault) {
    case 0: /* wrong only on the third run of a 16-block loop */
        if (blocks > 40)
            out[64 * 40] ^= 1;
        break;
    case 2: /* wrong only in place */
        if (orig_in != NULL && orig_in == out)
            out[0] ^= 0x80;
        break;
    case 3: /* wrong only on a 3-block tail */
        if (blocks % 4 == 3)
            out[64 * (blocks - 1) + 63] ^= 2;
        break;
    case 5:
        break;
    default: /* the counter's high word not wrapping at 2^64 */
        if (start + blocks < start)
            state[13] = 1;
        break;
    }
}

static void test_selftest(void)
{
    CHECK(chacha20_impl_selftest(chacha20_blocks_portable) == 1);
    for (fault = 0; fault < 6; fault++)
        CHECKF(chacha20_impl_selftest(faulty_blocks) == 0, "fault %d not caught", fault);
}

int main(int argc, char **argv)
{
    check_rng_init("test_chacha20");
    if (argc > 1 && strcmp(argv[1], "--quick") == 0)
        rounds = 40;
    test_first_call_threads();
    test_djb_vectors();
    test_rfc7539();
    test_split_points();
    test_semantics();
#ifdef HAVE_OPENSSL
    test_openssl();
#else
    printf("built without OpenSSL: no differential test\n");
#endif
    test_implementations();
    test_selftest();
    return check_finish();
}
