/* qsort against insertion sort on 200 shuffled ints, paired, each sort on fresh data. */
#include "bench/nanobench.h"
#include <stdlib.h>
#include <string.h>

enum { N = 200 };
static int shuffled[N], v[N];

static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
static void refill(void *arg) { (void)arg; memcpy(v, shuffled, sizeof v); }
static void by_qsort(void *arg) { (void)arg; qsort(v, N, sizeof v[0], cmp); }
static void by_insertion(void *arg)
{
    for (int i = 1, j, x; i < N; ++i) {
        for (j = i, x = v[i]; j > 0 && v[j - 1] > x; --j)
            v[j] = v[j - 1];
        v[j] = x;
    }
    (void)arg;
}

int main(void)
{
    nb_rng rng = { 0x9e3779b97f4a7c15u, 42 };
    for (int i = 0; i < N; ++i)
        shuffled[i] = (int)nb_rng_bounded(&rng, 1000000);
    nb_bench *b = nb_setup_each(nb_title(nb_bench_new(), "sort 200 ints"), refill, NULL);
    nb_comparison *c = NB_COMPARE(b, { .name = "qsort", .op = by_qsort },
                                  { .name = "insertion sort", .op = by_insertion });
    int failed = !c || nb_get_error(b);
    nb_comparison_free(c);
    nb_bench_free(b);
    return failed;
}
