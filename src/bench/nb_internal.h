/* Harness internals shared by the harness sources (src/bench) and its tests.
 * Not installed, not part of the API: layouts may change at any time. */
#ifndef NB_INTERNAL_H
#define NB_INTERNAL_H

#include "bench/nanobench.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    char *key;
    char *value;
} nb_context_pair;

/* What the user asked for (nanobench's Config). Results keep a deep copy. */
typedef struct {
    char *title;
    char *name;
    char *unit;
    char *time_unit_name;
    char *advice;              /* "": the unstable row's default advice */
    double time_unit;          /* seconds per time unit */
    double batch;
    double complexity_n;       /* < 0: unset */
    size_t epochs;
    size_t clock_resolution_multiple;
    uint64_t epoch_iterations;
    uint64_t min_epoch_iterations;
    uint64_t warmup;
    uint64_t min_epoch_time;   /* ns */
    uint64_t max_epoch_time;   /* ns */
    int relative;
    int performance_counters;
    int cycle_probe;
    FILE *out;
    nb_context_pair *context;
    size_t context_count;
} nb_config;

/* One measured epoch: its duration, its iteration count, and the counters'
 * totals for the epoch (already scaled and corrected; valid where the
 * result's has-mask says so). */
typedef struct {
    double elapsed;            /* seconds for the whole epoch */
    uint64_t iters;
    double counters[NB_MEASURE_COUNT];
} nb_epoch;

/* What nb_compare found for one alternative, kept on its result so that templates can
 * write it ({{ratio}}, {{comparedTo}}, ...: doc/templates.md). */
typedef struct {
    char *baseline;            /* the baseline's name (owned); NULL: not from nb_compare */
    double ratio, low, high;   /* the baseline's time over this one's, 95% interval */
    int significant;           /* the interval excludes 1 */
    int fastest;               /* the comparison's fastest alternative */
    int is_baseline;           /* this is the baseline (ratio 1) */
} nb_result_comparison;

struct nb_result {
    nb_config cfg;             /* snapshot; cfg.out is not used */
    double clock_resolution;   /* seconds */
    nb_epoch *epochs;          /* in the order they ran */
    size_t count;
    size_t cap;
    unsigned has;              /* bit m: measure m is valid in every epoch */
    int overflow;              /* ended with "iterations overflow" */
    int counted;               /* counters from callgrind's simulation (nb_valgrind.c) */
    uint64_t discarded;        /* epochs run and not kept (calibration, short) */
    nb_result_comparison cmp;  /* from nb_compare; cmp.baseline NULL otherwise */
};

/* ---- clock (nb_clock.c) ---- */
typedef uint64_t (*nb_clock_fn)(void *ctx);  /* monotonic nanoseconds */
uint64_t nb_clock_now_ns(void);              /* CLOCK_MONOTONIC */
uint64_t nb_clock_resolution_ns(void);       /* measured once per process */

/* ---- performance counters (nb_perf.c) ---- */
typedef struct {
    uint32_t type;             /* PERF_TYPE_HARDWARE or PERF_TYPE_SOFTWARE */
    uint64_t config;           /* e.g. PERF_COUNT_HW_CPU_CYCLES */
    nb_measure measure;        /* where its value goes */
    int correct_overhead;      /* subtract the calibrated begin/end cost */
    int correct_loop;          /* subtract the calibrated per-iteration loop cost */
    int kernel;                /* count in kernel mode too: a context switch only
                                  happens there, so user-only counting sees none */
} nb_perf_event;

#define NB_PERF_MAX_EVENTS 8

typedef struct {
    int leader;                          /* group fd, -1 when none opened */
    size_t count;                        /* events opened */
    nb_perf_event events[NB_PERF_MAX_EVENTS];
    uint64_t ids[NB_PERF_MAX_EVENTS];
    int fds[NB_PERF_MAX_EVENTS];
    int error;                           /* a read/ioctl failed: values invalid */
    int first_errno;                     /* why the first wanted event failed */
    double overhead[NB_PERF_MAX_EVENTS]; /* per begin/end pair */
    double loop[NB_PERF_MAX_EVENTS];     /* per loop iteration */
    double values[NB_PERF_MAX_EVENTS];   /* last read, scaled */
    uint64_t time_enabled, time_running; /* last read */
    int scaled;                          /* last read was scaled up */
} nb_perf_group;

/* Opens what it can of events[0..n) as one group on the calling thread,
 * disabled, counting user space only (and kernel mode too for an event
 * with kernel set). Returns how many opened (0 when none: then
 * g->first_errno says why). Never fails otherwise. */
size_t nb_perf_open(nb_perf_group *g, const nb_perf_event *events, size_t n);
/* The harness's set: cycles, instructions, branches, branch misses, page
 * faults, context switches. */
size_t nb_perf_open_default(nb_perf_group *g);
void   nb_perf_close(nb_perf_group *g);
void   nb_perf_begin(nb_perf_group *g);   /* reset + enable the group */
void   nb_perf_end(nb_perf_group *g);     /* disable + read (scaled) */
/* Measures the begin/end overhead and the loop overhead once; values read
 * after this have them subtracted. */
void   nb_perf_calibrate(nb_perf_group *g);
/* 1 when measure m is counted by g. */
int    nb_perf_has(const nb_perf_group *g, nb_measure m);
/* The last epoch's value for m (overhead corrected for iters iterations),
 * NAN when not counted. */
double nb_perf_value(const nb_perf_group *g, nb_measure m, uint64_t iters);
/* A counter's value scaled for multiplexing: value * enabled / running
 * (NAN when it never ran while enabled). */
double nb_perf_scale(uint64_t value, uint64_t enabled, uint64_t running);
/* Parses a PERF_FORMAT_GROUP|ID|TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING read
 * of words 64-bit words into g->values (scaled), matching by id; 0, or -1
 * when it does not match g's events. */
int    nb_perf_parse(nb_perf_group *g, const uint64_t *buf, size_t words);
/* 1 when g holds any hardware counter. */
int    nb_perf_hardware_available(const nb_perf_group *g);

/* ---- iteration logic (nb_logic.c) ---- */
enum { NB_ST_IDLE, NB_ST_WARMUP, NB_ST_CALIBRATE, NB_ST_MEASURE, NB_ST_FIXED,
       NB_ST_ENDLESS, NB_ST_DRIVEN, NB_ST_DONE,
       NB_ST_COMPARE, /* an nb_compare is running: nb_run and nb_compare refuse */
       NB_ST_VALGRIND /* counting under callgrind (nb_valgrind.c) */ };

/* Counting under callgrind (nb_valgrind.c): where a run stands in its
 * sequence of epochs, and the short epoch's totals. */
typedef struct {
    int phase;                 /* probe, then short/long epochs in turn */
    uint64_t n;                /* iterations of a short epoch (a long one: 2n) */
    double short_counts[NB_MEASURE_COUNT];
    unsigned short_has;
    uint64_t t0;
} nb_vg_state;

typedef struct {
    int state;
    uint64_t n;                /* iterations of the next epoch */
    uint64_t target;           /* ns an epoch must last to count */
    uint64_t resolution;       /* ns, the clock's granularity */
    uint64_t t0;
    double fastest;            /* least ns per iteration seen (0: none yet) */
    int provisional;           /* epochs[0] is the calibration epoch, kept until the
                                * next kept epoch confirms it (nb_logic.c) */
    int probing;               /* this run estimates cycles (nb_cycle_probe) */
    double ghz_before;         /* the clock probed before the epoch (0: none) */
    double ghz;                /* the epoch's clock: the mean of before and after */
    double ghz_last;           /* the last probe, and when it ended (ns) */
    uint64_t ghz_last_at;
    uint64_t rng;
    nb_result *result;         /* being filled */
    nb_vg_state vg;            /* state NB_ST_VALGRIND only */
} nb_logic;

struct nb_bench {
    nb_config cfg;
    nb_result **results;
    size_t result_count;
    size_t result_cap;
    size_t table_start;        /* the "relative" reference: index of the first result of
                                * the unbroken run with the last result's title and unit */
    int error;
    nb_logic logic;
    nb_perf_group perf;
    int perf_opened;           /* nb_perf_open_default was tried */
    nb_clock_fn clock;         /* NULL: CLOCK_MONOTONIC */
    void *clock_ctx;
    uint64_t resolution_ns;    /* 0: measured */
    void (*setup)(void *arg);  /* nb_setup's, for the next nb_run or nb_compare */
    void *setup_arg;
    nb_epoch_driver driver;    /* nb_drive: the next run's epochs (NULL: the logic above) */
    void *driver_ctx;
    double (*probe)(void *ctx); /* test hook: the clock probe (NULL: nb_freq_probe_ghz) */
    void *probe_ctx;
};

/* The core's clock right now in GHz, from a timed chain of dependent adds
 * (nb_freq.c); 0 where the architecture has no chain. */
double nb_freq_probe_ghz(void);

/* Test hook: replaces b's clock probe (fn returns GHz). With a test clock and
 * no test probe, nothing is probed. fn NULL restores the real probe. */
void nb_test_set_probe(nb_bench *b, double (*fn)(void *ctx), void *ctx);

/* Test hook: replaces the clock of b (fn returns nanoseconds) and its
 * resolution (0: the measured one). fn NULL restores the real clock. */
void nb_test_set_clock(nb_bench *b, nb_clock_fn fn, void *ctx, uint64_t resolution_ns);

/* The epoch target for b's settings and a clock resolution (ns). */
uint64_t nb_logic_target(const nb_config *cfg, uint64_t resolution_ns);
/* b's clock now (the test hook's, or CLOCK_MONOTONIC), ns. */
uint64_t nb_logic_now(const nb_bench *b);
/* Makes room for more results in b (0, or -1 when out of memory). */
int nb_bench_reserve(nb_bench *b, size_t more);
/* Appends r (room reserved) to b's results, minding the "relative"
 * column's reference. */
void nb_bench_append(nb_bench *b, nb_result *r);

/* ---- paired comparison (nb_compare.c) ---- */
/* Rounds per block of nb_compare's order for n alternatives (n even: n,
 * odd: 2n), and row `row` of it: order[j] is the alternative that runs j-th
 * in that round. */
size_t nb_compare_block(size_t n);
void   nb_compare_order(size_t n, size_t row, size_t *order);
/* The median of alternative i's round values and their MdAPE (the table's
 * time and err% columns); NaN for an i out of range. */
void   nb_comparison_summary(const nb_comparison *c, size_t i, double *median, double *err);

/* ---- counting under callgrind (nb_valgrind.c) ---- */
/* Called by nb_impl_start once r is allocated: when the process runs under
 * callgrind, takes the run over (state NB_ST_VALGRIND) and returns 1;
 * otherwise changes nothing and returns 0. */
int  nb_vg_start(nb_bench *b);
/* Around one epoch in state NB_ST_VALGRIND, in place of the timed logic. */
void nb_vg_epoch_begin(nb_bench *b);
void nb_vg_epoch_end(nb_bench *b);
/* Reads a callgrind dump: the "events:" names and the "totals:" (or
 * "summary:") line into counts (NB_INSTRUCTIONS from Ir; branches from
 * Bc + Bi, their misses from Bcm + Bim where --branch-sim gave them); sets
 * *has (bit m: counts[m] is valid) and, when trigger is not NULL, checks
 * that the dump's trigger was that client request. 0, or -1 when the file
 * is unreadable, not callgrind's, or another dump's. */
int  nb_vg_read_dump(const char *path, const char *trigger, double counts[NB_MEASURE_COUNT],
                     unsigned *has);

/* ---- config and results (nb_bench.c, nb_result.c) ---- */
int  nb_config_copy(nb_config *dst, const nb_config *src);  /* 0 or -1 */
void nb_config_free(nb_config *cfg);
nb_result *nb_result_new(const nb_config *cfg, double resolution);
void nb_result_free(nb_result *r);
/* nb_result_context with a key of len bytes, not NUL-terminated (a template's
 * {{context(key)}} argument, read in place). */
const char *nb_result_context_len(const nb_result *r, const char *key, size_t len);
/* Median and err over plain arrays (sorted in place): for the statistics
 * and their tests. */
double nb_stats_median(double *v, size_t n);
double nb_stats_mdape(const double *v, size_t n, double median, double *scratch);

/* ---- markdown (nb_markdown.c) ---- */
/* nb_markdown_cell whose text is parts[0..n) written one after another (a
 * header "ns/<unit>" of the user's unit, any length, with no copy). */
int nb_md_cell_parts(FILE *out, const nb_column *col, const char *const *parts, size_t n);

/* ---- output (nb_table.c) ---- */
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
/* Prints nb_compare's table of c (nb_compare.c) to out; 0 or -1 on a
 * write error. The next nb_table_row on out prints a header. */
int nb_table_comparison(FILE *out, const nb_comparison *c);
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

#endif
