/* bench_bitcoin -baseline (baseline.h): reading an -output-json file with jansson, and the
 * unpaired comparison. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/baseline.h"
#include "bench_bitcoin/bench.h"
#include "bench_bitcoin/verdict.h"
#include "util/alloc.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A file larger than this is not an -output-json of this suite (which writes about 2 KB per
 * result). */
#define MAX_FILE_BYTES (64u << 20)
#define CONFIDENCE 0.95

static char *dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = bb_malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static void set_err(char *err, size_t cap, const char *fmt, ...)
{
    char raw[512];
    const unsigned char *p;
    size_t n = 0;
    va_list ap;
    if (!err || cap == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    /* One line whatever the file holds: a name's "\n", or the raw byte jansson quotes after
     * "near", is written as an escape (\n, \xHH), cut whole at the end of err. */
    for (p = (const unsigned char *)raw; *p; p++) {
        char one[8];
        size_t len;
        if (*p == '\n')
            strcpy(one, "\\n");
        else if (*p < 0x20 || *p == 0x7f)
            snprintf(one, sizeof one, "\\x%02x", *p);
        else {
            one[0] = (char)*p;
            one[1] = '\0';
        }
        len = strlen(one);
        if (n + len >= cap)
            break;
        memcpy(err + n, one, len);
        n += len;
    }
    err[n] = '\0';
}

void baseline_free(baseline *b)
{
    size_t i;
    if (!b)
        return;
    for (i = 0; i < b->count; i++) {
        bb_free(b->rows[i].name);
        bb_free(b->rows[i].unit);
        bb_free(b->rows[i].elapsed);
        bb_free(b->rows[i].cycles);
    }
    bb_free(b->rows);
    b->rows = NULL;
    b->count = 0;
}

/* A positive finite number member of o, or -1. */
static int positive(const json_t *o, const char *key, double *v)
{
    const json_t *x = json_object_get(o, key);
    if (!json_is_number(x))
        return -1;
    *v = json_number_value(x);
    return isfinite(*v) && *v > 0 ? 0 : -1;
}

/* Fills row from the result object r (index i, for messages). 0, or -1 with err set. */
static int parse_result(const json_t *r, size_t i, baseline_row *row, char *err, size_t cap)
{
    const json_t *name = json_object_get(r, "name"), *unit = json_object_get(r, "unit");
    const json_t *ms = json_object_get(r, "measurements");
    size_t k;
    if (!json_is_object(r) || !json_is_string(name) || json_string_length(name) == 0) {
        set_err(err, cap, "result %zu has no \"name\" string", i + 1);
        return -1;
    }
    if (!json_is_string(unit) || json_string_length(unit) == 0
        || positive(r, "batch", &row->batch) != 0 || !json_is_array(ms)) {
        set_err(err, cap, "result '%.100s' lacks a \"unit\", a positive \"batch\" or a "
                "\"measurements\" list", json_string_value(name));
        return -1;
    }
    row->name = dup_string(json_string_value(name));
    row->unit = dup_string(json_string_value(unit));
    row->count = json_array_size(ms);
    row->elapsed = bb_malloc_array(row->count ? row->count : 1, sizeof *row->elapsed);
    if (!row->name || !row->unit || !row->elapsed) {
        set_err(err, cap, "out of memory");
        return -1;
    }
    for (k = 0; k < row->count; k++) {
        const json_t *m = json_array_get(ms, k);
        if (!json_is_object(m) || positive(m, "elapsed", &row->elapsed[k]) != 0) {
            set_err(err, cap, "measurement %zu of '%.100s' has no positive \"elapsed\" number",
                    k + 1, row->name);
            return -1;
        }
    }
    /* estimated cycles: used only when every epoch has them (a file from a machine without
     * the probe, or from before it, has none) */
    row->cycles = bb_malloc_array(row->count ? row->count : 1, sizeof *row->cycles);
    if (!row->cycles) {
        set_err(err, cap, "out of memory");
        return -1;
    }
    for (k = 0; k < row->count; k++) {
        if (positive(json_array_get(ms, k), "estcycles", &row->cycles[k]) != 0) {
            bb_free(row->cycles);
            row->cycles = NULL;
            break;
        }
    }
    return 0;
}

int baseline_parse(const char *text, size_t len, baseline *out, char *err, size_t errcap)
{
    json_error_t jerr;
    json_t *root;
    const json_t *results;
    size_t i, j;
    int rc = -1;

    out->rows = NULL;
    out->count = 0;
    root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        set_err(err, errcap, "not JSON (line %d, column %d: %s)", jerr.line, jerr.column,
                jerr.text);
        return -1;
    }
    results = json_object_get(root, "results");
    if (!json_is_object(root) || !json_is_array(results)) {
        set_err(err, errcap, "not a bench_bitcoin -output-json file (no \"results\" list)");
        goto done;
    }
    out->rows = bb_malloc_array(json_array_size(results) + 1, sizeof *out->rows);
    if (!out->rows) {
        set_err(err, errcap, "out of memory");
        goto done;
    }
    for (i = 0; i < json_array_size(results); i++) {
        baseline_row *row = &out->rows[out->count++];
        memset(row, 0, sizeof *row);
        if (parse_result(json_array_get(results, i), i, row, err, errcap) != 0)
            goto done;
        for (j = 0; j + 1 < out->count; j++)
            if (strcmp(out->rows[j].name, row->name) == 0) {
                set_err(err, errcap, "'%.100s' appears twice (a file of -asymptote or of "
                        "several runs cannot be a baseline)", row->name);
                goto done;
            }
    }
    rc = 0;
done:
    if (rc != 0)
        baseline_free(out);
    json_decref(root);
    return rc;
}

int baseline_load(const char *path, baseline *out)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL, err[300];
    size_t len = 0, cap = 0;
    int rc = -1;

    out->rows = NULL;
    out->count = 0;
    if (!f) {
        bench_error("-baseline: cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    for (;;) {
        size_t got;
        if (len == cap) {
            char *grown;
            cap = cap ? 2 * cap : 65536;
            if (cap > MAX_FILE_BYTES) {
                bench_error("-baseline: '%s' is larger than %u MB: not an -output-json file",
                            path, MAX_FILE_BYTES >> 20);
                goto done;
            }
            grown = bb_realloc(buf, cap);
            if (!grown) {
                bench_error("-baseline: out of memory reading '%s'", path);
                goto done;
            }
            buf = grown;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        bench_error("-baseline: cannot read '%s': %s", path, strerror(errno));
        goto done;
    }
    if (len == 0) {
        bench_error("-baseline: '%s' is empty, not an -output-json file", path);
        goto done;
    }
    if (baseline_parse(buf, len, out, err, sizeof err) != 0) {
        bench_error("-baseline: '%s' is %s", path, err);
        goto done;
    }
    if (out->count == 0) {
        bench_error("-baseline: '%s' holds no results", path);
        baseline_free(out);
        goto done;
    }
    rc = 0;
done:
    fclose(f);
    bb_free(buf);
    return rc;
}

static const baseline_row *find(const baseline *base, const char *name)
{
    size_t i;
    for (i = 0; i < base->count; i++)
        if (strcmp(base->rows[i].name, name) == 0)
            return &base->rows[i];
    return NULL;
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
static int comparable(const nb_result *r, const baseline_row *row)
{
    return row && nb_result_epoch_count(r) > 0 && row->count > 0
           && strcmp(nb_result_unit(r), row->unit) == 0;
}

int baseline_compare(const baseline *base, const char *path, const nb_bench *run,
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
        const baseline_row *row = find(base, nb_result_name(r));
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
    verdict_header("file", cycles ? "~cyc" : "ns");
    for (i = 0; i < n; i++) {
        const nb_result *r = nb_result_at(run, i);
        const baseline_row *row = find(base, nb_result_name(r));
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
        w->name = nb_result_name(r);
        w->unit = row->unit;
        w->quantity = cycles ? "~cyc" : "ns";
        if (nb_stats_unpaired(a, row->count, b, ne, family, CONFIDENCE, &w->r) != 0)
            w->r.estimate = w->r.low = w->r.high = NAN, w->r.significant = 0;
        w->other_ns = median_of(a, row->count);
        w->self_ns = median_of(b, ne);
        verdict_judge(w, max_regression);
        verdict_print(w);
        nrows++;
        bb_free(a);
        bb_free(b);
        a = b = NULL;
    }
    snprintf(what, sizeof what, "'%s'", path);
    status = verdict_finish(rows, nrows, what, "unpaired", max_regression);
done:
    bb_free(a);
    bb_free(b);
    bb_free(rows);
    return status;
}
