/* The iteration logic on a fake clock: the epoch target, calibration, kept and discarded
 * epochs, warm-up and fixed sizes, nb_run_n, nb_drive, overflow, nested runs, the cycle
 * probe, a clock that steps back, NANOBENCH_ENDLESS. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_test_hooks.h"
#include "check.h"
#include "nb_fake.h"
#include "util/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* Epoch i of r: its iterations, seconds and estimated cycles, in total. */
#define EPOCH_ITERS(r, i) nb_test_epoch_total(r, NB_ITERATIONS, i)
#define EPOCH_SECONDS(r, i) nb_test_epoch_total(r, NB_ELAPSED, i)
#define EPOCH_CYCLES(r, i) nb_test_epoch_total(r, NB_EST_CYCLES, i)

static uint64_t result_iters(const nb_result *r)
{
    size_t i;
    uint64_t s = 0;
    for (i = 0; i < nb_result_epoch_count(r); ++i)
        s += EPOCH_ITERS(r, i);
    return s;
}

static void test_target(void)
{
    nb_bench *b = nb_bench_new();
    if (!CHECK(b != NULL))
        return;
    /* 20 ns * 1000 = 20 us, raised to the default 1 ms minimum */
    CHECK(nb_test_target(b, 20) == 1000000);
    nb_min_epoch_time(b, 0);
    CHECK(nb_test_target(b, 20) == 20000);
    nb_clock_resolution_multiple(b, 10);
    CHECK(nb_test_target(b, 20) == 200);
    nb_clock_resolution_multiple(b, 1000);
    /* clamped by max epoch time */
    CHECK(nb_test_target(b, 1000000) == 100000000);
    nb_max_epoch_time(b, 5000);
    CHECK(nb_test_target(b, 20) == 5000);
    /* min wins over max when they disagree: an epoch is never shorter than asked */
    nb_min_epoch_time(b, 7000);
    CHECK(nb_test_target(b, 20) == 7000);
    /* near 2^64 the double rounds up to 2^64: saturates (the cast would be
     * undefined; on x86-64 it gave 0, one-iteration epochs) */
    nb_min_epoch_time(b, UINT64_MAX);
    CHECK(nb_test_target(b, 20) == UINT64_MAX);
    nb_min_epoch_time(b, UINT64_MAX - 1000);
    CHECK(nb_test_target(b, 20) == UINT64_MAX);
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
        CHECKF(EPOCH_ITERS(r, i) >= 1000 && EPOCH_ITERS(r, i) <= 1101,
               "epoch %zu ran %llu iterations", i, (unsigned long long)EPOCH_ITERS(r, i));
    }
    CHECKF(fabs(nb_result_median(r, NB_ELAPSED) / 1e-6 - 1) < 1e-12, "median %g",
           nb_result_median(r, NB_ELAPSED));
    CHECK(nb_result_err(r, NB_ELAPSED) == 0);
    CHECK(fabs(nb_result_maximum(r, NB_ELAPSED) / nb_result_minimum(r, NB_ELAPSED) - 1) < 1e-12);
    CHECK(nb_test_discarded(r) >= 2);        /* the slow epoch and at least one calibration */
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
    for (i = 0; i < nb_result_epoch_count(r); ++i)
        CHECKF(EPOCH_SECONDS(r, i) >= 1e-3 * 2 / 3 - 1e-12, "epoch %zu: %g s", i,
               EPOCH_SECONDS(r, i));
    CHECK(nb_test_discarded(r) >= 3);
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
    CHECKF(nb_test_discarded(r) <= 8, "%llu epochs discarded",
           (unsigned long long)nb_test_discarded(r));
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
    for (i = 0; i < nb_result_epoch_count(r); ++i)
        CHECK(EPOCH_ITERS(r, i) == 7);
    CHECK(f.calls == 21);
    CHECK(nb_test_discarded(r) == 0);

    /* warmup runs once, unmeasured, before the fixed epochs */
    f.calls = 0;
    nb_run(nb_warmup(b, 5), fake_op, &f);
    r = nb_result_at(b, 1);
    CHECK(nb_result_epoch_count(r) == 3);
    CHECK(f.calls == 5 + 21);
    CHECK(nb_test_discarded(r) == 1);

    /* warmup then calibration */
    f.calls = 0;
    nb_run(nb_warmup(nb_epoch_iterations(nb_epochs(b, 5), 0), 5), fake_op, &f);
    r = nb_result_at(b, 2);
    CHECK(nb_result_epoch_count(r) == 5);
    for (i = 0; i < nb_result_epoch_count(r); ++i)
        CHECK(EPOCH_SECONDS(r, i) >= 1e-3);
    CHECK(f.calls > 5 + result_iters(r));

    /* min epoch iterations: every kept epoch runs at least that many */
    nb_run(nb_min_epoch_iterations(nb_warmup(b, 0), 500000), fake_op, &f);
    r = nb_result_at(b, 3);
    CHECK(nb_result_epoch_count(r) == 5);
    for (i = 0; i < nb_result_epoch_count(r); ++i)
        CHECK(EPOCH_ITERS(r, i) >= 500000);
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
    if (nb_impl_start(b, 1, 1) != 0)
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
    CHECK(nb_test_overflowed(r) == 1);
    CHECK(nb_result_epoch_count(r) == 0);
    CHECK(!nb_result_has(r, NB_ELAPSED));
    CHECK(isnan(nb_result_median(r, NB_ELAPSED)));
    CHECK(nb_test_discarded(r) < 25);
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
        late_t += nb_test_iterations(late_bench) < UINT64_C(100000000000000000) ? 30 : 1000000;
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
    CHECK(r != NULL && nb_test_overflowed(r) == 1);
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
        for (i = 0; i < nb_result_epoch_count(r); ++i) {
            double truth = (double)EPOCH_ITERS(r, i) * (double)cost;
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
    for (i = 0; i < nb_result_epoch_count(r); ++i) {
        if (EPOCH_ITERS(r, i) < lo || EPOCH_ITERS(r, i) > hi) {
            fprintf(stderr, "epoch %zu: %llu iterations, not %llu-%llu\n", i,
                    (unsigned long long)EPOCH_ITERS(r, i), (unsigned long long)lo,
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
    CHECKF(nb_test_discarded(r) == 3, "%llu calibration epochs",
           (unsigned long long)nb_test_discarded(r));
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
    CHECK(nb_test_discarded(nb_result_at(b, 0)) == 0);
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
        CHECK(nb_test_discarded(r) == calls[k] - 11);
        for (i = 1; i < nb_result_epoch_count(r); ++i)
            CHECK(EPOCH_SECONDS(r, i) == 1.5e-3);
        CHECK(EPOCH_SECONDS(r, 0) == (calls[k] == 11 ? firsts[k] : 1500000) * 1e-9);
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
 * one per cycle), 0 elsewhere. One reading is spoilt when the process is
 * preempted inside it (the run's logic retakes those), so the median of
 * five readings is what must be plausible. */
static void test_probe_real(void)
{
    double g[5], t;
    size_t i, j;
    for (i = 0; i < 5; i++) {
        g[i] = nb_freq_probe_ghz();
        for (j = i; j > 0 && g[j - 1] > g[j]; j--) {
            t = g[j];
            g[j] = g[j - 1];
            g[j - 1] = t;
        }
    }
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__aarch64__))
    CHECKF(g[2] > 0.2 && g[2] < 10, "probe: median %g GHz of %g .. %g", g[2], g[0], g[4]);
#else
    CHECK(g[2] == 0);
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

/* A probe that reads a clock faster than any core's (preempted in its short
 * chain) is taken again: the epoch's cycles come from the next reading. */
static void test_probe_preempted(void)
{
    fake f = { 0, 0, 1000, 1000, 0, 0 };
    fake_probe p = { { 27.0, 2.0 }, 2, 0 };
    char *text;
    nb_bench *b = probe_run(&f, &p, 3, &text);
    const nb_result *r;
    size_t i;
    if (!b)
        return;
    r = nb_result_at(b, 0);
    CHECK(nb_result_has(r, NB_EST_CYCLES));
    for (i = 0; i < nb_result_epoch_count(r); ++i)
        CHECKF(fabs(EPOCH_CYCLES(r, i) / (EPOCH_SECONDS(r, i) * 1e9) - 2.0) < 1e-9,
               "epoch %zu at %g GHz", i, EPOCH_CYCLES(r, i) / (EPOCH_SECONDS(r, i) * 1e9));
    free(text);
    nb_bench_free(b);
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
    for (i = 0; i < nb_result_epoch_count(r); ++i)
        CHECK(fabs(EPOCH_CYCLES(r, i) / (EPOCH_SECONDS(r, i) * 1e9 * 2.5) -
                   1) < 1e-12);
    CHECKF(fabs(nb_result_median(r, NB_EST_CYCLES) - 2500) < 1e-9, "median %g",
           nb_result_median(r, NB_EST_CYCLES));
    /* none around the 3 calibration epochs (too short to keep), one opening
     * the first measured epoch, then one closing each */
    CHECKF(nb_test_discarded(r) == 3 && p.calls == 1 + nb_result_epoch_count(r), "%zu probes",
           p.calls);
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
    CHECK(nb_result_epoch_count(r) == 2);
    /* probes: after epoch 1 (the calibration epoch, kept, and not probed
     * before: its reading alone) 2.0, after epoch 2 3.0 */
    CHECK(EPOCH_CYCLES(r, 0) == 2000000 * 2.0);
    CHECK(EPOCH_CYCLES(r, 1) == 2000000 * 2.5);
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
    CHECK(nb_result_epoch_count(r) == 2 && nb_result_has(r, NB_EST_CYCLES));
    CHECK(EPOCH_CYCLES(r, 1) == 2000000 * 2.0);
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
        for (i = 0; i < nb_result_epoch_count(r); ++i)
            CHECKF(EPOCH_SECONDS(r, i) < 1.0, "step back at read %llu: epoch %zu lasted %g s",
                   (unsigned long long)at, i, EPOCH_SECONDS(r, i));
        CHECKF(fabs(nb_result_median(r, NB_ELAPSED) / 1e-6 - 1) < 1e-12, "median %g",
               nb_result_median(r, NB_ELAPSED));
        CHECK(nb_result_maximum(r, NB_ELAPSED) < 1.5e-6);
        nb_bench_free(b);
    }
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

/* The progress line of a long run, to a stream the test hook makes a
 * terminal: from 2 s on, about once a second (this fake clock moves 0.6 s an
 * epoch), the row's name and how far it is, erased at the end; nothing for a
 * short run, nothing with warnings suppressed. */
static size_t progress_lines(uint64_t cost, const char *suppress, char **text)
{
    fake f = { 0, 0, 0, 0, 0, 0 };
    nb_bench *b;
    size_t len = 0, lines = 0;
    const char *p;
    FILE *out = open_memstream(text, &len);
    f.first_cost = f.cost = cost;
    b = fake_bench(&f);
    if (!CHECK(b != NULL) || !CHECK(out != NULL)) {
        nb_bench_free(b);
        if (out)
            fclose(out);
        return 0;
    }
    if (suppress)
        setenv("NANOBENCH_SUPPRESS_WARNINGS", suppress, 1);
    nb_test_set_progress(b, out);
    nb_run(nb_name(b, "slow row"), fake_op, &f);
    unsetenv("NANOBENCH_SUPPRESS_WARNINGS");
    fclose(out);
    for (p = *text; p && (p = strstr(p, "slow row: running for")) != NULL; ++p)
        ++lines;
    nb_bench_free(b);
    return lines;
}

static void test_progress(void)
{
    char *text = NULL;
    size_t n = progress_lines(600000000, NULL, &text);
    /* 11 epochs and a calibration of 0.6 s: about 7 s, so about 5 lines */
    CHECKF(n >= 3 && n <= 7, "%zu progress lines", n);
    CHECK(text && text[0] == '\r' && strstr(text, "epoch") != NULL);
    CHECK(text && strlen(text) > 4 && strcmp(text + strlen(text) - 4, "\r\033[K") == 0);
    free(text);
    text = NULL;
    CHECK(progress_lines(1000, NULL, &text) == 0 && text && !text[0]);   /* a short run */
    free(text);
    text = NULL;
    CHECK(progress_lines(600000000, "1", &text) == 0);
    free(text);
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
    test_endless_other_name();
    test_short_epochs_not_observed();
    test_calibration_tenth();
    test_stretch_whole_iterations();
    test_calibration_kept();
    test_probe_real();
    test_probe_cycles();
    test_probe_preempted();
    test_probe_quartile();
    test_probe_off();
    test_clock_backwards();
    test_endless();
    test_progress();
    return check_finish();
}
