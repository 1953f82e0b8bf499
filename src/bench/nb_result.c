/* Results (nanobench's Result): every epoch kept, in the order it ran, with
 * a snapshot of the configuration it was measured with; statistics are
 * computed on demand from the epochs. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"
#include "util/alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

nb_result *nb_result_new(const nb_config *cfg, double resolution)
{
    nb_result *r = bb_malloc(sizeof(*r));
    if (!r)
        return NULL;
    memset(r, 0, sizeof(*r));
    if (nb_config_copy(&r->cfg, cfg) != 0) {
        bb_free(r);
        return NULL;
    }
    r->cfg.out = NULL;
    r->cap = cfg->epochs ? cfg->epochs : 1;
    r->epochs = bb_malloc_array(r->cap, sizeof(*r->epochs));
    if (!r->epochs) {
        nb_config_free(&r->cfg);
        bb_free(r);
        return NULL;
    }
    r->clock_resolution = resolution;
    return r;
}

void nb_result_free(nb_result *r)
{
    if (!r)
        return;
    nb_config_free(&r->cfg);
    bb_free(r->cmp.baseline);
    bb_free(r->epochs);
    bb_free(r);
}

int nb_result_has(const nb_result *r, nb_measure m)
{
    if (!r || r->count == 0 || (unsigned)m >= NB_MEASURE_COUNT)
        return 0;
    if (m == NB_ELAPSED || m == NB_ITERATIONS)
        return 1;
    return (r->has >> m) & 1u;
}

static double epoch_value(const nb_epoch *e, nb_measure m)
{
    double iters = (double)e->iters;
    switch (m) {
    case NB_ELAPSED:
        return e->elapsed / iters;
    case NB_ITERATIONS:
        return iters;
    default:
        return e->counters[m] / iters;
    }
}

double nb_result_epoch(const nb_result *r, nb_measure m, size_t i)
{
    if (!nb_result_has(r, m) || i >= r->count)
        return NAN;
    return epoch_value(&r->epochs[i], m);
}

/* The median, the MdAPE or the lower quartile of m's epoch values, computed
 * in a scratch array: on the stack for the usual epoch counts. */
#define NB_STACK_EPOCHS 64
enum { WANT_MEDIAN, WANT_ERR, WANT_Q1 };

static double with_values(const nb_result *r, nb_measure m, int want)
{
    double stack[2 * NB_STACK_EPOCHS];
    double *v = stack, res;
    size_t i, n;
    if (!nb_result_has(r, m))
        return NAN;
    n = r->count;
    if (n > NB_STACK_EPOCHS) {
        v = bb_malloc_array(n, 2 * sizeof(double));
        if (!v)
            return NAN;
    }
    for (i = 0; i < n; ++i)
        v[i] = epoch_value(&r->epochs[i], m);
    res = nb_stats_median(v, n); /* sorts v */
    if (want == WANT_ERR) {
        res = nb_stats_mdape(v, n, res, v + n);
    } else if (want == WANT_Q1) {
        /* a quarter of the way from the smallest to the largest, between the
         * two values there in proportion (R's and numpy's default quantile) */
        double h = (double)(n - 1) * 0.25;
        size_t lo = (size_t)h;
        res = lo + 1 < n ? v[lo] + (h - (double)lo) * (v[lo + 1] - v[lo]) : v[lo];
    }
    if (v != stack)
        bb_free(v);
    return res;
}

double nb_result_median(const nb_result *r, nb_measure m)
{
    return with_values(r, m, WANT_MEDIAN);
}

double nb_result_err(const nb_result *r, nb_measure m)
{
    return with_values(r, m, WANT_ERR);
}

double nb_result_lower_quartile(const nb_result *r, nb_measure m)
{
    return with_values(r, m, WANT_Q1);
}

/* The smallest (sign 1) or largest (sign -1) value of m over the epochs. */
static double extreme(const nb_result *r, nb_measure m, double sign)
{
    size_t i;
    double best;
    if (!nb_result_has(r, m))
        return NAN;
    best = epoch_value(&r->epochs[0], m);
    for (i = 1; i < r->count; ++i) {
        double x = epoch_value(&r->epochs[i], m);
        if (sign * x < sign * best)
            best = x;
    }
    return best;
}

double nb_result_minimum(const nb_result *r, nb_measure m)
{
    return extreme(r, m, 1.0);
}

double nb_result_maximum(const nb_result *r, nb_measure m)
{
    return extreme(r, m, -1.0);
}

double nb_result_sum(const nb_result *r, nb_measure m)
{
    size_t i;
    double s = 0;
    if (!nb_result_has(r, m))
        return NAN;
    for (i = 0; i < r->count; ++i)
        s += epoch_value(&r->epochs[i], m);
    return s;
}

double nb_result_average(const nb_result *r, nb_measure m)
{
    if (!nb_result_has(r, m))
        return NAN;
    return nb_result_sum(r, m) / (double)r->count;
}

double nb_result_sum_product(const nb_result *r, nb_measure a, nb_measure b)
{
    size_t i;
    double s = 0;
    if (!nb_result_has(r, a) || !nb_result_has(r, b))
        return NAN;
    for (i = 0; i < r->count; ++i)
        s += epoch_value(&r->epochs[i], a) * epoch_value(&r->epochs[i], b);
    return s;
}

/* For a NULL r (nb_result_at past the end): NULL strings, NaN, 0. */
const char *nb_result_name(const nb_result *r) { return r ? r->cfg.name : NULL; }
const char *nb_result_title(const nb_result *r) { return r ? r->cfg.title : NULL; }
const char *nb_result_unit(const nb_result *r) { return r ? r->cfg.unit : NULL; }
double nb_result_batch(const nb_result *r) { return r ? r->cfg.batch : NAN; }
double nb_result_complexity_n(const nb_result *r) { return r ? r->cfg.complexity_n : NAN; }
size_t nb_result_epoch_count(const nb_result *r) { return r ? r->count : 0; }

/* v with 3 significant digits and a '.' whatever the locale says. */
static void format3(char *buf, size_t size, double v)
{
    snprintf(buf, size, "%.3g", v);
    nb_c_decimal_point(buf);
}

int nb_result_implausible(const nb_result *r, char *why, size_t size)
{
    double per_iter, bytes_per_s;
    char value[32], ghz[32];
    const char *u;

    if (why && size)
        why[0] = '\0';
    if (!r || r->count == 0 || r->counted)
        return 0; /* counted under callgrind: the times are the simulator's, not a CPU's */
    per_iter = nb_result_median(r, NB_ELAPSED);
    if (!(per_iter >= 0))
        return 0;
    format3(ghz, sizeof ghz, NB_MAX_CLOCK_HZ * 1e-9);
    if (per_iter < 0.25 / NB_MAX_CLOCK_HZ) {
        format3(value, sizeof value, per_iter * 1e9);
        if (why && size)
            snprintf(why, size, "%s ns an iteration is under a quarter of a clock cycle at "
                     "%s GHz: was the op's work optimized away?", value, ghz);
        return 1;
    }
    u = r->cfg.unit ? r->cfg.unit : "";
    if (strcmp(u, "byte") != 0 && strcmp(u, "bytes") != 0 && strcmp(u, "B") != 0)
        return 0;
    bytes_per_s = r->cfg.batch / per_iter;
    if (bytes_per_s > NB_MAX_BYTES_PER_CYCLE * NB_MAX_CLOCK_HZ) {
        format3(value, sizeof value, bytes_per_s * 1e-9);
        if (why && size)
            snprintf(why, size, "%s GB/s is more than %d bytes a cycle at %s GHz, beyond "
                     "what a core moves: was the op's work optimized away?", value,
                     (int)NB_MAX_BYTES_PER_CYCLE, ghz);
        return 1;
    }
    return 0;
}

int nb_result_config(const nb_result *r, const char *tag, double *value)
{
    const nb_config *c;
    double v;
    if (!r || !tag || !value)
        return -1;
    c = &r->cfg;
    if (strcmp(tag, "epochs") == 0)
        v = (double)c->epochs;
    else if (strcmp(tag, "clockResolution") == 0)
        v = r->clock_resolution;
    else if (strcmp(tag, "clockResolutionMultiple") == 0)
        v = (double)c->clock_resolution_multiple;
    else if (strcmp(tag, "maxEpochTime") == 0)
        v = (double)c->max_epoch_time * 1e-9;
    else if (strcmp(tag, "minEpochTime") == 0)
        v = (double)c->min_epoch_time * 1e-9;
    else if (strcmp(tag, "minEpochIterations") == 0)
        v = (double)c->min_epoch_iterations;
    else if (strcmp(tag, "epochIterations") == 0)
        v = (double)c->epoch_iterations;
    else if (strcmp(tag, "warmup") == 0)
        v = (double)c->warmup;
    else if (strcmp(tag, "relative") == 0)
        v = c->relative;
    else if (strcmp(tag, "batch") == 0)
        v = c->batch;
    else if (strcmp(tag, "complexityN") == 0)
        v = c->complexity_n;
    else
        return -1;
    *value = v;
    return 0;
}

const char *nb_result_context_len(const nb_result *r, const char *key, size_t len)
{
    size_t i;
    if (!r || !key)
        return NULL;
    for (i = 0; i < r->cfg.context_count; ++i)
        if (strlen(r->cfg.context[i].key) == len && memcmp(r->cfg.context[i].key, key, len) == 0)
            return r->cfg.context[i].value;
    return NULL;
}

const char *nb_result_context(const nb_result *r, const char *key)
{
    return key ? nb_result_context_len(r, key, strlen(key)) : NULL;
}

static const char *const measure_names[NB_MEASURE_COUNT] = {
    "elapsed", "iterations", "pagefaults", "cpucycles", "contextswitches",
    "instructions", "branchinstructions", "branchmisses", "estcycles"
};

const char *nb_measure_name(nb_measure m)
{
    return (unsigned)m < NB_MEASURE_COUNT ? measure_names[m] : NULL;
}

int nb_measure_from_name(const char *name, nb_measure *m)
{
    int i;
    if (!name || !m)
        return -1;
    for (i = 0; i < NB_MEASURE_COUNT; ++i) {
        if (strcmp(name, measure_names[i]) == 0) {
            *m = (nb_measure)i;
            return 0;
        }
    }
    return -1;
}
