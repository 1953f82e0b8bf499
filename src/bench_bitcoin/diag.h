/* bench_bitcoin's diagnostics: its exit statuses and its one error line. The bottom layer of
 * the program: it depends on the C library only, so that every other file can report an
 * error without depending on anything above it. */
#ifndef BENCH_BITCOIN_DIAG_H
#define BENCH_BITCOIN_DIAG_H

#include <stddef.h>

/* The exit statuses: the run was done (and nothing regressed), -max-regression found a
 * regression, anything else went wrong (a bad option, a file that cannot be written, a build
 * that does not answer, no memory). */
enum {
    BENCH_EXIT_OK = 0,
    BENCH_EXIT_REGRESSION = 1,
    BENCH_EXIT_ERROR = 2
};

/* Prints "bench_bitcoin: " and the formatted message as one line on stderr, whatever the
 * values hold: control characters (a newline in a -filter value) are written as escapes, \n,
 * \t, \r or \xHH. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
void bench_error(const char *fmt, ...);

/* For a benchmark whose op cannot get memory (it has no way to return an error): prints
 * "bench_bitcoin: <name>: out of memory" on stderr and exits with BENCH_EXIT_ERROR (the
 * temporary output files go with the exit handlers of outfile.c). Does not return. */
#if defined(__GNUC__)
__attribute__((noreturn))
#endif
void bench_out_of_memory(const char *name);

/* The byte c as the error line writes it, NUL-terminated, into out: itself, or for a control
 * character an escape (\n, \t, \r, \xHH); returns the length (at most 4). */
size_t bench_escape_byte(unsigned char c, char out[8]);

/* While buf is not NULL, bench_error writes its line (without the newline, cut to size - 1
 * bytes) into buf instead of stderr; bench_error_capture(NULL, 0) puts it back on stderr. For
 * tests and fuzz targets. */
void bench_error_capture(char *buf, size_t size);

#endif
