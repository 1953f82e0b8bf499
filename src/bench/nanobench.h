/* nanobench in C: a harness that measures small pieces of code.
 *
 * A port of nanobench's design (Config, Result, IterationLogic,
 * PerformanceCounters). Usage:
 *
 *     nb_bench *b = nb_bench_new();
 *     NB_RUN(b, .name = "SHA256", .unit = "byte", .batch = 1000000, .op = op, .arg = &ctx);
 *     nb_run(nb_unit(nb_batch(nb_name(b, "SHA256"), 1000000), "byte"), op, &ctx);
 *     if (nb_get_error(b))
 *         fprintf(stderr, "%s\n", nb_get_error_message(b));
 *     nb_bench_free(b);
 *
 * Setters are nanobench's `Bench::fooBar(x)` as `nb_foo_bar(b, x)`; each
 * returns b so calls chain; NB_RUN sets and runs in one statement. Setters
 * copy strings. Every function takes NULL for any pointer without crashing.
 * A bench is not thread-safe; use one per thread. See doc/harness.md for the
 * columns and the method; nanobench-single.h is this harness in one header.
 *
 * nb_run is defined here, inline, so that the op inlines at the call site:
 * the measured loop is "read clock, call op(arg) n times, read clock", and all
 * the bookkeeping (choosing n, storing, printing) happens in library functions
 * between epochs. */
#ifndef NB_NANOBENCH_H
#define NB_NANOBENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nb_bench nb_bench;   /* opaque: the configuration and the results */
typedef struct nb_result nb_result; /* opaque: one nb_run's epochs and its config snapshot */

/* ---- Bench: lifetime and configuration (nb_bench.c) ---- */

/* A bench with nanobench's defaults: title "benchmark", name "noname", unit
 * "op", batch 1, 11 epochs, clock resolution multiple 1000, max epoch time
 * 100 ms, min epoch time 1 ms, min epoch iterations 1, no warmup, time unit
 * 1 ns "ns", performance counters on, relative off, output stdout.
 * NULL when memory runs out. */
nb_bench *nb_bench_new(void);

/* Frees b and every result it holds; b may be NULL. */
void nb_bench_free(nb_bench *b);

/* The last header cell of the table (default "benchmark"). */
nb_bench *nb_title(nb_bench *b, const char *title);
/* The name of the next nb_run's result. */
nb_bench *nb_name(nb_bench *b, const char *name);
/* What one batch element is called ("byte": columns "ns/byte", "byte/s"). */
nb_bench *nb_unit(nb_bench *b, const char *unit);
/* The advice an unstable row (err% >= 5%) ends with, in place of the default
 * "Increase `nb_min_epoch_iterations` to e.g. N": a program that sets epochs
 * its own way names its own option ("Increase `-min-time` to e.g. 500").
 * NULL or "": the default. Copied. */
nb_bench *nb_unstable_advice(nb_bench *b, const char *advice);
/* How many units one op call processes; per-unit columns divide by it.
 * Must be positive and finite; otherwise the setting stays as it was,
 * nb_get_error says -1, and the next nb_run or nb_compare on b is refused
 * (its rows would show per-op figures under the unit meant for the batch). */
nb_bench *nb_batch(nb_bench *b, double batch);
/* Adds the "relative" column: the reference's median time per unit over
 * this result's, where the reference is the first of the unbroken run of
 * results before this one with its title and unit: a change of either
 * starts a new reference, a header reprinted for another reason (such as a
 * new complexityN column) does not. */
nb_bench *nb_relative(nb_bench *b, int on);
/* Measures with perf counters where the kernel offers them (default on).
 * The group is opened on the thread of b's first nb_run, and counts that
 * thread only. */
nb_bench *nb_performance_counters(nb_bench *b, int on);
/* Estimates each epoch's core cycles (measure NB_EST_CYCLES, "estcycles" in
 * templates, the ~cyc/op column when there is no cycle counter) by timing a
 * chain of dependent adds, one per cycle, right before and after the epoch:
 * cycles = the epoch's time x the core's clock rate around it. A VM's host
 * changes that clock between moments and processes; the cycles repeat where
 * the time does not (doc/harness.md). Default on; x86-64 and AArch64 with a
 * GNU compiler only (elsewhere nothing is estimated). Costs one probe of
 * about 2 us per epoch, outside the timed span. */
nb_bench *nb_cycle_probe(nb_bench *b, int on);
/* Where rows, headers and warnings go; NULL: print nothing. Not closed by b. */
nb_bench *nb_output(nb_bench *b, FILE *out);
/* Number of measured epochs (default 11; 0 is taken as 1). */
nb_bench *nb_epochs(nb_bench *b, size_t epochs);
/* Fixed iterations per epoch, no calibration (0: calibrate, the default). */
nb_bench *nb_epoch_iterations(nb_bench *b, uint64_t iters);
/* At least this many iterations in each measured epoch (default 1). */
nb_bench *nb_min_epoch_iterations(nb_bench *b, uint64_t iters);
/* Iterations run once, unmeasured, before calibration (default 0). */
nb_bench *nb_warmup(nb_bench *b, uint64_t iters);
/* Lower bound on the epoch target in nanoseconds (default 1 ms): epochs are
 * sized to last the target at the fastest speed seen, and one that lasts
 * under 2/3 of it is not kept. */
nb_bench *nb_min_epoch_time(nb_bench *b, uint64_t ns);
/* Upper bound on the epoch target in nanoseconds (default 100 ms). */
nb_bench *nb_max_epoch_time(nb_bench *b, uint64_t ns);
/* The problem size of the runs from now on (it stays until changed), for
 * complexity fits; adds the "complexityN" column. Set when positive and
 * finite; anything else unsets it (stores -1, the default): no column, and
 * Big-O fits skip the result. */
nb_bench *nb_complexity_n(nb_bench *b, double n);
/* The unit time columns are expressed in: seconds per named unit
 * (default 1e-9, "ns"). seconds must be positive and finite; otherwise the
 * setting stays as it was and nb_get_error says -1. */
nb_bench *nb_time_unit(nb_bench *b, double seconds, const char *name);
/* Epoch target = clock resolution * multiple (default 1000), then clamped. */
nb_bench *nb_clock_resolution_multiple(nb_bench *b, size_t multiple);
/* Sets a key/value pair that results snapshot (both copied); templates read
 * it as {{context(key)}}. A NULL value is ""; a NULL key sets nothing and
 * nb_get_error to -1. */
nb_bench *nb_context(nb_bench *b, const char *key, const char *value);
/* Removes every context pair. */
nb_bench *nb_clear_context(nb_bench *b);

/* The table's columns, for nb_show_column. NB_COLUMN_CYCLES is cyc/<unit>
 * and ~cyc/<unit> alike; NB_COLUMN_BRANCHES bra/<unit>, NB_COLUMN_MISSES
 * miss% (sim.miss% under callgrind). The name column is always shown. */
typedef enum {
    NB_COLUMN_RELATIVE, NB_COLUMN_COMPLEXITY_N, NB_COLUMN_TIME, NB_COLUMN_RATE, NB_COLUMN_ERR,
    NB_COLUMN_INSTRUCTIONS, NB_COLUMN_CYCLES, NB_COLUMN_IPC, NB_COLUMN_BRANCHES,
    NB_COLUMN_MISSES, NB_COLUMN_TOTAL
} nb_column_id;
#define NB_COLUMN_COUNT 11
/* Shows (on, the default) or hides column c in the rows of the runs from now
 * on; a shown column still appears only where it applies (relative when
 * nb_relative is on, a counter's when it was read). An unknown c sets
 * nb_get_error. */
nb_bench *nb_show_column(nb_bench *b, nb_column_id c, int on);
/* Adds one column per context pair (nb_context) to the rows of the runs from
 * now on, before the name: the key as its header, the value as its cell, in
 * the order the keys were first set (default off). */
nb_bench *nb_show_context(nb_bench *b, int on);

/* A new bench with b's configuration (every setting, the context, the
 * output, the shown columns; nanobench's Bench copy), without b's results,
 * error or one-run settings (nb_setup, nb_setup_each, nb_drive). NULL when b
 * is NULL or memory runs out. */
nb_bench *nb_bench_copy(const nb_bench *b);

/* Hands the iteration logic of the next nb_run on b to next (a program that measures in step
 * with another process: bench_bitcoin -against). The run asks next(ctx, iters, ns) before
 * each epoch for that epoch's iteration count, passing the iteration count and the duration
 * in nanoseconds of the epoch it just measured (0 and 0 before the first), and ends when it
 * returns 0. Warm-up, calibration, the epochs settings and NANOBENCH_ENDLESS do not apply, and
 * the run keeps no epoch: its result has none (next saw them all). The loop timed is the
 * ordinary one. Applies to that one nb_run; next NULL undoes it before. */
typedef uint64_t (*nb_epoch_driver)(void *ctx, uint64_t iters, uint64_t ns);
nb_bench *nb_drive(nb_bench *b, nb_epoch_driver next, void *ctx);

/* Getters, one per setter. Strings are owned by b and valid until the next
 * setter call that changes them or nb_bench_free. For a NULL b they report
 * nanobench's defaults (those of a new bench, but for the output: NULL). */
const char *nb_get_title(const nb_bench *b);
const char *nb_get_name(const nb_bench *b);
const char *nb_get_unit(const nb_bench *b);
const char *nb_get_unstable_advice(const nb_bench *b);   /* "" when the default */
double      nb_get_batch(const nb_bench *b);
int         nb_get_relative(const nb_bench *b);
int         nb_get_performance_counters(const nb_bench *b);
int         nb_get_cycle_probe(const nb_bench *b);
FILE       *nb_get_output(const nb_bench *b);
size_t      nb_get_epochs(const nb_bench *b);
uint64_t    nb_get_epoch_iterations(const nb_bench *b);
uint64_t    nb_get_min_epoch_iterations(const nb_bench *b);
uint64_t    nb_get_warmup(const nb_bench *b);
uint64_t    nb_get_min_epoch_time(const nb_bench *b);   /* ns */
uint64_t    nb_get_max_epoch_time(const nb_bench *b);   /* ns */
double      nb_get_complexity_n(const nb_bench *b);     /* negative when not set */
double      nb_get_time_unit(const nb_bench *b);        /* seconds */
const char *nb_get_time_unit_name(const nb_bench *b);
size_t      nb_get_clock_resolution_multiple(const nb_bench *b);
const char *nb_get_context(const nb_bench *b, const char *key); /* NULL when unset */
int         nb_get_show_column(const nb_bench *b, nb_column_id c); /* 0 also for an unknown c */
int         nb_get_show_context(const nb_bench *b);

/* 0 when every call on b since nb_bench_new (or nb_clear_error) succeeded;
 * -1 once one failed: a setter given a value it cannot use (the setting stays
 * as it was), a run refused (a NULL op, a nested run, a run after a rejected
 * nb_batch), memory running out (the setting or the result was dropped), a
 * write to the output failing; and for a NULL b (nb_bench_new ran out of
 * memory: the setters and nb_run take NULL and do nothing, so a chain needs
 * one check at its end). */
int nb_get_error(const nb_bench *b);
/* What the first error since the bench was made (or since nb_clear_error)
 * was, as one line ("nb_batch: 0 is not a positive finite batch", "nb_run: op
 * is NULL", "write to output failed: No space left on device", ...); "" when
 * nb_get_error(b) is 0; for a NULL b, that there is no bench. Owned by b,
 * valid until the next call on b. */
const char *nb_get_error_message(const nb_bench *b);
/* Forgets the error: nb_get_error says 0 again, the message is "". */
nb_bench   *nb_clear_error(nb_bench *b);

/* The steady clock's resolution in seconds, measured once per process. */
double nb_clock_resolution(void);

/* ---- Counting instructions under valgrind (nb_vg_count.c, nb_vg_dump.c, nb_vg_run.c) ---- */

/* 1 when the harness was built with valgrind's client-request header
 * (valgrind/callgrind.h), without which it cannot count under callgrind. */
int nb_valgrind_supported(void);
/* 1 when this process runs under valgrind's callgrind and the harness
 * supports it: nb_run then counts instructions instead of timing. Each
 * epoch is wrapped in callgrind's client requests and its dump read back
 * from callgrind's out file (NANOBENCH_CALLGRIND_OUT names it when
 * --callgrind-out-file was given; %p is the process id). Iteration counts
 * are fixed by the counts alone, and each kept epoch is the difference of
 * an epoch of n and one of 2n iterations, so the loop's fixed cost drops
 * out: NB_INSTRUCTIONS is exact per iteration, and with valgrind's
 * --branch-sim=yes NB_BRANCH_INSTRUCTIONS (conditional and indirect) and
 * NB_BRANCH_MISSES (simulated). NB_ELAPSED is then the simulator's time.
 * See doc/instructions.md. */
int nb_valgrind_counting(void);

/* What nb_valgrind_run saw. */
typedef struct {
    int exit_status;   /* the program's exit status; -1 when a signal ended it */
    int signal;        /* that signal, else 0 */
    size_t dumps;      /* callgrind dumps the harness asked for (0: nothing counted) */
    char last[128];    /* the name of the run of the last dump ("" when none) */
} nb_valgrind_report;

/* Runs argv (argv[0] searched in PATH, as execvp does) under valgrind's
 * callgrind the way the harness counts: valgrind found in PATH, options
 * --tool=callgrind --collect-atstart=no --branch-sim=yes -q, then those in
 * valgrind_args (NULL-terminated; NULL for none), callgrind's files in a
 * temporary directory removed afterwards. The program shares the caller's
 * standard streams. Returns 0 when it ran (its outcome in *rep); -1 with
 * errno ENOENT when no valgrind is in PATH, EINVAL for an empty argv, or
 * the error of the temporary directory, fork or wait. */
int nb_valgrind_run(char *const argv[], char *const valgrind_args[], nb_valgrind_report *rep);

/* ---- Running (nb_run inline; the rest in nb_logic.c) ---- */

/* Internal, called by nb_run and nb_run_n only: set up a run (0; 1 when
 * nb_setup_each is set and each iteration is timed alone; or -1 and nothing
 * runs; optimized says whether the caller's translation unit was compiled
 * with optimization, for the debug-build warning; has_op whether there is an
 * op); the next epoch's iteration count (0: done); around one epoch; finish
 * (store the result, print its row). */
int      nb_impl_start(nb_bench *b, int optimized, int has_op);
uint64_t nb_impl_next(nb_bench *b);
void     nb_impl_epoch_begin(nb_bench *b);
void     nb_impl_epoch_end(nb_bench *b);
void     nb_impl_finish(nb_bench *b);
/* One epoch of n iterations with nb_setup_each's setup before each, each
 * iteration timed on its own (nb_impl_start returned 1). */
void     nb_impl_epoch_each(nb_bench *b, void (*op)(void *arg),
                            void (*op_n)(void *arg, uint64_t iters), void *arg, uint64_t n);

#if defined(__GNUC__)
#define NB_ALWAYS_INLINE __attribute__((always_inline))
#else
#define NB_ALWAYS_INLINE
#endif

#if defined(__OPTIMIZE__)
#define NB_CALLER_OPTIMIZED 1
#else
#define NB_CALLER_OPTIMIZED 0
#endif

/* The one epoch loop of nb_run and nb_run_n (internal: call those). Exactly
 * one of op and op_n is set; both are constants at every call site, so the
 * branch folds away and op inlines into the loop. */
static inline NB_ALWAYS_INLINE nb_bench *nb_impl_run(nb_bench *b, void (*op)(void *arg),
                                                     void (*op_n)(void *arg, uint64_t iters),
                                                     void *arg, int optimized)
{
    uint64_t n;
    int mode = nb_impl_start(b, optimized, op || op_n);
    if (mode < 0)
        return b;
    while ((n = nb_impl_next(b)) != 0) {
        if (mode) {   /* nb_setup_each: checked once an epoch, not per iteration */
            nb_impl_epoch_each(b, op, op_n, arg, n);
            continue;
        }
        nb_impl_epoch_begin(b);
        if (op_n) {
            op_n(arg, n);
        } else {
            uint64_t i;
            for (i = 0; i < n; ++i)
                op(arg);
        }
        nb_impl_epoch_end(b);
    }
    nb_impl_finish(b);
    return b;
}

/* Measures op(arg) under the name set by nb_name, adds one result, prints
 * its row to the output. op must be safe to call any number of times.
 * When op is a function the compiler can see, it inlines into the loop.
 * A NULL op, an nb_run of b from inside an op that b is running (the outer
 * run goes on and keeps its result), and the first run after a rejected
 * nb_batch (whose rows would show per-op times under the unit) do nothing
 * but record an error (nb_get_error_message says which). */
static inline NB_ALWAYS_INLINE nb_bench *nb_run(nb_bench *b, void (*op)(void *arg), void *arg)
{
    return nb_impl_run(b, op, NULL, arg, NB_CALLER_OPTIMIZED);
}

/* nb_run for an op that runs an epoch's iterations itself: op_n(arg, iters)
 * must do iters iterations (iters >= 1) and is called once per epoch, with
 * the iteration counts nb_run would run. For an op that is reached through a
 * pointer (a table of benchmarks, nb_compare's alternatives), where nb_run
 * would pay one indirect call per iteration: op_n's own loop, written beside
 * the op, lets the op inline there. NB_OP_N writes that loop. */
static inline NB_ALWAYS_INLINE nb_bench *nb_run_n(nb_bench *b,
                                                  void (*op_n)(void *arg, uint64_t iters),
                                                  void *arg)
{
    return nb_impl_run(b, NULL, op_n, arg, NB_CALLER_OPTIMIZED);
}

/* NB_OP_N(name, op) defines `static void name(void *arg, uint64_t iters)`
 * that calls op(arg) iters times, op inlined where the compiler sees it:
 * `static void hash(void *arg) {...} NB_OP_N(hash_n, hash)`, then
 * nb_run_n(b, hash_n, &ctx) or {"hash", NULL, &ctx, hash_n} in nb_compare. */
#define NB_OP_N(name, op)                                     \
    static void name(void *nb_op_arg_, uint64_t nb_op_iters_) \
    {                                                         \
        uint64_t nb_op_i_;                                    \
        for (nb_op_i_ = 0; nb_op_i_ < nb_op_iters_; ++nb_op_i_) \
            op(nb_op_arg_);                                   \
    }

/* ---- One statement per run (nb_bench.c) ---- */

/* A run's settings and op in one value, for one statement that reads top
 * down (C99 designated initializers):
 *
 *     NB_RUN(b, .name = "memcpy 4096", .unit = "byte", .batch = 4096, .op = copy, .arg = &m);
 *
 * is nb_run(nb_batch(nb_unit(nb_name(b, "memcpy 4096"), "byte"), 4096), copy, &m): the op
 * inlines as it does in nb_run. A field left out (0 or NULL) leaves that setting as b has
 * it, so settings given once stay for the runs after, as the setters' do; `relative` is 1
 * (on), -1 (off) or 0 (as set). op_n, when set, is used instead of op (nb_run_n). setup
 * and setup_each take arg too (nb_setup, nb_setup_each: for this run only). */
typedef struct {
    const char *title, *name, *unit;
    double batch;                   /* 0: as set */
    int relative;                   /* 1 on, -1 off, 0 as set */
    size_t epochs;
    uint64_t epoch_iterations, min_epoch_iterations, warmup;
    uint64_t min_epoch_time, max_epoch_time;   /* ns */
    double complexity_n;            /* 0: as set */
    void (*op)(void *arg);
    void (*op_n)(void *arg, uint64_t iters);
    void *arg;
    void (*setup)(void *arg);       /* per epoch */
    void (*setup_each)(void *arg);  /* per iteration */
} nb_spec;

/* Applies the settings s gives to b (the fields left 0 or NULL change
 * nothing), through the setters, so a bad value is refused and recorded as
 * they refuse it. Returns b. */
nb_bench *nb_configure(nb_bench *b, const nb_spec *s);

/* nb_configure, then nb_run (or nb_run_n when op_n is set): what NB_RUN calls. */
static inline NB_ALWAYS_INLINE nb_bench *nb_run_spec(nb_bench *b, const nb_spec *s)
{
    /* read before s goes to the library, so that the compiler still knows
     * the op at the loop and inlines it */
    void (*op)(void *arg) = s && !s->op_n ? s->op : NULL;   /* s NULL: "op is NULL" */
    void (*op_n)(void *arg, uint64_t iters) = s ? s->op_n : NULL;
    void *arg = s ? s->arg : NULL;
    nb_configure(b, s);
    return nb_impl_run(b, op, op_n, arg, NB_CALLER_OPTIMIZED);
}
#define NB_RUN(b, ...) nb_run_spec((b), &(const nb_spec){ __VA_ARGS__ })

/* nb_compare over the alternatives listed in place:
 *     NB_COMPARE(b, { "qsort", sort_q }, { "insertion", sort_i })
 * is nb_compare(b, alts, 2) with alts those two. */
#define NB_COMPARE(b, ...)                                              \
    nb_compare((b), (const nb_alternative[]){ __VA_ARGS__ },            \
               sizeof((const nb_alternative[]){ __VA_ARGS__ }) / sizeof(nb_alternative))

/* nb_do_not_optimize_away(x): the compiler must compute x (a statement).
 * x may be any expression: a scalar, a struct, a bit-field, or an array,
 * whose address is then passed on and its contents must be in memory.
 * nb_clobber_memory(): the compiler must assume all memory was read and
 * written here. */
#if defined(__GNUC__)
/* The value is copied into a variable of x's type after the conversions an
 * operand undergoes (the comma operator's: an array becomes a pointer, a
 * bit-field its integer type); C++ binds a reference instead (there the comma
 * keeps lvalues and arrays as they are). */
#ifdef __cplusplus
#define NB_DNOA_DECL_(v, x) __typeof__(x) const &v = (x)
#else
#define NB_DNOA_DECL_(v, x) __typeof__(((void)0, (x))) v = (x)
#endif
#define nb_do_not_optimize_away(x)                                         \
    do {                                                               \
        NB_DNOA_DECL_(nb_dnoa_value_, x);                              \
        __asm__ __volatile__("" : : "r,m"(nb_dnoa_value_) : "memory"); \
    } while (0)
#define nb_clobber_memory() __asm__ __volatile__("" : : : "memory")
#else
#define nb_do_not_optimize_away(x) nb_do_not_optimize_sink((const volatile void *)&(x))
#define nb_clobber_memory() nb_do_not_optimize_sink(NULL)
#endif
/* Fallback for compilers without GNU asm (there x must be an lvalue): an
 * opaque call the optimizer cannot see through. */
void nb_do_not_optimize_sink(const volatile void *p);

/* ---- Results (nb_result.c) ---- */

/* b may be NULL: 0 results. nb_result_at is NULL past the end. */
size_t           nb_result_count(const nb_bench *b);
const nb_result *nb_result_at(const nb_bench *b, size_t i);   /* in the order they were run */

typedef enum {
    NB_ELAPSED, NB_ITERATIONS, NB_PAGE_FAULTS, NB_CPU_CYCLES, NB_CONTEXT_SWITCHES,
    NB_INSTRUCTIONS, NB_BRANCH_INSTRUCTIONS, NB_BRANCH_MISSES,
    NB_EST_CYCLES   /* core cycles estimated without counters: nb_cycle_probe */
} nb_measure;
#define NB_MEASURE_COUNT 9

/* 1 when r measured m (elapsed and iterations always; counters when read).
 * A run that ended in the "iterations overflow" row is stored with 0 epochs,
 * and then this is 0 for every measure. */
int    nb_result_has(const nb_result *r, nb_measure m);
/* Median over the epochs; NB_ELAPSED: seconds per iteration of op; counters:
 * per iteration; NAN when !nb_result_has(r, m). */
double nb_result_median(const nb_result *r, nb_measure m);
/* Median absolute percentage error of the epochs around the median,
 * 0.01 = 1%; NAN when !nb_result_has(r, m). */
double nb_result_err(const nb_result *r, nb_measure m);
/* The lower quartile over the epochs (a quarter of the way up their sorted
 * values, interpolated: R's and numpy's default), per iteration as the
 * median; what the ~cyc column shows of NB_EST_CYCLES; NAN when
 * !nb_result_has(r, m). */
double nb_result_lower_quartile(const nb_result *r, nb_measure m);

/* Whether r's median is physically implausible, which means the compiler
 * removed (part of) the op's work: 1 and a one-line reason in why (size
 * bytes, terminated; why may be NULL) when
 *  - an iteration took under a quarter of a clock cycle at NB_MAX_CLOCK_HZ
 *    (no loop iteration is that short: its counter alone is a dependency
 *    chain of one cycle), or
 *  - the unit is "byte" (or "B", "bytes") and the rate is above
 *    NB_MAX_BYTES_PER_CYCLE bytes a cycle at NB_MAX_CLOCK_HZ: more than any
 *    core's load and store ports move together, from any cache level;
 * 0 otherwise (also when r is NULL or has no epochs, or was counted under
 * callgrind, whose times are a simulator's). The table marks such
 * a row with :warning:, whatever NANOBENCH_SUPPRESS_WARNINGS says. */
#define NB_MAX_CLOCK_HZ 6.5e9
#define NB_MAX_BYTES_PER_CYCLE 256.0
int nb_result_implausible(const nb_result *r, char *why, size_t size);

/* The result's settings; for a NULL r (nb_result_at past the end) NULL, NaN
 * or 0, and every function below reports "not measured" (NaN, 0, -1). */
const char *nb_result_name(const nb_result *r);
const char *nb_result_title(const nb_result *r);
const char *nb_result_unit(const nb_result *r);
double      nb_result_batch(const nb_result *r);
double      nb_result_complexity_n(const nb_result *r);  /* negative when not set */
size_t      nb_result_epoch_count(const nb_result *r);
/* Value of measure m in epoch i: NB_ELAPSED seconds per iteration,
 * NB_ITERATIONS the epoch's iteration count, counters per iteration; NAN when
 * !nb_result_has(r, m) or i is out of range. */
double      nb_result_epoch(const nb_result *r, nb_measure m, size_t i);
double      nb_result_minimum(const nb_result *r, nb_measure m);
double      nb_result_maximum(const nb_result *r, nb_measure m);
double      nb_result_average(const nb_result *r, nb_measure m);
double      nb_result_sum(const nb_result *r, nb_measure m);
/* Sum over epochs of a(i) * b(i); (elapsed, iterations) is the total time. */
double      nb_result_sum_product(const nb_result *r, nb_measure a, nb_measure b);
/* Config values by nanobench's template tag names: "epochs",
 * "clockResolution" (s), "clockResolutionMultiple", "maxEpochTime" (s),
 * "minEpochTime" (s), "minEpochIterations", "epochIterations", "warmup",
 * "relative", "batch", "complexityN"; returns 0 and sets *value, or -1 for
 * an unknown tag. */
int         nb_result_config(const nb_result *r, const char *tag, double *value);
const char *nb_result_context(const nb_result *r, const char *key);  /* NULL when unset */
/* nanobench's measure names in templates: "elapsed", "iterations",
 * "pagefaults", "cpucycles", "contextswitches", "instructions",
 * "branchinstructions", "branchmisses". */
const char *nb_measure_name(nb_measure m);
int         nb_measure_from_name(const char *name, nb_measure *m);  /* 0 or -1 */

/* ---- Paired comparison and per-epoch setup (nb_compare.c) ---- */

/* One alternative of a comparison: op(arg) is one iteration. When op_n is
 * set it is used instead (op may then be NULL): op_n(arg, iters) must do
 * iters iterations itself, so that a loop the compiler sees replaces the
 * indirect call per iteration nb_compare otherwise pays (measured in
 * doc/compare.md; it matters for ops of a few nanoseconds). A positional
 * initializer {name, op, arg} leaves op_n NULL. */
typedef struct {
    const char *name;
    void (*op)(void *arg);
    void *arg;
    void (*op_n)(void *arg, uint64_t iters);
} nb_alternative;
typedef struct nb_comparison nb_comparison;   /* opaque */

/* Epochs each alternative runs per round of nb_compare; the round's value
 * is the fastest of them. */
#define NB_COMPARE_EPOCHS_PER_ROUND 4

/* Measures alts[0..n) against each other, paired and interleaved in time;
 * alts[0] is the baseline. n >= 2. Every epoch of every alternative runs the
 * same iteration count: nb_epoch_iterations when set, else calibrated once
 * so that the fastest alternative's epoch lasts the epoch target (the
 * slowest's stays within the max epoch time where both can hold). Then
 * rounds: in each, every alternative runs NB_COMPARE_EPOCHS_PER_ROUND
 * epochs, in an order that cancels linear drift and balances which
 * alternative runs after which (rows of a Williams Latin square: blocks of
 * n rows for even n, 2n for odd), and the round's value for an alternative
 * is its fastest epoch (seconds per iteration). Rounds: nb_epochs at least,
 * at least enough for a 95% interval, rounded up to whole blocks. Uses b's
 * unit, batch, title, output, warmup (run once per alternative), min/max
 * epoch time and performance counters. Each alternative's epochs become an
 * ordinary result of b named after it (in the order of alts, after b's
 * earlier results); the table goes to b's output, with a one-line verdict.
 * The baseline is never significant. NULL when b, alts, a name or both ops
 * of an alternative are NULL, when n < 2, when b is running (from an op of
 * b), or when memory runs out. Statistics: nb_stats_paired on the round
 * values, family n - 1 (doc/compare.md). */
nb_comparison *nb_compare(nb_bench *b, const nb_alternative *alts, size_t n);
void   nb_comparison_free(nb_comparison *c);                  /* c may be NULL */
size_t nb_comparison_count(const nb_comparison *c);           /* n; 0 for NULL */
size_t nb_comparison_rounds(const nb_comparison *c);          /* paired rounds measured */
/* The iteration count of every epoch. */
uint64_t nb_comparison_iterations(const nb_comparison *c);
/* The baseline's time over alternative i's (above 1: i is faster; 1 for
 * i = 0), with the bounds of its 95% interval (family-wise over the n - 1
 * comparisons) in *low and *high (either may be NULL). NaN (and NaN bounds)
 * for an i out of range, or when no interval could be computed (a zero
 * time). */
double nb_comparison_relative(const nb_comparison *c, size_t i, double *low, double *high);
/* 1 when i's interval excludes 1; 0 for the baseline and an i out of range. */
int    nb_comparison_significant(const nb_comparison *c, size_t i);
/* The alternative with the highest ratio estimate (0 when none beats the
 * baseline's 1). */
size_t nb_comparison_fastest(const nb_comparison *c);
/* i's own epochs, NB_COMPARE_EPOCHS_PER_ROUND per round, in the order they
 * ran; owned by the bench (valid until nb_bench_free); NULL for an i out of
 * range. */
const nb_result *nb_comparison_result(const nb_comparison *c, size_t i);
/* i's value in round r: its fastest epoch's seconds per iteration; NaN out
 * of range. */
double nb_comparison_time(const nb_comparison *c, size_t i, size_t round);

/* +----------------------------------------------------------------------+
 * | nb_setup runs ONCE PER EPOCH, and an epoch runs many iterations.       |
 * | It is for state the op reads but does not use up (a buffer to hash, a |
 * | key schedule, a cache to warm): every iteration sees what the one     |
 * | before it left. It is NOT for state one iteration uses up (an array   |
 * | to sort, a queue to drain): only the first iteration of each epoch    |
 * | would see fresh state, the rest would time the used-up case (sorting  |
 * | sorted data), and the verdict can be wrong by 30x. For that, use      |
 * | nb_setup_each. A run whose per-epoch setup meets epochs of more than   |
 * | one iteration says so once, in the output.                            |
 * +----------------------------------------------------------------------+
 * setup(arg) runs once before each measured epoch of the next nb_run or
 * nb_compare on b (before each alternative's epoch in nb_compare), untimed;
 * it also runs before warm-up and calibration epochs; it applies to that
 * one call only (setup NULL: none). It and nb_setup_each exclude each other
 * (the later call wins). Returns b. */
nb_bench *nb_setup(nb_bench *b, void (*setup)(void *arg), void *arg);

/* setup(arg) runs before every iteration of the next nb_run or nb_compare on
 * b, untimed: each iteration is timed on its own, and the clock's own cost
 * (two reads and the call, measured at the start of the run: the median of
 * many back-to-back reads around an empty call) is taken out. For ops whose
 * state one iteration uses up (sorting an array, draining a queue) and that
 * take long enough to time one by one: the op is called through a pointer
 * (not inlined), counters are not read, and what the clock cannot resolve
 * (its jitter, about a tenth of a microsecond on common hardware; the
 * smallest op it times honestly is in doc/measurements.md) stays in the
 * figure. Applies to that one call only; nb_setup and nb_setup_each exclude
 * each other (the later one wins). Returns b. */
nb_bench *nb_setup_each(nb_bench *b, void (*setup)(void *arg), void *arg);

/* ---- Statistics for comparisons (nb_stats.c) ---- */

/* An estimated time ratio with its interval: the baseline's time over the
 * other's (above 1: the other is faster). */
typedef struct {
    double estimate;   /* point estimate of the ratio */
    double low, high;  /* bounds of the (family-wise) confidence interval */
    int significant;   /* 1 when [low, high] excludes 1 */
} nb_ratio;

/* Paired samples: base[i] and other[i] (seconds per iteration, or any
 * positive cost) were measured in the same round i, n rounds. The interval
 * holds at `confidence` (e.g. 0.95) jointly over `family` comparisons (>= 1;
 * Bonferroni). Estimator: Hodges-Lehmann on the log ratios
 * log(base[i] / other[i]), with the Wilcoxon signed-rank interval (exact up
 * to 200 rounds, normal approximation above); it assumes the rounds'
 * log ratios are independent and symmetric about their centre
 * (doc/compare.md). At 95% and family 1 it needs n >= 6. 0 on success; -1
 * when an argument is invalid (NULL, a value not finite or <= 0, family 0,
 * confidence not in (0,1)), n is too small to give any interval, or memory
 * runs out (then *out, if not NULL, is set to NaNs). */
int nb_stats_paired(const double *base, const double *other, size_t n, size_t family,
                    double confidence, nb_ratio *out);
/* Unpaired (independent) samples of sizes nb and no: same contract.
 * Estimator: the Hodges-Lehmann shift of the log costs (the median of the
 * nb * no differences log(base[i]) - log(other[j])) with the Mann-Whitney
 * interval (exact up to nb * no = 2500); it assumes the two samples are
 * independent and that their log costs differ by a shift. */
int nb_stats_unpaired(const double *base, size_t nb, const double *other, size_t no,
                      size_t family, double confidence, nb_ratio *out);

/* ---- Markdown tables (nb_markdown.c) ---- */

/* The writer behind every table the harness prints, for programs that print
 * tables of their own in the same style (doc/harness.md "Markdown tables").
 * A row is cells: '|', lead spaces, the text padded to width on the side
 * align says, one space; the open column (width 0, the last one) is '|', lead
 * spaces and the text, unpadded. The rule under the header is as wide as each
 * cell, with ':' on the aligned side ("|-----:|", "|:-----|"; none for
 * NB_ALIGN_NONE). Every text is escaped: '|' becomes "\|" (GFM splits cells
 * on it even inside code) and a line break a space, so no text leaves its
 * cell; widths count escaped bytes. A text longer than its width is written
 * whole. Each function returns 0, or -1 when out (or a needed argument) is
 * NULL or the stream's error flag is set after writing (ferror); nothing is
 * flushed. */
typedef enum { NB_ALIGN_RIGHT, NB_ALIGN_LEFT, NB_ALIGN_NONE } nb_align;
typedef struct {
    const char *header;   /* the header cell's text (NULL: "") */
    int width;            /* the text's width; 0: the open last column */
    nb_align align;
    int lead;             /* spaces after the '|' (nanobench's tables: 0; the name column: 1) */
} nb_column;

/* The header line (each column's header as a cell) and the rule under it. */
int nb_markdown_header(FILE *out, const nb_column *cols, size_t n);
/* The rule line alone (after a header line written cell by cell). */
int nb_markdown_rule(FILE *out, const nb_column *cols, size_t n);
/* One row: cells[i] in column i (NULL: empty), then a newline. */
int nb_markdown_row(FILE *out, const nb_column *cols, size_t n, const char *const cells[]);
/* One cell, for rows written piece by piece: padded as col says, no newline.
 * After an open column's cell, more of its text may follow (nb_markdown_text,
 * nb_markdown_code) before the caller's newline. */
int nb_markdown_cell(FILE *out, const nb_column *col, const char *text);
/* text escaped, unpadded (NULL: nothing). */
int nb_markdown_text(FILE *out, const char *text);
/* text as a code span: delimited by one backtick more than its longest run
 * of backticks, a space inside each delimiter where it starts or ends with
 * one; escaped as above. */
int nb_markdown_code(FILE *out, const char *text);
/* The width text takes in a cell once escaped, in characters (UTF-8; 0 for NULL). */
size_t nb_markdown_width(const char *text);

/* ---- Rng, complexity, templates (nb_rng.c, nb_bigo.c, nb_render.c) ---- */

/* Rng: nanobench's RomuDuoJr. A NULL r draws zeros and changes nothing
 * (nb_rng_set_state says -1). */
typedef struct { uint64_t x, y; } nb_rng;
void     nb_rng_seed(nb_rng *r, uint64_t seed);      /* as nanobench's Rng(seed) */
void     nb_rng_seed_random(nb_rng *r);               /* from the OS/clock */
uint64_t nb_rng_next(nb_rng *r);
uint32_t nb_rng_bounded(nb_rng *r, uint32_t range);   /* [0, range), as nanobench */
double   nb_rng_uniform01(nb_rng *r);                 /* [0, 1), as nanobench */
nb_rng   nb_rng_copy(const nb_rng *r);
void     nb_rng_state(const nb_rng *r, uint64_t state[2]);
int      nb_rng_set_state(nb_rng *r, const uint64_t state[2]); /* -1 when all zero */
/* Shuffles count elements of size bytes at base, every order equally likely
 * (Fisher-Yates; nanobench's Rng::shuffle for a C array). */
void     nb_rng_shuffle(nb_rng *r, void *base, size_t count, size_t size);

/* Complexity: fits over every result with complexity N set, using
 * (N, median elapsed seconds per iteration); best (lowest normalized RMS)
 * first. Fills up to cap fits; returns how many. */
typedef struct { const char *name; double coefficient; double normalized_rms; } nb_bigo;
size_t nb_complexity_bigo(const nb_bench *b, nb_bigo *out, size_t cap);
/* One fit with a user function; name is copied by reference; 0, or -1 when
 * < 1 point. */
int    nb_complexity_bigo_custom(const nb_bench *b, const char *name,
                                 double (*f)(double n), nb_bigo *out);
/* The same fits over plain arrays, for tests and reuse. */
size_t nb_bigo_fit(const double *n, const double *t, size_t count, nb_bigo *out, size_t cap);
/* Prints the fit table as nanobench does; 0 or -1 on write error. */
int    nb_bigo_print(FILE *out, const nb_bigo *fits, size_t count);

/* Templates: nanobench's mustache-like language over b's results.
 * 0 on success; -1 with errno EINVAL for a malformed template (unknown tag,
 * unbalanced section) or a NULL argument, ENOMEM when out of memory (in
 * both cases nothing is written), or the write's own errno (EIO when it set
 * none) when writing failed: then part may have been written, so callers
 * that write files write to a temporary and rename. */
int nb_render(const char *tmpl, const nb_bench *b, FILE *out);
/* nb_render, and on failure a one-line message in msg (size bytes, always
 * terminated when size > 0; msg may be NULL) that says which tag failed,
 * where and why: "line 3, column 5, tag '{{median(elapsd)}}': unknown tag:
 * ...", or "out of memory", or "writing the output failed: ...". On success
 * msg holds "". Thread-safe: nothing is kept between calls. */
int nb_render_diag(const char *tmpl, const nb_bench *b, FILE *out, char *msg, size_t size);
/* nb_render and nb_render_diag over a list of results rather than a
 * bench's (nanobench's render(template, results, out)): results[0..count),
 * each from any bench (nb_result_at, nb_comparison_result), in that order;
 * config tags outside {{#result}} with no result report nanobench's
 * defaults. Same returns; a NULL results with count > 0, or a NULL element,
 * is EINVAL. */
int nb_render_results(const char *tmpl, const nb_result *const *results, size_t count,
                      FILE *out);
int nb_render_results_diag(const char *tmpl, const nb_result *const *results, size_t count,
                           FILE *out, char *msg, size_t size);
const char *nb_templ_csv(void);
const char *nb_templ_json(void);
const char *nb_templ_html(void);         /* a self-contained HTML report */
const char *nb_templ_html_boxplot(void); /* the same report (nanobench's name) */
const char *nb_templ_pyperf(void);   /* pyperf's JSON; needs a whole-number batch */
const char *nb_templ_gbench(void);   /* Google Benchmark's JSON (compare.py reads it) */

#ifdef __cplusplus
}
#endif

#endif
