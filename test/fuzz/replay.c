/* Runs a fuzz target (linked in) over inputs without libFuzzer: every file of each directory
 * given, or each file given; with no argument, the target's committed corpus,
 * $top_srcdir/test/fuzz/corpus/<name>, where <name> is this program's file name (test/fuzz/hash
 * replays corpus/hash). make check runs it that way; a finding stops the program (abort, or a
 * sanitizer's report) after it has named the input.
 *
 * Exit status: 0 when every input ran, 99 when an input could not be read or there was none. */
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PROG_MAX_PATH 4096

static const char *prog = "replay";

/* Runs the target over the file at path: 0, or -1 after a line on stderr. The input gets a
 * buffer of exactly its size, so that AddressSanitizer sees a read past its end. */
static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long len;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0
        || !(buf = malloc(len ? (size_t)len : 1))
        || (len && fread(buf, 1, (size_t)len, f) != (size_t)len)) {
        fprintf(stderr, "%s: cannot read '%s': %s\n", prog, path,
                errno ? strerror(errno) : "short read");
        if (f)
            fclose(f);
        free(buf);
        return -1;
    }
    fclose(f);
    fprintf(stderr, "%s: %s (%ld bytes)\n", prog, path, len);
    LLVMFuzzerTestOneInput(buf, (size_t)len);
    free(buf);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs every regular file of dir, in name order; adds their number to *count. 0 or -1. */
static int run_dir(const char *dir, size_t *count)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL, path[PROG_MAX_PATH];
    size_t n = 0, cap = 0, i;
    int rc = 0;
    if (!d) {
        fprintf(stderr, "%s: cannot open '%s': %s\n", prog, dir, strerror(errno));
        return -1;
    }
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (n == cap) {
            char **grown = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names);
            if (!grown) {
                rc = -1;
                break;
            }
            names = grown;
        }
        if (!(names[n] = malloc(strlen(path) + 1))) {
            rc = -1;
            break;
        }
        strcpy(names[n++], path);
    }
    closedir(d);
    if (rc != 0)
        fprintf(stderr, "%s: out of memory\n", prog);
    if (n)
        qsort(names, n, sizeof *names, by_name);
    for (i = 0; i < n; i++) {
        if (rc == 0 && run_file(names[i]) != 0)
            rc = -1;
        free(names[i]);
    }
    free(names);
    *count += n;
    return rc;
}

int main(int argc, char **argv)
{
    const char *slash, *name, *top = getenv("top_srcdir");
    char dir[PROG_MAX_PATH];
    size_t count = 0;
    int i;

    prog = argv[0];
    slash = strrchr(argv[0], '/');
    name = slash ? slash + 1 : argv[0];
    if (strncmp(name, "lt-", 3) == 0) /* a libtool wrapper's copy */
        name += 3;
    if (argc < 2) {
        snprintf(dir, sizeof dir, "%s/test/fuzz/corpus/%s", top && *top ? top : ".", name);
        if (run_dir(dir, &count) != 0)
            return 99;
    }
    for (i = 1; i < argc; i++) {
        struct stat st;
        int rc;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            rc = run_dir(argv[i], &count);
        } else {
            rc = run_file(argv[i]);
            count++;
        }
        if (rc != 0)
            return 99;
    }
    if (count == 0) {
        fprintf(stderr, "%s: no input to run\n", prog);
        return 99;
    }
    printf("%s: %zu inputs ran\n", prog, count);
    return 0;
}
