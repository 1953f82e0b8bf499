/* nb_setup_each against the brute-force truth (doc/measurements.md, "Harness").
 *
 * Sorting n shuffled ints, qsort and insertion sort, n = 200 and 1000:
 *  - truth: 4,000 arrays shuffled beforehand, sorted back to back by the same functions, the
 *    clock read about once a millisecond (at least every 5 sorts, never around one);
 *  - nb_setup_each: nb_run with the setup copying the next of those arrays in, each sort
 *    timed alone and the clock's cost taken out (the row's median);
 *  - nb_setup: the same with the per-epoch setup, the way a per-epoch setup misleads.
 * Rounds interleave the three for both sorts (A, B, C, A, B, C, ...); the medians over the
 * rounds are printed with each one's ratio to the truth, and insertion sort's time over
 * qsort's each way.
 * Then the smallest op it times honestly: a chain of k one-cycle steps, k = 16 .. 4096, timed by
 * plain nb_run (many iterations per epoch) and by nb_run with an empty nb_setup_each.
 *
 * Build and run from a build tree (the single header, libc and libm):
 *   cc -O2 -std=c99 -I_build doc/experiments/setup_each_truth.c -lm -o /tmp/truth && /tmp/truth
 * Optional argument: rounds (default 7). */
#define NB_IMPLEMENTATION
#include "nanobench-single.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ARRAYS 4000
#define MAXN 1000

static int *pool;         /* ARRAYS arrays of n ints, shuffled */
static int v[MAXN];
static int *cur = v;      /* what the sorts sort: v, or the truth's next array */
static size_t n, next;

static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
static void by_qsort(void *arg) { (void)arg; qsort(cur, n, sizeof cur[0], cmp); }
static void by_insertion(void *arg)
{
    int *a = cur;
    size_t i, j;
    int x;
    (void)arg;
    for (i = 1; i < n; ++i) {
        for (j = i, x = a[i]; j > 0 && a[j - 1] > x; --j)
            a[j] = a[j - 1];
        a[j] = x;
    }
}
static void refill(void *arg)
{
    (void)arg;
    memcpy(v, pool + next * n, n * sizeof v[0]);
    next = (next + 1) % ARRAYS;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double median(double *x, size_t m)
{
    size_t i, j;
    for (i = 1; i < m; ++i)   /* insertion sort, of course */
        for (j = i; j > 0 && x[j - 1] > x[j]; --j) {
            double t = x[j];
            x[j] = x[j - 1];
            x[j - 1] = t;
        }
    return m % 2 ? x[m / 2] : (x[m / 2 - 1] + x[m / 2]) / 2;
}

/* The truth: every array sorted in place, back to back, by the same functions, the clock
 * read once per chunk of about a millisecond of sorts (never around a single sort: at least
 * 5 in a chunk; the chunk's size from the fastest of 5 sorts timed first); the median over
 * the chunks of a chunk's time per sort, so that a time slice lost to another process (the
 * machine is shared) falls on a few chunks, not on the figure, as it falls on a few of
 * nb_run's epochs. */
static double truth(void (*sort)(void *))
{
    static int *work;
    static double per[ARRAYS];
    size_t k, c, chunk;
    double fastest = 1;
    if (!work)
        work = malloc(sizeof(int) * ARRAYS * MAXN);
    for (k = 0; k < 5; ++k) {   /* on copies: the pool stays shuffled */
        double t0;
        memcpy(v, pool + k * n, n * sizeof v[0]);
        t0 = now_s();
        sort(NULL);
        if (now_s() - t0 < fastest)
            fastest = now_s() - t0;
    }
    chunk = (size_t)(1e-3 / fastest);
    chunk = chunk < 5 ? 5 : chunk > ARRAYS / 8 ? ARRAYS / 8 : chunk;
    memcpy(work, pool, sizeof(int) * ARRAYS * n);
    for (c = 0; c < ARRAYS / chunk; ++c) {
        double t0 = now_s();
        for (k = c * chunk; k < (c + 1) * chunk; ++k) {
            cur = work + k * n;   /* the same sort function on the next array */
            sort(NULL);
            nb_clobber_memory();
        }
        per[c] = (now_s() - t0) / (double)chunk;
    }
    cur = v;
    return median(per, ARRAYS / chunk);
}

static double harness(nb_bench *b, void (*sort)(void *), int each)
{
    if (each)
        nb_setup_each(b, refill, NULL);
    else
        nb_setup(b, refill, NULL);
    nb_run(b, sort, NULL);
    return nb_result_median(nb_result_at(b, nb_result_count(b) - 1), NB_ELAPSED);
}


/* k dependent adds (x86-64 and AArch64; elsewhere a volatile chain). */
static unsigned k_adds;
static void chain(void *arg)
{
    unsigned long x = (unsigned long)(size_t)arg;
    unsigned i;
    for (i = 0; i < k_adds; ++i)
        __asm__ __volatile__("" : "+r"(x));
    nb_do_not_optimize_away(x);
}
static void nothing(void *arg) { (void)arg; }

int main(int argc, char **argv)
{
    static const size_t sizes[2] = { 200, 1000 };
    size_t rounds = argc > 1 ? (size_t)atoi(argv[1]) : 7, s, r, i;
    nb_rng rng;
    nb_rng_seed(&rng, 2024);
    pool = malloc(sizeof(int) * ARRAYS * MAXN);
    printf("| n | sort | truth us | setup_each us | each/truth | setup (per epoch) us | "
           "per-epoch/truth |\n|--:|:--|--:|--:|--:|--:|--:|\n");
    for (s = 0; s < 2; ++s) {
        double t[2][3][64], med[2][3];
        int k;
        n = sizes[s];
        for (i = 0; i < ARRAYS * n; ++i)
            pool[i] = (int)nb_rng_bounded(&rng, 1000000);
        for (r = 0; r < rounds && r < 64; ++r) {
            for (k = 0; k < 2; ++k) {
                void (*sort)(void *) = k ? by_insertion : by_qsort;
                nb_bench *b = nb_output(nb_bench_new(), NULL);
                t[k][0][r] = truth(sort);
                t[k][1][r] = harness(b, sort, 1);
                t[k][2][r] = harness(b, sort, 0);
                nb_bench_free(b);
            }
        }
        for (k = 0; k < 2; ++k) {
            int w;
            for (w = 0; w < 3; ++w)
                med[k][w] = median(t[k][w], rounds);
            printf("| %zu | %s | %.2f | %.2f | %.3f | %.2f | %.3f |\n", n,
                   k ? "insertion" : "qsort", med[k][0] * 1e6, med[k][1] * 1e6,
                   med[k][1] / med[k][0], med[k][2] * 1e6, med[k][2] / med[k][0]);
        }
        printf("| %zu | insertion / qsort | %.3f | %.3f | %.3f | %.3f | %.3f |\n", n,
               med[1][0] / med[0][0], med[1][1] / med[0][1],
               (med[1][1] / med[0][1]) / (med[1][0] / med[0][0]), med[1][2] / med[0][2],
               (med[1][2] / med[0][2]) / (med[1][0] / med[0][0]));
    }
    printf("\n| adds | nb_run ns | nb_setup_each ns | each/run |\n|--:|--:|--:|--:|\n");
    for (k_adds = 16; k_adds <= 4096; k_adds *= 2) {
        double a[64], e[64];
        for (r = 0; r < rounds && r < 64; ++r) {
            nb_bench *b = nb_output(nb_bench_new(), NULL);
            nb_run(b, chain, NULL);
            nb_run(nb_setup_each(b, nothing, NULL), chain, NULL);
            a[r] = nb_result_median(nb_result_at(b, 0), NB_ELAPSED);
            e[r] = nb_result_median(nb_result_at(b, 1), NB_ELAPSED);
            nb_bench_free(b);
        }
        {
            double ma = median(a, rounds), me = median(e, rounds);
            printf("| %u | %.1f | %.1f | %.3f |\n", k_adds, ma * 1e9, me * 1e9, me / ma);
        }
    }
    free(pool);
    return 0;
}
