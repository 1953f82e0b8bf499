/* bench_bitcoin -against (against.h): the parent that drives the comparison. The processes
 * it drives are peer.h's; what they run is serve.c. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/against.h"
#include "bench_bitcoin/against_json.h"
#include "bench_bitcoin/clustered.h"
#include "bench_bitcoin/filter.h"
#include "bench_bitcoin/modes.h"
#include "bench_bitcoin/outputs.h"
#include "bench_bitcoin/peer.h"
#include "bench_bitcoin/sequential.h"
#include "bench_bitcoin/verdict.h"
#include "crypto/sha256.h"
#include "util/alloc.h"
#include "util/timing.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Rounds per -min-time: the epoch target is -min-time / 2 / ROUNDS_PER_BUDGET, so that a row
 * that spends its -min-time measures about 64 rounds; a row may spend up to CAP_FACTOR times
 * its -min-time (MAX_ROUNDS at most) when the suite has that much left (sequential.h). */
#define ROUNDS_PER_BUDGET 64
#define CAP_FACTOR 16
#define MAX_ROUNDS 1024
/* Pairs of serving processes (one of each build per pair) the rounds are spread over. Two
 * processes of one build differ by a few percent on rows that allocate or walk a megabyte
 * (where their memory lies physically, and their allocator's state, differ, and stay for
 * the process's life), so a single pair's difference is the two processes', not the builds':
 * the pair is the unit that repeats, and its number sets the interval's degrees of freedom
 * (clustered.h). Eight: seven degrees of freedom keep the t quantile near 2.4 for one row
 * and under 5 for a table of 24, at sixteen serving processes. */
#define AGAINST_PAIRS 8
#define AGAINST_PAIRS_TEXT "8"
/* The shortest epoch: over 10,000 times the clock's resolution (about 20 ns here), and long
 * against the pipe round trip between epochs (about 30 us). Many short epochs rather than a
 * few long ones: a burst of the host's noise then spoils fewer of the pairs, and the
 * interval, made of order statistics of the pairs, narrows with their number. */
#define MIN_EPOCH_NS 2.5e5
/* How long the other build may take to answer, unless BENCH_BITCOIN_AGAINST_TIMEOUT (seconds)
 * says otherwise; an epoch that should take longer than a twentieth of it extends it. */
#define DEFAULT_TIMEOUT_S 30.0
/* Each pair's rounds reduce to their interquartile mean (a quarter trimmed from either end):
 * as robust as the median to the few rounds a burst of the host's noise spoils, and closer
 * to the mean's efficiency on the rest; tools/seq_sim on recorded rounds gives it the most
 * power at a 1% difference of the trims 0, 0.1, 0.25 and 0.5 (doc/measurements.md). */
#define PAIR_TRIM 0.25
#define CONFIDENCE 0.95

/* ---- the parent: one benchmark ---- */

static double median(const double *v, size_t n)
{
    double s[MAX_ROUNDS];
    if (n == 0)
        return NAN;
    memcpy(s, v, n * sizeof *v);
    bb_sort_doubles(s, n);
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* ---- the parent: the whole comparison ---- */

/* The names the child has (from its handshake). */
typedef struct {
    char **names;
    size_t count, cap;
} name_list;

static void names_free(name_list *l)
{
    size_t i;
    for (i = 0; i < l->count; i++)
        bb_free(l->names[i]);
    bb_free(l->names);
}

static int names_add(name_list *l, const char *name)
{
    char *copy;
    if (l->count == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 32;
        char **grown = bb_realloc(l->names, cap * sizeof *grown);
        if (!grown)
            return -1;
        l->names = grown;
        l->cap = cap;
    }
    copy = bb_malloc(strlen(name) + 1);
    if (!copy)
        return -1;
    strcpy(copy, name);
    l->names[l->count++] = copy;
    return 0;
}

/* The handshake: the greeting, then the other's benchmarks into *l. 0, or -1 after one error
 * line. */
static int handshake(bench_peer *p, name_list *l)
{
    against_msg m;
    if (bench_peer_recv(p, &m, "starting", 0) != 0)
        return -1;
    if (m.number != AGAINST_PROTOCOL_VERSION) {
        bench_peer_kill(p);
        bench_error("-against: '%s' speaks -against protocol version %llu, this build version "
                    "%d", p->path, (unsigned long long)m.number, AGAINST_PROTOCOL_VERSION);
        return -1;
    }
    p->greeted = 1;
    for (;;) {
        if (bench_peer_recv(p, &m, "listing its benchmarks", 0) != 0)
            return -1;
        if (m.kind == AGAINST_NAMES_END)
            return 0;
        if (m.kind != AGAINST_NAME) {
            bench_peer_kill(p);
            bench_error("-against: '%s' sent a message out of place while listing its "
                        "benchmarks", p->path);
            return -1;
        }
        if (names_add(l, m.text) != 0) {
            bench_peer_kill(p);
            bench_error("-against: out of memory");
            return -1;
        }
    }
}

/* Applies -filter to the other's names: keeps those it selects. 0, or -1 after one line. */
static int filter_names(name_list *l, const char *pattern)
{
    unsigned char *keep;
    size_t i, k = 0;
    if (!pattern || l->count == 0)
        return 0;
    keep = bb_malloc_array(l->count, 1);
    if (!keep) {
        bench_error("-against: out of memory");
        return -1;
    }
    if (bench_filter_select(pattern, (const char *const *)l->names, l->count, keep, NULL, 0)
        != 0) {
        bb_free(keep);
        return -1;
    }
    for (i = 0; i < l->count; i++) {
        if (keep[i])
            l->names[k++] = l->names[i];
        else
            bb_free(l->names[i]);
    }
    l->count = k;
    bb_free(keep);
    return 0;
}

static int has_name(const name_list *l, const char *name)
{
    size_t i;
    for (i = 0; i < l->count; i++)
        if (strcmp(l->names[i], name) == 0)
            return 1;
    return 0;
}

/* Says on stderr which benchmarks one side only has (not compared). */
static void note_one_sided(const char *path, const bench_row *const *sel, size_t count,
                           const name_list *l, const unsigned char *common)
{
    size_t i, j, n = 0;
    for (i = 0; i < count; i++)
        if (!common[i]) {
            fprintf(stderr, n++ ? " %s" : "-against: only in this build, not compared: %s",
                    sel[i]->name);
        }
    if (n)
        fputc('\n', stderr);
    n = 0;
    for (i = 0; i < l->count; i++) {
        for (j = 0; j < count && strcmp(sel[j]->name, l->names[i]) != 0; j++)
            ;
        if (j == count && n++ == 0)
            fprintf(stderr, "-against: only in '%s', not compared: %s", path, l->names[i]);
        else if (j == count)
            fprintf(stderr, " %s", l->names[i]);
    }
    if (n)
        fputc('\n', stderr);
}

/* One benchmark's measurement. */
typedef struct {
    const char *name;
    char doing[128];           /* "running SHA256", for messages */
    double target_ns;          /* how long an epoch should last */
    uint64_t n;                /* every epoch's iterations */
    double self_batch, other_batch;   /* units per iteration, each side's */
    size_t max_rounds;         /* what the per-row cap affords */
    size_t rounds;             /* measured so far */
    double spent_ns;           /* the rounds at the epoch target, both sides (the budget's
                                * unit: a host that slows the epochs takes no rounds away) */
    double self_ns[MAX_ROUNDS];   /* per unit, per round */
    double other_ns[MAX_ROUNDS];
    size_t pair[MAX_ROUNDS];      /* the pair of processes that measured the round */
} plan;

/* What the looks of one row need from the whole comparison. */
typedef struct {
    size_t rows;               /* rows compared: the union bound's */
    double equivalence;        /* -equivalence, percent */
    double max_regression;     /* -max-regression, percent; negative: no gate */
    double allowance_ns;       /* this row's share of the suite's measuring time */
    int exhaust;               /* BENCH_BITCOIN_AGAINST_DUMP: every look, to the cap */
    against_json *json;        /* -output-json's document, or NULL */
} look_plan;

/* Sends m and receives the answer of kind want into *m. 0, or -1 after one error line. */
static int ask(bench_peer *p, against_msg *m, against_kind want, const char *doing,
               double limit_ms)
{
    if (bench_peer_send(p, m, doing) != 0 || bench_peer_recv(p, m, doing, limit_ms) != 0)
        return -1;
    if (m->kind != want) {
        bench_peer_kill(p);
        bench_error("-against: %s sent a message out of place while %s", p->path, doing);
        return -1;
    }
    return 0;
}

/* One epoch of n iterations on p; its duration in ns into *ns. 0, or -1 after one line. */
static int epoch(bench_peer *p, const plan *pl, uint64_t n, double *ns)
{
    against_msg m;
    memset(&m, 0, sizeof m);
    m.kind = AGAINST_EPOCH;
    m.number = n;
    /* the other build may be slower: allow 20 times the target */
    if (ask(p, &m, AGAINST_TIME, pl->doing, pl->target_ns * 20 / 1e6) != 0)
        return -1;
    *ns = (double)m.number;
    return 0;
}

/* The most rounds time_ns affords at the epoch target (both sides' epochs; whole
 * iterations may overshoot it a little), at most pl->max_rounds. */
static size_t affordable(const plan *pl, double time_ns)
{
    double rounds = floor(time_ns / (2 * pl->target_ns) * 1.05);
    return rounds < (double)pl->max_rounds ? (size_t)rounds : pl->max_rounds;
}

/* Sizes the epochs on this build's side: grows them until one lasts the target, then sets
 * pl->n and pl->max_rounds (what cap_ns affords). 0, or -1 after one error line. */
static int calibrate(bench_peer *self, bench_peer *other, plan *pl, double cap_ns)
{
    uint64_t n = 1;
    double ns, per, ignored;
    for (;;) {
        double next;
        /* the other runs the same epochs, so that both enter the rounds with one history */
        if (epoch(self, pl, n, &ns) != 0 || epoch(other, pl, n, &ignored) != 0)
            return -1;
        if (ns >= pl->target_ns)
            break;
        /* far below the target: tenfold, where the time says little; else to about it */
        next = ns * 10 < pl->target_ns ? (double)n * 10
                                       : ceil((double)n * pl->target_ns * 1.1 / ns);
        if (!(next < 1e15)) {
            bench_peer_kill(self);
            bench_error("-against: %s runs in no measurable time (was its op optimized away?)",
                        pl->name);
            return -1;
        }
        n = next > (double)n ? (uint64_t)next : n + 1;
    }
    per = ns / (double)n;
    pl->n = (uint64_t)ceil(pl->target_ns / per);
    if (pl->n < 1)
        pl->n = 1;
    if ((double)pl->n * per > pl->target_ns)
        pl->target_ns = (double)pl->n * per;   /* an op slower than the target */
    pl->max_rounds = MAX_ROUNDS;
    pl->max_rounds = affordable(pl, cap_ns);
    return 0;
}

/* Rounds pl->rounds .. to, spread over the pairs: round r on pair r % AGAINST_PAIRS, this
 * build first in the pair's even rounds and the other first in its odd ones. 0, or -1. */
static int run_rounds(bench_peer *self, bench_peer *other, plan *pl, size_t to)
{
    for (; pl->rounds < to; pl->rounds++) {
        size_t r = pl->rounds, k = r % AGAINST_PAIRS, turn = r / AGAINST_PAIRS;
        bench_peer *first = turn % 2 ? &other[k] : &self[k];
        bench_peer *second = turn % 2 ? &self[k] : &other[k];
        double a, b;
        if (epoch(first, pl, pl->n, &a) != 0 || epoch(second, pl, pl->n, &b) != 0)
            return -1;
        pl->spent_ns += 2 * pl->target_ns;
        pl->self_ns[r] = (turn % 2 ? b : a) / (double)pl->n / pl->self_batch;
        pl->other_ns[r] = (turn % 2 ? a : b) / (double)pl->n / pl->other_batch;
        pl->pair[r] = k;
    }
    return 0;
}

/* The interval of the rounds so far at confidence c into *r (NaNs when it cannot be had). */
static void interval(const plan *pl, double c, nb_ratio *r)
{
    if (bench_clustered_ratio_trimmed(pl->other_ns, pl->self_ns, pl->pair, pl->rounds,
                                      AGAINST_PAIRS, PAIR_TRIM, 1, c, r) != 0)
        r->estimate = r->low = r->high = NAN, r->significant = 0;
}

/* The looks (sequential.h): every pair but the first (which calibrated) first runs one epoch
 * on each side, unmeasured, so that all enter the rounds warm; then the rounds up to each
 * look of those lp->allowance_ns affords, and at each the interval, until one decides the
 * row and -max-regression's question about it. The last look's interval and verdict into *r
 * and *v. 0, or -1. */
static int measure(bench_peer *self, bench_peer *other, plan *pl, const look_plan *lp,
                   nb_ratio *r, bench_seq_verdict *v)
{
    size_t looks[BENCH_SEQ_MAX_LOOKS], n, k, j;
    double ignored;
    n = bench_seq_schedule(lp->exhaust ? pl->max_rounds : affordable(pl, lp->allowance_ns),
                           BENCH_SEQ_GROWTH, looks);
    for (j = 1; j < AGAINST_PAIRS; j++)
        if (epoch(&self[j], pl, pl->n, &ignored) != 0
            || epoch(&other[j], pl, pl->n, &ignored) != 0)
            return -1;
    for (k = 0; k < n; k++) {
        if (run_rounds(self, other, pl, looks[k]) != 0)
            return -1;
        interval(pl, bench_seq_look_confidence(CONFIDENCE, lp->rows, n, k,
                                               BENCH_SEQ_LAST_SHARE), r);
        *v = bench_seq_decide(r, lp->equivalence);
        if (*v != BENCH_SEQ_UNDECIDED && bench_seq_gate_decided(r, lp->max_regression)
            && !lp->exhaust)
            break;
    }
    return 0;
}

/* Sends one message of kind k (text: name, for run) to every process of both builds and
 * waits for each one's answer of kind want (into *self_m and *other_m: pair 0's). 0, or -1
 * after one error line. */
static int tell_all(bench_peer *self, bench_peer *other, against_kind k, const char *name,
                    against_kind want, const plan *pl, against_msg *self_m, against_msg *other_m)
{
    size_t j;
    for (j = 0; j < AGAINST_PAIRS; j++) {
        against_msg ms, mo;
        memset(&ms, 0, sizeof ms);
        ms.kind = k;
        if (name)
            snprintf(ms.text, sizeof ms.text, "%s", name);
        mo = ms;
        if (ask(&self[j], &ms, want, pl->doing, 0) != 0
            || ask(&other[j], &mo, want, pl->doing, 0) != 0)
            return -1;
        if (j == 0) {
            *self_m = ms;
            *other_m = mo;
        }
    }
    return 0;
}

/* BENCH_BITCOIN_AGAINST_DUMP: appends the row's rounds to the file, one a line: name, round,
 * pair, this build's and the other's ns per unit (for test/seq_sim.c). 0, or -1 after one
 * error line. */
static int dump_rounds(const char *path, const plan *pl)
{
    FILE *f = fopen(path, "a");
    size_t i;
    if (!f) {
        bench_error("BENCH_BITCOIN_AGAINST_DUMP: cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    for (i = 0; i < pl->rounds; i++)
        fprintf(f, "%s %zu %zu %.17g %.17g\n", pl->name, i, pl->pair[i], pl->self_ns[i],
                pl->other_ns[i]);
    if (fclose(f) != 0) {
        bench_error("BENCH_BITCOIN_AGAINST_DUMP: writing '%s' failed", path);
        return -1;
    }
    return 0;
}

/* The row's figures from pl's rounds, its interval and verdict into *w. */
static void fill_row(verdict_row *w, const plan *pl, const char *unit, const nb_ratio *r,
                     bench_seq_verdict v, const look_plan *lp, double o_max_regression)
{
    w->name = pl->name;
    w->unit = unit;
    w->quantity = "ns";
    w->self_ns = median(pl->self_ns, pl->rounds);
    w->other_ns = median(pl->other_ns, pl->rounds);
    w->r = *r;
    w->within = v == BENCH_SEQ_WITHIN;
    w->equivalence = lp->equivalence;
    w->rounds = pl->rounds;
    bench_verdict_judge(w, o_max_regression);
}

/* Measures one benchmark on both sides into *w (its unit into unit, the rounds' measuring
 * time added to *spent_ns); *skipped when the two builds count it in different units. 0, or
 * -1 after one error line. */
static int compare_one(bench_peer *self, bench_peer *other, const against_options *o,
                       const bench_row *e, const look_plan *lp, verdict_row *w, char *unit,
                       size_t unit_cap, int *skipped, double *spent_ns)
{
    plan *pl = bb_malloc(sizeof *pl);
    against_msg ms, mo;
    nb_ratio r;
    bench_seq_verdict v = BENCH_SEQ_UNDECIDED;
    double t0 = bb_clock_ns(CLOCK_MONOTONIC);
    int rc = -1;

    *skipped = 0;
    if (!pl) {
        bench_error("-against: out of memory");
        return -1;
    }
    memset(pl, 0, sizeof *pl);
    pl->name = e->name;
    snprintf(pl->doing, sizeof pl->doing, "running %s", e->name);
    pl->target_ns = o->min_time_ns / 2 / ROUNDS_PER_BUDGET;
    if (pl->target_ns < MIN_EPOCH_NS)
        pl->target_ns = MIN_EPOCH_NS;

    if (tell_all(self, other, AGAINST_RUN, e->name, AGAINST_READY, pl, &ms, &mo) != 0)
        goto done;
    pl->self_batch = ms.batch;
    pl->other_batch = mo.batch;
    *skipped = strcmp(ms.text, mo.text) != 0;
    if (*skipped)
        fprintf(stderr, "-against: %s counts in '%s' here and in '%s' in %s: not compared\n",
                e->name, ms.text, mo.text, other->path);
    else if (calibrate(self, other, pl, o->min_time_ns * CAP_FACTOR) != 0
             || measure(self, other, pl, lp, &r, &v) != 0)
        goto done;
    snprintf(unit, unit_cap, "%s", ms.text);
    if (tell_all(self, other, AGAINST_END, NULL, AGAINST_DONE, pl, &ms, &mo) != 0)
        goto done;
    *spent_ns += pl->spent_ns;
    rc = *skipped || !o->dump ? 0 : dump_rounds(o->dump, pl);
    if (*skipped || rc != 0)
        goto done;
    fill_row(w, pl, unit, &r, v, lp, o->max_regression);
    w->seconds = (bb_clock_ns(CLOCK_MONOTONIC) - t0) * 1e-9;
    bench_verdict_print(w);
    if (lp->json && bench_against_json_add(lp->json, w, pl->self_batch, pl->n, pl->self_ns)
        != 0) {
        bench_error("-output-json: out of memory");
        rc = -1;
    }
done:
    bb_free(pl);
    return rc;
}

/* Compares the rows sel[i] with common[i] set (ncommon of them) one after the other into
 * rows[0 .. *nrows) (their units into units). The suite's measuring time is -min-time per
 * row, at least one row's cap; each row may spend an equal part of what is left of it, up
 * to its cap (sequential.h). Each row goes into json too, unless NULL.
 * 0, or -1 after one error line. */
static int compare_all(bench_peer *self, bench_peer *other, const against_options *o,
                       const bench_row *const *sel, size_t count, const unsigned char *common,
                       size_t ncommon, verdict_row *rows, char (*units)[AGAINST_MAX_LINE],
                       size_t *nrows, against_json *json)
{
    double per_row = o->min_time_ns, cap = per_row * CAP_FACTOR;
    double suite = per_row * (double)ncommon, spent = 0;
    size_t i, done = 0;
    look_plan lp;
    if (suite < cap)
        suite = cap;
    lp.rows = ncommon;
    lp.equivalence = o->equivalence;
    lp.max_regression = o->max_regression;
    lp.exhaust = o->dump != NULL;
    lp.json = json;
    for (i = 0; i < count; i++) {
        int skipped;
        if (!common[i])
            continue;
        lp.allowance_ns = bench_seq_allowance(suite - spent, ncommon - done, per_row, cap);
        if (compare_one(self, other, o, sel[i], &lp, &rows[*nrows], units[*nrows],
                        sizeof units[*nrows], &skipped, &spent) != 0)
            return -1;
        *nrows += !skipped;
        done++;
    }
    return 0;
}

/* Writes json's text into -output-json's file. 0, or -1 after one error line. */
static int write_json(const against_json *json)
{
    char *text = bench_against_json_text(json);
    int rc;
    if (!text) {
        bench_error("-output-json: out of memory");
        return -1;
    }
    rc = bench_outputs_write_text(BENCH_OUTPUT_JSON, text, strlen(text));
    bench_against_json_text_free(text);
    return rc;
}

/* The path this very program runs from, for its own serving process. */
#define SELF_EXE "/proc/self/exe"

/* BENCH_BITCOIN_AGAINST_TIMEOUT in ms into *ms (DEFAULT_TIMEOUT_S when unset). 0, or -1
 * after one error line. */
static int read_timeout(double *ms)
{
    const char *t = getenv("BENCH_BITCOIN_AGAINST_TIMEOUT");
    char *end;
    double sec;
    *ms = DEFAULT_TIMEOUT_S * 1e3;
    if (!t || !*t)
        return 0;
    sec = strtod(t, &end);
    if (*end || !(sec > 0) || !(sec < 1e6)) {
        bench_error("BENCH_BITCOIN_AGAINST_TIMEOUT: '%s' is not a number of seconds > 0", t);
        return -1;
    }
    *ms = sec * 1e3;
    return 0;
}

/* Starts every serving process of both builds (initialised peers) and takes their
 * handshakes: the other's names, filtered, into *theirs, this build's into *ours. 0, or -1
 * after one error line (the caller kills what was started). */
static int start_all(bench_peer *self, bench_peer *other, const against_options *o,
                     name_list *ours, name_list *theirs)
{
    size_t i;
    /* a child that dies must be an error line, not the end of this process */
    signal(SIGPIPE, SIG_IGN);
    /* the other first: a bad path is the likelier error, and says more */
    if (bench_peer_spawn(&other[0], o->other, o->no_pin, 1) != 0)
        return -1;
    /* all started before any is waited for, so that their start-ups overlap */
    for (i = 0; i < AGAINST_PAIRS; i++)
        if ((i > 0 && bench_peer_spawn(&other[i], o->other, o->no_pin, 1) != 0)
            || bench_peer_spawn(&self[i], SELF_EXE, o->no_pin, 0) != 0)
            return -1;
    if (handshake(&other[0], theirs) != 0 || filter_names(theirs, o->filter) != 0
        || handshake(&self[0], ours) != 0)
        return -1;
    for (i = 1; i < AGAINST_PAIRS; i++) {   /* the other pairs: the same programs again */
        name_list again;
        int bad;
        memset(&again, 0, sizeof again);
        bad = handshake(&other[i], &again) != 0;
        names_free(&again);
        memset(&again, 0, sizeof again);
        bad = bad || handshake(&self[i], &again) != 0;
        names_free(&again);
        if (bad)
            return -1;
    }
    return 0;
}

/* After the rows: the processes told to quit, the summary line and the gate, the JSON file.
 * The exit status (an error after one error line). */
static int finish(bench_peer *self, bench_peer *other, const against_options *o,
                  const verdict_row *rows, size_t nrows, const char *label,
                  const against_json *json)
{
    size_t i;
    int gate;
    for (i = 0; i < AGAINST_PAIRS; i++)
        if (bench_peer_quit(&other[i]) != 0 || bench_peer_quit(&self[i]) != 0)
            return BENCH_EXIT_ERROR;
    gate = bench_verdict_finish(rows, nrows, label,
                          "interleaved round by round over " AGAINST_PAIRS_TEXT
                          " pairs of processes, each row until decided", o->max_regression);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        bench_error("writing the table to stdout failed: %s", strerror(errno));
        return BENCH_EXIT_ERROR;
    }
    if (json && write_json(json) != 0)
        return BENCH_EXIT_ERROR;
    return gate ? BENCH_EXIT_REGRESSION : BENCH_EXIT_OK;
}

int bench_against_run(const against_options *o, const bench_row *const *sel, size_t count)
{
    bench_peer self[AGAINST_PAIRS], other[AGAINST_PAIRS];
    name_list ours, theirs;
    unsigned char *common = NULL;
    verdict_row *rows = NULL;
    char (*units)[AGAINST_MAX_LINE] = NULL;
    char label[300];
    size_t i, ncommon = 0, nrows = 0;
    double timeout_ms;
    int status = BENCH_EXIT_ERROR;
    against_json *json = NULL;

    if (read_timeout(&timeout_ms) != 0)
        return BENCH_EXIT_ERROR;
    snprintf(label, sizeof label, "'%s'", o->other);
    memset(&ours, 0, sizeof ours);
    memset(&theirs, 0, sizeof theirs);
    for (i = 0; i < AGAINST_PAIRS; i++) {
        bench_peer_init(&self[i], "this build's serving process", timeout_ms);
        bench_peer_init(&other[i], label, timeout_ms);
    }
    if (start_all(self, other, o, &ours, &theirs) != 0)
        goto done;
    common = bb_malloc_array(count ? count : 1, 1);
    rows = bb_malloc_array(count ? count : 1, sizeof *rows);
    units = bb_malloc_array(count ? count : 1, sizeof *units);
    if (!common || !rows || !units) {
        bench_error("-against: out of memory");
        goto done;
    }
    for (i = 0; i < count; i++)
        ncommon += (common[i] = (unsigned char)has_name(&theirs, sel[i]->name));
    note_one_sided(o->other, sel, count, &theirs, common);
    if (ncommon == 0) {
        bench_error("-against: no selected benchmark is in both builds (this build's: %zu, "
                    "%s: %zu)", count, label, theirs.count);
        goto done;
    }
    fprintf(stderr, "Using the '%s' SHA256 implementation\n", sha256_autodetect());
    bench_verdict_header("other", "ns");
    if (o->json && !(json = bench_against_json_new(o->other))) {
        bench_error("-output-json: out of memory");
        goto done;
    }
    if (compare_all(self, other, o, sel, count, common, ncommon, rows, units, &nrows, json)
        != 0)
        goto done;
    status = finish(self, other, o, rows, nrows, label, json);
done:
    for (i = 0; i < AGAINST_PAIRS; i++) {
        bench_peer_kill(&other[i]);
        bench_peer_kill(&self[i]);
    }
    names_free(&ours);
    names_free(&theirs);
    bench_against_json_free(json);
    bb_free(common);
    bb_free(rows);
    bb_free(units);
    return status;
}

int bench_mode_against(const bench_job *j)
{
    const bench_options *o = j->o;
    against_options ao;
    ao.other = o->against;
    ao.filter = o->filter;
    ao.min_time_ns = !o->min_time_given ? BENCH_AGAINST_DEFAULT_MIN_TIME_MS * 1e6
                     : o->min_time_ns > 0 ? o->min_time_ns : BENCH_DEFAULT_MIN_TIME_MS * 1e6;
    ao.max_regression = o->max_regression;
    ao.equivalence = o->equivalence;
    ao.json = o->output[BENCH_OUTPUT_JSON] != NULL;
    ao.dump = getenv("BENCH_BITCOIN_AGAINST_DUMP");
    if (ao.dump && !*ao.dump)
        ao.dump = NULL;
    ao.no_pin = o->no_pin;
    if (!o->no_pin)   /* before the other build starts: it inherits the one CPU */
        bench_pin_to_one_cpu();
    return bench_against_run(&ao, j->sel, j->count);
}
