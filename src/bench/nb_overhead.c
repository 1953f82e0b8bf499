/* Does nb_run cost the measured code anything per iteration? Times an op of
 * one increment through nb_run and the same increment in a hand-written
 * loop, side by side, and prints both medians and their ratio. Also an op
 * the compiler may not inline, to show what an indirect call per iteration
 * would have cost.
 *
 * Usage: src/bench/nb_overhead [rounds]   (default 3; prints a table)
 *
 * Each round runs the variants back to back; the last line is the best
 * (minimum) of each column over the rounds, the fairest figure on a shared,
 * noisy machine.
 *
 * Then what nb_compare's op costs per iteration: an nb_compare of the same
 * increment given as op_n (a loop the increment inlines into, which costs
 * what nb_run's loop costs) against it given as op (called through a
 * pointer once per iteration), and the same for an op of about 20 ns. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nanobench.h"

#include <stdlib.h>
#include <time.h>

static volatile uint64_t counter;

static void inc_volatile(void *arg)
{
    (void)arg;
    counter++;
}

static void inc_register(void *arg)
{
    uint64_t *x = arg;
    *x += 1;
    nb_do_not_optimize_away(*x);
}

__attribute__((noinline)) static void inc_noinline(void *arg)
{
    (void)arg;
    counter++;
    __asm__ __volatile__("");
}

static void inc_register_n(void *arg, uint64_t n)
{
    while (n--)
        inc_register(arg);
}

/* About 20 ns of dependent multiply-adds. */
static void mix20(void *arg)
{
    uint64_t *x = arg;
    int i;
    for (i = 0; i < 20; ++i) {
        *x = *x * 6364136223846793005u + 1442695040888963407u;
        nb_do_not_optimize_away(*x);
    }
}

static void mix20_n(void *arg, uint64_t n)
{
    while (n--)
        mix20(arg);
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median ns per increment of 11 hand-timed loops of n iterations. */
static double hand_volatile(uint64_t n)
{
    double v[11];
    int e;
    for (e = 0; e < 11; ++e) {
        uint64_t i, t0 = now_ns();
        for (i = 0; i < n; ++i)
            counter++;
        v[e] = (double)(now_ns() - t0) / (double)n;
    }
    qsort(v, 11, sizeof(v[0]), cmp);
    return v[5];
}

static double hand_register(uint64_t n)
{
    double v[11];
    int e;
    for (e = 0; e < 11; ++e) {
        uint64_t i, x = 0, t0 = now_ns();
        for (i = 0; i < n; ++i) {
            x += 1;
            nb_do_not_optimize_away(x);
        }
        v[e] = (double)(now_ns() - t0) / (double)n;
    }
    qsort(v, 11, sizeof(v[0]), cmp);
    return v[5];
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 3, k;
    nb_bench *b = nb_bench_new();
    uint64_t x = 0;
    if (!b)
        return 1;
    nb_output(b, NULL);
    printf("| round | volatile: nb_run ns | hand ns | ratio "
           "| register: nb_run ns | hand ns | ratio | noinline nb_run ns |\n");
    printf("|------:|-----:|-----:|-----:|-----:|-----:|-----:|-----:|\n");
    double best[5] = { 1e9, 1e9, 1e9, 1e9, 1e9 };
    for (k = 0; k < rounds; ++k) {
        double rv, hv, rr, hr, rn;
        uint64_t n;
        nb_run(nb_name(b, "volatile"), inc_volatile, NULL);
        rv = nb_result_median(nb_result_at(b, nb_result_count(b) - 1), NB_ELAPSED) * 1e9;
        n = (uint64_t)nb_result_median(nb_result_at(b, nb_result_count(b) - 1), NB_ITERATIONS);
        hv = hand_volatile(n);
        nb_run(nb_name(b, "register"), inc_register, &x);
        rr = nb_result_median(nb_result_at(b, nb_result_count(b) - 1), NB_ELAPSED) * 1e9;
        n = (uint64_t)nb_result_median(nb_result_at(b, nb_result_count(b) - 1), NB_ITERATIONS);
        hr = hand_register(n);
        nb_run(nb_name(b, "noinline"), inc_noinline, NULL);
        rn = nb_result_median(nb_result_at(b, nb_result_count(b) - 1), NB_ELAPSED) * 1e9;
        printf("| %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |\n", k + 1, rv, hv,
               rv / hv, rr, hr, rr / hr, rn);
        best[0] = rv < best[0] ? rv : best[0];
        best[1] = hv < best[1] ? hv : best[1];
        best[2] = rr < best[2] ? rr : best[2];
        best[3] = hr < best[3] ? hr : best[3];
        best[4] = rn < best[4] ? rn : best[4];
    }
    printf("| best | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |\n", best[0], best[1],
           best[0] / best[1], best[2], best[3], best[2] / best[3], best[4]);
    {
        uint64_t y = 0, z = 0;
        nb_alternative inc[2] = { { "increment, op_n (inlined loop)", NULL, &x, inc_register_n },
                                  { "increment, op (a call per iteration)", inc_register, &y,
                                    NULL } };
        nb_alternative mix[2] = { { "20 ns op, op_n (inlined loop)", NULL, &x, mix20_n },
                                  { "20 ns op, op (a call per iteration)", mix20, &z, NULL } };
        nb_output(b, stdout);
        nb_comparison_free(nb_compare(nb_title(b, "nb_compare: op against op_n"), inc, 2));
        nb_comparison_free(nb_compare(b, mix, 2));
    }
    nb_bench_free(b);
    return 0;
}
