/* bench_bitcoin's command line (options.h): the table of options, their handlers, the parser
 * that walks the table and -help that prints it. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/options.h"

#include "bench_bitcoin/bench.h"
#include "bench_bitcoin/filter.h"
#include "bench_bitcoin/outfile.h"
#include "bench_bitcoin/outputs.h"
#include "util/alloc.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    const char *out = NULL;
    int i;
    /* -against writes its table, and -output-json when timed (against_json.h): the first
     * other output file is out */
    for (i = 0; i < BENCH_OUTPUT_COUNT && !out; i++)
        if (o->output[i] && (i != BENCH_OUTPUT_JSON || o->instructions))
            out = bench_output_option(i);
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
    /* -instructions -against compares the two builds' counts (instructions.h). */
    if (o->against && (o->compare || o->asymptote_count || o->sanity_check || o->baseline
                       || out)) {
        bench_error("-against cannot be combined with %s (it compares whole builds, "
                    "benchmark by benchmark, and writes its table and -output-json only)",
                    o->compare ? "-compare" : o->asymptote_count ? "-asymptote"
                    : o->sanity_check ? "-sanity-check" : o->baseline ? "-baseline" : out);
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
    if (o->equivalence_given && (!o->against || o->instructions)) {
        bench_error("-equivalence needs -against=<bench_bitcoin> without -instructions (it "
                    "bounds a timed comparison's interval)");
        return -1;
    }
    if (o->max_regression >= 0 && !o->against && !o->baseline) {
        bench_error("-max-regression needs -against=<bench_bitcoin> or -baseline=<file> (it "
                    "judges their comparison)");
        return -1;
    }
    return 0;
}

/* ---- the handlers: one per option, each checking its value where it appears ---- */

static int set_serve(bench_options *o, const char *v)
{
    o->serve = v;
    return 0;
}

/* Checked here, every occurrence: a bad value is an error even when a later -filter replaces
 * it, as for the numeric options. */
static int set_filter(bench_options *o, const char *value)
{
    size_t total, k;
    const bench_row *all = bench_rows(&total);
    const char **names = bb_malloc_array(total ? total : 1, sizeof *names);
    char hint[BENCH_FILTER_HINT_MAX];
    int rc;
    if (!o->match)
        o->match = bb_malloc_array(total ? total : 1, 1);
    if (!o->filter_hint)
        o->filter_hint = bb_malloc(sizeof hint);
    if (!o->match || !o->filter_hint || !names) {
        bb_free(names);
        bench_error("-filter: out of memory");
        return -1;
    }
    for (k = 0; k < total; k++)
        names[k] = all[k].name;
    rc = bench_filter_select(value, names, total, o->match, hint, sizeof hint);
    bb_free(names);
    if (rc != 0)
        return -1;
    memcpy(o->filter_hint, hint, sizeof hint);
    o->filter = value;
    return 0;
}

static int set_asymptote(bench_options *o, const char *value)
{
    bb_free(o->asymptote);
    o->asymptote = NULL;
    o->asymptote_count = 0;
    return parse_asymptote(value, o);
}

static int set_priority(bench_options *o, const char *value)
{
    return parse_priority(value, o);
}

static int set_min_time(bench_options *o, const char *value)
{
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
    return 0;
}

static int set_max_regression(bench_options *o, const char *value)
{
    double pct;
    if (parse_decimal(value, strlen(value), &pct) != 0 || pct > 1e6) {
        bench_error("-max-regression: '%s' is not a percentage (a number >= 0, such as 5 for "
                    "5%%)", value);
        return -1;
    }
    o->max_regression = pct;
    return 0;
}

static int set_equivalence(bench_options *o, const char *value)
{
    double pct;
    if (parse_decimal(value, strlen(value), &pct) != 0 || !(pct > 0) || pct > 1e6) {
        bench_error("-equivalence: '%s' is not a percentage (a number > 0, such as 1 for "
                    "1%%)", value);
        return -1;
    }
    o->equivalence = pct;
    o->equivalence_given = 1;
    return 0;
}

/* Checked when it is started: it may be built meanwhile. */
static int set_against(bench_options *o, const char *v)
{
    o->against = v;
    return 0;
}

/* Read before anything runs. */
static int set_baseline(bench_options *o, const char *v)
{
    o->baseline = v;
    return 0;
}

/* An output file: its place checked here, every occurrence, as -filter's value is; main
 * opens only the last value of each. */
static int set_output(bench_options *o, int slot, const char *value)
{
    out_file probe;
    int rc;
    memset(&probe, 0, sizeof probe);
    probe.option = bench_output_option(slot);
    probe.target = value;
    rc = bench_out_resolve(&probe);
    bench_out_release(&probe);
    if (rc == 0)
        o->output[slot] = value;
    return rc;
}

static int set_csv(bench_options *o, const char *v)
{
    return set_output(o, BENCH_OUTPUT_CSV, v);
}

static int set_json(bench_options *o, const char *v)
{
    return set_output(o, BENCH_OUTPUT_JSON, v);
}

static int set_gbench(bench_options *o, const char *v)
{
    return set_output(o, BENCH_OUTPUT_GBENCH, v);
}

static int set_html(bench_options *o, const char *v)
{
    return set_output(o, BENCH_OUTPUT_HTML, v);
}

/* ---- the table ---- */

typedef enum {
    OPT_FLAG,     /* -name, no value */
    OPT_VALUE,    /* -name=value, the value may be empty */
    OPT_FILE      /* -name=file, a non-empty file name */
} option_kind;

typedef struct {
    const char *name;        /* without the dash */
    const char *aliases;     /* other names, separated by spaces; NULL: none */
    const char *arg;         /* the value in -help ("<regex>"); NULL for a flag */
    option_kind kind;
    int (*handle)(bench_options *o, const char *value);   /* NULL for a flag */
    size_t flag;             /* a flag: the offset of the int in bench_options it sets to 1 */
    const char *help;        /* -help's line; NULL: an internal option, not listed */
} option;

#define FLAG(field) OPT_FLAG, NULL, offsetof(bench_options, field)
#define VALUE(handler) OPT_VALUE, handler, 0
#define FILE_NAME(handler) OPT_FILE, handler, 0

static const option options[] = {
    {"filter", NULL, "<regex>", VALUE(set_filter),
     "run those whose whole name matches this extended regex (default .*)"},
    {"priority-level", NULL, "<l1,l2,..>", VALUE(set_priority),
     "run those of these levels: high, medium, low, all (the default)"},
    {"list", NULL, NULL, FLAG(list), "print the selected benchmarks' names, run nothing"},
    {"asymptote", NULL, "<n1,n2,..>", VALUE(set_asymptote),
     "run each once per complexity N (1 to " BENCH_MAX_COMPLEXITY_N_TEXT "), fit O(...)"},
    {"min-time", NULL, "<ms>", VALUE(set_min_time),
     "ms per benchmark (default: " BENCH_DEFAULT_MIN_TIME_TEXT "; Core's 10 ms); 0: harness's"},
    {"compare", NULL, NULL, FLAG(compare),
     "run each on every variant of its family and [openssl], paired"},
    {"no-pin", NULL, NULL, FLAG(no_pin),
     "let the scheduler move the process between CPUs"},
    {"instructions", NULL, NULL, FLAG(instructions),
     "count instructions under valgrind's callgrind instead of timing"},
    {"sanity-check", NULL, NULL, FLAG(sanity_check),
     "run each once (one epoch of one iteration), print no table"},
    {"output-csv", NULL, "<file>", FILE_NAME(set_csv),
     "also write the results as CSV, in Bitcoin Core's layout"},
    {"output-json", NULL, "<file>", FILE_NAME(set_json),
     "also write the results as JSON, every epoch of every result"},
    {"output-gbench", NULL, "<file>", FILE_NAME(set_gbench),
     "also write the results as Google Benchmark's JSON"},
    {"output-html", NULL, "<file>", FILE_NAME(set_html),
     "also write a self-contained HTML report"},
    {"against", NULL, "<program>", FILE_NAME(set_against),
     "compare with another bench_bitcoin build, interleaved"},
    {"baseline", NULL, "<file>", FILE_NAME(set_baseline),
     "compare with an earlier -output-json file (unpaired)"},
    {"max-regression", NULL, "<pct>", VALUE(set_max_regression),
     "with -against or -baseline: exit 1 on a significant slowdown > pct%"},
    {"equivalence", NULL, "<pct>", VALUE(set_equivalence),
     "with -against: 'within +-pct%' when the interval is inside (default 1)"},
    {"help", "h ?", NULL, FLAG(help),
     "print this help and exit (once the other options are checked)"},
    {"serve-protocol", NULL, "<version>", VALUE(set_serve), NULL},
};

/* 1 when the len characters at key are name, or one of the space-separated aliases. */
static int names(const option *opt, const char *key, size_t len)
{
    const char *a = opt->aliases;
    if (strlen(opt->name) == len && memcmp(opt->name, key, len) == 0)
        return 1;
    while (a && *a) {
        size_t n = strcspn(a, " ");
        if (n == len && memcmp(a, key, len) == 0)
            return 1;
        a += n + (a[n] == ' ');
    }
    return 0;
}

int bench_parse_options(int argc, char **argv, bench_options *o)
{
    int i;
    for (i = 1; i < argc; i++) {
        const char *arg = argv[i], *key, *eq, *value;
        const option *opt = NULL;
        size_t key_len, k;
        if (arg[0] != '-') {
            bench_error("unexpected argument '%s' (options start with '-'; see -help)", arg);
            return -1;
        }
        key = arg + 1 + (arg[1] == '-');
        eq = strchr(key, '=');
        key_len = eq ? (size_t)(eq - key) : strlen(key);
        value = eq ? eq + 1 : NULL;
        for (k = 0; k < sizeof options / sizeof options[0] && !opt; k++)
            if (names(&options[k], key, key_len))
                opt = &options[k];
        if (!opt) {
            bench_error("unknown option '%s' (see -help)", arg);
            return -1;
        }
        if (opt->kind == OPT_FLAG && value) {
            bench_error("-%.*s takes no value (got '%s')", (int)key_len, key, arg);
            return -1;
        }
        if (opt->kind != OPT_FLAG && !value) {
            bench_error("-%.*s needs a value: -%.*s=...", (int)key_len, key, (int)key_len, key);
            return -1;
        }
        if (opt->kind == OPT_FILE && value[0] == '\0') {
            bench_error("-%.*s needs a file name", (int)key_len, key);
            return -1;
        }
        if (opt->kind == OPT_FLAG)
            *(int *)((char *)o + opt->flag) = 1;
        else if (opt->handle(o, value) != 0)
            return -1;
    }
    return check_combinations(o);
}

int bench_options_help(FILE *out)
{
    size_t k;
    int bad = fputs("Usage: bench_bitcoin [options]\n"
                    "\n"
                    "Runs Bitcoin Core's micro-benchmarks through nanobench, one table row per "
                    "benchmark.\n"
                    "Options take one or two leading dashes (-filter=x is --filter=x).\n"
                    "\n"
                    "Options:\n", out) < 0;
    for (k = 0; k < sizeof options / sizeof options[0]; k++) {
        const option *opt = &options[k];
        char left[64];
        const char *a;
        size_t len;
        if (!opt->help)
            continue;
        len = (size_t)snprintf(left, sizeof left, "-%s%s%s", opt->name, opt->arg ? "=" : "",
                               opt->arg ? opt->arg : "");
        for (a = opt->aliases; a && *a && len < sizeof left;) {
            size_t n = strcspn(a, " ");
            len += (size_t)snprintf(left + len, sizeof left - len, ", -%.*s", (int)n, a);
            a += n + (a[n] == ' ');
        }
        bad |= fprintf(out, "  %-26s %s\n", left, opt->help) < 0;
    }
    bad |= fputs("\n"
                 "Environment: NANOBENCH_ENDLESS=<name> runs that benchmark for ever (for perf "
                 "top);\n"
                 "NANOBENCH_SUPPRESS_WARNINGS=1 hides the stability warnings and markers;\n"
                 "BENCH_BITCOIN_AGAINST_TIMEOUT=<s> is how long -against waits for the other "
                 "build.\n"
                 "Measure on a quiet machine; where err% stays high, raise -min-time.\n"
                 "Exit status: 0 ran, 1 -max-regression found a regression, 2 an error (one "
                 "line on stderr).\n"
                 "See bench_bitcoin(1) for each option in full.\n", out) < 0;
    return bad ? -1 : 0;
}

void bench_options_init(bench_options *o)
{
    memset(o, 0, sizeof *o);
    o->min_time_ns = BENCH_DEFAULT_MIN_TIME_MS * 1e6;
    o->max_regression = -1;
    o->equivalence = 1;
    o->priority = BENCH_PRIORITY_ALL;
}

void bench_options_free(bench_options *o)
{
    bb_free(o->asymptote);
    bb_free(o->match);
    bb_free(o->filter_hint);
    o->asymptote = NULL;
    o->asymptote_count = 0;
    o->match = NULL;
    o->filter_hint = NULL;
}
