/* The registry (bench.h): the rows made from every area's bench_def table, and running one. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/bench.h"
#include "crypto/variant.h"
#include "util/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* More rows than the suite will hold (Core's whole suite has about 150). */
#define BENCH_MAX_ROWS 512

#define BENCH_AREA_TABLE(area) bench_defs_##area,
static const bench_def *const areas[] = {BENCH_AREAS(BENCH_AREA_TABLE)};
#undef BENCH_AREA_TABLE

static bench_row rows[BENCH_MAX_ROWS];
static size_t row_count;

static int by_name(const void *a, const void *b)
{
    return strcmp(((const bench_row *)a)->name, ((const bench_row *)b)->name);
}

/* A table that breaks the rules of bench.h is a bug of this build, found by any run. */
static void broken(const char *what, const char *name)
{
    bench_error("the benchmark table is broken: %s '%s'", what, name);
    exit(2);
}

static void add_row(const bench_def *def, const char *suffix, const char *pin)
{
    bench_row *r;
    int len;
    if (row_count == BENCH_MAX_ROWS)
        broken("more rows than BENCH_MAX_ROWS at", def->name);
    r = &rows[row_count++];
    len = suffix ? snprintf(r->name, sizeof r->name, "%s_%s", def->name, suffix)
                 : snprintf(r->name, sizeof r->name, "%s", def->name);
    if (len < 1 || (size_t)len >= sizeof r->name)
        broken("a name longer than BENCH_NAME_MAX or empty:", def->name);
    r->def = def;
    r->pin = pin;
    if (!def->op_n)
        broken("no op_n in", def->name);
    if (def->family && !crypto_variant_set_find(def->family))
        broken("a variant family that this build does not have in", def->name);
    if (pin && !def->family)
        broken("pinned rows without a variant family in", def->name);
    if (def->openssl && (!def->openssl->op_n || def->openssl->batch != def->batch
                         || strcmp(def->openssl->unit ? def->openssl->unit : "",
                                   def->unit ? def->unit : "") != 0))
        broken("an OpenSSL counterpart without an op, or of another batch or unit, in",
               def->name);
}

const bench_row *bench_rows(size_t *count)
{
    if (row_count == 0) {
        size_t a, i;
        for (a = 0; a < sizeof areas / sizeof areas[0]; a++) {
            const bench_def *d;
            for (d = areas[a]; d->name; d++) {
                const bench_pin *p;
                add_row(d, NULL, NULL);
                for (p = d->pins; p && p->suffix; p++)
                    add_row(d, p->suffix, p->variant);
            }
        }
        qsort(rows, row_count, sizeof rows[0], by_name);
        for (i = 1; i < row_count; i++)
            if (strcmp(rows[i - 1].name, rows[i].name) == 0)
                broken("two rows named", rows[i].name);
    }
    *count = row_count;
    return rows;
}

const bench_row *bench_row_find(const char *name)
{
    size_t count, i;
    const bench_row *all = bench_rows(&count);
    for (i = 0; name && i < count; i++)
        if (strcmp(all[i].name, name) == 0)
            return &all[i];
    return NULL;
}

int bench_row_available(const bench_row *row)
{
    const crypto_variant_set *set;
    const char *names[32];
    size_t n, i;
    if (row->def->available && !row->def->available())
        return 0;
    if (!row->pin)
        return 1;
    set = crypto_variant_set_find(row->def->family);
    n = crypto_variant_list(set, names, sizeof names / sizeof names[0]);
    for (i = 0; i < n && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i], row->pin) == 0)
            return 1;
    return 0;
}

double bench_row_n(const bench_row *row, double given)
{
    if (given >= 0)
        return given;
    return row->def->complexity_n > 0 ? row->def->complexity_n : -1;
}

int bench_state_new(const bench_def *def, const char *name, double n, void **state)
{
    void *s = NULL;
    *state = NULL;
    if (def->state_size > 0) {
        if ((s = bb_malloc(def->state_size)) == NULL) {
            bench_error("%s: out of memory", name);
            return -1;
        }
        memset(s, 0, def->state_size);
    }
    if (def->setup && def->setup(s, n) != 0) {
        bench_state_free(def, s);
        bench_error("%s: out of memory", name);
        return -1;
    }
    *state = s;
    return 0;
}

void bench_state_free(const bench_def *def, void *state)
{
    if (def->teardown)
        def->teardown(state);
    bb_free(state);
}

int bench_row_run(const bench_row *row, nb_bench *b)
{
    const bench_def *d = row->def;
    const crypto_variant_set *set = row->pin ? crypto_variant_set_find(d->family) : NULL;
    void *state;
    int rc = -1;

    if (row->pin && crypto_variant_force(set, row->pin) != 0) {
        bench_error("%s: cannot switch %s to '%s'", row->name, crypto_variant_set_label(set),
                    row->pin);
        return -1;
    }
    if (bench_state_new(d, row->name, bench_row_n(row, nb_get_complexity_n(b)), &state) == 0) {
        if (d->batch > 0)
            nb_batch(b, d->batch);
        if (d->unit)
            nb_unit(b, d->unit);
        if (d->epoch_setup)
            nb_setup(b, d->epoch_setup, state);
        if (d->iteration_setup)
            nb_setup_each(b, d->iteration_setup, state);
        if (d->max_epochs && nb_get_epochs(b) > d->max_epochs)
            nb_epochs(b, d->max_epochs);
        nb_run_n(b, d->op_n, state);
        bench_state_free(d, state);
        rc = 0;
    }
    if (row->pin)
        crypto_variant_force(set, "auto");
    return rc;
}
