/* The harness's test hooks: what its tests (and the fuzz target) may use
 * beyond nanobench.h. Not installed, not part of the API. Tests include this
 * header, not nb_internal.h: they see functions, never a struct's layout
 * (the one exception is the perf module's own unit test, whose subject is
 * the counter group). nb_internal.h includes it, so each function is
 * declared once. */
#ifndef NB_TEST_HOOKS_H
#define NB_TEST_HOOKS_H

#include "bench/nanobench.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- hooks into a bench (nb_test_hooks.c) ---- */

typedef uint64_t (*nb_clock_fn)(void *ctx);  /* monotonic nanoseconds */

/* Replaces the clock of b (fn returns nanoseconds) and its resolution (0:
 * the measured one). fn NULL restores the real clock. */
void nb_test_set_clock(nb_bench *b, nb_clock_fn fn, void *ctx, uint64_t resolution_ns);
/* Replaces b's clock probe (fn returns GHz). With a test clock and no test
 * probe, nothing is probed. fn NULL restores the real probe. */
void nb_test_set_probe(nb_bench *b, double (*fn)(void *ctx), void *ctx);
/* Sends b's progress line (nb_logic_progress) to f as if f were a terminal;
 * f NULL: back to stderr when it is one. */
void nb_test_set_progress(nb_bench *b, FILE *f);
/* The epoch target (ns) b's settings give with a clock of that resolution. */
uint64_t nb_test_target(const nb_bench *b, uint64_t resolution_ns);
/* The iteration count of the epoch b runs now (or next); 0 when idle. */
uint64_t nb_test_iterations(const nb_bench *b);
/* Whether b opened a counter for m, and why the first wanted counter failed
 * to open (an errno; 0 when none failed or none was tried). */
int nb_test_counting(const nb_bench *b, nb_measure m);
int nb_test_counter_errno(const nb_bench *b);
/* How many counters b opened. */
size_t nb_test_counters(const nb_bench *b);

/* ---- results built by hand (nb_test_hooks.c) ---- */

/* Epochs a run measured and did not keep (calibration, too short). */
uint64_t nb_test_discarded(const nb_result *r);
/* 1 when r ended in the "iterations overflow" row. */
int nb_test_overflowed(const nb_result *r);
/* Epoch i's total of m: NB_ELAPSED its seconds, NB_ITERATIONS its count,
 * counters their totals; NaN out of range or not measured. */
double nb_test_epoch_total(const nb_result *r, nb_measure m, size_t i);
/* A result with b's settings and room for nb_get_epochs(b) epochs, none yet
 * (clock resolution 20 ns); NULL when memory runs out. */
nb_result *nb_test_result_new(const nb_bench *b);
void       nb_test_result_free(nb_result *r);
/* Appends an epoch of iters iterations that took elapsed seconds, no
 * counter; 0, or -1 when r is full. */
int  nb_test_result_add(nb_result *r, uint64_t iters, double elapsed);
/* Sets epoch i's total of counter m; m counts as measured once every epoch
 * has it. */
void nb_test_result_set(nb_result *r, nb_measure m, size_t i, double total);
/* Makes r an "iterations overflow" result (no epochs). */
void nb_test_result_overflow(nb_result *r);
/* Marks r as counted under callgrind (the table's sim.miss% column). */
void nb_test_result_counted(nb_result *r);

/* ---- internal functions tested directly ---- */

/* The clock (nb_clock.c): CLOCK_MONOTONIC, and its resolution measured once
 * per process. */
uint64_t nb_clock_now_ns(void);
uint64_t nb_clock_resolution_ns(void);
/* The core's clock right now in GHz, from a timed chain of dependent adds
 * (nb_freq.c); 0 where the architecture has no chain. */
double nb_freq_probe_ghz(void);
/* Median and err over plain arrays (sorted in place): for the statistics
 * and their tests. */
double nb_stats_median(double *v, size_t n);
double nb_stats_mdape(const double *v, size_t n, double median, double *scratch);

/* Numbers and tables (nb_format.c, nb_table.c, nb_warnings.c). */
/* Formats v right-aligned in width with precision decimals and ',' as the
 * thousands separator (nanobench's Number); "-" for a non-finite v.
 * Returns the length written (truncated to cap - 1: a buffer of
 * NB_NUMBER_MAX holds any finite double, 309 digits and their separators,
 * with up to 80 decimals and a width up to 100). */
#define NB_NUMBER_MAX 600
size_t nb_format_number(char *buf, size_t cap, int width, int precision, double v);
/* s holds one number that printf wrote (%f, %g, %e; padding allowed):
 * turns the decimal point of the program's locale (LC_NUMERIC, "," in
 * German, a 2-byte sign in some) into '.', so the output reads the same
 * whatever locale the calling program set. */
void nb_c_decimal_point(char *s);
/* Prints r's row (and a header first when columns or title changed for
 * out); first is the bench's first result (for "relative"); mask has bit m
 * set for each counter column to show (1u << NB_INSTRUCTIONS, ...). 0 or -1
 * on a write error. */
int nb_table_row(FILE *out, const nb_result *r, const nb_result *first, unsigned mask,
                 int suppress_unstable);
/* Forgets what header was last printed to out (a stream about to close). */
void nb_table_forget(FILE *out);
/* Stability warnings, once per process, to out. */
void nb_warnings_once(FILE *out, int caller_optimized);
/* The one-time note that hardware counters are missing, to out. */
void nb_perf_note_once(FILE *out, int err);
/* 1 when NANOBENCH_SUPPRESS_WARNINGS is set to something other than "0". */
int nb_warnings_suppressed(void);
/* Gathers the warnings into buf (one per line, "* " prefixed) and
 * recommendations into rec; returns the warning count. For tests. */
size_t nb_warnings_gather(char *buf, size_t cap, char *rec, size_t rcap, int caller_optimized);

/* Comparison (nb_compare.c, nb_comparison.c). */
/* Rounds per block of nb_compare's order for n alternatives (n even: n,
 * odd: 2n), and row `row` of it: order[j] is the alternative that runs j-th
 * in that round. */
size_t nb_compare_block(size_t n);
void   nb_compare_order(size_t n, size_t row, size_t *order);
/* The median of alternative i's round values and their MdAPE (the table's
 * time and err% columns); NaN for an i out of range. */
void   nb_comparison_summary(const nb_comparison *c, size_t i, double *median, double *err);

/* callgrind dumps (nb_vg_dump.c). */
/* Reads a callgrind dump: the "events:" names and the "totals:" (or
 * "summary:") line into counts (NB_INSTRUCTIONS from Ir; branches from
 * Bc + Bi, their misses from Bcm + Bim where --branch-sim gave them); sets
 * *has (bit m: counts[m] is valid) and, when trigger is not NULL, checks
 * that the dump's trigger was that client request. 0, or -1 when the file
 * is unreadable, not callgrind's, or another dump's. */
int  nb_vg_read_dump(const char *path, const char *trigger, double counts[NB_MEASURE_COUNT],
                     unsigned *has);

#endif
