/* Counting instructions under valgrind's callgrind instead of timing.
 *
 * When the process runs under callgrind (a client request that only
 * callgrind answers says so), nb_run's epochs are wrapped in callgrind's
 * client requests: zero the costs and switch collection on just before the
 * loop, switch it off and dump the costs just after. callgrind writes each
 * dump to a file of its own ("<out-file>.<k>", k counting the process's
 * dumps from 1), and the harness reads the totals back from it: no client
 * request returns a count.
 *
 * An epoch's count holds the loop's n iterations plus a fixed cost (the
 * client requests' tails, the loop's set-up: about 20 instructions). To
 * divide the fixed cost out exactly, epochs come in pairs, n then 2n
 * iterations, and the kept epoch is their difference: n iterations, no
 * fixed cost. The first epoch (the warm-up's iterations, or one) is a probe,
 * never kept: it runs the op's first call (lazy set-up) and sizes n so that
 * an epoch holds about NB_VG_TARGET instructions. Every step is a function
 * of counts, not of time, so two runs of one binary run the same epochs. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"
#include "util/alloc.h"
#include "util/spinlock.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#ifdef HAVE_VALGRIND_CALLGRIND_H
#include <valgrind/callgrind.h>
#include <valgrind/valgrind.h>
#endif

/* Instructions an epoch is sized to (a short epoch; a long one runs twice
 * that): callgrind runs about 30-60 million a second, so a pair takes tens
 * of milliseconds and a benchmark of 11 pairs well under a second. */
#define NB_VG_TARGET 300000.0
/* Longest dump file name the harness builds. */
#define NB_VG_PATH_MAX 4096

enum { NB_VG_PROBE, NB_VG_SHORT, NB_VG_LONG };

int nb_valgrind_supported(void)
{
#ifdef HAVE_VALGRIND_CALLGRIND_H
    return 1;
#else
    return 0;
#endif
}

#ifdef HAVE_VALGRIND_CALLGRIND_H

/* 1 under callgrind, 0 elsewhere, -1 until asked. ZERO_STATS is handled
 * (and answered 0) by callgrind alone; natively and under other tools the
 * request returns the default given here. Zeroing costs at that point
 * does no harm: nothing is collected outside an epoch. */
static int under_callgrind = -1;
/* Dumps this process asked for; callgrind numbers its files the same way. */
static unsigned long dumps;
/* Collection was checked (and switched off when the user left it on). */
static int collect_checked;
static char lock;

int nb_valgrind_counting(void)
{
    if (under_callgrind < 0) {
        unsigned long ret = 1;
        if (RUNNING_ON_VALGRIND)
            ret = VALGRIND_DO_CLIENT_REQUEST_EXPR(1, VG_USERREQ__ZERO_STATS, 0, 0, 0, 0, 0);
        under_callgrind = ret == 0;
    }
    return under_callgrind;
}

/* The file callgrind writes dump k to: NANOBENCH_CALLGRIND_OUT (what was
 * given to --callgrind-out-file; %p stands for the process id, as there) or
 * callgrind's default, callgrind.out.%p; then ".k". 0, or -1 when too long. */
static int dump_path(char *buf, size_t cap, unsigned long k)
{
    const char *base = getenv("NANOBENCH_CALLGRIND_OUT");
    size_t len = 0;
    if (!base || !*base)
        base = "callgrind.out.%p";
    for (; *base; ++base) {
        int w;
        if (base[0] == '%' && base[1] == 'p') {
            w = snprintf(buf + len, cap - len, "%ld", (long)getpid());
            ++base;
        } else {
            w = snprintf(buf + len, cap - len, "%c", *base);
        }
        if (w < 0 || (size_t)w >= cap - len)
            return -1;
        len += (size_t)w;
    }
    return (size_t)snprintf(buf + len, cap - len, ".%lu", k) < cap - len ? 0 : -1;
}

/* The trigger text of dump k: "nanobench <k> <name>", the name with
 * anything but printable ASCII as '?' (the text is one line of the dump). */
static void trigger_text(char *buf, size_t cap, unsigned long k, const char *name)
{
    size_t len, i;
    snprintf(buf, cap, "nanobench %lu ", k);
    len = strlen(buf);
    for (i = 0; name[i] && len + 1 < cap; ++i)
        buf[len++] = name[i] >= 0x20 && name[i] < 0x7f ? name[i] : '?';
    buf[len] = '\0';
}

/* Dumps the costs collected since the last zero and reads them back; 0, or
 * -1 when the dump file cannot be read (counts then invalid). */
static int dump(const char *name, double counts[NB_MEASURE_COUNT], unsigned *has)
{
    char path[NB_VG_PATH_MAX], trigger[160];
    unsigned long k;
    bb_spin_lock(&lock);
    k = ++dumps;
    bb_spin_unlock(&lock);
    trigger_text(trigger, sizeof trigger, k, name);
    CALLGRIND_DUMP_STATS_AT(trigger);
    if (dump_path(path, sizeof path, k) != 0)
        return -1;
    return nb_vg_read_dump(path, trigger, counts, has);
}

/* Once per process: callgrind collects from the start unless told
 * --collect-atstart=no; then the first toggle would switch it off. An empty
 * dump says which: anything in it was collected between two requests. */
static void check_collect(const char *name)
{
    double counts[NB_MEASURE_COUNT];
    unsigned has = 0;
    if (collect_checked)
        return;
    collect_checked = 1;
    CALLGRIND_ZERO_STATS;
    if (dump(name, counts, &has) == 0 && (has & (1u << NB_INSTRUCTIONS))
        && counts[NB_INSTRUCTIONS] > 0)
        CALLGRIND_TOGGLE_COLLECT;
}

int nb_vg_start(nb_bench *b)
{
    nb_logic *L = &b->logic;
    if (!nb_valgrind_counting())
        return 0;
    check_collect(b->cfg.name);
    memset(&L->vg, 0, sizeof L->vg);
    L->result->counted = 1;
    L->vg.phase = NB_VG_PROBE;
    L->state = NB_ST_VALGRIND;
    L->n = b->cfg.warmup ? b->cfg.warmup : 1;
    return 1;
}

void nb_vg_epoch_begin(nb_bench *b)
{
    b->logic.vg.t0 = nb_clock_now_ns();
    CALLGRIND_ZERO_STATS;
    CALLGRIND_TOGGLE_COLLECT;
}

/* Iterations of a short epoch, from the probe's count: the user's epoch
 * iterations when set, else enough for NB_VG_TARGET instructions. */
static uint64_t short_size(const nb_bench *b, const double *counts, unsigned has)
{
    double per, n;
    if (b->cfg.epoch_iterations)
        return b->cfg.epoch_iterations;
    if (!(has & (1u << NB_INSTRUCTIONS)))
        return 1;
    per = counts[NB_INSTRUCTIONS] / (double)b->logic.n;
    n = per > 0 ? ceil(NB_VG_TARGET / per) : NB_VG_TARGET;
    return n < 1 ? 1 : (uint64_t)n;
}

/* Keeps the difference of a pair: n iterations without the fixed cost. */
static void keep_pair(nb_bench *b, const double *counts, unsigned has, uint64_t long_ns)
{
    nb_logic *L = &b->logic;
    nb_result *r = L->result;
    nb_epoch *e = &r->epochs[r->count];
    unsigned valid = has & L->vg.short_has;
    int m;
    e->iters = L->vg.n;
    /* The simulator's time, kept for the time columns: half the long epoch's (the
     * difference of the two could come out 0 or less on a loaded machine). */
    e->elapsed = (double)long_ns * 0.5e-9;
    for (m = 0; m < NB_MEASURE_COUNT; ++m) {
        e->counters[m] = NAN;
        if (valid & (1u << m))
            e->counters[m] = counts[m] - L->vg.short_counts[m];
    }
    /* The simulated predictor's state differs between the two epochs, so
     * their misses can differ by a few the wrong way round. */
    if ((valid & (1u << NB_BRANCH_MISSES)) && e->counters[NB_BRANCH_MISSES] < 0)
        e->counters[NB_BRANCH_MISSES] = 0;
    r->has = r->count == 0 ? valid : (r->has & valid);
    r->count++;
}

void nb_vg_epoch_end(nb_bench *b)
{
    nb_logic *L = &b->logic;
    double counts[NB_MEASURE_COUNT];
    unsigned has = 0;
    uint64_t ns;
    CALLGRIND_TOGGLE_COLLECT;
    ns = nb_clock_now_ns() - L->vg.t0;
    if (dump(b->cfg.name, counts, &has) != 0)
        has = 0;
    switch (L->vg.phase) {
    case NB_VG_PROBE:
        L->result->discarded++;
        L->vg.n = short_size(b, counts, has);
        L->vg.phase = NB_VG_SHORT;
        L->n = L->vg.n;
        return;
    case NB_VG_SHORT:
        memcpy(L->vg.short_counts, counts, sizeof counts);
        L->vg.short_has = has;
        L->vg.phase = NB_VG_LONG;
        L->n = 2 * L->vg.n;
        return;
    default:
        keep_pair(b, counts, has, ns);
        L->vg.phase = NB_VG_SHORT;
        L->n = L->vg.n;
        if (L->result->count >= L->result->cap) {
            L->state = NB_ST_DONE;
            L->n = 0;
        }
        return;
    }
}

#else /* !HAVE_VALGRIND_CALLGRIND_H */

int nb_valgrind_counting(void)
{
    return 0;
}

int nb_vg_start(nb_bench *b)
{
    (void)b;
    return 0;
}

void nb_vg_epoch_begin(nb_bench *b)
{
    (void)b;
}

void nb_vg_epoch_end(nb_bench *b)
{
    (void)b;
}

#endif

/* Index of word w (length len) in the "events:" names, or -1. */
static int event_index(const char *events, const char *w)
{
    size_t len = strlen(w);
    int i = 0;
    const char *p = events;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            ++p;
        if (!*p || *p == '\n')
            return -1;
        if (strncmp(p, w, len) == 0 && (p[len] == ' ' || p[len] == '\t' || p[len] == '\n'
                                        || p[len] == '\0'))
            return i;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n')
            ++p;
        ++i;
    }
}

/* The n-th number of a totals line (callgrind leaves trailing zeros out:
 * 0 past its end), or NAN when n < 0 (no such event). */
static double total_at(const char *line, int n)
{
    const char *p = line;
    int i;
    if (n < 0)
        return NAN;
    for (i = 0;; ++i) {
        char *end;
        double v;
        while (*p == ' ' || *p == '\t')
            ++p;
        if (*p == '\n' || *p == '\0')
            return 0.0;
        if (!(*p >= '0' && *p <= '9'))
            return NAN;
        v = strtod(p, &end);
        if (i == n)
            return v;
        p = end;
    }
}

int nb_vg_read_dump(const char *path, const char *trigger, double counts[NB_MEASURE_COUNT],
                    unsigned *has)
{
    static const char ev_key[] = "events:", tot_key[] = "totals:", sum_key[] = "summary:";
    static const char trig_key[] = "desc: Trigger: Client Request: ";
    char line[1024], events[1024] = "", totals[1024] = "";
    int at_start = 1, trig_ok = trigger == NULL, m;
    double ir, bc, bi, bcm, bim;
    FILE *f = fopen(path, "r");
    *has = 0;
    for (m = 0; m < NB_MEASURE_COUNT; ++m)
        counts[m] = NAN;
    if (!f)
        return -1;
    /* Only lines that start with a key matter; longer lines (paths, function
     * names) come in several pieces, whose later ones are not line starts. */
    while (fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        if (at_start) {
            if (strncmp(line, ev_key, sizeof ev_key - 1) == 0)
                snprintf(events, sizeof events, "%s", line + sizeof ev_key - 1);
            else if (strncmp(line, tot_key, sizeof tot_key - 1) == 0)
                snprintf(totals, sizeof totals, "%s", line + sizeof tot_key - 1);
            else if (!*totals && strncmp(line, sum_key, sizeof sum_key - 1) == 0)
                snprintf(totals, sizeof totals, "%s", line + sizeof sum_key - 1);
            else if (trigger && strncmp(line, trig_key, sizeof trig_key - 1) == 0)
                trig_ok = strcspn(line + sizeof trig_key - 1, "\n") == strlen(trigger)
                          && strncmp(line + sizeof trig_key - 1, trigger,
                                     strlen(trigger)) == 0;
        }
        at_start = len > 0 && line[len - 1] == '\n';
    }
    if (ferror(f) || !trig_ok || !*events || !*totals) {
        fclose(f);
        return -1;
    }
    fclose(f);
    ir = total_at(totals, event_index(events, "Ir"));
    if (!isfinite(ir))
        return -1;
    counts[NB_INSTRUCTIONS] = ir;
    *has |= 1u << NB_INSTRUCTIONS;
    bc = total_at(totals, event_index(events, "Bc"));
    bi = total_at(totals, event_index(events, "Bi"));
    bcm = total_at(totals, event_index(events, "Bcm"));
    bim = total_at(totals, event_index(events, "Bim"));
    if (isfinite(bc) && isfinite(bi) && isfinite(bcm) && isfinite(bim)) {
        counts[NB_BRANCH_INSTRUCTIONS] = bc + bi;
        counts[NB_BRANCH_MISSES] = bcm + bim;
        *has |= (1u << NB_BRANCH_INSTRUCTIONS) | (1u << NB_BRANCH_MISSES);
    }
    return 0;
}

/* ---- running a program under callgrind ---- */

/* The first executable name in PATH (as execvp searches it) into out; 0 or -1. */
static int find_in_path(const char *name, char *out, size_t cap)
{
    const char *p = getenv("PATH");
    if (!p || !*p)
        p = "/usr/bin:/bin";
    for (;;) {
        const char *colon = strchr(p, ':');
        int len = colon ? (int)(colon - p) : (int)strlen(p);
        int w = len ? snprintf(out, cap, "%.*s/%s", len, p, name)
                    : snprintf(out, cap, "./%s", name);
        if (w > 0 && (size_t)w < cap && access(out, X_OK) == 0)
            return 0;
        if (!colon)
            return -1;
        p = colon + 1;
    }
}

/* Reads the trigger of a dump file: its k and name when the harness asked
 * for it; 0, or -1 when it is another dump (the one at the program's end). */
static int dump_trigger(const char *path, unsigned long *k, char *name, size_t cap)
{
    static const char key[] = "desc: Trigger: Client Request: nanobench ";
    char line[512];
    int rc = -1;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        char *end;
        if (strncmp(line, "events:", 7) == 0)
            break;
        if (strncmp(line, key, sizeof key - 1) != 0)
            continue;
        *k = strtoul(line + sizeof key - 1, &end, 10);
        if (*end == ' ')
            ++end;
        end[strcspn(end, "\n")] = '\0';
        snprintf(name, cap, "%s", end);
        rc = 0;
        break;
    }
    fclose(f);
    return rc;
}

/* Counts the harness's dumps in dir (the last one's name into rep), and
 * removes every file there and dir itself. */
static void collect_and_remove(const char *dir, nb_valgrind_report *rep)
{
    char path[NB_VG_PATH_MAX], name[sizeof rep->last];
    unsigned long last = 0, k;
    struct dirent *d;
    DIR *dp = opendir(dir);
    if (dp) {
        while ((d = readdir(dp)) != NULL) {
            if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
                continue;
            if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, d->d_name) >= sizeof path)
                continue;
            if (dump_trigger(path, &k, name, sizeof name) == 0) {
                rep->dumps++;
                if (k >= last) {
                    last = k;
                    memcpy(rep->last, name, sizeof rep->last);
                }
            }
            unlink(path);
        }
        closedir(dp);
    }
    rmdir(dir);
}

int nb_valgrind_run(char *const argv[], char *const valgrind_args[], nb_valgrind_report *rep)
{
    static const char env_key[] = "NANOBENCH_CALLGRIND_OUT=";
    static const char *const fixed[] = {"--tool=callgrind", "--collect-atstart=no",
                                        "--branch-sim=yes", "-q"};
    char valgrind[NB_VG_PATH_MAX], dir[NB_VG_PATH_MAX], out_opt[NB_VG_PATH_MAX + 32];
    char env_out[NB_VG_PATH_MAX + 32];
    const char *tmp = getenv("TMPDIR");
    char **vargv = NULL, **envp = NULL;
    size_t nargs = 0, nextra = 0, nenv = 0, i, j;
    int status, rc = -1, err = 0;
    pid_t pid;

    if (!argv || !argv[0] || !rep) {
        errno = EINVAL;
        return -1;
    }
    memset(rep, 0, sizeof *rep);
    rep->exit_status = -1;
    if (find_in_path("valgrind", valgrind, sizeof valgrind) != 0) {
        errno = ENOENT;
        return -1;
    }
    if (!tmp || !*tmp)
        tmp = "/tmp";
    if ((size_t)snprintf(dir, sizeof dir, "%s/nb-callgrind.XXXXXX", tmp) >= sizeof dir) {
        errno = ENAMETOOLONG;
        return -1;
    }
    if (!mkdtemp(dir))
        return -1;
    snprintf(out_opt, sizeof out_opt, "--callgrind-out-file=%s/cg.%%p", dir);
    snprintf(env_out, sizeof env_out, "%s%s/cg.%%p", env_key, dir);

    while (argv[nargs])
        ++nargs;
    while (valgrind_args && valgrind_args[nextra])
        ++nextra;
    while (environ && environ[nenv])
        ++nenv;
    vargv = bb_malloc_array(nargs + nextra + 8, sizeof *vargv);
    envp = bb_malloc_array(nenv + 2, sizeof *envp);
    if (!vargv || !envp) {
        err = ENOMEM;
        goto done;
    }
    j = 0;
    vargv[j++] = valgrind;
    for (i = 0; i < sizeof fixed / sizeof fixed[0]; ++i)
        vargv[j++] = (char *)fixed[i];
    vargv[j++] = out_opt;
    for (i = 0; i < nextra; ++i)
        vargv[j++] = valgrind_args[i];
    for (i = 0; i < nargs; ++i)
        vargv[j++] = argv[i];
    vargv[j] = NULL;
    for (i = j = 0; i < nenv; ++i)
        if (strncmp(environ[i], env_key, sizeof env_key - 1) != 0)
            envp[j++] = environ[i];
    envp[j++] = env_out;
    envp[j] = NULL;

    fflush(NULL); /* nothing buffered is written twice */
    pid = fork();
    if (pid < 0) {
        err = errno;
        goto done;
    }
    if (pid == 0) {
        execve(valgrind, vargv, envp);
        _exit(127);
    }
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            err = errno;
            goto done;
        }
    }
    if (WIFSIGNALED(status)) {
        rep->signal = WTERMSIG(status);
    } else {
        rep->exit_status = WEXITSTATUS(status);
    }
    rc = 0;
done:
    collect_and_remove(dir, rep);
    bb_free(vargv);
    bb_free(envp);
    if (rc != 0)
        errno = err;
    return rc;
}
