/* bench_bitcoin -baseline (baseline.h): the file's check before the run, the unpaired
 * comparison after it. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/baseline.h"
#include "bench_bitcoin/run.h"
#include "bench_bitcoin/verdict.h"
#include "util/alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONFIDENCE 0.95

int bench_baseline_load(const char *path, const bench_row *const *sel, size_t count,
                        bench_results *out)
{
    const char *plain_unit = nb_get_unit(NULL);
    size_t i, common = 0;
    if (bench_results_load(path, "-baseline", out) != 0)
        return -1;
    if (out->counted) {
        bench_error("-baseline: '%s' holds instruction counts (written under -instructions), "
                    "whose times are the simulator's: compare counts with -instructions "
                    "-against=<other bench_bitcoin>", path);
        bench_results_free(out);
        return -1;
    }
    for (i = 0; i < count; i++) {
        const bench_result_row *row = bench_results_find(out, sel[i]->name);
        const char *unit = sel[i]->def->unit ? sel[i]->def->unit : plain_unit;
        common += row && row->count > 0 && strcmp(row->unit, unit) == 0;
    }
    if (common == 0) {
        bench_error("-baseline: none of the %zu benchmarks selected has a comparable result "
                    "in '%s' (-list shows the selection; the file has %zu results)", count,
                    path, out->count);
        bench_results_free(out);
        return -1;
    }
    return 0;
}

static double median_of(double *v, size_t n)
{
    size_t i, j;
    for (i = 1; i < n; i++)   /* insertion sort: a result has tens of epochs */
        for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The result of run named name with epochs, or NULL. */
static const nb_result *find_result(const nb_bench *run, const char *name)
{
    size_t i;
    for (i = 0; i < nb_result_count(run); i++) {
        const nb_result *r = nb_result_at(run, i);
        if (strcmp(nb_result_name(r), name) == 0)
            return r;
    }
    return NULL;
}

/* Whether result r can be compared with the file's row: both have epochs, same unit. */
static int comparable(const nb_result *r, const bench_result_row *row)
{
    return row && nb_result_epoch_count(r) > 0 && row->count > 0
           && strcmp(nb_result_unit(r), row->unit) == 0;
}

int bench_baseline_compare(const bench_results *base, const char *path, const nb_bench *run,
                           double max_regression)
{
    size_t n = nb_result_count(run), i, k, family = 0, nrows = 0, only = 0;
    verdict_row *rows = bb_malloc_array(n + 1, sizeof *rows);
    double *a = NULL, *b = NULL;
    char what[300];
    int status = -1, cycles = 1; /* compare estimated cycles: both sides have them */

    if (!rows) {
        bench_error("-baseline: out of memory");
        return -1;
    }
    for (i = 0; i < n; i++) {
        const nb_result *r = nb_result_at(run, i);
        const bench_result_row *row = bench_results_find(base, nb_result_name(r));
        if (comparable(r, row)) {
            family++;
            /* cycles only where every compared benchmark has them on both sides */
            if (!(row->cycles && nb_result_has(r, NB_EST_CYCLES)))
                cycles = 0;
        } else if (row && nb_result_epoch_count(r) > 0 && row->count > 0)
            fprintf(stderr, "-baseline: %s counts in '%s' here and in '%s' in '%s': not "
                    "compared\n", nb_result_name(r), nb_result_unit(r), row->unit, path);
        else if (row)
            fprintf(stderr, "-baseline: %s has no measured epochs %s: not compared\n",
                    nb_result_name(r), nb_result_epoch_count(r) ? "in the file" : "here");
        else
            fprintf(stderr, only++ ? " %s" : "-baseline: only in this run, not compared: %s",
                    nb_result_name(r));
    }
    if (only)
        fputc('\n', stderr);
    for (i = 0, only = 0; i < base->count; i++) {
        if (find_result(run, base->rows[i].name))
            continue;
        if (only++ == 0)
            fprintf(stderr, "-baseline: only in '%s', not compared: %s", path,
                    base->rows[i].name);
        else
            fprintf(stderr, " %s", base->rows[i].name);
    }
    if (only)
        fputc('\n', stderr);
    if (family == 0) {
        bench_error("-baseline: no benchmark of this run has a comparable result in '%s'", path);
        goto done;
    }
    if (cycles)
        printf("\n-baseline: this run against '%s', in estimated core cycles (~cyc, which both "
               "have): a change of the core's clock between the runs does not count. "
               "Unpaired: the file's epochs were measured at another time, so other changes of "
               "the machine between the runs count as differences; -against=<other "
               "bench_bitcoin> interleaves both builds and is the test to trust.\n", path);
    else
        printf("\n-baseline: this run against '%s', in time (estimated cycles are not on both "
               "sides for every benchmark). Unpaired: the file's epochs were measured at "
               "another time, so a change of the machine's speed between the runs counts as a "
               "difference; -against=<other bench_bitcoin> interleaves both builds and is the "
               "test to trust.\n", path);
    bench_verdict_header("file", cycles ? "~cyc" : "ns");
    for (i = 0; i < n; i++) {
        const nb_result *r = nb_result_at(run, i);
        const bench_result_row *row = bench_results_find(base, nb_result_name(r));
        size_t ne = nb_result_epoch_count(r);
        verdict_row *w = &rows[nrows];
        if (!comparable(r, row))
            continue;
        a = bb_malloc_array(row->count, sizeof *a);
        b = bb_malloc_array(ne, sizeof *b);
        if (!a || !b) {
            bench_error("-baseline: out of memory");
            goto done;
        }
        for (k = 0; k < row->count; k++)
            a[k] = cycles ? row->cycles[k] / row->batch : row->elapsed[k] / row->batch * 1e9;
        for (k = 0; k < ne; k++)
            b[k] = cycles ? nb_result_epoch(r, NB_EST_CYCLES, k) / nb_result_batch(r)
                          : nb_result_epoch(r, NB_ELAPSED, k) / nb_result_batch(r) * 1e9;
        memset(w, 0, sizeof *w);
        w->name = nb_result_name(r);
        w->unit = row->unit;
        w->quantity = cycles ? "~cyc" : "ns";
        if (nb_stats_unpaired(a, row->count, b, ne, family, CONFIDENCE, &w->r) != 0)
            w->r.estimate = w->r.low = w->r.high = NAN, w->r.significant = 0;
        w->other_ns = median_of(a, row->count);
        w->self_ns = median_of(b, ne);
        bench_verdict_judge(w, max_regression);
        bench_verdict_print(w);
        nrows++;
        bb_free(a);
        bb_free(b);
        a = b = NULL;
    }
    snprintf(what, sizeof what, "'%s'", path);
    status = bench_verdict_finish(rows, nrows, what, "unpaired", max_regression);
done:
    bb_free(a);
    bb_free(b);
    bb_free(rows);
    return status;
}

int bench_mode_baseline(const bench_job *j)
{
    nb_bench *b = NULL;
    int status = bench_run_measure(j, &b);
    if (status == BENCH_EXIT_OK) {
        int rc = bench_baseline_compare(&j->base, j->o->baseline, b, j->o->max_regression);
        status = rc < 0 ? BENCH_EXIT_ERROR : rc ? BENCH_EXIT_REGRESSION : BENCH_EXIT_OK;
    }
    nb_bench_free(b);
    return status;
}
