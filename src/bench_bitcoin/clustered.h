/* The ratio -against reports when its rounds come from several pairs of processes: the pair
 * of processes, not the round, is the unit that repeats (doc/against.md, "How it measures").
 * Pure functions, for tests. */
#ifndef BENCH_BITCOIN_CLUSTERED_H
#define BENCH_BITCOIN_CLUSTERED_H

#include "bench/nanobench.h"

#include <stddef.h>

/* P(T <= t) for Student's t with df degrees of freedom (df >= 1), exact (the finite series
 * for integer degrees of freedom). */
double bench_clustered_t_cdf(double t, unsigned df);

/* The t with P(T <= t) = p, 0 < p < 1, df >= 1 (bisection on bench_clustered_t_cdf). */
double bench_clustered_t_quantile(double p, unsigned df);

/* base[i] and other[i] were measured in round i; round i belongs to pair of processes
 * pair[i] (0 .. npairs - 1), and every pair has at least one round. Each pair's log ratio is
 * the median of its rounds' log(base / other) (a round spoilt by a burst of the host's noise
 * does not move it); the estimate is the mean of the pairs' log
 * ratios, the interval the t interval of that mean with npairs - 1 degrees of freedom at
 * confidence jointly over family comparisons (Bonferroni), both as ratios. 0, or -1 when an
 * argument is invalid (NULL, a cost not finite or <= 0, a pair out of range or without
 * rounds, npairs < 2, n > 4096, family 0, confidence not in (0, 1)); then *out, when not
 * NULL, holds NaNs. */
int bench_clustered_ratio(const double *base, const double *other, const size_t *pair, size_t n,
                    size_t npairs, size_t family, double confidence, nb_ratio *out);

/* The same with each pair reduced to the trimmed mean of its rounds' log ratios: the mean
 * less the floor(trim k) smallest and as many largest of its k rounds (0 <= trim <= 0.5;
 * 0: the mean; 0.5, or a trim that leaves none: the median, bench_clustered_ratio's). */
int bench_clustered_ratio_trimmed(const double *base, const double *other, const size_t *pair,
                                  size_t n, size_t npairs, double trim, size_t family,
                                  double confidence, nb_ratio *out);

#endif
