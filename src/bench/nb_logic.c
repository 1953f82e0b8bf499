/* Iteration logic (nanobench's IterationLogic): how many iterations the next
 * epoch runs, which epochs are kept, and the bookkeeping nb_run calls
 * between epochs.
 *
 * Where it departs from nanobench: nanobench keeps the first epoch that
 * comes within 2/3 of the target and derives every later epoch's size from
 * the running totals, so one slow first call (a lazy init) makes the first
 * epoch "long enough" with a single iteration, and every later epoch is sized
 * from that inflated average: tiny epochs, noisy results. Here calibration
 * epochs are never kept, and epochs are sized from the fastest time per
 * iteration seen, so an epoch at the op's usual speed lasts the target. A
 * measured epoch that lasts under 2/3 of the target (the op got at least
 * half again faster than ever before: a lazy init was behind the earlier
 * times) is discarded and the size recomputed. The result is the
 * steady-state cost. The cut is well below the target on purpose: a cut at
 * the target itself drops the epochs that noise sped up a little past the
 * fastest seen so far and keeps every slowed one, which moved the median up
 * (+0.28% at 5% noise, +2.4% at 20%: test_noise_symmetric). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"
#include "util/alloc.h"
#include "util/splitmix64.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


uint64_t nb_logic_target(const nb_config *cfg, uint64_t resolution_ns)
{
    double t = (double)resolution_ns * (double)cfg->clock_resolution_multiple;
    if (t > (double)cfg->max_epoch_time)
        t = (double)cfg->max_epoch_time;
    if (t < (double)cfg->min_epoch_time)
        t = (double)cfg->min_epoch_time;
    if (t < 1)
        t = 1;
    return t < 0x1p64 ? (uint64_t)t : UINT64_MAX; /* (uint64_t) of 2^64 is undefined */
}

/* splitmix64: the stretch only has to break lock step with periodic noise,
 * and a fixed seed keeps runs (and the tests) reproducible. */
static double uniform01(uint64_t *s)
{
    return (double)(splitmix64_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

uint64_t nb_logic_now(const nb_bench *b)
{
    return b->clock ? b->clock(b->clock_ctx) : nb_clock_now_ns();
}

static uint64_t now(const nb_bench *b)
{
    return nb_logic_now(b);
}

/* The iteration count would overflow: the result is stored with no epochs
 * (nanobench.h), even where some were kept before it came to this. */
static void overflow(nb_bench *b)
{
    if (b->logic.result) {   /* none while nb_compare calibrates */
        b->logic.result->overflow = 1;
        b->logic.result->count = 0;
    }
    b->logic.state = NB_ST_DONE;
    b->logic.n = 0;
}

/* Records the time per iteration of an epoch long enough to measure it
 * (a tenth of the target: the clock's granularity is then under 1%). */
static void observe(nb_logic *L, uint64_t elapsed)
{
    double per;
    if (elapsed == 0 || elapsed * 10 < L->target)
        return;
    per = (double)elapsed / (double)L->n;
    if (L->fastest == 0 || per < L->fastest)
        L->fastest = per;
}

/* Iterations for the next measured epoch: the target over the fastest time
 * per iteration seen, stretched by 0-10% and rounded to the nearest whole
 * iteration, but never so few that an epoch at the fastest speed would end
 * under 3/4 of the target. Sizing from the fastest, not the mean, makes an
 * epoch that runs at the op's usual speed last the target even when earlier
 * epochs were slowed down by noise, so the keep cut (2/3 of the target, in
 * add, below the 3/4 floor) does not select the slow ones. Rounding, not
 * rounding up, keeps slow ops at nanobench's budget: an op of 0.45 of the
 * target runs 2 iterations (0.9 of it), not 3. The stretch (nanobench's is
 * 0-20%) keeps epochs from locking step with periodic noise; 10% does that
 * and spends less: with it and the probes, a run at Core's 10 ms per
 * benchmark takes no longer than nanobench's. 0 on overflow. */
static uint64_t sized(nb_bench *b)
{
    nb_logic *L = &b->logic;
    double per = (double)L->target / L->fastest;
    double n = floor(per * (1.0 + 0.1 * uniform01(&L->rng)) + 0.5);
    double least = ceil(per * 0.75);
    if (n < least)
        n = least;
    /* Clamp after the stretch and the rounding: an op slower than the target
     * then runs one iteration per epoch, not ceil(1 * stretch) = 2. */
    if (n < (double)b->cfg.min_epoch_iterations)
        n = (double)b->cfg.min_epoch_iterations;
    if (!(n < NB_MAX_ITERS))
        return 0;
    return (uint64_t)n;
}

/* After an epoch that was too short: while far below the target (under a
 * tenth, where the measurement is mostly clock noise), grow tenfold, or,
 * once the epoch lasted 100 clock ticks (its time known to 1%), straight to
 * a fifth of the target, which ends calibration (calibrate) for about a
 * fifth of an epoch instead of up to a whole one; else to the size the
 * fastest iteration asks for. Always by at least one. */
static void grow(nb_bench *b, uint64_t elapsed)
{
    nb_logic *L = &b->logic;
    uint64_t next;
    if (elapsed == 0 || elapsed * 10 < L->target) {
        /* the jump is more than doubling: elapsed < target / 10 */
        double jump = elapsed > 0 && elapsed >= 100 * L->resolution
                          ? ceil((double)L->n * (double)L->target / (5.0 * (double)elapsed))
                          : (double)L->n * 10;
        if (!(jump < NB_MAX_ITERS)) {
            overflow(b);
            return;
        }
        next = (uint64_t)jump;
    } else {
        next = sized(b);
        if (next == 0) {
            overflow(b);
            return;
        }
        if (next <= L->n)
            next = L->n + 1;
    }
    L->n = next;
}

static void keep(nb_bench *b, uint64_t elapsed)
{
    nb_logic *L = &b->logic;
    nb_result *r = L->result;
    nb_epoch *e = &r->epochs[r->count];
    unsigned valid = 0;
    int m;
    e->elapsed = (double)elapsed * 1e-9;
    e->iters = L->n;
    for (m = 0; m < NB_MEASURE_COUNT; ++m)
        e->counters[m] = NAN;
    /* each iteration timed alone (nb_setup_each): the counters were not read */
    if (b->cfg.performance_counters && b->perf.count && !b->perf.error && !L->each) {
        for (m = NB_PAGE_FAULTS; m < NB_MEASURE_COUNT; ++m) {
            if (nb_perf_has(&b->perf, (nb_measure)m)) {
                e->counters[m] = nb_perf_value(&b->perf, (nb_measure)m, L->n);
                valid |= 1u << m;
            }
        }
    }
    if (L->ghz > 0) {
        e->counters[NB_EST_CYCLES] = (double)elapsed * L->ghz;
        valid |= 1u << NB_EST_CYCLES;
    }
    r->has = r->count == 0 ? valid : (r->has & valid);
    r->count++;
}

/* How much slower per iteration than the epoch after it the calibration
 * epoch may be and still be kept (confirm). */
#define NB_PROVISIONAL_SLACK 1.05

/* A calibration epoch: once one lasts a tenth of the target (long enough to
 * time an iteration to 1%, observe), measuring starts with a size derived
 * from it; until then, grow. Calibration costs about a fifth of an epoch this
 * way, not a whole discarded one (a measured epoch that then proves too short,
 * in add, is still discarded and resized). The epoch that ends calibration is
 * kept, provisionally, when it passes the keep cut (2/3 of the target: an op
 * that slow runs one iteration per epoch, and nanobench keeps that first
 * epoch too) and may_keep is set (not after a warmup, which asked for
 * discarding, nor when one epoch is all there is to keep); confirm decides.
 * 1 when the epoch was kept. */
static int calibrate(nb_bench *b, uint64_t elapsed, int may_keep)
{
    nb_logic *L = &b->logic;
    observe(L, elapsed);
    if (elapsed != 0 && elapsed * 10 >= L->target) {
        uint64_t next = sized(b);
        int kept = 0;
        if (next == 0) {
            overflow(b);
            return 0;
        }
        L->state = NB_ST_MEASURE;
        if (may_keep && L->result->cap >= 2 && elapsed >= L->target - L->target / 3) {
            keep(b, elapsed);
            L->provisional = 1;
            kept = 1;
        }
        L->n = next;
        return kept;
    }
    grow(b, elapsed);
    return 0;
}

/* The next kept epoch after a provisional one: the calibration epoch stays
 * only if it ran at most 5% slower per iteration than this one. A slow first
 * call (a lazy init: OpenSSL's takes about 2 ms) so never reaches the result,
 * and an op that needs no warming costs no extra epoch, which keeps a run of
 * slow ops at nanobench's budget. */
static void confirm(nb_bench *b)
{
    nb_logic *L = &b->logic;
    nb_result *r = L->result;
    const nb_epoch *first = &r->epochs[0], *last = &r->epochs[r->count - 1];
    L->provisional = 0;
    if (r->count < 2 || first->elapsed / (double)first->iters <=
                            NB_PROVISIONAL_SLACK * last->elapsed / (double)last->iters)
        return;
    memmove(&r->epochs[0], &r->epochs[1], (r->count - 1) * sizeof r->epochs[0]);
    r->count--;
    r->discarded++;
}

/* One epoch of L->n iterations took elapsed ns: record it or not, and
 * choose the next n. */
static void add(nb_bench *b, uint64_t elapsed)
{
    nb_logic *L = &b->logic;
    nb_result *r = L->result;
    switch (L->state) {
    case NB_ST_ENDLESS:
        L->n = UINT64_MAX;
        return;
    case NB_ST_DRIVEN:
        L->n = b->driver(b->driver_ctx, L->n, elapsed);
        if (L->n == 0)
            L->state = NB_ST_DONE;
        return;
    case NB_ST_WARMUP:
        r->discarded++;
        if (b->cfg.epoch_iterations) {
            L->state = NB_ST_FIXED;
            L->n = b->cfg.epoch_iterations;
        } else {
            /* the warmup epoch calibrates like any other, and is not kept */
            L->state = NB_ST_CALIBRATE;
            calibrate(b, elapsed, 0);
        }
        return;
    case NB_ST_CALIBRATE:
        if (!calibrate(b, elapsed, 1))
            r->discarded++;
        break;
    case NB_ST_FIXED:
        keep(b, elapsed);
        break;
    case NB_ST_CMP_CALIBRATE:
        /* nb_compare's calibration: the same growth as a run's, ended by the
         * first epoch long enough to time an iteration (observe) */
        observe(L, elapsed);
        if (elapsed != 0 && elapsed * 10 >= L->target)
            L->state = NB_ST_COMPARE;
        else
            grow(b, elapsed);
        return;
    case NB_ST_CMP_MEASURE:
        keep(b, elapsed);
        return;
    case NB_ST_MEASURE:
        observe(L, elapsed);
        if (elapsed >= L->target - L->target / 3) {
            keep(b, elapsed);
            if (L->provisional)
                confirm(b);
            if (r->count < r->cap) {
                uint64_t next = sized(b);
                if (next == 0) {
                    overflow(b);
                    return;
                }
                L->n = next;
            }
        } else {
            r->discarded++;
            grow(b, elapsed);
        }
        break;
    default:
        return;
    }
    if (L->state != NB_ST_DONE && r->count >= r->cap) {
        L->state = NB_ST_DONE;
        L->n = 0;
    }
}

void nb_logic_compare_begin(nb_bench *b, uint64_t resolution_ns)
{
    nb_logic *L = &b->logic;
    L->state = NB_ST_COMPARE;
    L->result = NULL;
    L->probing = 0;
    L->ghz = 0;
    L->provisional = 0;
    L->resolution = resolution_ns;
    L->target = nb_logic_target(&b->cfg, resolution_ns);
    L->started = now(b);
    L->progress_at = 0;
    L->each = b->setup_each;
    if (L->each)
        L->each_overhead = nb_logic_each_overhead(b);
}

uint64_t nb_logic_calibrate_begin(nb_bench *b)
{
    nb_logic *L = &b->logic;
    L->state = NB_ST_CMP_CALIBRATE;
    L->fastest = 0;
    L->n = b->cfg.min_epoch_iterations ? b->cfg.min_epoch_iterations : 1;
    return L->n;
}

double nb_logic_calibrated(nb_bench *b)
{
    nb_logic *L = &b->logic;
    double per = L->fastest;
    if (!(per > 0))   /* no epoch lasted a tenth of the target: a clock that did not move */
        per = (double)L->target / (double)(L->n ? L->n : 1);
    L->state = NB_ST_COMPARE;
    return per;
}

void nb_logic_measure_into(nb_bench *b, nb_result *r, uint64_t iters)
{
    b->logic.state = NB_ST_CMP_MEASURE;
    b->logic.result = r;
    b->logic.n = iters;
}

void nb_logic_compare_end(nb_bench *b)
{
    b->logic.each = 0;
    b->logic.state = NB_ST_IDLE;
    b->logic.result = NULL;
    b->logic.n = 0;
}

nb_bench *nb_drive(nb_bench *b, nb_epoch_driver next, void *ctx)
{
    if (b) {
        b->driver = next;
        b->driver_ctx = ctx;
    }
    return b;
}

/* A probe that ended this recently (ns) still tells the clock before an
 * epoch: the previous epoch's closing probe serves as the next one's opening
 * probe, as only the logic's bookkeeping (or a short setup) ran in between. */
#define NB_PROBE_REUSE_NS 100000

/* No core runs faster (nanobench.h, nb_result_implausible): a probe that
 * reads more was preempted in its short chain, which shrank the difference it
 * divides by. */
#define NB_PROBE_MAX_GHZ (NB_MAX_CLOCK_HZ * 1e-9)

/* Probes the core's clock (the test hook's probe, or the real one) and
 * remembers the reading and when it was taken; 0 when there is none. A probe
 * that failed (preempted in its short chain, so that it read no difference or
 * a clock faster than any core's) is tried again, twice at most; when all
 * three fail there is no clock to probe (an architecture without the chain),
 * and probing stops for the run. */
static double probe(nb_bench *b)
{
    nb_logic *L = &b->logic;
    double g = 0;
    int tries;
    for (tries = 0; tries < 3 && !(g > 0 && g <= NB_PROBE_MAX_GHZ); ++tries) /* NaN too */
        g = b->probe ? b->probe(b->probe_ctx) : nb_freq_probe_ghz();
    L->ghz_last = g > 0 && g <= NB_PROBE_MAX_GHZ ? g : 0;
    L->ghz_last_at = now(b);
    if (L->ghz_last == 0)
        L->probing = 0;
    return L->ghz_last;
}

/* 1 when the epoch now running may be kept: a measured or fixed one, or a
 * calibration epoch long enough to end calibration kept (calibrate); elapsed
 * is its time so far (0 before it ran). Only these are probed. */
static int keepable(const nb_logic *L, uint64_t elapsed)
{
    return L->state == NB_ST_MEASURE || L->state == NB_ST_FIXED ||
           (L->state == NB_ST_CALIBRATE && elapsed >= L->target - L->target / 3);
}

int nb_impl_start(nb_bench *b, int optimized, int has_op)
{
    nb_logic *L;
    const char *endless;
    uint64_t res;
    if (!b)
        return -1;
    L = &b->logic;
    if (L->state != NB_ST_IDLE) {
        /* nb_run from inside the op of a run of the same bench: refused, so
         * that the run in progress keeps its result (its setup stays). */
        nb_fail(b, "nb_run: refused: the bench is running (called from one of its ops)");
        return -1;
    }
    if (!has_op || b->batch_rejected) {
        if (!has_op)
            nb_fail(b, "nb_run: op is NULL");
        else
            nb_fail(b, "nb_run: refused after a rejected nb_batch (its rows would show per-op "
                    "figures per %s)", b->cfg.unit);
        b->batch_rejected = 0;
        b->setup = NULL; /* nb_setup applies to this one call, which failed */
        b->setup_each = 0;
        b->driver = NULL; /* and so does nb_drive */
        return -1;
    }
    res = b->resolution_ns ? b->resolution_ns : nb_clock_resolution_ns();
    nb_result_free(L->result);
    L->result = NULL;
    if (nb_bench_reserve(b, 1) != 0 ||
        !(L->result = nb_result_new(&b->cfg, (double)res * 1e-9))) {
        nb_fail(b, "nb_run: out of memory");
        b->setup = NULL; /* nb_setup applies to this one call, which failed */
        b->setup_each = 0;
        b->driver = NULL; /* and so does nb_drive */
        return -1;
    }
    L->probing = 0;
    L->each = b->setup_each;
    L->started = now(b);
    L->progress_at = 0;
    if (nb_vg_start(b))
        return L->each;
    if (b->cfg.performance_counters && !b->perf_opened) {
        b->perf_opened = 1;
        if (nb_perf_open_default(&b->perf) > 0)
            nb_perf_calibrate(&b->perf);
    }
    if (b->cfg.out) {
        nb_warnings_once(b->cfg.out, optimized);
        if (b->cfg.performance_counters && !nb_perf_hardware_available(&b->perf))
            nb_perf_note_once(b->cfg.out, b->perf.first_errno);
    }
    L->target = nb_logic_target(&b->cfg, res);
    L->resolution = res;
    L->provisional = 0;
    L->fastest = 0;
    endless = getenv("NANOBENCH_ENDLESS");
    if (b->driver) {
        L->state = NB_ST_DRIVEN;
        L->n = b->driver(b->driver_ctx, 0, 0);
        if (L->n == 0)
            L->state = NB_ST_DONE;
    } else if (endless && strcmp(endless, b->cfg.name) == 0) {
        /* Nothing is printed: a library does not write to stderr, and the
         * output may be a file or NULL. The program that set the variable
         * announces it (bench_bitcoin does, on stderr). */
        L->state = NB_ST_ENDLESS;
        L->n = UINT64_MAX;
    } else if (b->cfg.warmup) {
        L->state = NB_ST_WARMUP;
        L->n = b->cfg.warmup;
    } else if (b->cfg.epoch_iterations) {
        L->state = NB_ST_FIXED;
        L->n = b->cfg.epoch_iterations;
    } else {
        L->state = NB_ST_CALIBRATE;
        L->n = b->cfg.min_epoch_iterations;
    }
    /* Cycles are estimated for the epochs the logic may keep, on the real
     * clock (or with a test probe); a probe that finds no clock ends it. */
    L->ghz_last = 0;
    L->ghz = 0;
    L->probing = b->cfg.cycle_probe && (b->probe || !b->clock) &&
                 (L->state == NB_ST_CALIBRATE || L->state == NB_ST_WARMUP ||
                  L->state == NB_ST_FIXED);
    if (L->each)
        L->each_overhead = nb_logic_each_overhead(b);
    return L->each;
}

/* The progress line: a row that has run this long says so, this often. */
#define NB_PROGRESS_AFTER_NS UINT64_C(2000000000)
#define NB_PROGRESS_EVERY_NS UINT64_C(1000000000)

/* Where the progress line goes: the test hook's stream, else stderr when it
 * is a terminal (a log file or a pipe gets no carriage returns); NULL when
 * warnings are suppressed. */
static FILE *progress_stream(const nb_bench *b)
{
    if (nb_warnings_suppressed())
        return NULL;
    if (b->progress)
        return b->progress;
    return isatty(STDERR_FILENO) ? stderr : NULL;
}

void nb_logic_progress(nb_bench *b, const char *what, size_t done, size_t total)
{
    nb_logic *L = &b->logic;
    uint64_t t = now(b);
    FILE *f;
    if (t - L->started < NB_PROGRESS_AFTER_NS ||
        (L->progress_at && t - L->progress_at < NB_PROGRESS_EVERY_NS))
        return;
    if (!(f = progress_stream(b)))
        return;
    /* one line, rewritten in place ("\r", then erase to its end) */
    if (total)
        fprintf(f, "\r%s: running for %.0f s, %s %zu of %zu\033[K", b->cfg.name,
                (double)(t - L->started) * 1e-9, what, done, total);
    else
        fprintf(f, "\r%s: running for %.0f s, %s\033[K", b->cfg.name,
                (double)(t - L->started) * 1e-9, what);
    fflush(f);
    L->progress_at = t ? t : 1;
}

void nb_logic_progress_end(nb_bench *b)
{
    FILE *f;
    if (b->logic.progress_at && (f = progress_stream(b)) != NULL) {
        fputs("\r\033[K", f);
        fflush(f);
    }
    b->logic.progress_at = 0;
}

void nb_logic_setup_notice(nb_bench *b)
{
    FILE *out = b->cfg.out;
    b->setup_noted = 1;
    if (!out || nb_warnings_suppressed())
        return;
    fputs("Note: nb_setup runs once per epoch and these epochs run more than one iteration, "
          "so each iteration after an epoch's first sees the state the ones before it left; "
          "for state an iteration uses up (an array to sort), use nb_setup_each.\n", out);
    nb_table_forget(out); /* the note ended the table: the next row prints a header */
}

static void empty_op(void *arg)
{
    (void)arg;
}

double nb_logic_each_overhead(nb_bench *b)
{
    /* the mean of the middle half of many timed empty calls: the median's
     * robustness to preemption, without its bias on a clock that ticks in
     * steps as coarse as the cost itself */
    enum { K = 256 };
    double d[K], sum = 0;
    void (*volatile op)(void *) = empty_op;
    size_t k;
    for (k = 0; k < K; ++k) {
        uint64_t t0 = now(b), t1;
        op(NULL);
        t1 = now(b);
        d[k] = t1 > t0 ? (double)(t1 - t0) : 0;
    }
    nb_stats_median(d, K); /* sorts */
    for (k = K / 4; k < K - K / 4; ++k)
        sum += d[k];
    return sum / (double)(K / 2);
}

uint64_t nb_impl_next(nb_bench *b)
{
    nb_logic *L;
    uint64_t n;
    if (!b)
        return 0;
    L = &b->logic;
    n = L->state == NB_ST_IDLE ? 0 : L->n;
    if (!n)
        return 0;
    if (L->state == NB_ST_MEASURE || L->state == NB_ST_FIXED || L->state == NB_ST_VALGRIND)
        nb_logic_progress(b, "epoch", L->result->count + 1, L->result->cap);
    else if (L->state == NB_ST_CALIBRATE || L->state == NB_ST_WARMUP)
        nb_logic_progress(b, "calibrating", 0, 0);
    if (b->setup && !L->each) {
        if (n > 1 && !b->setup_noted)
            nb_logic_setup_notice(b);
        /* nb_setup's function runs here, before nb_impl_epoch_begin reads the
         * clock: untimed, once before every epoch */
        b->setup(b->setup_arg);
    }
    return n;
}

/* The clock probed before an epoch, when this run probes: the last probe
 * when it is recent, else a new one for an epoch that may be kept. */
static void probe_before(nb_bench *b)
{
    nb_logic *L = &b->logic;
    if (L->probing)
        L->ghz_before = L->ghz_last > 0 && now(b) - L->ghz_last_at < NB_PROBE_REUSE_NS
                            ? L->ghz_last : keepable(L, 0) ? probe(b) : 0;
}

/* After an epoch that lasted elapsed ns: the clock probed after it, then the
 * logic's bookkeeping. */
static void epoch_close(nb_bench *b, uint64_t elapsed)
{
    nb_logic *L = &b->logic;
    L->ghz = 0;
    if (L->probing && keepable(L, elapsed)) {
        double after = probe(b);
        /* the mean of the two readings; one alone where the other failed or was
         * not taken (before a calibration epoch) */
        L->ghz = L->ghz_before > 0 && after > 0 ? (L->ghz_before + after) / 2
                 : L->ghz_before > 0 ? L->ghz_before : after;
    }
    add(b, elapsed);
}

void nb_impl_epoch_begin(nb_bench *b)
{
    if (!b)
        return;
    if (b->logic.state == NB_ST_VALGRIND) {
        nb_vg_epoch_begin(b);
        return;
    }
    probe_before(b);
    if (b->cfg.performance_counters && b->perf.count)
        nb_perf_begin(&b->perf);
    /* last, so the counters' own start-up is outside the timed span */
    b->logic.t0 = now(b);
}

void nb_impl_epoch_end(nb_bench *b)
{
    uint64_t t1, elapsed;
    if (!b)
        return;
    if (b->logic.state == NB_ST_VALGRIND) {
        nb_vg_epoch_end(b);
        return;
    }
    t1 = now(b);
    elapsed = t1 >= b->logic.t0 ? t1 - b->logic.t0 : 0;
    if (b->cfg.performance_counters && b->perf.count)
        nb_perf_end(&b->perf);
    epoch_close(b, elapsed);
}

void nb_impl_epoch_each(nb_bench *b, void (*op)(void *arg),
                        void (*op_n)(void *arg, uint64_t iters), void *arg, uint64_t n)
{
    nb_logic *L;
    double total = 0;
    uint64_t i;
    if (!b || (!op && !op_n))
        return;
    L = &b->logic;
    if (L->state == NB_ST_VALGRIND) {
        /* callgrind counts the whole epoch: the setups' instructions with it */
        nb_vg_epoch_begin(b);
        for (i = 0; i < n; ++i) {
            b->setup(b->setup_arg);
            if (op_n)
                op_n(arg, 1);
            else
                op(arg);
        }
        nb_vg_epoch_end(b);
        return;
    }
    probe_before(b);
    for (i = 0; i < n; ++i) {
        uint64_t t0, t1;
        b->setup(b->setup_arg);
        t0 = now(b);
        if (op_n)
            op_n(arg, 1);
        else
            op(arg);
        t1 = now(b);
        if (t1 > t0)
            total += (double)(t1 - t0);
    }
    total -= (double)n * L->each_overhead;
    epoch_close(b, total > 0 ? (uint64_t)(total + 0.5) : 0);
}

void nb_impl_finish(nb_bench *b)
{
    nb_logic *L;
    nb_result *r;
    if (!b)
        return;
    L = &b->logic;
    r = L->result;
    if (!r)
        return;
    nb_logic_progress_end(b);
    L->result = NULL;
    L->state = NB_ST_IDLE;
    L->n = 0;
    L->each = 0;
    b->setup = NULL;
    b->setup_each = 0;
    b->driver = NULL;   /* nb_drive applies to one run */
    nb_bench_append(b, r);
    if (b->cfg.out) {
        unsigned mask = r->count ? r->has & (1u << NB_EST_CYCLES) : 0;
        if (b->cfg.performance_counters) {
            if (r->count) {
                mask |= r->has;
            } else {
                int m;
                for (m = NB_PAGE_FAULTS; m < NB_MEASURE_COUNT; ++m)
                    if (nb_perf_has(&b->perf, (nb_measure)m))
                        mask |= 1u << m;
            }
        }
        /* counted runs: err% is of the simulator's wall time, not worth a marker */
        if (nb_table_row(b->cfg.out, r, b->results[b->table_start], mask,
                         nb_warnings_suppressed() || r->counted) != 0)
            nb_fail(b, "write to output failed: %s", strerror(errno ? errno : EIO));
    }
}
