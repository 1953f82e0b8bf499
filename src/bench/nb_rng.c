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
    uint64_t out = r->x;
    r->x = ROMU_MUL * r->y;
    r->y = rotl64(r->y - out, 27);
    return out;
}

void nb_rng_seed(nb_rng *r, uint64_t seed)
{
    int i;
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
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
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
     * range / 2^32, exactly as nanobench does it. */
    uint64_t r32 = (uint32_t)nb_rng_next(r);
    return (uint32_t)((r32 * range) >> 32);
}

double nb_rng_uniform01(nb_rng *r)
{
    /* 52 random bits as the mantissa of a double in [1, 2), minus 1. */
    uint64_t bits = (UINT64_C(0x3ff) << 52) | (nb_rng_next(r) >> 12);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d - 1.0;
}

nb_rng nb_rng_copy(const nb_rng *r)
{
    return *r;
}

void nb_rng_state(const nb_rng *r, uint64_t state[2])
{
    state[0] = r->x;
    state[1] = r->y;
}

int nb_rng_set_state(nb_rng *r, const uint64_t state[2])
{
    if (state[0] == 0 && state[1] == 0)
        return -1;
    r->x = state[0];
    r->y = state[1];
    return 0;
}
