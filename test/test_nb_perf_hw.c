/* Hardware performance counters on a loop of known instruction and branch counts, raw and
 * through nb_run. Skipped (exit 77) where the kernel exposes no PMU. Like test_nb_perf it
 * tests the counter group itself, so it sees its layout (nb_internal.h). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"
#include "check.h"
#include "nb_fake.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

/* A loop whose instructions and branches are known exactly: N iterations
 * of dec + jnz (x86-64): 2N + 1 instructions with the mov, N branches, of
 * which only the exit should miss. Elsewhere nothing is known exactly. */
#if defined(__x86_64__) && defined(__GNUC__)
#define KNOWN_LOOP 1
static void known_loop(uint64_t n)
{
    __asm__ __volatile__("mov %0, %%rcx\n1:\n\tdec %%rcx\n\tjnz 1b" : : "r"(n) : "rcx", "cc");
}

static void known_loop_op(void *arg)
{
    (void)arg;
    known_loop(1000);
}
#endif

/* The hardware counters, where the kernel exposes a PMU (this project's VM
 * does not: ENOENT, and the test says it skipped). Checks the raw group on
 * the known loop, then nb_run's per-iteration values with the calibration
 * subtracted. */
static int test_perf_hardware(void)
{
#if defined(__linux__) && defined(HAVE_LINUX_PERF_EVENT_H)
    nb_perf_group g;
    nb_perf_open_default(&g);
    if (!nb_perf_hardware_available(&g)) {
        printf("perf: no hardware counters here (errno %d), hardware test skipped\n",
               g.first_errno);
        nb_perf_close(&g);
        return 0;
    }
    if (!nb_perf_has(&g, NB_INSTRUCTIONS) || !nb_perf_has(&g, NB_CPU_CYCLES)) {
        printf("perf: hardware counters without instructions or cycles, test skipped\n");
        nb_perf_close(&g);
        return 0;
    }
    printf("perf: hardware counters available, testing them\n");
    nb_perf_calibrate(&g);
    CHECK(g.error == 0);
#ifdef KNOWN_LOOP
    {
        const uint64_t n = 1000000;
        double ins, cyc, bra, miss;
        nb_perf_begin(&g);
        known_loop(n);
        nb_perf_end(&g);
        CHECK(g.error == 0);
        /* iters 0: no loop correction; branches lose only the "loop exit". */
        ins = nb_perf_value(&g, NB_INSTRUCTIONS, 0);
        cyc = nb_perf_value(&g, NB_CPU_CYCLES, 0);
        CHECKF(ins >= 2.0 * n - 100 && ins <= 2.0 * n + 1000, "instructions %.0f, want ~%.0f",
               ins, 2.0 * n + 1);
        CHECKF(cyc >= 0.3 * n && cyc <= 100.0 * n, "cycles %.0f for %llu iterations", cyc,
               (unsigned long long)n);
        if (nb_perf_has(&g, NB_BRANCH_INSTRUCTIONS)) {
            bra = nb_perf_value(&g, NB_BRANCH_INSTRUCTIONS, 0);
            CHECKF(bra >= n - 100.0 && bra <= n + 500.0, "branches %.0f, want ~%llu", bra,
                   (unsigned long long)n);
        }
        if (nb_perf_has(&g, NB_BRANCH_MISSES)) {
            miss = nb_perf_value(&g, NB_BRANCH_MISSES, 0);
            CHECKF(miss >= 0 && miss <= n / 100.0, "branch misses %.0f", miss);
        }
    }
#endif
    nb_perf_close(&g);
#ifdef KNOWN_LOOP
    {
        /* Through nb_run: per iteration, the loop's 2001 plus the call. */
        nb_bench *b = nb_bench_new();
        char *text = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);
        const nb_result *r;
        double ins;
        if (!CHECK(b != NULL) || !CHECK(out != NULL)) {
            nb_bench_free(b);
            if (out)
                fclose(out);
            free(text);
            return 1;
        }
        nb_run(nb_name(nb_output(nb_performance_counters(b, 1), out), "known"), known_loop_op,
               NULL);
        fclose(out);
        r = nb_result_at(b, 0);
        ins = nb_result_median(r, NB_INSTRUCTIONS);
        CHECKF(ins >= 2000 && ins <= 2100, "nb_run: %.1f instructions per iteration", ins);
        CHECKF(nb_result_median(r, NB_BRANCH_INSTRUCTIONS) >= 999
               && nb_result_median(r, NB_BRANCH_INSTRUCTIONS) <= 1010,
               "nb_run: %.1f branches per iteration", nb_result_median(r, NB_BRANCH_INSTRUCTIONS));
        CHECK(text && strstr(text, "ins/op") && strstr(text, "IPC") && strstr(text, "`known`"));
        if (text)
            printf("%s", text);
        free(text);
        nb_bench_free(b);
    }
#endif
#else
    printf("perf: not Linux, hardware test skipped\n");
    return 0;
#endif
    return 1;
}

int main(int argc, char **argv)
{
    (void)argc;
    check_rng_init(argv[0]);
    if (!test_perf_hardware())
        return CHECK_SKIP;   /* no PMU here: SKIP, not PASS */
    return check_finish();
}
