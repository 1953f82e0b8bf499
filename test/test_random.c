/* Core's generators today (crypto/random.h): xoroshiro128++ against Core's published
 * reference values; the bit buffer, randrange and rand64 of both generators, in random
 * sequences of calls, against a model that reads a plain queue of bits (InsecureRandom: the
 * generator's own outputs; FastRandom: the ChaCha20 keystream as bytes); randrange's
 * uniformity and std::shuffle's permutations by chi-square at fixed seeds; std::shuffle's
 * draw sequence against permutations libstdc++ 12's std::shuffle made over these
 * generators; FastRandom against the 2020 generator's rand64 and the zero-key keystream.
 *
 * Usage: test_random [--quick]   (--quick: fewer random rounds) */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "crypto/chacha20.h"
#include "crypto/fastrandom.h"
#include "crypto/random.h"

static int rounds = 200;

static uint64_t le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Core's xoroshiro128plusplus_reference_values (random_tests.cpp), numbers from the
 * reference implementation. */
static void test_xoroshiro_reference(void)
{
    static const uint64_t seed0[4] = {
        0x6f68e1e7e2646ee1, 0xbf971b7f454094ad, 0x48f2de556f30de38, 0x6ea7c59f89bbfc75};
    static const uint64_t seed1[4] = {
        0xc8dc5e08d844ac7d, 0x5b5f1f6d499dad1b, 0xbeb0031f93313d6f, 0xbfbcf4f43a264497};
    insecurerandom_ctx r;
    int i;
    insecurerandom_init(&r, 0);
    for (i = 0; i < 4; i++)
        CHECKF(insecurerandom_rand64(&r) == seed0[i], "seed 0, output %d", i);
    insecurerandom_init(&r, 0x1a26f3fa8546b47a);
    for (i = 0; i < 4; i++)
        CHECKF(insecurerandom_rand64(&r) == seed1[i], "seed 0x1a26f3fa8546b47a, output %d", i);
}

/* ---- the model: a queue of bits ---------------------------------------------------------
 *
 * randbits(k) for k < 64 takes the next k bits of the stream the buffer refills read (the
 * leftover of a draw is kept, never dropped); randbits(64), rand64 and fill take whole words
 * (bytes) from the source without touching the queue. */
typedef struct {
    int fast;                   /* source: the keystream bytes, else a copied xoroshiro */
    insecurerandom_ctx src;
    unsigned char *ks;          /* fast: the keystream, from the start */
    size_t pos;
    uint64_t q_lo, q_hi;        /* the queue: q_bits bits, lowest first, up to 127 */
    int q_bits;
} model;

static uint64_t model_word(model *m)
{
    uint64_t w;
    if (!m->fast)
        return insecurerandom_rand64(&m->src);
    w = le64(m->ks + m->pos);
    m->pos += 8;
    return w;
}

static uint64_t model_bits(model *m, int k)
{
    uint64_t out;
    if (k == 64)
        return model_word(m);
    if (k == 0)
        return 0;
    if (m->q_bits < k) {
        uint64_t w = model_word(m);
        m->q_lo |= m->q_bits ? w << m->q_bits : w;
        m->q_hi = m->q_bits ? w >> (64 - m->q_bits) : 0;
        m->q_bits += 64;
    }
    out = m->q_lo & ((UINT64_C(1) << k) - 1);
    m->q_lo = m->q_lo >> k | (k ? m->q_hi << (64 - k) : 0);
    m->q_hi >>= k;
    m->q_bits -= k;
    return out;
}

static uint64_t model_range(model *m, uint64_t range)
{
    uint64_t maxval = range - 1, x;
    int bits = 0;
    while (bits < 64 && (maxval >> bits) != 0)
        bits++;
    do
        x = model_bits(m, bits);
    while (x > maxval);
    return x;
}

/* A width for a random call: every value 0..64, the ends more often. */
static int pick_bits(void)
{
    uint64_t c = check_rng_below(80);
    if (c < 65)
        return (int)c;
    return c < 72 ? 64 : (int)check_rng_below(3);
}

static uint64_t pick_range(void)
{
    switch (check_rng_below(6)) {
    case 0: return 1 + check_rng_below(10);
    case 1: return (UINT64_C(1) << check_rng_below(64)) + check_rng_below(3);
    case 2: return UINT64_MAX - check_rng_below(3);
    case 3: return (UINT64_C(1) << 63) + 1;
    default: return 1 + (check_rng_u64() >> check_rng_below(64));
    }
}

/* Random calls on one generator (through the function pointers) and the model side by side. */
typedef struct {
    void *ctx;
    uint64_t (*rand64)(void *);
    uint64_t (*randbits)(void *, int);
    uint32_t (*rand32)(void *);
    int (*randbool)(void *);
    uint64_t (*randrange)(void *, uint64_t);
    void (*fill)(void *, void *, size_t);   /* NULL: none */
} gen;

static int run_sequence(const gen *g, model *m, int calls)
{
    int i, ok = 1;
    for (i = 0; i < calls && ok; i++) {
        uint64_t got, want;
        int op = (int)check_rng_below(g->fill ? 7 : 6), k = 0;
        uint64_t range = 0;
        switch (op) {
        case 0: got = g->rand64(g->ctx); want = model_word(m); break;
        case 1: k = pick_bits(); got = g->randbits(g->ctx, k); want = model_bits(m, k); break;
        case 2: got = g->rand32(g->ctx); want = model_bits(m, 32); break;
        case 3: got = (uint64_t)g->randbool(g->ctx); want = model_bits(m, 1); break;
        case 4:
        case 5:
            range = pick_range();
            got = g->randrange(g->ctx, range);
            want = model_range(m, range);
            ok &= CHECKF(got < range, "randrange(%llu) gave %llu", (unsigned long long)range,
                         (unsigned long long)got);
            break;
        default: {
            unsigned char buf[300];
            size_t n = (size_t)check_rng_below(sizeof buf);
            g->fill(g->ctx, buf, n);
            got = memcmp(buf, m->ks + m->pos, n) != 0;
            want = 0;
            m->pos += n;
        }
        }
        if (op == 1)
            ok &= CHECKF(k == 64 || got >> k == 0, "randbits(%d) gave %llu", k,
                         (unsigned long long)got);
        ok &= CHECKF(got == want, "call %d, op %d (bits %d, range %llu): %llu, model %llu",
                     i, op, k, (unsigned long long)range, (unsigned long long)got,
                     (unsigned long long)want);
    }
    return ok;
}

static uint64_t i_rand64(void *c) { return insecurerandom_rand64(c); }
static uint64_t i_randbits(void *c, int k) { return insecurerandom_randbits(c, k); }
static uint32_t i_rand32(void *c) { return insecurerandom_rand32(c); }
static int i_randbool(void *c) { return insecurerandom_randbool(c); }
static uint64_t i_randrange(void *c, uint64_t r) { return insecurerandom_randrange(c, r); }
static uint64_t f_rand64(void *c) { return fastrandom2_rand64(c); }
static uint64_t f_randbits(void *c, int k) { return fastrandom2_randbits(c, k); }
static uint32_t f_rand32(void *c) { return fastrandom2_rand32(c); }
static int f_randbool(void *c) { return fastrandom2_randbool(c); }
static uint64_t f_randrange(void *c, uint64_t r) { return fastrandom2_randrange(c, r); }
static void f_fill(void *c, void *out, size_t n) { fastrandom2_fill(c, out, n); }

#define KS_BYTES (64 * 1024)

static void test_model_insecure(void)
{
    int round;
    for (round = 0; round < rounds; round++) {
        insecurerandom_ctx r;
        model m;
        gen g = {&r, i_rand64, i_randbits, i_rand32, i_randbool, i_randrange, NULL};
        memset(&m, 0, sizeof m);
        insecurerandom_init(&r, check_rng_u64());
        m.src = r;
        if (!run_sequence(&g, &m, 100))
            break;
    }
}

static void test_model_fast(void)
{
    static unsigned char ks[KS_BYTES];
    int round;
    for (round = 0; round < rounds; round++) {
        fastrandom2_ctx r;
        chacha20_ctx c;
        unsigned char seed[32];
        model m;
        gen g = {&r, f_rand64, f_randbits, f_rand32, f_randbool, f_randrange, f_fill};
        check_rng_fill(seed, sizeof seed);
        if (round == 0)
            memset(seed, 0, sizeof seed);
        if (round == 0)
            fastrandom2_init_deterministic(&r);
        else
            fastrandom2_init_seed(&r, seed);
        chacha20_set_key(&c, seed);
        chacha20_keystream(&c, ks, sizeof ks);
        memset(&m, 0, sizeof m);
        m.fast = 1;
        m.ks = ks;
        /* 100 calls use at most 100 * (300 + 8 * 64) bytes with the rejection loops */
        if (!run_sequence(&g, &m, 60))
            break;
    }
}

/* The buffer rules spelled out on the first outputs of seed 0. */
static void test_bit_buffer(void)
{
    insecurerandom_ctx r, s;
    uint64_t w0 = 0x6f68e1e7e2646ee1, w1 = 0xbf971b7f454094ad, w2 = 0x48f2de556f30de38;
    insecurerandom_init(&r, 0);
    s = r;
    CHECK(insecurerandom_randbits(&r, 0) == 0);
    CHECK(memcmp(&r, &s, sizeof r) == 0);                /* 0 bits use nothing */
    CHECK(insecurerandom_randrange(&r, 1) == 0);
    CHECK(memcmp(&r, &s, sizeof r) == 0);                /* neither does range 1 */
    CHECK((uint64_t)insecurerandom_randbool(&r) == (w0 & 1));
    CHECK(insecurerandom_randbits(&r, 3) == ((w0 >> 1) & 7));
    CHECK(insecurerandom_randbits(&r, 64) == w1);         /* 64 bits: the next output */
    CHECK(insecurerandom_rand32(&r) == ((w0 >> 4) & 0xffffffffu));   /* buffer untouched */
    /* 28 bits left; 40 asked: those 28, then the low 12 bits of the next output */
    CHECK(insecurerandom_randbits(&r, 40) == (w0 >> 36 | (w2 & 0xfff) << 28));
    CHECK(insecurerandom_randbits(&r, 52) == w2 >> 12);  /* the rest of that output */
}

/* randrange(n) for a few n, 200 * n draws at a fixed seed: chi-square below the 99.9999%
 * point of its distribution (the seed is fixed, so this is deterministic). */
static void test_uniform(void)
{
    static const int ranges[] = {2, 3, 7, 10, 100, 1000};
    /* chi-square 99.9999% points for n - 1 degrees of freedom */
    static const double limit[] = {23.9, 27.6, 38.0, 45.7, 182.0, 1275.0};
    size_t t;
    for (t = 0; t < sizeof ranges / sizeof ranges[0]; t++) {
        int n = ranges[t], i;
        static unsigned counts[1000];
        insecurerandom_ctx r;
        fastrandom2_ctx f;
        double chi_i = 0, chi_f = 0, expect = 200;
        for (int pass = 0; pass < 2; pass++) {
            memset(counts, 0, sizeof counts);
            insecurerandom_init(&r, 251438);
            fastrandom2_init_deterministic(&f);
            for (i = 0; i < 200 * n; i++)
                counts[pass ? fastrandom2_randrange(&f, (uint64_t)n)
                            : insecurerandom_randrange(&r, (uint64_t)n)]++;
            for (i = 0; i < n; i++) {
                double d = counts[i] - expect;
                *(pass ? &chi_f : &chi_i) += d * d / expect;
            }
        }
        CHECKF(chi_i < limit[t], "InsecureRandom randrange(%d): chi-square %.1f", n, chi_i);
        CHECKF(chi_f < limit[t], "FastRandom randrange(%d): chi-square %.1f", n, chi_f);
    }
}

/* Core's shuffle test (random_tests.cpp), on stdshuffle: 12000 shuffles of 5 elements; every
 * reachable permutation between 50 and 150 times, the unreachable ones never, and the
 * chi-square within Core's 99.9999% bounds. */
static void test_shuffle_distribution(void)
{
    static unsigned counts[5 * 5 * 5 * 5 * 5];
    insecurerandom_ctx r;
    double chi = 0;
    unsigned sum = 0;
    int i;
    memset(counts, 0, sizeof counts);
    insecurerandom_init(&r, 42);
    for (i = 0; i < 12000; i++) {
        uint64_t d[5] = {0, 1, 2, 3, 4};
        insecurerandom_stdshuffle(&r, d, 5);
        counts[d[0] + d[1] * 5 + d[2] * 25 + d[3] * 125 + d[4] * 625]++;
    }
    for (i = 0; i < 5 * 5 * 5 * 5 * 5; i++) {
        int a = i % 5, b = i / 5 % 5, c = i / 25 % 5, d = i / 125 % 5, e = i / 625;
        if (a == b || a == c || a == d || a == e || b == c || b == d || b == e || c == d
            || c == e || d == e) {
            CHECK(counts[i] == 0);
        } else {
            chi += (counts[i] - 100.0) * (counts[i] - 100.0) / 100.0;
            CHECKF(counts[i] > 50 && counts[i] < 150, "permutation %d: %u", i, counts[i]);
            sum += counts[i];
        }
    }
    CHECKF(chi > 58.1411 && chi < 210.275, "chi-square %.1f", chi);
    CHECK(sum == 12000);
}

/* Permutations that libstdc++ 12's std::shuffle made with these generators as the URBG
 * (operator() = rand64), and the generator's next output afterwards. */
static void test_shuffle_libstdcxx(void)
{
    static const uint64_t twice[100] = {
        32, 61, 17, 3, 70, 58, 64, 46, 6, 8, 99, 22, 0, 12, 38, 34, 86, 42, 18, 98, 27, 62,
        31, 71, 1, 37, 11, 68, 53, 63, 72, 81, 69, 4, 79, 19, 52, 39, 88, 21, 57, 66, 28, 13,
        93, 56, 80, 41, 45, 40, 5, 55, 20, 78, 24, 14, 84, 7, 49, 60, 36, 23, 65, 75, 10, 51,
        74, 54, 50, 85, 82, 25, 87, 76, 91, 92, 77, 47, 15, 94, 97, 33, 89, 73, 59, 29, 26,
        48, 16, 2, 9, 44, 96, 43, 95, 90, 67, 30, 35, 83};
    static const uint64_t fast[100] = {
        18, 63, 77, 7, 96, 42, 82, 51, 65, 88, 56, 68, 92, 30, 58, 31, 34, 93, 4, 81, 95, 22,
        80, 89, 73, 37, 5, 49, 94, 90, 27, 62, 15, 44, 2, 91, 14, 21, 98, 45, 87, 19, 6, 28,
        64, 53, 66, 20, 99, 29, 40, 43, 47, 0, 17, 84, 39, 72, 57, 85, 48, 71, 61, 33, 46, 23,
        12, 13, 8, 59, 55, 75, 83, 67, 86, 1, 10, 50, 97, 25, 26, 70, 24, 38, 41, 35, 79, 69,
        9, 78, 32, 54, 3, 76, 36, 60, 11, 52, 74, 16};
    static const uint64_t seven[7] = {1, 5, 2, 4, 3, 0, 6};
    uint64_t d[100], e[7], one = 7;
    insecurerandom_ctx r, s;
    fastrandom2_ctx f;
    int i;
    /* InsecureRandomContext(251438), as Core's InsecureRandom_stdshuffle100: two shuffles */
    insecurerandom_init(&r, 251438);
    for (i = 0; i < 100; i++)
        d[i] = (uint64_t)i;
    insecurerandom_stdshuffle(&r, d, 100);
    insecurerandom_stdshuffle(&r, d, 100);
    CHECK(memcmp(d, twice, sizeof d) == 0);
    CHECK(insecurerandom_rand64(&r) == 0x136b71e7f7955fb8);
    /* then 7 elements (odd: pairs only) */
    for (i = 0; i < 7; i++)
        e[i] = (uint64_t)i;
    insecurerandom_stdshuffle(&r, e, 7);
    CHECK(memcmp(e, seven, sizeof e) == 0);
    /* FastRandomContext(true) */
    fastrandom2_init_deterministic(&f);
    for (i = 0; i < 100; i++)
        d[i] = (uint64_t)i;
    fastrandom2_stdshuffle(&f, d, 100);
    CHECK(memcmp(d, fast, sizeof d) == 0);
    CHECK(fastrandom2_rand64(&f) == 0x4bca672b333c7d79);
    /* 0 and 1 elements: nothing moves and nothing is drawn */
    insecurerandom_init(&r, 5);
    s = r;
    insecurerandom_stdshuffle(&r, NULL, 0);
    insecurerandom_stdshuffle(&r, &one, 1);
    CHECK(one == 7 && memcmp(&r, &s, sizeof r) == 0);
}

/* Today's FastRandom reads the same keystream as the 2020 one: the same rand64 sequence, the
 * zero key's first words; fill continues the byte stream across blocks. */
static void test_fast_stream(void)
{
    fastrandom2_ctx f, g;
    fastrandom_ctx old;
    unsigned char b[3];
    int i, same = 1;
    fastrandom2_init_deterministic(&f);
    fastrandom_init_deterministic(&old);
    CHECK(fastrandom2_rand64(&f) == 0x903df1a0ade0b876);
    CHECK(fastrandom2_rand64(&f) == 0x28bd8653e56a5d40);
    fastrandom_rand64(&old);
    fastrandom_rand64(&old);
    for (i = 0; i < 1000; i++)
        same &= fastrandom2_rand64(&f) == fastrandom_rand64(&old);
    CHECK(same);
    /* 3 bytes, then a word: bytes 3..10 of the stream (76b8e0 | ada0f13d90405d6a) */
    fastrandom2_init_deterministic(&f);
    fastrandom2_fill(&f, b, 3);
    CHECK(b[0] == 0x76 && b[1] == 0xb8 && b[2] == 0xe0);
    CHECK(fastrandom2_rand64(&f) == 0x6a5d40903df1a0ad);
    /* a copy continues the same stream */
    g = f;
    CHECK(fastrandom2_rand64(&f) == fastrandom2_rand64(&g));
    CHECK(fastrandom2_randbits(&f, 13) == fastrandom2_randbits(&g, 13));
}

int main(int argc, char **argv)
{
    check_rng_init("test_random");
    if (argc > 1 && strcmp(argv[1], "--quick") == 0)
        rounds = 20;
    test_xoroshiro_reference();
    test_bit_buffer();
    test_model_insecure();
    test_model_fast();
    test_uniform();
    test_shuffle_distribution();
    test_shuffle_libstdcxx();
    test_fast_stream();
    return check_finish();
}
