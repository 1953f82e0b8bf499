/* bench_bitcoin -compare: each selected benchmark that has variants (bench.h: family) or an
 * OpenSSL counterpart, measured on the automatic choice ([auto], the baseline), on each
 * variant of its family this CPU runs and through OpenSSL, all in one nb_compare (paired and
 * interleaved), one table per benchmark. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/modes.h"
#include "bench_bitcoin/run.h"
#include "crypto/sha256.h"
#include "crypto/variant.h"
#include "util/alloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* More than any variant set has (SHA-256 has five). */
#define MAX_IMPLS 16

/* One row of -compare: a benchmark run on one variant of its family, on the automatic
 * choice, or through OpenSSL. */
struct bench_compare_row {
    char name[BENCH_NAME_MAX + 32];    /* "SHA256 [shani]" */
    const bench_row *group;            /* the benchmark: its table's title */
    const crypto_variant_set *set;     /* its family's variants; NULL: none */
    const char *impl;                  /* "auto", a variant, or NULL for OpenSSL */
    const bench_def *def;              /* what runs: the benchmark, or its counterpart */
};

typedef bench_compare_row compare_row;

/* Whether -compare has rows for r: an unpinned benchmark with a family or a counterpart. */
static int comparable(const bench_row *r)
{
    return !r->pin && (r->def->family || r->def->openssl);
}

/* The -compare rows for the selected benchmarks, in order: per benchmark [auto] first (the
 * baseline), then each variant of its family in the set's order, then [openssl]. Benchmarks
 * without either are skipped. 0 and *rows (bb_free it), or -1 after one error line (also when
 * no selected benchmark has any). */
int bench_compare_prepare(bench_job *j)
{
    const bench_row *const *sel = j->sel;
    size_t count = j->count;
    size_t i, k, n = 0;
    compare_row *r = bb_malloc_array(count * (MAX_IMPLS + 2) + 1, sizeof *r);

    if (!r) {
        bench_error("-compare: out of memory");
        return -1;
    }
    for (i = 0; i < count; i++) {
        const bench_def *d = sel[i]->def;
        const crypto_variant_set *set = d->family ? crypto_variant_set_find(d->family) : NULL;
        const char *impls[MAX_IMPLS];
        size_t nimpl;
        if (!comparable(sel[i]))
            continue;
        nimpl = crypto_variant_list(set, impls, MAX_IMPLS);
        if (nimpl > MAX_IMPLS)
            nimpl = MAX_IMPLS;
        for (k = 0; k < nimpl + 2; k++) {
            const char *impl = k == 0 ? "auto" : k <= nimpl ? impls[k - 1] : NULL;
            if (!impl && !d->openssl)
                continue;
            r[n].group = sel[i];
            r[n].set = set;
            r[n].impl = impl;
            r[n].def = impl ? d : d->openssl;
            snprintf(r[n].name, sizeof r[n].name, "%s [%s]", sel[i]->name,
                     impl ? impl : "openssl");
            n++;
        }
    }
    if (n == 0) {
        char known[512] = "";
        size_t total, len = 0;
        const bench_row *all = bench_rows(&total);
        for (i = 0; i < total; i++)
            if (comparable(&all[i]) && len < sizeof known)
                len += (size_t)snprintf(known + len, sizeof known - len, "%s%s",
                                        len ? ", " : "", all[i].name);
        bench_error("-compare: no selected benchmark has implementations to compare (those "
                    "that do: %s)", known);
        bb_free(r);
        return -1;
    }
    j->rows = r;
    j->nrows = n;
    return 0;
}

/* One alternative of a -compare table: its row and its op's state. */
typedef struct {
    const compare_row *row;
    void *state;
    int ready;                     /* the state was made (and is to be freed) */
} compare_alt;

/* The alternatives of one table, for their setups: nb_setup and nb_setup_each take one
 * argument for the whole comparison, so before each epoch (or iteration) of any alternative
 * every alternative's state is set up, untimed; the next one to run is then fresh. */
typedef struct {
    compare_alt *alt;
    size_t n;
} compare_setups;

static void setup_epochs(void *arg)
{
    compare_setups *s = arg;
    size_t i;
    for (i = 0; i < s->n; i++)
        if (s->alt[i].row->def->epoch_setup)
            s->alt[i].row->def->epoch_setup(s->alt[i].state);
}

static void setup_iterations(void *arg)
{
    compare_setups *s = arg;
    size_t i;
    for (i = 0; i < s->n; i++)
        if (s->alt[i].row->def->iteration_setup)
            s->alt[i].row->def->iteration_setup(s->alt[i].state);
}

/* nb_compare's op: pins the row's variant, then runs the benchmark's op iters times. The pin
 * is inside the timed epoch, once per epoch (a lock and a name lookup, well under a
 * microsecond against epochs of a millisecond or more, and the same for every row). */
static void compare_alt_run(void *arg, uint64_t iters)
{
    compare_alt *a = arg;
    if (a->row->impl && a->row->set)
        crypto_variant_force(a->row->set, a->row->impl);
    a->row->def->op_n(a->state, iters);
}

/* Compares rows[0..n) (one benchmark's) in one nb_compare into b; 0, or -1 after one error
 * line. */
static int compare_group(nb_bench *b, const nb_bench *defaults, const bench_options *o,
                         const compare_row *rows, size_t n)
{
    compare_alt alt[MAX_IMPLS + 2];
    compare_setups setups;
    nb_alternative alts[MAX_IMPLS + 2];
    nb_comparison *c = NULL;
    size_t i, before = nb_result_count(b);
    int rc = -1;
    memset(alt, 0, sizeof alt);
    for (i = 0; i < n; i++) {
        alt[i].row = &rows[i];
        if (rows[i].impl && rows[i].set && crypto_variant_force(rows[i].set, rows[i].impl) != 0) {
            bench_error("-compare: cannot switch %s to '%s'",
                        crypto_variant_set_label(rows[i].set), rows[i].impl);
            goto done;
        }
        if (bench_state_new(rows[i].def, rows[i].name, bench_row_n(rows[i].group, -1),
                            &alt[i].state) != 0)
            goto done;
        alt[i].ready = 1;
        alts[i].name = rows[i].name;
        alts[i].op = NULL;
        alts[i].arg = &alt[i];
        alts[i].op_n = compare_alt_run;
    }
    bench_configure(b, defaults, o, rows[0].group->name);
    /* -min-time is spread over every epoch a row runs: 4 per round */
    if (!o->sanity_check && o->min_time_ns > 0)
        nb_min_epoch_time(b, (uint64_t)(o->min_time_ns / (double)nb_get_epochs(b) /
                                        NB_COMPARE_EPOCHS_PER_ROUND));
    nb_title(b, rows[0].group->name);
    if (rows[0].def->batch > 0)
        nb_batch(b, rows[0].def->batch);
    if (rows[0].def->unit)
        nb_unit(b, rows[0].def->unit);
    setups.alt = alt;
    setups.n = n;
    for (i = 0; i < n; i++) {
        if (rows[i].def->epoch_setup)
            nb_setup(b, setup_epochs, &setups);
        if (rows[i].def->iteration_setup)
            nb_setup_each(b, setup_iterations, &setups);
    }
    c = nb_compare(b, alts, n);
    if (!c || nb_get_error(b) != 0) {
        bench_harness_error(b, rows[0].group->name);
        goto done;
    }
    if (nb_result_count(b) != before + n) {
        bench_error("%s: -compare made %zu results for %zu rows", rows[0].group->name,
                   nb_result_count(b) - before, n);
        goto done;
    }
    rc = 0;
done:
    nb_comparison_free(c);
    for (i = 0; i < n; i++)
        if (alt[i].ready)
            bench_state_free(alt[i].row->def, alt[i].state);
    return rc;
}

/* Puts every variant set back on its automatic choice. */
static void all_automatic(void)
{
    const crypto_variant_set *sets[32];
    size_t n = crypto_variant_sets(sets, sizeof sets / sizeof sets[0]), i;
    for (i = 0; i < n && i < sizeof sets / sizeof sets[0]; i++)
        crypto_variant_force(sets[i], "auto");
}

static void compare_notes(void)
{
    char used[512];
    fprintf(stderr, "-compare: [auto] is %s; relative is [auto]'s time over the row's, "
            "measured paired and interleaved\n", bench_variants_in_use(used, sizeof used));
#ifndef HAVE_OPENSSL
    /* a note, like the line above, not an error: the run goes on */
    fputs("-compare: built without OpenSSL, so there are no [openssl] rows\n", stderr);
#endif
}


/* Runs the -compare rows into b, one nb_compare and table per benchmark, and puts every
 * family back on its automatic choice; 0, or -1 after one error line. */
static int run_compare(nb_bench *b, const nb_bench *defaults, const bench_job *job)
{
    const compare_row *rows = job->rows;
    size_t i = 0, j, n = job->nrows;
    int rc = 0;
    compare_notes();
    while (i < n && rc == 0) {
        for (j = i + 1; j < n && rows[j].group == rows[i].group; j++)
            ;
        rc = compare_group(b, defaults, job->o, rows + i, j - i);
        all_automatic();
        i = j;
    }
    return rc;
}

int bench_mode_compare(const bench_job *j)
{
    nb_bench *b;
    int status = bench_measure(j, run_compare, &b);
    nb_bench_free(b);
    return status;
}

int bench_compare_list(const bench_job *j)
{
    size_t i;
    sha256_autodetect();
    compare_notes();
    for (i = 0; i < j->nrows; i++)
        puts(j->rows[i].name);
    return 0;
}
