/* nanobench's Rng: Mark Overton's RomuDuoJr (romu-random.org), seeded the way
 * nanobench seeds it (two SplitMix64 steps, then ten discarded outputs).
 *
 * RomuDuoJr keeps 128 bits of state and costs one multiply, one subtract and
 * one rotate per output. It is a fast generator for benchmarks, not a
 * cryptographic one. The all-zero state is a fixed point (it yields zeros for
 * ever), which is why nb_rng_set_state refuses it. */
#include "bench/nanobench.h"
#include "util/splitmix64.h"

#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ROMU_MUL UINT64_C(15241094284759029579)

static uint64_t rotl64(uint64_t v, unsigned k)
{
    return (v << k) | (v >> (64U - k));
}

uint64_t nb_rng_next(nb_rng *r)
{
    uint64_t out;
    if (!r)
        return 0;
    out = r->x;
    r->x = ROMU_MUL * r->y;
    r->y = rotl64(r->y - out, 27);
    return out;
}

void nb_rng_seed(nb_rng *r, uint64_t seed)
{
    int i;
    if (!r)
        return;
    r->x = splitmix64_next(&seed);
    r->y = splitmix64_next(&seed);
    /* The Romu paper's advice: discard a few outputs so that similar seeds
     * do not start with correlated values. */
    for (i = 0; i < 10; ++i)
        (void)nb_rng_next(r);
}

void nb_rng_seed_random(nb_rng *r)
{
    uint64_t s[2] = {0, 0};
    int fd;
    if (!r)
        return;
    fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t got = read(fd, s, sizeof s);
        close(fd);
        if (got != (ssize_t)sizeof s)
            s[0] = s[1] = 0;
    }
    if (s[0] == 0 && s[1] == 0) {
        /* No urandom (a chroot, a sandbox): mix the clock, the address of
         * the state and the pid; weak, but different run to run. */
        struct timespec ts;
        uint64_t mix;
        clock_gettime(CLOCK_REALTIME, &ts);
        mix = (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
        mix ^= (uint64_t)(uintptr_t)r ^ ((uint64_t)getpid() << 32);
        s[0] = splitmix64_next(&mix);
        s[1] = splitmix64_next(&mix);
    }
    while (s[0] == 0 && s[1] == 0) {
        uint64_t mix = 1;
        s[0] = splitmix64_next(&mix);
        s[1] = splitmix64_next(&mix);
    }
    r->x = s[0];
    r->y = s[1];
}

uint32_t nb_rng_bounded(nb_rng *r, uint32_t range)
{
    /* Lemire's multiply-shift on the low 32 bits: no division, a bias below
     * range / 2^32, exactly as nanobench does it (a NULL r draws 0). */
    uint64_t r32 = (uint32_t)nb_rng_next(r);
    return (uint32_t)((r32 * range) >> 32);
}

double nb_rng_uniform01(nb_rng *r)
{
    /* 52 random bits as the mantissa of a double in [1, 2), minus 1. */
    uint64_t bits = (UINT64_C(0x3ff) << 52) | (nb_rng_next(r) >> 12);   /* NULL r: 0 */
    double d;
    memcpy(&d, &bits, sizeof d);
    return d - 1.0;
}

nb_rng nb_rng_copy(const nb_rng *r)
{
    nb_rng zero = { 0, 0 };
    return r ? *r : zero;
}

void nb_rng_state(const nb_rng *r, uint64_t state[2])
{
    if (!state)
        return;
    state[0] = r ? r->x : 0;
    state[1] = r ? r->y : 0;
}

/* A uniform index in [0, range) for any 64-bit range: Lemire's multiply-shift
 * on all 64 bits, with his rejection of the few values that would bias it. */
static uint64_t below(nb_rng *r, uint64_t range)
{
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 u128;
    u128 m = (u128)nb_rng_next(r) * range;
    uint64_t low = (uint64_t)m;
    if (low < range) {
        uint64_t threshold = (0 - range) % range;
        while (low < threshold) {
            m = (u128)nb_rng_next(r) * range;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
#else
    uint64_t limit = UINT64_MAX - UINT64_MAX % range, v;
    do
        v = nb_rng_next(r);
    while (v >= limit);
    return v % range;
#endif
}

void nb_rng_shuffle(nb_rng *r, void *base, size_t count, size_t size)
{
    unsigned char *p = base, tmp[256];
    size_t i;
    if (!r || !base || size == 0)
        return;
    /* Fisher-Yates from the end: element i swaps with one of 0..i, each as
     * likely; counts up to 2^32 draw with nb_rng_bounded, larger ones with
     * the 64-bit rejection above */
    for (i = count; i > 1; --i) {
        size_t j = i <= UINT32_MAX ? nb_rng_bounded(r, (uint32_t)i) : (size_t)below(r, i);
        unsigned char *a = p + (i - 1) * size, *b = p + j * size;
        size_t done = 0;
        if (a == b)
            continue;
        while (done < size) { /* any element size, in pieces of the buffer */
            size_t k = size - done < sizeof tmp ? size - done : sizeof tmp;
            memcpy(tmp, a + done, k);
            memcpy(a + done, b + done, k);
            memcpy(b + done, tmp, k);
            done += k;
        }
    }
}

int nb_rng_set_state(nb_rng *r, const uint64_t state[2])
{
    if (!r || !state || (state[0] == 0 && state[1] == 0))
        return -1;
    r->x = state[0];
    r->y = state[1];
    return 0;
}
