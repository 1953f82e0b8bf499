/* -against's interval over pairs of processes (clustered.h): Student's t against published
 * quantiles, and bench_clustered_ratio on data whose answer is worked out by hand: the median of
 * each pair's rounds, the mean over pairs, the t interval with pairs - 1 degrees of freedom,
 * Bonferroni over the family; invalid arguments refused. */
#include "bench_bitcoin/clustered.h"
#include "check.h"

#include <math.h>
#include <stddef.h>

static int near(double a, double b, double tol)
{
    return fabs(a - b) <= tol * fabs(b);
}

static void test_t(void)
{
    /* quantiles from the usual tables (to ten digits) */
    static const struct { double p; unsigned df; double t; } q[] = {
        {0.975, 1, 12.70620474}, {0.995, 2, 9.924843201}, {0.975, 3, 3.182446305},
        {0.975, 7, 2.364624252}, {0.995, 7, 3.499483297}, {0.975, 30, 2.042272456},
    };
    size_t i;
    for (i = 0; i < sizeof q / sizeof q[0]; i++) {
        double t = bench_clustered_t_quantile(q[i].p, q[i].df);
        CHECKF(near(t, q[i].t, 1e-8), "t quantile %g, %u df: %.10g, want %.10g", q[i].p,
               q[i].df, t, q[i].t);
        CHECKF(near(bench_clustered_t_quantile(1 - q[i].p, q[i].df), -q[i].t, 1e-8),
               "t quantile %g, %u df not symmetric", 1 - q[i].p, q[i].df);
    }
    CHECK(bench_clustered_t_cdf(0, 5) == 0.5);
    CHECK(near(bench_clustered_t_cdf(1, 1), 0.75, 1e-12));   /* Cauchy */
    CHECK(bench_clustered_t_cdf(INFINITY, 3) == 1 && bench_clustered_t_cdf(-INFINITY, 3) == 0);
    CHECK(isnan(bench_clustered_t_cdf(1, 0)) && isnan(bench_clustered_t_quantile(1, 4)));
}

static void test_ratio(void)
{
    /* four pairs of five rounds; four of each pair's log ratios are 0.01 k (k = 1..4), and one
     * is wild (a burst of the host's noise): ten of the fifteen averages of two are 0.01 k, so
     * that is the pair's median */
    double base[20], other[20];
    size_t pair[20], i;
    nb_ratio r;
    for (i = 0; i < 20; i++) {
        size_t k = i % 4;
        double d = (double)(k + 1) * 0.01;
        if (i >= 16)
            d = k % 2 ? 0.9 : -0.9;   /* the wild round, on one side or the other */
        pair[i] = k;
        other[i] = 100 + (double)i;
        base[i] = other[i] * exp(d);
    }
    CHECK(bench_clustered_ratio(base, other, pair, 20, 4, 1, 0.95, &r) == 0);
    CHECKF(near(r.estimate, 1.0253151205244289, 1e-12), "estimate %.17g", r.estimate);
    CHECKF(near(r.low, 1.004467346405009, 1e-9) && near(r.high, 1.0465955913236262, 1e-9),
           "interval [%.17g, %.17g]", r.low, r.high);
    CHECK(r.significant);
    /* a family of two: t at 1 - 0.05 / 4 with 3 df (4.1767), no longer significant */
    CHECK(bench_clustered_ratio(base, other, pair, 20, 4, 2, 0.95, &r) == 0);
    CHECKF(near(r.low, 0.9980415216708359, 1e-6) && near(r.high, 1.0533340282437105, 1e-6),
           "family 2: [%.17g, %.17g]", r.low, r.high);
    CHECK(!r.significant);
    /* the other way round: the reciprocal */
    CHECK(bench_clustered_ratio(other, base, pair, 20, 4, 1, 0.95, &r) == 0);
    CHECK(near(r.estimate, 1 / 1.0253151205244289, 1e-12) && near(r.high, 1 / 1.004467346405009,
                                                                    1e-9));
    /* each pair's estimate is its median, not its mean: 0, 0.01 and 0.05 give 0.01; a second
     * pair at exactly 0.01 leaves no spread, so the interval is that one point */
    {
        static const double d[6] = {0, 0.01, 0.05, 0.01, 0.01, 0.01};
        static const size_t two[6] = {0, 0, 0, 1, 1, 1};
        double b6[6], o6[6];
        for (i = 0; i < 6; i++) {
            o6[i] = 1e-6;
            b6[i] = o6[i] * exp(d[i]);
        }
        CHECK(bench_clustered_ratio(b6, o6, two, 6, 2, 1, 0.95, &r) == 0);
        CHECKF(near(r.estimate, exp(0.01), 1e-12) && near(r.low, exp(0.01), 1e-12)
               && near(r.high, exp(0.01), 1e-12) && r.significant,
               "median per pair: %.17g [%.17g, %.17g]", r.estimate, r.low, r.high);
    }
    /* the trimmed mean: of eight rounds, two dropped at either end; the same rounds in both
     * pairs leave no spread. Sorted, -1 0 .01 .02 .03 .05 .06 1: trim 0.25 keeps .01 to .05
     * (mean .0275), the median is .025, the mean .02125 */
    {
        static const double d[8] = {0, 0.01, 0.05, 0.06, 1.0, -1.0, 0.02, 0.03};
        static const struct { double trim, want; } t[] = {
            {0.25, 0.0275}, {0.5, 0.025}, {0.4, 0.025}, {0, 0.02125}, {0.1, 0.02125},
            {0.125, 0.0283333333333333333},
        };
        double b16[16], o16[16];
        size_t p16[16], j;
        for (i = 0; i < 16; i++) {
            o16[i] = 2e-6;
            b16[i] = o16[i] * exp(d[i % 8]);
            p16[i] = i / 8;
        }
        for (j = 0; j < sizeof t / sizeof t[0]; j++) {
            CHECK(bench_clustered_ratio_trimmed(b16, o16, p16, 16, 2, t[j].trim, 1, 0.95, &r)
                  == 0);
            CHECKF(near(r.estimate, exp(t[j].want), 1e-12) && near(r.low, r.high, 1e-12),
                   "trim %g: %.17g, want exp(%g)", t[j].trim, r.estimate, t[j].want);
        }
        CHECK(bench_clustered_ratio_trimmed(b16, o16, p16, 16, 2, 0.51, 1, 0.95, &r) == -1);
        CHECK(bench_clustered_ratio_trimmed(b16, o16, p16, 16, 2, -0.1, 1, 0.95, &r) == -1);
        CHECK(bench_clustered_ratio_trimmed(b16, o16, p16, 16, 2, NAN, 1, 0.95, &r) == -1);
    }
    /* refused: one pair, a pair without rounds, a pair out of range, a cost <= 0, family 0 */
    CHECK(bench_clustered_ratio(base, other, pair, 20, 1, 1, 0.95, &r) == -1 && isnan(r.estimate));
    CHECK(bench_clustered_ratio(base, other, pair, 20, 5, 1, 0.95, &r) == -1);
    pair[3] = 9;
    CHECK(bench_clustered_ratio(base, other, pair, 20, 4, 1, 0.95, &r) == -1);
    pair[3] = 3;
    base[5] = 0;
    CHECK(bench_clustered_ratio(base, other, pair, 20, 4, 1, 0.95, &r) == -1);
    base[5] = 1;
    CHECK(bench_clustered_ratio(base, other, pair, 20, 4, 0, 0.95, &r) == -1);
    CHECK(bench_clustered_ratio(base, other, pair, 20, 4, 1, 1, &r) == -1);
    CHECK(bench_clustered_ratio(base, other, pair, 20, 4, 1, 0.95, NULL) == -1);
}

int main(void)
{
    test_t();
    test_ratio();
    return check_finish();
}
