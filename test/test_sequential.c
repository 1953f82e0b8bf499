/* -against's sequential design (sequential.h): the looks' schedule, their confidence, the
 * verdicts at their boundaries, the budget's shares. */
#include "bench_bitcoin/sequential.h"
#include "check.h"

#include <math.h>
#include <stddef.h>

static void test_schedule(void)
{
    size_t r[BENCH_SEQ_MAX_LOOKS], n;
    n = bench_seq_schedule(1024, BENCH_SEQ_GROWTH, r);
    CHECKF(n == 7 && r[0] == 16 && r[1] == 32 && r[6] == 1024, "1024: %zu looks", n);
    /* the last look at what is affordable, in whole firsts: a look of its own ... */
    n = bench_seq_schedule(1023, BENCH_SEQ_GROWTH, r);
    CHECKF(n == 7 && r[5] == 512 && r[6] == 1008, "1023: %zu looks, last %zu", n, r[n - 1]);
    /* ... or in place of the last doubling when less than half a look more */
    n = bench_seq_schedule(161, BENCH_SEQ_GROWTH, r);
    CHECKF(n == 4 && r[2] == 64 && r[3] == 160, "161: %zu looks, last %zu", n, r[n - 1]);
    n = bench_seq_schedule(200, BENCH_SEQ_GROWTH, r);
    CHECKF(n == 5 && r[3] == 128 && r[4] == 192, "200: %zu looks, last %zu", n, r[n - 1]);
    n = bench_seq_schedule(47, BENCH_SEQ_GROWTH, r);
    CHECKF(n == 2 && r[0] == 16 && r[1] == 32, "47: %zu looks, last %zu", n, r[n - 1]);
    n = bench_seq_schedule(20, BENCH_SEQ_GROWTH, r);
    CHECKF(n == 1 && r[0] == 16, "20: %zu looks, last %zu", n, r[n - 1]);
    n = bench_seq_schedule(100000, BENCH_SEQ_GROWTH, r);
    CHECKF(n == BENCH_SEQ_MAX_LOOKS && r[n - 1] == 1024, "no cap: %zu looks", n);
    /* a row that affords less than the first look still has it */
    n = bench_seq_schedule(3, BENCH_SEQ_GROWTH, r);
    CHECK(n == 1 && r[0] == BENCH_SEQ_FIRST_ROUNDS);
    CHECK(bench_seq_schedule(64, BENCH_SEQ_GROWTH, NULL) == 0);
    /* another growth (tools/seq_sim's comparisons): the same rule, at (1 + 4) / 2 */
    n = bench_seq_schedule(1024, 4, r);
    CHECKF(n == 4 && r[1] == 64 && r[3] == 1024, "x4 1024: %zu looks", n);
    n = bench_seq_schedule(600, 4, r);
    CHECKF(n == 3 && r[1] == 64 && r[2] == 592, "x4 600: %zu looks, last %zu", n, r[n - 1]);
    n = bench_seq_schedule(100, 4, r);
    CHECKF(n == 2 && r[0] == 16 && r[1] == 96, "x4 100: %zu looks, last %zu", n, r[n - 1]);
    CHECK(bench_seq_schedule(64, 1, r) == 0);
    n = bench_seq_schedule(100, (size_t)-1, r);   /* no overflow to a small next look */
    CHECKF(n == 1 && r[0] == 96, "huge growth: %zu looks, last %zu", n, r[n - 1]);
}

static void test_confidence(void)
{
    double sum = 0;
    size_t k;
    /* alone: the whole error rate */
    CHECK(fabs(bench_seq_look_confidence(0.95, 1, 1, 0, 0.5) - 0.95) < 1e-15);
    /* 4 rows, 5 looks, half at the last: 0.05 / 4 / 2 there, 0.05 / 4 / 2 / 4 before */
    CHECK(fabs(bench_seq_look_confidence(0.95, 4, 5, 4, 0.5) - (1 - 0.00625)) < 1e-15);
    CHECK(fabs(bench_seq_look_confidence(0.95, 4, 5, 0, 0.5) - (1 - 0.0015625)) < 1e-15);
    /* an even split at 1 / looks */
    CHECK(fabs(bench_seq_look_confidence(0.9, 2, 7, 3, 1.0 / 7) - (1 - 0.1 / 14)) < 1e-15);
    CHECK(fabs(bench_seq_look_confidence(0.9, 2, 7, 6, 1.0 / 7) - (1 - 0.1 / 14)) < 1e-15);
    /* the union bound: the looks' error rates add up to the row's */
    for (k = 0; k < 6; k++)
        sum += 1 - bench_seq_look_confidence(0.95, 3, 6, k, 0.7);
    CHECKF(fabs(sum - 0.05 / 3) < 1e-15, "looks spend %.17g", sum);
    CHECK(isnan(bench_seq_look_confidence(0.95, 0, 3, 0, 0.5)));
    CHECK(isnan(bench_seq_look_confidence(0.95, 3, 0, 0, 0.5)));
    CHECK(isnan(bench_seq_look_confidence(0.95, 3, 3, 3, 0.5)));
    CHECK(isnan(bench_seq_look_confidence(0.95, 3, 3, 0, 1)));
    CHECK(isnan(bench_seq_look_confidence(0.95, 3, 3, 0, 0)));
    CHECK(isnan(bench_seq_look_confidence(1, 3, 3, 0, 0.5)));
    CHECK(isnan(bench_seq_look_confidence(0, 1, 1, 0, 0.5)));
}

static bench_seq_verdict at(double low, double high, double pct)
{
    nb_ratio r;
    r.estimate = sqrt(low * high);
    r.low = low;
    r.high = high;
    r.significant = low > 1 || high < 1;
    return bench_seq_decide(&r, pct);
}

static void test_decide(void)
{
    /* other/this above 1: this build faster; below: slower; a bound at 1 decides nothing */
    CHECK(at(1.001, 1.02, 1) == BENCH_SEQ_FASTER);
    CHECK(at(0.98, 0.999, 1) == BENCH_SEQ_SLOWER);
    CHECK(at(1.0, 1.005, 1) == BENCH_SEQ_WITHIN);
    CHECK(at(0.995, 1.005, 1) == BENCH_SEQ_WITHIN);
    /* the bounds: [1/1.01, 1.01] inside, a hair beyond either end not */
    CHECK(at(1 / 1.01, 1.01, 1) == BENCH_SEQ_WITHIN);
    CHECK(at(1 / 1.01 - 1e-9, 1.005, 1) == BENCH_SEQ_UNDECIDED);
    CHECK(at(0.995, 1.01 + 1e-9, 1) == BENCH_SEQ_UNDECIDED);
    /* symmetric in the ratio's orientation: 0.991 is inside 1/1.01 = 0.990099 */
    CHECK(at(0.991, 1.009, 1) == BENCH_SEQ_WITHIN);
    /* a wider bound */
    CHECK(at(0.97, 1.02, 1) == BENCH_SEQ_UNDECIDED && at(0.97, 1.02, 3.2) == BENCH_SEQ_WITHIN);
    /* a significant difference inside the bound is still a difference */
    CHECK(at(1.002, 1.004, 1) == BENCH_SEQ_FASTER);
    /* nothing to say */
    CHECK(at(NAN, NAN, 1) == BENCH_SEQ_UNDECIDED && at(0.99, INFINITY, 1) == BENCH_SEQ_UNDECIDED);
    CHECK(bench_seq_decide(NULL, 1) == BENCH_SEQ_UNDECIDED);
    CHECK(at(0.999, 1.001, 0) == BENCH_SEQ_UNDECIDED);
}

static nb_ratio other_over_this(double lo_this, double hi_this)
{
    nb_ratio r;
    r.low = 1 / hi_this;
    r.high = 1 / lo_this;
    r.estimate = sqrt(r.low * r.high);
    r.significant = r.low > 1 || r.high < 1;
    return r;
}

static void test_gate(void)
{
    nb_ratio r = other_over_this(1.004, 1.09);   /* this build slower, by 0.4% to 9% */
    /* no gate: decided; a 2% gate: the interval straddles 1.02, measure on */
    CHECK(bench_seq_gate_decided(&r, -1) == 1);
    CHECK(bench_seq_gate_decided(&r, 2) == 0);
    /* wholly above the gate: a regression; wholly below it: none */
    r = other_over_this(1.021, 1.09);
    CHECK(bench_seq_gate_decided(&r, 2) == 1);
    r = other_over_this(1.004, 1.0199);
    CHECK(bench_seq_gate_decided(&r, 2) == 1);
    r = other_over_this(0.95, 0.99);             /* faster */
    CHECK(bench_seq_gate_decided(&r, 0) == 1);
    r = other_over_this(0.995, 1.008);           /* within 1%, a 0.5% gate: undecided */
    CHECK(bench_seq_gate_decided(&r, 0.5) == 0 && bench_seq_gate_decided(&r, 1) == 1);
    r.low = NAN;
    CHECK(bench_seq_gate_decided(&r, 2) == 0 && bench_seq_gate_decided(&r, -1) == 1);
    CHECK(bench_seq_gate_decided(NULL, 2) == 0);
}

static void test_budget(void)
{
    /* alone: the suite's whole time, at most the cap */
    CHECK(bench_seq_allowance(800, 1, 50, 800) == 800);
    CHECK(bench_seq_allowance(5000, 1, 50, 800) == 800);
    /* ten rows left with 1500 left: a tenth */
    CHECK(fabs(bench_seq_allowance(1500, 10, 50, 800) - 150) < 1e-12);
    CHECK(fabs(bench_seq_allowance(1e5, 10, 50, 800) - 800) < 1e-12);
    /* the rows before spent more than theirs: still a row's share */
    CHECK(bench_seq_allowance(400, 10, 50, 800) == 50);
    CHECK(bench_seq_allowance(-100, 1, 50, 800) == 50);
    CHECK(bench_seq_allowance(100, 0, 50, 800) == 100);
    /* 16 rounds cost 10: 32 cost 20 */
}

int main(void)
{
    test_schedule();
    test_confidence();
    test_decide();
    test_gate();
    test_budget();
    return check_finish();
}
