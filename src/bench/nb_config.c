/* The configuration (nanobench's Config): nanobench's defaults, and the deep
 * copy a result keeps of the settings it was measured with. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"
#include "util/alloc.h"

#include <string.h>

char *nb_str_dup(const char *s)
{
    size_t len = strlen(s);
    char *p = bb_malloc(len + 1);
    if (p)
        memcpy(p, s, len + 1);
    return p;
}

void nb_config_free(nb_config *cfg)
{
    size_t i;
    bb_free(cfg->title);
    bb_free(cfg->name);
    bb_free(cfg->unit);
    bb_free(cfg->time_unit_name);
    bb_free(cfg->advice);
    for (i = 0; i < cfg->context_count; ++i) {
        bb_free(cfg->context[i].key);
        bb_free(cfg->context[i].value);
    }
    bb_free(cfg->context);
    memset(cfg, 0, sizeof(*cfg));
}

int nb_config_copy(nb_config *dst, const nb_config *src)
{
    size_t i;
    *dst = *src;
    dst->title = dst->name = dst->unit = dst->time_unit_name = dst->advice = NULL;
    dst->context = NULL;
    dst->context_count = 0;
    if (!(dst->title = nb_str_dup(src->title)) || !(dst->name = nb_str_dup(src->name)) ||
        !(dst->unit = nb_str_dup(src->unit)) ||
        !(dst->time_unit_name = nb_str_dup(src->time_unit_name)) ||
        !(dst->advice = nb_str_dup(src->advice)))
        goto fail;
    if (src->context_count) {
        dst->context = bb_malloc_array(src->context_count, sizeof(*dst->context));
        if (!dst->context)
            goto fail;
        for (i = 0; i < src->context_count; ++i) {
            nb_context_pair *p = &dst->context[i];
            p->key = nb_str_dup(src->context[i].key);
            p->value = p->key ? nb_str_dup(src->context[i].value) : NULL;
            if (!p->value) {
                bb_free(p->key);
                goto fail;
            }
            dst->context_count = i + 1;
        }
    }
    return 0;
fail:
    nb_config_free(dst);
    return -1;
}

/* nanobench's defaults: what nb_bench_new starts from (with the output on
 * stdout) and what the getters report for a NULL bench (whose output is
 * NULL: it prints nothing). */
const nb_config nb_config_defaults = {
    "benchmark", "noname", "op", "ns", "",
    1e-9,           /* time_unit */
    1.0,            /* batch */
    -1.0,           /* complexity_n: unset */
    11,             /* epochs */
    1000,           /* clock_resolution_multiple */
    0,              /* epoch_iterations: chosen per epoch */
    1,              /* min_epoch_iterations */
    0,              /* warmup */
    1000000,        /* min_epoch_time: 1 ms */
    100000000,      /* max_epoch_time: 100 ms */
    0,              /* relative */
    1,              /* performance_counters */
    1,              /* cycle_probe */
    NULL, NULL, 0,  /* out, context */
    0, 0            /* hidden: none; show_context: off */
};
