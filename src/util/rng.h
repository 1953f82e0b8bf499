/* xoshiro256** seeded through splitmix64: a small, fast generator that gives
 * the same numbers on every platform. For reproducible workloads and test
 * inputs, not for anything secret. Header-only, so that any library or test
 * can use it without a link dependency. */
#ifndef UTIL_RNG_H
#define UTIL_RNG_H

#include <stdint.h>

#include "util/splitmix64.h"

typedef struct {
    uint64_t s[4];
} bb_rng;

/* Expands seed into the state through splitmix64 (never all zero). */
static inline void bb_rng_seed(bb_rng *r, uint64_t seed)
{
    int i;
    for (i = 0; i < 4; i++)
        r->s[i] = splitmix64_next(&seed);
}

static inline uint64_t bb_rng_rotl(uint64_t v, int k)
{
    return (v << k) | (v >> (64 - k));
}

static inline uint64_t bb_rng_next(bb_rng *r)
{
    uint64_t *s = r->s, out = bb_rng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = bb_rng_rotl(s[3], 45);
    return out;
}

/* Uniform in [0, bound), bound > 0 (rejection removes the modulo bias). */
static inline uint64_t bb_rng_below(bb_rng *r, uint64_t bound)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % bound, x;
    do {
        x = bb_rng_next(r);
    } while (x >= limit);
    return x % bound;
}

#endif
