/* bench_bitcoin -instructions (instructions.h): this program, or this build and another, run
 * again under valgrind's callgrind through nb_valgrind_run, where the harness counts the
 * instructions of its measured loops instead of timing them. */
#define _GNU_SOURCE /* strsignal in older glibc headers */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/instructions.h"
#include "bench_bitcoin/modes.h"
#include "bench_bitcoin/results.h"
#include "util/alloc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROG "bench_bitcoin"
#define PATH_CAP 4096

/* 0 when this build can be counted; -1 after one error line. */
static int can_count(void)
{
    if (!nb_valgrind_supported()) {
        bench_error("-instructions: this " PROG " was built without valgrind's client-request "
                    "header valgrind/callgrind.h (Debian package valgrind): install it and run "
                    "configure again");
        return -1;
    }
#ifdef BB_SANITIZERS
    bench_error("-instructions: this " PROG " was built with sanitizers, and valgrind cannot "
                "run AddressSanitizer programs: configure without --enable-sanitizers");
    return -1;
#else
    return 0;
#endif
}

/* This program's own file (not what argv[0] says: a name found in PATH, or a wrapper). */
static const char *self_path(char *buf, size_t cap, const char *fallback)
{
    ssize_t len = readlink("/proc/self/exe", buf, cap - 1);
    if (len <= 0)
        return fallback;
    buf[len] = '\0';
    return buf;
}

/* Runs child under callgrind; who names it in errors (NULL: this program); quiet sends its
 * stdout to /dev/null. Returns its exit status, or 1 after one error line. */
static int counted(char **child, const char *who, int quiet)
{
    nb_valgrind_report rep;
    int rc, saved = -1, err;
    if (quiet) {
        int null = open("/dev/null", O_WRONLY);
        fflush(stdout);
        saved = dup(STDOUT_FILENO);
        if (null < 0 || saved < 0 || dup2(null, STDOUT_FILENO) < 0) {
            bench_error("-instructions: cannot redirect the counted run's table: %s",
                        strerror(errno));
            if (null >= 0)
                close(null);
            if (saved >= 0)
                close(saved);
            return BENCH_EXIT_ERROR;
        }
        close(null);
    }
    rc = nb_valgrind_run(child, NULL, &rep);
    err = errno;
    if (saved >= 0) {
        dup2(saved, STDOUT_FILENO);
        close(saved);
    }
    if (rc != 0) {
        if (err == ENOENT)
            bench_error("-instructions: valgrind is not installed (not found in PATH); it is "
                        "in the Debian package valgrind");
        else
            bench_error("-instructions: cannot run valgrind: %s", strerror(err));
        return BENCH_EXIT_ERROR;
    }
    if (!who)
        who = "this program";
    if (rep.signal) {
        if (rep.last[0])
            bench_error("-instructions: %s crashed under valgrind (signal %d, %s) after the "
                        "last counted epoch of '%s'; valgrind's report, if it made one, is "
                        "above", who, rep.signal, strsignal(rep.signal), rep.last);
        else
            bench_error("-instructions: %s crashed under valgrind (signal %d, %s) before any "
                        "benchmark was counted; valgrind's report, if it made one, is above",
                        who, rep.signal, strsignal(rep.signal));
        return BENCH_EXIT_ERROR;
    }
    if (rep.exit_status == 127 && rep.dumps == 0) {
        bench_error("-instructions: valgrind could not start %s", who);
        return BENCH_EXIT_ERROR;
    }
    if (rep.exit_status == 0 && rep.dumps == 0) {
        bench_error("-instructions: %s counted nothing under callgrind (built without "
                    "valgrind's client-request header?)", who);
        return BENCH_EXIT_ERROR;
    }
    return rep.exit_status;
}

int bench_instructions_run(int argc, char **argv)
{
    char self[PATH_CAP], **child;
    int i, n = 0, status;
    if (can_count() != 0)
        return BENCH_EXIT_ERROR;
    child = bb_malloc_array((size_t)argc + 1, sizeof *child);
    if (!child) {
        bench_error("-instructions: out of memory");
        return BENCH_EXIT_ERROR;
    }
    child[n++] = (char *)self_path(self, sizeof self, argv[0]);
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "-instructions") != 0 && strcmp(argv[i], "--instructions") != 0)
            child[n++] = argv[i];
    child[n] = NULL;
    status = counted(child, NULL, 0);
    bb_free(child);
    return status;
}

/* ---- -instructions -against ---- */

/* One benchmark's count: median instructions per unit. */
typedef struct {
    const char *name;
    const char *unit;
    double ins;
} count_row;

/* Reads an -output-json file's counts (results.h) into *rows (bb_free it; they point into
 * *file); 0, or -1 after one error line (who names the build that wrote it). */
static int load_counts(const char *path, const char *who, bench_results *file, count_row **rows,
                       size_t *n)
{
    char what[PATH_CAP + 64];
    size_t i;
    *rows = NULL;
    *n = 0;
    snprintf(what, sizeof what, "-instructions -against: the counts of %s", who);
    if (bench_results_load(path, what, file) != 0)
        return -1;
    if ((*rows = bb_malloc_array(file->count + 1, sizeof **rows)) == NULL) {
        bench_error("-instructions -against: out of memory");
        return -1;
    }
    for (i = 0; i < file->count; i++) {
        const bench_result_row *r = &file->rows[i];
        if (r->instructions < 0) {
            bench_error("-instructions -against: %s has no instruction count for '%s'", who,
                        r->name);
            return -1;
        }
        (*rows)[i].name = r->name;
        (*rows)[i].unit = r->unit;
        (*rows)[i].ins = r->instructions / r->batch;
    }
    *n = file->count;
    return 0;
}

/* The table's columns (nanobench.h's markdown writer). */
enum { COL_OTHER, COL_THIS, COL_CHANGE, COL_UNIT, COL_NAME, COLS };
static const nb_column columns[COLS] = {
    {"ins/unit, other", 18, NB_ALIGN_RIGHT, 0},
    {"ins/unit, this", 18, NB_ALIGN_RIGHT, 0},
    {"change", 11, NB_ALIGN_RIGHT, 0},
    {"unit", 5, NB_ALIGN_LEFT, 1},
    {"benchmark", 0, NB_ALIGN_LEFT, 1},
};

/* One row of the table. */
static void print_row(double other, double mine, double change, const char *unit,
                      const char *name)
{
    char cells[COL_UNIT][32];
    size_t i;
    snprintf(cells[COL_OTHER], sizeof cells[0], "%.2f", other);
    snprintf(cells[COL_THIS], sizeof cells[0], "%.2f", mine);
    snprintf(cells[COL_CHANGE], sizeof cells[0], "%+.2f%%", change);
    for (i = 0; i < COL_UNIT; i++)
        nb_markdown_cell(stdout, &columns[i], cells[i]);
    nb_markdown_cell(stdout, &columns[COL_UNIT], unit);
    nb_markdown_cell(stdout, &columns[COL_NAME], NULL);
    nb_markdown_code(stdout, name);
    putchar('\n');
}

/* Prints the table of both counts and returns how many rows regress past max_regression. */
static size_t print_table(const char *other, const count_row *mine, size_t nmine,
                          const count_row *theirs, size_t ntheirs, double max_regression,
                          char *regressed, size_t cap)
{
    size_t i, j, bad = 0, common = 0;
    putchar('\n');
    nb_markdown_header(stdout, columns, COLS);
    for (i = 0; i < nmine; i++) {
        double change;
        for (j = 0; j < ntheirs && strcmp(theirs[j].name, mine[i].name) != 0; j++)
            ;
        if (j == ntheirs || strcmp(theirs[j].unit, mine[i].unit) != 0) {
            fprintf(stderr, "-instructions -against: '%s' %s, left out\n", mine[i].name,
                    j == ntheirs ? "is not in the other build" : "has another unit there");
            continue;
        }
        common++;
        change = theirs[j].ins > 0 ? 100.0 * (mine[i].ins / theirs[j].ins - 1.0)
                                   : mine[i].ins > 0 ? INFINITY : 0.0;
        print_row(theirs[j].ins, mine[i].ins, change, mine[i].unit, mine[i].name);
        if (max_regression >= 0 && change > max_regression) {
            size_t len = strlen(regressed);
            snprintf(regressed + len, cap - len, "%s%s (%+.2f%%)", bad ? ", " : "",
                     mine[i].name, change);
            bad++;
        }
    }
    for (j = 0; j < ntheirs; j++) {
        for (i = 0; i < nmine && strcmp(theirs[j].name, mine[i].name) != 0; i++)
            ;
        if (i == nmine)
            fprintf(stderr, "-instructions -against: '%s' is only in %s, left out\n",
                    theirs[j].name, other);
    }
    if (common == 0)
        return (size_t)-1;
    return bad;
}

int bench_instructions_against(const char *other, const char *filter, double max_regression)
{
    char self[PATH_CAP], dir[PATH_CAP], mine_json[PATH_CAP + 16], their_json[PATH_CAP + 16];
    char filter_arg[PATH_CAP], out_mine[PATH_CAP + 32], out_theirs[PATH_CAP + 32];
    char regressed[2048] = "";
    char *child[4];
    const char *tmp = getenv("TMPDIR");
    count_row *mine = NULL, *theirs = NULL;
    bench_results mine_file = {NULL, 0, 0}, their_file = {NULL, 0, 0};
    size_t nmine = 0, ntheirs = 0, bad;
    int n = 0, status = 1;

    if (can_count() != 0)
        return BENCH_EXIT_ERROR;
    if (strchr(other, '/') && access(other, X_OK) != 0) {
        bench_error("-against: '%s' cannot be run: %s", other, strerror(errno));
        return BENCH_EXIT_ERROR;
    }
    if (!tmp || !*tmp)
        tmp = "/tmp";
    if ((size_t)snprintf(dir, sizeof dir, "%s/bench_bitcoin-counts.XXXXXX", tmp) >= sizeof dir
        || !mkdtemp(dir)) {
        bench_error("-instructions -against: cannot make a temporary directory in %s: %s", tmp,
                    strerror(errno));
        return BENCH_EXIT_ERROR;
    }
    snprintf(mine_json, sizeof mine_json, "%s/this.json", dir);
    snprintf(their_json, sizeof their_json, "%s/other.json", dir);
    snprintf(out_mine, sizeof out_mine, "-output-json=%s", mine_json);
    snprintf(out_theirs, sizeof out_theirs, "-output-json=%s", their_json);
    if (filter)
        snprintf(filter_arg, sizeof filter_arg, "-filter=%s", filter);

    /* The other build first: it is the one more likely to fail. */
    child[n++] = (char *)other;
    if (filter)
        child[n++] = filter_arg;
    child[n++] = out_theirs;
    child[n] = NULL;
    if (counted(child, other, 1) != 0)
        goto done;
    n = 0;
    child[n++] = (char *)self_path(self, sizeof self, PROG);
    if (filter)
        child[n++] = filter_arg;
    child[n++] = out_mine;
    child[n] = NULL;
    if (counted(child, "this build", 1) != 0)
        goto done;
    if (load_counts(their_json, other, &their_file, &theirs, &ntheirs) != 0
        || load_counts(mine_json, "this build", &mine_file, &mine, &nmine) != 0)
        goto done;
    bad = print_table(other, mine, nmine, theirs, ntheirs, max_regression, regressed,
                      sizeof regressed);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        bench_error("writing the table to stdout failed");
        goto done;
    }
    if (bad == (size_t)-1) {
        bench_error("-instructions -against: no benchmark in common with %s", other);
        goto done;
    }
    if (bad > 0) {
        bench_error("-max-regression=%g: %zu benchmark%s count%s more than %g%% more "
                    "instructions than in %s: %s", max_regression, bad, bad == 1 ? "" : "s",
                    bad == 1 ? "s" : "", max_regression, other, regressed);
        status = BENCH_EXIT_REGRESSION;
        goto done;
    }
    status = BENCH_EXIT_OK;
done:
    unlink(mine_json);
    unlink(their_json);
    rmdir(dir);
    bb_free(mine);
    bb_free(theirs);
    bench_results_free(&mine_file);
    bench_results_free(&their_file);
    return status;
}

int bench_mode_instructions(const bench_job *j)
{
    const bench_options *o = j->o;
    return o->against ? bench_instructions_against(o->against, o->filter, o->max_regression)
                      : bench_instructions_run(j->argc, j->argv);
}
