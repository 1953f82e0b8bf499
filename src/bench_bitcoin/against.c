/* bench_bitcoin -against (against.h): the parent that drives the comparison, and the serving
 * mode the other build runs in. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/against.h"
#include "bench_bitcoin/against_proto.h"
#include "bench_bitcoin/clustered.h"
#include "bench_bitcoin/filter.h"
#include "bench_bitcoin/verdict.h"
#include "crypto/sha256.h"
#include "util/alloc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef __linux__
#include <sys/personality.h>
#endif
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Rounds per benchmark: at least enough for a paired interval to mean something, at most what
 * keeps a fast op's comparison short; between them, as many as the measuring time affords. */
/* 16: two rounds per pair of processes (below), one with either build first. */
#define MIN_ROUNDS 16
#define MAX_ROUNDS 64
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
#define CONFIDENCE 0.95

/* ---- the child process, seen from the parent ---- */

typedef struct {
    const char *path;          /* for messages: "'./old/bench_bitcoin'", "this build" */
    pid_t pid;                 /* 0: none */
    int to, from, err;         /* its stdin, stdout, stderr; -1 when closed */
    char in[2 * AGAINST_MAX_LINE];
    size_t inlen;
    char errtext[1024];        /* the first bytes of its stderr, NUL-terminated */
    size_t errlen;
    double timeout_ms;
    int greeted;               /* the handshake went through */
} peer;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* The first line of what the child wrote on stderr ("" when nothing). */
static const char *peer_said(peer *p, char *buf, size_t cap)
{
    size_t n = strcspn(p->errtext, "\n");
    if (n >= cap)
        n = cap - 1;
    memcpy(buf, p->errtext, n);
    buf[n] = '\0';
    return buf;
}

/* Waits for the child to end, killing it once the timeout has passed; then describes how it
 * ended into buf. */
static void peer_reap(peer *p, char *buf, size_t cap)
{
    double deadline = now_ms() + 2000;
    int status = 0, killed = 0;
    pid_t r;
    if (p->pid <= 0) {
        snprintf(buf, cap, "it ended");
        return;
    }
    for (;;) {
        r = waitpid(p->pid, &status, WNOHANG);
        if (r == p->pid || (r < 0 && errno != EINTR))
            break;
        if (!killed && now_ms() > deadline) {
            kill(p->pid, SIGKILL);
            killed = 1;
        }
        usleep(1000);
    }
    p->pid = 0;
    if (r < 0)
        snprintf(buf, cap, "it ended");
    else if (killed)
        snprintf(buf, cap, "it closed its output and was stopped");
    else if (WIFSIGNALED(status))
        snprintf(buf, cap, "it was killed by signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    else
        snprintf(buf, cap, "it exited with status %d", WEXITSTATUS(status));
}

/* Kills the child (if still there) and closes every pipe. */
static void peer_kill(peer *p)
{
    char ignored[128];
    close_fd(&p->to);
    close_fd(&p->from);
    close_fd(&p->err);
    if (p->pid > 0) {
        kill(p->pid, SIGKILL);
        peer_reap(p, ignored, sizeof ignored);
    }
}

/* Ends a child that did its work: quit, then wait. 0, or -1 after one error line. */
static int peer_quit(peer *p)
{
    static const char quit[] = "quit\n";
    char how[128];
    ssize_t w = write(p->to, quit, sizeof quit - 1);
    (void)w;   /* a child that went away already is judged by its status below */
    close_fd(&p->to);
    close_fd(&p->from);
    close_fd(&p->err);
    peer_reap(p, how, sizeof how);
    if (strcmp(how, "it exited with status 0") != 0) {
        bench_error("-against: %s did not end cleanly after the comparison: %s", p->path, how);
        return -1;
    }
    return 0;
}

/* Address-space randomisation off for the program about to be executed (as setarch -R does;
 * best effort: where it is refused, layouts stay random). With it on, two processes of one
 * binary differed by up to 8% on some rows (the prevector ones): the stack's and the heap's
 * offsets within a page change per process, and with them cache conflicts and 4K aliasing.
 * With it off both builds' processes get the layout their binaries imply, every time. */
static void no_randomization(void)
{
#if defined(__linux__) && defined(ADDR_NO_RANDOMIZE)
    int cur = personality(0xffffffff);
    if (cur != -1)
        (void)personality((unsigned long)cur | ADDR_NO_RANDOMIZE);
#endif
}

/* Both builds start from the same argv[0] and through the same file name (the descriptor
 * EXEC_FD open on the program, by its /proc path), so that their initial stacks, which hold
 * both strings, are laid out alike: a shift of the stack by a path's length alone moved some
 * benchmarks by a few percent between two copies of one binary. */
#define EXEC_FD 100
#define EXEC_FD_TEXT "100"

/* Starts path -serve-protocol=1 with pipes on its stdin, stdout and stderr; with strip, without
 * the test hooks' environment variables (they are meant for this build's side). 0, or -1
 * after one error line (missing, not executable, cannot be started). */
static int peer_spawn(peer *p, const char *path, int no_pin, int strip)
{
    char version[32];
    char *argv[4];
    int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1}, report[2] = {-1, -1};
    int child_errno = 0, argc = 0;
    struct stat st;
    ssize_t got;
    pid_t pid;

    if (stat(path, &st) != 0) {
        bench_error("-against: cannot run '%s': %s", path, strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        bench_error("-against: '%s' is a directory, not a bench_bitcoin program", path);
        return -1;
    }
    if (access(path, X_OK) != 0) {
        bench_error("-against: '%s' is not executable (%s)", path, strerror(errno));
        return -1;
    }
    snprintf(version, sizeof version, "-serve-protocol=%d", AGAINST_PROTOCOL_VERSION);
    argv[argc++] = (char *)"bench_bitcoin";
    argv[argc++] = version;
    if (no_pin)
        argv[argc++] = (char *)"-no-pin";
    argv[argc] = NULL;
    if (pipe(in) != 0 || pipe(out) != 0 || pipe(err) != 0 || pipe(report) != 0) {
        bench_error("-against: cannot make pipes: %s", strerror(errno));
        goto fail;
    }
    fcntl(report[1], F_SETFD, FD_CLOEXEC);
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        bench_error("-against: cannot start '%s': %s", path, strerror(errno));
        goto fail;
    }
    if (pid == 0) {
        int e, fd = open(path, O_RDONLY);
        if (fd < 0 || dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0 || dup2(err[1], 2) < 0) {
            e = errno;
        } else if (close(in[0]), close(in[1]), close(out[0]), close(out[1]), close(err[0]),
                   close(err[1]), close(report[0]), fd != EXEC_FD && dup2(fd, EXEC_FD) < 0) {
            e = errno;
        } else {
            if (fd != EXEC_FD)
                close(fd);
            signal(SIGPIPE, SIG_DFL);
            if (strip) {
                unsetenv("BENCH_BITCOIN_AGAINST_PLANT");
                unsetenv("BENCH_BITCOIN_SERVE_FAULT");
            }
            no_randomization();
            execv("/proc/self/fd/" EXEC_FD_TEXT, argv);
            e = errno;
        }
        if (write(report[1], &e, sizeof e) < 0)
            _exit(127);
        _exit(127);
    }
    close_fd(&in[0]);
    close_fd(&out[1]);
    close_fd(&err[1]);
    close_fd(&report[1]);
    do
        got = read(report[0], &child_errno, sizeof child_errno);
    while (got < 0 && errno == EINTR);
    close_fd(&report[0]);
    p->pid = pid;
    p->to = in[1];
    p->from = out[0];
    p->err = err[0];
    fcntl(p->to, F_SETFD, FD_CLOEXEC);
    fcntl(p->from, F_SETFD, FD_CLOEXEC);
    fcntl(p->err, F_SETFD, FD_CLOEXEC);
    if (got == (ssize_t)sizeof child_errno) {
        bench_error("-against: cannot run '%s': %s", path, strerror(child_errno));
        peer_kill(p);
        return -1;
    }
    return 0;
fail:
    close_fd(&in[0]), close_fd(&in[1]), close_fd(&out[0]), close_fd(&out[1]);
    close_fd(&err[0]), close_fd(&err[1]), close_fd(&report[0]), close_fd(&report[1]);
    return -1;
}

/* Sends one message. 0, or -1 after one error line (the child went away: its status says
 * why). */
static int peer_send(peer *p, const against_msg *m, const char *doing)
{
    char line[AGAINST_MAX_LINE + 1];
    size_t len = against_format(m, line, sizeof line), off = 0;
    if (len == 0) {
        bench_error("-against: cannot send a message about %s (not printable ASCII)", doing);
        return -1;
    }
    while (off < len) {
        ssize_t w = write(p->to, line + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            char how[128];
            peer_kill(p);
            peer_reap(p, how, sizeof how);
            bench_error("-against: %s went away while %s", p->path, doing);
            return -1;
        }
        off += (size_t)w;
    }
    return 0;
}

/* The reason a child ended before or during the handshake, as one error line. */
static void handshake_failed(peer *p, const char *how)
{
    char said[256];
    peer_said(p, said, sizeof said);
    if (strstr(p->errtext, "unknown option"))
        bench_error("-against: %s is a bench_bitcoin without the -against protocol "
                    "(version %d); it answered: %s", p->path, AGAINST_PROTOCOL_VERSION, said);
    else if (said[0])
        bench_error("-against: %s is not a bench_bitcoin serving the -against protocol "
                    "(version %d): %s before the handshake, saying: %s", p->path,
                    AGAINST_PROTOCOL_VERSION, how, said);
    else
        bench_error("-against: %s is not a bench_bitcoin serving the -against protocol "
                    "(version %d): %s before the handshake", p->path, AGAINST_PROTOCOL_VERSION,
                    how);
}

/* Receives one message, waiting at most the timeout. 0, or -1 after one error line (the
 * child died, hung, said error or something that is not a message); the child is then
 * killed. doing says what was going on ("running SHA256"). */
static int peer_recv(peer *p, against_msg *m, const char *doing, double timeout_ms)
{
    double limit = timeout_ms > p->timeout_ms ? timeout_ms : p->timeout_ms;
    double deadline = now_ms() + limit;
    for (;;) {
        char *nl = memchr(p->in, '\n', p->inlen);
        struct pollfd fds[2];
        nfds_t nfds = 0;
        double left;
        int r;
        if (nl) {
            size_t len = (size_t)(nl - p->in);
            int rc = against_parse(p->in, len, m);
            char shown[80];
            snprintf(shown, sizeof shown, "%.*s", (int)(len < 60 ? len : 60), p->in);
            memmove(p->in, nl + 1, p->inlen - len - 1);
            p->inlen -= len + 1;
            if (rc == 0 && !p->greeted && m->kind != AGAINST_HELLO)
                rc = -1;
            if (rc != 0) {
                peer_kill(p);
                if (!p->greeted)
                    bench_error("-against: %s does not speak the -against protocol: its "
                                "first line was '%s'", p->path, shown);
                else
                    bench_error("-against: %s sent '%s' while %s, which is not a message "
                                "of protocol version %d", p->path, shown, doing,
                                AGAINST_PROTOCOL_VERSION);
                return -1;
            }
            if (m->kind == AGAINST_ERROR) {
                peer_kill(p);
                bench_error("-against: %s failed while %s: %s", p->path, doing, m->text);
                return -1;
            }
            return 0;
        }
        if (p->inlen >= AGAINST_MAX_LINE) {
            peer_kill(p);
            bench_error("-against: %s sent a line of more than %d bytes while %s: not the "
                        "-against protocol", p->path, AGAINST_MAX_LINE - 1, doing);
            return -1;
        }
        fds[nfds].fd = p->from;
        fds[nfds++].events = POLLIN;
        if (p->err >= 0) {
            fds[nfds].fd = p->err;
            fds[nfds++].events = POLLIN;
        }
        left = deadline - now_ms();
        if (left <= 0) {
            peer_kill(p);
            if (!p->greeted)
                bench_error("-against: %s did not answer within %.0f s: not a bench_bitcoin "
                            "serving the -against protocol, or hung", p->path,
                            p->timeout_ms / 1e3);
            else
                bench_error("-against: %s did not answer within %.0f s while %s (hung?); "
                            "stopped it", p->path, limit / 1e3, doing);
            return -1;
        }
        r = poll(fds, nfds, left > 1000 ? 1000 : (int)left + 1);
        if (r < 0 && errno != EINTR) {
            peer_kill(p);
            bench_error("-against: waiting for %s: %s", p->path, strerror(errno));
            return -1;
        }
        if (r <= 0)
            continue;
        if (nfds == 2 && fds[1].revents) {
            char junk[512];
            ssize_t n = read(p->err, junk, sizeof junk);
            if (n <= 0) {
                close_fd(&p->err);
            } else {
                size_t room = sizeof p->errtext - 1 - p->errlen;
                size_t take = (size_t)n < room ? (size_t)n : room;
                memcpy(p->errtext + p->errlen, junk, take);
                p->errlen += take;
                p->errtext[p->errlen] = '\0';
            }
        }
        if (fds[0].revents) {
            ssize_t n = read(p->from, p->in + p->inlen, sizeof p->in - p->inlen);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                char how[128], said[256];
                /* its last words on stderr, if it is still writing them */
                while (p->err >= 0) {
                    char junk[512];
                    ssize_t e = read(p->err, junk, sizeof junk);
                    size_t room = sizeof p->errtext - 1 - p->errlen;
                    if (e <= 0)
                        break;
                    if ((size_t)e > room)
                        e = (ssize_t)room;
                    memcpy(p->errtext + p->errlen, junk, (size_t)e);
                    p->errlen += (size_t)e;
                    p->errtext[p->errlen] = '\0';
                }
                close_fd(&p->to);
                close_fd(&p->from);
                close_fd(&p->err);
                peer_reap(p, how, sizeof how);
                if (!p->greeted)
                    handshake_failed(p, how);
                else if (peer_said(p, said, sizeof said)[0])
                    bench_error("-against: %s died while %s: %s, saying: %s", p->path, doing,
                                how, said);
                else
                    bench_error("-against: %s died while %s: %s", p->path, doing, how);
                return -1;
            }
            p->inlen += (size_t)n;
        }
    }
}

/* ---- the parent: one benchmark ---- */

/* The fraction of extra iterations BENCH_BITCOIN_AGAINST_PLANT=NAME:PCT asks of benchmark
 * name (0: none, the default). */
static double planted(const char *name)
{
    const char *plant = getenv("BENCH_BITCOIN_AGAINST_PLANT");
    size_t nlen;
    double pct;
    if (!plant)
        return 0;
    nlen = strcspn(plant, ":");
    if (strlen(name) != nlen || memcmp(plant, name, nlen) != 0 || plant[nlen] != ':')
        return 0;
    pct = strtod(plant + nlen + 1, NULL);
    return pct > 0 && pct < 1000 ? pct / 100 : 0;
}

/* n, plus the planted extra iterations (rounded at random, so that their mean is exact). */
static uint64_t with_plant(uint64_t n, double plant, nb_rng *rng)
{
    if (plant <= 0)
        return n;
    return n + (uint64_t)floor((double)n * plant + nb_rng_uniform01(rng));
}



static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, size_t n)
{
    double s[MAX_ROUNDS];
    memcpy(s, v, n * sizeof *v);
    qsort(s, n, sizeof *s, cmp_double);
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
static int handshake(peer *p, name_list *l)
{
    against_msg m;
    if (peer_recv(p, &m, "starting", 0) != 0)
        return -1;
    if (m.number != AGAINST_PROTOCOL_VERSION) {
        peer_kill(p);
        bench_error("-against: '%s' speaks -against protocol version %llu, this build version "
                    "%d", p->path, (unsigned long long)m.number, AGAINST_PROTOCOL_VERSION);
        return -1;
    }
    p->greeted = 1;
    for (;;) {
        if (peer_recv(p, &m, "listing its benchmarks", 0) != 0)
            return -1;
        if (m.kind == AGAINST_NAMES_END)
            return 0;
        if (m.kind != AGAINST_NAME) {
            peer_kill(p);
            bench_error("-against: '%s' sent a message out of place while listing its "
                        "benchmarks", p->path);
            return -1;
        }
        if (names_add(l, m.text) != 0) {
            peer_kill(p);
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
    if (filter_select(pattern, (const char *const *)l->names, l->count, keep) != 0) {
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
    size_t rounds;
    double self_ns[MAX_ROUNDS];   /* per iteration, per round */
    double other_ns[MAX_ROUNDS];
    size_t pair[MAX_ROUNDS];      /* the pair of processes that measured the round */
} plan;

/* Sends m and receives the answer of kind want into *m. 0, or -1 after one error line. */
static int ask(peer *p, against_msg *m, against_kind want, const char *doing, double limit_ms)
{
    if (peer_send(p, m, doing) != 0 || peer_recv(p, m, doing, limit_ms) != 0)
        return -1;
    if (m->kind != want) {
        peer_kill(p);
        bench_error("-against: %s sent a message out of place while %s", p->path, doing);
        return -1;
    }
    return 0;
}

/* One epoch of n iterations on p; its duration in ns into *ns. 0, or -1 after one line. */
static int epoch(peer *p, const plan *pl, uint64_t n, double *ns)
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

/* Sizes the epochs on this build's side: grows them until one lasts the target, then sets
 * pl->n and pl->rounds. 0, or -1 after one error line. */
static int calibrate(peer *self, peer *other, plan *pl, double budget_ns)
{
    uint64_t n = 1;
    double ns, per, rounds, ignored;
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
            peer_kill(self);
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
    rounds = floor(budget_ns / pl->target_ns);
    pl->rounds = rounds < MIN_ROUNDS ? MIN_ROUNDS : rounds > MAX_ROUNDS ? MAX_ROUNDS
                                                                       : (size_t)rounds;
    /* every pair measures as many rounds with either side first */
    pl->rounds -= pl->rounds % (2 * AGAINST_PAIRS);
    return 0;
}

/* The rounds, spread over the pairs: round r on pair r % AGAINST_PAIRS, this build first in
 * the pair's even rounds and the other first in its odd ones. Every pair but the first (which
 * calibrated) first runs one epoch on each side, unmeasured, so that all enter the rounds
 * warm. 0, or -1. */
static int measure(peer *self, peer *other, plan *pl)
{
    size_t r, j;
    double ignored;
    for (j = 1; j < AGAINST_PAIRS; j++)
        if (epoch(&self[j], pl, pl->n, &ignored) != 0
            || epoch(&other[j], pl, pl->n, &ignored) != 0)
            return -1;
    for (r = 0; r < pl->rounds; r++) {
        size_t k = r % AGAINST_PAIRS, turn = r / AGAINST_PAIRS;
        peer *first = turn % 2 ? &other[k] : &self[k], *second = turn % 2 ? &self[k] : &other[k];
        double a, b;
        if (epoch(first, pl, pl->n, &a) != 0 || epoch(second, pl, pl->n, &b) != 0)
            return -1;
        pl->self_ns[r] = (turn % 2 ? b : a) / (double)pl->n;
        pl->other_ns[r] = (turn % 2 ? a : b) / (double)pl->n;
        pl->pair[r] = k;
    }
    return 0;
}

/* Sends one message of kind k (text: name, for run) to every process of both builds and
 * waits for each one's answer of kind want (into *self_m and *other_m: pair 0's). 0, or -1
 * after one error line. */
static int tell_all(peer *self, peer *other, against_kind k, const char *name,
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

/* Measures one benchmark on both sides into *w (its unit into unit); *skipped when the two
 * builds count it in different units. 0, or -1 after one error line. */
static int compare_one(peer *self, peer *other, const against_options *o, const bench_row *e,
                       size_t family, verdict_row *w, char *unit, size_t unit_cap,
                       int *skipped)
{
    plan *pl = bb_malloc(sizeof *pl);
    against_msg ms, mo;
    double self_batch, other_batch;
    size_t i;
    int rc = -1;

    *skipped = 0;
    if (!pl) {
        bench_error("-against: out of memory");
        return -1;
    }
    memset(pl, 0, sizeof *pl);
    pl->name = e->name;
    snprintf(pl->doing, sizeof pl->doing, "running %s", e->name);
    pl->target_ns = o->min_time_ns / 2 / MAX_ROUNDS;
    if (pl->target_ns < MIN_EPOCH_NS)
        pl->target_ns = MIN_EPOCH_NS;

    if (tell_all(self, other, AGAINST_RUN, e->name, AGAINST_READY, pl, &ms, &mo) != 0)
        goto done;
    self_batch = ms.batch;
    other_batch = mo.batch;
    *skipped = strcmp(ms.text, mo.text) != 0;
    if (*skipped)
        fprintf(stderr, "-against: %s counts in '%s' here and in '%s' in %s: not compared\n",
                e->name, ms.text, mo.text, other->path);
    else if (calibrate(self, other, pl, o->min_time_ns / 2) != 0 || measure(self, other, pl) != 0)
        goto done;
    snprintf(unit, unit_cap, "%s", ms.text);
    if (tell_all(self, other, AGAINST_END, NULL, AGAINST_DONE, pl, &ms, &mo) != 0)
        goto done;
    rc = 0;
    if (*skipped)
        goto done;
    for (i = 0; i < pl->rounds; i++) {   /* per unit: the batches may differ */
        pl->self_ns[i] /= self_batch;
        pl->other_ns[i] /= other_batch;
    }
    w->name = e->name;
    w->unit = unit;
    w->quantity = "ns";
    w->self_ns = median(pl->self_ns, pl->rounds);
    w->other_ns = median(pl->other_ns, pl->rounds);
    if (clustered_ratio(pl->other_ns, pl->self_ns, pl->pair, pl->rounds, AGAINST_PAIRS, family,
                        CONFIDENCE, &w->r) != 0)
        w->r.estimate = w->r.low = w->r.high = NAN, w->r.significant = 0;
    verdict_judge(w, o->max_regression);
    verdict_print(w);
done:
    bb_free(pl);
    return rc;
}

/* The path this very program runs from, for its own serving process. */
#define SELF_EXE "/proc/self/exe"

int against_run(const against_options *o, const bench_row *const *sel, size_t count)
{
    peer self[AGAINST_PAIRS], other[AGAINST_PAIRS];
    name_list ours, theirs;
    unsigned char *common = NULL;
    verdict_row *rows = NULL;
    char (*units)[AGAINST_MAX_LINE] = NULL;
    char label[300];
    size_t i, ncommon = 0, nrows = 0;
    const char *t = getenv("BENCH_BITCOIN_AGAINST_TIMEOUT");
    double timeout_ms = DEFAULT_TIMEOUT_S * 1e3;
    int status = 1, gate;

    if (t && *t) {
        char *end;
        double sec = strtod(t, &end);
        if (*end || !(sec > 0) || !(sec < 1e6)) {
            bench_error("BENCH_BITCOIN_AGAINST_TIMEOUT: '%s' is not a number of seconds > 0",
                        t);
            return 1;
        }
        timeout_ms = sec * 1e3;
    }
    snprintf(label, sizeof label, "'%s'", o->other);
    memset(self, 0, sizeof self);
    memset(other, 0, sizeof other);
    memset(&ours, 0, sizeof ours);
    memset(&theirs, 0, sizeof theirs);
    for (i = 0; i < AGAINST_PAIRS; i++) {
        self[i].path = "this build's serving process";
        other[i].path = label;
        self[i].to = self[i].from = self[i].err = other[i].to = other[i].from = -1;
        other[i].err = -1;
        self[i].timeout_ms = other[i].timeout_ms = timeout_ms;
    }
    /* a child that dies must be an error line, not the end of this process */
    signal(SIGPIPE, SIG_IGN);
    /* the other first: a bad path is the likelier error, and says more */
    if (peer_spawn(&other[0], o->other, o->no_pin, 1) != 0)
        return 1;
    /* all started before any is waited for, so that their start-ups overlap */
    for (i = 0; i < AGAINST_PAIRS; i++)
        if ((i > 0 && peer_spawn(&other[i], o->other, o->no_pin, 1) != 0)
            || peer_spawn(&self[i], SELF_EXE, o->no_pin, 0) != 0)
            goto done;
    if (handshake(&other[0], &theirs) != 0 || filter_names(&theirs, o->filter) != 0)
        goto done;
    if (handshake(&self[0], &ours) != 0)
        goto done;
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
            goto done;
    }
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
    verdict_header("other", "ns");
    for (i = 0; i < count; i++) {
        int skipped;
        if (!common[i])
            continue;
        if (compare_one(self, other, o, sel[i], ncommon, &rows[nrows], units[nrows],
                        sizeof units[nrows], &skipped) != 0)
            goto done;
        nrows += !skipped;
    }
    for (i = 0; i < AGAINST_PAIRS; i++)
        if (peer_quit(&other[i]) != 0 || peer_quit(&self[i]) != 0)
            goto done;
    gate = verdict_finish(rows, nrows, label,
                          "interleaved round by round over " AGAINST_PAIRS_TEXT
                          " pairs of processes", o->max_regression);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        bench_error("writing the table to stdout failed: %s", strerror(errno));
        goto done;
    }
    status = gate;
done:
    for (i = 0; i < AGAINST_PAIRS; i++) {
        peer_kill(&other[i]);
        peer_kill(&self[i]);
    }
    names_free(&ours);
    names_free(&theirs);
    bb_free(common);
    bb_free(rows);
    bb_free(units);
    return status;
}

/* ---- the serving side ---- */

typedef struct {
    nb_bench *b;
    int fault;                 /* 0 none, 1 crash, 2 hang */
    double plant;              /* extra iterations, as a fraction (0: none) */
    nb_rng rng;
} serve;

static void say(const against_msg *m)
{
    char line[AGAINST_MAX_LINE + 1];
    size_t len = against_format(m, line, sizeof line);
    if (len == 0 || fwrite(line, 1, len, stdout) != len || fflush(stdout) != 0)
        exit(1);   /* the parent is gone or the message cannot be said: nothing to serve */
}

static void say_error(const char *fmt, const char *arg)
{
    against_msg m;
    memset(&m, 0, sizeof m);
    m.kind = AGAINST_ERROR;
    snprintf(m.text, sizeof m.text, fmt, arg);
    say(&m);
}

/* Reads the parent's next message; at the end of input, or on a line that is no message,
 * the process ends (status 0 at the end, as after quit). */
static void hear(against_msg *m)
{
    char line[AGAINST_MAX_LINE + 1];
    size_t len;
    if (!fgets(line, sizeof line, stdin))
        exit(0);
    len = strlen(line);
    if (len == 0 || line[len - 1] != '\n' || against_parse(line, len - 1, m) != 0) {
        say_error("not a message of protocol version 1: %.60s", line);
        exit(1);
    }
    if (m->kind == AGAINST_QUIT)
        exit(0);
}

static uint64_t serve_next(void *ctx, uint64_t iters, uint64_t ns)
{
    serve *s = ctx;
    against_msg m;
    memset(&m, 0, sizeof m);
    if (iters == 0) {
        m.kind = AGAINST_READY;
        m.batch = nb_get_batch(s->b);
        snprintf(m.text, sizeof m.text, "%s", nb_get_unit(s->b));
    } else {
        m.kind = AGAINST_TIME;
        m.number = ns;
    }
    say(&m);
    hear(&m);
    if (m.kind == AGAINST_END)
        return 0;
    if (m.kind != AGAINST_EPOCH) {
        say_error("expected epoch or end, got %.60s", "another message");
        exit(1);
    }
    if (s->fault == 1)
        kill(getpid(), SIGKILL);
    while (s->fault == 2)
        pause();
    return with_plant(m.number, s->plant, &s->rng);
}

int against_serve(const char *version)
{
    size_t count, i;
    const bench_row *all = bench_rows(&count);
    const char *fault = getenv("BENCH_BITCOIN_SERVE_FAULT");
    against_msg m;
    char *end;
    long v = strtol(version, &end, 10);

    if (*end || end == version || v != AGAINST_PROTOCOL_VERSION) {
        bench_error("-serve-protocol=%s: this build speaks -against protocol version %d only",
                    version, AGAINST_PROTOCOL_VERSION);
        return 1;
    }
    sha256_autodetect();
    memset(&m, 0, sizeof m);
    m.kind = AGAINST_HELLO;
    m.number = AGAINST_PROTOCOL_VERSION;
    say(&m);
    m.kind = AGAINST_NAME;
    for (i = 0; i < count; i++) {
        if (!bench_row_available(&all[i]))
            continue;   /* not run on this CPU (bench.h) */
        snprintf(m.text, sizeof m.text, "%s", all[i].name);
        say(&m);
    }
    m.kind = AGAINST_NAMES_END;
    say(&m);
    for (;;) {
        const bench_row *row;
        serve s;
        hear(&m);
        if (m.kind != AGAINST_RUN) {
            say_error("expected run or quit, got %.60s", "another message");
            return 1;
        }
        row = bench_row_find(m.text);
        if (!row || !bench_row_available(row)) {
            say_error("no benchmark named %.100s in this build", m.text);
            return 1;
        }
        memset(&s, 0, sizeof s);
        s.b = nb_bench_new();
        if (!s.b) {
            say_error("%s", "out of memory");
            return 1;
        }
        s.fault = fault && strcmp(fault, "crash") == 0 ? 1 : fault && strcmp(fault, "hang") == 0;
        if (fault && strcmp(fault, "hang") == 0)
            s.fault = 2;
        s.plant = planted(row->name);
        nb_rng_seed(&s.rng, 1);
        nb_output(nb_performance_counters(nb_name(s.b, row->name), 0), NULL);
        nb_drive(s.b, serve_next, &s);
        if (bench_row_run(row, s.b) != 0) {
            say_error("%s: out of memory", row->name);
            return 1;
        }
        nb_bench_free(s.b);
        memset(&m, 0, sizeof m);
        m.kind = AGAINST_DONE;
        say(&m);
    }
}
