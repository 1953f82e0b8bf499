/* SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
 * OOPSLA 2014): one step adds the golden-ratio gamma to a 64-bit state and mixes the sum.
 * Used to expand one seed into the state of another generator, and for cheap salts; not
 * for anything secret. Header-only and free of dependencies beyond <stdint.h>, so that any
 * library of the project (the harness's single header included) can use it without a link
 * dependency. */
#ifndef UTIL_SPLITMIX64_H
#define UTIL_SPLITMIX64_H

#include <stdint.h>

/* Advances *state and returns the next output. */
static inline uint64_t splitmix64_next(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

#endif
