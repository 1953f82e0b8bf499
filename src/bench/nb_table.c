/* Output: nanobench's markdown table (one row per result, a header whenever
 * the columns or the title change on a stream), the stability warnings, and
 * the note about missing hardware counters. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"
#include "util/spinlock.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void nb_c_decimal_point(char *s)
{
    char *p = s, *q;
    while (*p && !(*p >= '0' && *p <= '9'))
        ++p; /* the first digit; none in "inf" and "nan" */
    while (*p >= '0' && *p <= '9')
        ++p;
    if (!*p || *p == 'e' || *p == 'E')
        return; /* no decimal point */
    for (q = p; *q && !(*q >= '0' && *q <= '9'); ++q)
        ;
    if (!*q)
        return; /* no digits follow: text after a whole number ("12%") */
    *p = '.';
    memmove(p + 1, q, strlen(q) + 1);
}

size_t nb_format_number(char *buf, size_t cap, int width, int precision, double v)
{
    char digits[400], grouped[560];
    size_t len, pos = 0, intlen, i, gl;
    const char *p = digits;
    if (cap == 0)
        return 0;
    if (!isfinite(v)) {
        strcpy(digits, "-");
        len = 1;
        memcpy(grouped, digits, 2);
        gl = 1;
    } else {
        snprintf(digits, sizeof(digits), "%.*f", precision < 0 ? 0 : precision, v);
        nb_c_decimal_point(digits);
        if (*p == '-')
            grouped[pos++] = *p++;
        intlen = strspn(p, "0123456789");
        for (i = 0; i < intlen; ++i) {
            if (i > 0 && (intlen - i) % 3 == 0)
                grouped[pos++] = ',';
            grouped[pos++] = p[i];
        }
        len = strlen(p + intlen);
        memcpy(grouped + pos, p + intlen, len + 1);
        gl = pos + len;
    }
    pos = 0;
    while ((int)(gl + pos) < width && pos + 1 < cap)
        buf[pos++] = ' ';
    for (i = 0; i < gl && pos + 1 < cap; ++i)
        buf[pos++] = grouped[i];
    buf[pos] = '\0';
    return pos;
}

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
} res_column;

#define NB_MAX_COLUMNS 12

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

static size_t columns(res_column *c, const nb_result *r, const nb_result *first, unsigned mask)
{
    size_t n = 0;
    const char *unit = r->cfg.unit;
    double med = per_unit(r, NB_ELAPSED);
    if (r->cfg.relative) {
        double d = 100.0, f = per_unit(first, NB_ELAPSED);
        if (first != r)
            d = med <= 0 ? 0.0 : f / med * 100.0;
        add_col(c, &n, 11, 1, "relative", "", "%", d);
    }
    if (r->cfg.complexity_n > 0 && isfinite(r->cfg.complexity_n)) /* as Big-O uses it */
        add_col(c, &n, 14, 0, "complexityN", "", "", r->cfg.complexity_n);
    add_col3(c, &n, 22, 2, r->cfg.time_unit_name, "/", unit, "", med / r->cfg.time_unit);
    add_col(c, &n, 22, 2, unit, "/s", "", med <= 0 ? 0.0 : 1.0 / med);
    add_col(c, &n, 10, 1, "err%", "", "%", nb_result_err(r, NB_ELAPSED) * 100.0);
    if (mask & (1u << NB_INSTRUCTIONS))
        add_col(c, &n, 18, 2, "ins/", unit, "", per_unit(r, NB_INSTRUCTIONS));
    if (mask & (1u << NB_CPU_CYCLES))
        add_col(c, &n, 18, 2, "cyc/", unit, "", per_unit(r, NB_CPU_CYCLES));
    else if (mask & (1u << NB_EST_CYCLES)) /* no counter: the probe's estimate */
        add_col(c, &n, 18, 2, "~cyc/", unit, "",
                nb_result_lower_quartile(r, NB_EST_CYCLES) / r->cfg.batch);
    if ((mask & (1u << NB_INSTRUCTIONS)) && (mask & (1u << NB_CPU_CYCLES))) {
        double cyc = per_unit(r, NB_CPU_CYCLES);
        add_col(c, &n, 9, 3, "IPC", "", "",
                cyc <= 0 ? 0.0 : per_unit(r, NB_INSTRUCTIONS) / cyc);
    }
    if (mask & (1u << NB_BRANCH_INSTRUCTIONS)) {
        double bra = per_unit(r, NB_BRANCH_INSTRUCTIONS);
        add_col(c, &n, 17, 2, "bra/", unit, "", bra);
        if (mask & (1u << NB_BRANCH_MISSES)) {
            double p = bra >= 1e-9 ? 100.0 * per_unit(r, NB_BRANCH_MISSES) / bra : 0.0;
            /* callgrind's misses are its simulated predictor's, not the CPU's */
            add_col(c, &n, r->counted ? 12 : 10, 1, r->counted ? "sim.miss%" : "miss%", "",
                    "%", p);
        }
    }
    add_col(c, &n, 12, 2, "total", "", "",
            r->count ? nb_result_sum_product(r, NB_ELAPSED, NB_ITERATIONS) : NAN);
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
    int rc = fflush(out) == 0 && !ferror(out) ? 0 : -1;
    row_written(out);
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
        /* no value (a relative column whose first row has none): '-' alone */
        size_t len = nb_format_number(num, NB_NUMBER_MAX, 0, c[i].precision, c[i].value);
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

/* ---- nb_compare's table ---- */

/* v as a percentage with 2 decimals ("102.35%"), "-" when not finite. */
static void percent(char *buf, size_t cap, double v)
{
    if (!isfinite(v)) {
        snprintf(buf, cap, "-");
        return;
    }
    nb_format_number(buf, cap, 1, 2, v * 100.0);
    if (strlen(buf) + 2 <= cap)
        strcat(buf, "%");
}

int nb_table_comparison(FILE *out, const nb_comparison *c)
{
    const nb_result *base = nb_comparison_result(c, 0);
    size_t n = nb_comparison_count(c), i, f = nb_comparison_fastest(c);
    char num[NB_NUMBER_MAX + 8], a[64], b[64], head[NB_NUMBER_MAX];
    double lo, hi, est;
    const char *unit = base->cfg.unit;
    /* relative | 95% interval | ns/unit | unit/s | err% | title */
    nb_column cols[6] = {
        { "relative", 9, NB_ALIGN_RIGHT, 0 }, { "95% interval", 20, NB_ALIGN_RIGHT, 0 },
        { NULL, 20, NB_ALIGN_RIGHT, 0 }, { NULL, 20, NB_ALIGN_RIGHT, 0 },
        { "err%", 8, NB_ALIGN_RIGHT, 0 }, { NULL, 0, NB_ALIGN_LEFT, 1 },
    };
    const char *per[3], *rate[2];
    per[0] = base->cfg.time_unit_name;
    per[1] = "/";
    per[2] = unit;
    rate[0] = unit;
    rate[1] = "/s";
    cols[5].header = base->cfg.title;
    fputc('\n', out);
    nb_markdown_cell(out, &cols[0], cols[0].header);
    nb_markdown_cell(out, &cols[1], cols[1].header);
    nb_md_cell_parts(out, &cols[2], per, 3);
    nb_md_cell_parts(out, &cols[3], rate, 2);
    nb_markdown_cell(out, &cols[4], cols[4].header);
    nb_markdown_cell(out, &cols[5], cols[5].header);
    fputc('\n', out);
    nb_markdown_rule(out, cols, 6);

    for (i = 0; i < n; ++i) {
        const nb_result *r = nb_comparison_result(c, i);
        double med, err;
        nb_comparison_summary(c, i, &med, &err);
        med /= r->cfg.batch;
        est = nb_comparison_relative(c, i, &lo, &hi);
        percent(num, sizeof(num), est);
        nb_markdown_cell(out, &cols[0], num);
        if (i == 0) {
            nb_markdown_cell(out, &cols[1], "-");
        } else {
            percent(a, sizeof(a), lo);
            percent(b, sizeof(b), hi);
            snprintf(head, sizeof(head), "[%s, %s]", a, b);
            nb_markdown_cell(out, &cols[1], head);
        }
        nb_format_number(num, sizeof(num), 0, 2, med / r->cfg.time_unit);
        nb_markdown_cell(out, &cols[2], num);
        nb_format_number(num, sizeof(num), 0, 2, med > 0 ? 1.0 / med : NAN);
        nb_markdown_cell(out, &cols[3], num);
        nb_format_number(num, NB_NUMBER_MAX, 0, 1, err * 100.0);
        strcat(num, "%");
        nb_markdown_cell(out, &cols[4], num);
        nb_markdown_cell(out, &cols[5], "");
        nb_markdown_code(out, r->cfg.name);
        if (i == 0)
            nb_markdown_text(out, " (baseline)");
        else if (nb_comparison_significant(c, i))
            nb_markdown_text(out, est > 1 ? " (faster)" : " (slower)");
        fputc('\n', out);
    }

    /* the verdict: one line under the table */
    fputc('\n', out);
    est = nb_comparison_relative(c, f, &lo, &hi);
    if (f != 0 && nb_comparison_significant(c, f)) {
        nb_markdown_code(out, nb_comparison_result(c, f)->cfg.name);
        snprintf(a, sizeof(a), "%.3fx", est);
        nb_c_decimal_point(a);
        fprintf(out, " is fastest, %s as fast as ", a);
        nb_markdown_code(out, base->cfg.name);
        snprintf(a, sizeof(a), "%.3f", lo);
        snprintf(b, sizeof(b), "%.3f", hi);
        nb_c_decimal_point(a);
        nb_c_decimal_point(b);
        fprintf(out, " (95%% interval %s-%s", a, b);
    } else {
        size_t slower = 0;
        for (i = 1; i < n; ++i)
            slower += nb_comparison_significant(c, i);
        if (slower == n - 1) {
            nb_markdown_code(out, base->cfg.name);
            fputs(" (the baseline) is fastest: every other is significantly slower (95%", out);
        } else {
            fputs("No alternative is significantly faster than ", out);
            nb_markdown_code(out, base->cfg.name);
            fputs(" (95%", out);
        }
    }
    nb_format_number(num, sizeof(num), 1, 0, (double)nb_comparison_iterations(c));
    fprintf(out, ", family-wise over %zu comparison%s; %zu paired rounds, each the best of %d "
            "epochs of %s iteration%s)\n", n - 1, n == 2 ? "" : "s", nb_comparison_rounds(c),
            NB_COMPARE_EPOCHS_PER_ROUND, num, nb_comparison_iterations(c) == 1 ? "" : "s");
    nb_table_forget(out); /* the next nb_run row starts its own table */
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

/* ---- warnings ---- */

int nb_warnings_suppressed(void)
{
    const char *s = getenv("NANOBENCH_SUPPRESS_WARNINGS");
    return s && *s && strcmp(s, "0") != 0;
}

/* First line of a small file, without the newline; 0 when unreadable. */
static int read_line(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    size_t len;
    if (!f)
        return 0;
    if (!fgets(buf, (int)cap, f)) {
        fclose(f);
        return 0;
    }
    fclose(f);
    len = strcspn(buf, "\r\n");
    buf[len] = '\0';
    return 1;
}

static void append(char *buf, size_t cap, const char *fmt, const char *a, const char *b2,
                   const char *c)
{
    size_t len = strlen(buf);
    if (len < cap)
        snprintf(buf + len, cap - len, fmt, a, b2, c);
}

static int has_hypervisor_flag(void)
{
    char line[4096];
    int found = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    while (!found && fgets(line, sizeof(line), f))
        if (strncmp(line, "flags", 5) == 0 && strstr(line, " hypervisor"))
            found = 1;
    fclose(f);
    return found;
}

size_t nb_warnings_gather(char *buf, size_t cap, char *rec, size_t rcap, int caller_optimized)
{
    size_t count = 0;
    int release = 0, tune = 0, quiet = 0, metal = 0;
    char a[128], b2[128], c[128];
    long nprocs;
    double load[1];
    buf[0] = rec[0] = '\0';
    if (!caller_optimized) {
        append(buf, cap, "* %s%s%s\n", "code calling nb_run was compiled without optimization",
               " (__OPTIMIZE__ not defined)", "");
        count++;
        release = 1;
    }
#ifdef BB_SANITIZERS
    append(buf, cap, "* %s%s%s\n", "the harness was built with sanitizers", "", "");
    count++;
    release = 1;
#endif
    nprocs = sysconf(_SC_NPROCESSORS_CONF);
    if (nprocs > 0) {
        long id;
        for (id = 0; id < nprocs; ++id) {
            char path[128], lo[64], hi[64];
            snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/cpufreq/scaling_min_freq",
                     id);
            if (!read_line(path, lo, sizeof(lo)))
                continue;
            snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/cpufreq/scaling_max_freq",
                     id);
            if (!read_line(path, hi, sizeof(hi)))
                continue;
            if (strcmp(lo, hi) != 0) {
                char num[64];
                snprintf(a, sizeof(a), "CPU frequency scaling enabled: CPU %ld between ", id);
                nb_format_number(num, sizeof(num), 1, 1, atof(lo) / 1000.0);
                snprintf(b2, sizeof(b2), "%s and ", num);
                nb_format_number(num, sizeof(num), 1, 1, atof(hi) / 1000.0);
                snprintf(c, sizeof(c), "%s MHz", num);
                append(buf, cap, "* %s%s%s\n", a, b2, c);
                count++;
                tune = 1;
                break;
            }
        }
    }
    if (read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", a, sizeof(a)) &&
        strcmp(a, "performance") != 0) {
        append(buf, cap, "* CPU governor is '%s'%s%s\n", a, " but should be 'performance'", "");
        count++;
        tune = 1;
    }
    if (read_line("/sys/devices/system/cpu/intel_pstate/no_turbo", a, sizeof(a)) &&
        strcmp(a, "0") == 0) {
        append(buf, cap, "* %s%s%s\n", "Turbo is enabled, CPU frequency will fluctuate", "", "");
        count++;
        tune = 1;
    }
    if (read_line("/sys/devices/system/cpu/cpufreq/boost", a, sizeof(a)) && strcmp(a, "1") == 0) {
        append(buf, cap, "* %s%s%s\n", "CPU boost is enabled (cpufreq/boost),",
               " CPU frequency will fluctuate", "");
        count++;
        tune = 1;
    }
    if (has_hypervisor_flag()) {
        append(buf, cap, "* %s%s%s\n", "running under a hypervisor:",
               " other guests and the host share the CPU, timings fluctuate", "");
        count++;
        metal = 1;
    }
    /* The benchmark itself is one runnable task; more than half the CPUs'
     * worth of others means it competes for a core, caches and the power
     * budget. */
    if (nprocs > 0 && getloadavg(load, 1) == 1 && load[0] > (double)nprocs / 2 + 0.5) {
        snprintf(a, sizeof(a), "%.2f", load[0]);
        nb_c_decimal_point(a);
        snprintf(b2, sizeof(b2), "%ld", nprocs);
        append(buf, cap, "* machine is busy: load average %s on %s CPUs%s\n", a, b2, "");
        count++;
        quiet = 1;
    }
    if (release)
        append(rec, rcap, "* %s%s%s\n", "Make sure you compile for Release", "", "");
    if (tune)
        append(rec, rcap, "* %s%s%s\n", "Use 'pyperf system tune' before benchmarking.",
               " See https://github.com/vstinner/pyperf", "");
    if (quiet)
        append(rec, rcap, "* %s%s%s\n", "Stop other work on the machine while benchmarking", "",
               "");
    if (metal)
        append(rec, rcap, "* %s%s%s\n", "Benchmark on bare metal when results must be compared",
               "", "");
    return count;
}

void nb_warnings_once(FILE *out, int caller_optimized)
{
    static int printed;
    char buf[4096], rec[1024];
    if (!out || __atomic_exchange_n(&printed, 1, __ATOMIC_RELAXED))
        return;
    if (nb_warnings_suppressed())
        return;
    if (nb_warnings_gather(buf, sizeof(buf), rec, sizeof(rec), caller_optimized) == 0)
        return;
    fprintf(out, "Warning, results might be unstable:\n%s\nRecommendations\n%s", buf, rec);
}

void nb_perf_note_once(FILE *out, int err)
{
    static int printed;
    char paranoid[32] = "unknown";
    if (!out || __atomic_exchange_n(&printed, 1, __ATOMIC_RELAXED))
        return;
    if (nb_warnings_suppressed())
        return;
    read_line("/proc/sys/kernel/perf_event_paranoid", paranoid, sizeof(paranoid));
    fprintf(out,
            "Note: hardware performance counters are not available (perf_event_open: %s), so "
            "the ins, cyc, IPC, bra and miss%% columns are left out (a ~cyc column, where shown, "
            "is estimated from the core's clock rate, measured around each epoch). They need a "
            "CPU whose PMU the kernel exposes (bare metal, or a VM with PMU passthrough) and "
            "kernel.perf_event_paranoid <= 2 (it is %s here).\n",
            err ? strerror(err) : "no hardware events", paranoid);
}
