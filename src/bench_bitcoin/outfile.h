/* bench_bitcoin's output files (-output-csv, -output-json).
 *
 * An output file. The target's symbolic links are resolved first, so that the file written is
 * the one they point to. A regular file (or a new one) is written as a temporary beside it,
 * created up front (so an unwritable place fails before anything runs) and renamed over it at
 * the end: readers see the old file or the whole new one; with two files, a failed second
 * rename undoes the first. A character device or a FIFO (/dev/null, a pipe to another
 * program) cannot be replaced: it is opened before the run (a FIFO nobody reads is an error,
 * not a hang) and appended to at the end; so is whatever one of the process's own descriptors
 * names (/dev/stdout, /dev/fd/N), which the shell may have opened on a regular file, opened
 * only at the end. */
#ifndef BENCH_BITCOIN_OUTFILE_H
#define BENCH_BITCOIN_OUTFILE_H

#include "bench/nanobench.h"

#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>

typedef struct {
    const char *option;      /* "-output-csv", for messages */
    const char *target;      /* as given */
    char *path;              /* target with every symbolic link resolved */
    int exists;
    struct stat st;          /* path's, when it exists */
    int direct;              /* a device, FIFO or own descriptor: written in place */
    int own;                 /* one of the process's descriptors (/dev/stdout, ...) */
    char *tmp;               /* NULL once renamed or removed */
    char *old;               /* while committing: a second link to the file replaced */
    volatile sig_atomic_t renamed; /* tmp was renamed over path (rolled back on failure) */
    FILE *f;
} out_file;

/* Resolves o->target (set by the caller, with o->option for messages) into o->path, o->exists
 * and o->st, and checks that it can be written; 0, or -1 after one error line on stderr.
 * Creates nothing. */
int bench_out_resolve(out_file *o);

/* 1 when a and b (both resolved) are the same file, one output replacing the other; the same
 * character device (/dev/null twice) is not. */
int bench_out_same(const out_file *a, const out_file *b);

/* Creates o's temporary file beside the resolved target; for a device or FIFO, opens it when
 * writing is 1 (with writing 0, for -list, only the checks are made). 0, or -1 after one
 * error line. From the first call on, the temporaries are removed at exit and on SIGINT,
 * SIGTERM, SIGHUP and SIGPIPE unless committed. o must stay valid until the program ends
 * (static storage). */
int bench_out_open(out_file *o, int writing);

/* Renders tmpl over b's results into o and closes it; 0, or -1 after one error line. */
int bench_out_render(out_file *o, const char *tmpl, const nb_bench *b);

/* Writes the len bytes at text into o and closes it; 0, or -1 after one error line. */
int bench_out_write(out_file *o, const char *text, size_t len);

/* Renames the temporaries of files[0 .. n) (those with a target) over their targets, all or
 * none: when one rename fails, the ones before it are undone (a replaced file comes back
 * through a second link made first; a new one is removed). Devices and FIFOs were written in
 * place already. 0, or -1 after one error line. */
int bench_out_commit_all(out_file *files, size_t n);

/* Closes o, removes its temporary if it still has one and frees what o holds; o can then be
 * resolved again. Safe on an o that was never opened. */
void bench_out_release(out_file *o);

#endif
