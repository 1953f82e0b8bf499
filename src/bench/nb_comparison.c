/* What nb_compare found: the round values of every alternative, their
 * medians and MdAPEs, the ratios to the baseline with their intervals, and
 * the accessors (nanobench.h). The measuring is nb_compare.c's. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"
#include "util/alloc.h"

#include <math.h>
#include <string.h>

nb_comparison *nb_comparison_new(size_t n, size_t rounds)
{
    nb_comparison *c = bb_malloc(sizeof(*c));
    if (!c)
        return NULL;
    memset(c, 0, sizeof(*c));
    c->n = n;
    c->rounds = rounds;
    c->ratio = bb_malloc_array(n, sizeof(*c->ratio));
    c->results = bb_malloc_array(n, sizeof(*c->results));
    /* the round values, then the medians and errs */
    c->value = bb_malloc_array(n, (rounds + 2) * sizeof(*c->value));
    if (!c->ratio || !c->results || !c->value) {
        nb_comparison_free(c);
        return NULL;
    }
    c->median = c->value + n * rounds;
    c->err = c->median + n;
    return c;
}

void nb_comparison_free(nb_comparison *c)
{
    if (!c)
        return;
    bb_free(c->value);
    bb_free(c->ratio);
    bb_free(c->results);
    bb_free(c);
}

size_t nb_comparison_count(const nb_comparison *c)
{
    return c ? c->n : 0;
}

size_t nb_comparison_rounds(const nb_comparison *c)
{
    return c ? c->rounds : 0;
}

uint64_t nb_comparison_iterations(const nb_comparison *c)
{
    return c ? c->iters : 0;
}

double nb_comparison_relative(const nb_comparison *c, size_t i, double *low, double *high)
{
    const nb_ratio *r = c && i < c->n ? &c->ratio[i] : NULL;
    if (low)
        *low = r ? r->low : NAN;
    if (high)
        *high = r ? r->high : NAN;
    return r ? r->estimate : NAN;
}

int nb_comparison_significant(const nb_comparison *c, size_t i)
{
    return c && i < c->n ? c->ratio[i].significant : 0;
}

size_t nb_comparison_fastest(const nb_comparison *c)
{
    return c ? c->fastest : 0;
}

const nb_result *nb_comparison_result(const nb_comparison *c, size_t i)
{
    return c && i < c->n ? c->results[i] : NULL;
}

double nb_comparison_time(const nb_comparison *c, size_t i, size_t round)
{
    return c && i < c->n && round < c->rounds ? c->value[i * c->rounds + round] : NAN;
}

void nb_comparison_summary(const nb_comparison *c, size_t i, double *median, double *err)
{
    *median = c && i < c->n ? c->median[i] : NAN;
    *err = c && i < c->n ? c->err[i] : NAN;
}

/* Round values, their medians and errs, ratios, significance and the
 * fastest, from the results' epochs (alternative i's epochs of round r are
 * r * NB_COMPARE_EPOCHS_PER_ROUND onwards: it runs once per row). */
void nb_comparison_reduce(nb_comparison *c, nb_result **res, double *scratch)
{
    size_t i, r, k;
    for (i = 0; i < c->n; ++i) {
        double *v = c->value + i * c->rounds;
        for (r = 0; r < c->rounds; ++r) {
            double best = INFINITY;
            for (k = 0; k < NB_COMPARE_EPOCHS_PER_ROUND; ++k) {
                const nb_epoch *e = &res[i]->epochs[r * NB_COMPARE_EPOCHS_PER_ROUND + k];
                double t = e->elapsed / (double)e->iters;
                best = t < best ? t : best;
            }
            v[r] = best;
        }
        memcpy(scratch, v, c->rounds * sizeof(*scratch));
        c->median[i] = nb_stats_median(scratch, c->rounds);
        c->err[i] = nb_stats_mdape(v, c->rounds, c->median[i], scratch);
    }
    c->ratio[0].estimate = c->ratio[0].low = c->ratio[0].high = 1;
    c->ratio[0].significant = 0;
    c->fastest = 0;
    for (i = 1; i < c->n; ++i) {
        /* -1 for a zero time (a clock that did not move): NaNs, not
         * significant, never the fastest */
        nb_stats_paired(c->value, c->value + i * c->rounds, c->rounds, c->n - 1, 0.95,
                        &c->ratio[i]);
        if (c->ratio[i].estimate > c->ratio[c->fastest].estimate)
            c->fastest = i;
    }
}
