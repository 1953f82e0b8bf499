/* Complexity fits: synthetic data with known answers, the fit table that
 * Bitcoin Core's nanobench pull request prints for ComplexMemPool, and
 * nb_complexity_bigo over results made by real nb_run calls. */
#include "bench/nanobench.h"
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int close_rel(double a, double b, double rel)
{
    return fabs(a - b) <= rel * fabs(b);
}

static const nb_bigo *find_fit(const nb_bigo *f, size_t n, const char *name)
{
    size_t i;
    for (i = 0; i < n; ++i)
        if (strcmp(f[i].name, name) == 0)
            return &f[i];
    return NULL;
}

static void test_exact_shapes(void)
{
    static const double n[] = {10, 20, 50, 100, 200, 500, 1000};
    static const char *names[] = {"O(1)", "O(n)", "O(log n)", "O(n log n)", "O(n^2)", "O(n^3)"};
    double t[7];
    nb_bigo fits[6];
    size_t i, k, got;

    for (k = 0; k < 6; ++k) {
        for (i = 0; i < 7; ++i) {
            double x = n[i];
            double f = k == 0 ? 1 : k == 1 ? x : k == 2 ? log2(x) : k == 3 ? x * log2(x)
                     : k == 4 ? x * x : x * x * x;
            t[i] = 3.5e-9 * f;
        }
        got = nb_bigo_fit(n, t, 7, fits, 6);
        CHECK(got == 6);
        CHECKF(strcmp(fits[0].name, names[k]) == 0, "exact %s fitted best as %s", names[k],
               fits[0].name);
        CHECKF(close_rel(fits[0].coefficient, 3.5e-9, 1e-12), "%s coefficient %.17g", names[k],
               fits[0].coefficient);
        CHECK(fits[0].normalized_rms < 1e-12);
        for (i = 1; i < 6; ++i) /* best first */
            CHECK(fits[i - 1].normalized_rms <= fits[i].normalized_rms);
        CHECK(fits[1].normalized_rms > 0.01);
    }
}

static void test_noisy(void)
{
    /* t = c n^2 with +-10% multiplicative noise: still O(n^2) first */
    double n[12], t[12];
    nb_bigo fits[6];
    size_t i, trial;

    for (trial = 0; trial < 50; ++trial) {
        for (i = 0; i < 12; ++i) {
            double noise = 0.9 + 0.2 * (double)check_rng_below(1000001) / 1e6;
            n[i] = 16.0 * (double)(i + 1);
            t[i] = 2e-8 * n[i] * n[i] * noise;
        }
        if (!CHECK(nb_bigo_fit(n, t, 12, fits, 6) == 6))
            break;
        if (!CHECKF(strcmp(fits[0].name, "O(n^2)") == 0, "noisy n^2 fitted as %s", fits[0].name))
            break;
        CHECK(close_rel(fits[0].coefficient, 2e-8, 0.1));
        /* the large n dominate: residual sd ~5.8% of t(max), mean ~35% of it */
        CHECK(fits[0].normalized_rms < 0.3);
    }
    /* linear with +-1% noise picks O(n) over O(n log n) (which misses exact
     * linear data by 9% here; the noise costs O(n) under 1%) */
    for (i = 0; i < 12; ++i) {
        n[i] = 16.0 * (double)(1u << i);
        t[i] = 5e-9 * n[i] * (0.99 + 0.02 * (double)check_rng_below(1001) / 1000.0);
    }
    CHECK(nb_bigo_fit(n, t, 12, fits, 6) == 6);
    CHECKF(strcmp(fits[0].name, "O(n)") == 0, "noisy n fitted as %s", fits[0].name);
}

/* The example in Core's nanobench pull request: ComplexMemPool's median ns/op at
 * -asymptote=25,50,100,200,400,600,800 and the fit table printed for it. */
static void test_core_pr_table(void)
{
    static const double n[] = {25, 50, 100, 200, 400, 600, 800};
    static const double ns[] = {1064241.00, 1579530.00, 4022774.00, 15390986.00,
                                69394711.00, 168977165.00, 310109077.00};
    static const char *want =
        "|   coefficient |   err% | complexity\n"
        "|--------------:|-------:|------------\n"
        "|   4.78486e-07 |   4.5% | O(n^2)\n"
        "|   6.38557e-10 |  21.7% | O(n^3)\n"
        "|   3.42338e-05 |  38.0% | O(n log n)\n"
        "|   0.000313914 |  46.9% | O(n)\n"
        "|     0.0129823 | 114.4% | O(log n)\n"
        "|     0.0815055 | 133.8% | O(1)\n";
    double t[7];
    nb_bigo fits[6];
    const nb_bigo *f;
    size_t i;
    FILE *tmp;
    char *s;

    for (i = 0; i < 7; ++i)
        t[i] = ns[i] * 1e-9;
    CHECK(nb_bigo_fit(n, t, 7, fits, 6) == 6);
    f = find_fit(fits, 6, "O(n^2)");
    CHECK(f && close_rel(f->coefficient, 4.78486e-07, 1e-5) &&
          fabs(f->normalized_rms - 0.045) < 0.0005);
    f = find_fit(fits, 6, "O(log n)"); /* base-2 logarithm: 0.0187 with ln */
    CHECK(f && close_rel(f->coefficient, 0.0129823, 1e-5));

    tmp = tmpfile();
    if (!CHECK(tmp != NULL))
        return;
    CHECK(nb_bigo_print(tmp, fits, 6) == 0);
    s = check_slurp(tmp);
    CHECKF(s && strcmp(s, want) == 0, "fit table:\n%s", s ? s : "(null)");
    free(s);
    fclose(tmp);

    /* fewer than all: cap */
    CHECK(nb_bigo_fit(n, t, 7, fits, 2) == 2);
    CHECK(strcmp(fits[0].name, "O(n^2)") == 0 && strcmp(fits[1].name, "O(n^3)") == 0);
    CHECK(nb_bigo_fit(n, t, 0, fits, 6) == 0);

    /* a write error is reported */
    tmp = fopen("/dev/full", "w");
    if (tmp) {
        CHECK(nb_bigo_print(tmp, fits, 2) == -1);
        fclose(tmp);
    }
}

static void test_points_skipped(void)
{
    /* n <= 0 means "no complexity N"; non-finite times are not points */
    double n[] = {-1, 0, 10, 20, 40, 80};
    double t[] = {5, 5, 100e-9, 400e-9, NAN, 6400e-9};
    nb_bigo fits[6];
    CHECK(nb_bigo_fit(n, t, 6, fits, 6) == 6);
    CHECK(strcmp(fits[0].name, "O(n^2)") == 0 && fits[0].normalized_rms < 1e-12);
    CHECK(close_rel(fits[0].coefficient, 1e-9, 1e-12));
}

/* Every time 0 (an op the compiler removed): each fit is exact, err 0, not
 * 0/0; a fit with no error to give prints "-", never "nan". */
/* n near the ends of double's range: f(n)^2 would overflow (1e200) or underflow
 * (1e-300), which made O(n) come out 0 with 105% error. Now O(n) is exact, and an f
 * that is not finite there (n^2 and n^3 of 1e200) is not fitted: NaN, last. */
static void test_extreme_n(void)
{
    static const double huge[] = { 1e200, 2e200 }, tiny[] = { 1e-300, 2e-300 };
    static const double t[] = { 1.0, 2.0 };
    nb_bigo fits[6];
    CHECK(nb_bigo_fit(huge, t, 2, fits, 6) == 6);
    CHECK(strcmp(fits[0].name, "O(n)") == 0 && fits[0].normalized_rms < 1e-12);
    CHECKF(fabs(fits[0].coefficient / 1e-200 - 1) < 1e-12, "%g", fits[0].coefficient);
    CHECK(isnan(fits[4].normalized_rms) && isnan(fits[4].coefficient));
    CHECK(isnan(fits[5].normalized_rms) && isnan(fits[5].coefficient));
    CHECK(nb_bigo_fit(tiny, t, 2, fits, 6) == 6);
    CHECK(strcmp(fits[0].name, "O(n)") == 0 && fits[0].normalized_rms < 1e-12);
    CHECKF(fabs(fits[0].coefficient / 1e300 - 1) < 1e-12, "%g", fits[0].coefficient);
}

static void test_zero_times(void)
{
    double n[] = {10, 20, 40}, t[] = {0, 0, 0};
    nb_bigo fits[6], none = {"O(?)", 1.0, NAN};
    char *text = NULL;
    size_t len = 0, i;
    FILE *out;
    CHECK(nb_bigo_fit(n, t, 3, fits, 6) == 6);
    for (i = 0; i < 6; ++i)
        CHECK(fits[i].normalized_rms == 0.0 && fits[i].coefficient == 0.0);
    out = open_memstream(&text, &len);
    if (!CHECK(out != NULL))
        return;
    CHECK(nb_bigo_print(out, fits, 6) == 0);
    CHECK(nb_bigo_print(out, &none, 1) == 0);
    fclose(out);
    CHECK(text && strstr(text, "nan") == NULL);
    CHECK(text && strstr(text, "|             1 |      - | O(?)\n") != NULL);
    free(text);
}

/* 1 when fits[0..count) are named names[0..count), in that order. */
static int order_is(const nb_bigo *fits, size_t count, const char *const *names)
{
    size_t i;
    for (i = 0; i < count; ++i)
        if (strcmp(fits[i].name, names[i]) != 0)
            return 0;
    return 1;
}

/* Equal errors are ordered by name (byte order), NaN errors come last and
 * are ordered by name among themselves, and a shape that is 0 at every
 * point (log n with every N 1) gets coefficient 0 and a finite error. */
static void test_ties_and_nan(void)
{
    static const char *const by_name[] = {
        "O(1)", "O(log n)", "O(n log n)", "O(n)", "O(n^2)", "O(n^3)",
    };
    static const char *const n_one[] = {
        "O(1)", "O(n)", "O(n^2)", "O(n^3)", "O(log n)", "O(n log n)",
    };
    static const char *const nan_last[] = {
        "O(log n)", "O(1)", "O(n log n)", "O(n)", "O(n^2)", "O(n^3)",
    };
    double n1[] = {1, 1}, t1[] = {1, 1}, t12[] = {1, 2};
    double n2[] = {2, 2}, t3[] = {3, 3};
    double nh[] = {0.5, 2}, tpm[] = {-1, 1};
    nb_bigo fits[6];
    const nb_bigo *f;
    size_t i;

    /* every N 2: each shape is a constant, every fit exact (powers of 2) */
    CHECK(nb_bigo_fit(n2, t3, 2, fits, 6) == 6);
    for (i = 0; i < 6; ++i)
        CHECK(fits[i].normalized_rms == 0);
    CHECKF(order_is(fits, 6, by_name), "tied fits start %s, %s", fits[0].name, fits[1].name);

    /* every N 1: log n is 0, so O(log n) and O(n log n) explain nothing */
    CHECK(nb_bigo_fit(n1, t1, 2, fits, 6) == 6);
    CHECKF(order_is(fits, 6, n_one), "n = {1, 1}: %s, %s, %s, %s, %s, %s", fits[0].name,
           fits[1].name, fits[2].name, fits[3].name, fits[4].name, fits[5].name);
    CHECK(fits[4].coefficient == 0 && fits[4].normalized_rms == 1);

    CHECK(nb_bigo_fit(n1, t12, 2, fits, 6) == 6);
    CHECK(strcmp(fits[0].name, "O(1)") == 0 && fits[0].coefficient == 1.5);
    f = find_fit(fits, 6, "O(log n)");
    CHECK(f && f->coefficient == 0);
    CHECKF(f && close_rel(f->normalized_rms, sqrt(2.5) / 1.5, 1e-15), "O(log n) err %g",
           f ? f->normalized_rms : 0.0);

    /* times that sum to 0: every fit but the exact one has a NaN error */
    CHECK(nb_bigo_fit(nh, tpm, 2, fits, 6) == 6);
    CHECK(fits[0].normalized_rms == 0 && fits[0].coefficient == 1);
    for (i = 1; i < 6; ++i)
        CHECK(isnan(fits[i].normalized_rms));
    CHECKF(order_is(fits, 6, nan_last), "NaN order: %s, %s, %s, %s, %s, %s", fits[0].name,
           fits[1].name, fits[2].name, fits[3].name, fits[4].name, fits[5].name);
}

/* ---- over real results ---- */

static double sink;

static void op_loop(void *arg)
{
    size_t i, n = *(const size_t *)arg;
    double acc = 0;
    for (i = 0; i < n; ++i)
        acc += (double)i * 0.5;
    sink += acc;
}

static double square(double x)
{
    return x * x;
}

static void test_over_results(void)
{
    nb_bench *b = nb_bench_new();
    nb_bigo fits[6], arr[6], custom;
    double n[8], t[8];
    size_t i, count = 0, sizes[] = {100, 200, 400, 800};

    if (!CHECK(b != NULL))
        return;
    nb_output(b, NULL);
    nb_epochs(b, 3);
    nb_min_epoch_time(b, 100000); /* 0.1 ms: keep the test quick */
    CHECK(nb_complexity_bigo(b, fits, 6) == 0);
    CHECK(nb_complexity_bigo_custom(b, "x", square, &custom) == -1);

    nb_name(b, "no N");
    nb_run(b, op_loop, &sizes[0]); /* no complexity N: not a point */
    for (i = 0; i < 4; ++i) {
        nb_name(nb_complexity_n(b, (double)sizes[i]), "loop");
        nb_run(b, op_loop, &sizes[i]);
    }
    CHECK(nb_result_count(b) == 5);
    for (i = 0; i < nb_result_count(b); ++i) {
        const nb_result *r = nb_result_at(b, i);
        if (nb_result_complexity_n(r) > 0) {
            n[count] = nb_result_complexity_n(r);
            t[count++] = nb_result_median(r, NB_ELAPSED);
        }
    }
    CHECK(count == 4);
    CHECK(nb_complexity_bigo(b, fits, 6) == 6);
    CHECK(nb_bigo_fit(n, t, count, arr, 6) == 6);
    for (i = 0; i < 6; ++i) {
        CHECK(strcmp(fits[i].name, arr[i].name) == 0);
        CHECK(fits[i].coefficient == arr[i].coefficient);
        CHECK(fits[i].normalized_rms == arr[i].normalized_rms);
    }
    CHECK(nb_complexity_bigo_custom(b, "n^2", square, &custom) == 0);
    CHECK(strcmp(custom.name, "n^2") == 0);
    {
        const nb_bigo *q = find_fit(fits, 6, "O(n^2)");
        CHECK(q && custom.coefficient == q->coefficient &&
              custom.normalized_rms == q->normalized_rms);
    }
    nb_bench_free(b);
}

int main(int argc, char **argv)
{
    (void)argc;
    check_rng_init(argv[0]);
    test_exact_shapes();
    test_noisy();
    test_core_pr_table();
    if (check_comma_locale()) { /* the same table whatever LC_NUMERIC the program set */
        test_core_pr_table();
        check_c_locale();
    }
    test_points_skipped();
    test_zero_times();
    test_extreme_n();
    test_ties_and_nan();
    test_over_results();
    return check_finish();
}
