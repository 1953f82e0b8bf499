/* bench_bitcoin's plain run (run.h): the selected rows measured one after the other into one
 * nb_bench, with -asymptote's rounds and fit, or once each for -sanity-check; and what every
 * measuring mode shares (the bench's settings per row, the notes, the CPU pin, the table's
 * and the output files' end).
 *
 * Results go to one nb_bench for the whole run, so that the table keeps one header and the
 * output files see every result; before each row its settings are put back to the harness's
 * defaults (a benchmark's batch or unit must not leak into the next one) and the program's
 * options are applied on top. */
#define _GNU_SOURCE /* sched_getcpu, CPU_SET: pinning to one CPU (Linux) */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/run.h"
#include "bench_bitcoin/outputs.h"
#include "crypto/sha256.h"
#include "crypto/variant.h"
#include "util/alloc.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* More fits than the harness's standard set, so none is ever cut off. */
#define MAX_FITS 32

/* Puts every setting of b back to the harness's defaults (read from d, a fresh bench), then
 * applies the program's options. */
void bench_configure(nb_bench *b, const nb_bench *d, const bench_options *o, const char *name)
{
    nb_title(b, nb_get_title(d));
    nb_name(b, name);
    nb_unit(b, nb_get_unit(d));
    nb_batch(b, nb_get_batch(d));
    nb_relative(b, nb_get_relative(d));
    nb_performance_counters(b, nb_get_performance_counters(d));
    nb_cycle_probe(b, nb_get_cycle_probe(d));
    nb_epochs(b, nb_get_epochs(d));
    nb_epoch_iterations(b, nb_get_epoch_iterations(d));
    nb_min_epoch_iterations(b, nb_get_min_epoch_iterations(d));
    nb_warmup(b, nb_get_warmup(d));
    nb_min_epoch_time(b, nb_get_min_epoch_time(d));
    nb_max_epoch_time(b, nb_get_max_epoch_time(d));
    nb_complexity_n(b, -1);
    nb_time_unit(b, nb_get_time_unit(d), nb_get_time_unit_name(d));
    nb_clock_resolution_multiple(b, nb_get_clock_resolution_multiple(d));
    nb_clear_context(b);
    {
        /* The harness's own advice names its C setter; ours is the option. */
        char advice[96];
        double ms = o->min_time_ns > 0 ? o->min_time_ns * 1e-6 : 50.0;
        snprintf(advice, sizeof advice, "Increase `-min-time` to e.g. %.15g",
                 ms * 10 < 1e6 ? ms * 10 : 1e6);
        nb_unstable_advice(b, advice);
    }
    if (o->sanity_check) {
        nb_output(b, NULL);
        nb_epochs(b, 1);
        nb_epoch_iterations(b, 1);
    } else {
        nb_output(b, stdout);
        if (o->min_time_ns > 0)
            nb_min_epoch_time(b, (uint64_t)(o->min_time_ns / (double)nb_get_epochs(b)));
    }
}

/* Fits results [first, nb_result_count(b)) of one benchmark and prints the fit table. */
static int print_bigo(const nb_bench *b, size_t first)
{
    size_t count = nb_result_count(b) - first, i, k = 0, fits;
    double *n = bb_malloc_array(count, sizeof *n);
    double *t = bb_malloc_array(count, sizeof *t);
    nb_bigo fit[MAX_FITS];
    int rc = -1;

    if (!n || !t) {
        bench_error("-asymptote: out of memory");
        goto done;
    }
    for (i = 0; i < count; i++) {
        const nb_result *r = nb_result_at(b, first + i);
        if (nb_result_complexity_n(r) < 0)
            continue;
        n[k] = nb_result_complexity_n(r);
        t[k] = nb_result_median(r, NB_ELAPSED);
        k++;
    }
    fits = nb_bigo_fit(n, t, k, fit, MAX_FITS);
    if (fputc('\n', stdout) == EOF || nb_bigo_print(stdout, fit, fits) != 0) {
        bench_error("writing the complexity table to stdout failed");
        goto done;
    }
    for (i = 1; i < k && n[i] == n[0]; i++)
        ;
    if (k > 0 && i == k) /* a note: the table is what was asked for, but it tells nothing */
        fprintf(stderr, "-asymptote: every row has n = %g, and one size cannot tell the fits "
                "apart: give two or more\n", n[0]);
    rc = 0;
done:
    bb_free(n);
    bb_free(t);
    return rc;
}

/* Runs row into b, already configured, and checks that it made one result; 0, or -1 after
 * one error line. */
static int run_one(nb_bench *b, const bench_row *row)
{
    size_t before = nb_result_count(b);
    const char *endless = getenv("NANOBENCH_ENDLESS");
    if (endless && strcmp(endless, row->name) == 0) /* the harness itself prints nothing */
        fprintf(stderr, "NANOBENCH_ENDLESS set: running '%s' endlessly\n", row->name);
    if (bench_row_run(row, b) != 0)
        return -1;
    if (nb_get_error(b) != 0)
        return bench_harness_error(b, row->name);
    if (nb_result_count(b) != before + 1) {
        bench_error("%s: made %zu measurements instead of one", row->name,
                    nb_result_count(b) - before);
        return -1;
    }
    if (nb_valgrind_counting() && !nb_result_has(nb_result_at(b, before), NB_INSTRUCTIONS)) {
        bench_error("%s: callgrind's counts could not be read back (NANOBENCH_CALLGRIND_OUT "
                   "must name valgrind's --callgrind-out-file; -instructions sets both)",
                   row->name);
        return -1;
    }
    return 0;
}

/* Runs the selected rows into b; 0, or -1 after one error line. */
static int run_rows(nb_bench *b, const nb_bench *defaults, const bench_job *j)
{
    const bench_options *o = j->o;
    const bench_row *const *sel = j->sel;
    size_t count = j->count, i, k;
    for (i = 0; i < count; i++) {
        size_t rounds = o->asymptote_count ? o->asymptote_count : 1;
        size_t first = nb_result_count(b);
        for (k = 0; k < rounds; k++) {
            bench_configure(b, defaults, o, sel[i]->name);
            if (o->asymptote_count)
                nb_complexity_n(b, o->asymptote[k]);
            if (run_one(b, sel[i]) != 0)
                return -1;
        }
        if (o->asymptote_count && !o->sanity_check && print_bigo(b, first) != 0)
            return -1;
    }
    return 0;
}

/* Keeps the process on one CPU while it measures, so that the scheduler does not move it in
 * the middle of an epoch (a move costs cold caches; on the 2-core VM this was tuned on it was
 * the main source of err% >= 1%). The CPU is the highest-numbered one the process may use:
 * CPU 0 is where Linux tends to handle interrupts and housekeeping. Best effort: where it is
 * not supported, or the process is already limited to one CPU, nothing changes. */
void bench_pin_to_one_cpu(void)
{
#if defined(__linux__) && defined(CPU_SET)
    cpu_set_t set;
    int cpu;
    if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) <= 1)
        return;
    for (cpu = CPU_SETSIZE - 1; cpu > 0 && !CPU_ISSET(cpu, &set); cpu--)
        ;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    (void)sched_setaffinity(0, sizeof set, &set);
#endif
}

/* What every variant set runs now, "SHA1 'shani', SHA256 '...', ...", into buf. */
const char *bench_variants_in_use(char *buf, size_t cap)
{
    const crypto_variant_set *sets[32];
    size_t n = crypto_variant_sets(sets, sizeof sets / sizeof sets[0]), i, len = 0;
    buf[0] = '\0';
    for (i = 0; i < n && i < sizeof sets / sizeof sets[0] && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s '%s'", i ? ", " : "",
                                crypto_variant_set_label(sets[i]),
                                crypto_variant_current(sets[i]));
    return buf;
}

int bench_harness_error(const nb_bench *b, const char *name)
{
    /* The harness says why; the one failure a user can cause and fix, the table not
     * reaching stdout, is said in this program's words (b's output is stdout). */
    static const char write_failed[] = "write to output failed: ";
    const char *why = nb_get_error_message(b);
    if (strncmp(why, write_failed, sizeof write_failed - 1) == 0)
        bench_error("%s: writing the table to stdout failed: %s", name,
                    why + sizeof write_failed - 1);
    else
        bench_error("%s: %s", name, why[0] ? why : "the harness failed");
    return -1;
}

int bench_measure(const bench_job *j, bench_measure_fn fn, nb_bench **out)
{
    nb_bench *b = nb_bench_new(), *defaults = nb_bench_new();
    int status = BENCH_EXIT_ERROR;

    *out = b;
    if (!b || !defaults) {
        bench_error("out of memory");
        goto done;
    }
    fprintf(stderr, "Using the '%s' SHA256 implementation\n", sha256_autodetect());
    if (nb_valgrind_counting()) {
        char used[512];
        fprintf(stderr, "Counting instructions under callgrind; the hashes run %s (valgrind's "
                "CPU has no SHA-NI or AVX-512)\n", bench_variants_in_use(used, sizeof used));
    }
    if (!j->o->no_pin)
        bench_pin_to_one_cpu();
    if (fn(b, defaults, j) != 0)
        goto done;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        bench_error("writing the table to stdout failed: %s", strerror(errno));
        goto done;
    }
    if (bench_outputs_write(b) != 0)
        goto done;
    status = BENCH_EXIT_OK;
done:
    nb_bench_free(defaults);
    return status;
}

int bench_run_measure(const bench_job *j, nb_bench **out)
{
    return bench_measure(j, run_rows, out);
}

int bench_mode_run(const bench_job *j)
{
    nb_bench *b;
    int status = bench_run_measure(j, &b);
    nb_bench_free(b);
    return status;
}
