/* Times one ComplexMemPool iteration (add every transaction of the workload to
 * an empty pool, trim to 3/4 of its size, trim to empty) for several numbers of
 * children, and prints the median of several runs per size:
 *
 *   src/mempool/mempool_timing [runs] [n ...]    (default: 15 runs; n = 25 .. 800)
 *
 * A stand-in for bench_bitcoin -filter=ComplexMemPool -asymptote=... that
 * needs nothing but the mempool library. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mempool/mempool.h"
#include "mempool/workload.h"
#include "util/timing.h"

static double clock_s(clockid_t id) {
    return bb_clock_ns(id) * 1e-9;
}

/* Median seconds per iteration (wall clock; *cpu_med: this process's CPU
 * time, which other processes on a busy machine do not inflate), or a
 * negative number when memory ran out. */
static double time_size(size_t children, int runs, size_t *evicted_first, double *cpu_med) {
    mempool_workload w;
    mempool *pool;
    double *t, *c, med;
    int r;
    size_t i;
    if (mempool_workload_make(&w, children, MEMPOOL_WORKLOAD_SEED) != 0) {
        return -1;
    }
    pool = mempool_new(NULL);
    t = malloc((size_t)runs * sizeof(double));
    c = malloc((size_t)runs * sizeof(double));
    if (pool == NULL || t == NULL || c == NULL) {
        mempool_free(pool);
        free(t);
        free(c);
        mempool_workload_destroy(&w);
        return -1;
    }
    for (r = 0; r < runs; r++) {
        double t0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
        for (i = 0; i < w.count; i++) {
            if (mempool_add(pool, &w.txs[i]) != MEMPOOL_OK) {
                med = -1;
                goto done;
            }
        }
        *evicted_first = mempool_trim(pool, mempool_total_size(pool) * 3 / 4, NULL, NULL);
        mempool_trim(pool, 0, NULL, NULL);
        t[r] = clock_s(CLOCK_MONOTONIC) - t0;
        c[r] = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    }
    bb_sort_doubles(t, (size_t)runs);
    bb_sort_doubles(c, (size_t)runs);
    med = t[runs / 2];
    *cpu_med = c[runs / 2];
done:
    free(t);
    free(c);
    mempool_free(pool);
    mempool_workload_destroy(&w);
    return med;
}

int main(int argc, char **argv) {
    static const size_t def[] = {25, 50, 100, 200, 400, 600, 800};
    size_t sizes[64], n_sizes = 0, i;
    int runs = 15;
    if (argc > 1) {
        runs = atoi(argv[1]);
        if (runs < 1) {
            fprintf(stderr, "mempool_timing: runs must be a positive number\n");
            return 1;
        }
    }
    for (i = 2; i < (size_t)argc && n_sizes < 64; i++) {
        sizes[n_sizes++] = (size_t)strtoul(argv[i], NULL, 10);
    }
    if (n_sizes == 0) {
        for (i = 0; i < sizeof(def) / sizeof(def[0]); i++) {
            sizes[n_sizes++] = def[i];
        }
    }
    printf("median of %d runs per size; wall = elapsed, cpu = this process's CPU time\n", runs);
    printf("| childTxs | wall ms | cpu ms | cpu ns / (100+n)^2 | evicted by 3/4 trim |\n");
    printf("|---------:|--------:|-------:|-----------:|----:|\n");
    for (i = 0; i < n_sizes; i++) {
        size_t ev = 0;
        double cpu = 0, s = time_size(sizes[i], runs, &ev, &cpu), m = 100.0 + (double)sizes[i];
        if (s < 0) {
            fprintf(stderr, "mempool_timing: out of memory\n");
            return 1;
        }
        printf("| %8zu | %7.3f | %6.3f | %10.2f | %3zu |\n", sizes[i], s * 1e3, cpu * 1e3,
               cpu * 1e9 / (m * m), ev);
    }
    return 0;
}
