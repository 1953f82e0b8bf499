/* nb_render: the template language and the built-in templates, over results
 * made by real nb_run calls (and one on a fake clock, for exact values).
 * JSON output is checked with a small strict validator (RFC 8259 grammar;
 * no NaN/Infinity), CSV by counting rows and fields, and a custom template
 * against golden text. */
#include "bench/nanobench.h"
#include "bench/nb_test_hooks.h"   /* nb_test_set_clock */
#include "check.h"
#include "util/alloc.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ---- */

/* Renders into a string; *rc gets nb_render's return (-2 when no temporary
 * file could be made). Caller frees. */
/* nb_render's errno after the last render() that failed */
static int render_errno;

static char *render(const char *tmpl, const nb_bench *b, int *rc)
{
    FILE *f = tmpfile();
    char *s;
    *rc = -2;
    if (!f)
        return NULL;
    errno = 0;
    *rc = nb_render(tmpl, b, f);
    if (*rc != 0)
        render_errno = errno;
    s = check_slurp(f);
    fclose(f);
    return s;
}

static size_t count_substr(const char *s, const char *sub)
{
    size_t n = 0, l = strlen(sub);
    while ((s = strstr(s, sub)) != NULL) {
        ++n;
        s += l;
    }
    return n;
}

/* ---- a strict JSON validator ---- */

static const char *js_value(const char *p, int depth);

static const char *js_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        ++p;
    return p;
}

static int hexdig(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static const char *js_string(const char *p)
{
    if (*p++ != '"')
        return NULL;
    for (;;) {
        unsigned char c = (unsigned char)*p;
        if (c == '"')
            return p + 1;
        if (c < 0x20)
            return NULL; /* includes the terminating NUL */
        if (c == '\\') {
            ++p;
            if (*p == 'u') {
                if (!hexdig(p[1]) || !hexdig(p[2]) || !hexdig(p[3]) || !hexdig(p[4]))
                    return NULL;
                p += 5;
                continue;
            }
            if (!*p || !strchr("\"\\/bfnrt", *p))
                return NULL;
        }
        ++p;
    }
}

static const char *js_number(const char *p)
{
    if (*p == '-')
        ++p;
    if (*p == '0')
        ++p;
    else if (*p >= '1' && *p <= '9')
        while (*p >= '0' && *p <= '9')
            ++p;
    else
        return NULL;
    if (*p == '.') {
        ++p;
        if (!(*p >= '0' && *p <= '9'))
            return NULL;
        while (*p >= '0' && *p <= '9')
            ++p;
    }
    if (*p == 'e' || *p == 'E') {
        ++p;
        if (*p == '+' || *p == '-')
            ++p;
        if (!(*p >= '0' && *p <= '9'))
            return NULL;
        while (*p >= '0' && *p <= '9')
            ++p;
    }
    return p;
}

static const char *js_value(const char *p, int depth)
{
    if (depth > 64)
        return NULL;
    p = js_ws(p);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        int obj = *p == '{';
        p = js_ws(p + 1);
        if (*p == close)
            return p + 1;
        for (;;) {
            if (obj) {
                p = js_string(js_ws(p));
                if (!p)
                    return NULL;
                p = js_ws(p);
                if (*p++ != ':')
                    return NULL;
            }
            p = js_value(p, depth + 1);
            if (!p)
                return NULL;
            p = js_ws(p);
            if (*p == ',') {
                ++p;
                continue;
            }
            return *p == close ? p + 1 : NULL;
        }
    }
    if (*p == '"')
        return js_string(p);
    if (!strncmp(p, "true", 4))
        return p + 4;
    if (!strncmp(p, "false", 5))
        return p + 5;
    if (!strncmp(p, "null", 4))
        return p + 4;
    return js_number(p);
}

static int json_valid(const char *s)
{
    const char *p = js_value(s, 0);
    return p && *js_ws(p) == '\0';
}

static void test_validator(void)
{
    CHECK(json_valid("{\"a\": [1, -2.5e3, true, false, null, \"x\\\"\\u00e9\"]}"));
    CHECK(json_valid("[]"));
    CHECK(!json_valid("[1,]"));
    CHECK(!json_valid("{\"a\": nan}"));
    CHECK(!json_valid("[inf]"));
    CHECK(!json_valid("[\"a\nb\"]"));
    CHECK(!json_valid("[01]"));
    CHECK(!json_valid("{\"a\" 1}"));
    CHECK(!json_valid("[1] x"));
}

/* ---- CSV: rows and fields, honouring quotes ---- */

/* Counts records and checks each has `fields` fields; returns records or -1. */
static long csv_records(const char *s, int fields)
{
    long records = 0;
    int f = 1, inq = 0;
    for (; *s; ++s) {
        if (inq) {
            if (*s == '"') {
                if (s[1] == '"')
                    ++s;
                else
                    inq = 0;
            }
        } else if (*s == '"') {
            inq = 1;
        } else if (*s == ';') {
            ++f;
        } else if (*s == '\n') {
            if (f != fields)
                return -1;
            ++records;
            f = 1;
        }
    }
    return inq || f != 1 ? -1 : records;
}

/* ---- benches with real results ---- */

static volatile unsigned counter;

static void op_inc(void *arg)
{
    (void)arg;
    counter++;
}

#define EPOCHS 3

/* A bench with `n` results named names[i], counters off (so not measured). */
static nb_bench *make_bench(const char *const *names, size_t n)
{
    nb_bench *b = nb_bench_new();
    size_t i;
    if (!b)
        return NULL;
    nb_output(b, NULL);
    nb_performance_counters(b, 0);
    nb_epochs(b, EPOCHS);
    nb_min_epoch_time(b, 20000);
    nb_epoch_iterations(b, 1000);
    for (i = 0; i < n; ++i) {
        nb_name(b, names[i]);
        nb_run(b, op_inc, NULL);
    }
    return b;
}

static const char *const hard_names[] = {
    "plain", "quote \" backslash \\ newline \n tab \t end", "semi;colon,comma",
    "</script><b>'&'", "ctl \001 del \177 bad \xff utf8 \xc3\xa9 ls \xe2\x80\xa8",
};
#define HARD_COUNT (sizeof hard_names / sizeof hard_names[0])

static void test_json(void)
{
    nb_bench *b = make_bench(hard_names, HARD_COUNT);
    char *s;
    int rc = -1;

    if (!CHECK(b != NULL && nb_result_count(b) == HARD_COUNT))
        goto out;
    s = render(nb_templ_json(), b, &rc);
    CHECK(rc == 0);
    CHECKF(s && json_valid(s), "invalid JSON:\n%s", s ? s : "(null)");
    if (s) {
        CHECK(strstr(s, "\"name\": \"quote \\\" backslash \\\\ newline \\n tab \\t end\"") != NULL);
        CHECK(strstr(s, "\"name\": \"\\u003c/script\\u003e\\u003cb\\u003e\\u0027\\u0026\\u0027\"")
              != NULL);
        CHECK(strstr(s, "ctl \\u0001 del \\u007f bad \\ufffd utf8 \xc3\xa9 ls \\u2028") != NULL);
        /* counters off: not measured, so null, never 0 and never a bare nan */
        CHECK(count_substr(s, "\"median(instructions)\": null") == HARD_COUNT);
        CHECK(count_substr(s, "\"instructions\": null") == HARD_COUNT * EPOCHS);
        CHECK(count_substr(s, "\"branchmisses\": null") == HARD_COUNT * EPOCHS);
        CHECK(strstr(s, "nan") == NULL && strstr(s, "inf") == NULL);
        CHECK(count_substr(s, "\"iterations\": 1000,") == HARD_COUNT * EPOCHS);
        CHECK(count_substr(s, "\"relative\": false") == HARD_COUNT);
        CHECK(count_substr(s, "\"epochs\": 3,") == HARD_COUNT);
        CHECK(count_substr(s, "\"complexityN\": -1,") == HARD_COUNT);
    }
    free(s);
out:
    nb_bench_free(b);

    /* no results at all: still valid JSON */
    b = nb_bench_new();
    if (CHECK(b != NULL)) {
        s = render(nb_templ_json(), b, &rc);
        CHECK(rc == 0 && s && json_valid(s));
        free(s);
        nb_bench_free(b);
    }
}

static void test_csv(void)
{
    nb_bench *b = make_bench(hard_names, HARD_COUNT);
    char *s;
    int rc = -1;

    if (!CHECK(b != NULL))
        return;
    s = render(nb_templ_csv(), b, &rc);
    CHECK(rc == 0);
    /* names with line breaks are quoted, so one record per result */
    CHECKF(s && csv_records(s, 10) == (long)HARD_COUNT + 1, "CSV:\n%s", s ? s : "(null)");
    if (s) {
        static const char *head = "title;name;unit;batch;elapsed;error fraction;instructions;"
                                  "branches;branch misses;total\nbenchmark;plain;op;1;";
        CHECK(strncmp(s, head, strlen(head)) == 0);
        CHECK(strstr(s, "\"quote \"\" backslash \\ newline \n tab \t end\"") != NULL);
        CHECK(strstr(s, ";\"semi;colon,comma\";") != NULL);
        /* counters not measured: empty fields */
        CHECK(count_substr(s, ";;;") == HARD_COUNT);
        CHECK(strstr(s, "nan") == NULL);
    }
    free(s);
    nb_bench_free(b);
}

static void test_html_pyperf(void)
{
    nb_bench *b = make_bench(hard_names, HARD_COUNT);
    nb_bench *one = make_bench(hard_names + 1, 1);
    char *s;
    int rc = -1;

    if (!CHECK(b != NULL && one != NULL))
        goto out;
    s = render(nb_templ_html(), b, &rc);
    CHECK(nb_templ_html_boxplot() == nb_templ_html());
    CHECK(rc == 0);
    if (s) {
        const char *open = strstr(s, "<script id=\"nb-data\" type=\"application/json\">\n");
        const char *close = open ? strstr(open, "</script>") : NULL;
        CHECK(count_substr(s, "\"epochs\": [") == HARD_COUNT);
        CHECK(count_substr(s, "</script>") == 2); /* only the template's own */
        CHECK(strstr(s, "\"name\": \"plain\",") != NULL);
        /* self-contained: nothing loaded from anywhere */
        CHECK(strstr(s, "<script src") == NULL && strstr(s, "<link") == NULL &&
              strstr(s, "https:") == NULL && strstr(s, "cdn") == NULL);
        /* the data block is JSON */
        if (CHECK(open && close)) {
            size_t len = (size_t)(close - open) - strlen("<script id=\"nb-data\" "
                                                         "type=\"application/json\">\n");
            char *json = malloc(len + 1);
            if (CHECK(json != NULL)) {
                memcpy(json, close - len, len);
                json[len] = '\0';
                CHECKF(json_valid(json), "report data:\n%s", json);
                free(json);
            }
        }
    }
    free(s);

    /* pyperf: a suite, one benchmark per result named by it, one run per epoch whose loops
     * are the epoch's iterations and whose value is the time per inner loop (the batch) */
    s = render(nb_templ_pyperf(), b, &rc);
    CHECK(rc == 0);
    CHECKF(s && json_valid(s), "pyperf:\n%s", s ? s : "(null)");
    if (s) {
        CHECK(count_substr(s, "{\"metadata\": {\"loops\": 1000}, \"values\": [") ==
              HARD_COUNT * EPOCHS);
        CHECK(count_substr(s, "\"inner_loops\": 1\n") == HARD_COUNT);
        CHECK(strstr(s, "\"name\": \"plain\",") != NULL);
        CHECK(count_substr(s, "\"unit\": \"second\"") == HARD_COUNT);
    }
    free(s);
    s = render(nb_templ_pyperf(), one, &rc);
    CHECK(rc == 0);
    CHECKF(s && json_valid(s), "pyperf:\n%s", s ? s : "(null)");
    free(s);

    /* Google Benchmark: an iteration entry per epoch, then three aggregates per result */
    s = render(nb_templ_gbench(), b, &rc);
    CHECK(rc == 0);
    CHECKF(s && json_valid(s), "gbench:\n%s", s ? s : "(null)");
    if (s) {
        CHECK(count_substr(s, "\"run_type\": \"iteration\"") == HARD_COUNT * EPOCHS);
        CHECK(count_substr(s, "\"run_type\": \"aggregate\"") == HARD_COUNT * 3);
        CHECK(strstr(s, "\"name\": \"plain_median\",") != NULL);
        CHECK(count_substr(s, "\"iterations\": 1000,") == HARD_COUNT * EPOCHS);
    }
    free(s);
out:
    nb_bench_free(b);
    nb_bench_free(one);
}

static void test_golden(void)
{
    static const char *const names[] = {"a", "b", "c"};
    static const char *tmpl =
        "{{! a comment }}[{{title}}]\n"
        "{{#result}}{{#-first}}first {{/-first}}{{^-first}}then {{/-first}}"
        "{{ name }}/{{unit}}/{{batch}}/{{epochs}}/{{warmup}}/{{relative}}/{{complexityN}}:"
        "{{#measurement}}{{iterations}}{{#-last}}.{{/-last}}{{^-last}},{{/-last}}"
        "{{/measurement}}"
        "{{#-last}} last{{/-last}}{{^-last}}; {{/-last}}{{/result}}\n";
    static const char *want =
        "[benchmark]\n"
        "first a/op/1/3/0/false/-1:1000,1000,1000.; then b/op/1/3/0/false/-1:1000,1000,1000.; "
        "then c/byte/2.5/3/0/true/7:1000,1000,1000. last\n";
    nb_bench *b = nb_bench_new();
    char *s;
    int rc = -1;

    if (!CHECK(b != NULL))
        return;
    nb_output(b, NULL);
    nb_performance_counters(b, 0);
    nb_epochs(b, 3);
    nb_epoch_iterations(b, 1000);
    nb_run(nb_name(b, names[0]), op_inc, NULL);
    nb_run(nb_name(b, names[1]), op_inc, NULL);
    nb_relative(nb_complexity_n(nb_batch(nb_unit(b, "byte"), 2.5), 7), 1);
    nb_run(nb_name(b, names[2]), op_inc, NULL);
    s = render(tmpl, b, &rc);
    CHECK(rc == 0);
    CHECKF(s && strcmp(s, want) == 0, "golden:\n%s", s ? s : "(null)");
    free(s);

    /* numbers read back exactly */
    s = render("{{#result}}{{median(elapsed)}} {{sumProduct(iterations, elapsed)}} "
               "{{medianAbsolutePercentError(elapsed)}}\n{{/result}}", b, &rc);
    CHECK(rc == 0);
    if (s) {
        const char *p = s;
        size_t i;
        /* read back as "C" reads it, whichever locale rendered it */
        char prev[64];
        snprintf(prev, sizeof prev, "%s", setlocale(LC_NUMERIC, NULL));
        setlocale(LC_NUMERIC, "C");
        for (i = 0; i < 3; ++i) {
            const nb_result *r = nb_result_at(b, i);
            char *end;
            double med = strtod(p, &end), tot, err;
            /* Stored before the exact compare: on 32-bit x86 (x87 code, FLT_EVAL_METHOD
             * 2) a returned double keeps extra precision until it is stored. */
            volatile double stored;
            tot = strtod(end, &end);
            err = strtod(end, &end);
            stored = nb_result_median(r, NB_ELAPSED);
            CHECK(med == stored);
            stored = nb_result_sum_product(r, NB_ITERATIONS, NB_ELAPSED);
            CHECK(tot == stored);
            stored = nb_result_err(r, NB_ELAPSED);
            CHECK(err == stored);
            p = end + 1;
        }
        setlocale(LC_NUMERIC, prev);
    }
    free(s);

    /* top level: several results give config tags of the last one only */
    s = render("{{unit}} {{batch}}", b, &rc);
    CHECK(rc == 0 && s && strcmp(s, "byte 2.5") == 0);
    free(s);
    s = render("{{median(elapsed)}}", b, &rc);
    CHECK(rc == -1 && s && *s == '\0');
    free(s);

    /* raw mode prints a value that was not measured as nan; csv leaves it
     * empty; json writes null */
    s = render("{{#result}}{{median(cpucycles)}}|{{/result}}", b, &rc);
    CHECK(rc == 0 && s && strcmp(s, "nan|nan|nan|") == 0);
    free(s);
    s = render("{{%csv}}{{#result}}{{median(cpucycles)}}|{{/result}}", b, &rc);
    CHECK(rc == 0 && s && strcmp(s, "|||") == 0);
    free(s);
    s = render("{{%json}}{{#result}}{{median(cpucycles)}}|{{/result}}", b, &rc);
    CHECK(rc == 0 && s && strcmp(s, "null|null|null|") == 0);
    free(s);

    /* context */
    nb_context(b, "cpu", "x\"y");
    nb_run(nb_name(b, "d"), op_inc, NULL);
    s = render("{{%json}}{{#result}}{{#-last}}{{context(cpu)}}{{/-last}}{{/result}}", b, &rc);
    CHECK(rc == 0 && s && strcmp(s, "x\\\"y") == 0);
    free(s);
    s = render("{{#result}}{{context(cpu)}}{{/result}}", b, &rc); /* unset in a, b, c */
    CHECK(rc == -1);
    free(s);
    nb_bench_free(b);

    /* no results: config tags come from the bench */
    b = nb_bench_new();
    if (CHECK(b != NULL)) {
        nb_title(nb_unit(b, "byte"), "t");
        s = render("{{title}} {{unit}} {{epochs}} {{relative}}{{#result}}x{{/result}}", b, &rc);
        CHECK(rc == 0 && s && strcmp(s, "t byte 11 false") == 0);
        free(s);
        nb_bench_free(b);
    }
}

/* Strings at the edges of the CSV and JSON escaping: a carriage return or
 * edge whitespace gets a CSV field quoted; every ill-formed UTF-8 sequence
 * (above U+10FFFF, a surrogate, an overlong lead, a sequence cut short by
 * the end) becomes U+FFFD per byte in JSON, never copied through. */
static void test_string_edges(void)
{
    static const char *const names[] = {
        "a\rb", "x ", " y", "\xf4\x90\x80\x80", "\xed\xa0\x80", "\xc0\xaf", "e\xe2\x82",
        "ok \xf4\x8f\xbf\xbf \xed\x9f\xbf \xc2\xa0",
    };
    static const char *const csv = "\"a\rb\"|\"x \"|\" y\"|\xf4\x90\x80\x80|\xed\xa0\x80|"
                                   "\xc0\xaf|e\xe2\x82|ok \xf4\x8f\xbf\xbf \xed\x9f\xbf \xc2\xa0|";
    static const char *const json = "a\\rb|x | y|\\ufffd\\ufffd\\ufffd\\ufffd|"
                                    "\\ufffd\\ufffd\\ufffd|\\ufffd\\ufffd|e\\ufffd\\ufffd|"
                                    "ok \xf4\x8f\xbf\xbf \xed\x9f\xbf \xc2\xa0|";
    nb_bench *b = make_bench(names, sizeof names / sizeof names[0]);
    char *s;
    int rc = -1;
    if (!CHECK(b != NULL))
        return;
    s = render("{{%csv}}{{#result}}{{name}}|{{/result}}", b, &rc);
    CHECKF(rc == 0 && s && strcmp(s, csv) == 0, "csv: %s", s ? s : "(null)");
    free(s);
    s = render("{{%json}}{{#result}}{{name}}|{{/result}}", b, &rc);
    CHECKF(rc == 0 && s && strcmp(s, json) == 0, "json: %s", s ? s : "(null)");
    free(s);
    nb_bench_free(b);
}

/* A value that needs all 17 significant digits to read back: 0.3 s on a
 * fake clock is 300000000 * 1e-9 = 0.30000000000000004. */
static uint64_t fake_ns;

static uint64_t fake_now(void *ctx)
{
    (void)ctx;
    return fake_ns;
}

static void fake_op(void *arg)
{
    (void)arg;
    fake_ns += 300000000;
}

static void test_seventeen_digits(void)
{
    nb_bench *b = nb_bench_new();
    char *s;
    int rc = -1;
    if (!CHECK(b != NULL))
        return;
    nb_output(nb_performance_counters(b, 0), NULL);
    nb_test_set_clock(b, fake_now, NULL, 20);
    nb_run(nb_epoch_iterations(nb_epochs(b, 3), 1), fake_op, NULL);
    s = render("{{median(elapsed)}} {{#measurement}}{{elapsed}} {{/measurement}}", b, &rc);
    CHECKF(rc == 0 && s && strcmp(s, "0.30000000000000004 0.30000000000000004 "
                                     "0.30000000000000004 0.30000000000000004 ") == 0,
           "%s", s ? s : "(null)");
    free(s);
    nb_bench_free(b);
}

/* {{context(key)}} reads back any key nb_context accepted, however long
 * (a 256-byte key used to make the render fail with -1 though it was set). */
static void test_long_context_key(void)
{
    nb_bench *b = nb_bench_new();
    static const size_t lens[] = {1, 255, 256, 300};
    char key[301], tmpl[400], *s;
    size_t i, len;
    int rc = -1;
    if (!CHECK(b != NULL))
        return;
    nb_output(nb_performance_counters(b, 0), NULL);
    nb_test_set_clock(b, fake_now, NULL, 20);
    for (i = 0; i < sizeof lens / sizeof lens[0]; ++i) {
        len = lens[i];
        memset(key, 'k', len);
        key[len] = '\0';
        nb_context(b, key, "v");
        if (!CHECK(nb_get_context(b, key) != NULL))
            break;
    }
    nb_run(nb_epoch_iterations(nb_epochs(b, 1), 1), fake_op, NULL);
    for (i = 0; i < sizeof lens / sizeof lens[0]; ++i) {
        len = lens[i];
        memset(key, 'k', len);
        key[len] = '\0';
        snprintf(tmpl, sizeof tmpl, "{{context(%s)}}", key);
        s = render(tmpl, b, &rc);
        CHECKF(rc == 0 && s && strcmp(s, "v") == 0, "key of %zu bytes: rc %d", len, rc);
        free(s);
    }
    nb_bench_free(b);
}

static void test_malformed(void)
{
    static const char *const bad[] = {
        "{{#result}}",                                   /* unclosed */
        "{{/result}}",                                   /* stray close */
        "{{#result}}{{/measurement}}",                   /* mismatched */
        "{{#result}}{{#measurement}}{{/result}}{{/measurement}}",
        "{{bogus}}",                                     /* unknown tag */
        "{{#result}}{{bogus}}{{/result}}",
        "{{#result}}{{median(bogus)}}{{/result}}",       /* unknown measure */
        "{{#result}}{{median(elapsed, iterations)}}{{/result}}",
        "{{#result}}{{sumProduct(elapsed)}}{{/result}}",
        "{{#result}}{{median elapsed}}{{/result}}",
        "{{#result}}{{#measurement}}{{bogus}}{{/measurement}}{{/result}}",
        "{{#result}}{{perUnit(elapsed)}}{{/result}}",    /* an epoch's value, outside */
        "{{#result}}{{#measurement}}{{perUnit(bogus)}}{{/measurement}}{{/result}}",
        "{{#result}}{{#measurement}}{{#measurement}}{{/measurement}}{{/measurement}}{{/result}}",
        "{{#result}}{{#result}}{{/result}}{{/result}}",
        "{{#foo}}{{/foo}}",                              /* unknown section */
        "{{^result}}{{/result}}",                        /* inverted list */
        "{{#-first}}x{{/-first}}",                       /* -first outside a layer */
        "{{#result}}{{#-first}}x{{/-last}}{{/result}}",
        "abc {{name",                                    /* unterminated tag */
        "{{}}",
        "{{#}}{{/}}",
        "{{%xml}}",                                      /* unknown pragma */
        /* 32 characters: one more than any measure name's buffer holds */
        ("{{#result}}{{#measurement}}{{abcdefghijklmnopqrstuvwxyzabcdef}}{{/measurement}}"
         "{{/result}}"),
        "{{#result}}{{median(abcdefghijklmnopqrstuvwxyzabcdef)}}{{/result}}",
    };
    static const char *const names[] = {"a"};
    nb_bench *b = make_bench(names, 1);
    size_t i;

    if (!CHECK(b != NULL))
        return;
    for (i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        int rc = 0;
        char *s = render(bad[i], b, &rc);
        CHECKF(rc == -1, "accepted malformed template %s", bad[i]);
        CHECKF(render_errno == EINVAL, "template %s: errno %d", bad[i], render_errno);
        CHECKF(s && *s == '\0', "wrote output for malformed template %s", bad[i]);
        free(s);
    }
    {
        int rc = -1;
        char *s = render("plain {{#result}}{{name}}{{/result}} text", b, &rc);
        CHECK(rc == 0 && s && strcmp(s, "plain a text") == 0);
        free(s);
        s = render("", b, &rc);
        CHECK(rc == 0 && s && *s == '\0');
        free(s);
        /* one result: result tags work at the top level too (pyperf uses it) */
        s = render("{{name}} {{sum(iterations)}}", b, &rc);
        CHECKF(rc == 0 && s && strcmp(s, "a 3000") == 0, "%s", s ? s : "(null)");
        free(s);
    }
    /* Nesting: 32 levels are accepted; deeper is refused, and a template of
     * 100,000 unclosed sections returns -1 instead of exhausting the stack
     * (the checker recurses once per level). */
    {
        size_t depth, j;
        for (depth = 31; depth <= 100000; depth = depth == 32 ? 100000 : depth + 1) {
            size_t cap = depth * 24 + 64, pos = 0;
            char *t = malloc(cap), *s;
            int rc = 0;
            if (!CHECK(t != NULL))
                break;
            pos += (size_t)sprintf(t + pos, "{{#result}}");
            for (j = 1; j < depth; ++j)
                pos += (size_t)sprintf(t + pos, "{{#-first}}");
            pos += (size_t)sprintf(t + pos, "x");
            if (depth < 100000) {
                for (j = 1; j < depth; ++j)
                    pos += (size_t)sprintf(t + pos, "{{/-first}}");
                sprintf(t + pos, "{{/result}}");
            }
            s = render(t, b, &rc);
            CHECKF(rc == (depth <= 32 ? 0 : -1), "depth %zu: rc %d", depth, rc);
            if (depth <= 32)
                CHECK(s && strcmp(s, "x") == 0);
            free(s);
            free(t);
        }
    }
    errno = 0;
    CHECK(nb_render(NULL, b, stdout) == -1 && errno == EINVAL);
    errno = 0;
    CHECK(nb_render("x", NULL, stdout) == -1 && errno == EINVAL);
    errno = 0;
    CHECK(nb_render("x", b, NULL) == -1 && errno == EINVAL);
    nb_bench_free(b);
}

static void test_errors(void)
{
    static const char *const names[] = {"a", "b"};
    nb_bench *b = make_bench(names, 2);
    FILE *full;
    long k;

    if (!CHECK(b != NULL))
        return;
    full = fopen("/dev/full", "w");
    if (full) {
        /* the write's error, not "bad template" (bench_bitcoin's message depends on it) */
        CHECK(nb_render(nb_templ_json(), b, full) == -1 && errno == ENOSPC);
        fclose(full);
    }
    /* every allocation the renderer makes can fail, and it says so: ENOMEM */
    for (k = 0; k < 4; ++k) {
        int rc;
        char *s;
        bb_alloc_fail_after(k);
        s = render(nb_templ_json(), b, &rc);
        bb_alloc_fail_after(-1);
        if (rc == 0) {
            CHECK(s && json_valid(s));
            free(s);
            break;
        }
        CHECK(rc == -1 && s && *s == '\0');
        CHECKF(render_errno == ENOMEM, "allocation %ld failed: errno %d", k, render_errno);
        free(s);
    }
    CHECK(k >= 1 && k < 4);
    nb_bench_free(b);
}

/* nb_render_diag names the tag, its line and column, and why; "" on success. */
static void test_diag(void)
{
    static const struct {
        const char *tmpl, *want;
    } cases[] = {
        {"ok\n{{#result}}\n  {{median(elapsd)}}{{/result}}",
         "line 3, column 3, tag '{{median(elapsd)}}': unknown tag"},
        {"{{#result}}{{#measurement}}{{nme}}{{/measurement}}{{/result}}",
         "line 1, column 28, tag '{{nme}}': inside {{#measurement}} a tag is a measure name"},
        {"{{#result}}{{perUnit(elapsed)}}{{/result}}",
         "line 1, column 12, tag '{{perUnit(elapsed)}}': perUnit(...) is an epoch's value"},
        {"a\nb {{name", "line 2, column 3, tag '{{name': no '}}' closes this tag"},
        {"{{#result}}x", "line 1, column 1, tag '{{#result}}': this section is never closed"},
        {"{{#result}}{{/measurement}}",
         "line 1, column 12, tag '{{/measurement}}': does not close the open section "
         "'{{#result}}'"},
        {"{{/result}}", "line 1, column 1, tag '{{/result}}': closes a section that was never"},
        {"{{%xml}}", "line 1, column 1, tag '{{%xml}}': unknown pragma"},
        {"{{#foo}}{{/foo}}", "line 1, column 1, tag '{{#foo}}': unknown section"},
        {"{{median(elapsed)}}",
         "line 1, column 1, tag '{{median(elapsed)}}': outside {{#result}} this needs exactly "
         "one result, and there are 2"},
        {"{{#result}}{{context(nokey)}}{{/result}}",
         "line 1, column 12, tag '{{context(nokey)}}': result 'a' has no context of that key"},
    };
    static const char *const names[] = {"a", "b"};
    nb_bench *b = make_bench(names, 2);
    char msg[200], tiny[8];
    size_t i;
    FILE *sink = fopen("/dev/null", "w");

    if (!CHECK(b != NULL && sink != NULL))
        goto out;
    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        int rc = nb_render_diag(cases[i].tmpl, b, sink, msg, sizeof msg);
        CHECKF(rc == -1 && errno == EINVAL, "case %zu: rc %d", i, rc);
        CHECKF(strncmp(msg, cases[i].want, strlen(cases[i].want)) == 0,
               "case %zu: message '%s', want it to start '%s'", i, msg, cases[i].want);
    }
    /* a long tag is cut at 40 bytes, and a small buffer still ends in a NUL */
    CHECK(nb_render_diag("{{#result}}{{abcdefghijklmnopqrstuvwxyzabcdefghijklmnop}}"
                         "{{/result}}", b, sink, msg, sizeof msg) == -1);
    CHECKF(strstr(msg, "tag '{{abcdefghijklmnopqrstuvwxyzabcdefghijkl...': unknown tag") != NULL,
           "%s", msg);
    memset(tiny, 'x', sizeof tiny);
    CHECK(nb_render_diag("{{bogus}}", b, sink, tiny, sizeof tiny) == -1);
    CHECK(strcmp(tiny, "line 1,") == 0);
    CHECK(nb_render_diag("{{bogus}}", b, sink, NULL, 0) == -1 && errno == EINVAL);
    strcpy(msg, "stale");
    CHECK(nb_render_diag(nb_templ_json(), b, sink, msg, sizeof msg) == 0 && msg[0] == '\0');
    CHECK(nb_render_diag(NULL, b, sink, msg, sizeof msg) == -1 &&
          strcmp(msg, "the template is NULL") == 0);
    {
        FILE *full = fopen("/dev/full", "w");
        if (full) {
            CHECK(nb_render_diag(nb_templ_json(), b, full, msg, sizeof msg) == -1);
            CHECKF(strncmp(msg, "writing the output failed: ", 27) == 0, "%s", msg);
            fclose(full);
        }
    }
    bb_alloc_fail_after(0);
    CHECK(nb_render_diag(nb_templ_json(), b, sink, msg, sizeof msg) == -1);
    bb_alloc_fail_after(-1);
    CHECKF(strcmp(msg, "out of memory") == 0, "%s", msg);
out:
    if (sink)
        fclose(sink);
    nb_bench_free(b);
}

/* Inside {{#measurement}}: the result's own tags, perUnit(m) (the epoch's value over the
 * batch); at the result: standardDeviation(m), and innerLoops (the batch, a whole number). */
static void test_measurement_extras(void)
{
    static const char *const names[] = {"a"};
    nb_bench *b = make_bench(names, 1);
    char msg[200];
    int rc = -1;
    char *s;
    size_t i;
    double mean = 0, ss = 0, sd;
    FILE *sink = fopen("/dev/null", "w");
    if (!CHECK(b != NULL && sink != NULL))
        goto out;
    s = render("{{#result}}{{#measurement}}{{name}}/{{batch}}:{{perUnit(iterations)}} "
               "{{/measurement}}{{/result}}", b, &rc);
    CHECKF(rc == 0 && s && strstr(s, "a/1:1000 a/1:1000 ") == s, "%s", s ? s : "(null)");
    free(s);
    /* the sample standard deviation of the epochs' per-iteration times */
    for (i = 0; i < EPOCHS; ++i)
        mean += nb_result_epoch(nb_result_at(b, 0), NB_ELAPSED, i) / EPOCHS;
    for (i = 0; i < EPOCHS; ++i) {
        double d = nb_result_epoch(nb_result_at(b, 0), NB_ELAPSED, i) - mean;
        ss += d * d;
    }
    sd = sqrt(ss / (EPOCHS - 1));
    s = render("{{standardDeviation(elapsed)}}", b, &rc);
    CHECKF(rc == 0 && s && fabs(strtod(s, NULL) - sd) <= 1e-12 * sd + 1e-300, "%s vs %g",
           s ? s : "(null)", sd);
    free(s);
    s = render("{{standardDeviation(instructions)}}", b, &rc); /* not measured: empty raw */
    CHECK(rc == 0 && s && strcmp(s, "nan") == 0);
    free(s);
    s = render("{{innerLoops}}", b, &rc);
    CHECK(rc == 0 && s && strcmp(s, "1") == 0);
    free(s);
    /* {{%timeunit}}: times in the result's time unit (ns by default), other values as they
     * are; {{timeUnit}} names it */
    {
        double med = nb_result_median(nb_result_at(b, 0), NB_ELAPSED);
        char want[120];
        s = render("{{%timeunit}}{{median(elapsed)}} {{median(iterations)}} {{timeUnit}} "
                   "{{#measurement}}{{#-first}}{{elapsed}}{{/-first}}{{/measurement}}", b, &rc);
        snprintf(want, sizeof want, " 1000 ns ");
        CHECKF(rc == 0 && s && fabs(strtod(s, NULL) - med * 1e9) <= 1e-9 * med * 1e9 &&
               strstr(s, want) != NULL, "%s (median %g s)", s ? s : "(null)", med);
        free(s);
    }
    /* {{implausible}}: "" for a plausible result, nb_result_implausible's reason otherwise
     * (an increment is not a gigabyte) */
    s = render("[{{implausible}}]", b, &rc);
    CHECK(rc == 0 && s && strcmp(s, "[]") == 0);
    free(s);
    nb_run(nb_unit(nb_batch(nb_name(b, "giga"), 1e9), "byte"), op_inc, NULL);
    s = render("{{#result}}[{{implausible}}]{{/result}}", b, &rc);
    CHECKF(rc == 0 && s && strncmp(s, "[][", 3) == 0 &&
           strstr(s, " GB/s is more than 256 bytes a cycle at 6.5 GHz") != NULL, "%s",
           s ? s : "(null)");
    free(s);
    nb_bench_free(b);
    b = nb_bench_new();
    if (!CHECK(b != NULL))
        goto out;
    nb_output(nb_performance_counters(nb_epochs(b, 3), 0), NULL);
    nb_run(nb_batch(nb_epoch_iterations(nb_name(b, "half"), 10), 2.5), op_inc, NULL);
    s = render("{{#result}}{{#measurement}}{{perUnit(iterations)}} {{/measurement}}{{/result}}",
               b, &rc);
    CHECKF(rc == 0 && s && strcmp(s, "4 4 4 ") == 0, "%s", s ? s : "(null)");
    free(s);
    CHECK(nb_render_diag("x{{innerLoops}}", b, sink, msg, sizeof msg) == -1);
    CHECKF(strcmp(msg, "line 1, column 2, tag '{{innerLoops}}': the batch 2.5 is not a whole "
                       "number >= 1, which an inner loop count must be") == 0, "%s", msg);
    CHECK(nb_render(nb_templ_pyperf(), b, sink) == -1 && errno == EINVAL);
out:
    if (sink)
        fclose(sink);
    nb_bench_free(b);
}

static void op_inc20(void *arg)
{
    int i;
    (void)arg;
    for (i = 0; i < 20; ++i)
        counter++;
}

/* The first number in s after key, as written by the template below. */
static double field(const char *s, const char *key)
{
    const char *p = strstr(s, key);
    return p ? strtod(p + strlen(key), NULL) : -1;
}

/* What nb_compare found is on each alternative's result ({{ratio}}, {{comparedTo}}, ...),
 * exactly the figures nb_comparison_relative gives; a result of nb_run has none (nan, null,
 * false, an empty name). {{runName}} is Google Benchmark's "Name/N" when N is set. */
static void test_comparison_tags(void)
{
    static const char tmpl[] = "{{#result}}[{{name}}|{{runName}}|{{comparedTo}}|r={{ratio}}|"
                               "l={{ratioLow}}|h={{ratioHigh}}|{{significant}}|{{fastest}}|"
                               "{{baseline}}]{{/result}}";
    nb_alternative alts[] = { { "slow", op_inc20, NULL, NULL }, { "fast", op_inc, NULL, NULL } };
    nb_bench *b = make_bench(NULL, 0);
    nb_comparison *c;
    char *s, *json, want[300];
    double ratio, low, high;
    const char *fast;
    int rc;
    CHECK(b != NULL);
    if (!b)
        return;
    nb_name(nb_complexity_n(b, 800), "plain");
    nb_run(b, op_inc, NULL);
    nb_complexity_n(b, -1);
    c = nb_compare(b, alts, 2);
    CHECK(c != NULL);
    if (!c) {
        nb_bench_free(b);
        return;
    }
    ratio = nb_comparison_relative(c, 1, &low, &high);
    s = render(tmpl, b, &rc);
    CHECK(rc == 0 && s);
    if (s) {
        CHECK(strstr(s, "[plain|plain/800||r=nan|l=nan|h=nan|false|false|false]") != NULL);
        snprintf(want, sizeof want, "[slow|slow|slow|r=1|l=1|h=1|false|%s|true]",
                 nb_comparison_fastest(c) == 0 ? "true" : "false");
        CHECK(strstr(s, want) != NULL);
        fast = strstr(s, "[fast|fast|slow|");
        CHECK(fast != NULL);
        if (fast) {
            CHECK(field(fast, "r=") == ratio);
            CHECK(field(fast, "l=") == low);
            CHECK(field(fast, "h=") == high);
            CHECK(low <= ratio && ratio <= high);
            snprintf(want, sizeof want, "|%s|%s|false]",
                     nb_comparison_significant(c, 1) ? "true" : "false",
                     nb_comparison_fastest(c) == 1 ? "true" : "false");
            CHECK(strstr(fast, want) == strchr(fast, ']') + 1 - strlen(want));
        }
    }
    bb_free(s);
    json = render(nb_templ_json(), b, &rc);
    CHECK(rc == 0 && json && json_valid(json));
    if (json) {
        CHECK(strstr(json, "\"comparedTo\": \"\",\n            \"ratio\": null,") != NULL);
        CHECK(count_substr(json, "\"comparedTo\": \"slow\",") == 2);
        CHECK(count_substr(json, "\"baseline\": true,") == 1);
    }
    bb_free(json);
    json = render(nb_templ_gbench(), b, &rc);
    CHECK(rc == 0 && json && json_valid(json));
    if (json) {
        CHECK(count_substr(json, "\"name\": \"plain/800\",") == EPOCHS);
        CHECK(count_substr(json, "\"name\": \"plain/800_median\",") == 1);
        CHECK(count_substr(json, "\"run_name\": \"fast\",") > 3);
    }
    bb_free(json);
    nb_comparison_free(c);
    nb_bench_free(b);
}

/* A list of results, from two benches, rendered without a bench: in the
 * list's order, the same text a bench holding them renders; an empty list. */
static void test_render_results(void)
{
    static const char *const n1[] = { "first", "second" }, *const n2[] = { "third" };
    nb_bench *a = make_bench(n1, 2), *b = make_bench(n2, 1), *both = make_bench(n1, 2);
    const nb_result *list[3];
    FILE *f = tmpfile(), *g = tmpfile();
    char *s = NULL, *t = NULL;
    if (!CHECK(a && b && both && f && g))
        goto out;
    list[0] = nb_result_at(b, 0);
    list[1] = nb_result_at(a, 0);
    list[2] = nb_result_at(a, 1);
    CHECK(nb_render_results(nb_templ_json(), list, 3, f) == 0);
    s = check_slurp(f);
    CHECK(s && json_valid(s));
    CHECK(s && strstr(s, "third") && strstr(s, "first"));
    CHECK(s && strstr(s, "third") < strstr(s, "first"));   /* in the list's order */
    CHECK(s && count_substr(s, "\"name\"") == 3);
    /* the same bytes as the bench that holds the same results renders, but for the times */
    CHECK(nb_render_results(nb_templ_csv(), list + 1, 2, g) == 0);
    t = check_slurp(g);
    CHECK(t && count_substr(t, "\n") == 3 && strstr(t, "first") && strstr(t, "second"));
    free(s);
    rewind(f);
    CHECK(nb_render_results("{{#result}}x{{/result}}[{{title}}]", list, 0, f) == 0);
    fflush(f);
    s = NULL;
    {
        char msg[128];
        CHECK(nb_render_results_diag("{{nonsense}}", list, 3, f, msg, sizeof msg) == -1);
        CHECK(strstr(msg, "nonsense") != NULL);
    }
out:
    free(s);
    free(t);
    if (f)
        fclose(f);
    if (g)
        fclose(g);
    nb_bench_free(a);
    nb_bench_free(b);
    nb_bench_free(both);
}

/* {{#context}} iterates a result's context pairs ({{key}}, {{value}},
 * -first/-last, the result's settings); escaped under {{%json}}; refused
 * where it cannot be. The HTML report carries them, and its JSON stays valid. */
static void test_context_section(void)
{
    static const char *const names[] = { "ctx" };
    nb_bench *b = nb_bench_new();
    char *s;
    int rc;
    if (!CHECK(b != NULL))
        return;
    nb_context(nb_context(b, "size", "64"), "quote", "a\"b");
    nb_output(nb_performance_counters(nb_epochs(b, EPOCHS), 0), NULL);
    nb_run(nb_name(b, names[0]), op_inc, NULL);
    s = render("{{#result}}{{#context}}{{name}}:{{key}}={{value}}{{^-last}};{{/-last}}"
               "{{/context}}{{/result}}", b, &rc);
    CHECK(rc == 0 && s && strcmp(s, "ctx:size=64;ctx:quote=a\"b") == 0);
    free(s);
    s = render("{{%json}}[{{#context}}\"{{value}}\"{{^-last}},{{/-last}}{{/context}}]", b, &rc);
    CHECK(rc == 0 && s && strcmp(s, "[\"64\",\"a\\\"b\"]") == 0 && json_valid(s));
    free(s);
    s = render("{{#result}}{{#context}}{{median(elapsed)}}{{/context}}{{/result}}", b, &rc);
    CHECK(rc == -1);
    free(s);
    s = render("{{#result}}{{#measurement}}{{#context}}x{{/context}}{{/measurement}}{{/result}}",
               b, &rc);
    CHECK(rc == -1);
    free(s);
    s = render(nb_templ_html(), b, &rc);
    if (CHECK(rc == 0 && s != NULL)) {
        const char *a = strstr(s, "<script id=\"nb-data\" type=\"application/json\">\n");
        const char *e = a ? strstr(a, "</script>") : NULL;
        CHECK(strstr(s, "\"context\": [[\"size\", \"64\"], [\"quote\", \"a\\\"b\"]]") != NULL);
        if (CHECK(a && e)) {
            char *island = malloc((size_t)(e - a) + 1);
            a = strchr(a, '\n') + 1;
            if (CHECK(island != NULL)) {
                memcpy(island, a, (size_t)(e - a));
                island[e - a] = '\0';
                CHECK(json_valid(island));
            }
            free(island);
        }
    }
    free(s);
    nb_bench_free(b);
}

int main(int argc, char **argv)
{
    (void)argc;
    check_rng_init(argv[0]);
    test_validator();
    test_diag();
    test_measurement_extras();
    test_json();
    test_csv();
    test_html_pyperf();
    test_golden();
    test_string_edges();
    test_seventeen_digits();
    test_long_context_key();
    test_comparison_tags();
    test_render_results();
    test_context_section();
    if (check_comma_locale()) { /* the same output whatever LC_NUMERIC the program set */
        test_json();
        test_csv();
        test_golden();
        test_seventeen_digits();
        check_c_locale();
    }
    test_malformed();
    test_errors();
    return check_finish();
}
