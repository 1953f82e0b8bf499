/* bench_bitcoin: runs the suite (bench.h) through the nanobench harness. main parses the
 * command line, makes every check that can be made before anything runs, in this order (so
 * that a bad input fails before any output file is touched): the options (options.h), stdout,
 * the selection, -compare's rows, -baseline's file, the output files (their temporaries
 * created; checked only for -list and -help); then prints -help or dispatches to the mode
 * (modes.h). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/against.h"
#include "bench_bitcoin/baseline.h"
#include "bench_bitcoin/modes.h"
#include "bench_bitcoin/outputs.h"
#include "util/alloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The rows whose whole name matches o->filter (o->match, as bench_parse_options found it),
 * whose priority level o->priority includes and that this CPU can run (bench_row_available),
 * in byte-wise name order, into *selected (bb_free it). 0 and *count (at least 1), or -1
 * after one error line (also when none is left, saying which condition removed the last). */
static int select_benchmarks(const bench_options *o, const bench_row ***selected, size_t *count)
{
    size_t total, i, n = 0, named = 0, leveled = 0;
    const bench_row *all = bench_rows(&total);
    const bench_row **sel = bb_malloc_array(total ? total : 1, sizeof *sel);

    if (!sel) {
        bench_error("out of memory");
        return -1;
    }
    for (i = 0; i < total; i++) {
        unsigned level = all[i].def->priority ? all[i].def->priority : BENCH_PRIORITY_HIGH;
        if (o->filter && !o->match[i])
            continue;
        named++;
        if (!(level & o->priority))
            continue;
        leveled++;
        if (!bench_row_available(&all[i]))
            continue;
        sel[n++] = &all[i];
    }
    if (n == 0) {
        if (named == 0 && o->filter_hint && o->filter_hint[0])
            bench_error("-filter: no benchmark matches '%s': the regex must match a whole "
                        "name; did you mean '%s'?", o->filter, o->filter_hint);
        else if (named == 0)
            bench_error("-filter: no benchmark matches '%s' (the regex must match a whole "
                        "name; -list shows them all)", o->filter);
        else if (leveled == 0)
            bench_error("-priority-level=%s: none of the %zu benchmarks selected has that "
                        "level (-list -priority-level=all shows them)", o->priority_text, named);
        else
            bench_error("this CPU cannot run any of the %zu benchmarks selected (their SHA-256 "
                        "implementations need instructions it lacks)", leveled);
        bb_free(sel);
        return -1;
    }
    *selected = sel;
    *count = n;
    return 0;
}

typedef int (*mode_fn)(const bench_job *j);

/* The mode the options ask for: -list, -instructions (outside callgrind: under it already,
 * the child of -instructions or a user's own valgrind run, the harness counts by itself and
 * the run is a plain one), -against, -baseline, -compare, else the plain run. */
static mode_fn mode_of(const bench_options *o)
{
    if (o->list)
        return bench_mode_list;
    if (o->instructions && !nb_valgrind_counting())
        return bench_mode_instructions;
    if (o->against)
        return bench_mode_against;
    if (o->baseline)
        return bench_mode_baseline;
    if (o->compare)
        return bench_mode_compare;
    return bench_mode_run;
}

/* The checks before anything runs, after the options' own; 0, or -1 after one error line. */
static int prepare(bench_job *j, mode_fn mode)
{
    const bench_options *o = j->o;
    /* A closed stdout is refused up front, before anything runs, rather than at the first
     * row (nothing the run opens takes descriptor 1: the harness's counters and the output
     * files' temporaries move above 2). -sanity-check prints nothing there. */
    if (!o->sanity_check && fcntl(STDOUT_FILENO, F_GETFD) == -1 && errno == EBADF) {
        bench_error("stdout is closed: the %s has nowhere to go",
                    o->help ? "help" : o->list ? "list" : "table");
        return -1;
    }
    if (select_benchmarks(o, &j->sel, &j->count) != 0)
        return -1;
    if (o->compare && bench_compare_prepare(j) != 0)
        return -1;
    /* The children of -instructions check the rest themselves. */
    if (mode == bench_mode_instructions && !o->help)
        return 0;
    if (o->baseline && bench_baseline_load(o->baseline, j->sel, j->count, &j->base) != 0)
        return -1;
    /* The output files, checked even for -list and -help, so that a command line that names
     * an unwritable file fails whatever else it asks for. */
    return bench_outputs_open(o->output, !(o->list || o->help));
}

int main(int argc, char **argv)
{
    bench_options o;
    bench_job j;
    mode_fn mode;
    int status = BENCH_EXIT_ERROR;

    bench_options_init(&o);
    memset(&j, 0, sizeof j);
    j.argc = argc;
    j.argv = argv;
    j.o = &o;
    if (bench_parse_options(argc, argv, &o) != 0)
        goto done;
    if (o.serve) {   /* the other side of -against: stdin and stdout are the protocol's */
        if (!o.no_pin)
            bench_pin_to_one_cpu();
        status = bench_serve(o.serve);
        goto done;
    }
    mode = mode_of(&o);
    if (prepare(&j, mode) != 0)
        goto done;
    /* -help after every check, like -list: a command line with a bad value is an error
     * whatever else it asks for. */
    status = o.help ? (bench_options_help(stdout) == 0 ? BENCH_EXIT_OK : BENCH_EXIT_ERROR)
                    : mode(&j);
    /* a mode that failed has said why; one that ran may still find stdout failing now */
    if (status != BENCH_EXIT_ERROR && (fflush(stdout) != 0 || ferror(stdout))) {
        bench_error("writing to stdout failed");
        status = BENCH_EXIT_ERROR;
    }
done:
    bench_outputs_release();
    bb_free(j.sel);
    bb_free(j.rows);
    bench_results_free(&j.base);
    bench_options_free(&o);
    return status;
}
