/* sequential.h: the looks, their confidence, the verdict, the budget. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/sequential.h"

#include <math.h>
#include <stdint.h>

size_t bench_seq_schedule(size_t max_rounds, size_t growth, size_t *rounds)
{
    size_t n = 0, r = BENCH_SEQ_FIRST_ROUNDS, m;
    if (!rounds || growth < 2)
        return 0;
    do {
        rounds[n++] = r;
        r = r > SIZE_MAX / growth ? SIZE_MAX : r * growth;
    } while (n < BENCH_SEQ_MAX_LOOKS && r <= max_rounds);
    /* the last look at the most rounds affordable, whole firsts of them (each pair of
     * processes as often with either build first), so that none goes unused: in place of
     * the last look before it when that is less than half a step more, else a look of its
     * own */
    m = max_rounds - max_rounds % BENCH_SEQ_FIRST_ROUNDS;
    if (m > rounds[n - 1] && r > m) {
        if (2.0 * (double)m < ((double)growth + 1) * (double)rounds[n - 1])
            rounds[n - 1] = m;
        else if (n < BENCH_SEQ_MAX_LOOKS)
            rounds[n++] = m;
    }
    return n;
}

double bench_seq_look_confidence(double confidence, size_t rows, size_t looks, size_t k,
                                 double last_share)
{
    double alpha;
    if (rows == 0 || looks == 0 || k >= looks || !(confidence > 0 && confidence < 1)
        || !(last_share > 0 && last_share < 1))
        return NAN;
    alpha = (1 - confidence) / (double)rows;
    if (looks > 1)
        alpha *= k + 1 == looks ? last_share : (1 - last_share) / (double)(looks - 1);
    return 1 - alpha;
}

bench_seq_verdict bench_seq_decide(const nb_ratio *r, double equivalence_pct)
{
    double e;
    if (!r || !isfinite(r->low) || !isfinite(r->high) || !(equivalence_pct > 0))
        return BENCH_SEQ_UNDECIDED;
    if (r->low > 1)
        return BENCH_SEQ_FASTER;
    if (r->high < 1)
        return BENCH_SEQ_SLOWER;
    e = 1 + equivalence_pct / 100;
    if (r->low >= 1 / e && r->high <= e)
        return BENCH_SEQ_WITHIN;
    return BENCH_SEQ_UNDECIDED;
}

int bench_seq_gate_decided(const nb_ratio *r, double max_regression)
{
    double gate = 1 + max_regression / 100;
    if (max_regression < 0)
        return 1;
    if (!r || !isfinite(r->low) || !isfinite(r->high) || !(r->low > 0))
        return 0;
    /* this build's time over the other's: [1 / high, 1 / low] */
    return 1 / r->high > gate || 1 / r->low <= gate;
}

double bench_seq_allowance(double suite_left_ns, size_t rows_left, double per_row_ns,
                           double cap_ns)
{
    double a = suite_left_ns / (double)(rows_left ? rows_left : 1);
    if (a > cap_ns)
        a = cap_ns;
    return a > per_row_ns ? a : per_row_ns;
}
