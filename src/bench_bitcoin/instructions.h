/* bench_bitcoin -instructions: the benchmarks counted under valgrind's callgrind instead of
 * timed (doc/instructions.md), alone or against another build. */
#ifndef BENCH_BITCOIN_INSTRUCTIONS_H
#define BENCH_BITCOIN_INSTRUCTIONS_H

/* Runs this program again, with argv's options but -instructions, under callgrind
 * (nb_valgrind_run), where the harness counts instead of timing; the child prints the table
 * and writes the files. Returns the exit status (1 after one error line: valgrind missing, a
 * build without valgrind's header or with sanitizers, a crash under valgrind). */
int bench_instructions_run(int argc, char **argv);

/* -instructions -against=OTHER: counts the benchmarks that -filter selects (filter NULL: all)
 * in this build and in OTHER, each under callgrind with -output-json to a temporary file,
 * and prints one table of both counts per unit and their change. With max_regression >= 0,
 * returns 1 (after a line naming them) when a benchmark counts more than that percentage
 * more instructions than in OTHER. Returns the exit status. */
int bench_instructions_against(const char *other, const char *filter, double max_regression);

#endif
