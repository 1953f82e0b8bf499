/* The output files' table (outputs.h). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/outputs.h"
#include "bench_bitcoin/diag.h"
#include "bench_bitcoin/outfile.h"

#include <stddef.h>

/* Bitcoin Core's -output-csv, so that scripts written for Core read it: Core's header, then one
 * row per result, fields separated by ", ": name, epochs ("evals"), average iterations per
 * epoch, total seconds in measured epochs, then min, max and median seconds per iteration
 * (per call of the op). The csv pragma quotes a name that needs it and leaves a value that was
 * not measured empty (not "nan"). */
static const char csv_template[] =
    "{{%csv}}# Benchmark, evals, iterations, total, min, max, median\n"
    "{{#result}}{{name}}, {{epochs}}, {{average(iterations)}}, "
    "{{sumProduct(iterations, elapsed)}}, {{minimum(elapsed)}}, {{maximum(elapsed)}}, "
    "{{median(elapsed)}}\n{{/result}}";

static const char *csv(void)
{
    return csv_template;
}

static const struct {
    const char *option;
    const char *(*tmpl)(void);
} table[BENCH_OUTPUT_COUNT] = {
    {"-output-csv", csv},
    {"-output-json", nb_templ_json},
    {"-output-gbench", nb_templ_gbench},
    {"-output-html", nb_templ_html},
};

/* Static: outfile.c's exit and signal handlers remove their temporaries. */
static out_file files[BENCH_OUTPUT_COUNT];

const char *bench_output_option(int slot)
{
    return slot >= 0 && slot < BENCH_OUTPUT_COUNT ? table[slot].option : NULL;
}

int bench_outputs_open(const char *const paths[BENCH_OUTPUT_COUNT], int writing)
{
    size_t i, j;
    for (i = 0; i < BENCH_OUTPUT_COUNT; i++) {
        files[i].option = table[i].option;
        files[i].target = paths[i];
        if (files[i].target && bench_out_resolve(&files[i]) != 0)
            return -1;
    }
    for (i = 0; i < BENCH_OUTPUT_COUNT; i++)
        for (j = i + 1; j < BENCH_OUTPUT_COUNT; j++)
            if (files[i].target && files[j].target && bench_out_same(&files[i], &files[j])) {
                bench_error("%s='%s' and %s='%s' name the same file", files[i].option,
                            files[i].target, files[j].option, files[j].target);
                return -1;
            }
    /* for -list and -help a check of the directory only (a FIFO is then not opened: its
     * reader would see an empty stream end) */
    for (i = 0; i < BENCH_OUTPUT_COUNT; i++)
        if (files[i].target && bench_out_open(&files[i], writing) != 0)
            return -1;
    return 0;
}

int bench_outputs_write(const nb_bench *b)
{
    size_t i;
    for (i = 0; i < BENCH_OUTPUT_COUNT; i++)
        if (files[i].target && bench_out_render(&files[i], table[i].tmpl(), b) != 0)
            return -1;
    return bench_out_commit_all(files, BENCH_OUTPUT_COUNT);
}

int bench_outputs_write_text(int slot, const char *text, size_t len)
{
    size_t i;
    for (i = 0; i < BENCH_OUTPUT_COUNT; i++)
        if (files[i].target && (int)i != slot) {
            bench_error("%s cannot be written here (only %s)", files[i].option,
                        bench_output_option(slot));
            return -1;
        }
    if (slot < 0 || slot >= BENCH_OUTPUT_COUNT || !files[slot].target)
        return 0;
    if (bench_out_write(&files[slot], text, len) != 0)
        return -1;
    return bench_out_commit_all(files, BENCH_OUTPUT_COUNT);
}

void bench_outputs_release(void)
{
    size_t i;
    for (i = 0; i < BENCH_OUTPUT_COUNT; i++)
        bench_out_release(&files[i]);
}
