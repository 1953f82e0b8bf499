/* Confidence intervals for a ratio of costs (nb_stats_paired,
 * nb_stats_unpaired): rank methods on log ratios, which need no assumption
 * about the shape of timing noise.
 *
 * Paired: d_i = log(base_i / other_i). The estimate is the Hodges-Lehmann
 * estimator, the median of the n(n+1)/2 Walsh averages (d_i + d_j) / 2,
 * i <= j; the interval is the one the Wilcoxon signed-rank test inverts:
 * [W_(k), W_(M+1-k)] of the M sorted Walsh averages, where k - 1 is the
 * largest c with P(T <= c) <= alpha / 2 under the null (T the signed-rank
 * statistic). Its coverage holds when the d_i are independent and symmetric
 * about their centre; it is exact (up to ties) for n <= NB_EXACT_PAIRED and
 * uses the normal approximation with a continuity correction above.
 *
 * Unpaired: the Hodges-Lehmann shift, the median of the nb * no differences
 * log(base_i) - log(other_j), with the interval the Mann-Whitney test
 * inverts: the k-th smallest and largest difference, k - 1 the largest c
 * with P(U <= c) <= alpha / 2. It holds when the two samples are
 * independent and differ by a shift of log cost (the same shape of noise);
 * exact for nb * no <= NB_EXACT_UNPAIRED.
 *
 * alpha = (1 - confidence) / family: Bonferroni, so the intervals of a table
 * of `family` comparisons hold together.
 *
 * The M (or nb * no) values are never stored: the k-th smallest is found by
 * bisection over the bit patterns of doubles, counting the values below a
 * candidate in O(n) with two pointers over the sorted data. Floating-point
 * addition and subtraction are monotone, so the count is exact for the
 * values as computed, and the bisection ends on one of them (about 64
 * passes). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"
#include "util/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Largest n with the exact signed-rank distribution (O(n^3) work, 4 ms at
 * the limit); the normal approximation is within 1 of the exact critical
 * value from n = 30 on. */
#define NB_EXACT_PAIRED 200
/* Largest nb * no with the exact rank-sum distribution. */
#define NB_EXACT_UNPAIRED 2500

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double nb_stats_median(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof(*v), cmp_double);
    if (n & 1)
        return v[n / 2];
    return (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* nanobench's MdAPE: the median over epochs of |x - median| / x. An epoch
 * of 0 (a counter that did not tick) is 0% off a median of 0, else 100%. */
double nb_stats_mdape(const double *v, size_t n, double median, double *scratch)
{
    size_t i;
    if (n == 0)
        return NAN;
    for (i = 0; i < n; ++i) {
        if (v[i] == 0)
            scratch[i] = median == 0 ? 0.0 : 1.0;
        else
            scratch[i] = fabs((v[i] - median) / v[i]);
    }
    return nb_stats_median(scratch, n);
}

/* A total order on finite doubles as unsigned integers: key(x) < key(y)
 * exactly when x < y (and -0 just below +0). */
static uint64_t key_of(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof(u));
    return (u >> 63) ? ~u : (u | (UINT64_C(1) << 63));
}

static double value_of(uint64_t k)
{
    uint64_t u = (k >> 63) ? (k & ~(UINT64_C(1) << 63)) : ~k;
    double x;
    memcpy(&x, &u, sizeof(x));
    return x;
}

/* The pairwise values a k-th smallest is taken from: the Walsh sums
 * a[i] + a[j], i <= j (b NULL), or the differences a[i] - b[j]. Both arrays
 * sorted ascending. */
typedef struct {
    const double *a, *b;
    size_t na, nb;
} pairs;

/* How many pairwise values are <= t. */
static double count_le(const pairs *p, double t)
{
    double count = 0;
    size_t i, j;
    if (!p->b) {
        /* for growing i the largest j with a[i] + a[j] <= t never grows */
        j = p->na;
        for (i = 0; i < p->na; ++i) {
            while (j > i && p->a[i] + p->a[j - 1] > t)
                --j;
            if (j <= i)
                break;
            count += (double)(j - i);
        }
    } else {
        /* a[i] - b[j] falls as j grows: count the j from the first one at
         * or below t, which moves right as a[i] grows */
        j = 0;
        for (i = 0; i < p->na; ++i) {
            while (j < p->nb && p->a[i] - p->b[j] > t)
                ++j;
            count += (double)(p->nb - j);
        }
    }
    return count;
}

/* The k-th smallest pairwise value, k in [1, total]. */
static double kth(const pairs *p, double k)
{
    uint64_t lo, hi;
    if (!p->b) {
        lo = key_of(p->a[0] + p->a[0]);
        hi = key_of(p->a[p->na - 1] + p->a[p->na - 1]);
    } else {
        lo = key_of(p->a[0] - p->b[p->nb - 1]);
        hi = key_of(p->a[p->na - 1] - p->b[0]);
    }
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (count_le(p, value_of(mid)) >= k)
            hi = mid;
        else
            lo = mid + 1;
    }
    return value_of(lo);
}

/* The standard normal quantile for an upper tail q (0 < q < 0.5), by
 * bisection on erfc: slow but exact to the last bits, and called once per
 * interval. */
static double normal_upper_quantile(double q)
{
    double lo = 0, hi = 40;
    int it;
    for (it = 0; it < 200; ++it) {
        double mid = 0.5 * (lo + hi);
        if (0.5 * erfc(mid / sqrt(2.0)) > q)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* Largest c with P(T <= c) <= tail for the signed-rank statistic of n
 * nonzero differences; -1 when even P(T <= 0) = 2^-n is above tail; -2 when
 * out of memory. */
static double signed_rank_critical(size_t n, double tail)
{
    double total = (double)n * (double)(n + 1) / 2;
    if (n <= NB_EXACT_PAIRED) {
        /* p[t] = P(T = t), built one rank at a time; only the lower half is
         * needed and each update reads lower entries only */
        size_t half = (size_t)(total / 2), r, t;
        double *p = bb_malloc_array(half + 1, sizeof(*p)), cum = 0, c = -1;
        if (!p)
            return -2;
        memset(p, 0, (half + 1) * sizeof(*p));
        p[0] = 1;
        for (r = 1; r <= n; ++r) {
            for (t = half; t >= r; --t)
                p[t] = 0.5 * (p[t] + p[t - r]);
            for (t = 0; t < r && t <= half; ++t)
                p[t] *= 0.5;
        }
        for (t = 0; t <= half; ++t) {
            cum += p[t];
            if (cum > tail)
                break;
            c = (double)t;
        }
        bb_free(p);
        return c;
    } else {
        double sd = sqrt((double)n * (double)(n + 1) * (double)(2 * n + 1) / 24);
        return floor(total / 2 - 0.5 - normal_upper_quantile(tail) * sd);
    }
}

/* Largest c with P(U <= c) <= tail for the Mann-Whitney statistic of
 * samples of m and n; -1 when there is none; -2 when out of memory. */
static double rank_sum_critical(size_t m, size_t n, double tail)
{
    double total = (double)m * (double)n;
    if (m > n) {
        size_t s = m;
        m = n;
        n = s;
    }
    if (total <= NB_EXACT_UNPAIRED) {
        /* ways[k][u]: k-subsets of the ranks 1..r whose rank sum is u above
         * its least value k(k+1)/2, i.e. the count of arrangements with
         * U = u; rank r added as r grows. Only u <= total / 2 matters, and
         * all terms are positive, so the counts stay accurate in doubles. */
        size_t half = (size_t)(total / 2), r, k, u;
        size_t width = half + 1;
        double *ways = bb_malloc_array((m + 1) * width, sizeof(*ways));
        double all = 1, cum = 0, c = -1;
        if (!ways)
            return -2;
        memset(ways, 0, (m + 1) * width * sizeof(*ways));
        ways[0] = 1;
        for (r = 1; r <= m + n; ++r) {
            /* adding rank r to a (k-1)-subset raises U by r - k */
            for (k = (r < m ? r : m); k >= 1; --k) {
                size_t shift = r - k;
                double *dst = ways + k * width, *src = ways + (k - 1) * width;
                for (u = half + 1; u-- > shift;)
                    dst[u] += src[u - shift];
            }
        }
        for (k = 1; k <= m; ++k)
            all = all * (double)(n + k) / (double)k;
        for (u = 0; u <= half; ++u) {
            cum += ways[m * width + u] / all;
            if (cum > tail)
                break;
            c = (double)u;
        }
        bb_free(ways);
        return c;
    } else {
        double sd = sqrt(total * (double)(m + n + 1) / 12);
        return floor(total / 2 - 0.5 - normal_upper_quantile(tail) * sd);
    }
}

static void set_nan(nb_ratio *out)
{
    if (out) {
        out->estimate = out->low = out->high = NAN;
        out->significant = 0;
    }
}

static int valid_costs(const double *v, size_t n)
{
    size_t i;
    if (!v)
        return 0;
    for (i = 0; i < n; ++i)
        if (!(v[i] > 0) || !isfinite(v[i]))
            return 0;
    return 1;
}

/* Fills out from the pairwise values of p (total of them, sums when paired:
 * halved) given the lower critical value c. */
static int finish(const pairs *p, double total, double c, double scale, nb_ratio *out)
{
    double est, lo, hi;
    if (c < 0)
        return -1;
    if (fmod(total, 2) == 1)
        est = kth(p, (total + 1) / 2);
    else
        est = 0.5 * (kth(p, total / 2) + kth(p, total / 2 + 1));
    lo = kth(p, c + 1);
    hi = kth(p, total - c);
    out->estimate = exp(est * scale);
    out->low = exp(lo * scale);
    out->high = exp(hi * scale);
    out->significant = lo * scale > 0 || hi * scale < 0;
    return 0;
}

static int bad_common(size_t family, double confidence, nb_ratio *out)
{
    return !out || family == 0 || !(confidence > 0 && confidence < 1);
}

int nb_stats_paired(const double *base, const double *other, size_t n, size_t family,
                    double confidence, nb_ratio *out)
{
    double *d, c, total;
    pairs p;
    size_t i;
    int rc;
    set_nan(out);
    if (bad_common(family, confidence, out) || n == 0 || !valid_costs(base, n) ||
        !valid_costs(other, n))
        return -1;
    d = bb_malloc_array(n, sizeof(*d));
    if (!d)
        return -1;
    for (i = 0; i < n; ++i)
        d[i] = log(base[i] / other[i]);
    qsort(d, n, sizeof(*d), cmp_double);
    c = signed_rank_critical(n, (1 - confidence) / (double)family / 2);
    total = (double)n * (double)(n + 1) / 2;
    p.a = d;
    p.na = n;
    p.b = NULL;
    p.nb = 0;
    rc = finish(&p, total, c, 0.5, out);
    if (rc != 0)
        set_nan(out);
    bb_free(d);
    return rc;
}

int nb_stats_unpaired(const double *base, size_t nb, const double *other, size_t no,
                      size_t family, double confidence, nb_ratio *out)
{
    double *lb, *lo, c;
    pairs p;
    size_t i;
    int rc;
    set_nan(out);
    if (bad_common(family, confidence, out) || nb == 0 || no == 0 ||
        !valid_costs(base, nb) || !valid_costs(other, no))
        return -1;
    lb = bb_malloc_array(nb + no, sizeof(*lb));
    if (!lb)
        return -1;
    lo = lb + nb;
    for (i = 0; i < nb; ++i)
        lb[i] = log(base[i]);
    for (i = 0; i < no; ++i)
        lo[i] = log(other[i]);
    qsort(lb, nb, sizeof(*lb), cmp_double);
    qsort(lo, no, sizeof(*lo), cmp_double);
    c = rank_sum_critical(nb, no, (1 - confidence) / (double)family / 2);
    p.a = lb;
    p.na = nb;
    p.b = lo;
    p.nb = no;
    rc = finish(&p, (double)nb * (double)no, c, 1.0, out);
    if (rc != 0)
        set_nan(out);
    bb_free(lb);
    return rc;
}
