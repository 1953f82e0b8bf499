/* bench_bitcoin -against=OTHER: every selected benchmark measured in this build and in another
 * bench_bitcoin, interleaved epoch by epoch, and compared pair by pair (doc/against.md).
 *
 * Both builds run as serving children (-serve-protocol=1; this one through /proc/self/exe)
 * that talk the protocol of against_proto.h over pipes (their stdin and stdout; their stderr
 * is read for error messages), started alike (same argv[0], same file name, same CPU, address
 * randomisation off): peer.h. The parent (against.c) only decides and reduces. A serving child
 * (serve.c) runs the row through the registry once per comparison (bench_row_run), so its
 * setup and teardown run as in a plain run and every epoch is an epoch of its nb_run_n
 * (a per-epoch setup included); only the epoch sizes come from outside (nb_drive). Eight pairs of serving children (one of each build per pair) share
 * the rounds, because two processes of one build differ on memory-heavy rows for as long as
 * they live. The parent grows this build's epochs on the first pair until one lasts the epoch
 * target, the other build running the same epochs; that count is then every epoch's, on both
 * sides, in every pair. Then rounds of one epoch per side, round r on pair r mod 8, this build
 * first in the pair's even rounds and the other first in its odd ones (A B, B A, ...), so
 * that a drift of the machine's speed that is linear over two rounds weighs on both alike.
 * Each pair's rounds reduce to their interquartile mean log ratio, and the pairs to a t
 * interval (clustered.h), at looks of 16, 32, ... rounds until the interval decides the row
 * (sequential.h). */
#ifndef BENCH_BITCOIN_AGAINST_H
#define BENCH_BITCOIN_AGAINST_H

#include "bench_bitcoin/bench.h"

#include <stddef.h>

/* What -against needs from the command line. */
typedef struct {
    const char *other;          /* the other bench_bitcoin, as given */
    const char *filter;         /* -filter's pattern, NULL for all: applied to the other's names */
    double min_time_ns;         /* -min-time: both sides' measuring time per benchmark */
    double max_regression;      /* -max-regression in percent; negative: no gate */
    double equivalence;         /* -equivalence in percent, > 0: the "within" verdict's bound */
    const char *dump;           /* BENCH_BITCOIN_AGAINST_DUMP: where to append every round */
    int json;                   /* -output-json is open (outputs.h): write the rows there */
    int no_pin;                 /* passed on to the child */
} against_options;

/* Runs the comparison of the rows sel[0 .. count) (sorted by name) against o->other and
 * prints its table on stdout. Returns the exit status (diag.h): BENCH_EXIT_REGRESSION when
 * -max-regression's gate fails (then a line on stderr names the rows), BENCH_EXIT_ERROR after
 * one error line on stderr (the other build cannot be run, does not speak the protocol, dies
 * or hangs; nothing in common). */
int bench_against_run(const against_options *o, const bench_row *const *sel, size_t count);

/* The other side (serve.c): serves the protocol on stdin and stdout until told to quit or
 * stdin ends. version is -serve-protocol's value as given. Returns the exit status.
 * Test hook, read from the environment (off when unset; never for measuring):
 *   BENCH_BITCOIN_SERVE_FAULT=crash|hang   on the first epoch asked for, die of SIGKILL or
 *                                          stop answering.
 * And on both sides of -against:
 *   BENCH_BITCOIN_AGAINST_PLANT=NAME:PCT   the benchmark NAME runs PCT percent more iterations
 *                                          than the epoch's count in each of its epochs, timed
 *                                          as if it ran the count (under 10 extra iterations:
 *                                          the count, then a busy wait of PCT percent of the
 *                                          epoch's time, added to it): a planted slowdown of the
 *                                          same code, for tests and tools/compare_truth (set it
 *                                          for one side only: a wrapper script that sets or
 *                                          unsets it around the other build). */
int bench_serve(const char *version);

#endif
