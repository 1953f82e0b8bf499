/* Clock reads and sorting for the programs that take medians of rounds
 * themselves: the side-by-side comparison programs (prevector_speed,
 * mempool_timing, crypto_speed) and bench_bitcoin's -against. Header-only;
 * not the harness (src/bench), which has its own clock. Needs POSIX clock_gettime (the build defines _DEFAULT_SOURCE). */
#ifndef UTIL_TIMING_H
#define UTIL_TIMING_H

#include <stddef.h>
#include <stdlib.h>
#include <time.h>

/* Nanoseconds on clock id (CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID, ...). */
static inline double bb_clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static inline int bb_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v[0..n) ascending: v[n / 2] is then the median of an odd n. */
static inline void bb_sort_doubles(double *v, size_t n)
{
    qsort(v, n, sizeof v[0], bb_cmp_double);
}

#endif
