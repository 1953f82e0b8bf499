/* nb_setup (once per epoch) and nb_setup_each (before every iteration, each
 * iteration timed alone with the clock's cost taken out), on a fake clock:
 * how often the setup runs, that its cost is not timed, that the clock's own
 * cost comes out, in nb_run, nb_run_n, NB_RUN and nb_compare; and the notice
 * a per-epoch setup gives when its epochs run more than one iteration. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_test_hooks.h"
#include "check.h"
#include "nb_fake.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A world whose clock moves when the op runs (cost ns), when the setup runs
 * (setup_cost ns, untimed if the harness does its job), and on every read
 * (read_cost ns: the clock's own cost). used says whether the state the
 * setup makes was used up by an op since. */
typedef struct {
    uint64_t t, cost, setup_cost, read_cost;
    uint64_t setups, ops, stale;   /* stale: ops that found the state used up */
    int fresh;
} world;

static uint64_t world_now(void *ctx)
{
    world *w = ctx;
    uint64_t t = w->t;
    w->t += w->read_cost;
    return t;
}

static void world_setup(void *arg)
{
    world *w = arg;
    w->t += w->setup_cost;
    w->setups++;
    w->fresh = 1;
}

static void world_op(void *arg)
{
    world *w = arg;
    w->t += w->cost;
    w->ops++;
    w->stale += !w->fresh;
    w->fresh = 0;
}

NB_OP_N(world_op_n, world_op)

static nb_bench *world_bench(world *w, uint64_t cost, uint64_t setup_cost, uint64_t read_cost)
{
    nb_bench *b = nb_bench_new();
    memset(w, 0, sizeof *w);
    w->cost = cost;
    w->setup_cost = setup_cost;
    w->read_cost = read_cost;
    if (b) {
        nb_performance_counters(nb_output(b, NULL), 0);
        nb_test_set_clock(b, world_now, w, 20);
    }
    return b;
}

/* Every iteration gets its own setup (also in calibration), none is timed,
 * and the median is the op's cost exactly, with a clock that costs nothing
 * and with one that costs 7 ns a read. */
static void test_each_run(void)
{
    static const uint64_t reads[2] = { 0, 7 };
    size_t k;
    for (k = 0; k < 2; ++k) {
        world w;
        nb_bench *b = world_bench(&w, 5000, 1000000, reads[k]);
        const nb_result *r;
        if (!CHECK(b != NULL))
            return;
        nb_run(nb_setup_each(nb_name(b, "each"), world_setup, &w), world_op, &w);
        r = nb_result_at(b, 0);
        CHECK(nb_get_error(b) == 0 && nb_result_epoch_count(r) == 11);
        CHECK(w.setups == w.ops && w.ops > 0 && w.stale == 0);
        CHECKF(fabs(nb_result_median(r, NB_ELAPSED) * 1e9 - 5000) < 1e-6,
               "read cost %llu: median %.3f ns", (unsigned long long)reads[k],
               nb_result_median(r, NB_ELAPSED) * 1e9);
        CHECK(nb_result_err(r, NB_ELAPSED) == 0);
        /* epochs are sized on the op's own time (1 ms target: 200 iterations), not on
         * the setups' */
        CHECKF(nb_result_epoch(r, NB_ITERATIONS, 0) >= 150, "%g iterations",
               nb_result_epoch(r, NB_ITERATIONS, 0));
        /* it applies to that run only: the next one has no setup */
        w.setups = 0;
        nb_run(b, world_op, &w);
        CHECK(w.setups == 0 && nb_result_count(b) == 2);
        nb_bench_free(b);
    }
}

/* nb_run_n with nb_setup_each: op_n is called with 1, after each setup; NB_RUN's
 * .setup_each is the same. */
static void test_each_forms(void)
{
    world w;
    nb_bench *b = world_bench(&w, 3000, 50000, 3);
    if (!CHECK(b != NULL))
        return;
    nb_run_n(nb_setup_each(b, world_setup, &w), world_op_n, &w);
    CHECK(w.setups == w.ops && w.stale == 0);
    CHECK(fabs(nb_result_median(nb_result_at(b, 0), NB_ELAPSED) * 1e9 - 3000) < 1e-6);
    w.setups = w.ops = 0;
    NB_RUN(b, .name = "spec", .op = world_op, .arg = &w, .setup_each = world_setup);
    CHECK(w.setups == w.ops && w.ops > 0 && w.stale == 0);
    CHECK(fabs(nb_result_median(nb_result_at(b, 1), NB_ELAPSED) * 1e9 - 3000) < 1e-6);
    /* nb_setup and nb_setup_each exclude each other: the later call wins */
    w.setups = w.ops = 0;
    nb_run(nb_setup(nb_setup_each(b, world_setup, &w), world_setup, &w), world_op, &w);
    CHECK(w.setups < w.ops / 10);   /* per epoch */
    w.setups = w.ops = 0;
    nb_run(nb_setup_each(nb_setup(b, world_setup, &w), world_setup, &w), world_op, &w);
    CHECK(w.setups == w.ops);
    nb_bench_free(b);
}

/* nb_compare with nb_setup_each: every iteration of every alternative fresh,
 * the ratio exact. */
static void test_each_compare(void)
{
    world w;
    nb_bench *b = world_bench(&w, 4000, 30000, 5);
    nb_alternative alts[2] = { { "a", world_op, &w, NULL }, { "b", NULL, &w, world_op_n } };
    nb_comparison *c;
    double lo, hi;
    if (!CHECK(b != NULL))
        return;
    c = nb_compare(nb_setup_each(b, world_setup, &w), alts, 2);
    if (CHECK(c != NULL)) {
        CHECK(w.setups == w.ops && w.stale == 0);
        CHECK(fabs(nb_comparison_relative(c, 1, &lo, &hi) - 1) < 1e-12);
        CHECK(fabs(nb_result_median(nb_comparison_result(c, 0), NB_ELAPSED) * 1e9 - 4000) < 1e-6);
    }
    nb_comparison_free(c);
    nb_bench_free(b);
}

/* A per-epoch setup on epochs of many iterations: the later iterations find
 * the state used up, and the run says so once in the output (never for
 * epochs of one iteration, nor with warnings suppressed). */
static void test_setup_notice(void)
{
    world w;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    nb_bench *b = world_bench(&w, 5000, 100, 0);
    if (!CHECK(b != NULL) || !CHECK(out != NULL)) {
        nb_bench_free(b);
        if (out)
            fclose(out);
        return;
    }
    unsetenv("NANOBENCH_SUPPRESS_WARNINGS");
    nb_output(b, out);
    nb_run(nb_epoch_iterations(nb_setup(nb_name(b, "one"), world_setup, &w), 1), world_op, &w);
    fflush(out);
    CHECK(strstr(text, "nb_setup_each") == NULL);
    nb_run(nb_epoch_iterations(nb_setup(nb_name(b, "many"), world_setup, &w), 10), world_op, &w);
    CHECK(w.stale > 0);
    nb_run(nb_setup(nb_name(b, "again"), world_setup, &w), world_op, &w);
    fclose(out);
    if (CHECK(text != NULL)) {
        const char *note = strstr(text, "nb_setup_each");
        CHECK(note != NULL && strstr(note + 1, "nb_setup_each") == NULL);   /* once */
        /* the note ends the table: the next row starts a new one, header first */
        CHECK(note && strstr(note, "|----") != NULL && strstr(note, "`many`") != NULL);
    }
    free(text);
    nb_bench_free(b);
}

int main(int argc, char **argv)
{
    (void)argc;
    check_rng_init(argv[0]);
    unsetenv("NANOBENCH_ENDLESS");
    setenv("NANOBENCH_SUPPRESS_WARNINGS", "1", 1);
    test_each_run();
    test_each_forms();
    test_each_compare();
    test_setup_notice();
    return check_finish();
}
