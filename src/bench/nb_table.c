/* nanobench's result table: one row per result, a header whenever the
 * columns or the title change on a stream (or something else was written to
 * it between rows), written with the markdown writer (nb_markdown.c). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"
#include "util/spinlock.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <string.h>

/* A column of the result table: the writer's column (its text width is
 * nanobench's column width less the '|' and the space after the text), the
 * number's precision, and the header as three pieces kept as pointers (into
 * r's settings or literals): a unit or time unit of any length is printed and
 * compared whole. */
typedef struct {
    nb_column col;
    int precision;
    const char *title[3];
    const char *suffix;
    double value;
    const char *text;   /* a context column's cell (NULL: a number) */
} res_column;

/* Context pairs shown as columns (nb_show_context): the first this many. */
#define NB_MAX_CONTEXT_COLUMNS 8
#define NB_MAX_COLUMNS (12 + NB_MAX_CONTEXT_COLUMNS)

static void add_col3(res_column *c, size_t *n, int width, int precision, const char *t1,
                     const char *t2, const char *t3, const char *suffix, double value)
{
    res_column *col = &c[(*n)++];
    col->col.header = NULL;
    col->col.width = width - 2;
    col->col.align = NB_ALIGN_RIGHT;
    col->col.lead = 0;
    col->precision = precision;
    col->title[0] = t1;
    col->title[1] = t2;
    col->title[2] = t3;
    col->suffix = suffix;
    col->value = value;
    col->text = NULL;
}

static void add_col(res_column *c, size_t *n, int width, int precision, const char *t1,
                    const char *t2, const char *suffix, double value)
{
    add_col3(c, n, width, precision, t1, t2, "", suffix, value);
}

static double per_unit(const nb_result *r, nb_measure m)
{
    return nb_result_median(r, m) / r->cfg.batch;
}

/* 1 when column id is not hidden for r (nb_show_column). */
static int shown(const nb_result *r, nb_column_id id)
{
    return !((r->cfg.hidden >> id) & 1u);
}

static size_t columns(res_column *c, const nb_result *r, const nb_result *first, unsigned mask)
{
    size_t n = 0, k;
    const char *unit = r->cfg.unit;
    double med = per_unit(r, NB_ELAPSED);
    if (r->cfg.relative && shown(r, NB_COLUMN_RELATIVE)) {
        double d = 100.0, f = per_unit(first, NB_ELAPSED);
        if (first != r)
            d = med <= 0 ? 0.0 : f / med * 100.0;
        add_col(c, &n, 11, 1, "relative", "", "%", d);
    }
    if (r->cfg.complexity_n > 0 && isfinite(r->cfg.complexity_n) && /* as Big-O uses it */
        shown(r, NB_COLUMN_COMPLEXITY_N))
        add_col(c, &n, 14, 0, "complexityN", "", "", r->cfg.complexity_n);
    if (shown(r, NB_COLUMN_TIME))
        add_col3(c, &n, 22, 2, r->cfg.time_unit_name, "/", unit, "", med / r->cfg.time_unit);
    if (shown(r, NB_COLUMN_RATE))
        add_col(c, &n, 22, 2, unit, "/s", "", med <= 0 ? 0.0 : 1.0 / med);
    if (shown(r, NB_COLUMN_ERR))
        add_col(c, &n, 10, 1, "err%", "", "%", nb_result_err(r, NB_ELAPSED) * 100.0);
    if ((mask & (1u << NB_INSTRUCTIONS)) && shown(r, NB_COLUMN_INSTRUCTIONS))
        add_col(c, &n, 18, 2, "ins/", unit, "", per_unit(r, NB_INSTRUCTIONS));
    if (!shown(r, NB_COLUMN_CYCLES))
        ;
    else if (mask & (1u << NB_CPU_CYCLES))
        add_col(c, &n, 18, 2, "cyc/", unit, "", per_unit(r, NB_CPU_CYCLES));
    else if (mask & (1u << NB_EST_CYCLES)) /* no counter: the probe's estimate */
        add_col(c, &n, 18, 2, "~cyc/", unit, "",
                nb_result_lower_quartile(r, NB_EST_CYCLES) / r->cfg.batch);
    if ((mask & (1u << NB_INSTRUCTIONS)) && (mask & (1u << NB_CPU_CYCLES)) &&
        shown(r, NB_COLUMN_IPC)) {
        double cyc = per_unit(r, NB_CPU_CYCLES);
        add_col(c, &n, 9, 3, "IPC", "", "",
                cyc <= 0 ? 0.0 : per_unit(r, NB_INSTRUCTIONS) / cyc);
    }
    if (mask & (1u << NB_BRANCH_INSTRUCTIONS)) {
        double bra = per_unit(r, NB_BRANCH_INSTRUCTIONS);
        if (shown(r, NB_COLUMN_BRANCHES))
            add_col(c, &n, 17, 2, "bra/", unit, "", bra);
        if ((mask & (1u << NB_BRANCH_MISSES)) && shown(r, NB_COLUMN_MISSES)) {
            double p = bra >= 1e-9 ? 100.0 * per_unit(r, NB_BRANCH_MISSES) / bra : 0.0;
            /* callgrind's misses are its simulated predictor's, not the CPU's */
            add_col(c, &n, r->counted ? 12 : 10, 1, r->counted ? "sim.miss%" : "miss%", "",
                    "%", p);
        }
    }
    if (shown(r, NB_COLUMN_TOTAL))
        add_col(c, &n, 12, 2, "total", "", "",
                r->count ? nb_result_sum_product(r, NB_ELAPSED, NB_ITERATIONS) : NAN);
    /* context pairs, each as wide as its key or 10, whichever is more */
    for (k = 0; r->cfg.show_context && k < r->cfg.context_count && k < NB_MAX_CONTEXT_COLUMNS;
         ++k) {
        const nb_context_pair *p = &r->cfg.context[k];
        size_t w = nb_markdown_width(p->key) + 2;
        add_col(c, &n, w < 12 ? 12 : (int)w, 0, p->key, "", "", 0);
        c[n - 1].text = p->value;
    }
    return n;
}

/* Which header each stream saw last, by a hash of its text, and where the
 * stream stood after our last row (-1: not seekable). A small table is
 * enough: programs write tables to a handful of streams. Benches on
 * different threads share it, hence the lock (held for a few loads and
 * stores). */
#define NB_STREAMS 16
static struct {
    FILE *f;
    uint64_t hash;
    long end;
} seen[NB_STREAMS];
static unsigned seen_next;
static char seen_lock;

static uint64_t fnv1a(const char *s, uint64_t h)
{
    while (*s)
        h = (h ^ (unsigned char)*s++) * UINT64_C(1099511628211);
    return h;
}

/* out's slot in seen, or NB_STREAMS; the caller holds seen_lock. */
static unsigned seen_slot(const FILE *out)
{
    unsigned i;
    for (i = 0; i < NB_STREAMS; ++i)
        if (seen[i].f == out)
            break;
    return i;
}

void nb_table_forget(FILE *out)
{
    unsigned i;
    bb_spin_lock(&seen_lock);
    if ((i = seen_slot(out)) < NB_STREAMS)
        seen[i].f = NULL;
    bb_spin_unlock(&seen_lock);
}

/* 1 when out needs a header for hash, and remembers the hash. A seekable
 * stream that is not where our last row left it needs one too: something
 * else was written in between (which ends a markdown table), or it is a new
 * stream at an old FILE's address. */
static int need_header(FILE *out, uint64_t hash)
{
    unsigned i;
    int need = 1;
    long pos = ftell(out);
    bb_spin_lock(&seen_lock);
    if ((i = seen_slot(out)) < NB_STREAMS) {
        need = seen[i].hash != hash || pos != seen[i].end;
    } else {
        i = seen_next;
        seen_next = (seen_next + 1) % NB_STREAMS;
        seen[i].f = out;
    }
    seen[i].hash = hash;
    seen[i].end = -2; /* until the row is written */
    bb_spin_unlock(&seen_lock);
    return need;
}

/* Records where out stands after a row. */
static void row_written(FILE *out)
{
    unsigned i;
    long pos = ftell(out);
    bb_spin_lock(&seen_lock);
    if ((i = seen_slot(out)) < NB_STREAMS)
        seen[i].end = pos;
    bb_spin_unlock(&seen_lock);
}

/* Each row is flushed, so that a failed write is reported with the row that
 * hit it, not rows later (or never, on a stream nobody flushes). */
static int end_row(FILE *out)
{
    int rc = fflush(out) == 0 && !ferror(out) ? 0 : -1, err = errno;
    row_written(out);
    errno = err; /* the write's, not ftell's on a stream that cannot seek */
    return rc;
}

/* The open last column: the title over the rows' names. */
static nb_column name_column(const char *title)
{
    nb_column c = { NULL, 0, NB_ALIGN_LEFT, 1 };
    c.header = title;
    return c;
}

int nb_table_row(FILE *out, const nb_result *r, const nb_result *first, unsigned mask,
                 int suppress_unstable)
{
    res_column c[NB_MAX_COLUMNS];
    nb_column cols[NB_MAX_COLUMNS + 1];
    size_t n = columns(c, r, first, mask), i;
    uint64_t hash = UINT64_C(14695981039346656037);
    char num[NB_NUMBER_MAX + 8];  /* a batch of 1e-300 makes a 300-digit ns/op */
    char why[200];
    double err;
    for (i = 0; i < n; ++i) {
        hash = fnv1a("|", fnv1a(c[i].title[2], fnv1a(c[i].title[1],
                                                     fnv1a(c[i].title[0], hash))));
        cols[i] = c[i].col;
    }
    hash = fnv1a(r->cfg.title, hash);
    cols[n] = name_column(r->cfg.title);

    if (need_header(out, hash)) {
        fputc('\n', out);
        for (i = 0; i < n; ++i)
            nb_md_cell_parts(out, &cols[i], c[i].title, 3);
        nb_markdown_cell(out, &cols[n], r->cfg.title);
        fputc('\n', out);
        nb_markdown_rule(out, cols, n + 1);
    }

    if (r->overflow || r->count == 0) {
        for (i = 0; i < n; ++i)
            nb_markdown_cell(out, &cols[i], "-");
        nb_markdown_cell(out, &cols[n], ":boom: ");
        nb_markdown_code(out, r->cfg.name);
        nb_markdown_text(out, " (iterations overflow. Maybe your code got optimized away?)");
        fputc('\n', out);
        return end_row(out);
    }

    for (i = 0; i < n; ++i) {
        size_t len;
        if (c[i].text) {
            nb_markdown_cell(out, &cols[i], c[i].text);
            continue;
        }
        /* no value (a relative column whose first row has none): '-' alone */
        len = nb_format_number(num, NB_NUMBER_MAX, 0, c[i].precision, c[i].value);
        if (isfinite(c[i].value))
            snprintf(num + len, sizeof num - len, "%s", c[i].suffix);
        nb_markdown_cell(out, &cols[i], num);
    }
    nb_markdown_cell(out, &cols[n], "");
    err = nb_result_err(r, NB_ELAPSED);
    if (nb_result_implausible(r, why, sizeof why)) {
        nb_markdown_text(out, ":warning: ");
        nb_markdown_code(out, r->cfg.name);
        nb_markdown_text(out, " (implausible: ");
        nb_markdown_text(out, why);
        nb_markdown_text(out, ")");
    } else if (err >= 0.05 && !suppress_unstable) {
        double avg = nb_result_sum(r, NB_ITERATIONS) / (double)r->count;
        double more = avg * 10 + 0.5;
        nb_markdown_text(out, ":wavy_dash: ");
        nb_markdown_code(out, r->cfg.name);
        nb_format_number(num, sizeof(num), 1, 1, avg);
        nb_markdown_text(out, " (Unstable with ~");
        nb_markdown_text(out, num);
        nb_markdown_text(out, " iters. ");
        if (r->cfg.advice && r->cfg.advice[0]) {
            nb_markdown_text(out, r->cfg.advice);
        } else {
            snprintf(num, sizeof num, "Increase `nb_min_epoch_iterations` to e.g. %llu",
                     more < 0x1p64 ? (unsigned long long)more : ULLONG_MAX);
            nb_markdown_text(out, num);
        }
        nb_markdown_text(out, ")");
    } else {
        nb_markdown_code(out, r->cfg.name);
    }
    fputc('\n', out);
    return end_row(out);
}
