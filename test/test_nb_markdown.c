/* The markdown-table writer (nb_markdown_*): cells, alignment, the rule line,
 * escaping, code spans, the open last column, write errors and NULLs. */
#include "bench/nanobench.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

/* What fn wrote, as a string the caller frees. */
static char *written(void (*fn)(FILE *out))
{
    FILE *f = tmpfile();
    char *s;
    if (!f)
        return NULL;
    fn(f);
    s = check_slurp(f);
    fclose(f);
    return s;
}

static int is(void (*fn)(FILE *out), const char *want)
{
    char *got = written(fn);
    int ok = got && strcmp(got, want) == 0;
    if (!ok)
        fprintf(stderr, "got  [%s]\nwant [%s]\n", got ? got : "(null)", want);
    free(got);
    return ok;
}

/* nanobench's layout: right-aligned, no lead; the name column open. */
static const nb_column nano[3] = {
    { "ns/op", 8, NB_ALIGN_RIGHT, 0 }, { "err%", 6, NB_ALIGN_RIGHT, 0 },
    { "benchmark", 0, NB_ALIGN_LEFT, 1 },
};

static void nano_table(FILE *out)
{
    const char *row[3] = { "1,234.50", "0.3%", "`x`" };
    const char *empty[3] = { NULL, NULL, NULL };
    nb_markdown_header(out, nano, 3);
    nb_markdown_row(out, nano, 3, row);
    nb_markdown_row(out, nano, 3, empty);
}

/* Padded both ways with a lead space, and a column with no colon. */
static const nb_column mixed[4] = {
    { "this", 6, NB_ALIGN_RIGHT, 1 }, { "verdict", 9, NB_ALIGN_LEFT, 1 },
    { "n", 3, NB_ALIGN_NONE, 0 }, { "name", 0, NB_ALIGN_NONE, 1 },
};

static void mixed_table(FILE *out)
{
    const char *row[4] = { "1.5", "= faster", "7", "abc" };
    const char *wide[4] = { "1234567", "much too long", "12345", "x" };
    nb_markdown_header(out, mixed, 4);
    nb_markdown_row(out, mixed, 4, row);
    nb_markdown_row(out, mixed, 4, wide);   /* longer than the width: whole */
}

static void test_layouts(void)
{
    CHECK(is(nano_table, "|   ns/op |  err% | benchmark\n"
                         "|--------:|------:|:----------\n"
                         "|1,234.50 |  0.3% | `x`\n"
                         "|         |       | \n"));
    CHECK(is(mixed_table, "|   this | verdict   |n   | name\n"
                          "|-------:|:----------|----|------\n"
                          "|    1.5 | = faster  |7   | abc\n"
                          "| 1234567 | much too long |12345 | x\n"));
}

/* '|' escaped and counted twice for the width; line breaks as spaces. */
static void escaped_table(FILE *out)
{
    static const nb_column cols[2] = { { "a|b", 6, NB_ALIGN_RIGHT, 0 },
                                       { "x|y", 0, NB_ALIGN_LEFT, 1 } };
    const char *row[2] = { "|", "line\none\r|" };
    nb_markdown_header(out, cols, 2);
    nb_markdown_row(out, cols, 2, row);
}

static void pieces(FILE *out)
{
    static const nb_column open = { "t", 0, NB_ALIGN_LEFT, 1 };
    nb_markdown_cell(out, &open, ":warning: ");
    nb_markdown_code(out, "plain");
    nb_markdown_text(out, " and ");
    nb_markdown_code(out, "has ` one");
    nb_markdown_text(out, ", ");
    nb_markdown_code(out, "``ends`");
    nb_markdown_text(out, ", ");
    nb_markdown_code(out, "a|b");
    nb_markdown_text(out, NULL);
    nb_markdown_code(out, "");
    fputc('\n', out);
}

static void test_escaping(void)
{
    CHECK(is(escaped_table, "|  a\\|b | x\\|y\n"
                            "|------:|:-----\n"
                            "|    \\| | line one \\|\n"));
    CHECK(is(pieces, "| :warning: `plain` and ``has ` one``, ``` ``ends` ```, `a\\|b```\n"));
    CHECK(nb_markdown_width("a|b\n") == 5);
    CHECK(nb_markdown_width("") == 0 && nb_markdown_width(NULL) == 0);
}

/* A stream whose writes fail at once (opened for reading): every function
 * says -1. */
static void test_errors(void)
{
    const char *row[3] = { "1", "2", "3" };
    FILE *ro = fopen("/dev/null", "r");
    FILE *ok = tmpfile();
    if (!CHECK(ro != NULL) || !CHECK(ok != NULL)) {
        if (ro)
            fclose(ro);
        if (ok)
            fclose(ok);
        return;
    }
    CHECK(nb_markdown_header(ro, nano, 3) == -1);
    CHECK(nb_markdown_rule(ro, nano, 3) == -1);
    CHECK(nb_markdown_row(ro, nano, 3, row) == -1);
    CHECK(nb_markdown_cell(ro, &nano[0], "x") == -1);
    CHECK(nb_markdown_text(ro, "x") == -1);
    CHECK(nb_markdown_code(ro, "x") == -1);
    /* NULLs: no stream, no columns, no cells */
    CHECK(nb_markdown_header(NULL, nano, 3) == -1);
    CHECK(nb_markdown_header(ok, NULL, 3) == -1);
    CHECK(nb_markdown_rule(NULL, nano, 3) == -1);
    CHECK(nb_markdown_row(ok, nano, 3, NULL) == -1);
    CHECK(nb_markdown_row(ok, NULL, 3, row) == -1);
    CHECK(nb_markdown_cell(ok, NULL, "x") == -1);
    CHECK(nb_markdown_cell(NULL, &nano[0], "x") == -1);
    CHECK(nb_markdown_text(NULL, "x") == -1);
    CHECK(nb_markdown_code(NULL, "x") == -1);
    /* and on a good stream: 0, a NULL text or header is "" */
    CHECK(nb_markdown_header(ok, nano, 0) == 0);
    CHECK(nb_markdown_row(ok, NULL, 0, NULL) == 0);
    CHECK(nb_markdown_cell(ok, &nano[0], NULL) == 0);
    CHECK(nb_markdown_code(ok, NULL) == 0);
    fclose(ro);
    fclose(ok);
}

int main(int argc, char **argv)
{
    (void)argc;
    check_rng_init(argv[0]);
    test_layouts();
    test_escaping();
    test_errors();
    return check_finish();
}
