/* -filter: a POSIX extended regular expression that selects benchmarks by whole name.
 *
 * glibc's regcomp and regexec take exponential time (and memory) over some short patterns:
 * `SHA.*++++++++++++++` ran for minutes past a gigabyte, `((||){12})+` for 24 s, and nested
 * groups, intervals and backreferences have more such corners than a static check can list.
 * So the regex work runs in a child process limited to FILTER_CPU_SECONDS of CPU time, which
 * hands back the selection; a pattern that runs out of time (or crashes the library) is one
 * clear error instead of a hung program. Before that, repetition operators in a row (`*+`,
 * `*?`, `{2}{3}`), which POSIX leaves undefined, are refused with their own message. */
#ifndef BENCH_BITCOIN_FILTER_H
#define BENCH_BITCOIN_FILTER_H

#include <stddef.h>

/* The CPU time the regex library gets to compile a pattern and match every name with it
 * (a filter of these names needs well under a millisecond). */
#define FILTER_CPU_SECONDS 2

/* The longest hint bench_filter_select gives, with its NUL. */
#define BENCH_FILTER_HINT_MAX 256

/* Sets selected[i] to 1 when the whole of names[i] matches pattern, else 0, for i < count.
 * When none matches, hint (hint_cap bytes; NULL: not wanted) receives a pattern that would,
 * made of this one: "P.*" when P matches the start of a name, else ".*P.*" when it matches
 * inside one ("(P)" for P with an alternation); "" when neither does. 0, or -1 after one
 * line on stderr saying why: repetition operators in a row, a pattern regcomp refuses, no
 * memory, more than FILTER_CPU_SECONDS of CPU, no child process. */
int bench_filter_select(const char *pattern, const char *const *names, size_t count,
                        unsigned char *selected, char *hint, size_t hint_cap);

#endif
