/* The -output-json reader (results.h), with jansson. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/results.h"
#include "bench_bitcoin/diag.h"
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
     * "near", is written as the error line's escape (\n, \xHH), cut whole at the end of
     * err. */
    for (p = (const unsigned char *)raw; *p; p++) {
        char one[8];
        size_t len = bench_escape_byte(*p, one);
        if (n + len >= cap)
            break;
        memcpy(err + n, one, len);
        n += len;
    }
    err[n] = '\0';
}

void bench_results_free(bench_results *b)
{
    size_t i;
    if (!b)
        return;
    for (i = 0; i < b->count; i++) {
        bb_free(b->rows[i].name);
        bb_free(b->rows[i].unit);
        bb_free(b->rows[i].elapsed);
        bb_free(b->rows[i].cycles);
        bb_free(b->rows[i].verdict);
    }
    bb_free(b->rows);
    b->rows = NULL;
    b->count = 0;
    b->counted = 0;
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

/* A number member of o, or null (NaN), into *v; -1 when it is neither. */
static int number_or_null(const json_t *o, const char *key, double *v)
{
    const json_t *x = json_object_get(o, key);
    if (json_is_null(x)) {
        *v = NAN;
        return 0;
    }
    if (!json_is_number(x))
        return -1;
    *v = json_number_value(x);
    return 0;
}

/* -against's comparison members of r into row, where r has a "verdict". 0, or -1 with err
 * set. */
static int parse_comparison(const json_t *r, bench_result_row *row, char *err, size_t cap)
{
    static const char *const words[] = {"faster", "slower", "within", "="};
    const json_t *v = json_object_get(r, "verdict");
    const char *word = json_string_value(v);
    size_t k;
    row->ratio = row->ratio_low = row->ratio_high = row->rounds = row->seconds = NAN;
    if (!v)
        return 0;
    for (k = 0; word && k < sizeof words / sizeof words[0] && strcmp(word, words[k]); k++)
        ;
    if (!word || k == sizeof words / sizeof words[0]
        || number_or_null(r, "ratio", &row->ratio) != 0
        || number_or_null(r, "ratioLow", &row->ratio_low) != 0
        || number_or_null(r, "ratioHigh", &row->ratio_high) != 0
        || number_or_null(r, "rounds", &row->rounds) != 0 || !(row->rounds >= 0)
        || number_or_null(r, "seconds", &row->seconds) != 0) {
        set_err(err, cap, "result '%.100s' has a \"verdict\" that is not -against's, or lacks "
                "its \"ratio\", \"ratioLow\", \"ratioHigh\", \"rounds\" or \"seconds\"",
                row->name);
        return -1;
    }
    row->verdict = dup_string(word);
    if (!row->verdict) {
        set_err(err, cap, "out of memory");
        return -1;
    }
    return 0;
}

/* Fills row from the result object r (index i, for messages). 0, or -1 with err set. */
static int parse_result(const json_t *r, size_t i, bench_result_row *row, char *err,
                        size_t cap)
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
    if (positive(r, "median(instructions)", &row->instructions) != 0)
        row->instructions = -1;
    return parse_comparison(r, row, err, cap);
}

/* Whether any epoch of the result r has a hardware cycle count. */
static int has_cpu_cycles(const json_t *r)
{
    const json_t *ms = json_object_get(r, "measurements");
    size_t k;
    for (k = 0; k < json_array_size(ms); k++)
        if (json_is_number(json_object_get(json_array_get(ms, k), "cpucycles")))
            return 1;
    return 0;
}

int bench_results_parse(const char *text, size_t len, bench_results *out, char *err,
                        size_t errcap)
{
    json_error_t jerr;
    json_t *root;
    const json_t *results;
    size_t i, j;
    int rc = -1;

    out->rows = NULL;
    out->count = 0;
    out->counted = 0;
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
    out->counted = json_array_size(results) > 0;
    for (i = 0; i < json_array_size(results); i++) {
        bench_result_row *row = &out->rows[out->count++];
        memset(row, 0, sizeof *row);
        if (parse_result(json_array_get(results, i), i, row, err, errcap) != 0)
            goto done;
        if (row->instructions < 0 || has_cpu_cycles(json_array_get(results, i)))
            out->counted = 0;
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
        bench_results_free(out);
    json_decref(root);
    return rc;
}

int bench_results_load(const char *path, const char *who, bench_results *out)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL, err[300];
    size_t len = 0, cap = 0;
    int rc = -1;

    out->rows = NULL;
    out->count = 0;
    out->counted = 0;
    if (!f) {
        bench_error("%s: cannot read '%s': %s", who, path, strerror(errno));
        return -1;
    }
    for (;;) {
        size_t got;
        if (len == cap) {
            char *grown;
            cap = cap ? 2 * cap : 65536;
            if (cap > MAX_FILE_BYTES) {
                bench_error("%s: '%s' is larger than %u MB: not an -output-json file", who,
                            path, MAX_FILE_BYTES >> 20);
                goto done;
            }
            grown = bb_realloc(buf, cap);
            if (!grown) {
                bench_error("%s: out of memory reading '%s'", who, path);
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
        bench_error("%s: cannot read '%s': %s", who, path, strerror(errno));
        goto done;
    }
    if (len == 0) {
        bench_error("%s: '%s' is empty, not an -output-json file", who, path);
        goto done;
    }
    if (bench_results_parse(buf, len, out, err, sizeof err) != 0) {
        bench_error("%s: '%s' is %s", who, path, err);
        goto done;
    }
    if (out->count == 0) {
        bench_error("%s: '%s' holds no results", who, path);
        bench_results_free(out);
        goto done;
    }
    rc = 0;
done:
    fclose(f);
    bb_free(buf);
    return rc;
}

const bench_result_row *bench_results_find(const bench_results *r, const char *name)
{
    size_t i;
    for (i = 0; r && i < r->count; i++)
        if (strcmp(r->rows[i].name, name) == 0)
            return &r->rows[i];
    return NULL;
}
