/* -filter's regular expression (see filter.h). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/bench.h"
#include "bench_bitcoin/filter.h"

#include <string.h>

/* Groups nested deeper than this are refused (regcomp has its own, larger, limit). */
#define MAX_DEPTH 64

/* One group being read: the heaviest finished item in it (over all its alternatives) and the
 * item a repetition operator would apply to (0: none yet), with where that item's last
 * repetition operator started (NULL: the item has none). Weights are copies asked for along
 * the heaviest nesting path: an atom weighs 1, a group its heaviest item. */
typedef struct {
    double max, last;
    const char *rep;
} group;

static void finish_item(group *g)
{
    if (g->last > g->max)
        g->max = g->last;
    g->last = 0;
    g->rep = NULL;
}

static void start_item(group *g, double weight)
{
    finish_item(g);
    g->last = weight;
}

/* The end of the bracket expression that starts at p ('['), as regcomp reads it: a ']' right
 * after "[" or "[^" is a member, and so is anything inside "[:...:]", "[.....]", "[=...=]". */
static const char *bracket_end(const char *p)
{
    const char *q = p + 1;
    if (*q == '^')
        q++;
    if (*q == ']')
        q++;
    while (*q && *q != ']') {
        if (*q == '[' && (q[1] == ':' || q[1] == '.' || q[1] == '=')) {
            const char *close = q + 2;
            while (*close && !(close[0] == q[1] && close[1] == ']'))
                close++;
            if (*close) {
                q = close + 2;
                continue;
            }
        }
        q++;
    }
    return *q ? q + 1 : q;
}

/* Reads a decimal number at *p (stopping to count past a billion); 1 if there were digits. */
static int number(const char **p, double *value)
{
    const char *s = *p;
    *value = 0;
    while (*s >= '0' && *s <= '9') {
        if (*value < 1e9)
            *value = *value * 10 + (*s - '0');
        s++;
    }
    if (s == *p)
        return 0;
    *p = s;
    return 1;
}

/* If p ('{') starts an interval "{m}", "{m,}", "{m,n}" or "{,n}", its end and the copies it
 * asks for; otherwise NULL (regcomp then reads the brace as it will). */
static const char *interval(const char *p, double *copies)
{
    double m = 0, n = 0;
    int has_m, has_n = 0, comma = 0;
    p++;
    has_m = number(&p, &m);
    if (*p == ',') {
        comma = 1;
        p++;
        has_n = number(&p, &n);
    }
    if (*p != '}' || (!has_m && !has_n))
        return NULL;
    *copies = !comma ? m : has_n ? n : m + 1;
    if (*copies < 1)
        *copies = 1;
    return p + 1;
}

/* 0 when pattern passes the screen, else -1 after saying why. */
static int screen(const char *pattern)
{
    group stack[MAX_DEPTH + 1], *g = stack;
    const char *p = pattern;
    memset(g, 0, sizeof *g);
    while (*p) {
        const char *end = p + 1;
        double copies = 0;
        switch (*p) {
        case '\\':
            if (p[1])
                end = p + 2;
            start_item(g, 1);
            break;
        case '[':
            end = bracket_end(p);
            start_item(g, 1);
            break;
        case '(':
            if (g == stack + MAX_DEPTH) {
                bench_error("-filter: '%s' nests groups more than %d deep", pattern, MAX_DEPTH);
                return -1;
            }
            memset(++g, 0, sizeof *g);
            break;
        case ')':
            if (g == stack) {
                start_item(g, 1); /* unmatched: regcomp decides */
            } else {
                double weight;
                finish_item(g);
                weight = g->max > 1 ? g->max : 1;
                start_item(--g, weight);
            }
            break;
        case '|':
            finish_item(g);
            break;
        case '*':
        case '+':
            copies = 2;
            break;
        case '?':
            copies = 1;
            break;
        case '{':
            end = interval(p, &copies);
            if (!end) {
                end = p + 1;
                start_item(g, 1);
            }
            break;
        default:
            start_item(g, 1);
            break;
        }
        if (copies > 0) {
            if (g->rep) {
                bench_error("-filter: '%s' has two repetition operators in a row ('%.*s'), "
                            "which POSIX leaves undefined", pattern, (int)(end - g->rep), g->rep);
                return -1;
            }
            if (g->last == 0) {
                start_item(g, 1); /* nothing to repeat: regcomp decides */
            } else {
                g->last *= copies;
                g->rep = p;
                if (g->last > FILTER_MAX_REPEAT) {
                    bench_error("-filter: '%s' repeats too much (nested or large repetitions "
                                "multiply past %d copies; the regex library would take "
                                "exponential time to compile it)", pattern, FILTER_MAX_REPEAT);
                    return -1;
                }
            }
        }
        p = end;
    }
    return 0;
}

int filter_compile(regex_t *re, const char *pattern, int flags)
{
    char msg[256];
    int rc;
    if (screen(pattern) != 0)
        return -1;
    /* zeroed: regerror is given re after a failed regcomp, which need not have written it
     * (MemorySanitizer checks) */
    memset(re, 0, sizeof *re);
    rc = regcomp(re, pattern, REG_EXTENDED | flags);
    if (rc == 0)
        return 0;
    if (rc == REG_ESPACE) {
        bench_error("-filter: out of memory compiling '%s'", pattern);
        return -1;
    }
    regerror(rc, re, msg, sizeof msg);
    bench_error("-filter: invalid regular expression '%s': %s", pattern, msg);
    return -1;
}

int filter_match(const regex_t *re, const char *pattern, const char *name)
{
    /* POSIX regexec finds the leftmost-longest match, so a match of the whole name exists
     * exactly when the one returned starts at 0 and ends at the end: no rewriting of the
     * user's pattern into "^(...)$". */
    regmatch_t m;
    int rc = regexec(re, name, 1, &m, 0);
    if (rc == REG_NOMATCH)
        return 0;
    if (rc != 0) {
        bench_error("-filter: out of memory while matching '%s'", pattern);
        return -1;
    }
    return m.rm_so == 0 && (size_t)m.rm_eo == strlen(name);
}
