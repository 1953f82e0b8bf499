/* Real runs on the real clock with the real compiler: a tiny op, nb_do_not_optimize_away
 * in all its forms, benches on two threads, ops the compiler removed. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_test_hooks.h"
#include "check.h"
#include "nb_fake.h"
#include "util/alloc.h"

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- end to end on the real clock ---- */

static volatile unsigned sink;

static void tiny_op(void *arg)
{
    (void)arg;
    sink++;
}

static void test_run_real(void)
{
    nb_bench *b = nb_bench_new();
    char *text = NULL;
    size_t len = 0;
    long before = -1, after = -1;
    FILE *out;
    const nb_result *r;
    if (!CHECK(b != NULL))
        return;
    unsetenv("NANOBENCH_SUPPRESS_WARNINGS");
    /* output NULL prints nothing (stdout is a log file under make check) */
    fflush(stdout);
    before = ftell(stdout);
    nb_run(nb_output(nb_epochs(b, 3), NULL), tiny_op, NULL);
    fflush(stdout);
    after = ftell(stdout);
    CHECK(before == after);
    CHECK(nb_result_count(b) == 1);
    r = nb_result_at(b, 0);
    CHECK(nb_result_epoch_count(r) == 3);
    CHECK(nb_result_median(r, NB_ELAPSED) > 0);
    CHECK(nb_result_median(r, NB_ELAPSED) < 1e-6);
    /* no kept epoch under 2/3 of the 1 ms target */
    CHECK(nb_result_epoch(r, NB_ELAPSED, 0) * nb_result_epoch(r, NB_ITERATIONS, 0) >=
          1e-3 * 2 / 3);

    out = open_memstream(&text, &len);
    if (!CHECK(out != NULL))
        return;
    nb_run(nb_name(nb_output(b, out), "tiny"), tiny_op, NULL);
    fclose(out);
    CHECK(text && strstr(text, "`tiny`") != NULL);
    CHECK(text && strstr(text, "|               ns/op |                op/s |    err% |") != NULL);
    r = nb_result_at(b, 1);
#if defined(__linux__) && defined(HAVE_LINUX_PERF_EVENT_H)
    if (nb_test_counters(b) > 0 && !nb_test_counting(b, NB_CPU_CYCLES) &&
        !nb_test_counting(b, NB_INSTRUCTIONS)) {
        /* software counters only: no counter columns, the note once */
        CHECK(strstr(text, "ins/op") == NULL);
        CHECK(strstr(text, "Note: ") != NULL);   /* the counters note, once */
        CHECK(nb_result_has(r, NB_PAGE_FAULTS));
        /* present where counting kernel mode is allowed (root, paranoid <= 1) */
        CHECK(nb_result_has(r, NB_CONTEXT_SWITCHES) == nb_test_counting(b, NB_CONTEXT_SWITCHES));
        CHECK(!nb_result_has(r, NB_INSTRUCTIONS));
    }
#endif
    if (text)
        printf("%s", text);
    free(text);
    CHECK(nb_get_error(b) == 0);
    nb_bench_free(b);
}

/* nb_do_not_optimize_away takes any expression: arrays (common with hashes),
 * structs, bit-fields, qualified objects, rvalues. This compiles, and the
 * values are still what they were. */
static void test_do_not_optimize_away_forms(void)
{
    struct {
        int a;
        unsigned bits : 3;
    } s = { 7, 5 };
    unsigned char hash[32];
    const int c = 3;
    volatile int v = 4;
    memset(hash, 0xab, sizeof hash);
    nb_do_not_optimize_away(hash);
    nb_do_not_optimize_away(s);
    nb_do_not_optimize_away(s.bits);
    nb_do_not_optimize_away(c);
    nb_do_not_optimize_away(v);
    nb_do_not_optimize_away(s.a * 2.5);
    nb_do_not_optimize_away("literal");
    CHECK(hash[31] == 0xab && s.a == 7 && s.bits == 5 && c == 3 && v == 4);
}

/* One bench per thread is supported: two threads, each with its own bench
 * and stream, share the library's few globals (which streams saw which
 * header, the print-once notes, the allocation counter). Each stream gets
 * one header and all its rows. (Run under -fsanitize=thread to see the
 * sharing is race-free; here the output is checked.) */
typedef struct {
    char *text;
    size_t len;
    int ok;
} thread_job;

#define THREAD_ROWS 200

static void *bench_thread(void *arg)
{
    thread_job *j = arg;
    fake f = { 0, 0, 1000, 1000, 0, 0 };
    nb_bench *b = fake_bench(&f);
    FILE *out = open_memstream(&j->text, &j->len);
    int i;
    j->ok = b && out;
    if (j->ok) {
        nb_output(b, out);
        nb_epochs(b, 3);
        nb_epoch_iterations(b, 5);
        for (i = 0; i < THREAD_ROWS; ++i) {
            char name[32];
            snprintf(name, sizeof name, "op%d", i);
            nb_run(nb_name(b, name), fake_op, &f);
        }
        j->ok = nb_get_error(b) == 0 && nb_result_count(b) == THREAD_ROWS;
    }
    if (out) {
        nb_table_forget(out);
        fclose(out);
    }
    nb_bench_free(b);
    return NULL;
}

static void test_threads(void)
{
    thread_job jobs[2];
    pthread_t th[2];
    int i, started[2];
    memset(jobs, 0, sizeof jobs);
    for (i = 0; i < 2; ++i)
        started[i] = pthread_create(&th[i], NULL, bench_thread, &jobs[i]) == 0;
    for (i = 0; i < 2; ++i) {
        const char *p;
        int headers = 0, rows = 0;
        if (!CHECK(started[i]))
            continue;
        pthread_join(th[i], NULL);
        CHECK(jobs[i].ok);
        for (p = jobs[i].text; p && (p = strstr(p, "|:-")) != NULL; ++p)
            headers++;
        for (p = jobs[i].text; p && (p = strstr(p, "| `op")) != NULL; ++p)
            rows++;
        CHECKF(headers == 1 && rows == THREAD_ROWS, "thread %d: %d headers, %d rows", i,
               headers, rows);
        free(jobs[i].text);
    }
}

static void empty_op(void *arg)
{
    (void)arg;
}

static void kept_op(void *arg)
{
    uint64_t *x = arg;
    uint64_t y = *x * UINT64_C(0x9e3779b97f4a7c15);
    nb_do_not_optimize_away(y);
}

/* Whether this build removes a loop around empty_op whose count is known
 * only at run time, as nb_run's is: 10^8 iterations in under 1 ms (gcc -O2
 * removes it, -O1 keeps it). */
static int empty_loop_removed(void)
{
    volatile uint64_t count = 100000000;
    uint64_t n = count, i, t0 = nb_clock_now_ns();
    for (i = 0; i < n; ++i)
        empty_op(NULL);
    return nb_clock_now_ns() - t0 < 1000000;
}

/* An op the compiler empties while keeping the loop: a 4 KB memcpy into a buffer of which
 * only the first byte is read. Where this build emptied it (an optimized build without
 * sanitizers: one load is left), the row says it is implausible; where it copies, not. */
struct copy_arg {
    unsigned char src[4096];
    unsigned char dst[4096];
};

static void copy_op(void *arg)
{
    struct copy_arg *c = arg;
    unsigned char local[4096];
    memcpy(local, c->src, sizeof local);
    nb_do_not_optimize_away(local[0]); /* keeps the loop, and one byte of the copy */
}

static void test_implausible_real(void)
{
    nb_bench *b = nb_bench_new();
    struct copy_arg *c = calloc(1, sizeof *c);
    char *text = NULL;
    size_t len = 0;
    FILE *out;
    const nb_result *r;
    double rate;
    if (!CHECK(b != NULL && c != NULL))
        goto done;
    out = open_memstream(&text, &len);
    if (!CHECK(out != NULL))
        goto done;
    nb_performance_counters(nb_output(b, out), 0);
    nb_run(nb_unit(nb_batch(nb_name(b, "copy4k"), 4096), "byte"), copy_op, c);
    fclose(out);
    r = nb_result_at(b, 0);
    rate = 4096 / nb_result_median(r, NB_ELAPSED);
    printf("copy4k: %.3g GB/s\n", rate * 1e-9);
    if (rate > NB_MAX_BYTES_PER_CYCLE * NB_MAX_CLOCK_HZ)
        CHECKF(text && strstr(text, ":warning: `copy4k` (implausible: ") != NULL, "%s", text);
    else
        CHECKF(text && strstr(text, ":warning:") == NULL, "%s", text);
done:
    free(text);
    free(c);
    nb_bench_free(b);
}

static void test_real_optimized_away(void)
{
    nb_bench *b = nb_bench_new();
    uint64_t x = 12345, t0;
    if (!CHECK(b != NULL))
        return;
    nb_output(nb_performance_counters(b, 0), NULL);
    t0 = nb_clock_now_ns();
    nb_run(nb_name(b, "empty"), empty_op, NULL);
    if (empty_loop_removed())
        CHECK(nb_test_overflowed(nb_result_at(b, 0)) == 1);
    else
        printf("this build keeps an empty loop: no overflow row expected\n");
    CHECKF(nb_clock_now_ns() - t0 < UINT64_C(5000000000), "took %g s",
           (double)(nb_clock_now_ns() - t0) * 1e-9);
    nb_run(nb_name(b, "kept"), kept_op, &x);
    CHECK(nb_test_overflowed(nb_result_at(b, 1)) == 0);
    CHECK(nb_result_epoch_count(nb_result_at(b, 1)) == 11);
    nb_bench_free(b);
}

int main(int argc, char **argv)
{
    (void)argc;
    check_rng_init(argv[0]);
    unsetenv("NANOBENCH_ENDLESS");
    test_run_real();
    test_do_not_optimize_away_forms();
    test_threads();
    test_real_optimized_away();
    test_implausible_real();
    return check_finish();
}
