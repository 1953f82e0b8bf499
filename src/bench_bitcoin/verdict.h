/* The table -against and -baseline print: per benchmark both sides' times, the ratio with its
 * interval, and a verdict; then a summary line and the -max-regression gate. */
#ifndef BENCH_BITCOIN_VERDICT_H
#define BENCH_BITCOIN_VERDICT_H

#include "bench/nanobench.h"

#include <stddef.h>

/* One compared benchmark. */
typedef struct {
    const char *name;
    const char *unit;
    const char *quantity;      /* what the figures count: "ns", or "~cyc" (estimated cycles) */
    double self_ns;            /* this build's typical figure per unit (time: ns) */
    double other_ns;           /* the other side's */
    nb_ratio r;                /* the other side's figure over this build's (nb_stats_*) */
    int within;                /* the interval lies inside +-equivalence (-against) */
    double equivalence;        /* -equivalence, percent, for the verdict's text */
    size_t rounds;             /* paired rounds measured (-against; 0 for -baseline) */
    double seconds;            /* the row's comparison took (-against) */
    int regression;            /* set by bench_verdict_judge */
} verdict_row;

/* Sets w->regression: -max-regression's rule. A row regresses when its interval excludes 1 and
 * even the interval's bound nearest 1 says this build is slower by more than max_regression
 * percent: this build's time over the other's, at the interval's low end, exceeds
 * 1 + max_regression / 100. Never with a negative max_regression (no gate). */
void bench_verdict_judge(verdict_row *w, double max_regression);

/* Prints the table header on stdout; other names the other side's column ("other", "file"),
 * quantity what the rows count ("ns", "~cyc"). */
void bench_verdict_header(const char *other, const char *quantity);

/* Prints w's row on stdout. */
void bench_verdict_print(const verdict_row *w);

/* Prints the summary line on stdout ("N benchmarks compared with WHAT, HOW: ...") and, when
 * rows regressed, the gate's line on stderr. Returns 1 when some row regressed, else 0. */
int bench_verdict_finish(const verdict_row *rows, size_t n, const char *what, const char *how,
                   double max_regression);

#endif
