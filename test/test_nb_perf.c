/* Performance counters with software events: the group, its parsing and corrections, and
 * counters valid in only some epochs. (This program tests the counter group itself, so it
 * sees its layout: nb_internal.h.) */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"
#include "check.h"
#include "nb_fake.h"
#include "util/alloc.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#if defined(HAVE_LINUX_PERF_EVENT_H)
#include <linux/perf_event.h>
#endif

/* A counter is reported only when it was read in every kept epoch: one
 * epoch without it (here the group stops counting page faults for the
 * middle epoch, as if that read had failed for it) makes it absent, not a
 * median over the epochs that had it. Needs a perf group with page faults
 * (a software event, unprivileged where perf_event_paranoid <= 2). */
typedef struct {
    fake f;
    nb_bench *b;
    int drop;        /* take page faults out of the group on call 2 */
    size_t dropped;  /* its index, or (size_t)-1 */
} flipping;

static void flipping_op(void *arg)
{
    flipping *x = arg;
    nb_perf_group *g = &x->b->perf;
    size_t i;
    fake_op(&x->f);
    if (x->drop && x->f.calls == 2) {
        for (i = 0; i < g->count; ++i)
            if (g->events[i].measure == NB_PAGE_FAULTS) {
                g->events[i].measure = NB_ELAPSED;   /* outside the counters */
                x->dropped = i;
            }
    } else if (x->dropped != (size_t)-1) {
        g->events[x->dropped].measure = NB_PAGE_FAULTS;
        x->dropped = (size_t)-1;
    }
}

static void test_counter_valid_in_some_epochs(void)
{
    int drop;
    for (drop = 0; drop <= 1; ++drop) {
        flipping x = { { 0, 0, 1000, 1000, 0, 0 }, NULL, drop, (size_t)-1 };
        const nb_result *r;
        x.b = nb_bench_new();
        if (!CHECK(x.b != NULL))
            return;
        nb_output(x.b, NULL);
        nb_test_set_clock(x.b, fake_now, &x.f, 20);
        nb_epoch_iterations(nb_epochs(x.b, 3), 1);   /* epoch k is call k */
        nb_run(x.b, flipping_op, &x);
        if (!nb_perf_has(&x.b->perf, NB_PAGE_FAULTS)) {
            printf("perf: no page-fault counter (errno %d)\n", x.b->perf.first_errno);
            check_untested("partial validity of a counter group (no page-fault counter)");
            nb_bench_free(x.b);
            return;
        }
        r = nb_result_at(x.b, 0);
        CHECK(nb_result_epoch_count(r) == 3);
        if (drop) {
            CHECK(!nb_result_has(r, NB_PAGE_FAULTS));
            CHECK(isnan(nb_result_median(r, NB_PAGE_FAULTS)));
        } else {
            CHECK(nb_result_has(r, NB_PAGE_FAULTS));   /* the control */
        }
        nb_bench_free(x.b);
    }
}

/* ---- performance counters with software events ---- */

static volatile unsigned sink;

/* Spins until this thread has had ms of CPU time (not wall time: the
 * machine is shared, and the task clock counts time on the CPU). */
static void busy_cpu_ms(double ms)
{
    struct timespec ts;
    double t0, t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    t0 = (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
    do {
        sink++;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        t = (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
    } while (t - t0 < ms * 1e6);
}

static void test_perf_parse(void)
{
    nb_perf_group g;
    uint64_t buf[7] = { 2, 1000, 250, 100, 22, 7, 11 };
    memset(&g, 0, sizeof(g));
    g.count = 2;
    g.ids[0] = 11;
    g.ids[1] = 22;
    /* multiplexed a quarter of the time: values scaled by 4, matched by id */
    CHECK(nb_perf_parse(&g, buf, 7) == 0);
    CHECK(g.values[0] == 28 && g.values[1] == 400);
    CHECK(g.scaled == 1 && g.time_enabled == 1000 && g.time_running == 250);
    buf[2] = 1000;
    CHECK(nb_perf_parse(&g, buf, 7) == 0 && g.values[0] == 7 && g.scaled == 0);
    buf[6] = 33;   /* an id the group does not have */
    CHECK(nb_perf_parse(&g, buf, 7) == -1);
    buf[6] = 11;
    buf[0] = 3;    /* count mismatch */
    CHECK(nb_perf_parse(&g, buf, 7) == -1);
    CHECK(nb_perf_scale(5, 0, 0) == 5);
    CHECK(isnan(nb_perf_scale(5, 10, 0)));
    CHECK(nb_perf_scale(5, 10, 5) == 10);
}

/* The counter corrections on a hand-filled group (no PMU needed): the
 * calibrated begin/end overhead and per-iteration loop cost come off, never
 * below 0; branches lose the loop's own iters + 1; branch misses are capped
 * at the branches and lose the loop exit's one miss when above 1. */
static void test_perf_value(void)
{
    nb_perf_group g;
    memset(&g, 0, sizeof g);
    g.leader = -1;
    g.count = 5;
    g.events[0].measure = NB_INSTRUCTIONS;
    g.events[0].correct_overhead = 1;
    g.events[0].correct_loop = 1;
    g.events[1].measure = NB_BRANCH_INSTRUCTIONS;
    g.events[1].correct_overhead = 1;
    g.events[2].measure = NB_BRANCH_MISSES;
    g.events[2].correct_overhead = 1;
    g.events[3].measure = NB_CPU_CYCLES;
    g.events[3].correct_overhead = 1;
    g.events[4].measure = NB_PAGE_FAULTS;   /* not corrected */
    g.overhead[0] = 100;
    g.loop[0] = 2;
    g.overhead[1] = 50;
    g.overhead[2] = 60;
    g.overhead[3] = 300;
    g.overhead[4] = 7;
    g.values[0] = 10000;
    g.values[1] = 1100;
    g.values[2] = 70;
    g.values[3] = 250;
    g.values[4] = 3;
    CHECK(nb_perf_value(&g, NB_INSTRUCTIONS, 1000) == 10000 - 100 - 2 * 1000);
    CHECK(nb_perf_value(&g, NB_CPU_CYCLES, 1000) == 0);      /* 250 - 300: clamped */
    CHECK(nb_perf_value(&g, NB_PAGE_FAULTS, 1000) == 3);
    CHECK(nb_perf_value(&g, NB_BRANCH_INSTRUCTIONS, 1000) == 1100 - 50 - 1001);
    CHECK(nb_perf_value(&g, NB_BRANCH_MISSES, 1000) == 70 - 60 - 1);
    g.values[0] = 1500;                                       /* under the loop's cost */
    CHECK(nb_perf_value(&g, NB_INSTRUCTIONS, 1000) == 0);
    g.values[2] = 61;                                         /* exactly 1: kept */
    CHECK(nb_perf_value(&g, NB_BRANCH_MISSES, 1000) == 1);
    g.values[2] = 61.5;
    CHECK(nb_perf_value(&g, NB_BRANCH_MISSES, 1000) == 1.5 - 1);
    g.values[2] = 60.5;                                       /* under 1: kept */
    CHECK(nb_perf_value(&g, NB_BRANCH_MISSES, 1000) == 0.5);
    g.values[2] = 500;                                        /* capped at 49 branches */
    CHECK(nb_perf_value(&g, NB_BRANCH_MISSES, 1000) == 49 - 1);
    g.values[1] = 1000;                                       /* fewer than the loop's */
    CHECK(nb_perf_value(&g, NB_BRANCH_INSTRUCTIONS, 1000) == 0);
    CHECK(nb_perf_value(&g, NB_BRANCH_MISSES, 1000) == 0);
    g.events[1].measure = NB_CONTEXT_SWITCHES;                /* no branch counter: no cap */
    CHECK(nb_perf_value(&g, NB_BRANCH_MISSES, 1000) == 500 - 60 - 1);
    CHECK(isnan(nb_perf_value(&g, NB_BRANCH_INSTRUCTIONS, 1000)));
    g.error = 1;
    CHECK(isnan(nb_perf_value(&g, NB_INSTRUCTIONS, 1000)));
}

static void test_perf_software(void)
{
#if defined(__linux__) && defined(HAVE_LINUX_PERF_EVENT_H)
    /* Page faults lead: under a task-clock leader this kernel (6.18 in a VM)
     * counted the sibling's page faults erratically. The task clock stands in
     * for cycles: nanoseconds on the CPU. */
    nb_perf_event ev[3] = {
        { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, NB_PAGE_FAULTS, 1, 0, 0 },
        { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, NB_CPU_CYCLES, 0, 0, 0 },
        { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, NB_CONTEXT_SWITCHES, 1, 0, 0 },
    };
    /* Context switches as the default group counts them, in kernel mode (where they
     * happen), which perf_event_paranoid >= 2 refuses to an unprivileged user. A group
     * of its own: this kernel (6.18, in a VM) read the task clock above as 0 in most
     * epochs when that group had two members instead of three. */
    nb_perf_event cs = { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES,
                         NB_CONTEXT_SWITCHES, 1, 0, 1 };
    nb_perf_group g2;
    nb_perf_group g;
    size_t pages = 64, i, psz = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *mem;
    double faults, task;
    if (nb_perf_open(&g, ev, 3) != 3) {
        printf("perf: software events unavailable (errno %d)\n", g.first_errno);
        check_untested("the software-event group (perf_event_open refused it)");
        nb_perf_close(&g);
        return;
    }
    CHECK(g.leader >= 0);
    CHECK(nb_perf_has(&g, NB_PAGE_FAULTS) && !nb_perf_has(&g, NB_INSTRUCTIONS));
    CHECK(!nb_perf_hardware_available(&g));
    nb_perf_calibrate(&g);
    CHECK(g.error == 0);

    mem = mmap(NULL, pages * psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!CHECK(mem != MAP_FAILED)) {
        nb_perf_close(&g);
        return;
    }
    nb_perf_begin(&g);
    for (i = 0; i < pages; ++i)
        mem[i * psz] = 1;   /* one fault per fresh page */
    busy_cpu_ms(3);
    nb_perf_end(&g);
    CHECK(g.error == 0);
    faults = nb_perf_value(&g, NB_PAGE_FAULTS, 1);
    task = nb_perf_value(&g, NB_CPU_CYCLES, 1);   /* task clock: ns on the CPU */
    CHECKF(faults >= (double)pages, "page faults %g < %zu", faults, pages);
    CHECKF(faults < (double)pages * 4 + 50, "page faults %g", faults);
    CHECKF(task >= 2.7e6 && task < 1e9, "task clock %g ns", task);
    CHECK(g.time_enabled >= g.time_running && g.time_running > 0);
    CHECK(nb_perf_value(&g, NB_CONTEXT_SWITCHES, 1) >= 0);
    CHECK(isnan(nb_perf_value(&g, NB_INSTRUCTIONS, 1)));

    /* off the CPU and back twice: at least two context switches, seen in kernel
     * mode only (user mode counted 0) */
    if (nb_perf_open(&g2, &cs, 1) == 1) {
        nb_perf_calibrate(&g2);
        nb_perf_begin(&g2);
        usleep(1000);
        usleep(1000);
        nb_perf_end(&g2);
        CHECK(g2.error == 0);
        CHECKF(nb_perf_value(&g2, NB_CONTEXT_SWITCHES, 1) >= 2, "%g context switches",
               nb_perf_value(&g2, NB_CONTEXT_SWITCHES, 1));
    } else {
        printf("perf: counting context switches (kernel mode) refused, errno %d: "
               "that event is left out\n", g2.first_errno);
    }
    nb_perf_close(&g2);

    /* stdout closed: the counters must not take descriptor 1 (a table written to
     * stdout would go to a counter); stdin and stderr alike */
    {
        int saved = dup(STDOUT_FILENO);
        size_t k;
        fflush(stdout);
        if (CHECK(saved > 2) && CHECK(close(STDOUT_FILENO) == 0)) {
            size_t got = nb_perf_open(&g2, ev, 3);
            int fd1_closed = fcntl(STDOUT_FILENO, F_GETFD) == -1;
            dup2(saved, STDOUT_FILENO);
            CHECK(got == 3);
            for (k = 0; k < got; ++k)
                CHECKF(g2.fds[k] > 2, "counter %zu on descriptor %d", k, g2.fds[k]);
            CHECK(fd1_closed);
            nb_perf_close(&g2);
        }
        if (saved >= 0)
            close(saved);
    }

    /* an empty measurement after calibration is (about) nothing */
    nb_perf_begin(&g);
    nb_perf_end(&g);
    CHECK(nb_perf_value(&g, NB_PAGE_FAULTS, 1) == 0);
    munmap(mem, pages * psz);
    nb_perf_close(&g);
    CHECK(g.count == 0);
#else
    check_untested("the software-event group (not Linux)");
#endif
}

static void sleep_op(void *arg)
{
    (void)arg;
    usleep(200);
}

/* Through nb_run: an op that sleeps is switched out once per call. The
 * count was 0 when the event counted user mode only. */
static void test_context_switches_run(void)
{
    nb_bench *b = nb_bench_new();
    const nb_result *r;
    if (!CHECK(b != NULL))
        return;
    nb_run(nb_epochs(nb_performance_counters(nb_output(b, NULL), 1), 3), sleep_op, NULL);
    r = nb_result_at(b, 0);
    if (CHECK(r != NULL) && nb_result_has(r, NB_CONTEXT_SWITCHES))
        CHECKF(nb_result_median(r, NB_CONTEXT_SWITCHES) >= 0.9,
               "%g context switches per sleep", nb_result_median(r, NB_CONTEXT_SWITCHES));
    else
        printf("context switches are not counted here (absent, not 0)\n");
    nb_bench_free(b);
}

int main(int argc, char **argv)
{
    (void)argc;
    check_rng_init(argv[0]);
    test_counter_valid_in_some_epochs();
    test_perf_parse();
    test_perf_value();
    test_perf_software();
    test_context_switches_run();
    return check_finish();
}
