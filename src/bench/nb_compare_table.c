/* nb_compare's table: one row per alternative (ratio to the baseline, its
 * interval, time, rate, err%), then the one-line verdict. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* v as a percentage with 2 decimals ("102.35%"), "-" when not finite. */
static void percent(char *buf, size_t cap, double v)
{
    if (!isfinite(v)) {
        snprintf(buf, cap, "-");
        return;
    }
    nb_format_number(buf, cap, 1, 2, v * 100.0);
    if (strlen(buf) + 2 <= cap)
        strcat(buf, "%");
}

int nb_table_comparison(FILE *out, const nb_comparison *c)
{
    const nb_result *base = nb_comparison_result(c, 0);
    size_t n = nb_comparison_count(c), i, f = nb_comparison_fastest(c);
    char num[NB_NUMBER_MAX + 8], a[64], b[64], head[NB_NUMBER_MAX];
    double lo, hi, est;
    const char *unit = base->cfg.unit;
    /* relative | 95% interval | ns/unit | unit/s | err% | title */
    nb_column cols[6] = {
        { "relative", 9, NB_ALIGN_RIGHT, 0 }, { "95% interval", 20, NB_ALIGN_RIGHT, 0 },
        { NULL, 20, NB_ALIGN_RIGHT, 0 }, { NULL, 20, NB_ALIGN_RIGHT, 0 },
        { "err%", 8, NB_ALIGN_RIGHT, 0 }, { NULL, 0, NB_ALIGN_LEFT, 1 },
    };
    const char *per[3], *rate[2];
    per[0] = base->cfg.time_unit_name;
    per[1] = "/";
    per[2] = unit;
    rate[0] = unit;
    rate[1] = "/s";
    cols[5].header = base->cfg.title;
    fputc('\n', out);
    nb_markdown_cell(out, &cols[0], cols[0].header);
    nb_markdown_cell(out, &cols[1], cols[1].header);
    nb_md_cell_parts(out, &cols[2], per, 3);
    nb_md_cell_parts(out, &cols[3], rate, 2);
    nb_markdown_cell(out, &cols[4], cols[4].header);
    nb_markdown_cell(out, &cols[5], cols[5].header);
    fputc('\n', out);
    nb_markdown_rule(out, cols, 6);

    for (i = 0; i < n; ++i) {
        const nb_result *r = nb_comparison_result(c, i);
        double med, err;
        nb_comparison_summary(c, i, &med, &err);
        med /= r->cfg.batch;
        est = nb_comparison_relative(c, i, &lo, &hi);
        percent(num, sizeof(num), est);
        nb_markdown_cell(out, &cols[0], num);
        if (i == 0) {
            nb_markdown_cell(out, &cols[1], "-");
        } else {
            percent(a, sizeof(a), lo);
            percent(b, sizeof(b), hi);
            snprintf(head, sizeof(head), "[%s, %s]", a, b);
            nb_markdown_cell(out, &cols[1], head);
        }
        nb_format_number(num, sizeof(num), 0, 2, med / r->cfg.time_unit);
        nb_markdown_cell(out, &cols[2], num);
        nb_format_number(num, sizeof(num), 0, 2, med > 0 ? 1.0 / med : NAN);
        nb_markdown_cell(out, &cols[3], num);
        nb_format_number(num, NB_NUMBER_MAX, 0, 1, err * 100.0);
        strcat(num, "%");
        nb_markdown_cell(out, &cols[4], num);
        nb_markdown_cell(out, &cols[5], "");
        nb_markdown_code(out, r->cfg.name);
        if (i == 0)
            nb_markdown_text(out, " (baseline)");
        else if (nb_comparison_significant(c, i))
            nb_markdown_text(out, est > 1 ? " (faster)" : " (slower)");
        fputc('\n', out);
    }

    /* the verdict: one line under the table */
    fputc('\n', out);
    est = nb_comparison_relative(c, f, &lo, &hi);
    if (f != 0 && nb_comparison_significant(c, f)) {
        nb_markdown_code(out, nb_comparison_result(c, f)->cfg.name);
        snprintf(a, sizeof(a), "%.3fx", est);
        nb_c_decimal_point(a);
        fprintf(out, " is fastest, %s as fast as ", a);
        nb_markdown_code(out, base->cfg.name);
        snprintf(a, sizeof(a), "%.3f", lo);
        snprintf(b, sizeof(b), "%.3f", hi);
        nb_c_decimal_point(a);
        nb_c_decimal_point(b);
        fprintf(out, " (95%% interval %s-%s", a, b);
    } else {
        size_t slower = 0;
        for (i = 1; i < n; ++i)
            slower += nb_comparison_significant(c, i);
        if (slower == n - 1) {
            nb_markdown_code(out, base->cfg.name);
            fputs(" (the baseline) is fastest: every other is significantly slower (95%", out);
        } else {
            fputs("No alternative is significantly faster than ", out);
            nb_markdown_code(out, base->cfg.name);
            fputs(" (95%", out);
        }
    }
    nb_format_number(num, sizeof(num), 1, 0, (double)nb_comparison_iterations(c));
    fprintf(out, ", family-wise over %zu comparison%s; %zu paired rounds, each the best of %d "
            "epochs of %s iteration%s)\n", n - 1, n == 2 ? "" : "s", nb_comparison_rounds(c),
            NB_COMPARE_EPOCHS_PER_ROUND, num, nb_comparison_iterations(c) == 1 ? "" : "s");
    nb_table_forget(out); /* the next nb_run row starts its own table */
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
