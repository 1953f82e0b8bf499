/* What the measuring modes share (run.c): the bench's settings per row, the start of a
 * measured run (the notes on stderr, the CPU pin) and its end (the table flushed, the output
 * files written). */
#ifndef BENCH_BITCOIN_RUN_H
#define BENCH_BITCOIN_RUN_H

#include "bench/nanobench.h"
#include "bench_bitcoin/modes.h"

/* Puts every setting of b back to the harness's defaults (read from d, a fresh bench), names
 * the next result name and applies the program's options (-min-time, -sanity-check). */
void bench_configure(nb_bench *b, const nb_bench *d, const bench_options *o, const char *name);

/* The harness's error on b after measuring name (nb_get_error_message), as one error line;
 * returns -1. */
int bench_harness_error(const nb_bench *b, const char *name);

/* Measures into b (fresh, with defaults a fresh bench to read the harness's defaults from);
 * 0, or -1 after one error line. */
typedef int (*bench_measure_fn)(nb_bench *b, const nb_bench *defaults, const bench_job *j);

/* A measured run: a new bench into *out (the caller frees it, also on an error), the notes
 * (the SHA-256 implementation, what callgrind runs), the CPU pin unless -no-pin, fn, then the
 * table flushed and the output files written. Returns the exit status. */
int bench_measure(const bench_job *j, bench_measure_fn fn, nb_bench **out);

/* bench_measure over the selected rows, one after the other (the plain run). */
int bench_run_measure(const bench_job *j, nb_bench **out);

#endif
