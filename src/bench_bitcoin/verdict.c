/* -against's and -baseline's table (verdict.h). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/verdict.h"

#include <math.h>
#include <stdio.h>

void bench_verdict_judge(verdict_row *w, double max_regression)
{
    /* r is the other's time over this build's: this build's over the other's, at the bound
     * nearest 1 of a significant slowdown, is 1 / r.high */
    w->regression = max_regression >= 0 && w->r.significant && w->r.estimate < 1
                    && 1 / w->r.high > 1 + max_regression / 100;
}

/* A figure per unit as the table shows it ("1.14 ns/byte", "4.83 ~cyc/byte"). */
static void format_time(char *buf, size_t cap, double v, const char *quantity, const char *unit)
{
    int decimals = v >= 1000 ? 0 : v >= 100 ? 1 : v >= 10 ? 2 : 3;
    snprintf(buf, cap, "%.*f %s/%s", decimals, v, quantity, unit);
}

/* The table's columns (nanobench.h's markdown writer); the two figures' headers are set per
 * table. */
enum { COL_SELF, COL_OTHER, COL_RATIO, COL_INTERVAL, COL_VERDICT, COL_NAME, COLS };
static nb_column columns[COLS] = {
    {NULL, 18, NB_ALIGN_RIGHT, 1},
    {NULL, 18, NB_ALIGN_RIGHT, 1},
    {"this/other", 10, NB_ALIGN_RIGHT, 1},
    {"95% interval", 16, NB_ALIGN_LEFT, 1},
    {"verdict", 22, NB_ALIGN_LEFT, 1},
    {"benchmark", 0, NB_ALIGN_LEFT, 1},
};

void bench_verdict_header(const char *other, const char *quantity)
{
    static char col[40], self[40];
    snprintf(col, sizeof col, "%s/unit (%s)", quantity, other);
    snprintf(self, sizeof self, "%s/unit (this)", quantity);
    columns[COL_SELF].header = self;
    columns[COL_OTHER].header = col;
    putchar('\n');
    nb_markdown_header(stdout, columns, COLS);
}

void bench_verdict_print(const verdict_row *w)
{
    char self[48], other[48], ratio[24], interval[48], verdict[48];
    format_time(self, sizeof self, w->self_ns, w->quantity, w->unit);
    format_time(other, sizeof other, w->other_ns, w->quantity, w->unit);
    if (!isfinite(w->r.estimate)) {
        snprintf(ratio, sizeof ratio, "-");
        snprintf(interval, sizeof interval, "-");
        snprintf(verdict, sizeof verdict, "too few samples");
    } else {
        /* this build's time over the other's: the reciprocals, bounds swapped */
        double t = 1 / w->r.estimate, lo = 1 / w->r.high, hi = 1 / w->r.low;
        snprintf(ratio, sizeof ratio, "%.3f", t);
        snprintf(interval, sizeof interval, "[%.3f, %.3f]", lo, hi);
        if (!w->r.significant && w->within)
            snprintf(verdict, sizeof verdict, "within \xc2\xb1%g%%", w->equivalence);
        else if (!w->r.significant)
            snprintf(verdict, sizeof verdict, "=");
        else
            snprintf(verdict, sizeof verdict, "%.1f%% %s%s", fabs(t - 1) * 100,
                     t < 1 ? "faster" : "slower", w->regression ? " REGRESSION" : "");
    }
    {
        const char *cells[COLS - 1];
        size_t i;
        cells[COL_SELF] = self;
        cells[COL_OTHER] = other;
        cells[COL_RATIO] = ratio;
        cells[COL_INTERVAL] = interval;
        cells[COL_VERDICT] = verdict;
        for (i = 0; i < COL_NAME; i++)
            nb_markdown_cell(stdout, &columns[i], cells[i]);
        nb_markdown_cell(stdout, &columns[COL_NAME], NULL);
        nb_markdown_code(stdout, w->name);
        putchar('\n');
    }
}

int bench_verdict_finish(const verdict_row *rows, size_t n, const char *what, const char *how,
                   double max_regression)
{
    size_t i, faster = 0, slower = 0, within = 0, regressed = 0, k = 0;
    char same[64] = "";
    for (i = 0; i < n; i++) {
        faster += rows[i].r.significant && rows[i].r.estimate > 1;
        slower += rows[i].r.significant && rows[i].r.estimate < 1;
        within += !rows[i].r.significant && rows[i].within;
        regressed += rows[i].regression;
    }
    if (within)
        snprintf(same, sizeof same, "%zu within \xc2\xb1%g%%, ", within, rows[0].equivalence);
    printf("\n%zu benchmark%s compared with %s, %s: %zu faster, %zu slower, %s%zu without a "
           "significant difference ('='); the intervals hold for all %zu together\n", n,
           n == 1 ? "" : "s", what, how, faster, slower, same, n - faster - slower - within,
           n);
    if (!regressed)
        return 0;
    fprintf(stderr, "-max-regression=%g: %zu benchmark%s significantly more than %g%% slower "
            "than %s:", max_regression, regressed, regressed == 1 ? "" : "s", max_regression,
            what);
    for (i = 0; i < n; i++)
        if (rows[i].regression)
            fprintf(stderr, "%s %s", k++ ? "," : "", rows[i].name);
    fputc('\n', stderr);
    return 1;
}
