/* Tiny test helpers shared by every test program.
 *
 * CHECK(cond) records a failure (file, line, expression) and goes on, so one run
 * shows every broken case. A test's main() ends with `return check_finish();`,
 * which prints a summary and returns the exit status automake's harness expects
 * (0 pass, 1 fail, 77 skipped). Tests that cannot run here return CHECK_SKIP (77); a test
 * whose part cannot run here says so with check_untested.
 *
 * The RNG is seeded once per process: from the environment variable TEST_SEED
 * when set (decimal or 0x-hex), otherwise from the clock. The seed is always
 * printed, so a failing run can be replayed with TEST_SEED=<seed>. */
#ifndef TEST_CHECK_H
#define TEST_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CHECK_SKIP 77

/* Records a failure unless cond holds; evaluates to cond (0 or 1). */
#define CHECK(cond) check_report(!!(cond), __FILE__, __LINE__, #cond)

/* Like CHECK, with a printf-style message printed on failure. */
#define CHECKF(cond, ...) check_reportf(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

int check_report(int ok, const char *file, int line, const char *expr);
int check_reportf(int ok, const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Number of failures recorded so far. */
unsigned long check_failures(void);

/* Records that part of the program's subject could not run here, saying what and why in one
 * phrase ("the write-error test: no /dev/full"), and prints it. */
void check_untested(const char *part);

/* Prints "<program>: N checks, M failed" and returns 1 when any failed; else CHECK_SKIP, after
 * a line naming every part check_untested recorded, when there is one, so that automake
 * counts a program that left something out as skipped, not passed; else 0. */
int check_finish(void);

/* Seeds the test RNG (see above) and prints the seed; called once by main.
 * Returns the seed used. */
uint64_t check_rng_init(const char *program);

/* 64 random bits (xoshiro256**). */
uint64_t check_rng_u64(void);

/* Uniform in [0, bound); bound > 0. */
uint64_t check_rng_below(uint64_t bound);

/* Fills buf with len random bytes. */
void check_rng_fill(void *buf, size_t len);

/* Lowercase hex of len bytes into out (2*len+1 bytes). */
void check_hex(char *out, const unsigned char *in, size_t len);

/* Parses lowercase or uppercase hex into out; returns the byte count, or
 * (size_t)-1 on malformed input or when it would exceed cap. */
size_t check_unhex(unsigned char *out, size_t cap, const char *hex);

/* Everything written to f (a tmpfile()) since it was opened, as a malloc'ed
 * NUL-terminated string the caller frees; NULL on a read error or no memory. */
char *check_slurp(FILE *f);

/* Switches LC_NUMERIC to an installed locale whose decimal point is not '.'
 * (de_DE, fr_FR, ... in UTF-8, the first found) and returns its name; NULL,
 * with the locale left "C", when none is installed (Debian: the locales
 * package, then `localedef -i de_DE -f UTF-8 de_DE.UTF-8`; .ci/run does it).
 * check_c_locale() goes back to "C". */
const char *check_comma_locale(void);
void check_c_locale(void);

#endif
