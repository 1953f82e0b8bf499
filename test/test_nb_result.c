/* Results: medians, MdAPE, quartiles and the other statistics over epochs, the config
 * snapshot, the implausibility rule. */
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

static void test_stats(void)
{
    double v3[] = { 5, 1, 3 }, v4[] = { 4, 1, 3, 2 }, v[] = { 1, 2, 3 }, scratch[3];
    double per[] = { 2e-6, 1e-6, 4e-6, 3e-6 };
    uint64_t it[] = { 10, 20, 30, 40 };
    nb_bench *b = nb_bench_new();
    nb_result *r;
    double x;
    volatile double stored;
    nb_measure m;
    CHECK(nb_stats_median(v3, 3) == 3);
    CHECK(nb_stats_median(v4, 4) == 2.5);
    CHECK(isnan(nb_stats_median(v4, 0)));
    /* |1-2|/1 = 1, 0, |3-2|/3: median 1/3 */
    CHECK(fabs(nb_stats_mdape(v, 3, 2, scratch) - 1.0 / 3) < 1e-15);
    if (!CHECK(b != NULL))
        return;
    nb_context(nb_context(nb_batch(nb_name(b, "stats"), 4), "k", "v1"), "k", "v2");
    nb_context(b, "other", "x");
    CHECK(strcmp(nb_get_context(b, "k"), "v2") == 0);
    r = make_result(b, per, it, 4);
    if (!CHECK(r != NULL)) {
        nb_bench_free(b);
        return;
    }
    nb_clear_context(b);
    CHECK(nb_get_context(b, "k") == NULL);
    CHECK(strcmp(nb_result_context(r, "k"), "v2") == 0);  /* snapshot */
    CHECK(nb_result_context(r, "missing") == NULL);
    CHECK(strcmp(nb_result_name(r), "stats") == 0);
    CHECK(nb_result_batch(r) == 4);
    CHECK(fabs(nb_result_median(r, NB_ELAPSED) / 2.5e-6 - 1) < 1e-12);
    /* errors: |2-2.5|/2 = .25, 1.5, .375, 1/6: median (.25 + .375) / 2 */
    CHECK(fabs(nb_result_err(r, NB_ELAPSED) - 0.3125) < 1e-12);
    /* Stored before the exact compare: on 32-bit x86 (x87 code, FLT_EVAL_METHOD 2) a
     * returned double keeps extra precision until it is stored. */
    stored = nb_result_minimum(r, NB_ELAPSED);
    CHECK(stored == 1e-6);
    stored = nb_result_maximum(r, NB_ELAPSED);
    CHECK(stored == 4e-6);
    CHECK(fabs(nb_result_average(r, NB_ELAPSED) - 2.5e-6) < 1e-18);
    /* lower quartile of 1, 2, 3, 4 (us): 3/4 of the way from 1 to 2 */
    CHECK(fabs(nb_result_lower_quartile(r, NB_ELAPSED) / 1.75e-6 - 1) < 1e-12);
    CHECK(isnan(nb_result_lower_quartile(r, NB_INSTRUCTIONS)));
    CHECK(nb_result_median(r, NB_ITERATIONS) == 25);
    CHECK(nb_result_sum(r, NB_ITERATIONS) == 100);
    CHECK(fabs(nb_result_sum_product(r, NB_ELAPSED, NB_ITERATIONS) / 2.8e-4 - 1) < 1e-12);
    CHECK(fabs(nb_result_epoch(r, NB_ELAPSED, 2) / 4e-6 - 1) < 1e-12);
    CHECK(isnan(nb_result_epoch(r, NB_ELAPSED, 4)));
    CHECK(!nb_result_has(r, NB_INSTRUCTIONS));
    CHECK(isnan(nb_result_median(r, NB_INSTRUCTIONS)));
    CHECK(nb_result_config(r, "batch", &x) == 0 && x == 4);
    CHECK(nb_result_config(r, "epochs", &x) == 0 && x == 4);
    CHECK(nb_result_config(r, "minEpochTime", &x) == 0 && x == 1e-3);
    CHECK(nb_result_config(r, "maxEpochTime", &x) == 0 && fabs(x - 0.1) < 1e-15);
    CHECK(nb_result_config(r, "clockResolution", &x) == 0 && x == 20e-9);
    CHECK(nb_result_config(r, "complexityN", &x) == 0 && x < 0);
    CHECK(nb_result_config(r, "nonsense", &x) == -1);
    CHECK(nb_measure_from_name("branchmisses", &m) == 0 && m == NB_BRANCH_MISSES);
    CHECK(nb_measure_from_name("cycles", &m) == -1);
    CHECK(strcmp(nb_measure_name(NB_CPU_CYCLES), "cpucycles") == 0);
    CHECK(nb_measure_from_name("estcycles", &m) == 0 && m == NB_EST_CYCLES);
    /* a counter that is present */
    nb_test_result_set(r, NB_PAGE_FAULTS, 0, 10);
    nb_test_result_set(r, NB_PAGE_FAULTS, 1, 0);
    nb_test_result_set(r, NB_PAGE_FAULTS, 2, 30);
    nb_test_result_set(r, NB_PAGE_FAULTS, 3, 80);
    CHECK(nb_result_has(r, NB_PAGE_FAULTS));
    /* per iteration: 1, 0, 1, 2 */
    CHECK(nb_result_median(r, NB_PAGE_FAULTS) == 1);
    CHECK(nb_result_maximum(r, NB_PAGE_FAULTS) == 2);
    nb_test_result_free(r);
    nb_bench_free(b);
}

/* MdAPE with epochs of 0 (a counter that did not tick): such an epoch is
 * 0% off a median of 0 and 100% off any other; here that decides the
 * median. And a counter at 0 in every epoch (no page faults) is 0% off. */
static void test_mdape_zeros(void)
{
    double z[] = { 0, 0, 0, 1, 3 }, nz[] = { 0, 0, 0, 4, 4 }, scratch[5];
    double per[] = { 1e-6, 1e-6, 1e-6 };
    uint64_t it[] = { 1, 1, 1 };
    nb_bench *b = nb_bench_new();
    nb_result *r;
    size_t i;
    CHECK(nb_stats_mdape(z, 5, 0, scratch) == 0);
    CHECK(nb_stats_mdape(nz, 5, 4, scratch) == 1);
    if (!CHECK(b != NULL))
        return;
    r = make_result(b, per, it, 3);
    if (CHECK(r != NULL)) {
        for (i = 0; i < nb_result_epoch_count(r); ++i)
            nb_test_result_set(r, NB_PAGE_FAULTS, i, 0);
        CHECK(nb_result_median(r, NB_PAGE_FAULTS) == 0);
        CHECK(nb_result_err(r, NB_PAGE_FAULTS) == 0);
        nb_test_result_free(r);
    }
    nb_bench_free(b);
}

/* More epochs than the statistics' stack scratch holds (64): the values and
 * the MdAPE's scratch, 2n doubles, go to the heap. 1..100: median 50.5,
 * MdAPE the mean of |x - 50.5| / x at x = 85 and 86 (ASan: no overflow; a
 * plain build smashed its stack before). */
static void test_stats_many_epochs(void)
{
    double per[100];
    uint64_t it[100];
    nb_bench *b = nb_bench_new();
    nb_result *r;
    size_t i;
    if (!CHECK(b != NULL))
        return;
    for (i = 0; i < 100; ++i) {
        per[i] = (double)(i + 1);
        it[i] = 1;
    }
    r = make_result(b, per, it, 100);
    if (CHECK(r != NULL)) {
        double want = (34.5 / 85 + 35.5 / 86) / 2;
        CHECK(nb_result_median(r, NB_ELAPSED) == 50.5);
        CHECKF(fabs(nb_result_err(r, NB_ELAPSED) - want) < 1e-15, "err %.17g, want %.17g",
               nb_result_err(r, NB_ELAPSED), want);
        nb_test_result_free(r);
    }
    nb_bench_free(b);
}

/* On the real clock: an empty op ends in the overflow row quickly (where the
 * compiler removes it); the same op kept alive with nb_do_not_optimize_away
 * measures normally. */
/* The implausible-result rule on made-up epochs: under a quarter cycle an
 * iteration at 6.5 GHz, or over 256 bytes a cycle for a byte unit. */
static void test_implausible_rule(void)
{
    nb_bench *b = nb_bench_new();
    nb_result *r;
    char why[200], *text;
    double per[5];
    uint64_t it[5];
    int i;
    if (!CHECK(b != NULL))
        return;
    for (i = 0; i < 5; ++i)
        it[i] = 1000000;
    /* 0.03 ns an iteration: a fifth of a cycle at 6.5 GHz */
    for (i = 0; i < 5; ++i)
        per[i] = 0.03e-9;
    r = make_result(nb_name(b, "fast"), per, it, 5);
    if (!CHECK(r != NULL))
        goto out;
    CHECK(nb_result_implausible(r, why, sizeof why) == 1);
    CHECKF(strcmp(why, "0.03 ns an iteration is under a quarter of a clock cycle at 6.5 GHz: "
                       "was the op's work optimized away?") == 0, "%s", why);
    text = render_rows(&r, 1, 0, 1); /* shown even with warnings suppressed */
    CHECKF(text && strstr(text, "| :warning: `fast` (implausible: 0.03 ns an iteration")
           != NULL, "%s", text ? text : "");
    free(text);
    nb_test_result_free(r);
    /* 0.04 ns is over the quarter cycle (0.0385 ns): plausible as an op */
    for (i = 0; i < 5; ++i)
        per[i] = 0.04e-9;
    r = make_result(nb_name(b, "ok"), per, it, 5);
    if (!CHECK(r != NULL))
        goto out;
    CHECK(nb_result_implausible(r, why, sizeof why) == 0 && why[0] == '\0');
    nb_test_result_free(r);
    /* 4096 bytes in 0.53 ns: 7.7 TB/s, over 256 B x 6.5 GHz = 1.66 TB/s */
    for (i = 0; i < 5; ++i)
        per[i] = 0.53e-9;
    r = make_result(nb_unit(nb_batch(nb_name(b, "copy"), 4096), "byte"), per, it, 5);
    if (!CHECK(r != NULL))
        goto out;
    CHECK(nb_result_implausible(r, why, sizeof why) == 1);
    CHECKF(strstr(why, "7.73e+03 GB/s is more than 256 bytes a cycle at 6.5 GHz") == why,
           "%s", why);
    text = render_rows(&r, 1, 0, 0);
    CHECKF(text && strstr(text, ":warning: `copy` (implausible: 7.73e+03 GB/s") != NULL, "%s",
           text ? text : "");
    free(text);
    nb_test_result_free(r);
    /* the same time for 1000 bytes (1.9 TB/s) still is; 500 bytes (0.94 TB/s) is not; nor
     * 4096 of another unit */
    r = make_result(nb_batch(b, 1000), per, it, 5);
    CHECK(r && nb_result_implausible(r, NULL, 0) == 1);
    nb_test_result_free(r);
    r = make_result(nb_batch(b, 500), per, it, 5);
    CHECK(r && nb_result_implausible(r, NULL, 0) == 0);
    nb_test_result_free(r);
    r = make_result(nb_unit(nb_batch(b, 4096), "op"), per, it, 5);
    CHECK(r && nb_result_implausible(r, why, sizeof why) == 0);
    nb_test_result_free(r);
    CHECK(nb_result_implausible(NULL, why, sizeof why) == 0);
out:
    nb_bench_free(b);
}

int main(int argc, char **argv)
{
    (void)argc;
    check_rng_init(argv[0]);
    test_stats();
    test_mdape_zeros();
    test_stats_many_epochs();
    test_implausible_rule();
    return check_finish();
}
