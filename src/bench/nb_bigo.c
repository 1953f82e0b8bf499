/* Complexity fits, as nanobench's BigO.
 *
 * Each candidate f is fitted as t = c * f(n) by least squares through the
 * origin: c = sum(f*t) / sum(f*f). Its quality is the root mean square of the
 * residuals over the mean time, sqrt(sum((c*f - t)^2) / count) / mean(t), so
 * fits of different shapes compare on one scale. The logarithms are base 2,
 * as in nanobench (the coefficients of the ComplexMemPool table in Core's
 * nanobench pull request need it; the error does not depend on the base).
 *
 * Points are (complexity N, median seconds per iteration) of the results
 * whose N is > 0 (N <= 0 is "unset", and log2 of it is meaningless). The
 * sums are taken straight from the results, so nothing is allocated. */
#include "bench/nanobench.h"
#include "bench/nb_internal.h"

#include <math.h>
#include <stdio.h>

typedef double (*bigo_fn)(double n);

/* Where the points come from: a bench's results or two plain arrays. */
typedef struct {
    const nb_bench *bench;
    const double *n;
    const double *t;
    size_t count;
} point_src;

static size_t src_size(const point_src *s)
{
    return s->bench ? nb_result_count(s->bench) : s->count;
}

/* The i-th candidate point; 0 when it is not a usable point. */
static int src_point(const point_src *s, size_t i, double *n, double *t)
{
    if (s->bench) {
        const nb_result *r = nb_result_at(s->bench, i);
        if (!r)
            return 0;
        *n = nb_result_complexity_n(r);
        *t = nb_result_median(r, NB_ELAPSED);
    } else {
        *n = s->n[i];
        *t = s->t[i];
    }
    return *n > 0.0 && isfinite(*n) && isfinite(*t);
}

/* Fits f over the points; returns how many points were used. The sums run
 * over f(n) / max f(n), so that f(n)^2 neither overflows (n = 1e200: O(n)
 * came out 0) nor underflows (n = 1e-300); the coefficient is divided back. An f
 * that is not finite at some point (n^3 for n = 1e200) cannot be fitted:
 * coefficient and error NaN, ranked last. */
static size_t fit_one(const point_src *s, const char *name, bigo_fn f, nb_bigo *out)
{
    double sum_gt = 0.0, sum_gg = 0.0, sum_t = 0.0, err = 0.0, scale = 0.0, cg, n, t;
    size_t i, size = src_size(s), used = 0;

    for (i = 0; i < size; ++i) {
        double fn;
        if (src_point(s, i, &n, &t) && !(fabs(fn = f(n)) <= scale))
            scale = fabs(fn);   /* NaN and inf included: they stop the fit below */
    }
    for (i = 0; i < size; ++i) {
        double g;
        if (!src_point(s, i, &n, &t))
            continue;
        g = scale > 0.0 ? f(n) / scale : 0.0;
        sum_gt += g * t;
        sum_gg += g * g;
        sum_t += t;
        ++used;
    }
    out->name = name;
    if (used > 0 && !isfinite(scale)) {
        out->coefficient = NAN;
        out->normalized_rms = NAN;
        return used;
    }
    /* f == 0 at every point (log2 with all n == 1) explains nothing: c = 0
     * rather than 0/0, so the error still says how bad it is. */
    cg = sum_gg > 0.0 ? sum_gt / sum_gg : 0.0;
    for (i = 0; i < size; ++i) {
        double d;
        if (!src_point(s, i, &n, &t))
            continue;
        d = cg * (scale > 0.0 ? f(n) / scale : 0.0) - t;
        err += d * d;
    }
    out->coefficient = scale > 0.0 ? cg / scale : 0.0;
    if (used == 0)
        out->normalized_rms = NAN;
    else if (sum_t == 0.0)
        out->normalized_rms = err == 0.0 ? 0.0 : NAN; /* all times 0: exact, not 0/0 */
    else
        out->normalized_rms = sqrt(err / (double)used) / (sum_t / (double)used);
    return used;
}

static double f_one(double n) { (void)n; return 1.0; }
static double f_n(double n) { return n; }
static double f_log(double n) { return log2(n); }
static double f_nlog(double n) { return n * log2(n); }
static double f_n2(double n) { return n * n; }
static double f_n3(double n) { return n * n * n; }

static const struct {
    const char *name;
    bigo_fn f;
} builtin_fits[] = {
    {"O(1)", f_one},    {"O(n)", f_n},     {"O(log n)", f_log},
    {"O(n log n)", f_nlog}, {"O(n^2)", f_n2}, {"O(n^3)", f_n3},
};
#define BUILTIN_COUNT (sizeof builtin_fits / sizeof builtin_fits[0])

/* Ascending error, NaN last, ties by name (as nanobench's operator<). */
static int bigo_less(const nb_bigo *a, const nb_bigo *b)
{
    int an = isnan(a->normalized_rms), bn = isnan(b->normalized_rms);
    if (an != bn)
        return bn;
    if (!an && a->normalized_rms != b->normalized_rms)
        return a->normalized_rms < b->normalized_rms;
    {
        const char *x = a->name, *y = b->name;
        while (*x && *x == *y) {
            ++x;
            ++y;
        }
        return (unsigned char)*x < (unsigned char)*y;
    }
}

static size_t fit_all(const point_src *s, nb_bigo *out, size_t cap)
{
    nb_bigo fits[BUILTIN_COUNT];
    size_t i, j, k;

    for (i = 0; i < BUILTIN_COUNT; ++i) {
        if (fit_one(s, builtin_fits[i].name, builtin_fits[i].f, &fits[i]) == 0)
            return 0;
    }
    /* insertion sort: six elements */
    for (i = 1; i < BUILTIN_COUNT; ++i) {
        nb_bigo v = fits[i];
        for (j = i; j > 0 && bigo_less(&v, &fits[j - 1]); --j)
            fits[j] = fits[j - 1];
        fits[j] = v;
    }
    k = cap < BUILTIN_COUNT ? cap : BUILTIN_COUNT;
    for (i = 0; i < k; ++i)
        out[i] = fits[i];
    return k;
}

size_t nb_complexity_bigo(const nb_bench *b, nb_bigo *out, size_t cap)
{
    point_src s = {b, NULL, NULL, 0};
    if (!b || (!out && cap))
        return 0;
    return fit_all(&s, out, cap);
}

int nb_complexity_bigo_custom(const nb_bench *b, const char *name, double (*f)(double n),
                              nb_bigo *out)
{
    point_src s = {b, NULL, NULL, 0};
    nb_bigo fit;
    if (!b || !f || !out)
        return -1;
    if (fit_one(&s, name, f, &fit) == 0)
        return -1;
    *out = fit;
    return 0;
}

size_t nb_bigo_fit(const double *n, const double *t, size_t count, nb_bigo *out, size_t cap)
{
    point_src s = {NULL, n, t, count};
    if (count && (!n || !t))
        return 0;
    if (!out && cap)
        return 0;
    return fit_all(&s, out, cap);
}

int nb_bigo_print(FILE *out, const nb_bigo *fits, size_t count)
{
    static const nb_column cols[3] = {
        { "coefficient", 14, NB_ALIGN_RIGHT, 0 }, { "err%", 7, NB_ALIGN_RIGHT, 0 },
        { "complexity", 0, NB_ALIGN_NONE, 1 },
    };
    size_t i;
    if (!out || (!fits && count))
        return -1;
    if (nb_markdown_header(out, cols, 3) != 0)
        return -1;
    for (i = 0; i < count; ++i) {
        char coef[48], err[NB_NUMBER_MAX] = "-";   /* 1e300% has 300 digits */
        const char *cells[3];
        snprintf(coef, sizeof coef, "%g", fits[i].coefficient);
        nb_c_decimal_point(coef);
        if (!isnan(fits[i].normalized_rms)) {
            snprintf(err, sizeof err, "%.1f%%", fits[i].normalized_rms * 100.0);
            nb_c_decimal_point(err);
        }
        cells[0] = coef;
        cells[1] = err;
        cells[2] = fits[i].name;
        if (nb_markdown_row(out, cols, 3, cells) != 0)
            return -1;
    }
    /* The next results row on out starts a new table, header first. */
    nb_table_forget(out);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
