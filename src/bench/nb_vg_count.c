/* Counting instructions under valgrind's callgrind instead of timing: the
 * runs' side (the dump files are read by nb_vg_dump.c).
 *
 * When the process runs under callgrind (a client request that only
 * callgrind answers says so), nb_run's epochs are wrapped in callgrind's
 * client requests: zero the costs and switch collection on just before the
 * loop, switch it off and dump the costs just after. callgrind writes each
 * dump to a file of its own ("<out-file>.<k>", k counting the process's
 * dumps from 1), and the harness reads the totals back from it: no client
 * request returns a count.
 *
 * An epoch's count holds the loop's n iterations plus a fixed cost (the
 * client requests' tails, the loop's set-up: about 20 instructions). To
 * divide the fixed cost out exactly, epochs come in pairs, n then 2n
 * iterations, and the kept epoch is their difference: n iterations, no
 * fixed cost. The first epoch (the warm-up's iterations, or one) is a probe,
 * never kept: it runs the op's first call (lazy set-up) and sizes n so that
 * an epoch holds about NB_VG_TARGET instructions. Every step is a function
 * of counts, not of time, so two runs of one binary run the same epochs. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"
#include "util/alloc.h"
#include "util/spinlock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_VALGRIND_CALLGRIND_H
#include <valgrind/callgrind.h>
#include <valgrind/valgrind.h>
#endif

/* Instructions an epoch is sized to (a short epoch; a long one runs twice
 * that): callgrind runs about 30-60 million a second, so a pair takes tens
 * of milliseconds and a benchmark of 11 pairs well under a second. */
#define NB_VG_TARGET 300000.0

enum { NB_VG_PROBE, NB_VG_SHORT, NB_VG_LONG };

int nb_valgrind_supported(void)
{
#ifdef HAVE_VALGRIND_CALLGRIND_H
    return 1;
#else
    return 0;
#endif
}

#ifdef HAVE_VALGRIND_CALLGRIND_H

/* 1 under callgrind, 0 elsewhere, -1 until asked. ZERO_STATS is handled
 * (and answered 0) by callgrind alone; natively and under other tools the
 * request returns the default given here. Zeroing costs at that point
 * does no harm: nothing is collected outside an epoch. */
static int under_callgrind = -1;
/* Dumps this process asked for; callgrind numbers its files the same way. */
static unsigned long dumps;
/* Collection was checked (and switched off when the user left it on). */
static int collect_checked;
static char lock;

int nb_valgrind_counting(void)
{
    if (under_callgrind < 0) {
        unsigned long ret = 1;
        if (RUNNING_ON_VALGRIND)
            ret = VALGRIND_DO_CLIENT_REQUEST_EXPR(1, VG_USERREQ__ZERO_STATS, 0, 0, 0, 0, 0);
        under_callgrind = ret == 0;
    }
    return under_callgrind;
}

/* The file callgrind writes dump k to: NANOBENCH_CALLGRIND_OUT (what was
 * given to --callgrind-out-file; %p stands for the process id, as there) or
 * callgrind's default, callgrind.out.%p; then ".k". 0, or -1 when too long. */
static int dump_path(char *buf, size_t cap, unsigned long k)
{
    const char *base = getenv("NANOBENCH_CALLGRIND_OUT");
    size_t len = 0;
    if (!base || !*base)
        base = "callgrind.out.%p";
    for (; *base; ++base) {
        int w;
        if (base[0] == '%' && base[1] == 'p') {
            w = snprintf(buf + len, cap - len, "%ld", (long)getpid());
            ++base;
        } else {
            w = snprintf(buf + len, cap - len, "%c", *base);
        }
        if (w < 0 || (size_t)w >= cap - len)
            return -1;
        len += (size_t)w;
    }
    return (size_t)snprintf(buf + len, cap - len, ".%lu", k) < cap - len ? 0 : -1;
}

/* Dumps the costs collected since the last zero and reads them back; 0, or
 * -1 when the dump file cannot be read (counts then invalid). */
static int dump(const char *name, double counts[NB_MEASURE_COUNT], unsigned *has)
{
    char path[NB_VG_PATH_MAX], trigger[160];
    unsigned long k;
    bb_spin_lock(&lock);
    k = ++dumps;
    bb_spin_unlock(&lock);
    nb_vg_trigger_text(trigger, sizeof trigger, k, name);
    CALLGRIND_DUMP_STATS_AT(trigger);
    if (dump_path(path, sizeof path, k) != 0)
        return -1;
    return nb_vg_read_dump(path, trigger, counts, has);
}

/* Once per process: callgrind collects from the start unless told
 * --collect-atstart=no; then the first toggle would switch it off. An empty
 * dump says which: anything in it was collected between two requests. */
static void check_collect(const char *name)
{
    double counts[NB_MEASURE_COUNT];
    unsigned has = 0;
    if (collect_checked)
        return;
    collect_checked = 1;
    CALLGRIND_ZERO_STATS;
    if (dump(name, counts, &has) == 0 && (has & (1u << NB_INSTRUCTIONS))
        && counts[NB_INSTRUCTIONS] > 0)
        CALLGRIND_TOGGLE_COLLECT;
}

int nb_vg_start(nb_bench *b)
{
    nb_logic *L = &b->logic;
    if (!nb_valgrind_counting())
        return 0;
    check_collect(b->cfg.name);
    memset(&L->vg, 0, sizeof L->vg);
    L->result->counted = 1;
    L->vg.phase = NB_VG_PROBE;
    L->state = NB_ST_VALGRIND;
    L->n = b->cfg.warmup ? b->cfg.warmup : 1;
    return 1;
}

void nb_vg_epoch_begin(nb_bench *b)
{
    b->logic.vg.t0 = nb_clock_now_ns();
    CALLGRIND_ZERO_STATS;
    CALLGRIND_TOGGLE_COLLECT;
}

/* Iterations of a short epoch, from the probe's count: the user's epoch
 * iterations when set, else enough for NB_VG_TARGET instructions. */
static uint64_t short_size(const nb_bench *b, const double *counts, unsigned has)
{
    double per, n;
    if (b->cfg.epoch_iterations)
        return b->cfg.epoch_iterations;
    if (!(has & (1u << NB_INSTRUCTIONS)))
        return 1;
    per = counts[NB_INSTRUCTIONS] / (double)b->logic.n;
    n = per > 0 ? ceil(NB_VG_TARGET / per) : NB_VG_TARGET;
    return n < 1 ? 1 : (uint64_t)n;
}

/* Keeps the difference of a pair: n iterations without the fixed cost. */
static void keep_pair(nb_bench *b, const double *counts, unsigned has, uint64_t long_ns)
{
    nb_logic *L = &b->logic;
    nb_result *r = L->result;
    nb_epoch *e = &r->epochs[r->count];
    unsigned valid = has & L->vg.short_has;
    int m;
    e->iters = L->vg.n;
    /* The simulator's time, kept for the time columns: half the long epoch's (the
     * difference of the two could come out 0 or less on a loaded machine). */
    e->elapsed = (double)long_ns * 0.5e-9;
    for (m = 0; m < NB_MEASURE_COUNT; ++m) {
        e->counters[m] = NAN;
        if (valid & (1u << m))
            e->counters[m] = counts[m] - L->vg.short_counts[m];
    }
    /* The simulated predictor's state differs between the two epochs, so
     * their misses can differ by a few the wrong way round. */
    if ((valid & (1u << NB_BRANCH_MISSES)) && e->counters[NB_BRANCH_MISSES] < 0)
        e->counters[NB_BRANCH_MISSES] = 0;
    r->has = r->count == 0 ? valid : (r->has & valid);
    r->count++;
}

void nb_vg_epoch_end(nb_bench *b)
{
    nb_logic *L = &b->logic;
    double counts[NB_MEASURE_COUNT];
    unsigned has = 0;
    uint64_t ns;
    CALLGRIND_TOGGLE_COLLECT;
    ns = nb_clock_now_ns() - L->vg.t0;
    if (dump(b->cfg.name, counts, &has) != 0)
        has = 0;
    switch (L->vg.phase) {
    case NB_VG_PROBE:
        L->result->discarded++;
        L->vg.n = short_size(b, counts, has);
        L->vg.phase = NB_VG_SHORT;
        L->n = L->vg.n;
        return;
    case NB_VG_SHORT:
        memcpy(L->vg.short_counts, counts, sizeof counts);
        L->vg.short_has = has;
        L->vg.phase = NB_VG_LONG;
        L->n = 2 * L->vg.n;
        return;
    default:
        keep_pair(b, counts, has, ns);
        L->vg.phase = NB_VG_SHORT;
        L->n = L->vg.n;
        if (L->result->count >= L->result->cap) {
            L->state = NB_ST_DONE;
            L->n = 0;
        }
        return;
    }
}

#else /* !HAVE_VALGRIND_CALLGRIND_H */

int nb_valgrind_counting(void)
{
    return 0;
}

int nb_vg_start(nb_bench *b)
{
    (void)b;
    return 0;
}

void nb_vg_epoch_begin(nb_bench *b)
{
    (void)b;
}

void nb_vg_epoch_end(nb_bench *b)
{
    (void)b;
}

#endif

