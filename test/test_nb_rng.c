/* nb_rng: nanobench's RomuDuoJr against known answers and its properties.
 *
 * The known answers were computed by a separate Python model of RomuDuoJr
 * and SplitMix64 (big integers masked to 64 bits); the first three outputs
 * from state (1, 2) are also easy by hand: 1, then 2 * mul mod 2^64, then
 * (mul << 27) mod 2^64, because y becomes rotl(2 - 1, 27) = 2^27. */
#include "bench/nanobench.h"
#include "check.h"

#include <string.h>

#define MUL UINT64_C(15241094284759029579)

static void test_known_state(void)
{
    static const uint64_t want[5] = {
        UINT64_C(0x1), UINT64_C(0xa7067d009e98ae96), UINT64_C(0x027a62ba58000000),
        UINT64_C(0xbbf058bed6b89bbd), UINT64_C(0x7ffdbd09495c0baa),
    };
    uint64_t st[2] = {1, 2};
    nb_rng r;
    int i;

    CHECK(nb_rng_set_state(&r, st) == 0);
    CHECK(want[1] == 2 * MUL);
    CHECK(want[2] == MUL << 27);
    for (i = 0; i < 5; ++i) {
        uint64_t got = nb_rng_next(&r);
        CHECKF(got == want[i], "output %d: %016llx", i, (unsigned long long)got);
    }
}

static void test_seed(void)
{
    /* nanobench's Rng(seed): x, y from two SplitMix64 steps, 10 outputs
     * discarded. */
    static const struct {
        uint64_t seed, x, y, out[4];
    } kat[] = {
        {0, UINT64_C(0xa7c45111ce04ee51), UINT64_C(0xc14924ec11aa4e82),
         {UINT64_C(0xa7c45111ce04ee51), UINT64_C(0xb23394f37a2b2e16),
          UINT64_C(0x8a1c4e76add7024a), UINT64_C(0x3888050ae21b4790)}},
        {42, UINT64_C(0x1f49dd00300c0fce), UINT64_C(0xa5ffe4ec5619b853),
         {UINT64_C(0x1f49dd00300c0fce), UINT64_C(0x807925844cd13551),
          UINT64_C(0xa0f840d2f6540b75), UINT64_C(0xa8a2b83eee144adf)}},
    };
    size_t k;
    int i;

    for (k = 0; k < sizeof kat / sizeof kat[0]; ++k) {
        nb_rng r;
        uint64_t st[2];
        nb_rng_seed(&r, kat[k].seed);
        nb_rng_state(&r, st);
        CHECKF(st[0] == kat[k].x && st[1] == kat[k].y, "seed %llu state",
               (unsigned long long)kat[k].seed);
        for (i = 0; i < 4; ++i)
            CHECK(nb_rng_next(&r) == kat[k].out[i]);
    }
}

static void test_bounded_uniform_kat(void)
{
    nb_rng r;
    uint64_t v;
    double u;

    /* seed 42: first output 0x1f49dd00300c0fce; low 32 bits * 1000 >> 32 */
    nb_rng_seed(&r, 42);
    CHECK(nb_rng_bounded(&r, 1000) == 187);
    CHECK((uint32_t)((UINT64_C(0x300c0fce) * 1000) >> 32) == 187);
    /* second output 0x807925844cd13551: its top 52 bits / 2^52 */
    u = nb_rng_uniform01(&r);
    v = UINT64_C(0x807925844cd13551) >> 12;
    CHECK(u == (double)v / 4503599627370496.0);
    CHECK(u > 0.50184854965192 && u < 0.50184854965193);
}

static void test_properties(void)
{
    nb_rng r, c;
    uint64_t st[2], st2[2], zero[2] = {0, 0};
    uint32_t ranges[] = {1, 2, 3, 7, 10, 1000, 65536, 0x7fffffffu, 0xffffffffu};
    size_t k;
    int i, hist[10] = {0}, low = 0;

    nb_rng_seed(&r, check_rng_u64());
    for (k = 0; k < sizeof ranges / sizeof ranges[0]; ++k)
        for (i = 0; i < 20000; ++i) {
            uint32_t b = nb_rng_bounded(&r, ranges[k]);
            if (!CHECKF(b < ranges[k], "bounded(%u) gave %u", ranges[k], b))
                break;
        }
    CHECK(nb_rng_bounded(&r, 0) == 0);
    for (i = 0; i < 100000; ++i) {
        double u = nb_rng_uniform01(&r);
        if (!CHECKF(u >= 0.0 && u < 1.0, "uniform01 gave %.17g", u))
            break;
        if (u < 0.5)
            ++low;
        hist[nb_rng_bounded(&r, 10)]++;
    }
    /* loose: about 50000 +- 5 sigma (sigma ~ 158), 10000 +- 5 sigma (~95) */
    CHECKF(low > 49200 && low < 50800, "uniform01 below 0.5: %d of 100000", low);
    for (i = 0; i < 10; ++i)
        CHECKF(hist[i] > 9520 && hist[i] < 10480, "bounded(10) bucket %d: %d", i, hist[i]);

    /* a copy gives the same sequence, and stays independent */
    c = nb_rng_copy(&r);
    for (i = 0; i < 1000; ++i)
        if (!CHECK(nb_rng_next(&c) == nb_rng_next(&r)))
            break;
    (void)nb_rng_next(&c);
    CHECK(nb_rng_next(&c) != nb_rng_next(&r));

    /* state round trip */
    nb_rng_state(&r, st);
    CHECK(nb_rng_set_state(&c, st) == 0);
    nb_rng_state(&c, st2);
    CHECK(memcmp(st, st2, sizeof st) == 0);
    for (i = 0; i < 100; ++i)
        CHECK(nb_rng_next(&c) == nb_rng_next(&r));

    /* the all-zero state is refused and leaves the generator as it was */
    nb_rng_state(&c, st);
    CHECK(nb_rng_set_state(&c, zero) == -1);
    nb_rng_state(&c, st2);
    CHECK(memcmp(st, st2, sizeof st) == 0);

    /* the same seed gives the same generator, a different one does not */
    nb_rng_seed(&r, 7);
    nb_rng_seed(&c, 7);
    CHECK(nb_rng_next(&r) == nb_rng_next(&c));
    nb_rng_seed(&c, 8);
    CHECK(nb_rng_next(&r) != nb_rng_next(&c));
}

static void test_seed_random(void)
{
    nb_rng a, b;
    uint64_t sa[2], sb[2];
    nb_rng_seed_random(&a);
    nb_rng_seed_random(&b);
    nb_rng_state(&a, sa);
    nb_rng_state(&b, sb);
    CHECK(sa[0] != 0 || sa[1] != 0);
    CHECK(sa[0] != sb[0] || sa[1] != sb[1]); /* 2^-128 chance of a false failure */
}

/* nb_rng_shuffle: a permutation of what was there, the same for the same
 * seed, every order of three about equally often, elements of any size. */
static void test_shuffle(void)
{
    nb_rng r, r2;
    int a[100], b[100], seen[100];
    unsigned counts[6] = { 0 };
    struct { char bytes[300]; } big[5];
    size_t i, k;
    for (i = 0; i < 100; ++i)
        a[i] = b[i] = (int)i;
    nb_rng_seed(&r, 7);
    nb_rng_seed(&r2, 7);
    nb_rng_shuffle(&r, a, 100, sizeof a[0]);
    nb_rng_shuffle(&r2, b, 100, sizeof b[0]);
    CHECK(memcmp(a, b, sizeof a) == 0);
    memset(seen, 0, sizeof seen);
    for (i = 0; i < 100; ++i)
        seen[a[i]]++;
    for (i = 0; i < 100; ++i)
        CHECK(seen[i] == 1);
    for (i = 0, k = 0; i < 100; ++i)
        k += a[i] == (int)i;
    CHECK(k < 10);   /* about one fixed point is expected */
    /* 6000 shuffles of {0,1,2}: each of the 6 orders about 1000 times */
    for (k = 0; k < 6000; ++k) {
        int v[3] = { 0, 1, 2 };
        nb_rng_shuffle(&r, v, 3, sizeof v[0]);
        counts[v[0] * 2 + (v[1] > v[2])]++;
    }
    for (k = 0; k < 6; ++k)
        CHECKF(counts[k] > 850 && counts[k] < 1150, "order %zu: %u of 6000", k, counts[k]);
    for (i = 0; i < 5; ++i)
        memset(big[i].bytes, 'a' + (int)i, sizeof big[i].bytes);
    nb_rng_shuffle(&r, big, 5, sizeof big[0]);
    memset(seen, 0, sizeof seen);
    for (i = 0; i < 5; ++i) {
        int c = big[i].bytes[0] - 'a';
        CHECK(c >= 0 && c < 5 && big[i].bytes[299] == big[i].bytes[0]);
        if (c >= 0 && c < 5)
            seen[c]++;
    }
    for (i = 0; i < 5; ++i)
        CHECK(seen[i] == 1);
    nb_rng_shuffle(&r, a, 0, sizeof a[0]);   /* nothing to do */
    nb_rng_shuffle(&r, a, 1, 0);
}

int main(int argc, char **argv)
{
    (void)argc;
    check_rng_init(argv[0]);
    test_known_state();
    test_seed();
    test_bounded_uniform_kat();
    test_properties();
    test_seed_random();
    test_shuffle();
    return check_finish();
}
