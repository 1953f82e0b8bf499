/* -against's -output-json document: the shape of nanobench's JSON (a "results" list, each
 * result with its "name", "unit", "batch" and "measurements", here this build's rounds: one
 * epoch of "iterations" at "elapsed" seconds per iteration each), so that results.h reads it
 * (as a -baseline too), and per result the comparison:
 *   "comparedTo"   the other build, as given
 *   "ratio", "ratioLow", "ratioHigh"   this build's time over the other's and its interval
 *                  (simultaneous for the table, at every look; null where none)
 *   "significant"  the interval excludes 1
 *   "verdict"      "faster", "slower", "within" or "="
 *   "equivalence"  -equivalence, in percent ("within" means inside +-this)
 *   "regression"   -max-regression flags the row
 *   "rounds"       paired rounds measured (its looks stopped there)
 *   "seconds"      the row's comparison took, wall clock, set-up included */
#ifndef BENCH_BITCOIN_AGAINST_JSON_H
#define BENCH_BITCOIN_AGAINST_JSON_H

#include "bench_bitcoin/verdict.h"

#include <stddef.h>
#include <stdint.h>

typedef struct against_json against_json;

/* A document of no results yet, comparing with other; NULL when out of memory. */
against_json *bench_against_json_new(const char *other);

/* Adds w's result: its rounds' this-build figures self_ns[0 .. w->rounds) (ns per unit) from
 * epochs of iterations iterations of batch units each. 0, or -1 (j or w NULL, out of
 * memory). */
int bench_against_json_add(against_json *j, const verdict_row *w, double batch,
                           uint64_t iterations, const double *self_ns);

/* The document as text (free with bench_against_json_text_free), or NULL. */
char *bench_against_json_text(const against_json *j);
void bench_against_json_text_free(char *text);

/* Frees j (NULL: nothing). */
void bench_against_json_free(against_json *j);

#endif
