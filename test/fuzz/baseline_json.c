/* Fuzz target: the -output-json reader (bench_results_parse, src/bench_bitcoin/results.c) that
 * -baseline and -instructions -against use, on arbitrary bytes: what a user's file, or a
 * damaged one, holds.
 *
 * Checks: 0, or -1 with an empty result and a one-line reason (no control character, within
 * the buffer); never an error line printed; on 0, every row as the header promises (a name, a
 * unit, a positive finite batch, each epoch a positive finite time and, where there are
 * cycles, positive finite cycles, no name twice); the rows written back as an -output-json
 * document parse to the same rows; nothing leaks. */
#include "fuzz.h"

#include "bench_bitcoin/diag.h"
#include "bench_bitcoin/results.h"

#include <math.h>
#include <string.h>

static char err[256];
/* What bench_error would have printed: bench_results_parse must never print. */
static char printed[256];

/* Appends the JSON string s (escaped) to *p, which has room (6 bytes per byte of s + 2). */
static char *put_string(char *p, const char *s)
{
    *p++ = '"';
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == '"' || c == '\\')
            p += sprintf(p, "\\u%04x", c);
        else
            *p++ = (char)c;
    }
    *p++ = '"';
    return p;
}

/* b as a minimal -output-json document (malloc'ed, *len bytes), or NULL. */
static char *write_back(const bench_results *b, size_t *len)
{
    size_t cap = 64, i, j;
    char *doc, *p;
    for (i = 0; i < b->count; i++)
        cap += 6 * (strlen(b->rows[i].name) + strlen(b->rows[i].unit)) + 128
               + 96 * b->rows[i].count;
    if (!(doc = malloc(cap)))
        return NULL;
    p = doc + sprintf(doc, "{\"results\": [");
    for (i = 0; i < b->count; i++) {
        const bench_result_row *r = &b->rows[i];
        p += sprintf(p, "%s{\"name\": ", i ? ", " : "");
        p = put_string(p, r->name);
        p += sprintf(p, ", \"unit\": ");
        p = put_string(p, r->unit);
        p += sprintf(p, ", \"batch\": %.17g, \"measurements\": [", r->batch);
        for (j = 0; j < r->count; j++) {
            p += sprintf(p, "%s{\"elapsed\": %.17g", j ? ", " : "", r->elapsed[j]);
            if (r->cycles)
                p += sprintf(p, ", \"estcycles\": %.17g", r->cycles[j]);
            p += sprintf(p, "}");
        }
        p += sprintf(p, "]}");
    }
    p += sprintf(p, "]}");
    *len = (size_t)(p - doc);
    return doc;
}

static int same_rows(const bench_results *a, const bench_results *b)
{
    size_t i;
    if (a->count != b->count)
        return 0;
    for (i = 0; i < a->count; i++) {
        const bench_result_row *x = &a->rows[i], *y = &b->rows[i];
        if (strcmp(x->name, y->name) != 0 || strcmp(x->unit, y->unit) != 0
            || x->batch != y->batch || x->count != y->count
            || memcmp(x->elapsed, y->elapsed, x->count * sizeof *x->elapsed) != 0
            || !x->cycles != !y->cycles
            || (x->cycles && memcmp(x->cycles, y->cycles, x->count * sizeof *x->cycles) != 0))
            return 0;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bench_results b, again;
    size_t i, j, len;
    char *doc;
    int rc;

    memset(err, 'x', sizeof err);
    bench_error_capture(printed, sizeof printed);
    rc = bench_results_parse((const char *)data, size, &b, err, sizeof err);
    bench_error_capture(NULL, 0);
    FUZZ_CHECK(printed[0] == '\0');
    FUZZ_CHECK(rc == 0 || rc == -1);
    if (rc != 0) {
        FUZZ_CHECK(b.rows == NULL && b.count == 0);
        FUZZ_CHECK(memchr(err, '\0', sizeof err) != NULL && err[0] != '\0');
        for (i = 0; err[i]; i++)
            FUZZ_CHECK((unsigned char)err[i] >= 0x20 && err[i] != 0x7f);
        return 0;
    }
    for (i = 0; i < b.count; i++) {
        const bench_result_row *r = &b.rows[i];
        FUZZ_CHECK(r->name && r->unit);
        FUZZ_CHECK(r->batch > 0 && isfinite(r->batch));
        for (j = 0; j < r->count; j++) {
            FUZZ_CHECK(r->elapsed[j] > 0 && isfinite(r->elapsed[j]));
            FUZZ_CHECK(!r->cycles || (r->cycles[j] > 0 && isfinite(r->cycles[j])));
        }
        for (j = 0; j < i; j++)
            FUZZ_CHECK(strcmp(b.rows[j].name, r->name) != 0);
    }
    if ((doc = write_back(&b, &len)) != NULL) {
        FUZZ_CHECK(bench_results_parse(doc, len, &again, err, sizeof err) == 0);
        FUZZ_CHECK(same_rows(&b, &again));
        bench_results_free(&again);
        free(doc);
    }
    bench_results_free(&b);
    return 0;
}
