/* The bench: every setter and getter, defaults, NULL benches and arguments, allocation
 * failures. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_test_hooks.h"
#include "check.h"
#include "nb_fake.h"
#include "util/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* NULL benches, results and keys: defaults, NULL, NaN, 0 or -1, no crash. */
static void test_null_arguments(void)
{
    nb_bench *b = nb_bench_new();
    double v = 7;
    if (!CHECK(b != NULL))
        return;
    /* a NULL bench reads as a new one, but prints nothing */
    CHECK(strcmp(nb_get_title(NULL), nb_get_title(b)) == 0);
    CHECK(strcmp(nb_get_name(NULL), nb_get_name(b)) == 0);
    CHECK(strcmp(nb_get_unit(NULL), nb_get_unit(b)) == 0);
    CHECK(strcmp(nb_get_time_unit_name(NULL), nb_get_time_unit_name(b)) == 0);
    CHECK(nb_get_epochs(NULL) == nb_get_epochs(b) && nb_get_batch(NULL) == nb_get_batch(b));
    CHECK(nb_get_min_epoch_time(NULL) == nb_get_min_epoch_time(b));
    CHECK(nb_get_max_epoch_time(NULL) == nb_get_max_epoch_time(b));
    CHECK(nb_get_complexity_n(NULL) < 0 && nb_get_time_unit(NULL) == nb_get_time_unit(b));
    CHECK(nb_get_performance_counters(NULL) == nb_get_performance_counters(b));
    CHECK(nb_get_clock_resolution_multiple(NULL) == nb_get_clock_resolution_multiple(b));
    CHECK(nb_get_output(NULL) == NULL && nb_get_output(b) == stdout);
    CHECK(nb_get_context(NULL, "k") == NULL);
    nb_context(b, "k", "v");
    CHECK(nb_get_error(b) == 0 && nb_get_context(b, NULL) == NULL);
    nb_context(b, NULL, "v");
    CHECK(nb_get_error(b) == -1);
    CHECK(nb_result_name(NULL) == NULL && nb_result_title(NULL) == NULL);
    CHECK(nb_result_unit(NULL) == NULL && isnan(nb_result_batch(NULL)));
    CHECK(isnan(nb_result_complexity_n(NULL)) && nb_result_epoch_count(NULL) == 0);
    CHECK(nb_result_config(NULL, "epochs", &v) == -1 && v == 7);
    CHECK(nb_result_context(NULL, "k") == NULL);
    nb_bench_free(b);
}

static void test_config_getters(void)
{
    nb_bench *b = nb_bench_new();
    if (!CHECK(b != NULL))
        return;
    CHECK(strcmp(nb_get_title(b), "benchmark") == 0);
    CHECK(strcmp(nb_get_name(b), "noname") == 0);
    CHECK(strcmp(nb_get_unit(b), "op") == 0);
    CHECK(nb_get_batch(b) == 1);
    CHECK(nb_get_epochs(b) == 11);
    CHECK(nb_get_clock_resolution_multiple(b) == 1000);
    CHECK(nb_get_max_epoch_time(b) == 100000000);
    CHECK(nb_get_min_epoch_time(b) == 1000000);
    CHECK(nb_get_min_epoch_iterations(b) == 1);
    CHECK(nb_get_epoch_iterations(b) == 0);
    CHECK(nb_get_warmup(b) == 0);
    CHECK(nb_get_complexity_n(b) < 0);
    CHECK(nb_get_output(b) == stdout);
    CHECK(nb_get_performance_counters(b) == 1);
    CHECK(nb_get_relative(b) == 0);
    CHECK(nb_get_time_unit(b) == 1e-9);
    CHECK(strcmp(nb_get_time_unit_name(b), "ns") == 0);
    CHECK(nb_title(nb_unit(nb_batch(b, 64), "byte"), "T") == b);
    CHECK(strcmp(nb_get_unit(b), "byte") == 0 && nb_get_batch(b) == 64);
    CHECK(nb_complexity_n(b, 800) == b && nb_get_complexity_n(b) == 800);
    {
        /* a size Big-O cannot use unsets it: the getter says -1, not 0 or NaN */
        static const double unset[] = { 0.0, -5.0, NAN, INFINITY, -INFINITY };
        size_t k;
        for (k = 0; k < sizeof unset / sizeof unset[0]; ++k) {
            nb_complexity_n(nb_complexity_n(b, 800), unset[k]);
            CHECKF(nb_get_complexity_n(b) == -1.0, "N %g: %g", unset[k],
                   nb_get_complexity_n(b));
        }
        CHECK(nb_get_complexity_n(nb_complexity_n(b, 0.25)) == 0.25);
    }
    CHECK(nb_time_unit(b, 1e-3, "ms") == b && nb_get_time_unit(b) == 1e-3);
    CHECK(strcmp(nb_get_time_unit_name(b), "ms") == 0);
    CHECK(nb_get_error(b) == 0);
    nb_time_unit(b, 0, "bad");
    CHECK(nb_get_error(b) == -1 && nb_get_time_unit(b) == 1e-3);
    {
        /* a batch or time unit that would make the per-unit columns "-" or 0 */
        static const double bad[] = { 0.0, -1.0, NAN, INFINITY };
        size_t k;
        for (k = 0; k < 4; ++k) {
            nb_bench *c = nb_bench_new();
            if (!CHECK(c != NULL))
                break;
            nb_batch(c, 8);
            CHECK(nb_get_error(c) == 0);
            nb_batch(c, bad[k]);
            CHECKF(nb_get_error(c) == -1 && nb_get_batch(c) == 8, "batch %g", bad[k]);
            nb_time_unit(c, bad[k], "x");
            CHECKF(nb_get_time_unit(c) == 1e-9, "time unit %g", bad[k]);
            nb_bench_free(c);
        }
    }
    CHECK(nb_epochs(b, 0) == b && nb_get_epochs(b) == 1);
    CHECK(nb_clock_resolution() > 0 && nb_clock_resolution() < 1e-3);
    nb_bench_free(b);
}

/* ---- allocation failures ---- */

static void test_alloc_failures(void)
{
    long k;
    int completed = 0;
    for (k = 0; k < 40 && !completed; ++k) {
        fake f = { 0, 0, 1000, 1000, 0, 0 };
        nb_bench *b;
        bb_alloc_fail_after(k);
        b = nb_bench_new();
        if (!b) {
            /* a chain on the NULL does nothing, and one check at its end sees it */
            bb_alloc_fail_after(-1);
            nb_run(nb_name(nb_output(b, NULL), "none"), fake_op, &f);
            CHECK(nb_get_error(b) == -1 && nb_result_count(b) == 0 &&
                  nb_result_at(b, 0) == NULL);
            continue;
        }
        nb_output(b, NULL);
        nb_performance_counters(b, 0);
        nb_test_set_clock(b, fake_now, &f, 20);
        nb_context(nb_name(b, "alloc"), "key", "value");
        nb_run(b, fake_op, &f);
        bb_alloc_fail_after(-1);
        if (nb_get_error(b) == 0) {
            CHECK(nb_result_count(b) == 1);
            completed = 1;
        } else {
            /* a failed run stores nothing, and the bench stays usable */
            CHECK(nb_result_count(b) <= 1);
            nb_run(nb_name(b, "again"), fake_op, &f);
            CHECK(nb_result_count(b) >= 1);
        }
        nb_bench_free(b);
    }
    CHECK(completed);
    bb_alloc_fail_after(-1);
}

/* nb_bench_copy: every setting, the context and the output; no results, no
 * error, no one-run setting; the two benches independent after. */
static int copy_setups;

static void copy_setup(void *arg)
{
    (void)arg;
    copy_setups++;
}

static void test_copy(void)
{
    fake f = { 0, 0, 1000, 1000, 0, 0 };
    nb_bench *b = fake_bench(&f), *c;
    if (!CHECK(b != NULL))
        return;
    nb_context(nb_unit(nb_batch(nb_title(nb_name(b, "n"), "T"), 8), "byte"), "k", "v");
    nb_show_column(nb_epochs(nb_relative(b, 1), 5), NB_COLUMN_TOTAL, 0);
    nb_run(b, fake_op, &f);
    nb_setup(nb_batch(b, -1), copy_setup, NULL);   /* an error and a one-run setting */
    c = nb_bench_copy(b);
    if (!CHECK(c != NULL)) {
        nb_bench_free(b);
        return;
    }
    CHECK(strcmp(nb_get_name(c), "n") == 0 && strcmp(nb_get_title(c), "T") == 0);
    CHECK(strcmp(nb_get_unit(c), "byte") == 0 && nb_get_batch(c) == 8);
    CHECK(nb_get_relative(c) == 1 && nb_get_epochs(c) == 5);
    CHECK(strcmp(nb_get_context(c, "k"), "v") == 0 && nb_get_output(c) == nb_get_output(b));
    CHECK(nb_get_show_column(c, NB_COLUMN_TOTAL) == 0);
    CHECK(nb_result_count(c) == 0 && nb_get_error(c) == 0);
    nb_clear_error(b);
    nb_run(nb_name(c, "copy"), fake_op, &f);   /* b's pending setup is b's */
    CHECK(copy_setups == 0 && nb_result_count(c) == 1 && nb_result_count(b) == 1);
    CHECK(strcmp(nb_get_name(b), "n") == 0);
    nb_bench_free(b);
    nb_bench_free(c);
}

/* NB_RUN is the setters and nb_run in one statement: same settings, same
 * result; fields left out keep what is set; relative -1 turns it off. */
static void test_spec(void)
{
    fake f1 = { 0, 0, 1000, 1000, 0, 0 }, f2 = { 0, 0, 1000, 1000, 0, 0 };
    nb_bench *a = fake_bench(&f1), *b = fake_bench(&f2);
    const nb_result *ra, *rb;
    if (!CHECK(a && b)) {
        nb_bench_free(a);
        nb_bench_free(b);
        return;
    }
    nb_run(nb_epochs(nb_relative(nb_batch(nb_unit(nb_title(nb_name(a, "x"), "T"), "byte"), 64),
                                 1), 5), fake_op, &f1);
    NB_RUN(b, .name = "x", .title = "T", .unit = "byte", .batch = 64, .relative = 1,
           .epochs = 5, .op = fake_op, .arg = &f2);
    ra = nb_result_at(a, 0);
    rb = nb_result_at(b, 0);
    CHECK(nb_result_count(b) == 1 && strcmp(nb_result_name(rb), "x") == 0);
    CHECK(strcmp(nb_result_title(rb), "T") == 0 && strcmp(nb_result_unit(rb), "byte") == 0);
    CHECK(nb_result_batch(rb) == 64 && nb_result_epoch_count(rb) == 5);
    CHECK(nb_result_median(ra, NB_ELAPSED) == nb_result_median(rb, NB_ELAPSED));
    CHECK(f1.calls == f2.calls);
    NB_RUN(b, .name = "y", .op = fake_op, .arg = &f2);   /* the rest as set */
    CHECK(nb_result_batch(nb_result_at(b, 1)) == 64 && nb_get_relative(b) == 1);
    NB_RUN(b, .relative = -1, .batch = 0, .op = fake_op, .arg = &f2);
    CHECK(nb_get_relative(b) == 0 && nb_get_batch(b) == 64);
    /* a bad value is refused as the setter refuses it */
    NB_RUN(b, .batch = -2, .op = fake_op, .arg = &f2);
    CHECK(nb_get_error(b) == -1 && nb_result_count(b) == 3);
    CHECK(nb_configure(b, NULL) == b);
    nb_bench_free(a);
    nb_bench_free(b);
}

int main(int argc, char **argv)
{
    (void)argc;
    check_rng_init(argv[0]);
    unsetenv("NANOBENCH_ENDLESS");
    test_null_arguments();
    test_config_getters();
    test_alloc_failures();
    test_copy();
    test_spec();
    return check_finish();
}
