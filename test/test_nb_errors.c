/* Errors with reasons (nb_get_error_message, nb_clear_error) and NULL
 * everywhere: every function nanobench.h declares, called with NULL pointers
 * (test_nb_api.sh checks that this file names them all), neither crashes nor
 * prints. The messages checked word for word are the API's own examples; the
 * others are checked to be one line that names the function. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_test_hooks.h"
#include "check.h"
#include "nb_fake.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One line, starting with the function's name and a colon. */
static int names(const char *msg, const char *fn)
{
    size_t n = strlen(fn);
    return msg && strncmp(msg, fn, n) == 0 && msg[n] == ':' && !strchr(msg, '\n') &&
           strlen(msg) > n + 2;
}

static void nothing(void *arg)
{
    (void)arg;
}

static void nothing_n(void *arg, uint64_t iters)
{
    (void)arg;
    (void)iters;
}

static double one(double n)
{
    (void)n;
    return 1;
}

/* Every public function with NULL for every pointer (and 0 or an odd value
 * for the rest): nothing crashes, setters return NULL, getters report the
 * defaults or "not measured". */
static void test_null_everywhere(void)
{
    nb_bigo fits[2];
    nb_ratio ratio;
    double lo = 0, hi = 0, v = 0;
    uint64_t st[2] = { 1, 2 };
    nb_measure m;
    nb_valgrind_report rep;
    char why[8];
    static const nb_column col = { "x", 3, NB_ALIGN_RIGHT, 0 };
    const nb_result *none[1] = { NULL };
    FILE *sink = fopen("/dev/null", "w");
    if (!CHECK(sink != NULL))
        return;

    nb_bench_free(NULL);
    nb_bench_free(nb_bench_new());   /* and a bench that was never used */
    CHECK(nb_bench_copy(NULL) == NULL);
    CHECK(nb_title(NULL, NULL) == NULL && nb_name(NULL, NULL) == NULL);
    CHECK(nb_unit(NULL, NULL) == NULL && nb_unstable_advice(NULL, NULL) == NULL);
    CHECK(nb_batch(NULL, 0) == NULL && nb_relative(NULL, 1) == NULL);
    CHECK(nb_performance_counters(NULL, 1) == NULL && nb_cycle_probe(NULL, 1) == NULL);
    CHECK(nb_output(NULL, NULL) == NULL && nb_epochs(NULL, 0) == NULL);
    CHECK(nb_epoch_iterations(NULL, 0) == NULL && nb_min_epoch_iterations(NULL, 0) == NULL);
    CHECK(nb_warmup(NULL, 0) == NULL && nb_min_epoch_time(NULL, 0) == NULL);
    CHECK(nb_max_epoch_time(NULL, 0) == NULL && nb_complexity_n(NULL, 0) == NULL);
    CHECK(nb_time_unit(NULL, 0, NULL) == NULL && nb_clock_resolution_multiple(NULL, 0) == NULL);
    CHECK(nb_context(NULL, NULL, NULL) == NULL && nb_clear_context(NULL) == NULL);
    CHECK(nb_drive(NULL, NULL, NULL) == NULL && nb_setup(NULL, NULL, NULL) == NULL);
    CHECK(nb_setup_each(NULL, NULL, NULL) == NULL && nb_clear_error(NULL) == NULL);
    CHECK(nb_show_column(NULL, NB_COLUMN_TOTAL, 0) == NULL && nb_show_context(NULL, 1) == NULL);
    CHECK(nb_configure(NULL, NULL) == NULL);
    CHECK(nb_run(NULL, NULL, NULL) == NULL && nb_run(NULL, nothing, NULL) == NULL);
    CHECK(nb_run_n(NULL, NULL, NULL) == NULL && nb_run_n(NULL, nothing_n, NULL) == NULL);
    CHECK(nb_run_spec(NULL, NULL) == NULL);
    CHECK(nb_impl_run(NULL, NULL, NULL, NULL, 1) == NULL);
    CHECK(nb_impl_start(NULL, 1, 1) == -1 && nb_impl_next(NULL) == 0);
    nb_impl_epoch_begin(NULL);
    nb_impl_epoch_end(NULL);
    nb_impl_epoch_each(NULL, nothing, NULL, NULL, 3);
    nb_impl_finish(NULL);

    CHECK(strcmp(nb_get_title(NULL), "benchmark") == 0);
    CHECK(strcmp(nb_get_name(NULL), "noname") == 0);
    CHECK(strcmp(nb_get_unit(NULL), "op") == 0 && strcmp(nb_get_unstable_advice(NULL), "") == 0);
    CHECK(nb_get_batch(NULL) == 1 && nb_get_relative(NULL) == 0);
    CHECK(nb_get_performance_counters(NULL) == 1 && nb_get_cycle_probe(NULL) == 1);
    CHECK(nb_get_output(NULL) == NULL && nb_get_epochs(NULL) == 11);
    CHECK(nb_get_epoch_iterations(NULL) == 0 && nb_get_min_epoch_iterations(NULL) == 1);
    CHECK(nb_get_warmup(NULL) == 0 && nb_get_min_epoch_time(NULL) == 1000000);
    CHECK(nb_get_max_epoch_time(NULL) == 100000000 && nb_get_complexity_n(NULL) < 0);
    CHECK(nb_get_time_unit(NULL) == 1e-9 && strcmp(nb_get_time_unit_name(NULL), "ns") == 0);
    CHECK(nb_get_clock_resolution_multiple(NULL) == 1000 && nb_get_context(NULL, NULL) == NULL);
    CHECK(nb_get_show_column(NULL, NB_COLUMN_TOTAL) == 1 && nb_get_show_context(NULL) == 0);
    CHECK(nb_get_error(NULL) == -1 && nb_get_error_message(NULL)[0] != '\0');
    CHECK(nb_clock_resolution() > 0);

    CHECK(nb_result_count(NULL) == 0 && nb_result_at(NULL, 0) == NULL);
    CHECK(nb_result_has(NULL, NB_ELAPSED) == 0 && isnan(nb_result_median(NULL, NB_ELAPSED)));
    CHECK(isnan(nb_result_err(NULL, NB_ELAPSED)) && isnan(nb_result_lower_quartile(NULL, 0)));
    CHECK(nb_result_implausible(NULL, NULL, 0) == 0 && nb_result_implausible(NULL, why, 8) == 0);
    CHECK(nb_result_name(NULL) == NULL && nb_result_title(NULL) == NULL);
    CHECK(nb_result_unit(NULL) == NULL && isnan(nb_result_batch(NULL)));
    CHECK(isnan(nb_result_complexity_n(NULL)) && nb_result_epoch_count(NULL) == 0);
    CHECK(isnan(nb_result_epoch(NULL, NB_ELAPSED, 0)) && isnan(nb_result_minimum(NULL, 0)));
    CHECK(isnan(nb_result_maximum(NULL, 0)) && isnan(nb_result_average(NULL, 0)));
    CHECK(isnan(nb_result_sum(NULL, 0)) && isnan(nb_result_sum_product(NULL, 0, 1)));
    CHECK(nb_result_config(NULL, NULL, NULL) == -1 && nb_result_config(NULL, "epochs", &v) == -1);
    CHECK(nb_result_context(NULL, NULL) == NULL && nb_measure_name((nb_measure)99) == NULL);
    CHECK(nb_measure_from_name(NULL, NULL) == -1 && nb_measure_from_name(NULL, &m) == -1);

    CHECK(nb_compare(NULL, NULL, 0) == NULL);
    nb_comparison_free(NULL);
    CHECK(nb_comparison_count(NULL) == 0 && nb_comparison_rounds(NULL) == 0);
    CHECK(nb_comparison_iterations(NULL) == 0 && nb_comparison_fastest(NULL) == 0);
    CHECK(isnan(nb_comparison_relative(NULL, 0, NULL, NULL)));
    CHECK(isnan(nb_comparison_relative(NULL, 1, &lo, &hi)) && isnan(lo) && isnan(hi));
    CHECK(nb_comparison_significant(NULL, 1) == 0 && nb_comparison_result(NULL, 0) == NULL);
    CHECK(isnan(nb_comparison_time(NULL, 0, 0)));
    CHECK(nb_stats_paired(NULL, NULL, 9, 1, 0.95, NULL) == -1);
    CHECK(nb_stats_paired(NULL, NULL, 9, 1, 0.95, &ratio) == -1 && isnan(ratio.estimate));
    CHECK(nb_stats_unpaired(NULL, 3, NULL, 3, 1, 0.95, NULL) == -1);

    nb_rng_seed(NULL, 1);
    nb_rng_seed_random(NULL);
    CHECK(nb_rng_next(NULL) == 0 && nb_rng_bounded(NULL, 10) == 0);
    CHECK(nb_rng_uniform01(NULL) == 0);
    CHECK(nb_rng_copy(NULL).x == 0);
    nb_rng_state(NULL, st);
    CHECK(st[0] == 0 && st[1] == 0);
    nb_rng_state(NULL, NULL);
    CHECK(nb_rng_set_state(NULL, st) == -1 && nb_rng_set_state(NULL, NULL) == -1);
    nb_rng_shuffle(NULL, NULL, 5, 4);

    CHECK(nb_complexity_bigo(NULL, fits, 2) == 0 && nb_complexity_bigo(NULL, NULL, 0) == 0);
    CHECK(nb_complexity_bigo_custom(NULL, NULL, NULL, NULL) == -1);
    CHECK(nb_complexity_bigo_custom(NULL, "1", one, fits) == -1);
    CHECK(nb_bigo_fit(NULL, NULL, 3, fits, 2) == 0 && nb_bigo_fit(NULL, NULL, 0, NULL, 0) == 0);
    CHECK(nb_bigo_print(NULL, NULL, 0) == -1 && nb_bigo_print(sink, NULL, 2) == -1);

    errno = 0;
    CHECK(nb_render(NULL, NULL, NULL) == -1 && errno == EINVAL);
    CHECK(nb_render_diag(NULL, NULL, NULL, NULL, 0) == -1);
    CHECK(nb_render_diag(nb_templ_csv(), NULL, sink, why, sizeof why) == -1 && why[0]);
    CHECK(nb_render_results(NULL, NULL, 0, NULL) == -1);
    CHECK(nb_render_results(nb_templ_csv(), NULL, 2, sink) == -1);
    CHECK(nb_render_results(nb_templ_csv(), none, 1, sink) == -1);
    CHECK(nb_render_results_diag(NULL, NULL, 0, NULL, NULL, 0) == -1);
    CHECK(nb_templ_csv() && nb_templ_json() && nb_templ_html() && nb_templ_html_boxplot());
    CHECK(nb_templ_pyperf() && nb_templ_gbench());

    CHECK(nb_markdown_header(NULL, NULL, 0) == -1 && nb_markdown_rule(NULL, NULL, 0) == -1);
    CHECK(nb_markdown_row(NULL, NULL, 0, NULL) == -1 && nb_markdown_cell(NULL, NULL, NULL) == -1);
    CHECK(nb_markdown_cell(sink, NULL, "x") == -1 && nb_markdown_cell(sink, &col, NULL) == 0);
    CHECK(nb_markdown_text(NULL, NULL) == -1 && nb_markdown_code(NULL, NULL) == -1);
    CHECK(nb_markdown_width(NULL) == 0);

    CHECK(nb_valgrind_supported() == 0 || nb_valgrind_supported() == 1);
    CHECK(nb_valgrind_counting() == 0);
    errno = 0;
    CHECK(nb_valgrind_run(NULL, NULL, NULL) == -1 && errno == EINVAL);
    CHECK(nb_valgrind_run(NULL, NULL, &rep) == -1);
    nb_do_not_optimize_sink(NULL);
    fclose(sink);
}

/* The API's example messages, word for word; the first error is kept until
 * nb_clear_error. */
static void test_messages(void)
{
    fake f = { 0, 0, 1000, 1000, 0, 0 };
    nb_bench *b = fake_bench(&f);
    FILE *full;
    if (!CHECK(b != NULL))
        return;
    CHECK(nb_get_error(b) == 0 && strcmp(nb_get_error_message(b), "") == 0);
    nb_batch(b, 0);
    CHECK(nb_get_error(b) == -1);
    CHECK(strcmp(nb_get_error_message(b), "nb_batch: 0 is not a positive finite batch") == 0);
    nb_time_unit(b, -1, "x");   /* a second error: the first one's message stays */
    CHECK(strcmp(nb_get_error_message(b), "nb_batch: 0 is not a positive finite batch") == 0);
    CHECK(nb_clear_error(b) == b && nb_get_error(b) == 0 && nb_get_error_message(b)[0] == 0);
    nb_time_unit(b, -1, "x");
    CHECK(names(nb_get_error_message(b), "nb_time_unit"));
    CHECK(nb_get_time_unit(b) == 1e-9 && strcmp(nb_get_time_unit_name(b), "ns") == 0);

    nb_clear_error(b);
    nb_run(b, NULL, NULL);
    CHECK(strcmp(nb_get_error_message(b), "nb_run: op is NULL") == 0);
    CHECK(nb_result_count(b) == 0);
    nb_clear_error(b);
    nb_run_n(b, NULL, NULL);
    CHECK(strcmp(nb_get_error_message(b), "nb_run: op is NULL") == 0);
    nb_clear_error(b);
    NB_RUN(b, .name = "no op");
    CHECK(strcmp(nb_get_error_message(b), "nb_run: op is NULL") == 0);
    CHECK(nb_result_count(b) == 0);

    nb_clear_error(b);
    nb_context(b, NULL, "v");
    CHECK(names(nb_get_error_message(b), "nb_context"));
    nb_clear_error(b);
    nb_show_column(b, (nb_column_id)NB_COLUMN_COUNT, 0);
    CHECK(names(nb_get_error_message(b), "nb_show_column"));

    /* a write that fails: the row's error, with the system's reason */
    full = fopen("/dev/full", "w");
    if (full) {
        nb_clear_error(b);
        setenv("NANOBENCH_SUPPRESS_WARNINGS", "1", 1);
        nb_run(nb_epochs(nb_output(b, full), 3), fake_op, &f);
        unsetenv("NANOBENCH_SUPPRESS_WARNINGS");
        CHECKF(strcmp(nb_get_error_message(b),
                      "write to output failed: No space left on device") == 0,
               "got '%s'", nb_get_error_message(b));
        CHECK(nb_result_count(b) == 1);   /* measured and kept: only the row was lost */
        nb_output(b, NULL);
        fclose(full);
    } else {
        check_untested("the write-error message (no /dev/full)");
    }
    nb_bench_free(b);
}

/* A rejected nb_batch refuses the next run, whose rows would show per-op
 * times under the unit meant for the batch (ns/byte of a whole op); the run
 * after it runs. */
static void test_rejected_batch(void)
{
    fake f = { 0, 0, 1000, 1000, 0, 0 };
    char *text;
    size_t len;
    FILE *out;
    nb_bench *b = fake_bench_to_memory(&f, &out, &text, &len);
    if (!b)
        return;
    nb_run(nb_unit(nb_batch(nb_name(b, "per byte"), 0), "byte"), fake_op, &f);
    CHECK(nb_result_count(b) == 0 && f.calls == 0);
    CHECK(strcmp(nb_get_error_message(b), "nb_batch: 0 is not a positive finite batch") == 0);
    CHECK(nb_get_batch(b) == 1);
    nb_run(nb_batch(b, 64), fake_op, &f);       /* a good batch: runs, ns/byte per byte */
    CHECK(nb_result_count(b) == 1 && nb_result_batch(nb_result_at(b, 0)) == 64);
    nb_batch(b, NAN);
    CHECK(nb_compare(b, NULL, 0) == NULL);   /* refused for alts, the batch flag cleared */
    nb_batch(b, -3);
    {
        nb_alternative alts[2] = { { "a", fake_op, &f, NULL }, { "b", fake_op, &f, NULL } };
        nb_clear_error(b);
        nb_batch(b, -3);
        CHECK(nb_compare(b, alts, 2) == NULL);
        CHECK(names(nb_get_error_message(b), "nb_batch"));
    }
    fclose(out);
    /* one row: the refused run printed nothing */
    CHECK(text && strstr(text, "`per byte`") != NULL && strstr(text, "ns/byte") != NULL);
    CHECK(text && strstr(strstr(text, "`per byte`") + 1, "`per byte`") == NULL);
    free(text);
    nb_bench_free(b);
}

/* nb_compare's refusals each record an error: fewer than two alternatives,
 * no name, no op, from inside an op. */
static nb_bench *inner_bench;
static nb_comparison *inner_result;
static int inner_runs;

static void nested_op(void *arg)
{
    nb_alternative alts[2] = { { "x", nothing, NULL, NULL }, { "y", nothing, NULL, NULL } };
    fake_op(arg);
    if (inner_runs++ == 0) {
        inner_result = nb_compare(inner_bench, alts, 2);
        nb_run(inner_bench, nothing, NULL);
    }
}

static void test_compare_errors(void)
{
    fake f = { 0, 0, 1000, 1000, 0, 0 };
    nb_bench *b = fake_bench(&f);
    nb_alternative alts[2] = { { "a", fake_op, &f, NULL }, { "b", fake_op, &f, NULL } };
    if (!CHECK(b != NULL))
        return;
    CHECK(nb_compare(b, alts, 1) == NULL);
    CHECK(names(nb_get_error_message(b), "nb_compare"));
    CHECK(nb_result_count(b) == 0 && f.calls == 0);
    nb_clear_error(b);
    CHECK(nb_compare(b, alts, 0) == NULL && names(nb_get_error_message(b), "nb_compare"));
    nb_clear_error(b);
    alts[1].name = NULL;
    CHECK(nb_compare(b, alts, 2) == NULL && names(nb_get_error_message(b), "nb_compare"));
    nb_clear_error(b);
    alts[1].name = "b";
    alts[1].op = NULL;
    CHECK(nb_compare(b, alts, 2) == NULL && names(nb_get_error_message(b), "nb_compare"));
    CHECK(strstr(nb_get_error_message(b), "op is NULL") != NULL);

    /* from inside an op: both refused, each recorded; the outer run keeps its result */
    nb_clear_error(b);
    inner_bench = b;
    nb_run(nb_epochs(b, 3), nested_op, &f);
    CHECK(inner_result == NULL && inner_runs > 1);
    CHECK(nb_get_error(b) == -1 && names(nb_get_error_message(b), "nb_compare"));
    CHECK(nb_result_count(b) == 1 && nb_result_epoch_count(nb_result_at(b, 0)) == 3);
    nb_bench_free(b);
}

int main(int argc, char **argv)
{
    (void)argc;
    check_rng_init(argv[0]);
    unsetenv("NANOBENCH_ENDLESS");
    test_null_everywhere();
    test_messages();
    test_rejected_batch();
    test_compare_errors();
    return check_finish();
}
