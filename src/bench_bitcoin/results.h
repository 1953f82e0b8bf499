/* The one reader of bench_bitcoin's -output-json files (nanobench's JSON template: every
 * result with its name, unit, batch and every epoch's measurements), for -baseline and
 * -instructions -against. */
#ifndef BENCH_BITCOIN_RESULTS_H
#define BENCH_BITCOIN_RESULTS_H

#include <stddef.h>

/* One result of the file. */
typedef struct {
    char *name;
    char *unit;
    double batch;              /* > 0 */
    double *elapsed;           /* count epochs' seconds per iteration, each > 0 */
    double *cycles;            /* their estimated cycles per iteration, each > 0; NULL when
                                * an epoch has none ("estcycles" absent, null or not > 0) */
    double instructions;       /* "median(instructions)" per iteration; negative: none */
    size_t count;
    /* -against's comparison (against_json.h), where the result has one ("verdict"): */
    char *verdict;             /* "faster", "slower", "within" or "="; NULL: none */
    double ratio, ratio_low, ratio_high;   /* this build's time over the other's; NaN: null */
    double rounds, seconds;    /* paired rounds, the row's wall-clock seconds */
} bench_result_row;

typedef struct {
    bench_result_row *rows;
    size_t count;
    int counted;               /* written under -instructions: every result has instruction
                                * counts and no epoch a hardware cycle count ("cpucycles"),
                                * which callgrind's runs never have; the times are then the
                                * simulator's */
} bench_results;

/* Parses an -output-json document: the len bytes at text (no NUL needed). 0 and *out filled
 * (free it with bench_results_free), or -1 with *out empty and a one-line reason in err
 * (errcap bytes): not JSON (jansson's message, with line and column), or JSON of another shape
 * (no "results" list, a result without a name, unit, positive batch or "measurements" list,
 * an epoch without a positive finite "elapsed", a name twice, a "verdict" that is not one of
 * -against's or without its "ratio", "ratioLow", "ratioHigh" (numbers or null), "rounds"
 * and "seconds"). Never prints. */
int bench_results_parse(const char *text, size_t len, bench_results *out, char *err,
                        size_t errcap);

/* Frees what bench_results_parse filled; r may be empty. */
void bench_results_free(bench_results *r);

/* Reads and parses path; 0, or -1 after one error line that starts with who ("-baseline")
 * and names the file (also when it holds no results). */
int bench_results_load(const char *path, const char *who, bench_results *out);

/* The row named name, or NULL. */
const bench_result_row *bench_results_find(const bench_results *r, const char *name);

#endif
