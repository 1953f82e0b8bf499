/* cluster-linearize: reads one cluster from standard input, one transaction a line,
 * "FEE SIZE [PARENT ...]" (PARENT: the 0-based index of an earlier line), and prints an
 * optimal linearization on one line, then each of its chunks as "FEE SIZE". Bad input: one
 * line on stderr naming the input line, exit 2. doc/cluster-linearize.1 is the manual. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster.h"

static const char *prog = "cluster-linearize";

typedef struct {
    int64_t fee;
    int32_t size;
    unsigned first_parent, n_parents; /* into the parents array */
} input_tx;

typedef struct {
    input_tx tx[CLUSTER_MAX_TX];
    unsigned *parents;
    size_t n_parents, cap_parents;
    unsigned n;
    int64_t total_size;
} input;

static void usage(FILE *f)
{
    fprintf(f, "Usage: %s < CLUSTER\n"
               "Reads one transaction a line, FEE SIZE [PARENT ...] (whole numbers; each\n"
               "PARENT the 0-based index of an earlier line), and prints an optimal\n"
               "linearization (indices on one line), then one FEE SIZE line per chunk, best\n"
               "first. At most %d lines.\n"
               "  -h, -help, --help  this text\n",
            prog, CLUSTER_MAX_TX);
}

/* Reads a whole number (an optional '-' when neg_ok) from *p, skipping blanks before it: 1
 * with *v set, 0 at the end of the line, -1 when what is there is not a number in
 * [-max, max] (*bad then points at it). */
static int next_number(char **p, int neg_ok, int64_t max, int64_t *v, char **bad)
{
    char *s = *p, *start;
    int neg = 0;
    int64_t x = 0;
    while (*s == ' ' || *s == '\t' || *s == '\r')
        s++;
    if (*s == '\0' || *s == '\n')
        return 0;
    start = s;
    if (*s == '-' && neg_ok) {
        neg = 1;
        s++;
    }
    if (*s < '0' || *s > '9')
        goto bad_number;
    while (*s >= '0' && *s <= '9') {
        int d = *s++ - '0';
        if (x > (max - d) / 10)
            goto bad_number;
        x = x * 10 + d;
    }
    if (*s != '\0' && *s != '\n' && *s != ' ' && *s != '\t' && *s != '\r')
        goto bad_number;
    *v = neg ? -x : x;
    *p = s;
    return 1;
bad_number:
    *bad = start;
    return -1;
}

/* The token at s, cut at the first blank, for an error message (at most 40 bytes). */
static const char *token(const char *s, char *buf, size_t cap)
{
    size_t n = 0;
    while (s[n] && s[n] != ' ' && s[n] != '\t' && s[n] != '\r' && s[n] != '\n' && n + 1 < cap)
        n++;
    memcpy(buf, s, n);
    buf[n] = '\0';
    return buf;
}

/* Parses one line into in; returns 0, or -1 after the one error line. */
static int parse_line(input *in, char *line, unsigned long lineno)
{
    char *p = line, *bad = NULL, tok[41];
    int64_t fee, size, parent;
    input_tx *t;
    int r;
    if (in->n == CLUSTER_MAX_TX) {
        fprintf(stderr, "%s: line %lu: more than %d transactions\n", prog, lineno,
                CLUSTER_MAX_TX);
        return -1;
    }
    t = &in->tx[in->n];
    r = next_number(&p, 1, CLUSTER_MAX_FEE, &fee, &bad);
    if (r == 0) {
        fprintf(stderr, "%s: line %lu: empty; expected FEE SIZE [PARENT ...]\n", prog, lineno);
        return -1;
    }
    if (r < 0) {
        fprintf(stderr, "%s: line %lu: fee '%s' is not a whole number from -%lld to %lld\n",
                prog, lineno, token(bad, tok, sizeof(tok)), (long long)CLUSTER_MAX_FEE,
                (long long)CLUSTER_MAX_FEE);
        return -1;
    }
    r = next_number(&p, 0, INT32_MAX, &size, &bad);
    if (r == 0) {
        fprintf(stderr, "%s: line %lu: no size; expected FEE SIZE [PARENT ...]\n", prog,
                lineno);
        return -1;
    }
    if (r < 0 || size < 1) {
        fprintf(stderr, "%s: line %lu: size '%s' is not a whole number from 1 to %d\n", prog,
                lineno, r < 0 ? token(bad, tok, sizeof(tok)) : "0", INT32_MAX);
        return -1;
    }
    if (in->total_size + size > INT32_MAX) {
        fprintf(stderr, "%s: line %lu: the sizes add up past %d\n", prog, lineno, INT32_MAX);
        return -1;
    }
    t->fee = fee;
    t->size = (int32_t)size;
    t->first_parent = (unsigned)in->n_parents;
    t->n_parents = 0;
    while ((r = next_number(&p, 0, INT32_MAX, &parent, &bad)) != 0) {
        if (r < 0) {
            fprintf(stderr, "%s: line %lu: parent '%s' is not a whole number\n", prog, lineno,
                    token(bad, tok, sizeof(tok)));
            return -1;
        }
        if (parent >= (int64_t)in->n) {
            fprintf(stderr, "%s: line %lu: parent %lld is not the index of an earlier line\n",
                    prog, lineno, (long long)parent);
            return -1;
        }
        if (in->n_parents == in->cap_parents) {
            size_t c = in->cap_parents ? in->cap_parents * 2 : 256;
            unsigned *np = realloc(in->parents, c * sizeof(unsigned));
            if (np == NULL) {
                fprintf(stderr, "%s: line %lu: out of memory\n", prog, lineno);
                return -1;
            }
            in->parents = np;
            in->cap_parents = c;
        }
        in->parents[in->n_parents++] = (unsigned)parent;
        t->n_parents++;
    }
    in->total_size += size;
    in->n++;
    return 0;
}

int main(int argc, char **argv)
{
    static input in;
    char *line = NULL;
    size_t cap = 0, nchunks, i;
    unsigned long lineno = 0;
    unsigned *lin = NULL;
    cluster_feefrac *chunks = NULL;
    cluster_graph *g = NULL;
    int rc = 2;
    if (argc > 1) {
        if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "-help") == 0 ||
                          strcmp(argv[1], "--help") == 0)) {
            usage(stdout);
            return 0;
        }
        fprintf(stderr, "%s: unknown argument '%s' (the cluster comes on standard input; -h "
                        "for help)\n", prog, argv[1]);
        return 2;
    }
    for (;;) {
        ssize_t got;
        errno = 0;
        got = getline(&line, &cap, stdin);
        if (got < 0)
            break;
        lineno++;
        if (memchr(line, '\0', (size_t)got) != NULL) {
            fprintf(stderr, "%s: line %lu: contains a NUL byte\n", prog, lineno);
            goto done;
        }
        if (parse_line(&in, line, lineno) != 0)
            goto done;
    }
    if (ferror(stdin)) {
        fprintf(stderr, "%s: cannot read standard input: %s\n", prog,
                errno ? strerror(errno) : "read error");
        goto done;
    }
    if ((g = cluster_graph_new(in.n ? in.n : 1)) == NULL ||
        (lin = malloc((in.n ? in.n : 1) * sizeof(unsigned))) == NULL ||
        (chunks = malloc((in.n ? in.n : 1) * sizeof(cluster_feefrac))) == NULL) {
        fprintf(stderr, "%s: out of memory\n", prog);
        goto done;
    }
    for (i = 0; i < in.n; i++) {
        unsigned k;
        cluster_graph_add(g, in.tx[i].fee, in.tx[i].size);
        for (k = 0; k < in.tx[i].n_parents; k++)
            cluster_graph_add_dependency(g, in.parents[in.tx[i].first_parent + k], (unsigned)i);
    }
    if (cluster_linearize(g, UINT64_MAX, 0, NULL, lin, NULL) != 0) {
        fprintf(stderr, "%s: out of memory\n", prog);
        goto done;
    }
    for (i = 0; i < in.n; i++)
        printf(i ? " %u" : "%u", lin[i]);
    putchar('\n');
    nchunks = cluster_chunk(g, lin, chunks);
    for (i = 0; i < nchunks; i++)
        printf("%lld %ld\n", (long long)chunks[i].fee, (long)chunks[i].size);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "%s: cannot write the result: %s\n", prog, strerror(errno));
        goto done;
    }
    rc = 0;
done:
    free(line);
    free(in.parents);
    free(lin);
    free(chunks);
    cluster_graph_free(g);
    return rc;
}
