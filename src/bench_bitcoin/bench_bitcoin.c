/* bench_bitcoin: runs the registered benchmarks (bench.h) through the nanobench harness.
 *
 * Order of work, so that every bad input fails before anything runs: parse and check every
 * option (numbers, the regex), select the benchmarks, create the temporary output files; only
 * then pick the SHA-256 implementation and run. Results go to one nb_bench for the whole run,
 * so that the table keeps one header and the CSV/JSON files see every result; before each
 * benchmark its settings are put back to the harness's defaults (a benchmark's batch or unit
 * must not leak into the next one) and the program's options are applied on top. */
#define _GNU_SOURCE /* sched_getcpu, CPU_SET: pinning to one CPU (Linux) */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/against.h"
#include "bench_bitcoin/baseline.h"
#include "bench_bitcoin/bench.h"
#include "bench_bitcoin/instructions.h"
#include "bench_bitcoin/options.h"
#include "bench_bitcoin/outfile.h"
#include "crypto/sha256.h"
#include "crypto/variant.h"
#include "util/alloc.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROG "bench_bitcoin"
#define STRINGIFY(x) #x
#define EXPAND_STRINGIFY(x) STRINGIFY(x)
#define MAX_N_TEXT EXPAND_STRINGIFY(BENCH_MAX_COMPLEXITY_N)
/* More fits than the harness's standard set, so none is ever cut off. */
#define MAX_FITS 32

/* Static: outfile.c's exit and signal handlers remove their temporaries. */
enum { OUT_CSV, OUT_JSON, OUT_GBENCH, OUT_HTML, OUT_COUNT };
static out_file outputs[OUT_COUNT];

/* Bitcoin Core's -output-csv, so that scripts written for Core read it: Core's header, then one
 * row per result, fields separated by ", ": name, epochs ("evals"), average iterations per
 * epoch, total seconds in measured epochs, then min, max and median seconds per iteration
 * (per call of the op). The csv pragma quotes a name that needs it and leaves a value that was
 * not measured empty (not "nan"). */
static const char csv_template[] =
    "{{%csv}}# Benchmark, evals, iterations, total, min, max, median\n"
    "{{#result}}{{name}}, {{epochs}}, {{average(iterations)}}, "
    "{{sumProduct(iterations, elapsed)}}, {{minimum(elapsed)}}, {{maximum(elapsed)}}, "
    "{{median(elapsed)}}\n{{/result}}";

/* ---- options ---- */

static void print_help(FILE *out)
{
    fputs(
        "Usage: " PROG " [options]\n"
        "\n"
        "Runs Bitcoin Core's micro-benchmarks through nanobench and prints one table row per\n"
        "benchmark. Options take one or two leading dashes (-filter=x is --filter=x).\n"
        "\n"
        "Options:\n"
        "  -filter=<regex>       run only the benchmarks whose whole name matches this POSIX\n"
        "                        extended regular expression (default: .*); -filter=SHA256\n"
        "                        selects only SHA256, -filter='SHA256.*' every SHA256 one\n"
        "  -priority-level=<l1,l2,..>  run only the benchmarks of these priority levels\n"
        "                        (high, medium, low, all; default: all); every benchmark\n"
        "                        here has its level in Core, which is high for all of them\n"
        "  -list                 print the names of the selected benchmarks, run nothing\n"
        "  -asymptote=<n1,n2,..> run each selected benchmark once per n (whole numbers) with\n"
        "                        complexityN = n, then print the complexity fit table; n is at\n"
        "                        most " MAX_N_TEXT
        " (ComplexMemPool's child transactions: its memory\n"
        "                        grows with n^2, 170 MB at 10000)\n"
        "  -min-time=<ms>        minimum time in milliseconds spent measuring each benchmark,\n"
        "                        spread over its epochs (default: " BENCH_DEFAULT_MIN_TIME_TEXT
        "; Core's is 10, see\n"
        "                        below); 0 leaves the harness's own minimum epoch time\n"
        "  -compare              run each selected hash benchmark (CHACHA20_1MB, SHA1,\n"
        "                        SHA256, SHA256D64_1024, SHA256_32b, SHA3_256_1M, SHA512;\n"
        "                        others are skipped) on every implementation this CPU\n"
        "                        offers, and through OpenSSL:\n"
        "                        rows 'SHA256 [auto]' (what autodetect picks), one per\n"
        "                        implementation ('SHA256 [standard]', 'SHA256 [shani]', ...)\n"
        "                        and 'SHA256 [openssl]' (SHA256_Init/Update/Final; absent when\n"
        "                        built without OpenSSL), measured paired and interleaved in\n"
        "                        time (nb_compare), one table per benchmark whose relative\n"
        "                        column is [auto]'s time over the row's (50% is half the\n"
        "                        speed of [auto]) with its 95% interval, family-wise over the\n"
        "                        table, and a verdict line (doc/compare.md). With -list,\n"
        "                        prints the row names\n"
        "  -no-pin               let the scheduler move the process between CPUs (by default\n"
        "                        it stays on one CPU, the highest-numbered it may use, while\n"
        "                        measuring: moves cost cold caches and were the largest\n"
        "                        source of err% here)\n"
        "  -instructions         count instructions instead of timing: run again under\n"
        "                        valgrind's callgrind (Debian package valgrind), which counts\n"
        "                        only the measured loops; adds ins/<unit>, bra/<unit> and the\n"
        "                        simulated branch miss% to the table and -output-json; the\n"
        "                        same binary gives the same counts on every run. Valgrind's\n"
        "                        CPU has no SHA-NI or AVX-512: the hashes then run other code\n"
        "                        (said on stderr). Times in that table are the simulator's\n"
        "                        (see doc/instructions.md). With -against=<program>:\n"
        "                        both builds counted, one table of both counts and the\n"
        "                        change; -max-regression=<pct> then fails the run when a\n"
        "                        benchmark counts more than pct% more instructions\n"
        "  -sanity-check         run every selected benchmark once (one epoch of one\n"
        "                        iteration), print no table; for tests\n"
        "  -output-csv=<file>    also write the results as CSV in Bitcoin Core's layout (one\n"
        "                        row per result)\n"
        "  -output-json=<file>   also write the results as JSON (every epoch of every result)\n"
        "  -output-gbench=<file> also write the results as Google Benchmark's JSON (an entry\n"
        "                        per epoch, then mean, median and stddev), which its\n"
        "                        compare.py reads\n"
        "  -output-html=<file>   also write a self-contained HTML report: one chart per\n"
        "                        title and unit, every epoch as a point\n"
        "  -against=<program>    compare every selected benchmark between this build and\n"
        "                        another bench_bitcoin (say, the parent commit's build):\n"
        "                        both run as serving processes, measured epoch by epoch in\n"
        "                        alternation, with one iteration count; a table of both\n"
        "                        sides' ns/unit, this/other with its 95% interval (for all\n"
        "                        rows together) and a verdict. -min-time (default 50 here)\n"
        "                        is split between the two sides. Not with -compare,\n"
        "                        -asymptote, -output-*\n"
        "  -baseline=<file>      after the run, compare it with an earlier -output-json file\n"
        "                        (unpaired, so weaker than -against: the two runs saw\n"
        "                        different states of the machine); compares estimated\n"
        "                        cycles (~cyc) where both runs have them, else times\n"
        "  -max-regression=<pct> with -against or -baseline: exit status 1 when a row is\n"
        "                        significantly slower than the other side by more than pct\n"
        "                        percent (the interval's bound nearest 1 is beyond it)\n"
        "  -help, -h, -?         print this help and exit (once the other options given are\n"
        "                        checked, as for -list)\n"
        "\n"
        "The default -min-time deviates from Core's 10 ms: on the 2-core VM this was tuned on,\n"
        "10 ms left 4-10 of the 37 rows at err% >= 1% (whole run 0.6 s); "
        BENCH_DEFAULT_MIN_TIME_TEXT " ms left\n"
        "4-7 and took 1.3 s, the most that fits the 1.5 s budget for the whole default run\n"
        "(doc/benchmarks.md has the figures).\n"
        "\n"
        "Output files are written whole or not at all. Every error is one line on stderr and\n"
        "a non-zero exit status, before any benchmark runs.\n"
        "\n"
        "Tips:\n"
        "  - Measure on a quiet machine: no other load, CPU frequency fixed (governor\n"
        "    'performance', turbo off); the table warns about what it detects.\n"
        "  - Where err% stays high, raise -min-time (e.g. -min-time=1000): longer epochs\n"
        "    average out noise.\n"
        "  - NANOBENCH_ENDLESS=<name> runs that benchmark for ever (say, to watch it with\n"
        "    'perf top'); it says so on stderr.\n"
        "  - NANOBENCH_SUPPRESS_WARNINGS=1 hides the stability warnings, the unstable\n"
        "    markers and the note on missing performance counters.\n",
        out);
}

/* ---- selection ---- */

/* The rows whose whole name matches o->filter (o->match, as bench_parse_options found it),
 * whose priority level o->priority includes and that this CPU can run (bench_row_available),
 * in byte-wise name order, into *selected (bb_free it). 0 and *count (at least 1), or -1
 * after one error line (also when none is left, saying which condition removed the last). */
static int select_benchmarks(const bench_options *o, const bench_row ***selected, size_t *count)
{
    size_t total, i, n = 0, named = 0, leveled = 0;
    const bench_row *all = bench_rows(&total);
    const bench_row **sel = bb_malloc_array(total ? total : 1, sizeof *sel);

    if (!sel) {
        bench_error("out of memory");
        return -1;
    }
    for (i = 0; i < total; i++) {
        unsigned level = all[i].def->priority ? all[i].def->priority : BENCH_PRIORITY_HIGH;
        if (o->filter && !o->match[i])
            continue;
        named++;
        if (!(level & o->priority))
            continue;
        leveled++;
        if (!bench_row_available(&all[i]))
            continue;
        sel[n++] = &all[i];
    }
    if (n == 0) {
        if (named == 0)
            bench_error("-filter: no benchmark matches '%s' (-list shows them all)", o->filter);
        else if (leveled == 0)
            bench_error("-priority-level=%s: none of the %zu benchmarks selected has that "
                        "level (-list -priority-level=all shows them)", o->priority_text, named);
        else
            bench_error("this CPU cannot run any of the %zu benchmarks selected (their SHA-256 "
                        "implementations need instructions it lacks)", leveled);
        bb_free(sel);
        return -1;
    }
    *selected = sel;
    *count = n;
    return 0;
}

/* ---- running ---- */

/* Puts every setting of b back to the harness's defaults (read from d, a fresh bench), then
 * applies the program's options. */
static void configure(nb_bench *b, const nb_bench *d, const bench_options *o, const char *name)
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
    errno = 0;
    if (bench_row_run(row, b) != 0)
        return -1;
    if (nb_get_error(b) != 0) {
        /* the harness's one error state: a failed write of the row, or memory */
        int e = errno;
        if (ferror(stdout))
            bench_error("%s: writing the table to stdout failed: %s", row->name,
                        e ? strerror(e) : "write error");
        else
            bench_error("%s: the harness ran out of memory", row->name);
        return -1;
    }
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
static int run_benchmarks(nb_bench *b, const nb_bench *defaults, const bench_options *o,
                          const bench_row *const *sel, size_t count)
{
    size_t i, k;
    for (i = 0; i < count; i++) {
        size_t rounds = o->asymptote_count ? o->asymptote_count : 1;
        size_t first = nb_result_count(b);
        for (k = 0; k < rounds; k++) {
            configure(b, defaults, o, sel[i]->name);
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

/* ---- -compare ---- */

/* More than any variant set has (SHA-256 has five). */
#define MAX_IMPLS 16

/* One row of -compare: a benchmark run on one variant of its family, on the automatic
 * choice, or through OpenSSL. */
typedef struct {
    char name[BENCH_NAME_MAX + 32];    /* "SHA256 [shani]" */
    const bench_row *group;            /* the benchmark: its table's title */
    const crypto_variant_set *set;     /* its family's variants; NULL: none */
    const char *impl;                  /* "auto", a variant, or NULL for OpenSSL */
    const bench_def *def;              /* what runs: the benchmark, or its counterpart */
} compare_row;

/* Whether -compare has rows for r: an unpinned benchmark with a family or a counterpart. */
static int comparable(const bench_row *r)
{
    return !r->pin && (r->def->family || r->def->openssl);
}

/* The -compare rows for the selected benchmarks, in order: per benchmark [auto] first (the
 * baseline), then each variant of its family in the set's order, then [openssl]. Benchmarks
 * without either are skipped. 0 and *rows (bb_free it), or -1 after one error line (also when
 * no selected benchmark has any). */
static int compare_rows(const bench_row *const *sel, size_t count, compare_row **rows,
                        size_t *nrows)
{
    size_t i, k, n = 0;
    compare_row *r = bb_malloc_array(count * (MAX_IMPLS + 2) + 1, sizeof *r);

    if (!r) {
        bench_error("-compare: out of memory");
        return -1;
    }
    for (i = 0; i < count; i++) {
        const bench_def *d = sel[i]->def;
        const crypto_variant_set *set = d->family ? crypto_variant_set_find(d->family) : NULL;
        const char *impls[MAX_IMPLS];
        size_t nimpl;
        if (!comparable(sel[i]))
            continue;
        nimpl = crypto_variant_list(set, impls, MAX_IMPLS);
        if (nimpl > MAX_IMPLS)
            nimpl = MAX_IMPLS;
        for (k = 0; k < nimpl + 2; k++) {
            const char *impl = k == 0 ? "auto" : k <= nimpl ? impls[k - 1] : NULL;
            if (!impl && !d->openssl)
                continue;
            r[n].group = sel[i];
            r[n].set = set;
            r[n].impl = impl;
            r[n].def = impl ? d : d->openssl;
            snprintf(r[n].name, sizeof r[n].name, "%s [%s]", sel[i]->name,
                     impl ? impl : "openssl");
            n++;
        }
    }
    if (n == 0) {
        char known[512] = "";
        size_t total, len = 0;
        const bench_row *all = bench_rows(&total);
        for (i = 0; i < total; i++)
            if (comparable(&all[i]) && len < sizeof known)
                len += (size_t)snprintf(known + len, sizeof known - len, "%s%s",
                                        len ? ", " : "", all[i].name);
        bench_error("-compare: no selected benchmark has implementations to compare (those "
                    "that do: %s)", known);
        bb_free(r);
        return -1;
    }
    *rows = r;
    *nrows = n;
    return 0;
}

/* One alternative of a -compare table: its row and its op's state. */
typedef struct {
    const compare_row *row;
    void *state;
    int ready;                     /* the state was made (and is to be freed) */
} compare_alt;

/* nb_compare's op: pins the row's variant, then runs the benchmark's op iters times. The pin
 * is inside the timed epoch, once per epoch (a lock and a name lookup, well under a
 * microsecond against epochs of a millisecond or more, and the same for every row). */
static void compare_alt_run(void *arg, uint64_t iters)
{
    compare_alt *a = arg;
    if (a->row->impl && a->row->set)
        crypto_variant_force(a->row->set, a->row->impl);
    a->row->def->op_n(a->state, iters);
}

/* Compares rows[0..n) (one benchmark's) in one nb_compare into b; 0, or -1 after one error
 * line. */
static int compare_group(nb_bench *b, const nb_bench *defaults, const bench_options *o,
                         const compare_row *rows, size_t n)
{
    compare_alt alt[MAX_IMPLS + 2];
    nb_alternative alts[MAX_IMPLS + 2];
    nb_comparison *c = NULL;
    size_t i, before = nb_result_count(b);
    int rc = -1;
    memset(alt, 0, sizeof alt);
    for (i = 0; i < n; i++) {
        alt[i].row = &rows[i];
        if (rows[i].impl && rows[i].set && crypto_variant_force(rows[i].set, rows[i].impl) != 0) {
            bench_error("-compare: cannot switch %s to '%s'",
                        crypto_variant_set_label(rows[i].set), rows[i].impl);
            goto done;
        }
        if (bench_state_new(rows[i].def, rows[i].name, bench_row_n(rows[i].group, -1),
                            &alt[i].state) != 0)
            goto done;
        alt[i].ready = 1;
        alts[i].name = rows[i].name;
        alts[i].op = NULL;
        alts[i].arg = &alt[i];
        alts[i].op_n = compare_alt_run;
    }
    configure(b, defaults, o, rows[0].group->name);
    /* -min-time is spread over every epoch a row runs: 4 per round */
    if (!o->sanity_check && o->min_time_ns > 0)
        nb_min_epoch_time(b, (uint64_t)(o->min_time_ns / (double)nb_get_epochs(b) /
                                        NB_COMPARE_EPOCHS_PER_ROUND));
    nb_title(b, rows[0].group->name);
    if (rows[0].def->batch > 0)
        nb_batch(b, rows[0].def->batch);
    if (rows[0].def->unit)
        nb_unit(b, rows[0].def->unit);
    errno = 0;
    c = nb_compare(b, alts, n);
    if (!c || nb_get_error(b) != 0) {
        int e = errno;
        if (c && ferror(stdout))
            bench_error("%s: writing the table to stdout failed: %s", rows[0].group->name,
                        e ? strerror(e) : "write error");
        else
            bench_error("%s: the harness ran out of memory", rows[0].group->name);
        goto done;
    }
    if (nb_result_count(b) != before + n) {
        bench_error("%s: -compare made %zu results for %zu rows", rows[0].group->name,
                   nb_result_count(b) - before, n);
        goto done;
    }
    rc = 0;
done:
    nb_comparison_free(c);
    for (i = 0; i < n; i++)
        if (alt[i].ready)
            bench_state_free(alt[i].row->def, alt[i].state);
    return rc;
}

/* Puts every variant set back on its automatic choice. */
static void all_automatic(void)
{
    const crypto_variant_set *sets[32];
    size_t n = crypto_variant_sets(sets, sizeof sets / sizeof sets[0]), i;
    for (i = 0; i < n && i < sizeof sets / sizeof sets[0]; i++)
        crypto_variant_force(sets[i], "auto");
}

/* Runs the -compare rows into b, one nb_compare and table per benchmark, and puts every
 * family back on its automatic choice; 0, or -1 after one error line. */
static int run_compare(nb_bench *b, const nb_bench *defaults, const bench_options *o,
                       const compare_row *rows, size_t n)
{
    size_t i = 0, j;
    int rc = 0;
    while (i < n && rc == 0) {
        for (j = i + 1; j < n && rows[j].group == rows[i].group; j++)
            ;
        rc = compare_group(b, defaults, o, rows + i, j - i);
        all_automatic();
        i = j;
    }
    return rc;
}

/* What every variant set runs now, "SHA1 'shani', SHA256 '...', ...", into buf. */
static const char *variants_in_use(char *buf, size_t cap)
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

static void compare_notes(void)
{
    char used[512];
    fprintf(stderr, "-compare: [auto] is %s; relative is [auto]'s time over the row's, "
            "measured paired and interleaved\n", variants_in_use(used, sizeof used));
#ifndef HAVE_OPENSSL
    /* a note, like the line above, not an error: the run goes on */
    fputs("-compare: built without OpenSSL, so there are no [openssl] rows\n", stderr);
#endif
}

/* Keeps the process on one CPU while it measures, so that the scheduler does not move it in
 * the middle of an epoch (a move costs cold caches; on the 2-core VM this was tuned on it was
 * the main source of err% >= 1%). The CPU is the highest-numbered one the process may use:
 * CPU 0 is where Linux tends to handle interrupts and housekeeping. Best effort: where it is
 * not supported, or the process is already limited to one CPU, nothing changes. */
static void pin_to_one_cpu(void)
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

int main(int argc, char **argv)
{
    bench_options o;
    const bench_row **sel = NULL;
    compare_row *rows = NULL;
    size_t count = 0, nrows = 0, i;
    nb_bench *b = NULL, *defaults = NULL;
    baseline base = {NULL, 0};
    int status = 1;

    bench_options_init(&o);
    outputs[OUT_CSV].option = "-output-csv";
    outputs[OUT_JSON].option = "-output-json";
    outputs[OUT_GBENCH].option = "-output-gbench";
    outputs[OUT_HTML].option = "-output-html";

    if (bench_parse_options(argc, argv, &o) != 0)
        goto done;
    if (o.serve) {   /* the other side of -against: stdin and stdout are the protocol's */
        if (!o.no_pin)
            pin_to_one_cpu();
        status = against_serve(o.serve);
        goto done;
    }
    /* A closed stdout is refused up front, before anything runs, rather than at the first
     * row (nothing the run opens takes descriptor 1: the harness's counters and the output
     * files' temporaries move above 2). -sanity-check prints nothing there. */
    if (!o.sanity_check && fcntl(STDOUT_FILENO, F_GETFD) == -1 && errno == EBADF) {
        bench_error("stdout is closed: the %s has nowhere to go",
                    o.help ? "help" : o.list ? "list" : "table");
        goto done;
    }
    if (select_benchmarks(&o, &sel, &count) != 0)
        goto done;
    if (o.compare && compare_rows(sel, count, &rows, &nrows) != 0)
        goto done;
    /* Under callgrind already (the child of -instructions, or a user's own valgrind run),
     * the harness counts by itself. */
    if (o.instructions && !o.list && !o.help && !nb_valgrind_counting()) {
        status = o.against ? instructions_against(o.against, o.filter, o.max_regression)
                           : instructions_run(argc, argv);
        goto done;
    }

    /* The output files, checked (and their temporaries created) even for -list, so that a
     * command line that names an unwritable file fails whatever else it asks for. */
    outputs[OUT_CSV].target = o.output_csv;
    outputs[OUT_JSON].target = o.output_json;
    outputs[OUT_GBENCH].target = o.output_gbench;
    outputs[OUT_HTML].target = o.output_html;
    for (i = 0; i < OUT_COUNT; i++)
        if (outputs[i].target && out_resolve(&outputs[i]) != 0)
            goto done;
    for (i = 0; i < OUT_COUNT; i++) {
        size_t j;
        for (j = i + 1; j < OUT_COUNT; j++)
            if (outputs[i].target && outputs[j].target && out_same(&outputs[i], &outputs[j])) {
                bench_error("%s='%s' and %s='%s' name the same file", outputs[i].option,
                            outputs[i].target, outputs[j].option, outputs[j].target);
                goto done;
            }
    }
    /* Temporaries for the files to write; for -list and -help a check of the directory only
     * (a FIFO is then not opened: its reader would see an empty stream end). */
    for (i = 0; i < OUT_COUNT; i++)
        if (outputs[i].target && out_open(&outputs[i], !(o.list || o.help)) != 0)
            goto done;

    /* The baseline file is read before anything runs, like every other input. */
    if (o.baseline && baseline_load(o.baseline, &base) != 0)
        goto done;

    /* -help after every check, like -list: a command line with a bad value is an error
     * whatever else it asks for. */
    if (o.help) {
        print_help(stdout);
        status = 0;
        goto flush;
    }
    if (o.list && o.compare) {
        sha256_autodetect();
        compare_notes();
        for (i = 0; i < nrows; i++)
            puts(rows[i].name);
        status = 0;
        goto flush;
    }
    if (o.list) {
        for (i = 0; i < count; i++)
            puts(sel[i]->name);
        status = 0;
        goto flush;
    }

    if (o.against) {
        against_options ao;
        ao.other = o.against;
        ao.filter = o.filter;
        ao.min_time_ns = !o.min_time_given ? BENCH_AGAINST_DEFAULT_MIN_TIME_MS * 1e6
                         : o.min_time_ns > 0 ? o.min_time_ns : BENCH_DEFAULT_MIN_TIME_MS * 1e6;
        ao.max_regression = o.max_regression;
        ao.no_pin = o.no_pin;
        if (!o.no_pin)   /* before the other build starts: it inherits the one CPU */
            pin_to_one_cpu();
        status = against_run(&ao, sel, count);
        goto done;
    }

    b = nb_bench_new();
    defaults = nb_bench_new();
    if (!b || !defaults) {
        bench_error("out of memory");
        goto done;
    }

    fprintf(stderr, "Using the '%s' SHA256 implementation\n", sha256_autodetect());
    if (nb_valgrind_counting()) {
        char used[512];
        fprintf(stderr, "Counting instructions under callgrind; the hashes run %s (valgrind's "
                "CPU has no SHA-NI or AVX-512)\n", variants_in_use(used, sizeof used));
    }
    if (!o.no_pin)
        pin_to_one_cpu();
    if (o.compare) {
        compare_notes();
        if (run_compare(b, defaults, &o, rows, nrows) != 0)
            goto done;
    } else if (run_benchmarks(b, defaults, &o, sel, count) != 0) {
        goto done;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        bench_error("writing the table to stdout failed: %s", strerror(errno));
        goto done;
    }
    if ((outputs[OUT_CSV].target && out_render(&outputs[OUT_CSV], csv_template, b) != 0)
        || (outputs[OUT_JSON].target && out_render(&outputs[OUT_JSON], nb_templ_json(), b) != 0)
        || (outputs[OUT_GBENCH].target
            && out_render(&outputs[OUT_GBENCH], nb_templ_gbench(), b) != 0)
        || (outputs[OUT_HTML].target && out_render(&outputs[OUT_HTML], nb_templ_html(), b) != 0))
        goto done;
    if (out_commit_all(outputs, OUT_COUNT) != 0)
        goto done;
    status = 0;
    if (o.baseline && (status = baseline_compare(&base, o.baseline, b, o.max_regression)) < 0)
        status = 1;
flush:
    if (fflush(stdout) != 0 || ferror(stdout)) {
        bench_error("writing to stdout failed");
        status = 1;
    }
done:
    for (i = 0; i < OUT_COUNT; i++)
        out_release(&outputs[i]);
    nb_bench_free(b);
    nb_bench_free(defaults);
    bb_free(sel);
    bb_free(rows);
    bench_options_free(&o);
    baseline_free(&base);
    return status;
}
