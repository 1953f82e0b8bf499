/* bench_bitcoin's command line (options.h) and its error line. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/options.h"

#include "bench_bitcoin/bench.h"
#include "bench_bitcoin/filter.h"
#include "bench_bitcoin/outfile.h"
#include "util/alloc.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "bench_bitcoin"

static char *capture_buf;
static size_t capture_size;

void bench_error_capture(char *buf, size_t size)
{
    capture_buf = size > 0 ? buf : NULL;
    capture_size = size;
    if (capture_buf)
        capture_buf[0] = '\0';
}

/* Appends s to the captured line, or writes it on stderr. */
static void error_put(const char *s)
{
    if (capture_buf) {
        size_t used = strlen(capture_buf), len = strlen(s);
        if (len > capture_size - 1 - used)
            len = capture_size - 1 - used;
        memcpy(capture_buf + used, s, len);
        capture_buf[used + len] = '\0';
    } else {
        fputs(s, stderr);
    }
}

/* One line, whatever the user's values hold: control characters (a newline in a -filter
 * value) are written as escapes, \n, \t, \r or \xHH. */
void bench_error(const char *fmt, ...)
{
    char small[512], *msg = small;
    const unsigned char *p;
    va_list ap;
    int len;

    va_start(ap, fmt);
    len = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (len >= (int)sizeof small && (msg = bb_malloc((size_t)len + 1)) != NULL) {
        va_start(ap, fmt);
        vsnprintf(msg, (size_t)len + 1, fmt, ap);
        va_end(ap);
    }
    if (!msg)
        msg = small;   /* out of memory: the message cut short */
    error_put(PROG ": ");
    for (p = (const unsigned char *)msg; len > 0 && *p; p++) {
        char one[8];
        if (*p == '\n')
            strcpy(one, "\\n");
        else if (*p == '\t')
            strcpy(one, "\\t");
        else if (*p == '\r')
            strcpy(one, "\\r");
        else if (*p < 0x20 || *p == 0x7f)
            snprintf(one, sizeof one, "\\x%02x", *p);
        else {
            one[0] = (char)*p;
            one[1] = '\0';
        }
        error_put(one);
    }
    if (!capture_buf)
        fputc('\n', stderr);
    if (msg != small)
        bb_free(msg);
}

void bench_out_of_memory(const char *name)
{
    bench_error("%s: out of memory", name);
    exit(1);   /* the temporary output files are removed by an atexit handler (outfile.c) */
}

/* The len characters at s as a number in plain decimal notation ("12", "0.5", "1e3"): no
 * sign, space, hex, inf or nan. 0 and *value set; -1 when it is no such number; -2 when it
 * is too large for a double. A value too small for one (1e-400) is taken as what strtod
 * rounds it to (0 or nearly). */
static int parse_decimal(const char *s, size_t len, double *value)
{
    static const char chars[] = "0123456789.eE+-";
    char *end;
    double v;
    size_t i;
    if (len == 0 || !((*s >= '0' && *s <= '9') || *s == '.'))
        return -1;
    for (i = 0; i < len; i++)
        if (!s[i] || !strchr(chars, s[i]))
            return -1;
    errno = 0;
    v = strtod(s, &end);
    if (end != s + len)
        return -1;
    if (!isfinite(v) || (errno == ERANGE && v > 1.0))
        return -2;
    *value = v;
    return 0;
}

/* -asymptote's n1,n2,...: whole numbers from 1 to BENCH_MAX_COMPLEXITY_N. */
static int parse_asymptote(const char *value, bench_options *o)
{
    size_t count = 1, i = 0;
    const char *p;

    for (p = value; *p; p++)
        count += *p == ',';
    o->asymptote = bb_malloc_array(count, sizeof *o->asymptote);
    if (!o->asymptote) {
        bench_error("-asymptote: out of memory");
        return -1;
    }
    o->asymptote_count = count;
    for (p = value;; i++) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        double *n = &o->asymptote[i];
        int rc;
        if (len == 0) {
            bench_error("-asymptote: empty item in '%s' (expected n1,n2,... of whole numbers "
                       ">= 1)", value);
            return -1;
        }
        rc = parse_decimal(p, len, n);
        if (rc == 0 && *n > BENCH_MAX_COMPLEXITY_N)
            rc = -2;
        if (rc == -2) {
            bench_error("-asymptote: '%.*s' is above the maximum %d (ComplexMemPool's child "
                       "transactions; its memory grows with n^2)", (int)len, p,
                       BENCH_MAX_COMPLEXITY_N);
            return -1;
        }
        /* Whole numbers: the one benchmark that reads n counts transactions with it, and a
         * row's complexityN must be the n it ran (1.9 would run 1 and be fitted as 1.9). */
        if (rc != 0 || !(*n >= 1) || *n != floor(*n)) {
            bench_error("-asymptote: '%.*s' is not a whole number >= 1", (int)len, p);
            return -1;
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    return 0;
}

/* -priority-level's l1,l2,...: each one of high, medium, low, all (Core's names), into the
 * bits of bench_priority. */
static int parse_priority(const char *value, bench_options *o)
{
    static const struct {
        const char *name;
        unsigned bits;
    } levels[] = {
        {"high", BENCH_PRIORITY_HIGH},
        {"medium", BENCH_PRIORITY_MEDIUM},
        {"low", BENCH_PRIORITY_LOW},
        {"all", BENCH_PRIORITY_ALL},
    };
    const char *p = value;
    unsigned bits = 0;

    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p), k;
        for (k = 0; k < sizeof levels / sizeof levels[0]; k++)
            if (strlen(levels[k].name) == len && memcmp(levels[k].name, p, len) == 0)
                break;
        if (k == sizeof levels / sizeof levels[0]) {
            if (len == 0)
                bench_error("-priority-level: empty item in '%s' (expected levels among high, "
                           "medium, low, all, separated by commas)", value);
            else
                bench_error("-priority-level: unknown level '%.*s' (expected high, medium, "
                           "low or all)", (int)len, p);
            return -1;
        }
        bits |= levels[k].bits;
        if (!comma)
            break;
        p = comma + 1;
    }
    o->priority = bits;
    o->priority_text = value;
    return 0;
}

/* Options that exclude or need each other; 0, or -1 after one error line. */
static int check_combinations(const bench_options *o)
{
    /* -instructions -against compares the two builds' counts (instructions.h). */
    if (o->against && (o->compare || o->asymptote_count || o->sanity_check || o->baseline
                       || o->output_csv || o->output_json || o->output_gbench
                       || o->output_html)) {
        bench_error("-against cannot be combined with %s (it compares whole builds, "
                    "benchmark by benchmark, and writes only its table)",
                    o->compare ? "-compare" : o->asymptote_count ? "-asymptote"
                    : o->sanity_check ? "-sanity-check" : o->baseline ? "-baseline"
                    : o->output_csv ? "-output-csv" : o->output_json ? "-output-json"
                    : o->output_gbench ? "-output-gbench" : "-output-html");
        return -1;
    }
    if (o->baseline && (o->compare || o->asymptote_count || o->sanity_check
                        || o->instructions)) {
        bench_error("-baseline cannot be combined with %s (it compares each benchmark's "
                    "plain run with the file's)", o->compare ? "-compare"
                    : o->asymptote_count ? "-asymptote" : o->sanity_check ? "-sanity-check"
                    : "-instructions");
        return -1;
    }
    if (o->max_regression >= 0 && !o->against && !o->baseline) {
        bench_error("-max-regression needs -against=<bench_bitcoin> or -baseline=<file> (it "
                    "judges their comparison)");
        return -1;
    }
    return 0;
}

int bench_parse_options(int argc, char **argv, bench_options *o)
{
    int i;
    for (i = 1; i < argc; i++) {
        const char *arg = argv[i], *key, *eq, *value;
        size_t key_len;
        if (arg[0] != '-') {
            bench_error("unexpected argument '%s' (options start with '-'; see -help)", arg);
            return -1;
        }
        key = arg + 1 + (arg[1] == '-');
        eq = strchr(key, '=');
        key_len = eq ? (size_t)(eq - key) : strlen(key);
        value = eq ? eq + 1 : NULL;
#define IS(name) (key_len == sizeof(name) - 1 && memcmp(key, name, key_len) == 0)
        if (IS("list") || IS("sanity-check") || IS("compare") || IS("no-pin") || IS("help")
            || IS("h") || IS("?") || IS("instructions")) {
            if (value) {
                bench_error("-%.*s takes no value (got '%s')", (int)key_len, key, arg);
                return -1;
            }
            if (IS("list"))
                o->list = 1;
            else if (IS("sanity-check"))
                o->sanity_check = 1;
            else if (IS("compare"))
                o->compare = 1;
            else if (IS("no-pin"))
                o->no_pin = 1;
            else if (IS("instructions"))
                o->instructions = 1;
            else
                o->help = 1;
            continue;
        }
        if (!(IS("filter") || IS("asymptote") || IS("min-time") || IS("output-csv")
              || IS("output-json") || IS("output-gbench") || IS("output-html") || IS("against")
              || IS("baseline") || IS("max-regression") || IS("serve-protocol")
              || IS("priority-level"))) {
            bench_error("unknown option '%s' (see -help)", arg);
            return -1;
        }
        if (!value) {
            bench_error("-%.*s needs a value: -%.*s=...", (int)key_len, key, (int)key_len, key);
            return -1;
        }
        if (IS("filter")) {
            /* Checked here, every occurrence: a bad value is an error even when a later
             * -filter replaces it, as for the numeric options. */
            size_t total, k;
            const bench_row *all = bench_rows(&total);
            const char **names = bb_malloc_array(total ? total : 1, sizeof *names);
            int rc;
            if (!o->match)
                o->match = bb_malloc_array(total ? total : 1, 1);
            if (!o->match || !names) {
                bb_free(names);
                bench_error("-filter: out of memory");
                return -1;
            }
            for (k = 0; k < total; k++)
                names[k] = all[k].name;
            rc = filter_select(value, names, total, o->match);
            bb_free(names);
            if (rc != 0)
                return -1;
            o->filter = value;
        } else if (IS("asymptote")) {
            bb_free(o->asymptote);
            o->asymptote = NULL;
            o->asymptote_count = 0;
            if (parse_asymptote(value, o) != 0)
                return -1;
        } else if (IS("priority-level")) {
            if (parse_priority(value, o) != 0)
                return -1;
        } else if (IS("min-time")) {
            double ms;
            int rc = parse_decimal(value, strlen(value), &ms);
            if (rc == -1) {
                bench_error("-min-time: '%s' is not a number of milliseconds (>= 0)", value);
                return -1;
            }
            if (rc != 0 || ms * 1e6 > BENCH_MAX_MIN_TIME_NS) {
                bench_error("-min-time: '%s' milliseconds is too long", value);
                return -1;
            }
            o->min_time_ns = ms * 1e6;
            o->min_time_given = 1;
        } else if (IS("max-regression")) {
            double pct;
            if (parse_decimal(value, strlen(value), &pct) != 0 || pct > 1e6) {
                bench_error("-max-regression: '%s' is not a percentage (a number >= 0, such "
                            "as 5 for 5%%)", value);
                return -1;
            }
            o->max_regression = pct;
        } else if (IS("serve-protocol")) {
            o->serve = value;
        } else if (value[0] == '\0') {
            bench_error("-%.*s needs a file name", (int)key_len, key);
            return -1;
        } else if (IS("against")) {
            o->against = value;     /* checked when it is started: it may be built meanwhile */
        } else if (IS("baseline")) {
            o->baseline = value;    /* read before anything runs */
        } else {
            /* Checked here too, every occurrence, as -filter is: main resolves (and opens)
             * only the last value of each. */
            out_file probe;
            int rc;
            memset(&probe, 0, sizeof probe);
            probe.option = IS("output-csv") ? "-output-csv" : IS("output-json") ? "-output-json"
                           : IS("output-gbench") ? "-output-gbench" : "-output-html";
            probe.target = value;
            rc = out_resolve(&probe);
            out_release(&probe);
            if (rc != 0)
                return -1;
            if (IS("output-csv"))
                o->output_csv = value;
            else if (IS("output-json"))
                o->output_json = value;
            else if (IS("output-gbench"))
                o->output_gbench = value;
            else
                o->output_html = value;
        }
#undef IS
    }
    if (o->compare && o->asymptote_count) {
        bench_error("-compare cannot be combined with -asymptote (it compares implementations "
                   "at the benchmarks' own sizes)");
        return -1;
    }
    if (o->compare && o->instructions) {
        bench_error("-compare cannot be combined with -instructions (it times its rows "
                   "against each other; callgrind sees none of its epochs)");
        return -1;
    }
    return check_combinations(o);
}

void bench_options_init(bench_options *o)
{
    memset(o, 0, sizeof *o);
    o->min_time_ns = BENCH_DEFAULT_MIN_TIME_MS * 1e6;
    o->max_regression = -1;
    o->priority = BENCH_PRIORITY_ALL;
}

void bench_options_free(bench_options *o)
{
    bb_free(o->asymptote);
    bb_free(o->match);
    o->asymptote = NULL;
    o->asymptote_count = 0;
    o->match = NULL;
}
