/* -filter: a POSIX extended regular expression that selects benchmarks by whole name.
 *
 * Before compiling, the pattern is screened for what makes glibc's regcomp take exponential
 * time and memory (minutes and gigabytes for `SHA.*+++++++++++++`, 20 characters): adjacent
 * repetition operators, which POSIX leaves undefined anyway, and repetitions that multiply
 * past FILTER_MAX_REPEAT along one nesting path (`((x{0,255}){0,255})`). Neither appears in
 * a filter that selects among names of a few dozen characters. */
#ifndef BENCH_BITCOIN_FILTER_H
#define BENCH_BITCOIN_FILTER_H

#include <regex.h>

/* The most copies one nesting path of repetitions may ask for: each `*` and `+` counts 2
 * (the regex library copies the subexpression), `{m,n}` n and `{m,}` m + 1. At this bound the
 * worst pattern found compiles in under 0.1 s. */
#define FILTER_MAX_REPEAT 256

/* Compiles pattern (REG_EXTENDED | flags) into re: 0, or -1 after one line on stderr saying
 * why (a pattern the screen refuses, one regcomp refuses, no memory). */
int filter_compile(regex_t *re, const char *pattern, int flags);

/* Whether re (compiled without REG_NOSUB) matches the whole of name: 1, 0, or -1 after one
 * line on stderr when the regex library ran out of memory (never taken as "no match", which
 * would leave a benchmark out silently). pattern is for the message. */
int filter_match(const regex_t *re, const char *pattern, const char *name);

#endif
