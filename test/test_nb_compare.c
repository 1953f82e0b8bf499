/* Paired comparison: the statistics on fixed data with known answers
 * (reference values from an independent Python computation: brute-force
 * enumeration of the signed-rank and rank-sum distributions for small n,
 * scipy's exact Wilcoxon and Mann-Whitney p-values at the critical values,
 * scipy's normal quantile for the large-n approximations). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"
#include "check.h"
#include "util/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- statistics ---- */

static int near(double got, double want, double rel)
{
    return fabs(got - want) <= rel * fabs(want);
}

#define CHECK_RATIO(r, est, lo, hi)                                                  \
    CHECKF(near((r).estimate, est, 1e-12) && near((r).low, lo, 1e-12) &&            \
               near((r).high, hi, 1e-12),                                            \
           "got %.15g [%.15g, %.15g], want %.15g [%.15g, %.15g]", (r).estimate,      \
           (r).low, (r).high, (double)(est), (double)(lo), (double)(hi))

static const double pa_base[10] = {
    9.2880900000000004e-07, 1.0631860000000001e-06, 9.5646700000000001e-07, 9.870409999999999e-07,
    9.9623299999999994e-07, 9.6295599999999998e-07, 9.3160999999999996e-07, 1.032445e-06,
    1.018053e-06, 9.0235700000000001e-07,
};
static const double pa_other[10] = {
    9.2292400000000001e-07, 1.042216e-06, 9.2155699999999997e-07, 9.66938e-07,
    9.6269999999999991e-07, 9.3434099999999996e-07, 9.1161099999999997e-07, 9.8977700000000004e-07,
    9.9409299999999995e-07, 8.8833100000000004e-07,
};

/* n = 10: the exact signed-rank critical value 8 at 2.5% per tail, 4 at
 * 0.8333% (family 3); n = 6: 0 (the interval is the range of the Walsh
 * averages); n = 5: no interval at 95%. */
static void test_paired_small(void)
{
    nb_ratio r;
    CHECK(nb_stats_paired(pa_base, pa_other, 10, 1, 0.95, &r) == 0);
    CHECK_RATIO(r, 1.0253597725690025, 1.018286695099722, 1.033561848618042);
    CHECK(r.significant == 1);
    CHECK(nb_stats_paired(pa_base, pa_other, 10, 3, 0.95, &r) == 0);
    CHECK_RATIO(r, 1.0253597725690025, 1.0141274308878991, 1.0368484966434328);
    CHECK(r.significant == 1);
    CHECK(nb_stats_paired(pa_base, pa_other, 6, 1, 0.95, &r) == 0);
    CHECK_RATIO(r, 1.0256963283081069, 1.0063764730356997, 1.037881541782006);
    CHECK(nb_stats_paired(pa_base, pa_other, 5, 1, 0.95, &r) == -1);
    CHECK(isnan(r.estimate) && isnan(r.low) && isnan(r.high) && r.significant == 0);
    /* a lower confidence needs fewer rounds: 2^-5 = 0.03125 <= 0.05 */
    CHECK(nb_stats_paired(pa_base, pa_other, 5, 1, 0.9, &r) == 0);
    /* the ratio is base over other: swapping inverts everything */
    CHECK(nb_stats_paired(pa_other, pa_base, 10, 1, 0.95, &r) == 0);
    CHECK_RATIO(r, 1 / 1.0253597725690025, 1 / 1.033561848618042, 1 / 1.018286695099722);
}

/* Deterministic data for the larger cases (the reference used the same
 * formulas; sin differs between libms by an ulp at most, far below the
 * 1e-9 tolerance). */
static void gen_paired(double *base, double *other, size_t n, double shift)
{
    size_t i;
    for (i = 0; i < n; ++i) {
        base[i] = 1e-6 * (1 + 0.05 * sin((double)i * 0.7));
        other[i] = base[i] / shift * (1 + 0.02 * sin((double)i * 1.3 + 0.5));
    }
}

static void gen_unpaired(double *base, size_t m, double *other, size_t n, double shift)
{
    size_t i;
    for (i = 0; i < m; ++i)
        base[i] = 1e-6 * (1 + 0.05 * sin((double)i * 0.7));
    for (i = 0; i < n; ++i)
        other[i] = 1e-6 / shift * (1 + 0.05 * sin((double)i * 1.1 + 0.3));
}

#define CHECK_RATIO9(r, est, lo, hi)                                                 \
    CHECKF(near((r).estimate, est, 1e-9) && near((r).low, lo, 1e-9) &&              \
               near((r).high, hi, 1e-9),                                             \
           "got %.15g [%.15g, %.15g], want %.15g [%.15g, %.15g]", (r).estimate,      \
           (r).low, (r).high, (double)(est), (double)(lo), (double)(hi))

/* n = 40: the exact critical value is 264 (scipy's exact Wilcoxon p: 0.02488
 * at 264, 0.02570 at 265), where the normal approximation says 263; the
 * check tells them apart. n = 200 is the last exact size, 201 and 300 use
 * the approximation. */
static void test_paired_large(void)
{
    static double base[300], other[300];
    nb_ratio r;
    gen_paired(base, other, 40, 1.01);
    CHECK(nb_stats_paired(base, other, 40, 1, 0.95, &r) == 0);
    CHECK_RATIO9(r, 1.00985081046378, 1.00478355223407, 1.0139800504324);
    CHECK(r.significant == 1);
    gen_paired(base, other, 200, 1.0);
    CHECK(nb_stats_paired(base, other, 200, 1, 0.95, &r) == 0);
    CHECK_RATIO9(r, 0.999980565475226, 0.998505395974633, 1.00137568239319);
    CHECK(r.significant == 0);
    gen_paired(base, other, 201, 1.0);
    CHECK(nb_stats_paired(base, other, 201, 1, 0.95, &r) == 0);
    CHECK_RATIO9(r, 0.999973185674927, 0.998489417017622, 1.00136262327702);
    gen_paired(base, other, 300, 0.99);
    CHECK(nb_stats_paired(base, other, 300, 2, 0.95, &r) == 0);
    CHECK_RATIO9(r, 0.990160639417832, 0.988843122738892, 0.991396502983849);
    CHECK(r.significant == 1);
}

static const double uc_base[6] = {
    1.8653810000000001e-06, 1.881812e-06, 1.8955000000000001e-06, 1.856763e-06,
    1.9979910000000001e-06, 1.9465829999999999e-06,
};
static const double uc_other[7] = {
    1.902553e-06, 1.9658100000000002e-06, 2.0685850000000002e-06, 1.9192030000000001e-06,
    1.7213200000000001e-06, 2.0309849999999999e-06, 1.887304e-06,
};

/* 6 x 7: exact critical value 6 (5 for family 2); 3 x 3 is too small at
 * 95%; 50 x 50 exact (965, scipy's exact p 0.02477 at 965, 0.02518 at 966);
 * 60 x 80 normal. */
static void test_unpaired(void)
{
    static double base[60], other[80];
    nb_ratio r;
    CHECK(nb_stats_unpaired(uc_base, 6, uc_other, 7, 1, 0.95, &r) == 0);
    CHECK_RATIO(r, 0.9837861684797595, 0.9265514023983435, 1.058648209297497);
    CHECK(r.significant == 0);
    CHECK(nb_stats_unpaired(uc_base, 6, uc_other, 7, 2, 0.95, &r) == 0);
    CHECK_RATIO(r, 0.9837861684797595, 0.9184612392509048, 1.0786855436525455);
    CHECK(nb_stats_unpaired(uc_base, 3, uc_other, 3, 1, 0.95, &r) == -1);
    CHECK(isnan(r.estimate));
    CHECK(nb_stats_unpaired(uc_base, 4, uc_other, 4, 1, 0.95, &r) == 0);
    gen_unpaired(base, 50, other, 50, 1.02);
    CHECK(nb_stats_unpaired(base, 50, other, 50, 1, 0.95, &r) == 0);
    CHECK_RATIO9(r, 1.02093957649215, 1.00900559300879, 1.03598369438457);
    CHECK(r.significant == 1);
    gen_unpaired(base, 60, other, 80, 1.0);
    CHECK(nb_stats_unpaired(base, 60, other, 80, 4, 0.95, &r) == 0);
    CHECK_RATIO9(r, 1.0011159722656, 0.988305592480614, 1.01734391970081);
    CHECK(r.significant == 0);
}

/* What deterministic counts give: identical rounds are ratio 1 exactly,
 * interval [1, 1], not significant; rounds exactly 2% apart are 1.02 and
 * significant once there are enough of them. */
static void test_degenerate(void)
{
    double a[50], b[50];
    nb_ratio r;
    size_t i;
    for (i = 0; i < 50; ++i) {
        a[i] = 1000 + (double)i;
        b[i] = a[i];
    }
    CHECK(nb_stats_paired(a, b, 50, 1, 0.95, &r) == 0);
    CHECK(r.estimate == 1 && r.low == 1 && r.high == 1 && r.significant == 0);
    CHECK(nb_stats_unpaired(a, 50, b, 50, 1, 0.95, &r) == 0);
    CHECK(r.estimate == 1 && r.significant == 0);
    for (i = 0; i < 50; ++i)
        a[i] = b[i] = 1234;
    CHECK(nb_stats_unpaired(a, 50, b, 50, 3, 0.95, &r) == 0);
    CHECK(r.estimate == 1 && r.low == 1 && r.high == 1 && r.significant == 0);
    for (i = 0; i < 50; ++i)
        a[i] = b[i] * 1.02;
    CHECK(nb_stats_paired(a, b, 6, 1, 0.95, &r) == 0);
    CHECK(near(r.estimate, 1.02, 1e-14) && near(r.low, 1.02, 1e-14) &&
          near(r.high, 1.02, 1e-14) && r.significant == 1);
    CHECK(nb_stats_paired(b, a, 50, 4, 0.95, &r) == 0);
    CHECK(near(r.estimate, 1 / 1.02, 1e-14) && r.significant == 1);
    CHECK(nb_stats_unpaired(a, 6, b, 6, 1, 0.95, &r) == 0);
    CHECK(near(r.estimate, 1.02, 1e-14) && r.significant == 1);
}

static void test_bad_arguments(void)
{
    double a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, b[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    nb_ratio r;
    CHECK(nb_stats_paired(NULL, b, 8, 1, 0.95, &r) == -1);
    CHECK(nb_stats_paired(a, NULL, 8, 1, 0.95, &r) == -1);
    CHECK(nb_stats_paired(a, b, 8, 1, 0.95, NULL) == -1);
    CHECK(nb_stats_paired(a, b, 0, 1, 0.95, &r) == -1);
    CHECK(nb_stats_paired(a, b, 8, 0, 0.95, &r) == -1);
    CHECK(nb_stats_paired(a, b, 8, 1, 1.0, &r) == -1);
    CHECK(nb_stats_paired(a, b, 8, 1, 0.0, &r) == -1);
    CHECK(nb_stats_paired(a, b, 8, 1, NAN, &r) == -1);
    CHECK(nb_stats_unpaired(NULL, 8, b, 8, 1, 0.95, &r) == -1);
    CHECK(nb_stats_unpaired(a, 0, b, 8, 1, 0.95, &r) == -1);
    CHECK(nb_stats_unpaired(a, 8, b, 8, 0, 0.95, &r) == -1);
    a[3] = 0;
    CHECK(nb_stats_paired(a, b, 8, 1, 0.95, &r) == -1);
    CHECK(nb_stats_unpaired(a, 8, b, 8, 1, 0.95, &r) == -1);
    a[3] = -1;
    CHECK(nb_stats_paired(a, b, 8, 1, 0.95, &r) == -1);
    a[3] = INFINITY;
    CHECK(nb_stats_unpaired(b, 8, a, 8, 1, 0.95, &r) == -1);
    a[3] = NAN;
    CHECK(nb_stats_paired(b, a, 8, 1, 0.95, &r) == -1);
    CHECK(isnan(r.estimate) && r.significant == 0);
    a[3] = 4;
    /* out of memory: -1 and NaNs, never a wrong interval */
    bb_alloc_fail_after(0);
    CHECK(nb_stats_paired(a, b, 8, 1, 0.95, &r) == -1);
    CHECK(isnan(r.low));
    CHECK(nb_stats_unpaired(a, 8, b, 8, 1, 0.95, &r) == -1);
    bb_alloc_fail_after(1);
    CHECK(nb_stats_paired(a, b, 8, 1, 0.95, &r) == -1);
    CHECK(nb_stats_unpaired(a, 8, b, 8, 1, 0.95, &r) == -1);
    bb_alloc_fail_after(-1);
    CHECK(nb_stats_paired(a, b, 8, 1, 0.95, &r) == 0);
}

int main(void)
{
    check_rng_init("test_nb_compare");
    test_paired_small();
    test_paired_large();
    test_unpaired();
    test_degenerate();
    test_bad_arguments();
    return check_finish();
}
