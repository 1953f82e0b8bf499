/* -against's sequential design (doc/against.md, "When a row stops"): each row is measured in
 * looks at a fixed, geometric schedule of round counts; at each look its interval is
 * computed at the confidence that the union bound gives over every look of every row, so the
 * intervals hold together at every look whatever the stopping point; a row stops at the first
 * look whose interval decides it (it excludes 1, or lies inside +-equivalence), or at the
 * last look its share of the suite's budget affords (known before its first round). Pure
 * functions, for tests and the simulator (tools/seq_sim.c). */
#ifndef BENCH_BITCOIN_SEQUENTIAL_H
#define BENCH_BITCOIN_SEQUENTIAL_H

#include "bench/nanobench.h"

#include <stddef.h>

/* The first look's rounds (two per pair of processes, one with either build first), and the
 * factor between looks. */
#define BENCH_SEQ_FIRST_ROUNDS 16
#define BENCH_SEQ_GROWTH 2
/* The most looks a row can have (16 to 1024 rounds at growth 2). */
#define BENCH_SEQ_MAX_LOOKS 7
/* The share of a row's error rate its last look spends (the looks before it share the rest):
 * most of it, so that a row that runs to its last look is judged nearly as a fixed-length
 * comparison of that many rounds would be, while the early looks still decide a difference
 * of a few percent (tools/seq_sim on recorded rounds; doc/measurements.md has the trade). */
#define BENCH_SEQ_LAST_SHARE 0.7

/* What a look says of a row. */
typedef enum {
    BENCH_SEQ_UNDECIDED,     /* the interval holds 1 and reaches outside +-equivalence: '=' */
    BENCH_SEQ_FASTER,        /* this build faster: the interval (other/this) lies above 1 */
    BENCH_SEQ_SLOWER,        /* this build slower: it lies below 1 */
    BENCH_SEQ_WITHIN         /* it lies inside [1/(1+E), 1+E], E = equivalence / 100 */
} bench_seq_verdict;

/* The looks' round counts for a row that can afford at most max_rounds rounds: the first
 * BENCH_SEQ_FIRST_ROUNDS, each next growth times the last (-against's is BENCH_SEQ_GROWTH;
 * tools/seq_sim compares others), none above max_rounds (but always the first), and the
 * last at max_rounds rounded down to a multiple of BENCH_SEQ_FIRST_ROUNDS: in place of the
 * last look before it when that is less than (1 + growth) / 2 times it (1.5 at growth 2),
 * else after it; at most BENCH_SEQ_MAX_LOOKS. Writes them to rounds[0 .. n) (room for
 * BENCH_SEQ_MAX_LOOKS) and returns n >= 1; 0 when rounds is NULL or growth < 2. */
size_t bench_seq_schedule(size_t max_rounds, size_t growth, size_t *rounds);

/* The confidence of look k's interval (0 <= k < looks) so that the intervals of all looks of
 * all rows hold together at confidence (the union bound): each row has (1 - confidence) /
 * rows of error to spend; its last look gets the share last_share of it (0 < last_share < 1;
 * 1 / looks spends evenly), the looks before it equal parts of the rest. A row alone in its
 * look spends it all. NaN when rows or looks is 0, k >= looks, or confidence or last_share
 * is not in (0, 1). */
double bench_seq_look_confidence(double confidence, size_t rows, size_t looks, size_t k,
                                 double last_share);

/* The verdict of interval r (other's time over this build's, nb_ratio's orientation) at
 * -equivalence=equivalence_pct (> 0). UNDECIDED when r is NULL or not finite. */
bench_seq_verdict bench_seq_decide(const nb_ratio *r, double equivalence_pct);

/* 1 when -max-regression=max_regression (percent; negative: no gate) has its answer in
 * interval r (nb_ratio's orientation, as bench_seq_decide): this build's time over the
 * other's lies wholly above 1 + max_regression / 100 (a regression) or reaches no higher
 * than that (none); always without a gate. A decided row whose gate is undecided measures
 * on: stopping at the first interval that excludes 1 would leave its low end just above 1,
 * under any gate. 0 when r is NULL or not finite. */
int bench_seq_gate_decided(const nb_ratio *r, double max_regression);

/* The measuring time a row may spend (ns): an equal part of what the suite has left among the
 * rows_left rows still to measure (this one included), at most cap_ns, at least per_row_ns.
 * A row decided early so leaves its time to all the rows after it. */
double bench_seq_allowance(double suite_left_ns, size_t rows_left, double per_row_ns,
                           double cap_ns);

#endif
