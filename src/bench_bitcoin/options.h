/* bench_bitcoin's command line: one table of options (name, kind, handler, help line) that
 * drives the parser and -help, apart from main so that a test or a fuzz target can parse a
 * command line without running anything or exiting. The man page (doc/bench_bitcoin.1)
 * holds each option's detail; test_manpage.sh checks it against the table through -help. */
#ifndef BENCH_BITCOIN_OPTIONS_H
#define BENCH_BITCOIN_OPTIONS_H

#include "bench_bitcoin/outputs.h"

#include <stddef.h>
#include <stdio.h>

/* Not Core's 10 ms: chosen by measurement (doc/measurements.md, "bench_bitcoin"). */
#define BENCH_DEFAULT_MIN_TIME_MS 15.0
#define BENCH_DEFAULT_MIN_TIME_TEXT "15"
/* -against's own default, split between the two builds: doc/against.md's figures were
 * measured with it. */
#define BENCH_AGAINST_DEFAULT_MIN_TIME_MS 50.0
/* Beyond this many nanoseconds (about 31 years) -min-time is surely a typo. */
#define BENCH_MAX_MIN_TIME_NS 1e18

/* What the command line asked for. */
typedef struct {
    const char *filter;      /* NULL: every benchmark */
    unsigned char *match;    /* the last -filter's verdict per row (bench_rows order), kept
                                from its check; NULL without filter */
    char *filter_hint;       /* when it matches nothing: a pattern that would ("SHA.*"), or
                                ""; NULL without filter */
    int list;
    int sanity_check;
    int help;
    int compare;
    int no_pin;              /* -no-pin: let the scheduler move the process between CPUs */
    int instructions;        /* -instructions: run again under callgrind, counting */
    double *asymptote;       /* asymptote_count values, each > 0 */
    size_t asymptote_count;
    double min_time_ns;      /* >= 0; 0: leave the harness's min epoch time */
    int min_time_given;      /* -min-time was on the command line */
    const char *output[BENCH_OUTPUT_COUNT];   /* -output-csv, ... (outputs.h); NULL: none */
    const char *against;     /* -against: the other bench_bitcoin; NULL: none */
    const char *baseline;    /* -baseline: an earlier -output-json file; NULL: none */
    double max_regression;   /* -max-regression in percent; negative: not given */
    double equivalence;      /* -equivalence in percent, > 0 (default 1) */
    int equivalence_given;   /* -equivalence was on the command line */
    const char *serve;       /* -serve-protocol's value (the child side of -against) */
    unsigned priority;       /* -priority-level: bench_priority bits (bench.h) to run */
    const char *priority_text;  /* its value as given; NULL: the default, all */
} bench_options;

/* Sets o to the defaults: every benchmark at every priority level, BENCH_DEFAULT_MIN_TIME_MS,
 * nothing else. */
void bench_options_init(bench_options *o);

/* Parses argv[1 .. argc) into o (initialised by bench_options_init); 0, or -1 after one error
 * line (bench_error). The values o points to are argv's. Every value is checked where it
 * appears, also one a later occurrence replaces: -filter's pattern is compiled (in a child
 * process, see filter.h) and an output file's place is checked, creating nothing. Prints
 * nothing else and never exits; bench_options_free releases o afterwards, also after -1. */
int bench_parse_options(int argc, char **argv, bench_options *o);

/* Frees what bench_parse_options allocated in o. */
void bench_options_free(bench_options *o);

/* Prints -help: the usage line, one line per option of the table, the environment, the
 * exit statuses. 0, or -1 when writing failed. */
int bench_options_help(FILE *out);

#endif
