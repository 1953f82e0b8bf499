/* Paired comparison: the statistics on fixed data with known answers
 * (reference values from an independent Python computation: brute-force
 * enumeration of the signed-rank and rank-sum distributions for small n,
 * scipy's exact Wilcoxon and Mann-Whitney p-values at the critical values,
 * scipy's normal quantile for the large-n approximations); the order of
 * rounds; nb_compare and nb_setup on a fake clock: interleaving, equal
 * iteration counts, exact ratios, drift, setup untimed and once per epoch,
 * the table, bad arguments and allocation failures. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_test_hooks.h"
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

/* ---- the order of rounds ---- */

/* Over one block every alternative takes every position equally often (a
 * linear drift cancels) and every ordered pair of neighbours within a round
 * occurs equally often (carry-over is balanced); each row is a permutation. */
static void test_order(void)
{
    size_t n, row, j;
    size_t order[9];
    size_t two[2][2] = { { 0, 1 }, { 1, 0 } };
    CHECK(nb_compare_block(2) == 2 && nb_compare_block(3) == 6 && nb_compare_block(4) == 4);
    for (row = 0; row < 2; ++row) {
        nb_compare_order(2, row, order);
        CHECK(order[0] == two[row][0] && order[1] == two[row][1]);   /* AB, BA */
    }
    for (n = 2; n <= 9; ++n) {
        size_t pos[9][9], pair[9][9], block = nb_compare_block(n), seen, a, b;
        memset(pos, 0, sizeof(pos));
        memset(pair, 0, sizeof(pair));
        for (row = 0; row < block; ++row) {
            nb_compare_order(n, row, order);
            seen = 0;
            for (j = 0; j < n; ++j) {
                seen |= (size_t)1 << order[j];
                pos[order[j]][j]++;
                if (j > 0)
                    pair[order[j - 1]][order[j]]++;
            }
            CHECK(seen == ((size_t)1 << n) - 1);
        }
        for (a = 0; a < n; ++a) {
            for (b = 0; b < n; ++b) {
                CHECKF(pos[a][b] == block / n, "n %zu: alternative %zu at %zu: %zu times", n,
                       a, b, pos[a][b]);
                if (a != b)
                    CHECKF(pair[a][b] == block / n, "n %zu: %zu then %zu: %zu times", n, a,
                           b, pair[a][b]);
            }
        }
    }
}

/* ---- nb_compare on a fake clock ---- */

typedef struct {
    uint64_t t;             /* the clock, ns */
    double tf;              /* the clock with drift, ns, exact */
    double drift;           /* cost grows by the factor 1 + t / drift (0: none) */
    int fresh;              /* a setup ran and no op since */
    size_t setups, double_setups;
    size_t log[4096];       /* which alternative each epoch ran (after a setup) */
    size_t logged;
    uint64_t setup_cost;    /* what setup adds to the clock: never timed */
} fake_world;

typedef struct {
    fake_world *w;
    size_t id;
    uint64_t cost;          /* ns per call */
    nb_bench *bench;        /* when set, the op tries a nested nb_compare */
    uint64_t burst;         /* extra ns per call in every other epoch of this alternative */
    size_t epochs;          /* epochs begun (counted after a setup) */
} fake_alt;

static void world_op(void *arg);

/* Alternative id of w: op world_op on *fa, cost ns per call, no burst, no nesting. */
static void fake_alt_init(fake_alt *fa, nb_alternative *alt, fake_world *w, size_t id,
                          const char *name, uint64_t cost)
{
    memset(fa, 0, sizeof(*fa));
    fa->w = w;
    fa->id = id;
    fa->cost = cost;
    alt->name = name;
    alt->op = world_op;
    alt->arg = fa;
    alt->op_n = NULL;
}

static uint64_t world_now(void *ctx)
{
    return ((fake_world *)ctx)->t;
}

static void world_op(void *arg)
{
    fake_alt *a = arg;
    fake_world *w = a->w;
    if (w->fresh) {
        if (w->logged < sizeof(w->log) / sizeof(w->log[0]))
            w->log[w->logged++] = a->id;
        a->epochs++;
    }
    w->fresh = 0;
    if (w->drift > 0) {
        w->tf += (double)a->cost * (1 + w->tf / w->drift);
        w->t = (uint64_t)w->tf;
    } else {
        w->t += a->cost + (a->epochs % 2 ? a->burst : 0);
    }
}

static void world_op_n(void *arg, uint64_t iters)
{
    while (iters--)
        world_op(arg);
}

static void world_setup(void *arg)
{
    fake_world *w = arg;
    if (w->fresh)
        w->double_setups++;
    w->fresh = 1;
    w->setups++;
    w->t += w->setup_cost;
    w->tf += (double)w->setup_cost;
}

static nb_bench *world_bench(fake_world *w)
{
    nb_bench *b = nb_bench_new();
    if (!b)
        return NULL;
    nb_output(b, NULL);
    nb_performance_counters(b, 0);
    nb_test_set_clock(b, world_now, w, 20);
    return b;
}

/* Three alternatives, 102 / 100 / 102 ns: the second is exactly 1.02 times
 * as fast, every round; the third is the baseline's twin. Setup costs 0.7 ms
 * and is never timed. The measured rounds run in the Williams order, every
 * epoch has the same iteration count, and the results are the bench's. */
static void test_compare_fake(void)
{
    static fake_world w;
    fake_alt fa[3];
    nb_alternative alts[3];
    nb_comparison *c;
    nb_bench *b;
    size_t i, r, order[3], first;
    double lo, hi;
    uint64_t iters;
    memset(&w, 0, sizeof(w));
    w.setup_cost = 700000;
    for (i = 0; i < 3; ++i)
        fake_alt_init(&fa[i], &alts[i], &w, i, i == 0 ? "base" : i == 1 ? "fast" : "twin",
                      i == 1 ? 100 : 102);
    alts[2].op_n = world_op_n;
    b = world_bench(&w);
    if (!CHECK(b != NULL))
        return;
    nb_run(nb_name(b, "earlier"), world_op, &fa[0]);
    nb_setup(b, world_setup, &w);
    c = nb_compare(nb_epochs(b, 7), alts, 3);
    if (!CHECK(c != NULL)) {
        nb_bench_free(b);
        return;
    }
    CHECK(nb_comparison_count(c) == 3);
    /* 7 asked, 12 the least for 2^-r <= 0.0125 (7 rounds) in whole blocks of 6 */
    CHECK(nb_comparison_rounds(c) == 12);
    iters = nb_comparison_iterations(c);
    CHECK(iters == 10000);   /* 1 ms at the fastest, 100 ns */
    CHECK(nb_result_count(b) == 4);
    for (i = 0; i < 3; ++i) {
        const nb_result *res = nb_comparison_result(c, i);
        CHECK(res == nb_result_at(b, i + 1));
        CHECK(strcmp(nb_result_name(res), alts[i].name) == 0);
        CHECK(nb_result_epoch_count(res) == 12 * NB_COMPARE_EPOCHS_PER_ROUND);
        for (r = 0; r < 12 * NB_COMPARE_EPOCHS_PER_ROUND; ++r) {
            CHECK(nb_result_epoch(res, NB_ITERATIONS, r) == (double)iters);
            /* seconds per iteration exactly the op's cost: setup untimed */
            CHECK(fabs(nb_result_epoch(res, NB_ELAPSED, r) * 1e9 - (double)fa[i].cost) < 1e-6);
        }
    }
    CHECK(nb_comparison_result(c, 3) == NULL);
    /* exact ratios: 1.02 (significant, the fastest), 1 (not) */
    CHECK(nb_comparison_relative(c, 0, &lo, &hi) == 1 && lo == 1 && hi == 1);
    CHECK(near(nb_comparison_relative(c, 1, &lo, &hi), 1.02, 1e-12));
    CHECK(near(lo, 1.02, 1e-12) && near(hi, 1.02, 1e-12));
    CHECK(nb_comparison_significant(c, 1) == 1);
    CHECK(nb_comparison_relative(c, 2, &lo, &hi) == 1 && lo == 1 && hi == 1);
    CHECK(nb_comparison_significant(c, 2) == 0 && nb_comparison_significant(c, 0) == 0);
    CHECK(nb_comparison_fastest(c) == 1);
    CHECK(isnan(nb_comparison_relative(c, 3, &lo, NULL)) && isnan(lo));
    /* setup: once before every epoch of the comparison, never twice in a row,
     * and not carried over to the next run */
    CHECK(w.setups == w.logged && w.double_setups == 0);
    /* the measured epochs, last in the log: round r runs rows r, r+1, r+2, r+3 (mod 6) */
    CHECK(w.logged >= 36 * NB_COMPARE_EPOCHS_PER_ROUND);
    first = w.logged - 36 * NB_COMPARE_EPOCHS_PER_ROUND;
    for (r = 0; r < 12; ++r) {
        size_t j;
        for (j = 0; j < NB_COMPARE_EPOCHS_PER_ROUND; ++j) {
            size_t at = first + 3 * (NB_COMPARE_EPOCHS_PER_ROUND * r + j);
            nb_compare_order(3, (r + j) % 6, order);
            for (i = 0; i < 3; ++i)
                CHECKF(w.log[at + i] == order[i], "round %zu row %zu position %zu", r, j, i);
        }
        for (i = 0; i < 3; ++i)
            CHECK(fabs(nb_comparison_time(c, i, r) * 1e9 - (double)fa[i].cost) < 1e-6);
    }
    CHECK(isnan(nb_comparison_time(c, 3, 0)) && isnan(nb_comparison_time(c, 0, 12)));
    w.setups = 0;
    nb_run(nb_name(b, "later"), world_op, &fa[0]);
    CHECK(w.setups == 0 && nb_result_count(b) == 5);
    nb_comparison_free(c);
    nb_bench_free(b);
}

/* Every other epoch of every alternative slowed by half again (a burst of
 * the host's noise): each round's value is its fastest epoch, so the
 * rounds, the ratio and the table's time are the clean ones, exactly. */
static void test_compare_bursts(void)
{
    static fake_world w;
    fake_alt fa[2];
    nb_alternative alts[2];
    nb_comparison *c;
    nb_bench *b;
    double lo, hi, med, err;
    size_t i, r, slow = 0;
    memset(&w, 0, sizeof(w));
    for (i = 0; i < 2; ++i) {
        fake_alt_init(&fa[i], &alts[i], &w, i, i ? "B" : "A", i ? 200 : 210);
        fa[i].burst = 100;
    }
    b = world_bench(&w);
    if (!CHECK(b != NULL))
        return;
    /* setup marks each epoch's start for the op (it counts epochs) */
    c = nb_compare(nb_setup(b, world_setup, &w), alts, 2);
    if (CHECK(c != NULL)) {
        const nb_result *ra = nb_comparison_result(c, 0);
        for (r = 0; r < nb_result_epoch_count(ra); ++r)
            slow += nb_result_epoch(ra, NB_ELAPSED, r) * 1e9 > 300;
        CHECKF(slow == nb_result_epoch_count(ra) / 2, "%zu slow epochs", slow);
        for (r = 0; r < nb_comparison_rounds(c); ++r) {
            CHECK(fabs(nb_comparison_time(c, 0, r) * 1e9 - 210) < 1e-6);
            CHECK(fabs(nb_comparison_time(c, 1, r) * 1e9 - 200) < 1e-6);
        }
        CHECK(near(nb_comparison_relative(c, 1, &lo, &hi), 1.05, 1e-12));
        CHECK(near(lo, 1.05, 1e-12) && near(hi, 1.05, 1e-12));
        nb_comparison_summary(c, 1, &med, &err);
        CHECK(fabs(med * 1e9 - 200) < 1e-6 && err == 0);
    }
    nb_comparison_free(c);
    nb_bench_free(b);
}

/* Two identical ops on a clock whose cost grows with time (a drift of ~4%
 * over the run, 0.05% between the two epochs of a round): in one fixed
 * order every round would say B is 0.05% slower, with an interval of zero
 * width, significant. The order AB, BA cancels it: not significant, and
 * the estimate stays at 1 to well under the drift within one round. */
static void test_compare_drift(void)
{
    static fake_world w;
    fake_alt fa[2];
    nb_alternative alts[2];
    nb_comparison *c;
    nb_bench *b;
    double lo, hi, est;
    size_t i;
    memset(&w, 0, sizeof(w));
    w.drift = 2e9; /* 1.0005 within a round (1 ms apart), 1.04 over the run */
    for (i = 0; i < 2; ++i)
        fake_alt_init(&fa[i], &alts[i], &w, i, i ? "B" : "A", 100);
    b = world_bench(&w);
    if (!CHECK(b != NULL))
        return;
    c = nb_compare(nb_epochs(b, 40), alts, 2);
    if (CHECK(c != NULL)) {
        const nb_result *ra = nb_comparison_result(c, 0);
        size_t last = nb_result_epoch_count(ra) - 1;
        double drift = nb_result_epoch(ra, NB_ELAPSED, last) / nb_result_epoch(ra, NB_ELAPSED, 0);
        est = nb_comparison_relative(c, 1, &lo, &hi);
        CHECKF(drift > 1.02, "drift %g", drift);
        CHECKF(lo < 1 && hi > 1 && !nb_comparison_significant(c, 1), "[%g, %g]", lo, hi);
        CHECKF(fabs(est - 1) < 1e-4, "estimate %.9g", est);
    }
    nb_comparison_free(c);
    nb_bench_free(b);
}

/* The table and its verdict, as golden text: three verdicts (a winner; none
 * significantly faster; the baseline fastest with every other slower), and
 * a name that needs escaping. */
static char *compare_table(size_t n, const uint64_t *costs, const char *const *names)
{
    static fake_world w;
    fake_alt fa[4];
    nb_alternative alts[4];
    nb_comparison *c;
    nb_bench *b;
    FILE *out;
    char *text = NULL;
    size_t len = 0, i;
    memset(&w, 0, sizeof(w));
    for (i = 0; i < n; ++i)
        fake_alt_init(&fa[i], &alts[i], &w, i, names[i], costs[i]);
    b = world_bench(&w);
    out = open_memstream(&text, &len);
    if (!CHECK(b != NULL) || !CHECK(out != NULL)) {
        nb_bench_free(b);
        if (out)
            fclose(out);
        free(text);
        return NULL;
    }
    nb_output(nb_unit(nb_title(b, "Hash"), "byte"), out);
    nb_batch(b, 64);
    c = nb_compare(b, alts, n);
    CHECK(c != NULL);
    nb_comparison_free(c);
    nb_bench_free(b);
    fclose(out);
    return text;
}

static void test_compare_table(void)
{
    static const uint64_t c1[3] = { 640, 320, 1280 };
    static const char *const n1[3] = { "standard", "fast|er", "slow" };
    static const uint64_t c2[2] = { 640, 640 };
    static const char *const n2[2] = { "a", "b" };
    static const uint64_t c3[3] = { 640, 641, 700 };
    static const char *const n3[3] = { "base", "x", "y" };
    static const char *want1 =
        "\n"
        "| relative |        95% interval |             ns/byte |              byte/s | "
        "   err% | Hash\n"
        "|---------:|--------------------:|--------------------:|--------------------:|"
        "--------:|:-----\n"
        "|  100.00% |                   - |               10.00 |      100,000,000.00 | "
        "   0.0% | `standard` (baseline)\n"
        "|  200.00% |  [200.00%, 200.00%] |                5.00 |      200,000,000.00 | "
        "   0.0% | `fast\\|er` (faster)\n"
        "|   50.00% |    [50.00%, 50.00%] |               20.00 |       50,000,000.00 | "
        "   0.0% | `slow` (slower)\n"
        "\n"
        "`fast\\|er` is fastest, 2.000x as fast as `standard` (95% interval 2.000-2.000,"
        " family-wise over 2 comparisons; 12 paired rounds, each the best of 4 epochs of"
        " 3,125 iterations)\n";
    static const char *want2 =
        "\n"
        "| relative |        95% interval |             ns/byte |              byte/s | "
        "   err% | Hash\n"
        "|---------:|--------------------:|--------------------:|--------------------:|"
        "--------:|:-----\n"
        "|  100.00% |                   - |               10.00 |      100,000,000.00 | "
        "   0.0% | `a` (baseline)\n"
        "|  100.00% |  [100.00%, 100.00%] |               10.00 |      100,000,000.00 | "
        "   0.0% | `b`\n"
        "\n"
        "No alternative is significantly faster than `a` (95%, family-wise over 1"
        " comparison; 12 paired rounds, each the best of 4 epochs of 1,563 iterations)\n";
    static const char *want3 =
        "\n"
        "| relative |        95% interval |             ns/byte |              byte/s | "
        "   err% | Hash\n"
        "|---------:|--------------------:|--------------------:|--------------------:|"
        "--------:|:-----\n"
        "|  100.00% |                   - |               10.00 |      100,000,000.00 | "
        "   0.0% | `base` (baseline)\n"
        "|   99.84% |    [99.84%, 99.84%] |               10.02 |       99,843,993.76 | "
        "   0.0% | `x` (slower)\n"
        "|   91.43% |    [91.43%, 91.43%] |               10.94 |       91,428,571.43 | "
        "   0.0% | `y` (slower)\n"
        "\n"
        "`base` (the baseline) is fastest: every other is significantly slower (95%,"
        " family-wise over 2 comparisons; 12 paired rounds, each the best of 4 epochs of"
        " 1,563 iterations)\n";
    char *t = compare_table(3, c1, n1);
    CHECKF(t && strcmp(t, want1) == 0, "got:\n%s", t ? t : "(null)");
    free(t);
    t = compare_table(2, c2, n2);
    CHECKF(t && strcmp(t, want2) == 0, "got:\n%s", t ? t : "(null)");
    free(t);
    t = compare_table(3, c3, n3);
    CHECKF(t && strcmp(t, want3) == 0, "got:\n%s", t ? t : "(null)");
    free(t);
}

/* nb_setup with nb_run: once before every epoch (warm-up, calibration,
 * measured), untimed, for that one run only. */
static void test_setup_run(void)
{
    static fake_world w;
    fake_alt fa;
    nb_bench *b;
    const nb_result *r;
    size_t i;
    memset(&w, 0, sizeof(w));
    w.setup_cost = 5000000;
    fa.w = &w;
    fa.id = 0;
    fa.cost = 250;
    fa.bench = NULL;
    fa.burst = 0;
    fa.epochs = 0;
    b = world_bench(&w);
    if (!CHECK(b != NULL))
        return;
    nb_run(nb_name(nb_warmup(nb_setup(b, world_setup, &w), 100), "with setup"), world_op, &fa);
    r = nb_result_at(b, 0);
    CHECK(nb_result_epoch_count(r) == 11);
    CHECK(w.setups == w.logged && w.double_setups == 0);
    CHECKF(w.setups == nb_result_epoch_count(r) + nb_test_discarded(r),
           "%zu setups, %zu+%llu epochs",
           w.setups, nb_result_epoch_count(r), (unsigned long long)nb_test_discarded(r));
    for (i = 0; i < nb_result_epoch_count(r); ++i)
        CHECK(fabs(nb_result_epoch(r, NB_ELAPSED, i) * 1e9 - 250) < 1e-6);
    w.setups = 0;
    nb_run(nb_name(b, "without"), world_op, &fa);
    CHECK(w.setups == 0);
    /* nb_setup(b, NULL, ...) clears it; a NULL bench is fine */
    nb_setup(b, world_setup, &w);
    nb_setup(b, NULL, NULL);
    nb_run(nb_name(b, "cleared"), world_op, &fa);
    CHECK(w.setups == 0);
    CHECK(nb_setup(NULL, world_setup, &w) == NULL);
    CHECK(nb_get_error(b) == 0);
    nb_bench_free(b);
}

/* An op that calls nb_compare or nb_run on the bench comparing it: refused. */
static nb_comparison *nested_result;
static int nested_tried;

static void nested_op(void *arg)
{
    fake_alt *a = arg;
    if (a->bench && !nested_tried) {
        nb_alternative alts[2] = { { "x", world_op, a, NULL }, { "y", world_op, a, NULL } };
        nested_tried = 1;
        nested_result = nb_compare(a->bench, alts, 2);
        nb_run(nb_name(a->bench, "nested"), world_op, a);
    }
    world_op(arg);
}

static void test_compare_bad(void)
{
    static fake_world w;
    fake_alt fa;
    nb_alternative alts[2];
    nb_comparison *c;
    nb_bench *b;
    long k;
    memset(&w, 0, sizeof(w));
    fake_alt_init(&fa, &alts[0], &w, 0, "a", 1000);
    alts[1] = alts[0];
    alts[1].name = "b";
    b = world_bench(&w);
    if (!CHECK(b != NULL))
        return;
    CHECK(nb_compare(NULL, alts, 2) == NULL);
    CHECK(nb_compare(b, NULL, 2) == NULL);
    CHECK(nb_compare(b, alts, 1) == NULL);
    CHECK(nb_compare(b, alts, 0) == NULL);
    alts[1].name = NULL;
    CHECK(nb_compare(b, alts, 2) == NULL);
    alts[1].name = "b";
    alts[1].op = NULL;
    CHECK(nb_compare(b, alts, 2) == NULL);
    alts[1].op = world_op;
    CHECK(nb_get_error(b) == -1);
    CHECK(nb_result_count(b) == 0);
    /* NULL comparisons answer "nothing" */
    CHECK(nb_comparison_count(NULL) == 0 && nb_comparison_rounds(NULL) == 0);
    CHECK(nb_comparison_fastest(NULL) == 0 && nb_comparison_result(NULL, 0) == NULL);
    CHECK(isnan(nb_comparison_relative(NULL, 0, NULL, NULL)));
    CHECK(nb_comparison_significant(NULL, 1) == 0);
    nb_comparison_free(NULL);
    nb_bench_free(b);

    /* nested: refused, the outer comparison completes */
    b = world_bench(&w);
    if (!CHECK(b != NULL))
        return;
    fa.bench = b;
    alts[1].op = nested_op;
    nested_tried = 0;
    c = nb_compare(nb_epochs(b, 6), alts, 2);
    CHECK(nested_tried && nested_result == NULL);
    CHECK(c != NULL && nb_result_count(b) == 2 && nb_get_error(b) == -1);
    nb_comparison_free(c);
    nb_bench_free(b);
    fa.bench = NULL;
    alts[1].op = world_op;

    /* allocation failures: NULL, the bench unchanged, nothing leaked (the
     * sanitizer build checks), and a success once enough succeed */
    for (k = 0; k < 64; ++k) {
        b = world_bench(&w);
        if (!CHECK(b != NULL))
            return;
        nb_run(nb_name(b, "before"), world_op, &fa);
        nb_setup(b, world_setup, &w);
        bb_alloc_fail_after(k);
        c = nb_compare(b, alts, 2);
        bb_alloc_fail_after(-1);
        if (c) {
            CHECK(nb_result_count(b) == 3);
            nb_comparison_free(c);
            nb_bench_free(b);
            break;
        }
        CHECK(nb_result_count(b) == 1);
        CHECK(nb_get_error(b) == -1);
        /* the failed call used up its setup */
        w.setups = 0;
        nb_run(nb_name(b, "after"), world_op, &fa);
        CHECK(w.setups == 0);
        nb_bench_free(b);
    }
    CHECK(k > 0 && k < 64);
}

int main(void)
{
    check_rng_init("test_nb_compare");
    setenv("NANOBENCH_SUPPRESS_WARNINGS", "1", 1); /* the tables are golden text */
    test_paired_small();
    test_paired_large();
    test_unpaired();
    test_degenerate();
    test_bad_arguments();
    test_order();
    test_compare_fake();
    test_compare_bursts();
    test_compare_drift();
    test_compare_table();
    test_setup_run();
    test_compare_bad();
    return check_finish();
}
