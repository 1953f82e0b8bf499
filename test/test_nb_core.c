/* Harness core: iteration logic on a fake clock, statistics, number
 * formatting, the markdown table as golden text (rows taken from real
 * nanobench output), header rules, unstable and overflow rows, perf groups
 * with software events, allocation failures. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"
#include "check.h"
#include "util/alloc.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <pthread.h>
#include <unistd.h>

#if defined(HAVE_LINUX_PERF_EVENT_H)
#include <linux/perf_event.h>
#endif

/* ---- a fake clock that advances only when the op runs ---- */

typedef struct {
    uint64_t t;           /* ns */
    uint64_t calls;
    uint64_t first_cost;  /* the first call (a lazy init) */
    uint64_t cost;        /* every later call */
    uint64_t fast_after;  /* from this call on, cost is fast_cost (0: never) */
    uint64_t fast_cost;
} fake;

static uint64_t fake_now(void *ctx)
{
    return ((fake *)ctx)->t;
}

static void fake_op(void *arg)
{
    fake *f = arg;
    uint64_t c = f->calls == 0 ? f->first_cost : f->cost;
    if (f->fast_after && f->calls >= f->fast_after)
        c = f->fast_cost;
    f->t += c;
    f->calls++;
}

static nb_bench *fake_bench(fake *f)
{
    nb_bench *b = nb_bench_new();
    if (!b)
        return NULL;
    nb_output(b, NULL);
    nb_performance_counters(b, 0);
    nb_test_set_clock(b, fake_now, f, 20);
    return b;
}

/* fake_bench whose rows go to a memory stream (*out; *text once it is
 * closed), the stability warnings suppressed; NULL after a failed CHECK, with
 * nothing left open. */
static nb_bench *fake_bench_to_memory(fake *f, FILE **out, char **text, size_t *len)
{
    nb_bench *b = fake_bench(f);
    *text = NULL;
    *len = 0;
    *out = open_memstream(text, len);
    if (!CHECK(b != NULL) || !CHECK(*out != NULL)) {
        nb_bench_free(b);
        if (*out)
            fclose(*out);
        free(*text);
        return NULL;
    }
    setenv("NANOBENCH_SUPPRESS_WARNINGS", "1", 1);
    nb_output(b, *out);
    return b;
}

static uint64_t result_iters(const nb_result *r)
{
    size_t i;
    uint64_t s = 0;
    for (i = 0; i < r->count; ++i)
        s += r->epochs[i].iters;
    return s;
}

static void test_target(void)
{
    nb_bench *b = nb_bench_new();
    if (!CHECK(b != NULL))
        return;
    /* 20 ns * 1000 = 20 us, raised to the default 1 ms minimum */
    CHECK(nb_logic_target(&b->cfg, 20) == 1000000);
    nb_min_epoch_time(b, 0);
    CHECK(nb_logic_target(&b->cfg, 20) == 20000);
    nb_clock_resolution_multiple(b, 10);
    CHECK(nb_logic_target(&b->cfg, 20) == 200);
    nb_clock_resolution_multiple(b, 1000);
    /* clamped by max epoch time */
    CHECK(nb_logic_target(&b->cfg, 1000000) == 100000000);
    nb_max_epoch_time(b, 5000);
    CHECK(nb_logic_target(&b->cfg, 20) == 5000);
    /* min wins over max when they disagree: an epoch is never shorter than asked */
    nb_min_epoch_time(b, 7000);
    CHECK(nb_logic_target(&b->cfg, 20) == 7000);
    /* near 2^64 the double rounds up to 2^64: saturates (the cast would be
     * undefined; on x86-64 it gave 0, one-iteration epochs) */
    nb_min_epoch_time(b, UINT64_MAX);
    CHECK(nb_logic_target(&b->cfg, 20) == UINT64_MAX);
    nb_min_epoch_time(b, UINT64_MAX - 1000);
    CHECK(nb_logic_target(&b->cfg, 20) == UINT64_MAX);
    nb_bench_free(b);
}

/* The flaw nanobench 4.3 has: a 2 ms first call, then 1 us per call. Every
 * kept epoch must last the 1 ms target, and the result is exactly the
 * steady-state 1 us. */
static void test_slow_first_call(void)
{
    fake f = { 0, 0, 2000000, 1000, 0, 0 };
    nb_bench *b = fake_bench(&f);
    const nb_result *r;
    size_t i;
    if (!CHECK(b != NULL))
        return;
    nb_run(nb_name(b, "slow first"), fake_op, &f);
    CHECK(nb_result_count(b) == 1);
    r = nb_result_at(b, 0);
    CHECK(nb_result_epoch_count(r) == 11);
    for (i = 0; i < nb_result_epoch_count(r); ++i) {
        double e = nb_result_epoch(r, NB_ELAPSED, i) * nb_result_epoch(r, NB_ITERATIONS, i);
        CHECKF(e >= 1e-3 - 1e-12, "epoch %zu lasted %g s < 1 ms", i, e);
        /* 0-10% stretch over the target: between 1000 and 1100 calls, plus rounding */
        CHECKF(r->epochs[i].iters >= 1000 && r->epochs[i].iters <= 1101,
               "epoch %zu ran %llu iterations", i, (unsigned long long)r->epochs[i].iters);
    }
    CHECKF(fabs(nb_result_median(r, NB_ELAPSED) / 1e-6 - 1) < 1e-12, "median %g",
           nb_result_median(r, NB_ELAPSED));
    CHECK(nb_result_err(r, NB_ELAPSED) == 0);
    CHECK(fabs(nb_result_maximum(r, NB_ELAPSED) / nb_result_minimum(r, NB_ELAPSED) - 1) < 1e-12);
    CHECK(r->discarded >= 2);        /* the slow epoch and at least one calibration */
    CHECK(f.calls >= result_iters(r) + 1);
    nb_bench_free(b);
}

/* The op gets 4x faster during measurement: the epochs that fall short of
 * the keep cut (2/3 of the target) are discarded, never kept, and the result
 * is the new speed. */
static void test_recheck(void)
{
    fake f = { 0, 0, 4000, 4000, 500, 1000 };
    nb_bench *b = fake_bench(&f);
    const nb_result *r;
    size_t i;
    if (!CHECK(b != NULL))
        return;
    nb_run(nb_name(b, "speeds up"), fake_op, &f);
    r = nb_result_at(b, 0);
    CHECK(nb_result_epoch_count(r) == 11);
    for (i = 0; i < r->count; ++i)
        CHECKF(r->epochs[i].elapsed >= 1e-3 * 2 / 3 - 1e-12, "epoch %zu: %g s", i,
               r->epochs[i].elapsed);
    CHECK(r->discarded >= 3);
    CHECKF(fabs(nb_result_median(r, NB_ELAPSED) / 1e-6 - 1) < 1e-12, "median %g",
           nb_result_median(r, NB_ELAPSED));
    nb_bench_free(b);
}

/* Noise (a 300 us preemption hitting one call in 10000) must not bias the
 * result: epochs are sized so that an undisturbed one reaches the target,
 * so the keep cut does not keep only the disturbed ones. */
static uint64_t noisy_t;

static uint64_t noisy_now(void *ctx)
{
    (void)ctx;
    return noisy_t;
}

static void noisy_op(void *arg)
{
    (void)arg;
    noisy_t += 1000;
    if (check_rng_below(10000) == 0)
        noisy_t += 300000;
}

static void test_noise_unbiased(void)
{
    nb_bench *b = nb_bench_new();
    const nb_result *r;
    if (!CHECK(b != NULL))
        return;
    nb_output(nb_performance_counters(b, 0), NULL);
    nb_test_set_clock(b, noisy_now, NULL, 20);
    nb_run(nb_epochs(b, 31), noisy_op, NULL);
    r = nb_result_at(b, 0);
    CHECK(nb_result_epoch_count(r) == 31);
    /* about 90% of 1000-call epochs see no preemption: the median is clean */
    CHECKF(nb_result_median(r, NB_ELAPSED) < 1.0001e-6, "median %g",
           nb_result_median(r, NB_ELAPSED));
    CHECKF(r->discarded <= 8, "%llu epochs discarded", (unsigned long long)r->discarded);
    nb_bench_free(b);
}

/* Symmetric noise: each epoch runs at 100 ns x exp(sigma z), z standard normal
 * (a Box-Muller pair from a fixed-seed generator, so the test is the same every
 * run). The true median is 100 ns. */
static struct {
    double t, factor, sigma;
    int reads;
    uint64_t rng;
} sym;

static double sym_uniform(void)
{
    sym.rng ^= sym.rng << 13;
    sym.rng ^= sym.rng >> 7;
    sym.rng ^= sym.rng << 17;
    return ((double)(sym.rng >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

static uint64_t sym_now(void *ctx)
{
    (void)ctx;
    if (sym.reads++ % 2 == 0) { /* an epoch starts: its own speed */
        double z = sqrt(-2.0 * log(sym_uniform())) * cos(6.283185307179586 * sym_uniform());
        sym.factor = exp(sym.sigma * z);
    }
    return (uint64_t)sym.t;
}

static void sym_op(void *arg)
{
    (void)arg;
    sym.t += 100.0 * sym.factor;
}

/* The mean over many runs of the reported median stays on the true median:
 * which epochs are kept must not depend on whether noise sped them up. With
 * the keep cut at the whole target, the mean was 100.28 ns at 5% noise and
 * 102.4 ns at 20% (400 runs); the standard error of these means is about
 * 0.1 and 0.4 ns. */
static void test_noise_symmetric(void)
{
    static const double sigmas[] = { 0.05, 0.2 }, limits[] = { 100.2, 101.5 };
    size_t k;
    int i, runs = 400;
    for (k = 0; k < 2; ++k) {
        double sum = 0;
        sym.sigma = sigmas[k];
        sym.rng = 0x9e3779b97f4a7c15u;
        for (i = 0; i < runs; ++i) {
            nb_bench *b = nb_bench_new();
            if (!b) {
                CHECK(b != NULL);
                return;
            }
            sym.t = 0;
            sym.reads = 0;
            nb_output(nb_performance_counters(b, 0), NULL);
            nb_test_set_clock(b, sym_now, NULL, 20);
            nb_run(b, sym_op, NULL);
            sum += nb_result_median(nb_result_at(b, 0), NB_ELAPSED) * 1e9;
            nb_bench_free(b);
        }
        CHECKF(sum / runs > 99.0 && sum / runs < limits[k],
               "noise %.0f%%: mean median %.3f ns, true 100", sigmas[k] * 100, sum / runs);
        printf("symmetric noise %.0f%%: mean of %d medians %.3f ns (true 100)\n",
               sigmas[k] * 100, runs, sum / runs);
    }
}

static void test_fixed_and_warmup(void)
{
    fake f = { 0, 0, 10, 10, 0, 0 };
    nb_bench *b = fake_bench(&f);
    const nb_result *r;
    size_t i;
    if (!CHECK(b != NULL))
        return;
    /* fixed iterations: no calibration, kept however short */
    nb_run(nb_epoch_iterations(nb_epochs(b, 3), 7), fake_op, &f);
    r = nb_result_at(b, 0);
    CHECK(nb_result_epoch_count(r) == 3);
    for (i = 0; i < r->count; ++i)
        CHECK(r->epochs[i].iters == 7);
    CHECK(f.calls == 21);
    CHECK(r->discarded == 0);

    /* warmup runs once, unmeasured, before the fixed epochs */
    f.calls = 0;
    nb_run(nb_warmup(b, 5), fake_op, &f);
    r = nb_result_at(b, 1);
    CHECK(nb_result_epoch_count(r) == 3);
    CHECK(f.calls == 5 + 21);
    CHECK(r->discarded == 1);

    /* warmup then calibration */
    f.calls = 0;
    nb_run(nb_warmup(nb_epoch_iterations(nb_epochs(b, 5), 0), 5), fake_op, &f);
    r = nb_result_at(b, 2);
    CHECK(nb_result_epoch_count(r) == 5);
    for (i = 0; i < r->count; ++i)
        CHECK(r->epochs[i].elapsed >= 1e-3);
    CHECK(f.calls > 5 + result_iters(r));

    /* min epoch iterations: every kept epoch runs at least that many */
    nb_run(nb_min_epoch_iterations(nb_warmup(b, 0), 500000), fake_op, &f);
    r = nb_result_at(b, 3);
    CHECK(nb_result_epoch_count(r) == 5);
    for (i = 0; i < r->count; ++i)
        CHECK(r->epochs[i].iters >= 500000);
    CHECK(nb_get_min_epoch_iterations(b) == 500000);
    nb_min_epoch_iterations(b, 0);
    CHECK(nb_get_min_epoch_iterations(b) == 1);
    nb_bench_free(b);
}

/* nb_run_n: op_n is called once per epoch with the iteration count nb_run
 * would run, on the same fake clock: every epoch's count (seen by the
 * per-epoch setup, which runs before each epoch in both) is the same, and so
 * is the result. */
typedef struct {
    fake f;
    uint64_t counts[256];  /* iterations per epoch, in the order run */
    size_t epochs;
    size_t op_n_calls;
} epoch_log;

static void log_setup(void *arg)
{
    epoch_log *l = arg;
    if (l->epochs < 256)
        l->counts[l->epochs] = 0;
    l->epochs++;
}

static void log_op(void *arg)
{
    epoch_log *l = arg;
    fake_op(&l->f);
    if (l->epochs && l->epochs <= 256)
        l->counts[l->epochs - 1]++;
}

NB_OP_N(log_op_n, log_op)

static void log_op_n_counted(void *arg, uint64_t iters)
{
    ((epoch_log *)arg)->op_n_calls++;
    log_op_n(arg, iters);
}

static void test_run_n(void)
{
    static const struct { uint64_t first, cost, warmup, fixed; size_t epochs; } cases[] = {
        { 10, 10, 0, 0, 11 }, { 5000000, 10, 0, 0, 5 }, { 10, 3, 100, 0, 7 },
        { 10, 10, 0, 7, 3 }, { 10, 10, 5, 7, 3 }, { 2000000, 2000000, 0, 0, 4 },
    };
    size_t k, e;
    for (k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        static epoch_log a, b2;
        nb_bench *ba, *bb;
        const nb_result *ra, *rb;
        memset(&a, 0, sizeof a);
        memset(&b2, 0, sizeof b2);
        a.f.first_cost = b2.f.first_cost = cases[k].first;
        a.f.cost = b2.f.cost = cases[k].cost;
        ba = fake_bench(&a.f);
        bb = fake_bench(&b2.f);
        if (!CHECK(ba != NULL && bb != NULL)) {
            nb_bench_free(ba);
            nb_bench_free(bb);
            return;
        }
        nb_epoch_iterations(nb_warmup(nb_epochs(ba, cases[k].epochs), cases[k].warmup),
                            cases[k].fixed);
        nb_epoch_iterations(nb_warmup(nb_epochs(bb, cases[k].epochs), cases[k].warmup),
                            cases[k].fixed);
        nb_run(nb_setup(ba, log_setup, &a), log_op, &a);
        nb_run_n(nb_setup(bb, log_setup, &b2), log_op_n_counted, &b2);
        CHECKF(a.epochs == b2.epochs && a.epochs > 0 && a.epochs <= 256,
               "case %zu: %zu epochs, %zu", k, a.epochs, b2.epochs);
        CHECK(b2.op_n_calls == b2.epochs);
        for (e = 0; e < a.epochs && e < b2.epochs && e < 256; ++e)
            CHECKF(a.counts[e] == b2.counts[e] && a.counts[e] > 0,
                   "case %zu epoch %zu: %llu, %llu", k, e, (unsigned long long)a.counts[e],
                   (unsigned long long)b2.counts[e]);
        CHECK(a.f.calls == b2.f.calls && a.f.t == b2.f.t);
        ra = nb_result_at(ba, 0);
        rb = nb_result_at(bb, 0);
        CHECK(nb_result_epoch_count(ra) == cases[k].epochs);
        CHECK(nb_result_epoch_count(ra) == nb_result_epoch_count(rb));
        for (e = 0; e < nb_result_epoch_count(ra); ++e) {
            CHECK(nb_result_epoch(ra, NB_ITERATIONS, e) == nb_result_epoch(rb, NB_ITERATIONS, e));
            CHECK(nb_result_epoch(ra, NB_ELAPSED, e) == nb_result_epoch(rb, NB_ELAPSED, e));
        }
        CHECK(nb_get_error(ba) == 0 && nb_get_error(bb) == 0);
        nb_bench_free(ba);
        nb_bench_free(bb);
    }
}

/* nb_drive: the driver sees every epoch (its iterations and fake-clock time) and chooses the
 * next count; 0 ends the run; no warm-up or calibration runs; nothing is kept; one run only. */
typedef struct {
    uint64_t plan[4];     /* the iteration counts to ask for, then 0 */
    size_t calls;
    uint64_t seen_iters[5];
    uint64_t seen_ns[5];
} drive_log;

static uint64_t drive_next(void *ctx, uint64_t iters, uint64_t ns)
{
    drive_log *d = ctx;
    uint64_t n = d->calls < 4 ? d->plan[d->calls] : 0;
    if (d->calls < 5) {
        d->seen_iters[d->calls] = iters;
        d->seen_ns[d->calls] = ns;
    }
    d->calls++;
    return n;
}

static int drive_setups;

static void drive_setup(void *arg)
{
    fake *f = arg;
    f->t += 1000000;   /* a slow setup: untimed, so the driver must not see it */
    drive_setups++;
}

static void test_drive(void)
{
    fake f = { 0, 0, 10, 10, 0, 0 };
    nb_bench *b = fake_bench(&f);
    drive_log d = { { 3, 1, 50, 0 }, 0, { 0 }, { 0 } };
    const nb_result *r;
    if (!CHECK(b != NULL))
        return;
    nb_run(nb_drive(nb_warmup(nb_epochs(b, 2), 1000), drive_next, &d), fake_op, &f);
    CHECK(d.calls == 4);
    CHECK(f.calls == 3 + 1 + 50);   /* no warm-up: only what the driver asked */
    CHECK(d.seen_iters[0] == 0 && d.seen_ns[0] == 0);
    CHECK(d.seen_iters[1] == 3 && d.seen_ns[1] == 30);
    CHECK(d.seen_iters[2] == 1 && d.seen_ns[2] == 10);
    CHECK(d.seen_iters[3] == 50 && d.seen_ns[3] == 500);
    r = nb_result_at(b, 0);
    CHECK(nb_result_count(b) == 1 && nb_result_epoch_count(r) == 0);
    CHECK(nb_get_error(b) == 0);

    /* nb_setup's function runs once before every driven epoch */
    f.calls = 0;
    d.calls = 0;
    drive_setups = 0;
    nb_run(nb_drive(nb_setup(b, drive_setup, &f), drive_next, &d), fake_op, &f);
    CHECK(d.calls == 4 && f.calls == 3 + 1 + 50);
    CHECK(drive_setups == 3);
    CHECK(d.seen_ns[1] == 30 && d.seen_ns[2] == 10 && d.seen_ns[3] == 500);   /* untimed */
    CHECK(nb_result_count(b) == 2);

    /* a driver that ends at once runs nothing */
    f.calls = 0;
    d.calls = 0;
    d.plan[0] = 0;
    nb_run(nb_drive(b, drive_next, &d), fake_op, &f);
    CHECK(d.calls == 1 && f.calls == 0);

    /* the next run is the harness's own again: warm-up, then 2 kept epochs */
    f.calls = 0;
    d.calls = 0;
    nb_run(nb_epoch_iterations(b, 4), fake_op, &f);
    CHECK(d.calls == 0);
    CHECK(f.calls == 1000 + 8);
    CHECK(nb_result_epoch_count(nb_result_at(b, 3)) == 2);
    nb_bench_free(b);
}

/* nb_run as an optimising compiler leaves it when the op is removed: the
 * same calls, no loop. (Through nb_run itself the test relied on the
 * compiler deleting an empty loop; gcc -O1 keeps it, and then the epochs'
 * 1.1e18 iterations really ran: make check hung.) */
static void run_removed_op(nb_bench *b)
{
    if (nb_impl_start(b, 1) != 0)
        return;
    while (nb_impl_next(b) != 0) {
        nb_impl_epoch_begin(b);
        nb_impl_epoch_end(b);
    }
    nb_impl_finish(b);
}

/* An op that costs nothing (the compiler removed it), so the fake clock
 * never advances: the overflow row, after a bounded number of epochs,
 * never a hang. */
static void test_overflow(void)
{
    fake f = { 0, 0, 0, 0, 0, 0 };
    const nb_result *r;
    char *text;
    size_t len;
    FILE *out;
    nb_bench *b = fake_bench_to_memory(&f, &out, &text, &len);
    if (!b)
        return;
    run_removed_op(nb_name(b, "noop"));
    fclose(out);
    r = nb_result_at(b, 0);
    CHECK(r->overflow == 1);
    CHECK(nb_result_epoch_count(r) == 0);
    CHECK(!nb_result_has(r, NB_ELAPSED));
    CHECK(isnan(nb_result_median(r, NB_ELAPSED)));
    CHECK(r->discarded < 25);
    CHECK(strcmp(text, "\n|               ns/op |                op/s |    err% |     total | "
                       "benchmark\n|--------------------:|--------------------:|--------:|"
                       "----------:|:----------\n|                   - |                   - |"
                       "       - |         - | :boom: `noop` (iterations overflow. Maybe your "
                       "code got optimized away?)\n") == 0);
    free(text);
    nb_bench_free(b);
}

/* An op whose epochs reach the target only once the iteration count nears
 * the overflow, after some epochs were kept: the overflow row's result has
 * no epochs all the same, as nanobench.h says, not the kept ones. */
static nb_bench *late_bench;
static uint64_t late_t, late_reads;

static uint64_t late_now(void *ctx)
{
    (void)ctx;
    if (late_reads++ % 2 == 1)   /* an epoch's end: 30 ns, or the 1 ms target */
        late_t += late_bench->logic.n < UINT64_C(100000000000000000) ? 30 : 1000000;
    return late_t;
}

static void test_overflow_after_kept_epochs(void)
{
    nb_bench *b = nb_bench_new();
    const nb_result *r;
    if (!CHECK(b != NULL))
        return;
    late_bench = b;
    late_t = late_reads = 0;
    nb_output(nb_performance_counters(nb_epochs(b, 200), 0), NULL);
    nb_test_set_clock(b, late_now, NULL, 1000);
    run_removed_op(b);
    r = nb_result_at(b, 0);
    CHECK(r != NULL && r->overflow == 1);
    CHECKF(nb_result_epoch_count(r) == 0, "%zu epochs", nb_result_epoch_count(r));
    CHECK(!nb_result_has(r, NB_ELAPSED) && isnan(nb_result_median(r, NB_ELAPSED)));
    nb_bench_free(b);
}

/* nb_run of the same bench from inside its op: refused with the error set;
 * the outer run keeps its result and row. */
static nb_bench *nest_bench;
static int nest_calls;

static void nest_outer(void *arg)
{
    fake_op(arg);
    if (nest_calls++ == 0)
        nb_run(nb_name(nest_bench, "inner"), fake_op, arg);
}

static void test_nested_run_refused(void)
{
    fake f = { 0, 0, 1000, 1000, 0, 0 };
    nb_bench *b = fake_bench(&f);
    if (!CHECK(b != NULL))
        return;
    nest_bench = b;
    nest_calls = 0;
    nb_run(nb_name(b, "outer"), nest_outer, &f);
    CHECK(nb_get_error(b) == -1);
    CHECK(nb_result_count(b) == 1);
    CHECK(strcmp(nb_result_name(nb_result_at(b, 0)), "outer") == 0);
    CHECK(nb_result_epoch_count(nb_result_at(b, 0)) == 11);
    /* the bench works again afterwards */
    nb_run(nb_name(b, "after"), fake_op, &f);
    CHECK(nb_result_count(b) == 2);
    nb_bench_free(b);
}

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

/* Units and time units of any length: printed whole in the header, and a
 * change anywhere in them starts a new header; numbers of any size printed
 * whole. */
static void test_long_units_and_numbers(void)
{
    static char unit[10001], unit2[10001], tu[3001];
    fake f = { 0, 0, 1000, 1000, 0, 0 };
    char *text, *row;
    size_t len, digits = 0;
    FILE *out;
    nb_bench *b = fake_bench_to_memory(&f, &out, &text, &len);
    if (!b)
        return;
    memset(unit, 'u', sizeof unit - 1);
    memcpy(unit2, unit, sizeof unit);
    unit2[9000] = 'v';
    memset(tu, 't', sizeof tu - 1);
    nb_run(nb_name(nb_unit(b, unit), "u1"), fake_op, &f);
    nb_run(nb_name(nb_unit(b, unit2), "u2"), fake_op, &f);
    nb_run(nb_name(nb_time_unit(b, 1e-9, tu), "t1"), fake_op, &f);
    nb_run(nb_name(nb_time_unit(nb_batch(nb_unit(b, "op"), 1e-300), 1e-9, "ns"), "big"),
           fake_op, &f);
    fclose(out);
    CHECK(nb_get_error(b) == 0);
    if (CHECK(text != NULL)) {
        size_t headers = 0;
        const char *p;
        for (p = text; (p = strstr(p, "|----")) != NULL; ++p, ++headers)
            p = strchr(p, '\n') ? strchr(p, '\n') : p;
        CHECKF(headers == 4, "%zu headers", headers);  /* u1, u2, t1, big */
        CHECK(strstr(text, unit2) != NULL);
        /* "<time unit>/<unit>", whole */
        {
            char *want = malloc(sizeof tu + sizeof unit2 + 1);
            if (CHECK(want != NULL)) {
                sprintf(want, "%s/%s", tu, unit2);
                CHECK(strstr(text, want) != NULL);
            }
            free(want);
        }
        /* 1000 ns per op over a batch of 1e-300: about 1e303 ns/op, every digit
         * (303 or 304 before the point, as the median comes out) */
        row = strstr(text, "`big`");
        if (CHECK(row != NULL)) {
            while (row > text && row[-1] != '\n')
                --row;
            for (p = row + 1; *p && *p != '|'; ++p)
                digits += *p >= '0' && *p <= '9';
            CHECKF(digits >= 305 && digits <= 306 && p[-4] == '.' && p[-1] == ' ',
                   "%zu digits", digits);
        }
    }
    free(text);
    nb_bench_free(b);
}

/* A complexity table between two rows of the same columns: the second row
 * gets its header again (the markdown would otherwise join it to the fit table). */
static void test_header_after_bigo(void)
{
    fake f = { 0, 0, 1000, 1000, 0, 0 };
    nb_bigo fit[8];
    double n[] = { 1, 2, 3 }, t[] = { 1, 2, 3 };
    char *text, *p;
    size_t len, fits;
    int headers = 0;
    FILE *out;
    nb_bench *b = fake_bench_to_memory(&f, &out, &text, &len);
    if (!b)
        return;
    nb_run(nb_name(b, "first"), fake_op, &f);
    fits = nb_bigo_fit(n, t, 3, fit, 8);
    CHECK(nb_bigo_print(out, fit, fits) == 0);
    nb_run(nb_name(b, "second"), fake_op, &f);
    fclose(out);
    for (p = text; p && (p = strstr(p, "|:-")) != NULL; ++p)
        headers++;
    CHECKF(headers == 2, "%d results headers", headers);
    free(text);
    unsetenv("NANOBENCH_SUPPRESS_WARNINGS");
    nb_bench_free(b);
}

/* 1 when the line of text holding name starts with prefix. */
static int row_starts(const char *text, const char *name, const char *prefix)
{
    const char *at = text ? strstr(text, name) : NULL;
    if (!at)
        return 0;
    while (at > text && at[-1] != '\n')
        --at;
    return strncmp(at, prefix, strlen(prefix)) == 0;
}

/* The relative column's 100% is the first row of its table: when a title
 * comes back after another table, its rows start a new reference (nanobench
 * forgets its results on every title or unit change). */
static void test_relative_baseline(void)
{
    fake f = { 0, 0, 1000, 1000, 0, 0 };
    char *text;
    size_t len;
    FILE *out;
    nb_bench *b = fake_bench_to_memory(&f, &out, &text, &len);
    if (!b)
        return;
    nb_relative(b, 1);
    nb_run(nb_name(nb_title(b, "A"), "a1"), fake_op, &f);
    f.cost = 2000;
    nb_run(nb_name(b, "a2"), fake_op, &f);                        /* 50% of a1 */
    nb_run(nb_name(nb_title(b, "B"), "b1"), fake_op, &f);         /* a new table: 100% */
    f.cost = 4000;
    nb_run(nb_name(nb_title(b, "A"), "a3"), fake_op, &f);         /* A again: 100% */
    f.cost = 1000;
    nb_run(nb_name(b, "a4"), fake_op, &f);                        /* 400% of a3 */
    nb_run(nb_name(nb_unit(b, "byte"), "a5"), fake_op, &f);       /* unit changed: 100% */
    fclose(out);
    CHECK(row_starts(text, "`a1`", "|   100.0% |            1,000.00 |"));
    CHECK(row_starts(text, "`a2`", "|    50.0% |            2,000.00 |"));
    CHECK(row_starts(text, "`b1`", "|   100.0% |            2,000.00 |"));
    CHECK(row_starts(text, "`a3`", "|   100.0% |            4,000.00 |"));
    CHECK(row_starts(text, "`a4`", "|   400.0% |            1,000.00 |"));
    CHECK(row_starts(text, "`a5`", "|   100.0% |            1,000.00 |"));
    CHECK(text && strstr(text, "| relative |             ns/byte |") != NULL);
    if (check_failures())
        fputs(text ? text : "(no text)", stderr);
    free(text);
    unsetenv("NANOBENCH_SUPPRESS_WARNINGS");
    nb_bench_free(b);
}

static void test_endless_other_name(void)
{
    fake f = { 0, 0, 1000, 1000, 0, 0 };
    nb_bench *b = fake_bench(&f);
    if (!CHECK(b != NULL))
        return;
    setenv("NANOBENCH_ENDLESS", "some other benchmark", 1);
    nb_run(nb_name(b, "finite"), fake_op, &f);
    CHECK(nb_result_epoch_count(nb_result_at(b, 0)) == 11);
    unsetenv("NANOBENCH_ENDLESS");
    nb_bench_free(b);
}

/* A fake clock read through a coarse timer: it reads the fake time rounded
 * down to a multiple of quantum, and from read number back_at on (1-based;
 * 0: never) it reads back ns less, as a test clock stepped backwards. */
typedef struct {
    fake f;
    uint64_t quantum;
    uint64_t reads;
    uint64_t back_at;
    uint64_t back;
} coarse;

static uint64_t coarse_now(void *ctx)
{
    coarse *c = ctx;
    uint64_t t = c->f.t;
    c->reads++;
    if (c->back_at && c->reads >= c->back_at)
        t -= c->back;
    return t / c->quantum * c->quantum;
}

static void coarse_op(void *arg)
{
    fake_op(&((coarse *)arg)->f);
}

/* An epoch under a tenth of the target is mostly the clock's granularity:
 * its time per iteration must not size the epochs. On a 1 us clock with a
 * 1 ms target, a 10-iteration epoch of 1.09 us calls reads 10 us, 8% fast;
 * sizing from it made epochs 8% longer than asked, and with a 0-20%
 * stretch up to 1.3x the target. From epochs of a tenth of the target or
 * more the error is under 1%: kept epochs stay under 1.1 * 1.01 of it (the
 * 0-10% stretch), checked against 1.15 with room for rounding. */
static void test_short_epochs_not_observed(void)
{
    uint64_t cost;
    for (cost = 1000; cost < 2000; cost += 30) {
        coarse c;
        nb_bench *b = nb_bench_new();
        const nb_result *r;
        size_t i;
        double worst = 0;
        if (!CHECK(b != NULL))
            return;
        memset(&c, 0, sizeof c);
        c.f.first_cost = c.f.cost = cost;
        c.quantum = 1000;
        nb_output(nb_performance_counters(b, 0), NULL);
        nb_test_set_clock(b, coarse_now, &c, c.quantum);   /* target 1 ms */
        nb_run(b, coarse_op, &c);
        r = nb_result_at(b, 0);
        CHECK(nb_result_epoch_count(r) == 11);
        for (i = 0; i < r->count; ++i) {
            double truth = (double)r->epochs[i].iters * (double)cost;
            if (truth > worst)
                worst = truth;
        }
        CHECKF(worst < 1.15e6, "cost %llu ns: a kept epoch lasted %.0f ns, target 1e6",
               (unsigned long long)cost, worst);
        nb_bench_free(b);
    }
}

/* Runs fake_op with first and later calls costing first and cost ns, 11
 * epochs of a 1 ms target, on a fresh fake clock (*f); the bench (to free), or
 * NULL after a failed CHECK. Checks the 11 epochs. */
static nb_bench *run_1ms(fake *f, uint64_t first, uint64_t cost)
{
    nb_bench *b;
    memset(f, 0, sizeof *f);
    f->first_cost = first;
    f->cost = cost;
    if (!CHECK((b = fake_bench(f)) != NULL))
        return NULL;
    nb_run(nb_epochs(nb_min_epoch_time(b, 1000000), 11), fake_op, f);
    CHECK(nb_result_epoch_count(nb_result_at(b, 0)) == 11);
    return b;
}

/* 1 when every kept epoch of b's first result ran between lo and hi
 * iterations. */
static int iters_within(const nb_bench *b, uint64_t lo, uint64_t hi)
{
    const nb_result *r = nb_result_at(b, 0);
    size_t i;
    for (i = 0; i < r->count; ++i) {
        if (r->epochs[i].iters < lo || r->epochs[i].iters > hi) {
            fprintf(stderr, "epoch %zu: %llu iterations, not %llu-%llu\n", i,
                    (unsigned long long)r->epochs[i].iters, (unsigned long long)lo,
                    (unsigned long long)hi);
            return 0;
        }
    }
    return 1;
}

/* Calibration ends with the first epoch that lasts a tenth of the target,
 * and gets there in few, short epochs: from 1 iteration of 1000 ns (under
 * 100 ticks of the 20 ns clock) tenfold to 10 (10 us, timed to 0.2%), from
 * there straight to a fifth of the 1 ms target (200 iterations), and
 * measuring starts at once, with no whole-target epoch thrown away. */
static void test_calibration_tenth(void)
{
    fake f;
    nb_bench *b = run_1ms(&f, 1000, 1000);
    const nb_result *r;
    if (!b)
        return;
    r = nb_result_at(b, 0);
    CHECKF(r->discarded == 3, "%llu calibration epochs", (unsigned long long)r->discarded);
    CHECK(f.calls == 1 + 10 + 200 + result_iters(r));
    CHECK(iters_within(b, 1000, 1200));
    nb_bench_free(b);
}

/* Epochs of slow ops stay at the target, as nanobench's do: an op that takes
 * 0.55 of the target runs 2 iterations (1.1 targets) whatever the 0-10%
 * stretch, never 3 (1.65), which rounding the stretched count up asked for
 * whenever nanobench's 0-20% stretch passed 10%; one of 0.8 of the target runs 1 (at least
 * 3/4 of the target, above the 2/3 keep cut). */
static void test_stretch_whole_iterations(void)
{
    fake f;
    nb_bench *b = run_1ms(&f, 550000, 550000);
    if (!b)
        return;
    CHECK(iters_within(b, 2, 2));
    nb_bench_free(b);
    if (!(b = run_1ms(&f, 800000, 800000)))
        return;
    CHECK(iters_within(b, 1, 1));
    CHECK(nb_result_at(b, 0)->discarded == 0);
    nb_bench_free(b);
}

/* An op slower than 2/3 of the target runs one iteration per epoch; the
 * calibration epoch that found that is kept, as nanobench keeps it, when the
 * next epoch confirms its speed (within 5%): 11 calls for 11 epochs. A first
 * call 10% slower is dropped (12 calls), one 3% slower stays. */
static void test_calibration_kept(void)
{
    static const uint64_t firsts[] = { 1500000, 1650000, 1545000 };
    static const uint64_t calls[] = { 11, 12, 11 };
    size_t k, i;
    fake f;
    nb_bench *b;
    for (k = 0; k < 3; ++k) {
        const nb_result *r;
        if (!(b = run_1ms(&f, firsts[k], 1500000)))
            return;
        r = nb_result_at(b, 0);
        CHECKF(f.calls == calls[k], "first call %llu ns: %llu calls",
               (unsigned long long)firsts[k], (unsigned long long)f.calls);
        CHECK(r->discarded == calls[k] - 11);
        for (i = 1; i < r->count; ++i)
            CHECK(r->epochs[i].elapsed == 1.5e-3);
        CHECK(r->epochs[0].elapsed == (calls[k] == 11 ? firsts[k] : 1500000) * 1e-9);
        nb_bench_free(b);
    }
    /* a warmup asked for is discarded, though it calibrates too: 1 + 11 calls */
    memset(&f, 0, sizeof f);
    f.first_cost = f.cost = 1500000;
    if (!CHECK((b = fake_bench(&f)) != NULL))
        return;
    nb_run(nb_warmup(nb_epochs(nb_min_epoch_time(b, 1000000), 11), 1), fake_op, &f);
    CHECK(nb_result_epoch_count(nb_result_at(b, 0)) == 11);
    CHECKF(f.calls == 12, "%llu calls", (unsigned long long)f.calls);
    nb_bench_free(b);
}

/* A test probe: the clock rates it returns in turn (the last one repeated),
 * and how many times it was asked. */
typedef struct {
    double ghz[8];
    size_t n, calls;
} fake_probe;

static double fake_probe_ghz(void *ctx)
{
    fake_probe *p = ctx;
    double g = p->ghz[p->calls < p->n ? p->calls : p->n - 1];
    p->calls++;
    return g;
}

/* The probe measures a plausible clock where there is one: between 0.2 and
 * 10 GHz on x86-64 and AArch64 (the chain's adds cannot retire faster than
 * one per cycle), 0 elsewhere. */
static void test_probe_real(void)
{
    double g = nb_freq_probe_ghz();
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__aarch64__))
    CHECKF(g > 0.2 && g < 10, "probe: %g GHz", g);
#else
    CHECK(g == 0);
#endif
}

/* Runs fake_op on *f for `epochs` epochs of a 1 ms target with the test probe
 * *p, the table going to *table (free it; NULL on failure); the bench, or NULL
 * after a failed CHECK. */
static nb_bench *probe_run(fake *f, fake_probe *p, size_t epochs, char **table)
{
    nb_bench *b = fake_bench(f);
    FILE *out;
    size_t len = 0;
    *table = NULL;
    if (!CHECK(b != NULL))
        return NULL;
    nb_test_set_probe(b, fake_probe_ghz, p);
    out = open_memstream(table, &len);
    if (!CHECK(out != NULL)) {
        nb_bench_free(b);
        return NULL;
    }
    setenv("NANOBENCH_SUPPRESS_WARNINGS", "1", 1);
    nb_run(nb_output(nb_epochs(nb_min_epoch_time(b, 1000000), epochs), out), fake_op, f);
    unsetenv("NANOBENCH_SUPPRESS_WARNINGS");
    fclose(out);
    nb_output(b, NULL);
    return b;
}

/* b rendered with nb_templ_json (free it), or NULL. */
static char *json_of(const nb_bench *b)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!CHECK(out != NULL))
        return NULL;
    CHECK(nb_render(nb_templ_json(), b, out) == 0);
    fclose(out);
    return text;
}

/* Estimated cycles: each kept epoch's time times the mean of the clock probed
 * before and after it; one probe per epoch, the closing one reused as the
 * next opening one; the ~cyc/op column and the JSON carry the median. */
static void test_probe_cycles(void)
{
    fake f = { 0, 0, 1000, 1000, 0, 0 };
    fake_probe p = { { 2.5 }, 1, 0 };
    char *text;
    nb_bench *b = probe_run(&f, &p, 11, &text);
    const nb_result *r;
    size_t i;
    if (!b)
        return;
    r = nb_result_at(b, 0);
    CHECK(nb_result_has(r, NB_EST_CYCLES));
    for (i = 0; i < r->count; ++i)
        CHECK(fabs(r->epochs[i].counters[NB_EST_CYCLES] / (r->epochs[i].elapsed * 1e9 * 2.5) -
                   1) < 1e-12);
    CHECKF(fabs(nb_result_median(r, NB_EST_CYCLES) - 2500) < 1e-9, "median %g",
           nb_result_median(r, NB_EST_CYCLES));
    /* none around the 3 calibration epochs (too short to keep), one opening
     * the first measured epoch, then one closing each */
    CHECKF(r->discarded == 3 && p.calls == 1 + r->count, "%zu probes", p.calls);
    CHECKF(text && strstr(text, "~cyc/op") && strstr(text, "2,500.00"), "table: %s",
           text ? text : "");
    free(text);
    text = json_of(b);
    CHECKF(text && strstr(text, "\"median(estcycles)\": 2500,") &&
               strstr(text, "\"estcycles\": "), "json: %.300s", text ? text : "");
    free(text);
    nb_bench_free(b);

    /* the clock moved during an epoch: the mean of the two readings */
    memset(&f, 0, sizeof f);
    f.first_cost = f.cost = 2000000; /* one iteration per epoch, so one probe per epoch */
    p.ghz[0] = 2.0;
    p.ghz[1] = 3.0;
    p.n = 2;
    p.calls = 0;
    if (!CHECK((b = fake_bench(&f)) != NULL))
        return;
    nb_test_set_probe(b, fake_probe_ghz, &p);
    nb_run(nb_epochs(nb_min_epoch_time(b, 1000000), 2), fake_op, &f);
    r = nb_result_at(b, 0);
    CHECK(r->count == 2);
    /* probes: after epoch 1 (the calibration epoch, kept, and not probed
     * before: its reading alone) 2.0, after epoch 2 3.0 */
    CHECK(r->epochs[0].counters[NB_EST_CYCLES] == 2000000 * 2.0);
    CHECK(r->epochs[1].counters[NB_EST_CYCLES] == 2000000 * 2.5);
    nb_bench_free(b);

    /* a probe that fails three times: the reading before the epoch alone */
    memset(&f, 0, sizeof f);
    f.first_cost = f.cost = 2000000;
    memset(&p, 0, sizeof p);
    p.ghz[0] = 2.0;
    p.n = 4; /* then 0, 0, 0 */
    if (!CHECK((b = fake_bench(&f)) != NULL))
        return;
    nb_test_set_probe(b, fake_probe_ghz, &p);
    nb_run(nb_epochs(nb_min_epoch_time(b, 1000000), 2), fake_op, &f);
    r = nb_result_at(b, 0);
    CHECK(r->count == 2 && nb_result_has(r, NB_EST_CYCLES));
    CHECK(r->epochs[1].counters[NB_EST_CYCLES] == 2000000 * 2.0);
    CHECK(p.calls == 4);
    nb_bench_free(b);
}

/* The ~cyc column shows the lower quartile of the epochs' cycles (with the
 * clock divided out, what is left is mostly interference, which only adds):
 * five one-iteration epochs of 2 ms probed at 1, 2, 3, 4, 5 GHz in turn give
 * 2, 3, 5, 7 and 9 million cycles, whose lower quartile is 3 million (the
 * median, in the JSON beside it, 5 million). */
static void test_probe_quartile(void)
{
    fake f = { 0, 0, 2000000, 2000000, 0, 0 };
    fake_probe p = { { 1.0, 2.0, 3.0, 4.0, 5.0 }, 5, 0 };
    char *text;
    nb_bench *b = probe_run(&f, &p, 5, &text);
    if (!b)
        return;
    CHECK(nb_result_lower_quartile(nb_result_at(b, 0), NB_EST_CYCLES) == 3e6);
    CHECKF(text && strstr(text, "~cyc/op") && strstr(text, "3,000,000.00"), "table: %s",
           text ? text : "");
    free(text);
    text = json_of(b);
    CHECKF(text && strstr(text, "\"median(estcycles)\": 5000000,") &&
               strstr(text, "\"lowerQuartile(estcycles)\": 3000000,"),
           "json: %.400s", text ? text : "");
    free(text);
    nb_bench_free(b);
}

/* No estimate when the probe is switched off, when it finds no clock (0, three
 * times), or
 * on a test clock without a test probe; and no ~cyc column then. */
static void test_probe_off(void)
{
    int k;
    for (k = 0; k < 3; ++k) {
        fake f = { 0, 0, 1000, 1000, 0, 0 };
        fake_probe p = { { 0.0 }, 1, 0 };
        nb_bench *b = fake_bench(&f);
        if (!CHECK(b != NULL))
            return;
        if (k == 0) {
            p.ghz[0] = 3.0;
            nb_test_set_probe(b, fake_probe_ghz, &p);
            CHECK(nb_get_cycle_probe(b) == 1 && nb_get_cycle_probe(NULL) == 1);
            nb_cycle_probe(b, 0);
            CHECK(nb_get_cycle_probe(b) == 0);
        } else if (k == 1) {
            nb_test_set_probe(b, fake_probe_ghz, &p);
        }
        nb_run(b, fake_op, &f);
        CHECK(!nb_result_has(nb_result_at(b, 0), NB_EST_CYCLES));
        CHECK(p.calls == (k == 1 ? 3u : 0u)); /* a failed probe is tried thrice */
        nb_bench_free(b);
    }
}

/* A clock that steps backwards (only a test clock can; CLOCK_MONOTONIC
 * never does) gives an epoch of 0 ns, never one of 2^64 - d ns. */
static void test_clock_backwards(void)
{
    uint64_t at;
    for (at = 2; at <= 24; at += 2) { /* the end read of epoch at / 2 */
        coarse c;
        nb_bench *b = nb_bench_new();
        const nb_result *r;
        size_t i;
        if (!CHECK(b != NULL))
            return;
        memset(&c, 0, sizeof c);
        c.f.t = UINT64_C(1) << 40;   /* room to step back */
        c.f.first_cost = c.f.cost = 1000;
        c.quantum = 1;
        c.back_at = at;
        c.back = 50000000;           /* 50 ms back: longer than any epoch */
        nb_output(nb_performance_counters(b, 0), NULL);
        nb_test_set_clock(b, coarse_now, &c, 20);
        nb_run(b, coarse_op, &c);
        r = nb_result_at(b, 0);
        CHECK(nb_result_epoch_count(r) == 11);
        for (i = 0; i < r->count; ++i)
            CHECKF(r->epochs[i].elapsed < 1.0, "step back at read %llu: epoch %zu lasted %g s",
                   (unsigned long long)at, i, r->epochs[i].elapsed);
        CHECKF(fabs(nb_result_median(r, NB_ELAPSED) / 1e-6 - 1) < 1e-12, "median %g",
               nb_result_median(r, NB_ELAPSED));
        CHECK(nb_result_maximum(r, NB_ELAPSED) < 1.5e-6);
        nb_bench_free(b);
    }
}

/* A counter is reported only when it was read in every kept epoch: one
 * epoch without it (here the group stops counting page faults for the
 * middle epoch, as if that read had failed for it) makes it absent, not a
 * median over the epochs that had it. Needs a perf group with page faults
 * (a software event, unprivileged where perf_event_paranoid <= 2). */
typedef struct {
    fake f;
    nb_bench *b;
    int drop;        /* take page faults out of the group on call 2 */
    size_t dropped;  /* its index, or (size_t)-1 */
} flipping;

static void flipping_op(void *arg)
{
    flipping *x = arg;
    nb_perf_group *g = &x->b->perf;
    size_t i;
    fake_op(&x->f);
    if (x->drop && x->f.calls == 2) {
        for (i = 0; i < g->count; ++i)
            if (g->events[i].measure == NB_PAGE_FAULTS) {
                g->events[i].measure = NB_ELAPSED;   /* outside the counters */
                x->dropped = i;
            }
    } else if (x->dropped != (size_t)-1) {
        g->events[x->dropped].measure = NB_PAGE_FAULTS;
        x->dropped = (size_t)-1;
    }
}

static void test_counter_valid_in_some_epochs(void)
{
    int drop;
    for (drop = 0; drop <= 1; ++drop) {
        flipping x = { { 0, 0, 1000, 1000, 0, 0 }, NULL, drop, (size_t)-1 };
        const nb_result *r;
        x.b = nb_bench_new();
        if (!CHECK(x.b != NULL))
            return;
        nb_output(x.b, NULL);
        nb_test_set_clock(x.b, fake_now, &x.f, 20);
        nb_epoch_iterations(nb_epochs(x.b, 3), 1);   /* epoch k is call k */
        nb_run(x.b, flipping_op, &x);
        if (!nb_perf_has(&x.b->perf, NB_PAGE_FAULTS)) {
            printf("perf: no page-fault counter (errno %d), partial-validity test skipped\n",
                   x.b->perf.first_errno);
            nb_bench_free(x.b);
            return;
        }
        r = nb_result_at(x.b, 0);
        CHECK(nb_result_epoch_count(r) == 3);
        if (drop) {
            CHECK(!nb_result_has(r, NB_PAGE_FAULTS));
            CHECK(isnan(nb_result_median(r, NB_PAGE_FAULTS)));
        } else {
            CHECK(nb_result_has(r, NB_PAGE_FAULTS));   /* the control */
        }
        nb_bench_free(x.b);
    }
}

/* ---- statistics ---- */

static nb_result *make_result(nb_bench *b, const double *per_iter, const uint64_t *iters,
                              size_t n)
{
    nb_result *r;
    size_t i;
    nb_epochs(b, n);
    r = nb_result_new(&b->cfg, 20e-9);
    if (!r)
        return NULL;
    for (i = 0; i < n; ++i) {
        int m;
        r->epochs[i].iters = iters[i];
        r->epochs[i].elapsed = per_iter[i] * (double)iters[i];
        for (m = 0; m < NB_MEASURE_COUNT; ++m)
            r->epochs[i].counters[m] = NAN;
    }
    r->count = n;
    return r;
}

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
    r->has = 1u << NB_PAGE_FAULTS;
    r->epochs[0].counters[NB_PAGE_FAULTS] = 10;
    r->epochs[1].counters[NB_PAGE_FAULTS] = 0;
    r->epochs[2].counters[NB_PAGE_FAULTS] = 30;
    r->epochs[3].counters[NB_PAGE_FAULTS] = 80;
    CHECK(nb_result_has(r, NB_PAGE_FAULTS));
    /* per iteration: 1, 0, 1, 2 */
    CHECK(nb_result_median(r, NB_PAGE_FAULTS) == 1);
    CHECK(nb_result_maximum(r, NB_PAGE_FAULTS) == 2);
    nb_result_free(r);
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
        for (i = 0; i < r->count; ++i)
            r->epochs[i].counters[NB_PAGE_FAULTS] = 0;
        r->has |= 1u << NB_PAGE_FAULTS;
        CHECK(nb_result_median(r, NB_PAGE_FAULTS) == 0);
        CHECK(nb_result_err(r, NB_PAGE_FAULTS) == 0);
        nb_result_free(r);
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
        nb_result_free(r);
    }
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

/* ---- formatting ---- */

static int fmt_is(int width, int prec, double v, const char *want)
{
    char buf[64];
    nb_format_number(buf, sizeof(buf), width, prec, v);
    return CHECKF(strcmp(buf, want) == 0, "format(%d, %d, %.17g) = '%s', want '%s'", width,
                  prec, v, buf, want);
}

static void test_format(void)
{
    char small[5];
    fmt_is(20, 2, 535161444.83, "      535,161,444.83");
    fmt_is(1, 1, 1234.5, "1,234.5");
    fmt_is(0, 0, 999, "999");
    fmt_is(0, 0, 1000, "1,000");
    fmt_is(0, 0, 100000, "100,000");
    fmt_is(0, 2, -1234567.891, "-1,234,567.89");
    fmt_is(0, 2, -999.5, "-999.50");
    fmt_is(8, 1, 0.04, "     0.0");
    fmt_is(7, 3, 3.5889, "  3.589");
    fmt_is(14, 2, 1149134246, "1,149,134,246.00");  /* wider than asked: never cut */
    fmt_is(5, 1, NAN, "    -");
    fmt_is(1, 0, INFINITY, "-");
    CHECK(nb_format_number(small, sizeof(small), 10, 0, 1) == 4);
    CHECK(strcmp(small, "    ") == 0);
}

/* ---- the table ---- */

static char *render_rows(nb_result **rs, size_t n, unsigned mask, int suppress)
{
    char *text = NULL;
    size_t len = 0, i;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        return NULL;
    for (i = 0; i < n; ++i)
        CHECK(nb_table_row(out, rs[i], rs[0], mask, suppress) == 0);
    nb_table_forget(out);
    fclose(out);
    return text;
}

/* 11 epochs of one iteration each around a median per iteration, with
 * deviations chosen so that the MdAPE is about dev. */
static nb_result *eleven(nb_bench *b, double median, double dev)
{
    double per[11], d[11] = { -2, -1.5, -1, -1, -1, 0, 1, 1, 1, 1.5, 2 };
    uint64_t it[11];
    int i;
    for (i = 0; i < 11; ++i) {
        per[i] = median * (1 + d[i] * dev);
        it[i] = 1;
    }
    return make_result(b, per, it, 11);
}

static void set_counter(nb_result *r, nb_measure m, double per_iter)
{
    size_t i;
    for (i = 0; i < r->count; ++i)
        r->epochs[i].counters[m] = per_iter * (double)r->epochs[i].iters;
    r->has |= 1u << m;
}

/* A row of the table in /work/shared/seed/nanobench-pr.txt, rebuilt from
 * values that give those medians. */
static void test_golden_seed(void)
{
    nb_bench *b = nb_bench_new();
    nb_result *rs[2];
    char *text;
    unsigned all = (1u << NB_INSTRUCTIONS) | (1u << NB_CPU_CYCLES) |
                   (1u << NB_BRANCH_INSTRUCTIONS) | (1u << NB_BRANCH_MISSES);
    if (!CHECK(b != NULL))
        return;
    nb_unit(nb_batch(nb_name(b, "bench/crypto_hash.cpp SHA1"), 1e6), "byte");
    rs[0] = eleven(b, 1e6 / 535161444.83, 0.003);
    if (!CHECK(rs[0] != NULL)) {
        nb_bench_free(b);
        return;
    }
    set_counter(rs[0], NB_INSTRUCTIONS, 21.36e6);
    set_counter(rs[0], NB_CPU_CYCLES, 5.9515e6);
    set_counter(rs[0], NB_BRANCH_INSTRUCTIONS, 0.06e6);
    set_counter(rs[0], NB_BRANCH_MISSES, 0);
    text = render_rows(rs, 1, all, 0);
    CHECK(text && strcmp(text,
        "\n|             ns/byte |              byte/s |    err% |        ins/byte |        "
        "cyc/byte |    IPC |       bra/byte |   miss% |     total | benchmark\n"
        "|--------------------:|--------------------:|--------:|----------------:|----------"
        "------:|-------:|---------------:|--------:|----------:|:----------\n"
        "|                1.87 |      535,161,444.83 |    0.3% |           21.36 |           "
        " 5.95 |  3.589 |           0.06 |    0.0% |      0.02 | `bench/crypto_hash.cpp "
        "SHA1`\n") == 0);
    if (text)
        printf("%s", text);
    free(text);
    nb_result_free(rs[0]);

    /* the complexityN table of the same document (no branch counters) */
    nb_unit(nb_batch(nb_name(b, "ComplexMemPool"), 1), "op");
    nb_complexity_n(b, 25);
    rs[0] = eleven(b, 1064241e-9, 0.014);
    nb_complexity_n(b, 800);
    rs[1] = eleven(b, 310109077e-9, 0.001);
    if (!CHECK(rs[0] && rs[1])) {
        nb_result_free(rs[0]);
        nb_result_free(rs[1]);
        nb_bench_free(b);
        return;
    }
    set_counter(rs[0], NB_INSTRUCTIONS, 3960279);
    set_counter(rs[0], NB_CPU_CYCLES, 2829708);
    set_counter(rs[1], NB_INSTRUCTIONS, 1149134246);
    set_counter(rs[1], NB_CPU_CYCLES, 984620812);
    text = render_rows(rs, 2, (1u << NB_INSTRUCTIONS) | (1u << NB_CPU_CYCLES), 0);
    CHECK(text && strcmp(text,
        "\n| complexityN |               ns/op |                op/s |    err% |          "
        "ins/op |          cyc/op |    IPC |     total | benchmark\n"
        "|------------:|--------------------:|--------------------:|--------:|---------------"
        "-:|----------------:|-------:|----------:|:----------\n"
        "|          25 |        1,064,241.00 |              939.64 |    1.4% |    3,960,279.00"
        " |    2,829,708.00 |  1.400 |      0.01 | `ComplexMemPool`\n"
        "|         800 |      310,109,077.00 |                3.22 |    0.1% |1,149,134,246.00"
        " |  984,620,812.00 |  1.167 |      3.41 | `ComplexMemPool`\n") == 0);
    if (text)
        printf("%s", text);
    free(text);
    nb_result_free(rs[0]);
    nb_result_free(rs[1]);
    nb_bench_free(b);
}

/* The locale's decimal point, in whatever a caller formatted, becomes '.'. */
static void test_decimal_point(void)
{
    static const char *const cases[][2] = {
        {"1,5", "1.5"},       {"  -12,25", "  -12.25"}, {" 45,0%", " 45.0%"},
        {"1,5e-07", "1.5e-07"}, {"1\xd9\xab" "5", "1.5"}, {"1e-07", "1e-07"},
        {"12", "12"},         {"nan", "nan"},           {"-inf", "-inf"},
        {"1.5", "1.5"},       {"", ""},                 {"12%", "12%"},
        {" 7 ", " 7 "},
    };
    char buf[32];
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        strcpy(buf, cases[i][0]);
        nb_c_decimal_point(buf);
        CHECKF(strcmp(buf, cases[i][1]) == 0, "'%s' became '%s'", cases[i][0], buf);
    }
}

/* The table reads the same whatever LC_NUMERIC the calling program set. */
static void test_comma_locale(void)
{
    const char *name = check_comma_locale();
    if (!name) {
        printf("no locale with a decimal comma is installed: the table's formats are "
               "checked in \"C\" only\n");
        return;
    }
    printf("LC_NUMERIC=%s:\n", name);
    test_format();
    test_golden_seed();
    check_c_locale();
}

/* 1 when a row measured with complexity N n has the complexityN column, 0
 * when "complexityN" appears nowhere, 2 when it appears but not as that
 * column's header, -1 when no row could be made. */
static int complexity_column(nb_bench *b, double n)
{
    nb_result *r;
    char *text;
    int shown;
    nb_complexity_n(b, n);
    if ((r = eleven(b, 1e-6, 0)) == NULL)
        return -1;
    text = render_rows(&r, 1, 0, 0);
    shown = !text ? -1 : !strstr(text, "complexityN") ? 0
          : strstr(text, "| complexityN |") ? 1 : 2;
    free(text);
    nb_result_free(r);
    return shown;
}

static void test_table_rules(void)
{
    nb_bench *b = nb_bench_new();
    nb_result *rs[4];
    char *text = NULL, *p;
    size_t len = 0;
    FILE *out;
    double per[] = { 1e-6, 2e-6, 3e-6, 4e-6, 5e-6 };
    uint64_t it[] = { 10, 10, 10, 10, 10 };
    if (!CHECK(b != NULL))
        return;
    /* relative: the first is 100%, a twice slower one 50% */
    nb_relative(nb_name(b, "a`b"), 1);
    rs[0] = eleven(b, 1e-6, 0);
    nb_name(b, "slow");
    rs[1] = eleven(b, 2e-6, 0);
    if (!CHECK(rs[0] && rs[1]))
        return;
    text = render_rows(rs, 2, 0, 0);
    CHECK(text && strcmp(text,
        "\n| relative |               ns/op |                op/s |    err% |     total | "
        "benchmark\n"
        "|---------:|--------------------:|--------------------:|--------:|----------:|"
        ":----------\n"
        "|   100.0% |            1,000.00 |        1,000,000.00 |    0.0% |      0.00 | "
        "``a`b``\n"
        "|    50.0% |            2,000.00 |          500,000.00 |    0.0% |      0.00 | "
        "`slow`\n") == 0);
    free(text);
    nb_result_free(rs[1]);

    /* a first row with no time (it overflowed): the others' relative is "-",
     * not "-%" */
    rs[0]->count = 0;
    rs[0]->overflow = 1;
    nb_name(b, "fast");
    rs[1] = eleven(b, 1e-6, 0);
    if (!CHECK(rs[1] != NULL))
        return;
    text = render_rows(rs, 2, 0, 0);
    CHECK(text && strstr(text, "\n|        - |            1,000.00 |") != NULL);
    free(text);
    nb_result_free(rs[1]);
    nb_result_free(rs[0]);
    nb_relative(b, 0);

    /* complexityN shows only when set as Big-O uses it: positive and finite */
    {
        static const double unset[] = { 0.0, -1.0, NAN, INFINITY };
        size_t k;
        for (k = 0; k < 4; ++k)
            CHECKF(complexity_column(b, unset[k]) == 0, "N %g shown", unset[k]);
        CHECK(complexity_column(b, 0.5) == 1);
        nb_complexity_n(b, -1);
    }

    /* names and titles stay inside their cell as CommonMark code: '|'
     * escaped, line breaks as spaces, the code span's delimiter longer than
     * any run of backticks inside, and padded when a backtick is at an end;
     * the unit too, which the header's column titles hold */
    nb_unit(nb_title(nb_name(b, "a|b\nc``d"), "x|y"), "u|v\nw");
    rs[0] = eleven(b, 1e-6, 0);
    nb_name(b, "`edge`");
    rs[1] = eleven(b, 1e-6, 0);
    if (!CHECK(rs[0] && rs[1]))
        return;
    text = render_rows(rs, 2, 0, 0);
    CHECK(text && strstr(text, "| x\\|y\n") != NULL);
    CHECK(text && strstr(text, "| ```a\\|b c``d```\n") != NULL);
    CHECK(text && strstr(text, "| `` `edge` ``\n") != NULL);
    CHECK(text && strstr(text, " ns/u\\|v w |") && strstr(text, " u\\|v w/s |"));
    CHECK(text && strstr(text, "|:-----\n") != NULL);  /* as wide as "x\\|y" */
    if (text) {
        /* every row has the header's number of cell separators */
        size_t lines = 0, pipes = 0, first = 0;
        for (p = text + 1; *p; ++p) {
            if (*p == '|' && p[-1] != '\\')
                ++pipes;
            if (*p == '\n') {
                if (lines++ == 0)
                    first = pipes;
                CHECK(pipes == first);
                pipes = 0;
            }
        }
        CHECK(lines == 4);
    }
    free(text);
    nb_result_free(rs[1]);
    nb_result_free(rs[0]);
    nb_unit(nb_title(b, "benchmark"), "op");

    /* unstable: err >= 5% gets the marker and advice; suppressed, not */
    nb_name(b, "noisy");
    rs[0] = make_result(b, per, it, 5);
    if (!CHECK(rs[0] != NULL))
        return;
    text = render_rows(rs, 1, 0, 0);
    CHECK(text && strstr(text, "| :wavy_dash: `noisy` (Unstable with ~10.0 iters. Increase "
                               "`nb_min_epoch_iterations` to e.g. 100)\n"));
    CHECK(text && strstr(text, "|   40.0% |"));  /* errors 2, .5, 0, .25, .4 */
    free(text);
    text = render_rows(rs, 1, 0, 1);
    CHECK(text && !strstr(text, "wavy_dash") && strstr(text, "| `noisy`\n"));
    free(text);
    /* a program's own advice replaces the default, and "" puts it back */
    nb_result_free(rs[0]);
    rs[0] = make_result(nb_unstable_advice(b, "Increase `-min-time` to e.g. 500"), per, it, 5);
    if (!CHECK(rs[0] != NULL))
        return;
    CHECK(strcmp(nb_get_unstable_advice(b), "Increase `-min-time` to e.g. 500") == 0);
    text = render_rows(rs, 1, 0, 0);
    CHECK(text && strstr(text, "`noisy` (Unstable with ~10.0 iters. Increase `-min-time` to "
                               "e.g. 500)\n"));
    free(text);
    CHECK(strcmp(nb_get_unstable_advice(nb_unstable_advice(b, NULL)), "") == 0);

    /* the time unit names and scales the time column */
    nb_time_unit(nb_name(b, "slow"), 1e-3, "ms");
    rs[1] = eleven(b, 2e-3, 0);
    if (!CHECK(rs[1] != NULL))
        return;
    text = render_rows(rs + 1, 1, 0, 1);
    CHECK(text && strstr(text, "|               ms/op |                op/s |") != NULL);
    CHECK(text && strstr(text, "|                2.00 |              500.00 |    0.0% |      "
                               "0.02 | `slow`\n") != NULL);
    free(text);
    nb_result_free(rs[1]);
    nb_time_unit(b, 1e-9, "ns");

    /* headers: once per stream while columns and title stay; again when they change */
    nb_name(b, "x");
    rs[1] = eleven(b, 1e-6, 0);
    nb_unit(b, "byte");
    rs[2] = eleven(b, 1e-6, 0);
    nb_title(b, "other title");
    rs[3] = eleven(b, 1e-6, 0);
    if (!CHECK(rs[1] && rs[2] && rs[3]))
        return;
    out = open_memstream(&text, &len);
    if (!CHECK(out != NULL))
        return;
    CHECK(nb_table_row(out, rs[0], rs[0], 0, 1) == 0);
    CHECK(nb_table_row(out, rs[1], rs[0], 0, 1) == 0);   /* same columns: no header */
    CHECK(nb_table_row(out, rs[2], rs[0], 0, 1) == 0);   /* unit changed */
    CHECK(nb_table_row(out, rs[3], rs[0], 0, 1) == 0);   /* title changed */
    CHECK(nb_table_row(out, rs[3], rs[0], 0, 1) == 0);
    CHECK(nb_table_row(out, rs[3], rs[0], 1u << NB_INSTRUCTIONS, 1) == 0);  /* columns */
    nb_table_forget(out);
    fclose(out);
    {
        int headers = 0;
        for (p = text; (p = strstr(p, "|:-")) != NULL; ++p)
            headers++;
        CHECKF(headers == 4, "%d headers", headers);
        CHECK(strstr(text, "| other title\n|") != NULL);
        CHECK(strstr(text, "|:------------\n") != NULL);
    }
    free(text);
    nb_result_free(rs[0]);
    nb_result_free(rs[1]);
    nb_result_free(rs[2]);
    nb_result_free(rs[3]);
    nb_bench_free(b);
}

/* Table details the golden rows do not reach: miss% under one branch per
 * unit, the unstable marker at exactly 5%, the rounding of the advised
 * minEpochIterations, and names with a carriage return or a backtick at
 * one end only. */
static void test_table_edges(void)
{
    nb_bench *b = nb_bench_new();
    nb_result *r;
    char *text;
    double per[50], per3[3];
    uint64_t it[50];
    unsigned branches = (1u << NB_BRANCH_INSTRUCTIONS) | (1u << NB_BRANCH_MISSES);
    size_t i;
    if (!CHECK(b != NULL))
        return;

    /* 0.1 misses of 0.5 branches per op */
    r = eleven(nb_name(b, "few branches"), 1e-6, 0);
    if (!CHECK(r != NULL))
        goto out;
    set_counter(r, NB_BRANCH_INSTRUCTIONS, 0.5);
    set_counter(r, NB_BRANCH_MISSES, 0.1);
    text = render_rows(&r, 1, branches, 1);
    CHECKF(text && strstr(text, "|           0.50 |   20.0% |"), "%s", text ? text : "");
    free(text);
    nb_result_free(r);

    /* errors 0.9, 0, 1/20 (exact in binary: the values are multiples of 2^-20) */
    per3[0] = 10 * 0x1p-20;
    per3[1] = 19 * 0x1p-20;
    per3[2] = 20 * 0x1p-20;
    it[0] = it[1] = it[2] = 1;
    r = make_result(nb_name(b, "edge"), per3, it, 3);
    if (!CHECK(r != NULL))
        goto out;
    CHECK(nb_result_err(r, NB_ELAPSED) == 0.05);
    text = render_rows(&r, 1, 0, 0);
    CHECK(text && strstr(text, "|    5.0% |"));
    CHECK(text && strstr(text, "| :wavy_dash: `edge` (Unstable with ~1.0 iters. "));
    free(text);
    nb_result_free(r);

    /* 503 iterations over 50 epochs: 10.06 on average, 10x that rounds to 101 */
    for (i = 0; i < 50; ++i) {
        per[i] = (double)(1 + i % 3) * 1e-6;
        it[i] = i < 3 ? 11 : 10;
    }
    r = make_result(nb_name(b, "round"), per, it, 50);
    if (!CHECK(r != NULL))
        goto out;
    text = render_rows(&r, 1, 0, 0);
    CHECKF(text && strstr(text, "`round` (Unstable with ~10.1 iters. Increase "
                                "`nb_min_epoch_iterations` to e.g. 101)\n"),
           "%s", text ? text : "");
    free(text);
    nb_result_free(r);

    /* names: '\r' is a line break too; a backtick at either end alone pads */
    {
        static const char *const names[][2] = {
            { "a\rb", "| `a b`\n" }, { "`lead", "| `` `lead ``\n" },
            { "trail`", "| `` trail` ``\n" },
        };
        for (i = 0; i < 3; ++i) {
            r = eleven(nb_name(b, names[i][0]), 1e-6, 0);
            if (!CHECK(r != NULL))
                goto out;
            text = render_rows(&r, 1, 0, 1);
            CHECKF(text && strstr(text, names[i][1]), "%s", text ? text : "");
            free(text);
            nb_result_free(r);
        }
    }
out:
    nb_bench_free(b);
}

/* ---- end to end on the real clock ---- */

static volatile unsigned sink;

static void tiny_op(void *arg)
{
    (void)arg;
    sink++;
}

static void test_run_real(void)
{
    nb_bench *b = nb_bench_new();
    char *text = NULL;
    size_t len = 0;
    long before = -1, after = -1;
    FILE *out;
    const nb_result *r;
    if (!CHECK(b != NULL))
        return;
    unsetenv("NANOBENCH_SUPPRESS_WARNINGS");
    /* output NULL prints nothing (stdout is a log file under make check) */
    fflush(stdout);
    before = ftell(stdout);
    nb_run(nb_output(nb_epochs(b, 3), NULL), tiny_op, NULL);
    fflush(stdout);
    after = ftell(stdout);
    CHECK(before == after);
    CHECK(nb_result_count(b) == 1);
    r = nb_result_at(b, 0);
    CHECK(nb_result_epoch_count(r) == 3);
    CHECK(nb_result_median(r, NB_ELAPSED) > 0);
    CHECK(nb_result_median(r, NB_ELAPSED) < 1e-6);
    /* no kept epoch under 2/3 of the 1 ms target */
    CHECK(nb_result_epoch(r, NB_ELAPSED, 0) * nb_result_epoch(r, NB_ITERATIONS, 0) >=
          1e-3 * 2 / 3);

    out = open_memstream(&text, &len);
    if (!CHECK(out != NULL))
        return;
    nb_run(nb_name(nb_output(b, out), "tiny"), tiny_op, NULL);
    fclose(out);
    CHECK(text && strstr(text, "`tiny`") != NULL);
    CHECK(text && strstr(text, "|               ns/op |                op/s |    err% |") != NULL);
    r = nb_result_at(b, 1);
#if defined(__linux__) && defined(HAVE_LINUX_PERF_EVENT_H)
    if (b->perf.count > 0 && !nb_perf_hardware_available(&b->perf)) {
        /* software counters only: no counter columns, the note once */
        CHECK(strstr(text, "ins/op") == NULL);
        CHECK(strstr(text, "Note: hardware performance counters are not available") != NULL);
        CHECK(nb_result_has(r, NB_PAGE_FAULTS));
        /* present where counting kernel mode is allowed (root, paranoid <= 1) */
        CHECK(nb_result_has(r, NB_CONTEXT_SWITCHES) == nb_perf_has(&b->perf, NB_CONTEXT_SWITCHES));
        CHECK(!nb_result_has(r, NB_INSTRUCTIONS));
    }
#endif
    if (text)
        printf("%s", text);
    free(text);
    CHECK(nb_get_error(b) == 0);
    nb_bench_free(b);
}

/* ---- performance counters with software events ---- */

/* Spins until this thread has had ms of CPU time (not wall time: the
 * machine is shared, and the task clock counts time on the CPU). */
static void busy_cpu_ms(double ms)
{
    struct timespec ts;
    double t0, t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    t0 = (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
    do {
        sink++;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        t = (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
    } while (t - t0 < ms * 1e6);
}

static void test_perf_parse(void)
{
    nb_perf_group g;
    uint64_t buf[7] = { 2, 1000, 250, 100, 22, 7, 11 };
    memset(&g, 0, sizeof(g));
    g.count = 2;
    g.ids[0] = 11;
    g.ids[1] = 22;
    /* multiplexed a quarter of the time: values scaled by 4, matched by id */
    CHECK(nb_perf_parse(&g, buf, 7) == 0);
    CHECK(g.values[0] == 28 && g.values[1] == 400);
    CHECK(g.scaled == 1 && g.time_enabled == 1000 && g.time_running == 250);
    buf[2] = 1000;
    CHECK(nb_perf_parse(&g, buf, 7) == 0 && g.values[0] == 7 && g.scaled == 0);
    buf[6] = 33;   /* an id the group does not have */
    CHECK(nb_perf_parse(&g, buf, 7) == -1);
    buf[6] = 11;
    buf[0] = 3;    /* count mismatch */
    CHECK(nb_perf_parse(&g, buf, 7) == -1);
    CHECK(nb_perf_scale(5, 0, 0) == 5);
    CHECK(isnan(nb_perf_scale(5, 10, 0)));
    CHECK(nb_perf_scale(5, 10, 5) == 10);
}

/* The counter corrections on a hand-filled group (no PMU needed): the
 * calibrated begin/end overhead and per-iteration loop cost come off, never
 * below 0; branches lose the loop's own iters + 1; branch misses are capped
 * at the branches and lose the loop exit's one miss when above 1. */
static void test_perf_value(void)
{
    nb_perf_group g;
    memset(&g, 0, sizeof g);
    g.leader = -1;
    g.count = 5;
    g.events[0].measure = NB_INSTRUCTIONS;
    g.events[0].correct_overhead = 1;
    g.events[0].correct_loop = 1;
    g.events[1].measure = NB_BRANCH_INSTRUCTIONS;
    g.events[1].correct_overhead = 1;
    g.events[2].measure = NB_BRANCH_MISSES;
    g.events[2].correct_overhead = 1;
    g.events[3].measure = NB_CPU_CYCLES;
    g.events[3].correct_overhead = 1;
    g.events[4].measure = NB_PAGE_FAULTS;   /* not corrected */
    g.overhead[0] = 100;
    g.loop[0] = 2;
    g.overhead[1] = 50;
    g.overhead[2] = 60;
    g.overhead[3] = 300;
    g.overhead[4] = 7;
    g.values[0] = 10000;
    g.values[1] = 1100;
    g.values[2] = 70;
    g.values[3] = 250;
    g.values[4] = 3;
    CHECK(nb_perf_value(&g, NB_INSTRUCTIONS, 1000) == 10000 - 100 - 2 * 1000);
    CHECK(nb_perf_value(&g, NB_CPU_CYCLES, 1000) == 0);      /* 250 - 300: clamped */
    CHECK(nb_perf_value(&g, NB_PAGE_FAULTS, 1000) == 3);
    CHECK(nb_perf_value(&g, NB_BRANCH_INSTRUCTIONS, 1000) == 1100 - 50 - 1001);
    CHECK(nb_perf_value(&g, NB_BRANCH_MISSES, 1000) == 70 - 60 - 1);
    g.values[0] = 1500;                                       /* under the loop's cost */
    CHECK(nb_perf_value(&g, NB_INSTRUCTIONS, 1000) == 0);
    g.values[2] = 61;                                         /* exactly 1: kept */
    CHECK(nb_perf_value(&g, NB_BRANCH_MISSES, 1000) == 1);
    g.values[2] = 61.5;
    CHECK(nb_perf_value(&g, NB_BRANCH_MISSES, 1000) == 1.5 - 1);
    g.values[2] = 60.5;                                       /* under 1: kept */
    CHECK(nb_perf_value(&g, NB_BRANCH_MISSES, 1000) == 0.5);
    g.values[2] = 500;                                        /* capped at 49 branches */
    CHECK(nb_perf_value(&g, NB_BRANCH_MISSES, 1000) == 49 - 1);
    g.values[1] = 1000;                                       /* fewer than the loop's */
    CHECK(nb_perf_value(&g, NB_BRANCH_INSTRUCTIONS, 1000) == 0);
    CHECK(nb_perf_value(&g, NB_BRANCH_MISSES, 1000) == 0);
    g.events[1].measure = NB_CONTEXT_SWITCHES;                /* no branch counter: no cap */
    CHECK(nb_perf_value(&g, NB_BRANCH_MISSES, 1000) == 500 - 60 - 1);
    CHECK(isnan(nb_perf_value(&g, NB_BRANCH_INSTRUCTIONS, 1000)));
    g.error = 1;
    CHECK(isnan(nb_perf_value(&g, NB_INSTRUCTIONS, 1000)));
}

static void test_perf_software(void)
{
#if defined(__linux__) && defined(HAVE_LINUX_PERF_EVENT_H)
    /* Page faults lead: under a task-clock leader this kernel (6.18 in a VM)
     * counted the sibling's page faults erratically. The task clock stands in
     * for cycles: nanoseconds on the CPU. */
    nb_perf_event ev[3] = {
        { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, NB_PAGE_FAULTS, 1, 0, 0 },
        { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, NB_CPU_CYCLES, 0, 0, 0 },
        { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, NB_CONTEXT_SWITCHES, 1, 0, 0 },
    };
    /* Context switches as the default group counts them, in kernel mode (where they
     * happen), which perf_event_paranoid >= 2 refuses to an unprivileged user. A group
     * of its own: this kernel (6.18, in a VM) read the task clock above as 0 in most
     * epochs when that group had two members instead of three. */
    nb_perf_event cs = { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES,
                         NB_CONTEXT_SWITCHES, 1, 0, 1 };
    nb_perf_group g2;
    nb_perf_group g;
    size_t pages = 64, i, psz = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *mem;
    double faults, task;
    if (nb_perf_open(&g, ev, 3) != 3) {
        printf("perf: software events unavailable (errno %d), group test skipped\n",
               g.first_errno);
        nb_perf_close(&g);
        return;
    }
    CHECK(g.leader >= 0);
    CHECK(nb_perf_has(&g, NB_PAGE_FAULTS) && !nb_perf_has(&g, NB_INSTRUCTIONS));
    CHECK(!nb_perf_hardware_available(&g));
    nb_perf_calibrate(&g);
    CHECK(g.error == 0);

    mem = mmap(NULL, pages * psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!CHECK(mem != MAP_FAILED)) {
        nb_perf_close(&g);
        return;
    }
    nb_perf_begin(&g);
    for (i = 0; i < pages; ++i)
        mem[i * psz] = 1;   /* one fault per fresh page */
    busy_cpu_ms(3);
    nb_perf_end(&g);
    CHECK(g.error == 0);
    faults = nb_perf_value(&g, NB_PAGE_FAULTS, 1);
    task = nb_perf_value(&g, NB_CPU_CYCLES, 1);   /* task clock: ns on the CPU */
    CHECKF(faults >= (double)pages, "page faults %g < %zu", faults, pages);
    CHECKF(faults < (double)pages * 4 + 50, "page faults %g", faults);
    CHECKF(task >= 2.7e6 && task < 1e9, "task clock %g ns", task);
    CHECK(g.time_enabled >= g.time_running && g.time_running > 0);
    CHECK(nb_perf_value(&g, NB_CONTEXT_SWITCHES, 1) >= 0);
    CHECK(isnan(nb_perf_value(&g, NB_INSTRUCTIONS, 1)));

    /* off the CPU and back twice: at least two context switches, seen in kernel
     * mode only (user mode counted 0) */
    if (nb_perf_open(&g2, &cs, 1) == 1) {
        nb_perf_calibrate(&g2);
        nb_perf_begin(&g2);
        usleep(1000);
        usleep(1000);
        nb_perf_end(&g2);
        CHECK(g2.error == 0);
        CHECKF(nb_perf_value(&g2, NB_CONTEXT_SWITCHES, 1) >= 2, "%g context switches",
               nb_perf_value(&g2, NB_CONTEXT_SWITCHES, 1));
    } else {
        printf("perf: counting context switches (kernel mode) refused, errno %d: "
               "that event is left out\n", g2.first_errno);
    }
    nb_perf_close(&g2);

    /* stdout closed: the counters must not take descriptor 1 (a table written to
     * stdout would go to a counter); stdin and stderr alike */
    {
        int saved = dup(STDOUT_FILENO);
        size_t k;
        fflush(stdout);
        if (CHECK(saved > 2) && CHECK(close(STDOUT_FILENO) == 0)) {
            size_t got = nb_perf_open(&g2, ev, 3);
            int fd1_closed = fcntl(STDOUT_FILENO, F_GETFD) == -1;
            dup2(saved, STDOUT_FILENO);
            CHECK(got == 3);
            for (k = 0; k < got; ++k)
                CHECKF(g2.fds[k] > 2, "counter %zu on descriptor %d", k, g2.fds[k]);
            CHECK(fd1_closed);
            nb_perf_close(&g2);
        }
        if (saved >= 0)
            close(saved);
    }

    /* an empty measurement after calibration is (about) nothing */
    nb_perf_begin(&g);
    nb_perf_end(&g);
    CHECK(nb_perf_value(&g, NB_PAGE_FAULTS, 1) == 0);
    munmap(mem, pages * psz);
    nb_perf_close(&g);
    CHECK(g.count == 0);
#else
    printf("perf: not Linux, group test skipped\n");
#endif
}

/* A loop whose instructions and branches are known exactly: N iterations
 * of dec + jnz (x86-64): 2N + 1 instructions with the mov, N branches, of
 * which only the exit should miss. Elsewhere nothing is known exactly. */
#if defined(__x86_64__) && defined(__GNUC__)
#define KNOWN_LOOP 1
static void known_loop(uint64_t n)
{
    __asm__ __volatile__("mov %0, %%rcx\n1:\n\tdec %%rcx\n\tjnz 1b" : : "r"(n) : "rcx", "cc");
}

static void known_loop_op(void *arg)
{
    (void)arg;
    known_loop(1000);
}
#endif

static void sleep_op(void *arg)
{
    (void)arg;
    usleep(200);
}

/* Through nb_run: an op that sleeps is switched out once per call. The
 * count was 0 when the event counted user mode only. */
static void test_context_switches_run(void)
{
    nb_bench *b = nb_bench_new();
    const nb_result *r;
    if (!CHECK(b != NULL))
        return;
    nb_run(nb_epochs(nb_performance_counters(nb_output(b, NULL), 1), 3), sleep_op, NULL);
    r = nb_result_at(b, 0);
    if (CHECK(r != NULL) && nb_result_has(r, NB_CONTEXT_SWITCHES))
        CHECKF(nb_result_median(r, NB_CONTEXT_SWITCHES) >= 0.9,
               "%g context switches per sleep", nb_result_median(r, NB_CONTEXT_SWITCHES));
    else
        printf("context switches are not counted here (absent, not 0)\n");
    nb_bench_free(b);
}

/* The hardware counters, where the kernel exposes a PMU (this project's VM
 * does not: ENOENT, and the test says it skipped). Checks the raw group on
 * the known loop, then nb_run's per-iteration values with the calibration
 * subtracted. */
static void test_perf_hardware(void)
{
#if defined(__linux__) && defined(HAVE_LINUX_PERF_EVENT_H)
    nb_perf_group g;
    nb_perf_open_default(&g);
    if (!nb_perf_hardware_available(&g)) {
        printf("perf: no hardware counters here (errno %d), hardware test skipped\n",
               g.first_errno);
        nb_perf_close(&g);
        return;
    }
    if (!nb_perf_has(&g, NB_INSTRUCTIONS) || !nb_perf_has(&g, NB_CPU_CYCLES)) {
        printf("perf: hardware counters without instructions or cycles, test skipped\n");
        nb_perf_close(&g);
        return;
    }
    printf("perf: hardware counters available, testing them\n");
    nb_perf_calibrate(&g);
    CHECK(g.error == 0);
#ifdef KNOWN_LOOP
    {
        const uint64_t n = 1000000;
        double ins, cyc, bra, miss;
        nb_perf_begin(&g);
        known_loop(n);
        nb_perf_end(&g);
        CHECK(g.error == 0);
        /* iters 0: no loop correction; branches lose only the "loop exit". */
        ins = nb_perf_value(&g, NB_INSTRUCTIONS, 0);
        cyc = nb_perf_value(&g, NB_CPU_CYCLES, 0);
        CHECKF(ins >= 2.0 * n - 100 && ins <= 2.0 * n + 1000, "instructions %.0f, want ~%.0f",
               ins, 2.0 * n + 1);
        CHECKF(cyc >= 0.3 * n && cyc <= 100.0 * n, "cycles %.0f for %llu iterations", cyc,
               (unsigned long long)n);
        if (nb_perf_has(&g, NB_BRANCH_INSTRUCTIONS)) {
            bra = nb_perf_value(&g, NB_BRANCH_INSTRUCTIONS, 0);
            CHECKF(bra >= n - 100.0 && bra <= n + 500.0, "branches %.0f, want ~%llu", bra,
                   (unsigned long long)n);
        }
        if (nb_perf_has(&g, NB_BRANCH_MISSES)) {
            miss = nb_perf_value(&g, NB_BRANCH_MISSES, 0);
            CHECKF(miss >= 0 && miss <= n / 100.0, "branch misses %.0f", miss);
        }
    }
#endif
    nb_perf_close(&g);
#ifdef KNOWN_LOOP
    {
        /* Through nb_run: per iteration, the loop's 2001 plus the call. */
        nb_bench *b = nb_bench_new();
        char *text = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);
        const nb_result *r;
        double ins;
        if (!CHECK(b != NULL) || !CHECK(out != NULL)) {
            nb_bench_free(b);
            if (out)
                fclose(out);
            free(text);
            return;
        }
        nb_run(nb_name(nb_output(nb_performance_counters(b, 1), out), "known"), known_loop_op,
               NULL);
        fclose(out);
        r = nb_result_at(b, 0);
        ins = nb_result_median(r, NB_INSTRUCTIONS);
        CHECKF(ins >= 2000 && ins <= 2100, "nb_run: %.1f instructions per iteration", ins);
        CHECKF(nb_result_median(r, NB_BRANCH_INSTRUCTIONS) >= 999
               && nb_result_median(r, NB_BRANCH_INSTRUCTIONS) <= 1010,
               "nb_run: %.1f branches per iteration", nb_result_median(r, NB_BRANCH_INSTRUCTIONS));
        CHECK(text && strstr(text, "ins/op") && strstr(text, "IPC") && strstr(text, "`known`"));
        if (text)
            printf("%s", text);
        free(text);
        nb_bench_free(b);
    }
#endif
#else
    printf("perf: not Linux, hardware test skipped\n");
#endif
}

/* ---- warnings, streams, endless, the real compiler ---- */

static void test_warnings(void)
{
    char buf[4096], rec[1024];
    size_t n = nb_warnings_gather(buf, sizeof(buf), rec, sizeof(rec), 0);
    CHECK(n >= 1);
    CHECK(strstr(buf, "* code calling nb_run was compiled without optimization") != NULL);
    CHECK(strstr(rec, "* Make sure you compile for Release\n") != NULL);
    nb_warnings_gather(buf, sizeof(buf), rec, sizeof(rec), 1);
    CHECK(strstr(buf, "without optimization") == NULL);
    setenv("NANOBENCH_SUPPRESS_WARNINGS", "1", 1);
    CHECK(nb_warnings_suppressed());
    setenv("NANOBENCH_SUPPRESS_WARNINGS", "0", 1);
    CHECK(!nb_warnings_suppressed());
    unsetenv("NANOBENCH_SUPPRESS_WARNINGS");
    CHECK(!nb_warnings_suppressed());
}

/* Headers are tracked per stream: interleaving two streams with the same
 * columns gives each one header. */
static void test_two_streams(void)
{
    nb_bench *b = nb_bench_new();
    nb_result *r;
    char *ta = NULL, *tb = NULL, *p;
    size_t la = 0, lb = 0;
    FILE *a = open_memstream(&ta, &la), *c = open_memstream(&tb, &lb);
    int ha = 0, hb = 0;
    if (!CHECK(b && a && c))
        return;
    r = eleven(b, 1e-6, 0);
    if (!CHECK(r != NULL))
        return;
    CHECK(nb_table_row(a, r, r, 0, 1) == 0);
    CHECK(nb_table_row(c, r, r, 0, 1) == 0);
    CHECK(nb_table_row(a, r, r, 0, 1) == 0);
    CHECK(nb_table_row(c, r, r, 0, 1) == 0);
    nb_table_forget(a);
    nb_table_forget(c);
    fclose(a);
    fclose(c);
    for (p = ta; (p = strstr(p, "|:-")) != NULL; ++p)
        ha++;
    for (p = tb; (p = strstr(p, "|:-")) != NULL; ++p)
        hb++;
    CHECK(ha == 1 && hb == 1);
    CHECK(strcmp(ta, tb) == 0);
    free(ta);
    free(tb);
    nb_result_free(r);
    nb_bench_free(b);
}

/* A header comes again when something else was written to the stream
 * since our last row (the markdown table ended there), and for a new stream
 * that reuses a closed one's FILE address, even if the caller wrote to it
 * first. */
static void test_header_after_foreign_text(void)
{
    nb_bench *b = nb_bench_new();
    nb_result *r;
    char *text = NULL, *p;
    size_t len = 0;
    int headers = 0, round;
    FILE *out;
    if (!CHECK(b != NULL))
        return;
    r = eleven(b, 1e-6, 0);
    if (!CHECK(r != NULL))
        return;
    out = open_memstream(&text, &len);
    if (CHECK(out != NULL)) {
        CHECK(nb_table_row(out, r, r, 0, 1) == 0);
        CHECK(nb_table_row(out, r, r, 0, 1) == 0);
        fputs("some text of the caller's\n", out);
        CHECK(nb_table_row(out, r, r, 0, 1) == 0);
        fclose(out);
        for (p = text; p && (p = strstr(p, "|:-")) != NULL; ++p)
            headers++;
        CHECK(headers == 2);
        free(text);
    }
    /* files closed and reopened: glibc hands the same FILE back */
    for (round = 0; round < 2; ++round) {
        char line[256];
        FILE *f = tmpfile();
        if (!CHECK(f != NULL))
            break;
        fputs("# a line of the caller's\n", f);
        CHECK(nb_table_row(f, r, r, 0, 1) == 0);
        rewind(f);
        headers = 0;
        while (fgets(line, sizeof line, f))
            headers += strncmp(line, "|:-", 3) == 0 || strstr(line, "|:-") != NULL;
        CHECK(headers == 1);
        fclose(f);
    }
    nb_result_free(r);
    nb_bench_free(b);
}

/* A write that fails is reported by the row that hit it: rows are flushed. */
static void test_write_error_at_once(void)
{
    fake f = { 0, 0, 1000, 1000, 0, 0 };
    nb_bench *b = fake_bench(&f);
    FILE *full = fopen("/dev/full", "w");
    if (!full) {
        printf("no /dev/full: write-error test skipped\n");
        nb_bench_free(b);
        return;
    }
    if (CHECK(b != NULL)) {
        nb_output(b, full);
        nb_epochs(b, 1);
        nb_epoch_iterations(b, 10);
        CHECK(nb_get_error(b) == 0);
        nb_run(nb_name(b, "one"), fake_op, &f);
        CHECK(nb_get_error(b) == -1);
    }
    nb_table_forget(full);
    fclose(full);
    nb_bench_free(b);
}

/* "Increase minEpochIterations to e.g. 10x": saturates instead of an
 * undefined conversion when 10x the average does not fit. */
static void test_unstable_advice_saturates(void)
{
    nb_bench *b = nb_bench_new();
    nb_result *r;
    char *text;
    double per[] = { 1e-9, 2e-9, 3e-9, 4e-9, 5e-9 };
    uint64_t it[5];
    int i;
    if (!CHECK(b != NULL))
        return;
    for (i = 0; i < 5; ++i)
        it[i] = UINT64_C(1) << 62;
    r = make_result(nb_name(b, "huge"), per, it, 5);
    if (!CHECK(r != NULL))
        return;
    text = render_rows(&r, 1, 0, 0);
    CHECK(text && strstr(text, "to e.g. 18446744073709551615)") != NULL);
    free(text);
    nb_result_free(r);
    nb_bench_free(b);
}

/* nb_do_not_optimize_away takes any expression: arrays (common with hashes),
 * structs, bit-fields, qualified objects, rvalues. This compiles, and the
 * values are still what they were. */
static void test_do_not_optimize_away_forms(void)
{
    struct {
        int a;
        unsigned bits : 3;
    } s = { 7, 5 };
    unsigned char hash[32];
    const int c = 3;
    volatile int v = 4;
    memset(hash, 0xab, sizeof hash);
    nb_do_not_optimize_away(hash);
    nb_do_not_optimize_away(s);
    nb_do_not_optimize_away(s.bits);
    nb_do_not_optimize_away(c);
    nb_do_not_optimize_away(v);
    nb_do_not_optimize_away(s.a * 2.5);
    nb_do_not_optimize_away("literal");
    CHECK(hash[31] == 0xab && s.a == 7 && s.bits == 5 && c == 3 && v == 4);
}

/* One bench per thread is supported: two threads, each with its own bench
 * and stream, share the library's few globals (which streams saw which
 * header, the print-once notes, the allocation counter). Each stream gets
 * one header and all its rows. (Run under -fsanitize=thread to see the
 * sharing is race-free; here the output is checked.) */
typedef struct {
    char *text;
    size_t len;
    int ok;
} thread_job;

#define THREAD_ROWS 200

static void *bench_thread(void *arg)
{
    thread_job *j = arg;
    fake f = { 0, 0, 1000, 1000, 0, 0 };
    nb_bench *b = fake_bench(&f);
    FILE *out = open_memstream(&j->text, &j->len);
    int i;
    j->ok = b && out;
    if (j->ok) {
        nb_output(b, out);
        nb_epochs(b, 3);
        nb_epoch_iterations(b, 5);
        for (i = 0; i < THREAD_ROWS; ++i) {
            char name[32];
            snprintf(name, sizeof name, "op%d", i);
            nb_run(nb_name(b, name), fake_op, &f);
        }
        j->ok = nb_get_error(b) == 0 && nb_result_count(b) == THREAD_ROWS;
    }
    if (out) {
        nb_table_forget(out);
        fclose(out);
    }
    nb_bench_free(b);
    return NULL;
}

static void test_threads(void)
{
    thread_job jobs[2];
    pthread_t th[2];
    int i, started[2];
    memset(jobs, 0, sizeof jobs);
    for (i = 0; i < 2; ++i)
        started[i] = pthread_create(&th[i], NULL, bench_thread, &jobs[i]) == 0;
    for (i = 0; i < 2; ++i) {
        const char *p;
        int headers = 0, rows = 0;
        if (!CHECK(started[i]))
            continue;
        pthread_join(th[i], NULL);
        CHECK(jobs[i].ok);
        for (p = jobs[i].text; p && (p = strstr(p, "|:-")) != NULL; ++p)
            headers++;
        for (p = jobs[i].text; p && (p = strstr(p, "| `op")) != NULL; ++p)
            rows++;
        CHECKF(headers == 1 && rows == THREAD_ROWS, "thread %d: %d headers, %d rows", i,
               headers, rows);
        free(jobs[i].text);
    }
}

static void empty_op(void *arg)
{
    (void)arg;
}

static void kept_op(void *arg)
{
    uint64_t *x = arg;
    uint64_t y = *x * UINT64_C(0x9e3779b97f4a7c15);
    nb_do_not_optimize_away(y);
}

/* Whether this build removes a loop around empty_op whose count is known
 * only at run time, as nb_run's is: 10^8 iterations in under 1 ms (gcc -O2
 * removes it, -O1 keeps it). */
static int empty_loop_removed(void)
{
    volatile uint64_t count = 100000000;
    uint64_t n = count, i, t0 = nb_clock_now_ns();
    for (i = 0; i < n; ++i)
        empty_op(NULL);
    return nb_clock_now_ns() - t0 < 1000000;
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
    nb_result_free(r);
    /* 0.04 ns is over the quarter cycle (0.0385 ns): plausible as an op */
    for (i = 0; i < 5; ++i)
        per[i] = 0.04e-9;
    r = make_result(nb_name(b, "ok"), per, it, 5);
    if (!CHECK(r != NULL))
        goto out;
    CHECK(nb_result_implausible(r, why, sizeof why) == 0 && why[0] == '\0');
    nb_result_free(r);
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
    nb_result_free(r);
    /* the same time for 1000 bytes (1.9 TB/s) still is; 500 bytes (0.94 TB/s) is not; nor
     * 4096 of another unit */
    r = make_result(nb_batch(b, 1000), per, it, 5);
    CHECK(r && nb_result_implausible(r, NULL, 0) == 1);
    nb_result_free(r);
    r = make_result(nb_batch(b, 500), per, it, 5);
    CHECK(r && nb_result_implausible(r, NULL, 0) == 0);
    nb_result_free(r);
    r = make_result(nb_unit(nb_batch(b, 4096), "op"), per, it, 5);
    CHECK(r && nb_result_implausible(r, why, sizeof why) == 0);
    nb_result_free(r);
    CHECK(nb_result_implausible(NULL, why, sizeof why) == 0);
out:
    nb_bench_free(b);
}

/* An op the compiler empties while keeping the loop: a 4 KB memcpy into a buffer of which
 * only the first byte is read. Where this build emptied it (an optimized build without
 * sanitizers: one load is left), the row says it is implausible; where it copies, not. */
struct copy_arg {
    unsigned char src[4096];
    unsigned char dst[4096];
};

static void copy_op(void *arg)
{
    struct copy_arg *c = arg;
    unsigned char local[4096];
    memcpy(local, c->src, sizeof local);
    nb_do_not_optimize_away(local[0]); /* keeps the loop, and one byte of the copy */
}

static void test_implausible_real(void)
{
    nb_bench *b = nb_bench_new();
    struct copy_arg *c = calloc(1, sizeof *c);
    char *text = NULL;
    size_t len = 0;
    FILE *out;
    const nb_result *r;
    double rate;
    if (!CHECK(b != NULL && c != NULL))
        goto done;
    out = open_memstream(&text, &len);
    if (!CHECK(out != NULL))
        goto done;
    nb_performance_counters(nb_output(b, out), 0);
    nb_run(nb_unit(nb_batch(nb_name(b, "copy4k"), 4096), "byte"), copy_op, c);
    fclose(out);
    r = nb_result_at(b, 0);
    rate = 4096 / nb_result_median(r, NB_ELAPSED);
    printf("copy4k: %.3g GB/s\n", rate * 1e-9);
    if (rate > NB_MAX_BYTES_PER_CYCLE * NB_MAX_CLOCK_HZ)
        CHECKF(text && strstr(text, ":warning: `copy4k` (implausible: ") != NULL, "%s", text);
    else
        CHECKF(text && strstr(text, ":warning:") == NULL, "%s", text);
done:
    free(text);
    free(c);
    nb_bench_free(b);
}

static void test_real_optimized_away(void)
{
    nb_bench *b = nb_bench_new();
    uint64_t x = 12345, t0;
    if (!CHECK(b != NULL))
        return;
    nb_output(nb_performance_counters(b, 0), NULL);
    t0 = nb_clock_now_ns();
    nb_run(nb_name(b, "empty"), empty_op, NULL);
    if (empty_loop_removed())
        CHECK(nb_result_at(b, 0)->overflow == 1);
    else
        printf("this build keeps an empty loop: no overflow row expected\n");
    CHECKF(nb_clock_now_ns() - t0 < UINT64_C(5000000000), "took %g s",
           (double)(nb_clock_now_ns() - t0) * 1e-9);
    nb_run(nb_name(b, "kept"), kept_op, &x);
    CHECK(nb_result_at(b, 1)->overflow == 0);
    CHECK(nb_result_epoch_count(nb_result_at(b, 1)) == 11);
    nb_bench_free(b);
}

/* NANOBENCH_ENDLESS=<name>: that benchmark runs until killed, and the
 * library prints nothing about it, neither on the configured output nor on
 * stderr (the program that set the variable announces it). Run in a child;
 * the parent watches its calls go up. */
static volatile uint64_t *endless_calls;

static void endless_op(void *arg)
{
    (void)arg;
    (*endless_calls)++;
}

static void test_endless(void)
{
    int fds[2], errfds[2], status, i;
    pid_t pid;
    char msg[256] = "";
    ssize_t got;
    uint64_t c1;
    endless_calls = mmap(NULL, sizeof(uint64_t), PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (!CHECK(endless_calls != MAP_FAILED) || !CHECK(pipe(fds) == 0) ||
        !CHECK(pipe(errfds) == 0))
        return;
    *endless_calls = 0;
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid == 0) {
        nb_bench *b = nb_bench_new();
        FILE *out = fdopen(fds[1], "w");
        dup2(errfds[1], 2);
        close(fds[0]);
        close(errfds[0]);
        close(errfds[1]);
        setenv("NANOBENCH_ENDLESS", "forever", 1);
        setenv("NANOBENCH_SUPPRESS_WARNINGS", "1", 1);
        nb_output(nb_performance_counters(b, 0), out);
        nb_run(nb_name(b, "forever"), endless_op, NULL);
        _exit(3);   /* never reached while endless */
    }
    close(fds[1]);
    close(errfds[1]);
    if (!CHECK(pid > 0))
        return;
    for (i = 0; i < 100 && *endless_calls == 0; ++i) /* up to 5 s to start */
        usleep(50000);
    usleep(100000);
    c1 = *endless_calls;
    /* up to 5 s for the count to move: a loaded host may not schedule the child for a while */
    for (i = 0; i < 50 && *endless_calls == c1; ++i)
        usleep(100000);
    CHECK(waitpid(pid, &status, WNOHANG) == 0);   /* still running */
    CHECKF(*endless_calls > c1 && c1 > 0, "calls %llu then %llu", (unsigned long long)c1,
           (unsigned long long)*endless_calls);
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    /* end of file on both at once: the child is gone and wrote nothing */
    got = read(fds[0], msg, sizeof(msg) - 1);
    CHECKF(got == 0, "%zd bytes on the output", got);
    got = read(errfds[0], msg, sizeof(msg) - 1);
    CHECKF(got == 0, "%zd bytes on stderr", got);
    close(fds[0]);
    close(errfds[0]);
    munmap((void *)endless_calls, sizeof(uint64_t));
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

int main(int argc, char **argv)
{
    (void)argc;
    check_rng_init(argv[0]);
    unsetenv("NANOBENCH_ENDLESS");
    test_target();
    test_slow_first_call();
    test_recheck();
    test_noise_unbiased();
    test_noise_symmetric();
    test_fixed_and_warmup();
    test_run_n();
    test_drive();
    test_overflow();
    test_overflow_after_kept_epochs();
    test_nested_run_refused();
    test_null_arguments();
    test_long_units_and_numbers();
    test_endless_other_name();
    test_short_epochs_not_observed();
    test_calibration_tenth();
    test_stretch_whole_iterations();
    test_calibration_kept();
    test_probe_real();
    test_probe_cycles();
    test_probe_quartile();
    test_probe_off();
    test_clock_backwards();
    test_counter_valid_in_some_epochs();
    test_relative_baseline();
    test_header_after_bigo();
    test_stats();
    test_mdape_zeros();
    test_stats_many_epochs();
    test_config_getters();
    test_format();
    test_golden_seed();
    test_decimal_point();
    test_comma_locale();
    test_table_rules();
    test_table_edges();
    test_perf_parse();
    test_perf_value();
    test_perf_software();
    test_context_switches_run();
    test_perf_hardware();
    test_run_real();
    test_warnings();
    test_two_streams();
    test_header_after_foreign_text();
    test_write_error_at_once();
    test_unstable_advice_saturates();
    test_do_not_optimize_away_forms();
    test_threads();
    test_real_optimized_away();
    test_implausible_rule();
    test_implausible_real();
    test_endless();
    test_alloc_failures();
    return check_finish();
}
