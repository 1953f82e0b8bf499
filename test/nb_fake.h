/* Shared by the harness's test programs: a fake clock that advances only when
 * the op runs, benches on it, and results built by hand for the table tests
 * (through the test hooks, nb_test_hooks.h). */
#ifndef TEST_NB_FAKE_H
#define TEST_NB_FAKE_H

#include "bench/nb_test_hooks.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    uint64_t t;           /* ns */
    uint64_t calls;
    uint64_t first_cost;  /* the first call (a lazy init) */
    uint64_t cost;        /* every later call */
    uint64_t fast_after;  /* from this call on, cost is fast_cost (0: never) */
    uint64_t fast_cost;
} fake;

/* The fake's clock (ctx is a fake *), and one op call: the clock advances by
 * the call's cost. */
uint64_t fake_now(void *ctx);
void fake_op(void *arg);

/* A bench on f's clock (resolution 20 ns), output NULL, counters off; NULL
 * when out of memory. */
nb_bench *fake_bench(fake *f);
/* fake_bench whose rows go to a memory stream (*out; *text once it is
 * closed), the stability warnings suppressed; NULL after a failed CHECK, with
 * nothing left open. */
nb_bench *fake_bench_to_memory(fake *f, FILE **out, char **text, size_t *len);

/* A result with b's settings (epochs set to n) and n epochs: epoch i ran
 * iters[i] iterations of per_iter[i] seconds each, no counters. Free with
 * nb_test_result_free. */
nb_result *make_result(nb_bench *b, const double *per_iter, const uint64_t *iters, size_t n);
/* 11 epochs of one iteration each around a median per iteration, with
 * deviations chosen so that the MdAPE is about dev. */
nb_result *eleven(nb_bench *b, double median, double dev);
/* Gives every epoch of r the counter m at per_iter per iteration. */
void set_counter(nb_result *r, nb_measure m, double per_iter);
/* The table rows of rs[0..n) (rs[0] the relative reference) as a string the
 * caller frees; NULL when out of memory. */
char *render_rows(nb_result **rs, size_t n, unsigned mask, int suppress);

/* Checks shared by the programs that run them in "C" and under a decimal-comma
 * locale: nb_format_number's cases, and a golden row of nanobench's table. */
void check_format_cases(void);
void check_golden_seed(void);

#endif
