/* clustered.h: a t interval over pairs of processes. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/clustered.h"
#include "util/timing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROUNDS_ALL 4096
#define PI 3.14159265358979323846

double bench_clustered_t_cdf(double t, unsigned df)
{
    /* With theta = atan(t / sqrt(df)): for odd df,
     *   F = 1/2 + (theta + sin theta (c + 2/3 c^3 + 2*4/(3*5) c^5 + ...)) / pi, c = cos theta,
     * the series having (df - 1) / 2 terms (none for df = 1); for even df,
     *   F = 1/2 + sin theta (1 + 1/2 c^2 + 1*3/(2*4) c^4 + ...) / 2, df / 2 terms. */
    double theta, s, c, c2, term, sum;
    unsigned k;
    if (df < 1 || isnan(t))
        return NAN;
    if (isinf(t))
        return t > 0 ? 1 : 0;
    theta = atan(t / sqrt((double)df));
    s = sin(theta);
    c = cos(theta);
    c2 = c * c;
    if (df % 2) {
        sum = 0;
        term = c;
        for (k = 1; k <= (df - 1) / 2; k++) {
            sum += term;
            term *= c2 * (2.0 * k) / (2.0 * k + 1);
        }
        return 0.5 + (theta + s * sum) / PI;
    }
    sum = 0;
    term = 1;
    for (k = 1; k <= df / 2; k++) {
        sum += term;
        term *= c2 * (2.0 * k - 1) / (2.0 * k);
    }
    return 0.5 + s * sum / 2;
}

double bench_clustered_t_quantile(double p, unsigned df)
{
    double lo = -1e6, hi = 1e6;
    int it;
    if (df < 1 || !(p > 0 && p < 1))
        return NAN;
    for (it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi);
        if (bench_clustered_t_cdf(mid, df) < p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

static void set_nan(nb_ratio *out)
{
    if (out) {
        out->estimate = out->low = out->high = NAN;
        out->significant = 0;
    }
}

/* The mean of the k values at d (k >= 1), which it sorts, less the floor(trim k) smallest
 * and as many largest; their median where that leaves none (trim 0.5). */
static double trimmed_mean(double *d, size_t k, double trim)
{
    size_t g = (size_t)(trim * (double)k), i;
    double sum = 0;
    bb_sort_doubles(d, k);
    if (2 * g >= k)
        return k % 2 ? d[k / 2] : 0.5 * (d[k / 2 - 1] + d[k / 2]);
    for (i = g; i < k - g; i++)
        sum += d[i];
    return sum / (double)(k - 2 * g);
}

int bench_clustered_ratio(const double *base, const double *other, const size_t *pair, size_t n,
                    size_t npairs, size_t family, double confidence, nb_ratio *out)
{
    return bench_clustered_ratio_trimmed(base, other, pair, n, npairs, 0.5, family, confidence,
                                         out);
}

int bench_clustered_ratio_trimmed(const double *base, const double *other, const size_t *pair,
                                  size_t n, size_t npairs, double trim, size_t family,
                                  double confidence, nb_ratio *out)
{
    double mean = 0, var = 0, half, t;
    double *per, *d;
    size_t i, j, k;
    set_nan(out);
    if (!out || !base || !other || !pair || npairs < 2 || n > MAX_ROUNDS_ALL || family == 0
        || !(confidence > 0 && confidence < 1) || !(trim >= 0 && trim <= 0.5))
        return -1;
    for (i = 0; i < n; i++)
        if (!(base[i] > 0 && other[i] > 0 && isfinite(base[i]) && isfinite(other[i]))
            || pair[i] >= npairs)
            return -1;
    per = malloc(npairs * sizeof *per);
    d = malloc((n ? n : 1) * sizeof *d);
    if (!per || !d) {
        free(per), free(d);
        return -1;
    }
    for (j = 0; j < npairs; j++) {
        for (i = k = 0; i < n; i++)
            if (pair[i] == j)
                d[k++] = log(base[i] / other[i]);
        if (k == 0) {
            free(per), free(d);
            return -1;
        }
        per[j] = trimmed_mean(d, k, trim);
        mean += per[j];
    }
    mean /= (double)npairs;
    for (j = 0; j < npairs; j++)
        var += (per[j] - mean) * (per[j] - mean);
    var /= (double)(npairs - 1);
    free(per), free(d);
    t = bench_clustered_t_quantile(1 - (1 - confidence) / (double)family / 2,
                                   (unsigned)(npairs - 1));
    half = t * sqrt(var / (double)npairs);
    out->estimate = exp(mean);
    out->low = exp(mean - half);
    out->high = exp(mean + half);
    out->significant = mean - half > 0 || mean + half < 0;
    return 0;
}
