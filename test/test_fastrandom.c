/* FastRandomContext (crypto/fastrandom.h): the deterministic context's first
 * outputs, worked out by hand from the ChaCha20 keystream of the all-zero key
 * (76 b8 e0 ad a0 f1 3d 90 ...); the bit buffer's rules one at a time
 * (randbits(0), over 32 bits from rand64 with the buffer untouched, leftover
 * dropped on refill, the byte buffer's refill every 8 rand64s); a seeded
 * context; copies; and random sequences of draws against a model that reads
 * the flat keystream.
 *
 * Usage: test_fastrandom [--quick]   (--quick: fewer random rounds) */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "crypto/chacha20.h"
#include "crypto/fastrandom.h"

static int rounds = 300;

static uint64_t le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The ChaCha20 keystream of the all-zero key from block 0 begins
 * 76b8e0ada0f13d90 405d6ae55386bd28 ... (draft-agl-tls-chacha20poly1305, the
 * first test vector); its second block begins 9f07e7be5551387a. */
static void test_known(void)
{
    fastrandom_ctx r;
    fastrandom_init_deterministic(&r);
    CHECK(fastrandom_rand64(&r) == 0x903df1a0ade0b876);
    CHECK(fastrandom_rand64(&r) == 0x28bd8653e56a5d40);

    /* rand32: the low then the high half of one rand64 */
    fastrandom_init_deterministic(&r);
    CHECK(fastrandom_rand32(&r) == 0xade0b876);
    CHECK(fastrandom_rand32(&r) == 0x903df1a0);
    CHECK(fastrandom_rand32(&r) == 0xe56a5d40);

    /* randbool: bit by bit from the low end of 0x...876 = ...0111 0110 */
    fastrandom_init_deterministic(&r);
    CHECK(fastrandom_randbool(&r) == 0);
    CHECK(fastrandom_randbool(&r) == 1);
    CHECK(fastrandom_randbool(&r) == 1);
    CHECK(fastrandom_randbool(&r) == 0);
    CHECK(fastrandom_randbool(&r) == 1);

    /* the ninth rand64 is the first of block 1 */
    fastrandom_init_deterministic(&r);
    for (int i = 0; i < 8; i++)
        fastrandom_rand64(&r);
    CHECK(fastrandom_rand64(&r) == 0x7a385155bee7079f);
}

static void test_bit_buffer(void)
{
    fastrandom_ctx r, s;
    unsigned char ks[128];
    uint64_t w0, w1, w2;
    chacha20_ctx c;
    static const unsigned char zero[32];
    chacha20_set_key(&c, zero);
    chacha20_keystream(&c, ks, sizeof ks);
    w0 = le64(ks);
    w1 = le64(ks + 8);
    w2 = le64(ks + 16);

    /* randbits(0) is 0 and uses nothing, even with an empty buffer */
    fastrandom_init_deterministic(&r);
    s = r;
    CHECK(fastrandom_randbits(&r, 0) == 0);
    CHECK(memcmp(&r, &s, sizeof r) == 0);
    CHECK(fastrandom_randbits(&r, 5) == (w0 & 31));
    s = r;
    CHECK(fastrandom_randbits(&r, 0) == 0);
    CHECK(memcmp(&r, &s, sizeof r) == 0);

    /* over 32 bits: the top bits of the next rand64, the bit buffer kept */
    CHECK(fastrandom_randbits(&r, 40) == w1 >> 24);
    CHECK(fastrandom_randbits(&r, 64) == w2);
    CHECK(fastrandom_randbits(&r, 33) == le64(ks + 24) >> 31);
    CHECK(fastrandom_randbits(&r, 7) == ((w0 >> 5) & 127));

    /* up to 32: a refill drops the leftover; 30 + 30 leave 4 < 10 bits */
    fastrandom_init_deterministic(&r);
    CHECK(fastrandom_randbits(&r, 30) == (w0 & 0x3fffffff));
    CHECK(fastrandom_randbits(&r, 30) == ((w0 >> 30) & 0x3fffffff));
    CHECK(fastrandom_randbits(&r, 10) == (w1 & 1023));
    /* exactly enough bits is not a refill */
    CHECK(fastrandom_randbits(&r, 32) == ((w1 >> 10) & 0xffffffff));
    CHECK(fastrandom_randbits(&r, 22) == w1 >> 42);
    CHECK(fastrandom_randbits(&r, 1) == (w2 & 1));

    /* 64 randbools use one rand64, the 65th starts the next */
    fastrandom_init_deterministic(&r);
    {
        uint64_t got = 0;
        for (int i = 0; i < 64; i++)
            got |= (uint64_t)fastrandom_randbool(&r) << i;
        CHECK(got == w0);
        CHECK((uint64_t)fastrandom_randbool(&r) == (w1 & 1));
    }

    /* the byte buffer: 8 rand64s a block, whole blocks, nothing skipped */
    fastrandom_init_deterministic(&r);
    for (int i = 0; i < 16; i++)
        CHECKF(fastrandom_rand64(&r) == le64(ks + 8 * i), "rand64 number %d", i);
}

static void test_seeded(void)
{
    unsigned char seed[32], ks[64];
    fastrandom_ctx r, s;
    chacha20_ctx c;
    check_rng_fill(seed, sizeof seed);
    chacha20_set_key(&c, seed);
    chacha20_keystream(&c, ks, sizeof ks);
    fastrandom_init_seed(&r, seed);
    CHECK(fastrandom_rand64(&r) == le64(ks));
    /* a copy continues independently from the same point */
    s = r;
    CHECK(fastrandom_rand32(&r) == (uint32_t)le64(ks + 8));
    CHECK(fastrandom_rand32(&s) == (uint32_t)le64(ks + 8));
    /* the zero seed is the deterministic context */
    memset(seed, 0, sizeof seed);
    fastrandom_init_seed(&r, seed);
    fastrandom_init_deterministic(&s);
    for (int i = 0; i < 20; i++)
        CHECK(fastrandom_rand64(&r) == fastrandom_rand64(&s));
}

/* The model: rand64 reads the flat keystream 8 bytes at a time; the bit
 * buffer follows the rules in fastrandom.h, written out again here. */
typedef struct {
    const unsigned char *ks;
    size_t at;
    uint64_t bits;
    int nbits;
} model;

static uint64_t model_rand64(model *m)
{
    uint64_t v = le64(m->ks + m->at);
    m->at += 8;
    return v;
}

static uint64_t model_randbits(model *m, int bits)
{
    uint64_t v;
    if (bits == 0)
        return 0;
    if (bits > 32)
        return model_rand64(m) >> (64 - bits);
    if (m->nbits < bits) {
        m->bits = model_rand64(m);
        m->nbits = 64;
    }
    v = bits == 64 ? m->bits : m->bits & (((uint64_t)1 << bits) - 1);
    m->bits >>= bits;
    m->nbits -= bits;
    return v;
}

static void test_random_sequences(void)
{
    enum { DRAWS = 400 };
    static unsigned char ks[8 * (DRAWS + 1)];
    for (int r = 0; r < rounds; r++) {
        unsigned char seed[32];
        chacha20_ctx c;
        fastrandom_ctx f;
        model m = {ks, 0, 0, 0};
        int bad = 0;
        check_rng_fill(seed, sizeof seed);
        chacha20_set_key(&c, seed);
        chacha20_keystream(&c, ks, sizeof ks);
        fastrandom_init_seed(&f, seed);
        for (int i = 0; i < DRAWS; i++) {
            uint64_t kind = check_rng_below(5), want, got;
            int bits = (int)check_rng_below(65);
            if (kind == 0) {
                want = model_rand64(&m);
                got = fastrandom_rand64(&f);
            } else if (kind == 1) {
                want = model_randbits(&m, 32);
                got = fastrandom_rand32(&f);
            } else if (kind == 2) {
                want = model_randbits(&m, 1);
                got = (uint64_t)fastrandom_randbool(&f);
            } else {
                want = model_randbits(&m, bits);
                got = fastrandom_randbits(&f, bits);
            }
            bad += want != got;
        }
        CHECKF(bad == 0, "round %d: %d draws differ from the model", r, bad);
    }
}

int main(int argc, char **argv)
{
    check_rng_init("test_fastrandom");
    if (argc > 1 && strcmp(argv[1], "--quick") == 0)
        rounds = 30;
    test_known();
    test_bit_buffer();
    test_seeded();
    test_random_sequences();
    return check_finish();
}
