/* bench_bitcoin -baseline=FILE: this run's results compared with those an earlier run wrote
 * with -output-json (nanobench's JSON template: every result with its name, unit, batch and
 * every epoch's time per iteration).
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

#include <stddef.h>

/* One result of the file. */
typedef struct {
    char *name;
    char *unit;
    double batch;              /* > 0 */
    double *elapsed;           /* count epochs' seconds per iteration, each > 0 */
    double *cycles;            /* their estimated cycles per iteration, each > 0; NULL when
                                * an epoch has none ("estcycles" absent, null or not > 0) */
    size_t count;
} baseline_row;

typedef struct {
    baseline_row *rows;
    size_t count;
} baseline;

/* Parses an -output-json document: the len bytes at text (no NUL needed). 0 and *out filled
 * (free it with baseline_free), or -1 with *out empty and a one-line reason in err (errcap
 * bytes): not JSON (jansson's message, with line and column), or JSON of another shape (no
 * "results" list, a result without a name, unit, positive batch or "measurements" list, an
 * epoch without a positive finite "elapsed", a name twice). Never prints. */
int baseline_parse(const char *text, size_t len, baseline *out, char *err, size_t errcap);

/* Frees what baseline_parse filled; b may be empty. */
void baseline_free(baseline *b);

/* Reads and parses path; 0, or -1 after one error line naming the file. */
int baseline_load(const char *path, baseline *out);

/* Compares each of run's results with the file's result of the same name (those on one side
 * only, or in other units, are named on stderr and left out) and prints the table (verdict.h)
 * on stdout. Returns 0, 1 when -max-regression's gate fails (max_regression >= 0), or -1 after
 * one error line (nothing to compare, no memory). */
int baseline_compare(const baseline *base, const char *path, const nb_bench *run,
                     double max_regression);

#endif
