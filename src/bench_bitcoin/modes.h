/* bench_bitcoin's modes: what main (bench_bitcoin.c) dispatches to once the command line is
 * parsed and every check that can be made before a run is made (the selection, -compare's
 * rows, -baseline's file, the output files). One function per mode, one file each; each
 * returns the program's exit status (diag.h). */
#ifndef BENCH_BITCOIN_MODES_H
#define BENCH_BITCOIN_MODES_H

#include "bench_bitcoin/bench.h"
#include "bench_bitcoin/options.h"
#include "bench_bitcoin/results.h"

#include <stddef.h>

/* One row of -compare's tables (compare.c). */
typedef struct bench_compare_row bench_compare_row;

/* What every mode gets. */
typedef struct {
    int argc;
    char **argv;
    const bench_options *o;
    const bench_row **sel;       /* the selected rows, in byte-wise name order */
    size_t count;                /* at least 1 */
    bench_compare_row *rows;     /* -compare's rows; NULL without -compare */
    size_t nrows;
    bench_results base;          /* -baseline's file; empty without -baseline */
} bench_job;

int bench_mode_list(const bench_job *j);          /* -list (list.c) */
int bench_mode_run(const bench_job *j);           /* the plain run, -sanity-check (run.c) */
int bench_mode_compare(const bench_job *j);       /* -compare (compare.c) */
int bench_mode_against(const bench_job *j);       /* -against (against.c) */
int bench_mode_baseline(const bench_job *j);      /* -baseline (baseline.c) */
int bench_mode_instructions(const bench_job *j);  /* -instructions (instructions.c) */

/* -compare's rows for the selected ones into j->rows (compare.c): 0, or -1 after one error
 * line (none of them has variants or an OpenSSL counterpart). */
int bench_compare_prepare(bench_job *j);

/* -list -compare: the notes and every -compare row's name (compare.c). */
int bench_compare_list(const bench_job *j);

/* What every variant set runs now, "SHA1 'shani', SHA256 '...', ...", into buf (run.c). */
const char *bench_variants_in_use(char *buf, size_t cap);

/* Keeps the process on one CPU while it measures (run.c): the highest-numbered one it may
 * use. Best effort. */
void bench_pin_to_one_cpu(void);

#endif
