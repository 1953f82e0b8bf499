/* Harness internals shared by the harness sources (src/bench): the structs'
 * layouts and the functions one source calls in another. Not installed, not
 * part of the API: layouts may change at any time. Tests use nb_test_hooks.h
 * (which this includes) instead; only the counter group's own tests see the
 * layouts here. */
#ifndef NB_INTERNAL_H
#define NB_INTERNAL_H

#include "bench/nanobench.h"
#include "bench/nb_test_hooks.h"

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
    unsigned hidden;           /* bit c: table column c hidden (nb_show_column) */
    int show_context;          /* context pairs as table columns (nb_show_context) */
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
    int counted;               /* counters from callgrind's simulation (nb_vg_count.c) */
    uint64_t discarded;        /* epochs run and not kept (calibration, short) */
    nb_result_comparison cmp;  /* from nb_compare; cmp.baseline NULL otherwise */
};


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
/* Beyond this an iteration count is not believable: the op was removed. */
#define NB_MAX_ITERS 9.2e18
enum { NB_ST_IDLE, NB_ST_WARMUP, NB_ST_CALIBRATE, NB_ST_MEASURE, NB_ST_FIXED,
       NB_ST_ENDLESS, NB_ST_DRIVEN, NB_ST_DONE,
       NB_ST_COMPARE, /* an nb_compare is running: nb_run and nb_compare refuse */
       NB_ST_CMP_CALIBRATE, /* ... and calibrating an alternative */
       NB_ST_CMP_MEASURE,   /* ... and measuring an epoch into a result */
       NB_ST_VALGRIND /* counting under callgrind (nb_vg_count.c) */ };

/* Counting under callgrind (nb_vg_count.c): where a run stands in its
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
    int each;                  /* nb_setup_each: every iteration timed alone */
    double each_overhead;      /* ns a timed iteration adds around the op (the clock) */
    uint64_t started;          /* when the run began (ns), for the progress line */
    uint64_t progress_at;      /* when the progress line was last written (0: never) */
} nb_logic;

struct nb_bench {
    nb_config cfg;
    nb_result **results;
    size_t result_count;
    size_t result_cap;
    size_t table_start;        /* the "relative" reference: index of the first result of
                                * the unbroken run with the last result's title and unit */
    int error;
    char error_message[200];   /* the first error's, "" when none */
    int batch_rejected;        /* a rejected nb_batch: the next run is refused */
    int setup_noted;           /* the per-epoch setup's notice was given */
    int setup_each;            /* setup runs before every iteration (nb_setup_each) */
    FILE *progress;            /* test hook: progress goes here as to a terminal */
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

/* The epoch target for b's settings and a clock resolution (ns). */
uint64_t nb_logic_target(const nb_config *cfg, uint64_t resolution_ns);
/* b's clock now (the test hook's, or CLOCK_MONOTONIC), ns. */
uint64_t nb_logic_now(const nb_bench *b);
/* nb_compare's use of the logic, so that calibration and the epoch's
 * capture (clock, counters, the stored epoch) are the run's own: between
 * nb_logic_compare_begin and _end b is busy (NB_ST_COMPARE: nb_run and
 * nb_compare refuse) and each epoch is nb_setup's function, then
 * nb_impl_epoch_begin, the alternative's iterations, nb_impl_epoch_end.
 * nb_logic_calibrate_begin starts a calibration and returns the first
 * epoch's iterations; while the state stays NB_ST_CMP_CALIBRATE, run epochs
 * of b->logic.n; nb_logic_calibrated then gives the fastest ns per iteration
 * seen (from epochs of a tenth of the target at least). After
 * nb_logic_measure_into(b, r, iters), the next epoch (of iters iterations)
 * is stored in r. Epochs run outside these (warm-up) are not used. */
void     nb_logic_compare_begin(nb_bench *b, uint64_t resolution_ns);
uint64_t nb_logic_calibrate_begin(nb_bench *b);
double   nb_logic_calibrated(nb_bench *b);
void     nb_logic_measure_into(nb_bench *b, nb_result *r, uint64_t iters);
void     nb_logic_compare_end(nb_bench *b);
/* The progress line of a long run (stderr when a terminal, the test hook's
 * stream, never when warnings are suppressed): once the run has gone on 2 s,
 * about once a second, "<name>: running for N s, <what> <done> of <total>"
 * (no count when total is 0), rewritten in place; _end erases it. */
void     nb_logic_progress(nb_bench *b, const char *what, size_t done, size_t total);
void     nb_logic_progress_end(nb_bench *b);
/* The once-per-bench notice that a per-epoch setup met epochs of more than
 * one iteration (to b's output, unless warnings are suppressed). */
void     nb_logic_setup_notice(nb_bench *b);
/* ns that timing one iteration alone adds (two clock reads around a call
 * through a pointer), measured on b's clock. */
double   nb_logic_each_overhead(nb_bench *b);
/* Makes room for more results in b (0, or -1 when out of memory). */
int nb_bench_reserve(nb_bench *b, size_t more);
/* Appends r (room reserved) to b's results, minding the "relative"
 * column's reference. */
void nb_bench_append(nb_bench *b, nb_result *r);

/* ---- paired comparison (nb_comparison.c, nb_compare_table.c, nb_compare.c) ---- */
struct nb_comparison {
    size_t n;
    size_t rounds;
    uint64_t iters;
    nb_ratio *ratio;            /* n; [0] is 1 exactly */
    double *value;              /* n * rounds: i's fastest epoch in round r at [i * rounds + r] */
    double *median, *err;       /* n each: median and MdAPE of i's round values */
    size_t fastest;
    const nb_result **results;  /* n, owned by the bench */
};

/* A comparison of n alternatives over rounds rounds, its arrays allocated
 * (NULL when memory runs out). */
nb_comparison *nb_comparison_new(size_t n, size_t rounds);
/* Fills c from the results' epochs (alternative i's epochs of round r are
 * r * NB_COMPARE_EPOCHS_PER_ROUND onwards): round values (each the fastest
 * of the round's epochs), their medians and errs, ratios, significance and
 * the fastest; scratch holds c->rounds values. */
void nb_comparison_reduce(nb_comparison *c, nb_result **res, double *scratch);
/* Prints nb_compare's table of c to out (nb_compare_table.c); 0 or -1 on a
 * write error. The next nb_table_row on out prints a header. */
int nb_table_comparison(FILE *out, const nb_comparison *c);

/* ---- counting under callgrind (nb_vg_count.c, nb_vg_dump.c, nb_vg_run.c) ---- */
/* Called by nb_impl_start once r is allocated: when the process runs under
 * callgrind, takes the run over (state NB_ST_VALGRIND) and returns 1;
 * otherwise changes nothing and returns 0. */
int  nb_vg_start(nb_bench *b);
/* Around one epoch in state NB_ST_VALGRIND, in place of the timed logic. */
void nb_vg_epoch_begin(nb_bench *b);
void nb_vg_epoch_end(nb_bench *b);
/* The trigger text the harness gives dump k of the run name: "nanobench <k>
 * <name>", the name with anything but printable ASCII as '?'. */
void nb_vg_trigger_text(char *buf, size_t cap, unsigned long k, const char *name);
/* Reads a dump file's trigger: its k and name (into name, cap bytes) when the
 * harness asked for it; 0, or -1 when it is another dump (the one at the
 * program's end) or unreadable. */
int  nb_vg_dump_trigger(const char *path, unsigned long *k, char *name, size_t cap);
/* Longest dump file name the harness builds. */
#define NB_VG_PATH_MAX 4096

/* ---- errors (nb_bench.c) ---- */
/* Records an error on b: nb_get_error says -1 and, when it is the first
 * since the bench was made or nb_clear_error, the message is fmt's. */
void nb_fail(nb_bench *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- config (nb_config.c) and results (nb_result.c) ---- */
/* nanobench's defaults: what nb_bench_new starts from (with the output on
 * stdout) and what the getters report for a NULL bench (output NULL). */
extern const nb_config nb_config_defaults;
char *nb_str_dup(const char *s);                             /* NULL when out of memory */
int  nb_config_copy(nb_config *dst, const nb_config *src);  /* 0 or -1 */
void nb_config_free(nb_config *cfg);
nb_result *nb_result_new(const nb_config *cfg, double resolution);
void nb_result_free(nb_result *r);
/* nb_result_context with a key of len bytes, not NUL-terminated (a template's
 * {{context(key)}} argument, read in place). */
const char *nb_result_context_len(const nb_result *r, const char *key, size_t len);

/* ---- markdown (nb_markdown.c) ---- */
/* nb_markdown_cell whose text is parts[0..n) written one after another (a
 * header "ns/<unit>" of the user's unit, any length, with no copy). */
int nb_md_cell_parts(FILE *out, const nb_column *col, const char *const *parts, size_t n);

/* ---- templates (nb_templates.c; nb_report_html.c is generated) ---- */
/* The HTML report template: src/bench/templates/report.html's text. */
extern const char nb_report_html[];

#endif
