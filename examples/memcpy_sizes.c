/* memcpy at three sizes, with bytes as the unit: bytes per second. */
#include "bench/nanobench.h"
#include <stdio.h>
#include <string.h>

static char src[1 << 20], dst[1 << 20];
static size_t n;
static void copy(void *arg) { (void)arg; memcpy(dst, src, n); nb_clobber_memory(); }

int main(void)
{
    nb_bench *b = nb_title(nb_bench_new(), "memcpy");
    for (n = 64; n <= sizeof src; n *= 128) {   /* 64 B, 8 KiB, 1 MiB */
        char name[32];
        snprintf(name, sizeof name, "memcpy %zu", n);
        NB_RUN(b, .name = name, .unit = "byte", .batch = (double)n, .op = copy);
    }
    int failed = nb_get_error(b) != 0;
    nb_bench_free(b);
    return failed;
}
