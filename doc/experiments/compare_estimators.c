/* Which interval should nb_compare report? Repeated real comparisons on this machine, each
 * reduced by several estimators from the same rounds, so that they face the same noise.
 *
 * Build and run from a build directory (doc/compare.md quotes the output):
 *
 *     cc -O2 -std=c99 -I SRC/src SRC/doc/experiments/compare_estimators.c \
 *         src/bench/.libs/libnanobench.a src/util/.libs/libbitcoin_alloc.a -lm -o ce
 *     ./ce [repetitions] [rows] [epoch_us]      (defaults 100, 48, 1000)
 *
 * Two cases, alternated (one comparison of each in turn, so that the host's state falls on
 * both): "same", an op against an identical copy of itself; "3% slower", the same op against
 * one doing 3% more of the same work (1030 steps of a dependent multiply-add chain where the
 * baseline does 1000, about 1 us), whose true ratio is 1000/1030 = 0.9709. Each comparison is one nb_compare of two alternatives with
 * the given rounds and epoch time. Its rounds are then reduced by:
 *
 *   wilcoxon   Hodges-Lehmann estimate, Wilcoxon signed-rank interval (nb_stats_paired)
 *   sign       median of the rounds' log ratios, sign-test interval
 *   min2-wil   consecutive rounds taken in pairs (AB then BA), each alternative's shorter epoch
 *              of the pair kept, then nb_stats_paired on half as many rounds
 *   min4-wil   the same over groups of four rounds
 *   min8-wil   and of eight
 *
 * and the program prints, per case and estimator: how often the 95% interval excluded 1
 * (false alarms for "same", the power for "3% slower", counting only the right direction),
 * how often it held the true ratio, the median width of the interval and the median and
 * worst error of the estimate in percentage points. */
#include "bench/nanobench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t x;
    int steps;
} work;

static void mix(void *arg)
{
    work *w = arg;
    int i;
    for (i = 0; i < w->steps; ++i) {
        w->x = w->x * 6364136223846793005u + 1442695040888963407u;
        nb_do_not_optimize_away(w->x);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of the log ratios with the sign-test interval. */
static int sign_interval(const double *base, const double *other, size_t n, nb_ratio *out)
{
    double d[4096], cum = 0, p = pow(0.5, (double)n), lo, hi;
    size_t c = 0, k;
    int have = 0;
    for (k = 0; k < n; ++k)
        d[k] = log(base[k] / other[k]);
    qsort(d, n, sizeof(d[0]), cmp_double);
    /* largest c with P(Bin(n, 1/2) <= c - 1) <= 0.025: interval [d_(c), d_(n+1-c)] */
    for (k = 0; k <= n / 2; ++k) {
        cum += p;
        if (cum > 0.025)
            break;
        c = k + 1;
        have = 1;
        p = p * (double)(n - k) / (double)(k + 1);
    }
    if (!have)
        return -1;
    lo = d[c - 1];
    hi = d[n - c];
    out->estimate = exp(n % 2 ? d[n / 2] : 0.5 * (d[n / 2 - 1] + d[n / 2]));
    out->low = exp(lo);
    out->high = exp(hi);
    out->significant = lo > 0 || hi < 0;
    return 0;
}

/* Each alternative's least time per iteration over groups of g consecutive rounds. */
static size_t grouped_min(const nb_result *r, size_t rounds, size_t g, double *out)
{
    size_t i, k, m = 0;
    for (i = 0; i + g <= rounds; i += g) {
        double best = INFINITY;
        for (k = 0; k < g; ++k) {
            double v = nb_result_epoch(r, NB_ELAPSED, i + k);
            if (v < best)
                best = v;
        }
        out[m++] = best;
    }
    return m;
}

#define NEST 5
static const char *const est_name[NEST] = { "wilcoxon", "sign", "min2-wil", "min4-wil",
                                            "min8-wil" };

typedef struct {
    size_t n, excluded, covered;
    double width[1000], err[1000], est[1000];
} tally;

static void count(tally *t, const nb_ratio *r, double truth, int want_sign)
{
    size_t i = t->n;
    if (i >= 1000)
        return;
    t->excluded += r->significant && (want_sign == 0 || (want_sign < 0) == (r->estimate < 1));
    t->covered += r->low <= truth && truth <= r->high;
    t->width[i] = (r->high - r->low) * 100;
    t->err[i] = fabs(r->estimate - truth) * 100;
    t->est[i] = r->estimate;
    t->n++;
}

static double median_of(double *v, size_t n)
{
    qsort(v, n, sizeof(v[0]), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int main(int argc, char **argv)
{
    size_t reps = argc > 1 ? (size_t)atol(argv[1]) : 100;
    size_t rows = argc > 2 ? (size_t)atol(argv[2]) : 48;
    double epoch_us = argc > 3 ? atof(argv[3]) : 1000;
    static tally t[2][NEST];
    static double base[4096], other[4096];
    size_t rep, c, e;
    double seconds = 0;
    nb_bench *b = nb_bench_new();
    size_t mismatches = 0;
    if (!b || rows > 4096 || rows < 4 * 6)
        return 1;
    nb_output(b, NULL);
    for (rep = 0; rep < reps; ++rep) {
        for (c = 0; c < 2; ++c) {
            work w0 = { 1, 1000 }, w1 = { 2, c ? 1030 : 1000 };
            nb_alternative alts[2] = { { "base", mix, &w0, NULL }, { "other", mix, &w1, NULL } };
            double truth = c ? 1000.0 / 1030.0 : 1.0;
            nb_comparison *cmp;
            const nb_result *r0, *r1;
            nb_ratio r;
            size_t m;
            nb_min_epoch_time(nb_epochs(b, rows / NB_COMPARE_EPOCHS_PER_ROUND),
                              (uint64_t)(epoch_us * 1000));
            cmp = nb_compare(b, alts, 2);
            if (!cmp)
                return 1;
            r0 = nb_comparison_result(cmp, 0);
            r1 = nb_comparison_result(cmp, 1);
            rows = nb_result_epoch_count(r0);
            seconds += nb_result_sum_product(r0, NB_ELAPSED, NB_ITERATIONS) +
                       nb_result_sum_product(r1, NB_ELAPSED, NB_ITERATIONS);
            for (e = 0; e < rows; ++e) {
                base[e] = nb_result_epoch(r0, NB_ELAPSED, e);
                other[e] = nb_result_epoch(r1, NB_ELAPSED, e);
            }
            if (nb_stats_paired(base, other, rows, 1, 0.95, &r) == 0)
                count(&t[c][0], &r, truth, c ? -1 : 0);
            if (sign_interval(base, other, rows, &r) == 0)
                count(&t[c][1], &r, truth, c ? -1 : 0);
            for (e = 2; e < NEST; ++e) {
                size_t g = (size_t)1 << (e - 1);
                m = grouped_min(r0, rows, g, base);
                grouped_min(r1, rows, g, other);
                if (nb_stats_paired(base, other, m, 1, 0.95, &r) == 0)
                    count(&t[c][e], &r, truth, c ? -1 : 0);
                if (g == NB_COMPARE_EPOCHS_PER_ROUND &&
                    r.estimate != nb_comparison_relative(cmp, 1, NULL, NULL))
                    mismatches++;
            }
            nb_comparison_free(cmp);
            /* the results pile up in b: start afresh now and then */
            if (nb_result_count(b) > 200) {
                nb_bench_free(b);
                b = nb_bench_new();
                if (!b)
                    return 1;
                nb_output(b, NULL);
            }
        }
    }
    printf("%zu comparisons per case, %zu rows of %.0f us epochs each, %.3f s measured per "
           "comparison on average%s\n\n", reps, rows, epoch_us, seconds / (double)(2 * reps),
           mismatches ? " (min4-wil differs from nb_compare's own figure!)" : "");
    printf("| case | estimator | interval excludes 1 | holds the truth | median width (pp) "
           "| median estimate | median error (pp) | worst error (pp) |\n");
    printf("|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (c = 0; c < 2; ++c) {
        for (e = 0; e < NEST; ++e) {
            tally *x = &t[c][e];
            double worst = 0;
            size_t i;
            if (!x->n)
                continue;
            for (i = 0; i < x->n; ++i)
                worst = x->err[i] > worst ? x->err[i] : worst;
            printf("| %s | %s | %.1f%% | %.1f%% | %.2f | %.4f | %.2f | %.2f |\n",
                   c ? "3% slower" : "same", est_name[e],
                   100.0 * (double)x->excluded / (double)x->n,
                   100.0 * (double)x->covered / (double)x->n, median_of(x->width, x->n),
                   median_of(x->est, x->n), median_of(x->err, x->n), worst);
        }
    }
    nb_bench_free(b);
    return 0;
}
