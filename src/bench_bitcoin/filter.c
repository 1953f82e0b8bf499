/* -filter's regular expression (see filter.h). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/filter.h"
#include "bench_bitcoin/bench.h"

#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- repetition operators in a row ---- */

/* The end of the bracket expression that starts at p ('['), as regcomp reads it: a ']' right
 * after "[" or "[^" is a member, and so is anything inside "[:...:]", "[.....]", "[=...=]".
 * An opener without its closer ends the scan (regcomp refuses the pattern anyway), so the
 * scan stays linear. */
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
            if (!*close)
                return close;
            q = close + 2;
            continue;
        }
        q++;
    }
    return *q ? q + 1 : q;
}

/* If p ('{') starts an interval as glibc reads one ("{m}", "{m,}", "{m,n}", "{,n}", "{,}"),
 * its end; otherwise NULL (regcomp then reads the brace as it will). */
static const char *interval_end(const char *p)
{
    p++;
    while (*p >= '0' && *p <= '9')
        p++;
    if (*p == ',') {
        p++;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    return *p == '}' ? p + 1 : NULL;
}

/* 0, or -1 after saying so when pattern has two repetition operators in a row. */
static int screen(const char *pattern)
{
    const char *p = pattern, *prev_rep = NULL;
    while (*p) {
        const char *end = p + 1, *rep = NULL;
        switch (*p) {
        case '\\':
            if (p[1])
                end = p + 2;
            break;
        case '[':
            end = bracket_end(p);
            break;
        case '*':
        case '+':
        case '?':
            rep = p;
            break;
        case '{':
            if ((end = interval_end(p)) != NULL)
                rep = p;
            else
                end = p + 1;
            break;
        default:
            break;
        }
        if (rep && prev_rep) {
            bench_error("-filter: '%s' has two repetition operators in a row ('%.*s'), "
                        "which POSIX leaves undefined", pattern, (int)(end - prev_rep),
                        prev_rep);
            return -1;
        }
        prev_rep = rep;
        p = end;
    }
    return 0;
}

/* ---- the regex work, in a child ---- */

/* What the child sends back before the selection bytes. */
typedef struct {
    int rc;          /* 0, or regcomp's / regexec's error */
    int matching;    /* the error came from regexec */
    char msg[200];   /* regerror's text for a regcomp error */
    char hint[BENCH_FILTER_HINT_MAX];   /* when nothing matched: a pattern that would */
} verdict;

/* Writes len bytes of buf to fd, or leaves the child with status 1. */
static void write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            _exit(1);
        p += w;
        len -= (size_t)w;
    }
}

/* 1 when re matches the whole of name, 0 when not; -1 (and *err set) on a regexec error.
 * POSIX regexec finds the leftmost-longest match, so a match of the whole name exists exactly
 * when the one returned starts at 0 and ends at the end: no rewriting of the user's pattern
 * into "^(...)$". */
static int whole(const regex_t *re, const char *name, int *err)
{
    regmatch_t m;
    int rc = regexec(re, name, 1, &m, 0);
    if (rc != 0 && rc != REG_NOMATCH) {
        *err = rc;   /* REG_ESPACE: not "no match", or a benchmark would be left out */
        return -1;
    }
    return rc == 0 && m.rm_so == 0 && (size_t)m.rm_eo == strlen(name);
}

/* When pattern selects none of names: the first of "P.*" and ".*P.*" (P in parentheses
 * when it has an alternation) that selects some, into hint (cap bytes), else "". */
static void find_hint(const char *pattern, const char *const *names, size_t count, char *hint,
                      size_t cap)
{
    static const char *const forms[2][2] = {{"%s.*", ".*%s.*"}, {"(%s).*", ".*(%s).*"}};
    int paren = strchr(pattern, '|') != NULL, f, err = 0;
    hint[0] = '\0';
    for (f = 0; f < 2; f++) {
        char cand[BENCH_FILTER_HINT_MAX];
        regex_t re;
        size_t i;
        int found = 0;
        if ((size_t)snprintf(cand, sizeof cand, forms[paren][f], pattern) >= cap)
            return;
        if (regcomp(&re, cand, REG_EXTENDED) != 0)
            continue;
        for (i = 0; i < count && !found; i++)
            found = whole(&re, names[i], &err) == 1;
        regfree(&re);
        if (found) {
            snprintf(hint, cap, "%s", cand);
            return;
        }
    }
}

/* In the child: compile, match every name, write the verdict and the selection to fd. */
static void child(int fd, const char *pattern, const char *const *names, size_t count,
                  unsigned char *selected, const struct rlimit *cpu)
{
    struct rlimit core = {0, 0};
    verdict v;
    regex_t re;
    size_t i, n = 0;
    int null = open("/dev/null", O_WRONLY);

    /* The child says nothing itself: the parent reports, in one line. What a crash would
     * print (a sanitizer's report) goes nowhere. */
    if (null >= 0 && null != STDERR_FILENO) {
        dup2(null, STDERR_FILENO);
        close(null);
    }
    signal(SIGXCPU, SIG_DFL);
    setrlimit(RLIMIT_CORE, &core);   /* a pattern out of time leaves no core file */
    setrlimit(RLIMIT_CPU, cpu);
    memset(&v, 0, sizeof v);
    memset(&re, 0, sizeof re);   /* regerror may read it after a failed regcomp */
    v.rc = regcomp(&re, pattern, REG_EXTENDED);
    if (v.rc != 0) {
        regerror(v.rc, &re, v.msg, sizeof v.msg);
    } else {
        for (i = 0; i < count && v.rc == 0; i++) {
            int m = whole(&re, names[i], &v.rc);
            selected[i] = m == 1;
            n += m == 1;
            v.matching = m < 0;
        }
        regfree(&re);
        if (v.rc == 0 && n == 0)
            find_hint(pattern, names, count, v.hint, sizeof v.hint);
    }
    write_all(fd, &v, sizeof v);
    write_all(fd, selected, count);
    _exit(0);
}

/* fd itself if above the standard streams, else a copy of it there (fd closed), or -1: the
 * child points stderr at /dev/null, which must not hit the pipe (stdin and stderr closed
 * make pipe() return fds 0 and 2). */
static int above_stdio(int fd)
{
    int moved;
    if (fd > STDERR_FILENO)
        return fd;
    moved = fcntl(fd, F_DUPFD, STDERR_FILENO + 1);
    close(fd);
    return moved;
}

/* Reads exactly len bytes from fd into buf: 0, or -1 at end of file or on an error. */
static int read_all(int fd, void *buf, size_t len)
{
    char *p = buf;
    while (len > 0) {
        ssize_t r = read(fd, p, len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        p += r;
        len -= (size_t)r;
    }
    return 0;
}

int bench_filter_select(const char *pattern, const char *const *names, size_t count,
                        unsigned char *selected, char *hint, size_t hint_cap)
{
    int fds[2], status, got;
    verdict v;
    pid_t pid;
    struct sigaction dfl, old;
    struct rlimit cpu = {FILTER_CPU_SECONDS, FILTER_CPU_SECONDS + 1}, had;

    if (screen(pattern) != 0)
        return -1;
    /* within a lower hard limit the process already has (setrlimit cannot raise it) */
    if (getrlimit(RLIMIT_CPU, &had) == 0 && had.rlim_max != RLIM_INFINITY
        && had.rlim_max < cpu.rlim_max) {
        cpu.rlim_max = had.rlim_max;
        if (cpu.rlim_cur > cpu.rlim_max)
            cpu.rlim_cur = cpu.rlim_max;
    }
    if (pipe(fds) != 0) {
        bench_error("-filter: cannot create a pipe: %s", strerror(errno));
        return -1;
    }
    fds[0] = above_stdio(fds[0]);
    fds[1] = above_stdio(fds[1]);
    if (fds[0] < 0 || fds[1] < 0) {
        bench_error("-filter: cannot create a pipe: %s", strerror(errno));
        if (fds[0] >= 0)
            close(fds[0]);
        if (fds[1] >= 0)
            close(fds[1]);
        return -1;
    }
    /* SIGCHLD ignored (inherited so from a parent) would reap the child before waitpid */
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGCHLD, &dfl, &old);
    fflush(NULL); /* nothing buffered is written twice */
    pid = fork();
    if (pid < 0) {
        bench_error("-filter: cannot start a process to match '%s': %s", pattern,
                    strerror(errno));
        sigaction(SIGCHLD, &old, NULL);
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        child(fds[1], pattern, names, count, selected, &cpu);
    }
    close(fds[1]);
    got = read_all(fds[0], &v, sizeof v) == 0 && read_all(fds[0], selected, count) == 0;
    close(fds[0]);
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            status = -1;
            break;
        }
    sigaction(SIGCHLD, &old, NULL);
    if (status != -1 && WIFSIGNALED(status)
        && (WTERMSIG(status) == SIGXCPU || WTERMSIG(status) == SIGKILL)) {
        bench_error("-filter: '%s' is too complex: the regex library took more than %lu s of "
                    "CPU time over it", pattern, (unsigned long)cpu.rlim_cur);
        return -1;
    }
    if (!got || status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        bench_error("-filter: the regex library failed on '%s' (the process matching it %s)",
                    pattern, status != -1 && WIFSIGNALED(status) ? "crashed" : "failed");
        return -1;
    }
    if (v.rc == REG_ESPACE) {
        bench_error("-filter: out of memory %s '%s'", v.matching ? "while matching" : "compiling",
                    pattern);
        return -1;
    }
    if (v.rc != 0) {
        v.msg[sizeof v.msg - 1] = '\0';
        if (v.matching)
            bench_error("-filter: matching '%s' failed (regexec error %d)", pattern, v.rc);
        else
            bench_error("-filter: invalid regular expression '%s': %s", pattern, v.msg);
        return -1;
    }
    if (hint && hint_cap > 0) {
        v.hint[sizeof v.hint - 1] = '\0';
        snprintf(hint, hint_cap, "%s", v.hint);
    }
    return 0;
}
