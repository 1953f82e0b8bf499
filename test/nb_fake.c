/* The tests' fake clock and hand-built results (nb_fake.h). */
#include "nb_fake.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t fake_now(void *ctx)
{
    return ((fake *)ctx)->t;
}

void fake_op(void *arg)
{
    fake *f = arg;
    uint64_t c = f->calls == 0 ? f->first_cost : f->cost;
    if (f->fast_after && f->calls >= f->fast_after)
        c = f->fast_cost;
    f->t += c;
    f->calls++;
}

nb_bench *fake_bench(fake *f)
{
    nb_bench *b = nb_bench_new();
    if (!b)
        return NULL;
    nb_output(b, NULL);
    nb_performance_counters(b, 0);
    nb_test_set_clock(b, fake_now, f, 20);
    return b;
}

nb_bench *fake_bench_to_memory(fake *f, FILE **out, char **text, size_t *len)
{
    nb_bench *b = fake_bench(f);
    *text = NULL;
    *len = 0;
    *out = open_memstream(text, len);
    if (!CHECK(b != NULL) || !CHECK(*out != NULL)) {
        nb_bench_free(b);
        if (*out)
            fclose(*out);
        free(*text);
        return NULL;
    }
    setenv("NANOBENCH_SUPPRESS_WARNINGS", "1", 1);
    nb_output(b, *out);
    return b;
}

nb_result *make_result(nb_bench *b, const double *per_iter, const uint64_t *iters, size_t n)
{
    nb_result *r;
    size_t i;
    nb_epochs(b, n);
    r = nb_test_result_new(b);
    if (!r)
        return NULL;
    for (i = 0; i < n; ++i)
        nb_test_result_add(r, iters[i], per_iter[i] * (double)iters[i]);
    return r;
}

nb_result *eleven(nb_bench *b, double median, double dev)
{
    double per[11], d[11] = { -2, -1.5, -1, -1, -1, 0, 1, 1, 1, 1.5, 2 };
    uint64_t it[11];
    int i;
    for (i = 0; i < 11; ++i) {
        per[i] = median * (1 + d[i] * dev);
        it[i] = 1;
    }
    return make_result(b, per, it, 11);
}

void set_counter(nb_result *r, nb_measure m, double per_iter)
{
    size_t i;
    for (i = 0; i < nb_result_epoch_count(r); ++i)
        nb_test_result_set(r, m, i, per_iter * nb_test_epoch_total(r, NB_ITERATIONS, i));
}

char *render_rows(nb_result **rs, size_t n, unsigned mask, int suppress)
{
    char *text = NULL;
    size_t len = 0, i;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        return NULL;
    for (i = 0; i < n; ++i)
        CHECK(nb_table_row(out, rs[i], rs[0], mask, suppress) == 0);
    nb_table_forget(out);
    fclose(out);
    return text;
}

/* ---- checks shared by the C-locale and the decimal-comma programs ---- */

static int fmt_is(int width, int prec, double v, const char *want)
{
    char buf[64];
    nb_format_number(buf, sizeof(buf), width, prec, v);
    return CHECKF(strcmp(buf, want) == 0, "format(%d, %d, %.17g) = '%s', want '%s'", width,
                  prec, v, buf, want);
}

void check_format_cases(void)
{
    char small[5];
    fmt_is(20, 2, 535161444.83, "      535,161,444.83");
    fmt_is(1, 1, 1234.5, "1,234.5");
    fmt_is(0, 0, 999, "999");
    fmt_is(0, 0, 1000, "1,000");
    fmt_is(0, 0, 100000, "100,000");
    fmt_is(0, 2, -1234567.891, "-1,234,567.89");
    fmt_is(0, 2, -999.5, "-999.50");
    fmt_is(8, 1, 0.04, "     0.0");
    fmt_is(7, 3, 3.5889, "  3.589");
    fmt_is(14, 2, 1149134246, "1,149,134,246.00");  /* wider than asked: never cut */
    fmt_is(5, 1, NAN, "    -");
    fmt_is(1, 0, INFINITY, "-");
    CHECK(nb_format_number(small, sizeof(small), 10, 0, 1) == 4);
    CHECK(strcmp(small, "    ") == 0);
}

/* The locale's decimal point, in whatever a caller formatted, becomes '.'. */

/* A row of the table in /work/shared/seed/nanobench-pr.txt, rebuilt from
 * values that give those medians. */
void check_golden_seed(void)
{
    nb_bench *b = nb_bench_new();
    nb_result *rs[2];
    char *text;
    unsigned all = (1u << NB_INSTRUCTIONS) | (1u << NB_CPU_CYCLES) |
                   (1u << NB_BRANCH_INSTRUCTIONS) | (1u << NB_BRANCH_MISSES);
    if (!CHECK(b != NULL))
        return;
    nb_unit(nb_batch(nb_name(b, "bench/crypto_hash.cpp SHA1"), 1e6), "byte");
    rs[0] = eleven(b, 1e6 / 535161444.83, 0.003);
    if (!CHECK(rs[0] != NULL)) {
        nb_bench_free(b);
        return;
    }
    set_counter(rs[0], NB_INSTRUCTIONS, 21.36e6);
    set_counter(rs[0], NB_CPU_CYCLES, 5.9515e6);
    set_counter(rs[0], NB_BRANCH_INSTRUCTIONS, 0.06e6);
    set_counter(rs[0], NB_BRANCH_MISSES, 0);
    text = render_rows(rs, 1, all, 0);
    CHECK(text && strcmp(text,
        "\n|             ns/byte |              byte/s |    err% |        ins/byte |        "
        "cyc/byte |    IPC |       bra/byte |   miss% |     total | benchmark\n"
        "|--------------------:|--------------------:|--------:|----------------:|----------"
        "------:|-------:|---------------:|--------:|----------:|:----------\n"
        "|                1.87 |      535,161,444.83 |    0.3% |           21.36 |           "
        " 5.95 |  3.589 |           0.06 |    0.0% |      0.02 | `bench/crypto_hash.cpp "
        "SHA1`\n") == 0);
    if (text)
        printf("%s", text);
    free(text);
    nb_test_result_free(rs[0]);

    /* the complexityN table of the same document (no branch counters) */
    nb_unit(nb_batch(nb_name(b, "ComplexMemPool"), 1), "op");
    nb_complexity_n(b, 25);
    rs[0] = eleven(b, 1064241e-9, 0.014);
    nb_complexity_n(b, 800);
    rs[1] = eleven(b, 310109077e-9, 0.001);
    if (!CHECK(rs[0] && rs[1])) {
        nb_test_result_free(rs[0]);
        nb_test_result_free(rs[1]);
        nb_bench_free(b);
        return;
    }
    set_counter(rs[0], NB_INSTRUCTIONS, 3960279);
    set_counter(rs[0], NB_CPU_CYCLES, 2829708);
    set_counter(rs[1], NB_INSTRUCTIONS, 1149134246);
    set_counter(rs[1], NB_CPU_CYCLES, 984620812);
    text = render_rows(rs, 2, (1u << NB_INSTRUCTIONS) | (1u << NB_CPU_CYCLES), 0);
    CHECK(text && strcmp(text,
        "\n| complexityN |               ns/op |                op/s |    err% |          "
        "ins/op |          cyc/op |    IPC |     total | benchmark\n"
        "|------------:|--------------------:|--------------------:|--------:|---------------"
        "-:|----------------:|-------:|----------:|:----------\n"
        "|          25 |        1,064,241.00 |              939.64 |    1.4% |    3,960,279.00"
        " |    2,829,708.00 |  1.400 |      0.01 | `ComplexMemPool`\n"
        "|         800 |      310,109,077.00 |                3.22 |    0.1% |1,149,134,246.00"
        " |  984,620,812.00 |  1.167 |      3.41 | `ComplexMemPool`\n") == 0);
    if (text)
        printf("%s", text);
    free(text);
    nb_test_result_free(rs[0]);
    nb_test_result_free(rs[1]);
    nb_bench_free(b);
}
