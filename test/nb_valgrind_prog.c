/* A program that uses the harness, for test_instructions.sh: two runs whose ops do the
 * same work once and twice, so their instruction counts must be 1:2. Prints the table, then
 * one line per result: "<name> ins=<median instructions per op> bra=<branches per op>".
 * Arguments: "json FILE" also writes nanobench's JSON there; "crash" makes the op crash
 * under valgrind; "none" runs nothing; a last argument -output-json=FILE makes it a
 * stand-in for another bench_bitcoin build (stand_in). */
#include "bench/nanobench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned rounds;
    int crash;
    uint64_t state;
} work;

/* A chain of multiplies and shifts: its cost per round is fixed, and it cannot be folded. */
static void op(void *arg)
{
    work *w = arg;
    uint64_t x = w->state;
    unsigned i;
    if (w->crash) {
        volatile int *volatile nowhere = NULL;
        *nowhere = 1; /* a real fault, which valgrind reports */
    }
    for (i = 0; i < w->rounds; ++i)
        x = (x ^ (x >> 29)) * UINT64_C(0xbf58476d1ce4e5b9) + i;
    w->state = x;
    nb_do_not_optimize_away(x);
}

/* A stand-in for another bench_bitcoin build under -instructions -against: takes its
 * -filter= and -output-json= options, runs one benchmark named SipHash_32b that does less
 * work than bench_bitcoin's, and writes the JSON. */
static int stand_in(int argc, char **argv)
{
    nb_bench *b = nb_bench_new();
    work w = {10, 0, 1};
    const char *path = NULL;
    FILE *f;
    int i, rc = 0;
    for (i = 1; i < argc; i++)
        if (strncmp(argv[i], "-output-json=", 13) == 0)
            path = argv[i] + 13;
    nb_run(nb_name(b, "SipHash_32b"), op, &w);
    f = path ? fopen(path, "w") : NULL;
    if (!f || nb_render(nb_templ_json(), b, f) != 0 || fclose(f) != 0 || nb_get_error(b))
        rc = 1;
    nb_bench_free(b);
    return rc;
}

int main(int argc, char **argv)
{
    nb_bench *b = nb_bench_new();
    work once = {500, 0, 1}, twice = {1000, 0, 1};
    size_t i;
    if (argc > 1 && strncmp(argv[argc - 1], "-output-json=", 13) == 0) {
        nb_bench_free(b);
        return stand_in(argc, argv);
    }
    if (argc > 1 && strcmp(argv[1], "none") == 0) {
        nb_bench_free(b);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "crash") == 0)
        once.crash = nb_valgrind_counting();
    nb_run(nb_name(b, "once"), op, &once);
    nb_run(nb_name(b, "twice"), op, &twice);
    for (i = 0; i < nb_result_count(b); ++i) {
        const nb_result *r = nb_result_at(b, i);
        printf("%s ins=%.17g bra=%.17g\n", nb_result_name(r),
               nb_result_median(r, NB_INSTRUCTIONS), nb_result_median(r, NB_BRANCH_INSTRUCTIONS));
    }
    if (argc > 2 && strcmp(argv[1], "json") == 0) {
        FILE *f = fopen(argv[2], "w");
        if (!f || nb_render(nb_templ_json(), b, f) != 0 || fclose(f) != 0) {
            fprintf(stderr, "nb_valgrind_prog: cannot write %s\n", argv[2]);
            return 1;
        }
    }
    if (nb_get_error(b) != 0)
        return 1;
    nb_bench_free(b);
    return 0;
}
