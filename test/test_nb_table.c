/* The markdown result table as golden text (rows taken from real nanobench output):
 * columns, headers and when they repeat, unstable and overflow rows, long units, several
 * streams, write errors. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_test_hooks.h"
#include "check.h"
#include "nb_fake.h"
#include "util/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Units and time units of any length: printed whole in the header, and a
 * change anywhere in them starts a new header; numbers of any size printed
 * whole. */
static void test_long_units_and_numbers(void)
{
    static char unit[10001], unit2[10001], tu[3001];
    fake f = { 0, 0, 1000, 1000, 0, 0 };
    char *text, *row;
    size_t len, digits = 0;
    FILE *out;
    nb_bench *b = fake_bench_to_memory(&f, &out, &text, &len);
    if (!b)
        return;
    memset(unit, 'u', sizeof unit - 1);
    memcpy(unit2, unit, sizeof unit);
    unit2[9000] = 'v';
    memset(tu, 't', sizeof tu - 1);
    nb_run(nb_name(nb_unit(b, unit), "u1"), fake_op, &f);
    nb_run(nb_name(nb_unit(b, unit2), "u2"), fake_op, &f);
    nb_run(nb_name(nb_time_unit(b, 1e-9, tu), "t1"), fake_op, &f);
    nb_run(nb_name(nb_time_unit(nb_batch(nb_unit(b, "op"), 1e-300), 1e-9, "ns"), "big"),
           fake_op, &f);
    fclose(out);
    CHECK(nb_get_error(b) == 0);
    if (CHECK(text != NULL)) {
        size_t headers = 0;
        const char *p;
        for (p = text; (p = strstr(p, "|----")) != NULL; ++p, ++headers)
            p = strchr(p, '\n') ? strchr(p, '\n') : p;
        CHECKF(headers == 4, "%zu headers", headers);  /* u1, u2, t1, big */
        CHECK(strstr(text, unit2) != NULL);
        /* "<time unit>/<unit>", whole */
        {
            char *want = malloc(sizeof tu + sizeof unit2 + 1);
            if (CHECK(want != NULL)) {
                sprintf(want, "%s/%s", tu, unit2);
                CHECK(strstr(text, want) != NULL);
            }
            free(want);
        }
        /* 1000 ns per op over a batch of 1e-300: about 1e303 ns/op, every digit
         * (303 or 304 before the point, as the median comes out) */
        row = strstr(text, "`big`");
        if (CHECK(row != NULL)) {
            while (row > text && row[-1] != '\n')
                --row;
            for (p = row + 1; *p && *p != '|'; ++p)
                digits += *p >= '0' && *p <= '9';
            CHECKF(digits >= 305 && digits <= 306 && p[-4] == '.' && p[-1] == ' ',
                   "%zu digits", digits);
        }
    }
    free(text);
    nb_bench_free(b);
}

/* A complexity table between two rows of the same columns: the second row
 * gets its header again (the markdown would otherwise join it to the fit table). */
static void test_header_after_bigo(void)
{
    fake f = { 0, 0, 1000, 1000, 0, 0 };
    nb_bigo fit[8];
    double n[] = { 1, 2, 3 }, t[] = { 1, 2, 3 };
    char *text, *p;
    size_t len, fits;
    int headers = 0;
    FILE *out;
    nb_bench *b = fake_bench_to_memory(&f, &out, &text, &len);
    if (!b)
        return;
    nb_run(nb_name(b, "first"), fake_op, &f);
    fits = nb_bigo_fit(n, t, 3, fit, 8);
    CHECK(nb_bigo_print(out, fit, fits) == 0);
    nb_run(nb_name(b, "second"), fake_op, &f);
    fclose(out);
    for (p = text; p && (p = strstr(p, "|:-")) != NULL; ++p)
        headers++;
    CHECKF(headers == 2, "%d results headers", headers);
    free(text);
    unsetenv("NANOBENCH_SUPPRESS_WARNINGS");
    nb_bench_free(b);
}

/* 1 when the line of text holding name starts with prefix. */
static int row_starts(const char *text, const char *name, const char *prefix)
{
    const char *at = text ? strstr(text, name) : NULL;
    if (!at)
        return 0;
    while (at > text && at[-1] != '\n')
        --at;
    return strncmp(at, prefix, strlen(prefix)) == 0;
}

/* The relative column's 100% is the first row of its table: when a title
 * comes back after another table, its rows start a new reference (nanobench
 * forgets its results on every title or unit change). */
static void test_relative_baseline(void)
{
    fake f = { 0, 0, 1000, 1000, 0, 0 };
    char *text;
    size_t len;
    FILE *out;
    nb_bench *b = fake_bench_to_memory(&f, &out, &text, &len);
    if (!b)
        return;
    nb_relative(b, 1);
    nb_run(nb_name(nb_title(b, "A"), "a1"), fake_op, &f);
    f.cost = 2000;
    nb_run(nb_name(b, "a2"), fake_op, &f);                        /* 50% of a1 */
    nb_run(nb_name(nb_title(b, "B"), "b1"), fake_op, &f);         /* a new table: 100% */
    f.cost = 4000;
    nb_run(nb_name(nb_title(b, "A"), "a3"), fake_op, &f);         /* A again: 100% */
    f.cost = 1000;
    nb_run(nb_name(b, "a4"), fake_op, &f);                        /* 400% of a3 */
    nb_run(nb_name(nb_unit(b, "byte"), "a5"), fake_op, &f);       /* unit changed: 100% */
    fclose(out);
    CHECK(row_starts(text, "`a1`", "|   100.0% |            1,000.00 |"));
    CHECK(row_starts(text, "`a2`", "|    50.0% |            2,000.00 |"));
    CHECK(row_starts(text, "`b1`", "|   100.0% |            2,000.00 |"));
    CHECK(row_starts(text, "`a3`", "|   100.0% |            4,000.00 |"));
    CHECK(row_starts(text, "`a4`", "|   400.0% |            1,000.00 |"));
    CHECK(row_starts(text, "`a5`", "|   100.0% |            1,000.00 |"));
    CHECK(text && strstr(text, "| relative |             ns/byte |") != NULL);
    if (check_failures())
        fputs(text ? text : "(no text)", stderr);
    free(text);
    unsetenv("NANOBENCH_SUPPRESS_WARNINGS");
    nb_bench_free(b);
}


/* 1 when a row measured with complexity N n has the complexityN column, 0
 * when "complexityN" appears nowhere, 2 when it appears but not as that
 * column's header, -1 when no row could be made. */
static int complexity_column(nb_bench *b, double n)
{
    nb_result *r;
    char *text;
    int shown;
    nb_complexity_n(b, n);
    if ((r = eleven(b, 1e-6, 0)) == NULL)
        return -1;
    text = render_rows(&r, 1, 0, 0);
    shown = !text ? -1 : !strstr(text, "complexityN") ? 0
          : strstr(text, "| complexityN |") ? 1 : 2;
    free(text);
    nb_test_result_free(r);
    return shown;
}

static void test_table_rules(void)
{
    nb_bench *b = nb_bench_new();
    nb_result *rs[4];
    char *text = NULL, *p;
    size_t len = 0;
    FILE *out;
    double per[] = { 1e-6, 2e-6, 3e-6, 4e-6, 5e-6 };
    uint64_t it[] = { 10, 10, 10, 10, 10 };
    if (!CHECK(b != NULL))
        return;
    /* relative: the first is 100%, a twice slower one 50% */
    nb_relative(nb_name(b, "a`b"), 1);
    rs[0] = eleven(b, 1e-6, 0);
    nb_name(b, "slow");
    rs[1] = eleven(b, 2e-6, 0);
    if (!CHECK(rs[0] && rs[1]))
        return;
    text = render_rows(rs, 2, 0, 0);
    CHECK(text && strcmp(text,
        "\n| relative |               ns/op |                op/s |    err% |     total | "
        "benchmark\n"
        "|---------:|--------------------:|--------------------:|--------:|----------:|"
        ":----------\n"
        "|   100.0% |            1,000.00 |        1,000,000.00 |    0.0% |      0.00 | "
        "``a`b``\n"
        "|    50.0% |            2,000.00 |          500,000.00 |    0.0% |      0.00 | "
        "`slow`\n") == 0);
    free(text);
    nb_test_result_free(rs[1]);

    /* a first row with no time (it overflowed): the others' relative is "-",
     * not "-%" */
    nb_test_result_overflow(rs[0]);
    nb_name(b, "fast");
    rs[1] = eleven(b, 1e-6, 0);
    if (!CHECK(rs[1] != NULL))
        return;
    text = render_rows(rs, 2, 0, 0);
    CHECK(text && strstr(text, "\n|        - |            1,000.00 |") != NULL);
    free(text);
    nb_test_result_free(rs[1]);
    nb_test_result_free(rs[0]);
    nb_relative(b, 0);

    /* complexityN shows only when set as Big-O uses it: positive and finite */
    {
        static const double unset[] = { 0.0, -1.0, NAN, INFINITY };
        size_t k;
        for (k = 0; k < 4; ++k)
            CHECKF(complexity_column(b, unset[k]) == 0, "N %g shown", unset[k]);
        CHECK(complexity_column(b, 0.5) == 1);
        nb_complexity_n(b, -1);
    }

    /* names and titles stay inside their cell as CommonMark code: '|'
     * escaped, line breaks as spaces, the code span's delimiter longer than
     * any run of backticks inside, and padded when a backtick is at an end;
     * the unit too, which the header's column titles hold */
    nb_unit(nb_title(nb_name(b, "a|b\nc``d"), "x|y"), "u|v\nw");
    rs[0] = eleven(b, 1e-6, 0);
    nb_name(b, "`edge`");
    rs[1] = eleven(b, 1e-6, 0);
    if (!CHECK(rs[0] && rs[1]))
        return;
    text = render_rows(rs, 2, 0, 0);
    CHECK(text && strstr(text, "| x\\|y\n") != NULL);
    CHECK(text && strstr(text, "| ```a\\|b c``d```\n") != NULL);
    CHECK(text && strstr(text, "| `` `edge` ``\n") != NULL);
    CHECK(text && strstr(text, " ns/u\\|v w |") && strstr(text, " u\\|v w/s |"));
    CHECK(text && strstr(text, "|:-----\n") != NULL);  /* as wide as "x\\|y" */
    if (text) {
        /* every row has the header's number of cell separators */
        size_t lines = 0, pipes = 0, first = 0;
        for (p = text + 1; *p; ++p) {
            if (*p == '|' && p[-1] != '\\')
                ++pipes;
            if (*p == '\n') {
                if (lines++ == 0)
                    first = pipes;
                CHECK(pipes == first);
                pipes = 0;
            }
        }
        CHECK(lines == 4);
    }
    free(text);
    nb_test_result_free(rs[1]);
    nb_test_result_free(rs[0]);
    nb_unit(nb_title(b, "benchmark"), "op");

    /* unstable: err >= 5% gets the marker and advice; suppressed, not */
    nb_name(b, "noisy");
    rs[0] = make_result(b, per, it, 5);
    if (!CHECK(rs[0] != NULL))
        return;
    text = render_rows(rs, 1, 0, 0);
    CHECK(text && strstr(text, "| :wavy_dash: `noisy` (Unstable with ~10.0 iters. Increase "
                               "`nb_min_epoch_iterations` to e.g. 100)\n"));
    CHECK(text && strstr(text, "|   40.0% |"));  /* errors 2, .5, 0, .25, .4 */
    free(text);
    text = render_rows(rs, 1, 0, 1);
    CHECK(text && !strstr(text, "wavy_dash") && strstr(text, "| `noisy`\n"));
    free(text);
    /* a program's own advice replaces the default, and "" puts it back */
    nb_test_result_free(rs[0]);
    rs[0] = make_result(nb_unstable_advice(b, "Increase `-min-time` to e.g. 500"), per, it, 5);
    if (!CHECK(rs[0] != NULL))
        return;
    CHECK(strcmp(nb_get_unstable_advice(b), "Increase `-min-time` to e.g. 500") == 0);
    text = render_rows(rs, 1, 0, 0);
    CHECK(text && strstr(text, "`noisy` (Unstable with ~10.0 iters. Increase `-min-time` to "
                               "e.g. 500)\n"));
    free(text);
    CHECK(strcmp(nb_get_unstable_advice(nb_unstable_advice(b, NULL)), "") == 0);

    /* the time unit names and scales the time column */
    nb_time_unit(nb_name(b, "slow"), 1e-3, "ms");
    rs[1] = eleven(b, 2e-3, 0);
    if (!CHECK(rs[1] != NULL))
        return;
    text = render_rows(rs + 1, 1, 0, 1);
    CHECK(text && strstr(text, "|               ms/op |                op/s |") != NULL);
    CHECK(text && strstr(text, "|                2.00 |              500.00 |    0.0% |      "
                               "0.02 | `slow`\n") != NULL);
    free(text);
    nb_test_result_free(rs[1]);
    nb_time_unit(b, 1e-9, "ns");

    /* headers: once per stream while columns and title stay; again when they change */
    nb_name(b, "x");
    rs[1] = eleven(b, 1e-6, 0);
    nb_unit(b, "byte");
    rs[2] = eleven(b, 1e-6, 0);
    nb_title(b, "other title");
    rs[3] = eleven(b, 1e-6, 0);
    if (!CHECK(rs[1] && rs[2] && rs[3]))
        return;
    out = open_memstream(&text, &len);
    if (!CHECK(out != NULL))
        return;
    CHECK(nb_table_row(out, rs[0], rs[0], 0, 1) == 0);
    CHECK(nb_table_row(out, rs[1], rs[0], 0, 1) == 0);   /* same columns: no header */
    CHECK(nb_table_row(out, rs[2], rs[0], 0, 1) == 0);   /* unit changed */
    CHECK(nb_table_row(out, rs[3], rs[0], 0, 1) == 0);   /* title changed */
    CHECK(nb_table_row(out, rs[3], rs[0], 0, 1) == 0);
    CHECK(nb_table_row(out, rs[3], rs[0], 1u << NB_INSTRUCTIONS, 1) == 0);  /* columns */
    nb_table_forget(out);
    fclose(out);
    {
        int headers = 0;
        for (p = text; (p = strstr(p, "|:-")) != NULL; ++p)
            headers++;
        CHECKF(headers == 4, "%d headers", headers);
        CHECK(strstr(text, "| other title\n|") != NULL);
        CHECK(strstr(text, "|:------------\n") != NULL);
    }
    free(text);
    nb_test_result_free(rs[0]);
    nb_test_result_free(rs[1]);
    nb_test_result_free(rs[2]);
    nb_test_result_free(rs[3]);
    nb_bench_free(b);
}

/* Table details the golden rows do not reach: miss% under one branch per
 * unit, the unstable marker at exactly 5%, the rounding of the advised
 * minEpochIterations, and names with a carriage return or a backtick at
 * one end only. */
static void test_table_edges(void)
{
    nb_bench *b = nb_bench_new();
    nb_result *r;
    char *text;
    double per[50], per3[3];
    uint64_t it[50];
    unsigned branches = (1u << NB_BRANCH_INSTRUCTIONS) | (1u << NB_BRANCH_MISSES);
    size_t i;
    if (!CHECK(b != NULL))
        return;

    /* 0.1 misses of 0.5 branches per op */
    r = eleven(nb_name(b, "few branches"), 1e-6, 0);
    if (!CHECK(r != NULL))
        goto out;
    set_counter(r, NB_BRANCH_INSTRUCTIONS, 0.5);
    set_counter(r, NB_BRANCH_MISSES, 0.1);
    text = render_rows(&r, 1, branches, 1);
    CHECKF(text && strstr(text, "|           0.50 |   20.0% |"), "%s", text ? text : "");
    free(text);
    nb_test_result_free(r);

    /* errors 0.9, 0, 1/20 (exact in binary: the values are multiples of 2^-20) */
    per3[0] = 10 * 0x1p-20;
    per3[1] = 19 * 0x1p-20;
    per3[2] = 20 * 0x1p-20;
    it[0] = it[1] = it[2] = 1;
    r = make_result(nb_name(b, "edge"), per3, it, 3);
    if (!CHECK(r != NULL))
        goto out;
    CHECK(nb_result_err(r, NB_ELAPSED) == 0.05);
    text = render_rows(&r, 1, 0, 0);
    CHECK(text && strstr(text, "|    5.0% |"));
    CHECK(text && strstr(text, "| :wavy_dash: `edge` (Unstable with ~1.0 iters. "));
    free(text);
    nb_test_result_free(r);

    /* 503 iterations over 50 epochs: 10.06 on average, 10x that rounds to 101 */
    for (i = 0; i < 50; ++i) {
        per[i] = (double)(1 + i % 3) * 1e-6;
        it[i] = i < 3 ? 11 : 10;
    }
    r = make_result(nb_name(b, "round"), per, it, 50);
    if (!CHECK(r != NULL))
        goto out;
    text = render_rows(&r, 1, 0, 0);
    CHECKF(text && strstr(text, "`round` (Unstable with ~10.1 iters. Increase "
                                "`nb_min_epoch_iterations` to e.g. 101)\n"),
           "%s", text ? text : "");
    free(text);
    nb_test_result_free(r);

    /* names: '\r' is a line break too; a backtick at either end alone pads */
    {
        static const char *const names[][2] = {
            { "a\rb", "| `a b`\n" }, { "`lead", "| `` `lead ``\n" },
            { "trail`", "| `` trail` ``\n" },
        };
        for (i = 0; i < 3; ++i) {
            r = eleven(nb_name(b, names[i][0]), 1e-6, 0);
            if (!CHECK(r != NULL))
                goto out;
            text = render_rows(&r, 1, 0, 1);
            CHECKF(text && strstr(text, names[i][1]), "%s", text ? text : "");
            free(text);
            nb_test_result_free(r);
        }
    }
out:
    nb_bench_free(b);
}

/* Headers are tracked per stream: interleaving two streams with the same
 * columns gives each one header. */
static void test_two_streams(void)
{
    nb_bench *b = nb_bench_new();
    nb_result *r;
    char *ta = NULL, *tb = NULL, *p;
    size_t la = 0, lb = 0;
    FILE *a = open_memstream(&ta, &la), *c = open_memstream(&tb, &lb);
    int ha = 0, hb = 0;
    if (!CHECK(b && a && c))
        return;
    r = eleven(b, 1e-6, 0);
    if (!CHECK(r != NULL))
        return;
    CHECK(nb_table_row(a, r, r, 0, 1) == 0);
    CHECK(nb_table_row(c, r, r, 0, 1) == 0);
    CHECK(nb_table_row(a, r, r, 0, 1) == 0);
    CHECK(nb_table_row(c, r, r, 0, 1) == 0);
    nb_table_forget(a);
    nb_table_forget(c);
    fclose(a);
    fclose(c);
    for (p = ta; (p = strstr(p, "|:-")) != NULL; ++p)
        ha++;
    for (p = tb; (p = strstr(p, "|:-")) != NULL; ++p)
        hb++;
    CHECK(ha == 1 && hb == 1);
    CHECK(strcmp(ta, tb) == 0);
    free(ta);
    free(tb);
    nb_test_result_free(r);
    nb_bench_free(b);
}

/* A header comes again when something else was written to the stream
 * since our last row (the markdown table ended there), and for a new stream
 * that reuses a closed one's FILE address, even if the caller wrote to it
 * first. */
static void test_header_after_foreign_text(void)
{
    nb_bench *b = nb_bench_new();
    nb_result *r;
    char *text = NULL, *p;
    size_t len = 0;
    int headers = 0, round;
    FILE *out;
    if (!CHECK(b != NULL))
        return;
    r = eleven(b, 1e-6, 0);
    if (!CHECK(r != NULL))
        return;
    out = open_memstream(&text, &len);
    if (CHECK(out != NULL)) {
        CHECK(nb_table_row(out, r, r, 0, 1) == 0);
        CHECK(nb_table_row(out, r, r, 0, 1) == 0);
        fputs("some text of the caller's\n", out);
        CHECK(nb_table_row(out, r, r, 0, 1) == 0);
        fclose(out);
        for (p = text; p && (p = strstr(p, "|:-")) != NULL; ++p)
            headers++;
        CHECK(headers == 2);
        free(text);
    }
    /* files closed and reopened: glibc hands the same FILE back */
    for (round = 0; round < 2; ++round) {
        char line[256];
        FILE *f = tmpfile();
        if (!CHECK(f != NULL))
            break;
        fputs("# a line of the caller's\n", f);
        CHECK(nb_table_row(f, r, r, 0, 1) == 0);
        rewind(f);
        headers = 0;
        while (fgets(line, sizeof line, f))
            headers += strncmp(line, "|:-", 3) == 0 || strstr(line, "|:-") != NULL;
        CHECK(headers == 1);
        fclose(f);
    }
    nb_test_result_free(r);
    nb_bench_free(b);
}

/* A write that fails is reported by the row that hit it: rows are flushed. */
static void test_write_error_at_once(void)
{
    fake f = { 0, 0, 1000, 1000, 0, 0 };
    nb_bench *b = fake_bench(&f);
    FILE *full = fopen("/dev/full", "w");
    if (!full) {
        check_untested("the table's write error (no /dev/full)");
        nb_bench_free(b);
        return;
    }
    if (CHECK(b != NULL)) {
        nb_output(b, full);
        nb_epochs(b, 1);
        nb_epoch_iterations(b, 10);
        CHECK(nb_get_error(b) == 0);
        nb_run(nb_name(b, "one"), fake_op, &f);
        CHECK(nb_get_error(b) == -1);
    }
    nb_table_forget(full);
    fclose(full);
    nb_bench_free(b);
}

/* "Increase minEpochIterations to e.g. 10x": saturates instead of an
 * undefined conversion when 10x the average does not fit. */
static void test_unstable_advice_saturates(void)
{
    nb_bench *b = nb_bench_new();
    nb_result *r;
    char *text;
    double per[] = { 1e-9, 2e-9, 3e-9, 4e-9, 5e-9 };
    uint64_t it[5];
    int i;
    if (!CHECK(b != NULL))
        return;
    for (i = 0; i < 5; ++i)
        it[i] = UINT64_C(1) << 62;
    r = make_result(nb_name(b, "huge"), per, it, 5);
    if (!CHECK(r != NULL))
        return;
    text = render_rows(&r, 1, 0, 0);
    CHECK(text && strstr(text, "to e.g. 18446744073709551615)") != NULL);
    free(text);
    nb_test_result_free(r);
    nb_bench_free(b);
}

/* nb_show_column hides a column from the rows of the runs after it (the
 * header follows); nb_show_context adds the context pairs as columns before
 * the name. */
static void test_columns_shown(void)
{
    fake f = { 0, 0, 1000, 1000, 0, 0 };
    char *text;
    size_t len;
    FILE *out;
    nb_bench *b = fake_bench_to_memory(&f, &out, &text, &len);
    if (!b)
        return;
    nb_run(nb_name(b, "all"), fake_op, &f);
    nb_show_column(nb_show_column(b, NB_COLUMN_TOTAL, 0), NB_COLUMN_RATE, 0);
    CHECK(nb_get_show_column(b, NB_COLUMN_TOTAL) == 0 && nb_get_show_column(b, NB_COLUMN_ERR));
    nb_run(nb_name(b, "fewer"), fake_op, &f);
    nb_show_column(b, NB_COLUMN_TOTAL, 1);
    nb_context(nb_context(nb_show_context(b, 1), "size", "64"), "a|b", "x");
    CHECK(nb_get_show_context(b) == 1);
    nb_run(nb_name(b, "with context"), fake_op, &f);
    fclose(out);
    if (CHECK(text != NULL)) {
        const char *fewer = strstr(text, "`fewer`"), *ctx = strstr(text, "`with context`");
        CHECK(strstr(text, "|               ns/op |                op/s |    err% |     total "
                           "| benchmark\n") != NULL);
        CHECK(strstr(text, "\n|               ns/op |    err% | benchmark\n") != NULL);
        CHECK(fewer && ctx && strstr(fewer, "op/s") == NULL);
        /* the context columns: headers, then the values, escaped */
        CHECK(strstr(text, "|    err% |     total |      size |      a\\|b | benchmark\n")
              != NULL);
        CHECK(ctx && strstr(text, "|        64 |         x | `with context`") != NULL);
    }
    free(text);
    nb_bench_free(b);
}

int main(int argc, char **argv)
{
    (void)argc;
    check_rng_init(argv[0]);
    unsetenv("NANOBENCH_ENDLESS");
    test_long_units_and_numbers();
    test_relative_baseline();
    test_header_after_bigo();
    check_golden_seed();
    test_table_rules();
    test_table_edges();
    test_two_streams();
    test_header_after_foreign_text();
    test_write_error_at_once();
    test_unstable_advice_saturates();
    test_columns_shown();
    return check_finish();
}
