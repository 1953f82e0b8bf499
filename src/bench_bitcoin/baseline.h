/* bench_bitcoin -baseline=FILE: this run's results compared with those an earlier run wrote
 * with -output-json (results.h reads the file).
 *
 * The comparison is unpaired: the file's epochs were measured at another time, so a change of
 * the machine's speed between the two runs is indistinguishable from a change of the code.
 * Where both sides have estimated cycles (the ~cyc column: every epoch's "estcycles" in the
 * file, NB_EST_CYCLES here) for every compared benchmark, those are compared instead of the
 * times, so that a change of the core's clock between the runs does not count; other changes
 * of the machine still do. nb_stats_unpaired gives the ratio and its interval; -against,
 * which interleaves both builds, is the test to trust. */
#ifndef BENCH_BITCOIN_BASELINE_H
#define BENCH_BITCOIN_BASELINE_H

#include "bench/nanobench.h"
#include "bench_bitcoin/modes.h"
#include "bench_bitcoin/results.h"

#include <stddef.h>

/* Reads path into *out and checks it before anything runs: it holds times (not instruction
 * counts, which -instructions writes), and a result of the same name and unit for one of the
 * rows sel[0 .. count) at least. 0, or -1 after one error line (*out then empty). */
int bench_baseline_load(const char *path, const bench_row *const *sel, size_t count,
                        bench_results *out);

/* Compares each of run's results with the file's result of the same name (those on one side
 * only, or in other units, are named on stderr and left out) and prints the table (verdict.h)
 * on stdout. Returns 0, 1 when -max-regression's gate fails (max_regression >= 0), or -1 after
 * one error line (nothing to compare, no memory). */
int bench_baseline_compare(const bench_results *base, const char *path, const nb_bench *run,
                           double max_regression);

#endif
