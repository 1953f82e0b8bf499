/* bench_bitcoin's output files (-output-csv, -output-json).
 *
 * An output file. The target's symbolic links are resolved first, so that the file written is
 * the one they point to. A regular file (or a new one) is written as a temporary beside it,
 * created up front (so an unwritable place fails before anything runs) and renamed over it at
 * the end: readers see the old file or the whole new one. A character device or a FIFO
 * (/dev/null, a pipe to another program) cannot be replaced: it is written in place at the
 * end, appended to; so is whatever one of the process's own descriptors names (/dev/stdout,
 * /dev/fd/N), which the shell may have opened on a regular file. */
#ifndef BENCH_BITCOIN_OUTFILE_H
#define BENCH_BITCOIN_OUTFILE_H

#include "bench/nanobench.h"

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
    FILE *f;
} out_file;

/* Resolves o->target (set by the caller, with o->option for messages) into o->path, o->exists
 * and o->st, and checks that it can be written; 0, or -1 after one error line on stderr.
 * Creates nothing. */
int out_resolve(out_file *o);

/* 1 when a and b (both resolved) are the same file, one output replacing the other; the same
 * character device (/dev/null twice) is not. */
int out_same(const out_file *a, const out_file *b);

/* Creates o's temporary file beside the resolved target (nothing for a device or FIFO, which
 * out_render opens); 0, or -1 after one error line. From the first call on, the temporaries
 * are removed at exit and on SIGINT, SIGTERM, SIGHUP and SIGPIPE unless committed. o must
 * stay valid until the program ends (static storage). */
int out_open(out_file *o);

/* Renders tmpl over b's results into o and closes it; 0, or -1 after one error line. */
int out_render(out_file *o, const char *tmpl, const nb_bench *b);

/* Renames o's temporary over the target (nothing for a device or FIFO); 0, or -1 after one
 * error line. */
int out_commit(out_file *o);

/* Closes o, removes its temporary if it still has one and frees what o holds; o can then be
 * resolved again. Safe on an o that was never opened. */
void out_release(out_file *o);

#endif
