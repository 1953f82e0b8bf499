/* A program outside this tree using the installed harness, as a user would:
 *   cc example.c $(pkg-config --cflags --libs nanobench-c)
 * CI builds it against a `make install DESTDIR=...` copy and runs it. */
#include <bench/nanobench.h>

#include <stdint.h>
#include <stdio.h>

static void add_op(void *arg)
{
    uint64_t *x = arg;
    *x += 3;
    nb_do_not_optimize_away(*x);
}

int main(void)
{
    uint64_t x = 0;
    nb_bench *b = nb_bench_new();
    if (!b)
        return 1;
    nb_run(nb_name(b, "add"), add_op, &x);
    if (nb_result_count(b) != 1 || !(nb_result_median(nb_result_at(b, 0), NB_ELAPSED) > 0)) {
        fputs("install_example: no result\n", stderr);
        nb_bench_free(b);
        return 1;
    }
    nb_bench_free(b);
    return 0;
}
