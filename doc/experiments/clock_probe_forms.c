/* The core-clock probe's chain in three forms, and the library's probe itself.
 *
 *   cc -O2 -I src doc/experiments/clock_probe_forms.c BUILD/src/bench/.libs/libnanobench.a \
 *      -lm -o clock_probe_forms && ./clock_probe_forms
 *
 * prints five readings of each: adds of an immediate (which some cores fold in their
 * renamer, several a cycle), adds of a register (one a cycle), multiplies (three cycles a
 * step, so the rate times three), then twenty of nb_freq_probe_ghz(). x86-64, GCC or clang. */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

double nb_freq_probe_ghz(void);

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

#define STEPS8(s) s s s s s s s s
#define CHAIN(name, step)                                                         \
    static uint64_t name(unsigned n)                                              \
    {                                                                             \
        uint64_t x = 1, one = 1, t0 = now_ns();                                   \
        unsigned i;                                                               \
        for (i = 0; i < n; ++i)                                                   \
            __asm__ __volatile__(STEPS8(step) : "+r"(x) : "r"(one));              \
        return now_ns() - t0;                                                     \
    }
CHAIN(chain_imm, "add $1, %0\n\t")
CHAIN(chain_reg, "add %1, %0\n\t")
CHAIN(chain_mul, "imul %1, %0\n\t")

/* GHz from the difference of a short and a long chain (8192 steps apart). */
static double rate(uint64_t (*chain)(unsigned), double cycles_per_step)
{
    uint64_t s = chain(128), l = chain(1152);
    return l > s ? cycles_per_step * 8192.0 / (double)(l - s) : 0.0;
}

int main(void)
{
    int i;
    for (i = 0; i < 5; ++i)
        printf("add imm %.2f  add reg %.2f  imul %.2f GHz\n", rate(chain_imm, 1),
               rate(chain_reg, 1), rate(chain_mul, 3));
    printf("nb_freq_probe_ghz:");
    for (i = 0; i < 20; ++i)
        printf(" %.3f", nb_freq_probe_ghz());
    printf("\n");
    return 0;
}
