/* The complexity of a linear scan: summing 1,000 to 64,000 ints, then the Big-O fits. */
#include "bench/nanobench.h"
#include <stdio.h>

static unsigned v[64000], n;
static void scan(void *arg)
{
    const unsigned *a = arg;
    unsigned sum = 0;
    for (unsigned i = 0; i < n; ++i) sum += a[i];
    nb_do_not_optimize_away(sum);
}

int main(void)
{
    nb_rng rng = { 0x9e3779b97f4a7c15u, 1 };
    for (n = 0; n < 64000; ++n) v[n] = nb_rng_bounded(&rng, 1000);
    nb_bench *b = nb_bench_new();
    for (n = 1000; n <= 64000; n *= 2)
        NB_RUN(b, .name = "scan", .complexity_n = n, .op = scan, .arg = v);
    nb_bigo fits[6];
    int failed = nb_bigo_print(stdout, fits, nb_complexity_bigo(b, fits, 6)) || nb_get_error(b);
    nb_bench_free(b);
    return failed;
}
