/* The bench: configuration (nanobench's Config), setters, getters, and the
 * list of results it owns. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"
#include "util/alloc.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void nb_fail(nb_bench *b, const char *fmt, ...)
{
    va_list ap;
    if (!b)
        return;
    if (b->error == 0) {
        va_start(ap, fmt);
        vsnprintf(b->error_message, sizeof b->error_message, fmt, ap);
        va_end(ap);
    }
    b->error = -1;
}

const char *nb_get_error_message(const nb_bench *b)
{
    if (!b)
        return "no bench: nb_bench_new ran out of memory (or was not called)";
    return b->error ? b->error_message : "";
}

nb_bench *nb_clear_error(nb_bench *b)
{
    if (b) {
        b->error = 0;
        b->error_message[0] = '\0';
    }
    return b;
}

/* Replaces *slot with a copy of s; on failure keeps the old value and
 * records the error in b, in the name of the setter who. */
static void set_str(nb_bench *b, const char *who, char **slot, const char *s)
{
    char *p;
    if (!s)
        s = "";
    if (*slot && strcmp(*slot, s) == 0)
        return;
    p = nb_str_dup(s);
    if (!p) {
        nb_fail(b, "%s: out of memory", who);
        return;
    }
    bb_free(*slot);
    *slot = p;
}

nb_bench *nb_bench_new(void)
{
    nb_bench *b = bb_malloc(sizeof(*b));
    if (!b)
        return NULL;
    memset(b, 0, sizeof(*b));
    if (nb_config_copy(&b->cfg, &nb_config_defaults) != 0) {
        bb_free(b);
        return NULL;
    }
    b->cfg.out = stdout;
    b->perf.leader = -1;
    b->logic.rng = UINT64_C(0x9e3779b97f4a7c15);
    return b;
}

void nb_bench_free(nb_bench *b)
{
    size_t i;
    if (!b)
        return;
    for (i = 0; i < b->result_count; ++i)
        nb_result_free(b->results[i]);
    bb_free(b->results);
    nb_result_free(b->logic.result);
    if (b->perf_opened)
        nb_perf_close(&b->perf);
    nb_config_free(&b->cfg);
    bb_free(b);
}

nb_bench *nb_title(nb_bench *b, const char *title)
{
    if (b)
        set_str(b, "nb_title", &b->cfg.title, title);
    return b;
}

nb_bench *nb_name(nb_bench *b, const char *name)
{
    if (b)
        set_str(b, "nb_name", &b->cfg.name, name);
    return b;
}

nb_bench *nb_unit(nb_bench *b, const char *unit)
{
    if (b)
        set_str(b, "nb_unit", &b->cfg.unit, unit);
    return b;
}

nb_bench *nb_unstable_advice(nb_bench *b, const char *advice)
{
    if (b)
        set_str(b, "nb_unstable_advice", &b->cfg.advice, advice);
    return b;
}

const char *nb_get_unstable_advice(const nb_bench *b)
{
    return b ? b->cfg.advice : nb_config_defaults.advice;
}

nb_bench *nb_batch(nb_bench *b, double batch)
{
    if (!b)
        return b;
    if (!(batch > 0) || !isfinite(batch)) {
        /* per-unit columns would be "-" or 0; and the unit set for this batch
         * would head per-op figures, so the next run is refused */
        nb_fail(b, "nb_batch: %g is not a positive finite batch", batch);
        b->batch_rejected = 1;
        return b;
    }
    b->cfg.batch = batch;
    b->batch_rejected = 0;
    return b;
}

nb_bench *nb_relative(nb_bench *b, int on)
{
    if (b)
        b->cfg.relative = on != 0;
    return b;
}

nb_bench *nb_performance_counters(nb_bench *b, int on)
{
    if (b)
        b->cfg.performance_counters = on != 0;
    return b;
}

nb_bench *nb_cycle_probe(nb_bench *b, int on)
{
    if (b)
        b->cfg.cycle_probe = on != 0;
    return b;
}

nb_bench *nb_output(nb_bench *b, FILE *out)
{
    if (b)
        b->cfg.out = out;
    return b;
}

nb_bench *nb_epochs(nb_bench *b, size_t epochs)
{
    if (b)
        b->cfg.epochs = epochs ? epochs : 1;
    return b;
}

nb_bench *nb_epoch_iterations(nb_bench *b, uint64_t iters)
{
    if (b)
        b->cfg.epoch_iterations = iters;
    return b;
}

nb_bench *nb_min_epoch_iterations(nb_bench *b, uint64_t iters)
{
    if (b)
        b->cfg.min_epoch_iterations = iters ? iters : 1;
    return b;
}

nb_bench *nb_warmup(nb_bench *b, uint64_t iters)
{
    if (b)
        b->cfg.warmup = iters;
    return b;
}

nb_bench *nb_min_epoch_time(nb_bench *b, uint64_t ns)
{
    if (b)
        b->cfg.min_epoch_time = ns;
    return b;
}

nb_bench *nb_max_epoch_time(nb_bench *b, uint64_t ns)
{
    if (b)
        b->cfg.max_epoch_time = ns;
    return b;
}

nb_bench *nb_complexity_n(nb_bench *b, double n)
{
    /* Only a size Big-O can use counts as set; anything else is stored as
     * -1, so that "negative when not set" holds for the getters and
     * {{complexityN}} alike. */
    if (b)
        b->cfg.complexity_n = n > 0 && isfinite(n) ? n : -1.0;
    return b;
}

nb_bench *nb_time_unit(nb_bench *b, double seconds, const char *name)
{
    if (!b)
        return b;
    if (!(seconds > 0) || !isfinite(seconds)) {
        nb_fail(b, "nb_time_unit: %g is not a positive finite number of seconds", seconds);
        return b;
    }
    set_str(b, "nb_time_unit", &b->cfg.time_unit_name, name);
    b->cfg.time_unit = seconds;
    return b;
}

nb_bench *nb_clock_resolution_multiple(nb_bench *b, size_t multiple)
{
    if (b)
        b->cfg.clock_resolution_multiple = multiple;
    return b;
}

nb_bench *nb_context(nb_bench *b, const char *key, const char *value)
{
    size_t i;
    nb_context_pair *grown;
    char *k, *v;
    if (!b)
        return b;
    if (!key) {
        nb_fail(b, "nb_context: key is NULL");
        return b;
    }
    if (!value)
        value = "";
    for (i = 0; i < b->cfg.context_count; ++i) {
        if (strcmp(b->cfg.context[i].key, key) == 0) {
            set_str(b, "nb_context", &b->cfg.context[i].value, value);
            return b;
        }
    }
    k = nb_str_dup(key);
    v = nb_str_dup(value);
    grown = (k && v) ? bb_realloc(b->cfg.context,
                                    (b->cfg.context_count + 1) * sizeof(*grown)) : NULL;
    if (!grown) {
        bb_free(k);
        bb_free(v);
        nb_fail(b, "nb_context: out of memory");
        return b;
    }
    grown[b->cfg.context_count].key = k;
    grown[b->cfg.context_count].value = v;
    b->cfg.context = grown;
    b->cfg.context_count++;
    return b;
}

nb_bench *nb_clear_context(nb_bench *b)
{
    size_t i;
    if (!b)
        return b;
    for (i = 0; i < b->cfg.context_count; ++i) {
        bb_free(b->cfg.context[i].key);
        bb_free(b->cfg.context[i].value);
    }
    bb_free(b->cfg.context);
    b->cfg.context = NULL;
    b->cfg.context_count = 0;
    return b;
}

nb_bench *nb_show_column(nb_bench *b, nb_column_id c, int on)
{
    if (!b)
        return b;
    if ((unsigned)c >= NB_COLUMN_COUNT) {
        nb_fail(b, "nb_show_column: %d is not a column", (int)c);
        return b;
    }
    if (on)
        b->cfg.hidden &= ~(1u << c);
    else
        b->cfg.hidden |= 1u << c;
    return b;
}

nb_bench *nb_show_context(nb_bench *b, int on)
{
    if (b)
        b->cfg.show_context = on != 0;
    return b;
}

nb_bench *nb_bench_copy(const nb_bench *b)
{
    nb_bench *c;
    if (!b || !(c = nb_bench_new()))
        return NULL;
    nb_config_free(&c->cfg);
    if (nb_config_copy(&c->cfg, &b->cfg) != 0) {
        nb_bench_free(c);   /* its config was left empty: nothing to free twice */
        return NULL;
    }
    c->cfg.out = b->cfg.out;
    c->clock = b->clock;            /* a test's clock and probe go with it */
    c->clock_ctx = b->clock_ctx;
    c->resolution_ns = b->resolution_ns;
    c->probe = b->probe;
    c->probe_ctx = b->probe_ctx;
    c->progress = b->progress;
    return c;
}

/* The getters: b's settings, or the defaults for a NULL b. */
static const nb_config *cfg_of(const nb_bench *b) { return b ? &b->cfg : &nb_config_defaults; }

const char *nb_get_title(const nb_bench *b) { return cfg_of(b)->title; }
const char *nb_get_name(const nb_bench *b) { return cfg_of(b)->name; }
const char *nb_get_unit(const nb_bench *b) { return cfg_of(b)->unit; }
double nb_get_batch(const nb_bench *b) { return cfg_of(b)->batch; }
int nb_get_relative(const nb_bench *b) { return cfg_of(b)->relative; }
int nb_get_performance_counters(const nb_bench *b) { return cfg_of(b)->performance_counters; }
int nb_get_cycle_probe(const nb_bench *b) { return cfg_of(b)->cycle_probe; }
FILE *nb_get_output(const nb_bench *b) { return cfg_of(b)->out; }
size_t nb_get_epochs(const nb_bench *b) { return cfg_of(b)->epochs; }
uint64_t nb_get_epoch_iterations(const nb_bench *b) { return cfg_of(b)->epoch_iterations; }
uint64_t nb_get_min_epoch_iterations(const nb_bench *b) { return cfg_of(b)->min_epoch_iterations; }
uint64_t nb_get_warmup(const nb_bench *b) { return cfg_of(b)->warmup; }
uint64_t nb_get_min_epoch_time(const nb_bench *b) { return cfg_of(b)->min_epoch_time; }
uint64_t nb_get_max_epoch_time(const nb_bench *b) { return cfg_of(b)->max_epoch_time; }
double nb_get_complexity_n(const nb_bench *b) { return cfg_of(b)->complexity_n; }
double nb_get_time_unit(const nb_bench *b) { return cfg_of(b)->time_unit; }
const char *nb_get_time_unit_name(const nb_bench *b) { return cfg_of(b)->time_unit_name; }
size_t nb_get_clock_resolution_multiple(const nb_bench *b)
{
    return cfg_of(b)->clock_resolution_multiple;
}
int nb_get_error(const nb_bench *b) { return b ? b->error : -1; }
int nb_get_show_column(const nb_bench *b, nb_column_id c)
{
    return (unsigned)c < NB_COLUMN_COUNT && !((cfg_of(b)->hidden >> c) & 1u);
}
int nb_get_show_context(const nb_bench *b) { return cfg_of(b)->show_context; }

const char *nb_get_context(const nb_bench *b, const char *key)
{
    size_t i;
    if (!b || !key)
        return NULL;
    for (i = 0; i < b->cfg.context_count; ++i)
        if (strcmp(b->cfg.context[i].key, key) == 0)
            return b->cfg.context[i].value;
    return NULL;
}

size_t nb_result_count(const nb_bench *b)
{
    return b ? b->result_count : 0;
}

const nb_result *nb_result_at(const nb_bench *b, size_t i)
{
    return b && i < b->result_count ? b->results[i] : NULL;
}

int nb_bench_reserve(nb_bench *b, size_t more)
{
    size_t cap = b->result_cap ? b->result_cap : 8;
    nb_result **grown;
    if (more > SIZE_MAX / sizeof(*grown) / 2 - b->result_count)
        return -1;
    while (cap < b->result_count + more)
        cap *= 2;
    if (cap == b->result_cap)
        return 0;
    grown = bb_realloc(b->results, cap * sizeof(*grown));
    if (!grown)
        return -1;
    b->results = grown;
    b->result_cap = cap;
    return 0;
}

void nb_bench_append(nb_bench *b, nb_result *r)
{
    /* The "relative" column's reference is the first result of r's table:
     * of the unbroken run of results before r with r's title and unit
     * (nanobench forgets its results whenever either changes, so a table
     * that comes back after another one starts a new reference). */
    if (b->result_count == 0
        || strcmp(b->results[b->result_count - 1]->cfg.title, r->cfg.title) != 0
        || strcmp(b->results[b->result_count - 1]->cfg.unit, r->cfg.unit) != 0)
        b->table_start = b->result_count;
    b->results[b->result_count++] = r;
}

nb_bench *nb_setup(nb_bench *b, void (*setup)(void *arg), void *arg)
{
    if (b) {
        b->setup = setup;
        b->setup_arg = arg;
        b->setup_each = 0;
    }
    return b;
}

nb_bench *nb_setup_each(nb_bench *b, void (*setup)(void *arg), void *arg)
{
    if (b) {
        b->setup = setup;
        b->setup_arg = arg;
        b->setup_each = setup != NULL;
    }
    return b;
}

nb_bench *nb_configure(nb_bench *b, const nb_spec *s)
{
    if (!b || !s)
        return b;
    if (s->title)
        nb_title(b, s->title);
    if (s->name)
        nb_name(b, s->name);
    if (s->unit)
        nb_unit(b, s->unit);
    if (s->batch != 0)
        nb_batch(b, s->batch);
    if (s->relative)
        nb_relative(b, s->relative > 0);
    if (s->epochs)
        nb_epochs(b, s->epochs);
    if (s->epoch_iterations)
        nb_epoch_iterations(b, s->epoch_iterations);
    if (s->min_epoch_iterations)
        nb_min_epoch_iterations(b, s->min_epoch_iterations);
    if (s->warmup)
        nb_warmup(b, s->warmup);
    if (s->min_epoch_time)
        nb_min_epoch_time(b, s->min_epoch_time);
    if (s->max_epoch_time)
        nb_max_epoch_time(b, s->max_epoch_time);
    if (s->complexity_n != 0)
        nb_complexity_n(b, s->complexity_n);
    if (s->setup)
        nb_setup(b, s->setup, s->arg);
    if (s->setup_each)
        nb_setup_each(b, s->setup_each, s->arg);
    return b;
}

/* The asm-less fallback of nb_do_not_optimize_away: an external call whose
 * body the optimizer of the caller cannot see. */
void nb_do_not_optimize_sink(const volatile void *p)
{
    (void)p;
}
