/* Paired comparison (nb_compare): alternatives measured in the same slices
 * of time, so that what the host does to one round it does to all of them.
 *
 * 1. One iteration count for all: a different count per alternative would
 *    amortise the epoch's fixed cost (clock reads, the call into the loop)
 *    differently and bias the ratio. It is calibrated on every alternative
 *    (grown tenfold until an epoch lasts the target) and sized for the
 *    fastest, so that every epoch lasts at least the target.
 * 2. Rounds: one epoch of each alternative per round. The order within a
 *    round follows a Williams design, a Latin square whose rows are
 *    0, 1, n-1, 2, n-2, ... shifted by the row number mod n (and, for odd
 *    n, the same rows reversed): over one block every alternative takes
 *    every position equally often, so a linear drift adds the same to all
 *    of them, and every ordered pair (a right after b) occurs equally often,
 *    so what one alternative leaves behind (caches, branch predictors,
 *    frequency) falls on all the others alike. For two alternatives it is
 *    AB, BA.
 *    Each round is NB_COMPARE_EPOCHS_PER_ROUND (4) consecutive rows of the
 *    square, starting one row further on in each round, so that every
 *    alternative runs 4 epochs per round and which one goes first alternates.
 * 3. Each round reduces to each alternative's fastest epoch (seconds per
 *    iteration): timing noise on a shared machine is positive and comes in
 *    bursts (another process gets the CPU for a time slice), so of four short
 *    epochs one is usually untouched, where one epoch per round is hit in
 *    most rounds of a busy machine (doc/compare.md has the figures). The
 *    rounds' ratios to the baseline go to nb_stats_paired, family n - 1. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"
#include "util/alloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Row `row` of the order: which alternative runs at each position. */
void nb_compare_order(size_t n, size_t row, size_t *order)
{
    size_t j, shift = row % n;
    for (j = 0; j < n; ++j) {
        /* 0, 1, n-1, 2, n-2, ...: odd positions count up, even ones down */
        size_t base = j == 0 ? 0 : (j % 2 ? (j + 1) / 2 : n - j / 2);
        order[j] = (base + shift) % n;
    }
    if (n % 2 && (row % (2 * n)) >= n) {
        for (j = 0; j < n / 2; ++j) {
            size_t t = order[j];
            order[j] = order[n - 1 - j];
            order[n - 1 - j] = t;
        }
    }
}

size_t nb_compare_block(size_t n)
{
    return n % 2 ? 2 * n : n;
}

/* One epoch of alternative a, iters iterations: nb_setup's function
 * (untimed), then the loop between the logic's epoch begin and end, which
 * time it, read the counters and, in a measuring state, store the epoch; or,
 * with nb_setup_each, the logic's epoch of iterations timed one by one. */
static void epoch(nb_bench *b, const nb_alternative *a, uint64_t iters)
{
    if (b->setup_each) {
        nb_impl_epoch_each(b, a->op, a->op_n, a->arg, iters);
        return;
    }
    if (b->setup) {
        if (iters > 1 && !b->setup_noted)
            nb_logic_setup_notice(b);
        b->setup(b->setup_arg);
    }
    nb_impl_epoch_begin(b);
    if (a->op_n) {
        a->op_n(a->arg, iters);
    } else {
        void (*op)(void *) = a->op;
        void *arg = a->arg;
        uint64_t i;
        for (i = 0; i < iters; ++i)
            op(arg);
    }
    nb_impl_epoch_end(b);
}

/* The time per iteration (ns) of a, calibrated as a run calibrates. */
static double calibrate_alt(nb_bench *b, const nb_alternative *a)
{
    nb_logic_calibrate_begin(b);
    while (b->logic.state == NB_ST_CMP_CALIBRATE)
        epoch(b, a, b->logic.n);
    return nb_logic_calibrated(b);
}

/* The common iteration count: the fastest alternative's epoch lasts the
 * target; lowered so the slowest's stays within the max epoch time where
 * that does not push the fastest below a third of the target. */
static uint64_t common_iterations(nb_bench *b, const nb_alternative *alts, size_t n)
{
    double fastest = 0, slowest = 0, it, target = (double)b->logic.target;
    size_t i;
    for (i = 0; i < n; ++i) {
        double per = calibrate_alt(b, &alts[i]);
        if (i == 0 || per < fastest)
            fastest = per;
        if (per > slowest)
            slowest = per;
    }
    it = ceil(target / fastest);
    if (it * slowest > (double)b->cfg.max_epoch_time) {
        double cap = floor((double)b->cfg.max_epoch_time / slowest);
        double least = ceil(target / 3 / fastest);
        it = cap > least ? cap : least;
    }
    if (it < (double)b->cfg.min_epoch_iterations)
        it = (double)b->cfg.min_epoch_iterations;
    if (it < 1)
        it = 1;
    return it < NB_MAX_ITERS ? (uint64_t)it : (uint64_t)NB_MAX_ITERS;
}

/* Rounds: at least the epochs asked for and enough for any 95% interval
 * over n - 1 comparisons (2^-r <= 0.025 / (n - 1)), in whole blocks. */
static size_t rounds_for(size_t n, size_t epochs)
{
    size_t r = 1, block = nb_compare_block(n);
    double p = 0.5, tail = 0.025 / (double)(n - 1);
    while (p > tail) {
        p /= 2;
        ++r;
    }
    if (r < epochs)
        r = epochs;
    return (r + block - 1) / block * block;
}

/* Everything that can fail, before anything runs: the comparison, its
 * results (fresh, one epoch slot per round) and room in b for them. */
static nb_comparison *prepare(nb_bench *b, const nb_alternative *alts, size_t n,
                              size_t rounds, nb_result **res)
{
    nb_comparison *c = nb_comparison_new(n, rounds);
    nb_config cfg;
    double resolution;
    size_t i;
    if (!c || nb_bench_reserve(b, n) != 0) {
        nb_comparison_free(c);
        return NULL;
    }
    memset(res, 0, n * sizeof(*res));
    resolution = (double)(b->resolution_ns ? b->resolution_ns : nb_clock_resolution_ns()) * 1e-9;
    cfg = b->cfg;
    cfg.epochs = rounds * NB_COMPARE_EPOCHS_PER_ROUND;
    for (i = 0; i < n; ++i) {
        cfg.name = (char *)alts[i].name;
        if (!(res[i] = nb_result_new(&cfg, resolution)))
            break;
        /* the comparison's figures go on the result (nb_result_comparison): the baseline's
         * name now, while failing still leaves nothing behind */
        res[i]->cmp.baseline = bb_malloc(strlen(alts[0].name) + 1);
        if (!res[i]->cmp.baseline)
            break;
        strcpy(res[i]->cmp.baseline, alts[0].name);
    }
    if (i < n) {
        for (i = 0; i < n; ++i)
            nb_result_free(res[i]);
        nb_comparison_free(c);
        return NULL;
    }
    return c;
}

/* A comparison that does not run: what applied to it applies no more. */
static nb_comparison *refuse(nb_bench *b)
{
    b->setup = NULL;
    b->setup_each = 0;
    b->batch_rejected = 0;
    return NULL;
}

nb_comparison *nb_compare(nb_bench *b, const nb_alternative *alts, size_t n)
{
    nb_result **res;
    nb_comparison *c;
    double *scratch;
    size_t i, r, rounds, block, *order;
    uint64_t iters;
    if (!b)
        return NULL;
    if (b->logic.state != NB_ST_IDLE) {
        /* from an op of b: the comparison or run in progress keeps its setup */
        nb_fail(b, "nb_compare: refused: the bench is running (called from one of its ops)");
        return NULL;
    }
    if (!alts || n < 2) {
        if (!alts)
            nb_fail(b, "nb_compare: alts is NULL");
        else
            nb_fail(b, "nb_compare: %zu alternative%s; a comparison needs at least 2", n,
                    n == 1 ? "" : "s");
        return refuse(b);
    }
    for (i = 0; i < n; ++i) {
        if (!alts[i].name) {
            nb_fail(b, "nb_compare: alternative %zu has no name", i);
            return refuse(b);
        }
        if (!alts[i].op && !alts[i].op_n) {
            nb_fail(b, "nb_compare: op is NULL (alternative %zu, '%s')", i, alts[i].name);
            return refuse(b);
        }
    }
    if (b->batch_rejected) {
        nb_fail(b, "nb_compare: refused after a rejected nb_batch (its rows would show per-op "
                "figures per %s)", b->cfg.unit);
        return refuse(b);
    }
    rounds = rounds_for(n, b->cfg.epochs);
    block = nb_compare_block(n);
    res = bb_malloc_array(n, sizeof(*res));
    order = bb_malloc_array(n, sizeof(*order));
    scratch = bb_malloc_array(rounds, sizeof(*scratch));
    c = res && order && scratch ? prepare(b, alts, n, rounds, res) : NULL;
    if (!c) {
        bb_free(res);
        bb_free(order);
        bb_free(scratch);
        nb_fail(b, "nb_compare: out of memory");
        return refuse(b);
    }

    /* from here b is busy: an op's nb_run or nb_compare of b is refused */
    nb_logic_compare_begin(b, b->resolution_ns ? b->resolution_ns : nb_clock_resolution_ns());
    if (b->cfg.performance_counters && !b->perf_opened) {
        b->perf_opened = 1;
        if (nb_perf_open_default(&b->perf) > 0)
            nb_perf_calibrate(&b->perf);
    }
    if (b->cfg.out) {
        /* the ops are called through pointers: the caller's optimization
         * does not decide whether they inline */
        nb_warnings_once(b->cfg.out, 1);
        if (b->cfg.performance_counters && !nb_perf_hardware_available(&b->perf))
            nb_perf_note_once(b->cfg.out, b->perf.first_errno);
    }
    if (b->cfg.warmup)
        for (i = 0; i < n; ++i)
            epoch(b, &alts[i], b->cfg.warmup);
    iters = b->cfg.epoch_iterations ? b->cfg.epoch_iterations
                                    : common_iterations(b, alts, n);
    c->iters = iters;
    for (r = 0; r < rounds; ++r) {
        size_t j;
        nb_logic_progress(b, "round", r + 1, rounds);
        for (j = 0; j < NB_COMPARE_EPOCHS_PER_ROUND; ++j) {
            nb_compare_order(n, (r + j) % block, order);
            for (i = 0; i < n; ++i) {
                nb_logic_measure_into(b, res[order[i]], iters);
                epoch(b, &alts[order[i]], iters);
            }
        }
    }
    nb_logic_progress_end(b);
    nb_logic_compare_end(b);
    b->setup = NULL;
    b->setup_each = 0;

    nb_comparison_reduce(c, res, scratch);
    for (i = 0; i < n; ++i) {
        nb_result_comparison *m = &res[i]->cmp;
        m->ratio = c->ratio[i].estimate;
        m->low = c->ratio[i].low;
        m->high = c->ratio[i].high;
        m->significant = c->ratio[i].significant;
        m->fastest = i == c->fastest;
        m->is_baseline = i == 0;
        nb_bench_append(b, res[i]);
        c->results[i] = res[i];
    }
    if (b->cfg.out && nb_table_comparison(b->cfg.out, c) != 0)
        nb_fail(b, "write to output failed: %s", strerror(errno ? errno : EIO));
    bb_free(res);
    bb_free(order);
    bb_free(scratch);
    return c;
}
