/* The one clock: CLOCK_MONOTONIC (a vDSO call on Linux, no syscall), and its
 * resolution, measured once per process as the smallest step it takes. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"

#include <time.h>

uint64_t nb_clock_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

/* The smallest non-zero difference between two consecutive readings, over
 * 20 tries: what one epoch can resolve at best. clock_getres() reports the
 * tick (1 ns), not what a reading costs, so it is measured instead. */
static uint64_t measure_resolution(void)
{
    uint64_t best = UINT64_MAX;
    int i;
    for (i = 0; i < 20; ++i) {
        uint64_t t0 = nb_clock_now_ns(), t1;
        do {
            t1 = nb_clock_now_ns();
        } while (t1 == t0);
        if (t1 - t0 < best)
            best = t1 - t0;
    }
    return best;
}

uint64_t nb_clock_resolution_ns(void)
{
    /* Measured on first use; two threads racing here both store a valid
     * measurement, so no lock is needed, only atomic access (32 bits, so
     * that it is lock-free on every target; a resolution above 4 s is
     * recorded as 4 s). */
    static uint32_t resolution;
    uint32_t r = __atomic_load_n(&resolution, __ATOMIC_RELAXED);
    if (r == 0) {
        uint64_t m = measure_resolution();
        r = m > UINT32_MAX ? UINT32_MAX : (uint32_t)m;
        __atomic_store_n(&resolution, r, __ATOMIC_RELAXED);
    }
    return r;
}

double nb_clock_resolution(void)
{
    return (double)nb_clock_resolution_ns() * 1e-9;
}
