/* The test hooks (nb_test_hooks.h): a fake clock and probe for a bench, a
 * look at what a run did, and results built by hand for the table's golden
 * tests. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"

#include <math.h>

void nb_test_set_clock(nb_bench *b, nb_clock_fn fn, void *ctx, uint64_t resolution_ns)
{
    if (!b)
        return;
    b->clock = fn;
    b->clock_ctx = ctx;
    b->resolution_ns = resolution_ns;
}

void nb_test_set_probe(nb_bench *b, double (*fn)(void *ctx), void *ctx)
{
    if (!b)
        return;
    b->probe = fn;
    b->probe_ctx = ctx;
}

void nb_test_set_progress(nb_bench *b, FILE *f)
{
    if (b)
        b->progress = f;
}

uint64_t nb_test_target(const nb_bench *b, uint64_t resolution_ns)
{
    return b ? nb_logic_target(&b->cfg, resolution_ns) : 0;
}

uint64_t nb_test_iterations(const nb_bench *b)
{
    return b && b->logic.state != NB_ST_IDLE ? b->logic.n : 0;
}

int nb_test_counting(const nb_bench *b, nb_measure m)
{
    return b ? nb_perf_has(&b->perf, m) : 0;
}

int nb_test_counter_errno(const nb_bench *b)
{
    return b ? b->perf.first_errno : 0;
}

size_t nb_test_counters(const nb_bench *b)
{
    return b ? b->perf.count : 0;
}

uint64_t nb_test_discarded(const nb_result *r)
{
    return r ? r->discarded : 0;
}

int nb_test_overflowed(const nb_result *r)
{
    return r ? r->overflow : 0;
}

double nb_test_epoch_total(const nb_result *r, nb_measure m, size_t i)
{
    const nb_epoch *e;
    if (!r || i >= r->count || (unsigned)m >= NB_MEASURE_COUNT)
        return NAN;
    e = &r->epochs[i];
    if (m == NB_ELAPSED)
        return e->elapsed;
    if (m == NB_ITERATIONS)
        return (double)e->iters;
    return e->counters[m];
}

nb_result *nb_test_result_new(const nb_bench *b)
{
    return b ? nb_result_new(&b->cfg, 20e-9) : NULL;
}

void nb_test_result_free(nb_result *r)
{
    nb_result_free(r);
}

int nb_test_result_add(nb_result *r, uint64_t iters, double elapsed)
{
    nb_epoch *e;
    int m;
    if (!r || r->count >= r->cap)
        return -1;
    e = &r->epochs[r->count++];
    e->iters = iters;
    e->elapsed = elapsed;
    for (m = 0; m < NB_MEASURE_COUNT; ++m)
        e->counters[m] = NAN;
    r->has = 0;
    return 0;
}

void nb_test_result_set(nb_result *r, nb_measure m, size_t i, double total)
{
    size_t k;
    int all = 1;
    if (!r || i >= r->count || m < NB_PAGE_FAULTS || (unsigned)m >= NB_MEASURE_COUNT)
        return;
    r->epochs[i].counters[m] = total;
    for (k = 0; k < r->count; ++k)
        all &= !isnan(r->epochs[k].counters[m]);
    if (all)
        r->has |= 1u << m;
    else
        r->has &= ~(1u << m);
}

void nb_test_result_overflow(nb_result *r)
{
    if (r) {
        r->count = 0;
        r->overflow = 1;
    }
}

void nb_test_result_counted(nb_result *r)
{
    if (r)
        r->counted = 1;
}
