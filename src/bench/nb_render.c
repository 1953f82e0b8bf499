/* nanobench's mustache-like templates (see doc/templates.md).
 *
 * The template is tokenised and checked whole before anything is rendered,
 * and the output is built in memory and written with one fwrite at the end:
 * a malformed template, an unknown tag or a failed allocation writes nothing.
 *
 * Layers: {{#result}} iterates the results, {{#measurement}} the epochs of
 * one result, {{#context}} its context pairs ({{key}}, {{value}});
 * {{#-first}} {{^-first}} {{#-last}} {{^-last}} select by position inside a
 * layer. Beyond nanobench: a pragma {{%json}} / {{%csv}}
 * makes every value safe for that format (escaped strings, null or empty for
 * a value that was not measured), and {{! ...}} is a comment. */
#include "bench/nanobench.h"
#include "bench/nb_internal.h"
#include "util/alloc.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- error messages ---- */

/* Where the first error's message goes (msg NULL: nowhere), and the
 * template, so that a message can say on which line a tag sits. */
typedef struct {
    char *msg;
    size_t size;
    const char *tmpl;
    int set;
} rerr;

/* Records the first error only: "line L, column C, tag '{{...}}': what". at
 * points into the template (NULL: no position); tag_len is how much of it to
 * quote (at most 40 bytes, printable ASCII only). */
static void err_at(rerr *e, const char *at, size_t tag_len, const char *fmt, ...)
{
    size_t line = 1, col = 1, used = 0, i;
    const char *p;
    va_list ap;
    int n;

    if (!e || !e->msg || e->size == 0 || e->set)
        return;
    e->set = 1;
    if (at) {
        for (p = e->tmpl; p < at; ++p) {
            if (*p == '\n') {
                ++line;
                col = 1;
            } else {
                ++col;
            }
        }
        n = snprintf(e->msg, e->size, "line %zu, column %zu, tag '", line, col);
        used = n > 0 ? (size_t)n : 0;
        for (i = 0; i < tag_len && i < 40 && used + 1 < e->size; ++i) {
            unsigned char c = (unsigned char)at[i];
            e->msg[used++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
        }
        if (used < e->size) {
            n = snprintf(e->msg + used, e->size - used, "%s': ", i < tag_len ? "..." : "");
            used += n > 0 ? (size_t)n : 0;
        }
    }
    if (used < e->size) {
        va_start(ap, fmt);
        vsnprintf(e->msg + used, e->size - used, fmt, ap);
        va_end(ap);
    }
    e->msg[e->size - 1] = '\0';
}

/* ---- output buffer ---- */

typedef struct {
    char *p;
    size_t len, cap;
    int failed;
} obuf;

static void ob_put(obuf *o, const char *s, size_t n)
{
    if (o->failed || n == 0)
        return;
    if (o->len + n > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        char *p;
        while (cap < o->len + n)
            cap *= 2;
        p = bb_realloc(o->p, cap);
        if (!p) {
            o->failed = 1;
            return;
        }
        o->p = p;
        o->cap = cap;
    }
    memcpy(o->p + o->len, s, n);
    o->len += n;
}

static void ob_puts(obuf *o, const char *s)
{
    ob_put(o, s, strlen(s));
}

/* ---- tokens ---- */

enum tok_kind { T_TEXT, T_VALUE, T_OPEN, T_INVERTED, T_CLOSE };

typedef struct {
    enum tok_kind kind;
    const char *s; /* text, or the tag's name with the sigil and spaces removed */
    size_t len;
    const char *tag; /* the whole tag, from its "{{" */
    size_t tag_len;
    size_t close;  /* T_OPEN/T_INVERTED: index of the matching T_CLOSE */
} token;

enum mode { M_RAW, M_JSON, M_CSV };

static int name_is(const token *t, const char *s)
{
    return strlen(s) == t->len && memcmp(t->s, s, t->len) == 0;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Splits tmpl into tokens (comments and pragmas dropped, pragmas applied to
 * *mode). Returns the count, or (size_t)-1 on an unterminated tag, an empty
 * tag or an unknown pragma, (size_t)-2 when out of memory. */
static size_t tokenize(const char *tmpl, token **out, enum mode *mode, int *in_time_unit,
                       rerr *err)
{
    size_t max = 1, n = 0;
    const char *p;
    token *t;

    for (p = tmpl; (p = strstr(p, "{{")) != NULL; p += 2)
        max += 2;
    t = bb_malloc_array(max, sizeof *t);
    if (!t) {
        err_at(err, NULL, 0, "out of memory");
        return (size_t)-2;
    }

    p = tmpl;
    for (;;) {
        const char *open = strstr(p, "{{"), *close, *b, *e;
        char sigil;
        if (!open) {
            if (*p) {
                t[n].kind = T_TEXT;
                t[n].s = t[n].tag = p;
                t[n].len = t[n].tag_len = strlen(p);
                t[n++].close = 0;
            }
            break;
        }
        if (open > p) {
            t[n].kind = T_TEXT;
            t[n].s = t[n].tag = p;
            t[n].len = t[n].tag_len = (size_t)(open - p);
            t[n++].close = 0;
        }
        close = strstr(open + 2, "}}");
        if (!close) {
            err_at(err, open, strcspn(open, "\n"), "no '}}' closes this tag");
            goto bad;
        }
        p = close + 2;
        b = open + 2;
        e = close;
        while (b < e && is_space(*b))
            ++b;
        sigil = b < e ? *b : '\0';
        if (sigil == '!')
            continue;
        if (sigil == '#' || sigil == '^' || sigil == '/' || sigil == '%') {
            ++b;
            while (b < e && is_space(*b))
                ++b;
        }
        while (e > b && is_space(e[-1]))
            --e;
        if (b == e) {
            err_at(err, open, (size_t)(p - open), "empty tag");
            goto bad;
        }
        if (sigil == '%') {
            size_t len = (size_t)(e - b);
            if (len == 4 && memcmp(b, "json", 4) == 0)
                *mode = M_JSON;
            else if (len == 3 && memcmp(b, "csv", 3) == 0)
                *mode = M_CSV;
            else if (len == 3 && memcmp(b, "raw", 3) == 0)
                *mode = M_RAW;
            else if (len == 8 && memcmp(b, "timeunit", 8) == 0)
                *in_time_unit = 1;
            else {
                err_at(err, open, (size_t)(p - open),
                       "unknown pragma (json, csv, raw and timeunit are known)");
                goto bad;
            }
            continue;
        }
        t[n].kind = sigil == '#' ? T_OPEN : sigil == '^' ? T_INVERTED
                  : sigil == '/' ? T_CLOSE : T_VALUE;
        t[n].s = b;
        t[n].len = (size_t)(e - b);
        t[n].tag = open;
        t[n].tag_len = (size_t)(p - open);
        t[n++].close = 0;
    }
    *out = t;
    return n;
bad:
    bb_free(t);
    return (size_t)-1;
}

/* ---- tag names ---- */

enum layer { L_TOP, L_RESULT, L_MEAS, L_CTX };

static const char *const config_tags[] = {
    "batch", "complexityN", "epochs", "clockResolution", "clockResolutionMultiple",
    "maxEpochTime", "minEpochTime", "minEpochIterations", "epochIterations", "warmup",
    "relative", "innerLoops",
};
#define CONFIG_TAG_COUNT (sizeof config_tags / sizeof config_tags[0])

/* What nb_compare found (nb_result_comparison): nan / false for other results. */
static const char *const comparison_tags[] = {
    "ratio", "ratioLow", "ratioHigh", "significant", "fastest", "baseline",
};
#define COMPARISON_TAG_COUNT (sizeof comparison_tags / sizeof comparison_tags[0])

static int is_comparison_tag(const token *t)
{
    size_t i;
    for (i = 0; i < COMPARISON_TAG_COUNT; ++i)
        if (name_is(t, comparison_tags[i]))
            return 1;
    return 0;
}

static int is_config_tag(const token *t)
{
    size_t i;
    for (i = 0; i < CONFIG_TAG_COUNT; ++i)
        if (name_is(t, config_tags[i]))
            return 1;
    return is_comparison_tag(t);
}

static int is_string_tag(const token *t)
{
    return name_is(t, "title") || name_is(t, "name") || name_is(t, "unit") ||
           name_is(t, "timeUnit") || name_is(t, "implausible") || name_is(t, "runName") ||
           name_is(t, "comparedTo");
}

static int measure_of(const char *s, size_t len, nb_measure *m)
{
    char buf[32];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    return nb_measure_from_name(buf, m);
}

enum fn_kind { F_NONE, F_MEDIAN, F_AVERAGE, F_MDAPE, F_SUM, F_MIN, F_MAX, F_SUMPRODUCT,
               F_CONTEXT, F_STDDEV, F_PER_UNIT, F_Q1 };

/* A parsed call such as "sumProduct(iterations, elapsed)". */
typedef struct {
    enum fn_kind fn;
    nb_measure m1, m2;
    const char *arg; /* context: the key */
    size_t arg_len;
} call;

static void trim(const char **b, const char **e)
{
    while (*b < *e && is_space(**b))
        ++*b;
    while (*e > *b && is_space((*e)[-1]))
        --*e;
}

/* 0 and *c filled when t is a well-formed call, -1 otherwise. */
static int parse_call(const token *t, call *c)
{
    static const struct {
        const char *name;
        enum fn_kind fn;
    } fns[] = {
        {"median", F_MEDIAN}, {"average", F_AVERAGE}, {"medianAbsolutePercentError", F_MDAPE},
        {"sum", F_SUM}, {"minimum", F_MIN}, {"maximum", F_MAX}, {"sumProduct", F_SUMPRODUCT},
        {"context", F_CONTEXT}, {"standardDeviation", F_STDDEV}, {"perUnit", F_PER_UNIT},
        {"lowerQuartile", F_Q1},
    };
    const char *end = t->s + t->len, *lp = memchr(t->s, '(', t->len), *b, *e, *comma;
    size_t i, fl;

    if (!lp || end[-1] != ')')
        return -1;
    fl = (size_t)(lp - t->s);
    while (fl > 0 && is_space(t->s[fl - 1]))
        --fl;
    c->fn = F_NONE;
    for (i = 0; i < sizeof fns / sizeof fns[0]; ++i)
        if (strlen(fns[i].name) == fl && memcmp(fns[i].name, t->s, fl) == 0)
            c->fn = fns[i].fn;
    if (c->fn == F_NONE)
        return -1;
    b = lp + 1;
    e = end - 1;
    if (c->fn == F_CONTEXT) {
        trim(&b, &e);
        if (b == e)
            return -1;
        c->arg = b;
        c->arg_len = (size_t)(e - b);
        return 0;
    }
    comma = memchr(b, ',', (size_t)(e - b));
    if ((c->fn == F_SUMPRODUCT) != (comma != NULL))
        return -1;
    if (comma) {
        const char *b2 = comma + 1, *e2 = e;
        e = comma;
        trim(&b2, &e2);
        if (memchr(b2, ',', (size_t)(e2 - b2)) || measure_of(b2, (size_t)(e2 - b2), &c->m2))
            return -1;
    }
    trim(&b, &e);
    return measure_of(b, (size_t)(e - b), &c->m1);
}

/* ---- checking the structure ---- */

static int is_first_last(const token *t)
{
    return name_is(t, "-first") || name_is(t, "-last");
}

/* Sections nest at most this deep: result, measurement and a few -first /
 * -last inside are all a template needs, and the checker and renderer
 * recurse once per level, so a template of thousands of unclosed sections
 * must be refused before it exhausts the stack. */
#define NB_MAX_NESTING 32

/* Checks tokens [i, end) in layer ly, depth sections deep; matches closes to
 * opens. Returns the index after the last consumed token, or (size_t)-1. */
static size_t check(token *t, size_t i, size_t n, enum layer ly, const token *opener,
                    int depth, rerr *err)
{
    while (i < n) {
        token *k = &t[i];
        switch (k->kind) {
        case T_TEXT:
            break;
        case T_VALUE: {
            call c;
            nb_measure m;
            if (ly == L_CTX) {
                if (!name_is(k, "key") && !name_is(k, "value") && !is_config_tag(k) &&
                    !is_string_tag(k)) {
                    err_at(err, k->tag, k->tag_len, "inside {{#context}} a tag is key, value, "
                           "or a setting, title, name or unit of the result");
                    return (size_t)-1;
                }
            } else if (ly == L_MEAS) {
                if (measure_of(k->s, k->len, &m) && !is_config_tag(k) && !is_string_tag(k) &&
                    (parse_call(k, &c) || c.fn != F_PER_UNIT)) {
                    err_at(err, k->tag, k->tag_len, "inside {{#measurement}} a tag is a "
                           "measure name (elapsed, iterations, pagefaults, cpucycles, estcycles, "
                           "contextswitches, instructions, branchinstructions, "
                           "branchmisses), perUnit(measure), or a setting, title, name or "
                           "unit of the result");
                    return (size_t)-1;
                }
            } else if (!is_config_tag(k) && !is_string_tag(k) && parse_call(k, &c)) {
                err_at(err, k->tag, k->tag_len, "unknown tag: not a setting, title, name, "
                       "unit or a call such as median(elapsed) with a known measure");
                return (size_t)-1;
            } else if (!is_config_tag(k) && !is_string_tag(k) && c.fn == F_PER_UNIT) {
                err_at(err, k->tag, k->tag_len, "perUnit(...) is an epoch's value: use it "
                       "inside {{#measurement}}");
                return (size_t)-1;
            }
            break;
        }
        case T_OPEN:
        case T_INVERTED: {
            enum layer inner;
            size_t after;
            if (is_first_last(k) && ly != L_TOP)
                inner = ly;
            else if (k->kind == T_OPEN && name_is(k, "result") && ly == L_TOP)
                inner = L_RESULT;
            else if (k->kind == T_OPEN && name_is(k, "measurement") && ly != L_MEAS &&
                     ly != L_CTX)
                inner = L_MEAS;
            else if (k->kind == T_OPEN && name_is(k, "context") && ly != L_MEAS && ly != L_CTX)
                inner = L_CTX;
            else {
                err_at(err, k->tag, k->tag_len, "%s",
                       is_first_last(k) ? "-first and -last select inside a {{#result}}, "
                                          "{{#measurement}} or {{#context}} section only"
                       : name_is(k, "result") ? "{{#result}} opens at the top only, once "
                                                "per level"
                       : name_is(k, "measurement") || name_is(k, "context")
                           ? "{{#measurement}} and {{#context}} open in a result, not in "
                             "each other"
                       : "unknown section (result, measurement, context, -first and -last "
                         "are known)");
                return (size_t)-1;
            }
            if (depth >= NB_MAX_NESTING) {
                err_at(err, k->tag, k->tag_len, "sections nest deeper than %d",
                       NB_MAX_NESTING);
                return (size_t)-1;
            }
            after = check(t, i + 1, n, inner, k, depth + 1, err);
            if (after == (size_t)-1)
                return after;
            k->close = after - 1;
            i = after;
            continue;
        }
        case T_CLOSE:
            if (!opener) {
                err_at(err, k->tag, k->tag_len, "closes a section that was never opened");
                return (size_t)-1;
            }
            if (opener->len != k->len || memcmp(opener->s, k->s, k->len) != 0) {
                err_at(err, k->tag, k->tag_len, "does not close the open section "
                       "'{{%c%.*s}}'", opener->kind == T_OPEN ? '#' : '^',
                       (int)(opener->len < 40 ? opener->len : 40), opener->s);
                return (size_t)-1;
            }
            return i + 1;
        }
        ++i;
    }
    if (opener) /* an opener here was never closed */
        err_at(err, opener->tag, opener->tag_len, "this section is never closed");
    return opener ? (size_t)-1 : i;
}

/* ---- values ---- */

typedef struct {
    const nb_bench *bench;          /* NULL when rendering a list of results */
    const nb_result *const *results;
    size_t count;
    obuf *o;
    enum mode mode;
    int in_time_unit; /* {{%timeunit}}: times in the result's time unit, not seconds */
    rerr *err;
} render_ctx;

/* v, a value of measure m (or of m2 too, for sumProduct) of r: a time is written in r's time
 * unit under {{%timeunit}}, in seconds otherwise. */
static double in_unit(const render_ctx *x, const nb_result *r, nb_measure m, nb_measure m2,
                      double v)
{
    if (x->in_time_unit && (m == NB_ELAPSED || m2 == NB_ELAPSED) && r->cfg.time_unit > 0)
        return v / r->cfg.time_unit;
    return v;
}

/* Shortest of %.15g..%.17g that reads back as v, with the decimal point a
 * '.' whatever the locale says. */
static void format_number(char *buf, size_t size, double v)
{
    int prec;
    for (prec = 15; prec <= 17; ++prec) {
        snprintf(buf, size, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) /* both in the same locale */
            break;
    }
    nb_c_decimal_point(buf);
}

static void put_number(render_ctx *x, double v)
{
    char buf[40];

    if (!isfinite(v)) {
        if (x->mode == M_JSON)
            ob_puts(x->o, "null");
        else if (x->mode == M_RAW)
            ob_puts(x->o, isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
        return; /* CSV: an empty field */
    }
    format_number(buf, sizeof buf, v);
    ob_puts(x->o, buf);
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    size_t len, i;
    uint32_t cp;
    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xc2 && s[0] <= 0xdf) {
        len = 2;
        cp = s[0] & 0x1f;
    } else if (s[0] >= 0xe0 && s[0] <= 0xef) {
        len = 3;
        cp = s[0] & 0x0f;
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        len = 4;
        cp = s[0] & 0x07;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (i = 1; i < len; ++i) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
        (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
        return 0;
    return len;
}

/* A JSON string body that is also safe inside a JavaScript string in either
 * quote and inside an HTML <script>: quotes, backslash, controls, < > & and
 * U+2028/U+2029 escaped; invalid UTF-8 becomes U+FFFD. */
static void put_json_string(obuf *o, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    char esc[8];
    while (n > 0) {
        unsigned char ch = *p;
        size_t len = utf8_len(p, n);
        if (len == 0) {
            ob_puts(o, "\\ufffd");
            len = 1;
        } else if (len == 3 && ch == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9)) {
            ob_puts(o, p[2] == 0xa8 ? "\\u2028" : "\\u2029");
        } else if (len > 1) {
            ob_put(o, (const char *)p, len);
        } else if (ch == '"') {
            ob_puts(o, "\\\"");
        } else if (ch == '\\') {
            ob_puts(o, "\\\\");
        } else if (ch == '\n') {
            ob_puts(o, "\\n");
        } else if (ch == '\r') {
            ob_puts(o, "\\r");
        } else if (ch == '\t') {
            ob_puts(o, "\\t");
        } else if (ch < 0x20 || ch == 0x7f || ch == '<' || ch == '>' || ch == '&' || ch == '\'') {
            snprintf(esc, sizeof esc, "\\u%04x", ch);
            ob_puts(o, esc);
        } else {
            ob_put(o, (const char *)p, 1);
        }
        p += len;
        n -= len;
    }
}

/* A CSV field (';' or ',' separated): quoted, with quotes doubled, only when
 * it holds a separator, a quote, a line break or edge whitespace. */
static void put_csv_string(obuf *o, const char *s)
{
    size_t n = strlen(s);
    if (n > 0 && strcspn(s, ";,\"\r\n") == n && !is_space(s[0]) && !is_space(s[n - 1])) {
        ob_put(o, s, n);
        return;
    }
    ob_put(o, "\"", 1);
    for (; *s; ++s) {
        if (*s == '"')
            ob_put(o, "\"", 1);
        ob_put(o, s, 1);
    }
    ob_put(o, "\"", 1);
}

static void put_string(render_ctx *x, const char *s)
{
    if (!s)
        s = "";
    if (x->mode == M_JSON)
        put_json_string(x->o, s);
    else if (x->mode == M_CSV)
        put_csv_string(x->o, s);
    else
        ob_puts(x->o, s);
}

/* Config values of r, or of the bench when r is NULL (no results yet). */
static int config_value(const nb_bench *b, const nb_result *r, const token *t, double *v)
{
    char tag[32];
    if (t->len >= sizeof tag)
        return -1;
    memcpy(tag, t->s, t->len);
    tag[t->len] = '\0';
    if (r)
        return nb_result_config(r, tag, v);
    if (!strcmp(tag, "batch")) *v = nb_get_batch(b);
    else if (!strcmp(tag, "complexityN")) *v = nb_get_complexity_n(b);
    else if (!strcmp(tag, "epochs")) *v = (double)nb_get_epochs(b);
    else if (!strcmp(tag, "clockResolution")) *v = nb_clock_resolution();
    else if (!strcmp(tag, "clockResolutionMultiple"))
        *v = (double)nb_get_clock_resolution_multiple(b);
    else if (!strcmp(tag, "maxEpochTime")) *v = (double)nb_get_max_epoch_time(b) * 1e-9;
    else if (!strcmp(tag, "minEpochTime")) *v = (double)nb_get_min_epoch_time(b) * 1e-9;
    else if (!strcmp(tag, "minEpochIterations")) *v = (double)nb_get_min_epoch_iterations(b);
    else if (!strcmp(tag, "epochIterations")) *v = (double)nb_get_epoch_iterations(b);
    else if (!strcmp(tag, "warmup")) *v = (double)nb_get_warmup(b);
    else if (!strcmp(tag, "relative")) *v = nb_get_relative(b) ? 1.0 : 0.0;
    else return -1;
    return 0;
}

/* {{runName}}: the name, and "/N" after it when the complexity N is set, as Google
 * Benchmark names a benchmark run with an argument ("Name/800"). */
static int put_run_name(render_ctx *x, const nb_result *r)
{
    const char *name = r ? nb_result_name(r) : nb_get_name(x->bench);
    double n = r ? r->cfg.complexity_n : nb_get_complexity_n(x->bench);
    char num[40], *s;
    size_t len;
    if (!name)
        name = "";
    if (!(n >= 0) || !isfinite(n)) {
        put_string(x, name);
        return 0;
    }
    format_number(num, sizeof num, n);
    len = strlen(name);
    s = bb_malloc(len + strlen(num) + 2);
    if (!s) {
        err_at(x->err, NULL, 0, "out of memory");
        x->o->failed = 1;
        return -1;
    }
    memcpy(s, name, len);
    s[len] = '/';
    strcpy(s + len + 1, num);
    put_string(x, s);
    bb_free(s);
    return 0;
}

/* A comparison tag of r: a number (nan when r is not from nb_compare) or true/false. */
static void put_comparison(render_ctx *x, const nb_result *r, const token *t)
{
    const nb_result_comparison *c = r && r->cmp.baseline ? &r->cmp : NULL;
    if (name_is(t, "ratio"))
        put_number(x, c ? c->ratio : NAN);
    else if (name_is(t, "ratioLow"))
        put_number(x, c ? c->low : NAN);
    else if (name_is(t, "ratioHigh"))
        put_number(x, c ? c->high : NAN);
    else
        ob_puts(x->o, c && (name_is(t, "significant") ? c->significant
                            : name_is(t, "fastest") ? c->fastest : c->is_baseline)
                      ? "true" : "false");
}

/* A config or string tag of r (or of the bench when r is NULL); -1 when t is
 * neither. */
static int put_config(render_ctx *x, const nb_result *r, const token *t)
{
    double v;
    if (name_is(t, "innerLoops")) {
        /* pyperf's inner_loops: the batch, which must be a whole number there */
        v = r ? nb_result_batch(r) : nb_get_batch(x->bench);
        if (!(v >= 1 && v <= 9007199254740992.0 && v == floor(v))) {
            char num[40];
            snprintf(num, sizeof num, "%.17g", v);
            nb_c_decimal_point(num);
            err_at(x->err, t->tag, t->tag_len, "the batch %s is not a whole number >= 1, "
                   "which an inner loop count must be", num);
            return -1;
        }
        put_number(x, v);
        return 0;
    }
    if (name_is(t, "title"))
        put_string(x, r ? nb_result_title(r) : nb_get_title(x->bench));
    else if (name_is(t, "name"))
        put_string(x, r ? nb_result_name(r) : nb_get_name(x->bench));
    else if (name_is(t, "unit"))
        put_string(x, r ? nb_result_unit(r) : nb_get_unit(x->bench));
    else if (name_is(t, "timeUnit"))
        put_string(x, r ? r->cfg.time_unit_name : nb_get_time_unit_name(x->bench));
    else if (name_is(t, "implausible")) {
        char why[200] = "";
        if (r)
            nb_result_implausible(r, why, sizeof why);
        put_string(x, why);
    }
    else if (name_is(t, "runName"))
        return put_run_name(x, r);
    else if (name_is(t, "comparedTo"))
        put_string(x, r ? r->cmp.baseline : NULL);
    else if (is_comparison_tag(t))
        put_comparison(x, r, t);
    else if (config_value(x->bench, r, t, &v))
        return -1;
    else if (name_is(t, "relative"))
        ob_puts(x->o, v != 0.0 ? "true" : "false");
    else
        put_number(x, v);
    return 0;
}

/* Sample standard deviation of m's per-iteration values over r's epochs; NAN
 * with fewer than two epochs or when m was not measured. */
static double stddev(const nb_result *r, nb_measure m)
{
    size_t i, n = nb_result_epoch_count(r);
    double mean = 0, ss = 0;
    if (n < 2 || !nb_result_has(r, m))
        return NAN;
    for (i = 0; i < n; ++i)
        mean += nb_result_epoch(r, m, i);
    mean /= (double)n;
    for (i = 0; i < n; ++i) {
        double d = nb_result_epoch(r, m, i) - mean;
        ss += d * d;
    }
    return sqrt(ss / (double)(n - 1));
}

/* A result-layer value: config, string or call. r may be NULL only for
 * config and string tags. */
static int put_result_value(render_ctx *x, const nb_result *r, const token *t)
{
    call c;
    if (is_config_tag(t) || is_string_tag(t))
        return put_config(x, r, t);
    if (!r || parse_call(t, &c))
        return -1;
    switch (c.fn) {
    case F_MEDIAN: put_number(x, in_unit(x, r, c.m1, c.m1, nb_result_median(r, c.m1))); break;
    case F_AVERAGE:
        put_number(x, in_unit(x, r, c.m1, c.m1, nb_result_average(r, c.m1)));
        break;
    case F_MDAPE: put_number(x, nb_result_err(r, c.m1)); break;
    case F_SUM: put_number(x, in_unit(x, r, c.m1, c.m1, nb_result_sum(r, c.m1))); break;
    case F_MIN: put_number(x, in_unit(x, r, c.m1, c.m1, nb_result_minimum(r, c.m1))); break;
    case F_Q1:
        put_number(x, in_unit(x, r, c.m1, c.m1, nb_result_lower_quartile(r, c.m1)));
        break;
    case F_MAX: put_number(x, in_unit(x, r, c.m1, c.m1, nb_result_maximum(r, c.m1))); break;
    case F_SUMPRODUCT:
        put_number(x, in_unit(x, r, c.m1, c.m2, nb_result_sum_product(r, c.m1, c.m2)));
        break;
    case F_STDDEV: put_number(x, in_unit(x, r, c.m1, c.m1, stddev(r, c.m1))); break;
    case F_PER_UNIT: return -1; /* check() keeps it inside {{#measurement}} */
    case F_CONTEXT: {
        /* Looked up in place, by length: a key of any length that
         * nb_context accepted can be read back. */
        const char *val = nb_result_context_len(r, c.arg, c.arg_len);
        if (!val) { /* as nanobench: an unset key is an error */
            err_at(x->err, t->tag, t->tag_len, "result '%s' has no context of that key",
                   nb_result_name(r) ? nb_result_name(r) : "");
            return -1;
        }
        put_string(x, val);
        break;
    }
    case F_NONE:
        return -1;
    }
    return 0;
}

/* ---- rendering ---- */

/* Renders tokens [i, end) in layer ly; r is the current result (NULL at the
 * top with several results), idx/count the position in the layer (the epoch,
 * or the context pair). */
static int render_range(render_ctx *x, const token *t, size_t i, size_t end, enum layer ly,
                        const nb_result *r, size_t idx, size_t count)
{
    while (i < end) {
        const token *k = &t[i];
        switch (k->kind) {
        case T_TEXT:
            ob_put(x->o, k->s, k->len);
            break;
        case T_VALUE:
            if (ly == L_CTX) {
                if (name_is(k, "key"))
                    put_string(x, r->cfg.context[idx].key);
                else if (name_is(k, "value"))
                    put_string(x, r->cfg.context[idx].value);
                else if (put_config(x, r, k))
                    return -1;
            } else if (ly == L_MEAS) {
                nb_measure m;
                call c;
                if (measure_of(k->s, k->len, &m) == 0)
                    put_number(x, in_unit(x, r, m, m, nb_result_epoch(r, m, idx)));
                else if (parse_call(k, &c) == 0 && c.fn == F_PER_UNIT)
                    put_number(x, in_unit(x, r, c.m1, c.m1, nb_result_epoch(r, c.m1, idx))
                                  / nb_result_batch(r));
                else if (put_config(x, r, k))
                    return -1;
            } else if (put_result_value(x, r, k)) {
                return -1;
            }
            break;
        case T_OPEN:
        case T_INVERTED:
            if (is_first_last(k)) {
                int hit = name_is(k, "-first") ? idx == 0 : idx + 1 == count;
                if (hit == (k->kind == T_OPEN) &&
                    render_range(x, t, i + 1, k->close, ly, r, idx, count))
                    return -1;
            } else if (name_is(k, "result")) {
                size_t j, n = x->count;
                for (j = 0; j < n; ++j)
                    if (render_range(x, t, i + 1, k->close, L_RESULT, x->results[j], j, n))
                        return -1;
            } else { /* measurement or context */
                int ctx = name_is(k, "context");
                size_t j, n;
                if (!r)
                    return -1; /* at the top it needs exactly one result */
                n = ctx ? r->cfg.context_count : nb_result_epoch_count(r);
                for (j = 0; j < n; ++j)
                    if (render_range(x, t, i + 1, k->close, ctx ? L_CTX : L_MEAS, r, j, n))
                        return -1;
            }
            i = k->close + 1;
            continue;
        case T_CLOSE:
            return -1; /* check() consumed them all */
        }
        if (x->o->failed)
            return -1;
        ++i;
    }
    return 0;
}

/* nb_render_diag over b's results, or, with b NULL, over results[0..count)
 * (nb_render_results_diag; config tags outside {{#result}} then report
 * nanobench's defaults). */
static int render(const char *tmpl, const nb_bench *b, const nb_result *const *results,
                  size_t count, FILE *out, char *msg, size_t size)
{
    rerr err;
    token *t = NULL;
    size_t n, i;
    enum mode mode = M_RAW;
    int in_time_unit = 0;
    obuf o = {NULL, 0, 0, 0};
    render_ctx x;
    const nb_result *top;
    int rc = -1, why = EINVAL; /* errno on failure, unless the buffer or a write failed */

    err.msg = msg;
    err.size = size;
    err.tmpl = tmpl;
    err.set = 0;
    if (msg && size)
        msg[0] = '\0';
    for (i = 0; results && i < count && results[i]; ++i)
        ;
    if (!tmpl || !out || (!results && count) || i < count) {
        err_at(&err, NULL, 0, "%s is NULL", !tmpl ? "the template" : !out ? "the output"
                                            : !results ? "the results" : "a result");
        errno = EINVAL;
        return -1;
    }
    n = tokenize(tmpl, &t, &mode, &in_time_unit, &err);
    if (n == (size_t)-1 || n == (size_t)-2) {
        errno = n == (size_t)-2 ? ENOMEM : EINVAL;
        return -1;
    }
    if (check(t, 0, n, L_TOP, NULL, 0, &err) != n) {
        err_at(&err, NULL, 0, "malformed template"); /* when no message was set above */
        goto done;
    }

    x.bench = b;
    x.results = results;
    x.count = count;
    x.o = &o;
    x.mode = mode;
    x.in_time_unit = in_time_unit;
    x.err = &err;
    /* At the top, nanobench lets every result tag through when there is
     * exactly one result; otherwise only config tags, from the last result. */
    top = count ? results[count - 1] : NULL;
    if (count == 1) {
        if (render_range(&x, t, 0, n, L_RESULT, top, 0, 1))
            goto done;
    } else {
        for (i = 0; i < n; ++i) /* calls and {{#measurement}} need one result */
            if ((t[i].kind == T_VALUE && !is_config_tag(&t[i]) && !is_string_tag(&t[i])) ||
                (t[i].kind == T_OPEN && (name_is(&t[i], "measurement") ||
                                         name_is(&t[i], "context"))))
                break;
            else if (t[i].kind == T_OPEN || t[i].kind == T_INVERTED)
                i = t[i].close;
        if (i < n) {
            err_at(&err, t[i].tag, t[i].tag_len, "outside {{#result}} this needs exactly one "
                   "result, and there are %zu", count);
            goto done;
        }
        if (render_range(&x, t, 0, n, L_TOP, top, 0, count))
            goto done;
    }
    why = errno = 0;
    if (o.len && fwrite(o.p, 1, o.len, out) != o.len)
        why = errno ? errno : EIO;
    else if (fflush(out) != 0 || ferror(out))
        why = errno ? errno : EIO;
    else
        rc = 0;
    if (rc != 0)
        err_at(&err, NULL, 0, "writing the output failed: %s", strerror(why));
done:
    if (o.failed) {
        why = ENOMEM; /* the output buffer could not grow: the error behind a failed render */
        err.set = 0;
        err_at(&err, NULL, 0, "out of memory");
    } else if (rc != 0) {
        err_at(&err, NULL, 0, "rendering failed"); /* only when nothing more precise was said */
    }
    bb_free(o.p);
    bb_free(t);
    if (rc != 0)
        errno = why;
    return rc;
}

int nb_render(const char *tmpl, const nb_bench *b, FILE *out)
{
    return nb_render_diag(tmpl, b, out, NULL, 0);
}

int nb_render_diag(const char *tmpl, const nb_bench *b, FILE *out, char *msg, size_t size)
{
    if (!b) {
        if (msg && size)
            snprintf(msg, size, "the bench is NULL");
        errno = EINVAL;
        return -1;
    }
    return render(tmpl, b, (const nb_result *const *)b->results, b->result_count, out, msg,
                  size);
}

int nb_render_results(const char *tmpl, const nb_result *const *results, size_t count,
                      FILE *out)
{
    return nb_render_results_diag(tmpl, results, count, out, NULL, 0);
}

int nb_render_results_diag(const char *tmpl, const nb_result *const *results, size_t count,
                           FILE *out, char *msg, size_t size)
{
    return render(tmpl, NULL, results, count, out, msg, size);
}
