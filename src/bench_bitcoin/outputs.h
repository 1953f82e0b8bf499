/* bench_bitcoin's output files (-output-csv, -output-json, -output-gbench, -output-html) as
 * one table: each file's option, its template and its lifecycle (outfile.h) together. */
#ifndef BENCH_BITCOIN_OUTPUTS_H
#define BENCH_BITCOIN_OUTPUTS_H

#include "bench/nanobench.h"

/* The output files, in the order they are written. */
enum {
    BENCH_OUTPUT_CSV,        /* Bitcoin Core's CSV layout */
    BENCH_OUTPUT_JSON,       /* nanobench's JSON: every epoch of every result */
    BENCH_OUTPUT_GBENCH,     /* Google Benchmark's JSON */
    BENCH_OUTPUT_HTML,       /* a self-contained HTML report */
    BENCH_OUTPUT_COUNT
};

/* The option that names output file slot ("-output-csv"); NULL past the end. */
const char *bench_output_option(int slot);

/* Checks the files paths[slot] names (NULL: none): each can be written, no two are the same
 * file; then creates their temporaries, or with writing 0 (-list, -help) checks their
 * directories only. 0, or -1 after one error line. */
int bench_outputs_open(const char *const paths[BENCH_OUTPUT_COUNT], int writing);

/* Renders b's results into every open file and renames them all over their targets, all or
 * none. 0 (also when there are none), or -1 after one error line. */
int bench_outputs_write(const nb_bench *b);

/* Writes the len bytes at text into output file slot, when one is open there, and commits it
 * (-against's JSON, which is no nb_bench's: against_json.h). Any other open file is an
 * error. 0 (also when slot has none), or -1 after one error line. */
int bench_outputs_write_text(int slot, const char *text, size_t len);

/* Closes the files and removes what was not committed. */
void bench_outputs_release(void);

#endif
