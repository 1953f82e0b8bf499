/* -against's child processes (peer.h): starting one, its pipes, its messages, and how it
 * ended. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/peer.h"
#include "bench_bitcoin/diag.h"
#include "util/timing.h"

#include <errno.h>
#include <fcntl.h>
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

void bench_peer_init(bench_peer *p, const char *path, double timeout_ms)
{
    memset(p, 0, sizeof *p);
    p->path = path;
    p->to = p->from = p->err = -1;
    p->timeout_ms = timeout_ms;
}

static double now_ms(void)
{
    return bb_clock_ns(CLOCK_MONOTONIC) * 1e-6;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* The first line of what the child wrote on stderr ("" when nothing). */
static const char *peer_said(bench_peer *p, char *buf, size_t cap)
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
static void peer_reap(bench_peer *p, char *buf, size_t cap)
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
void bench_peer_kill(bench_peer *p)
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
int bench_peer_quit(bench_peer *p)
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
int bench_peer_spawn(bench_peer *p, const char *path, int no_pin, int strip)
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
        bench_peer_kill(p);
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
int bench_peer_send(bench_peer *p, const against_msg *m, const char *doing)
{
    char line[AGAINST_MAX_LINE + 1];
    size_t len = bench_proto_format(m, line, sizeof line), off = 0;
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
            bench_peer_kill(p);
            peer_reap(p, how, sizeof how);
            bench_error("-against: %s went away while %s", p->path, doing);
            return -1;
        }
        off += (size_t)w;
    }
    return 0;
}

/* Reads what the child wrote on stderr into errtext (its first bytes are kept, the rest
 * dropped): one read, or with until_end every read up to the end. At the end, or on an
 * error, the pipe is closed. */
static void drain_stderr(bench_peer *p, int until_end)
{
    do {
        char chunk[512];
        ssize_t n = p->err >= 0 ? read(p->err, chunk, sizeof chunk) : 0;
        size_t room = sizeof p->errtext - 1 - p->errlen, take;
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            close_fd(&p->err);
            return;
        }
        take = (size_t)n < room ? (size_t)n : room;
        memcpy(p->errtext + p->errlen, chunk, take);
        p->errlen += take;
        p->errtext[p->errlen] = '\0';
    } while (until_end);
}

/* The child ended before or during the handshake (how says how): one error line. What it
 * wrote on stderr is quoted as its own, so that a foreign program's complaint (which may well
 * start with "bench_bitcoin: ", the argv[0] it was given) is not taken for this one's. */
static void handshake_failed(bench_peer *p, const char *how)
{
    char said[256];
    peer_said(p, said, sizeof said);
    if (strstr(p->errtext, "unknown option"))
        bench_error("-against: %s is a bench_bitcoin without the -against protocol "
                    "(version %d); %s wrote on stderr: %s", p->path, AGAINST_PROTOCOL_VERSION,
                    p->path, said);
    else if (said[0])
        bench_error("-against: %s is not a bench_bitcoin serving the -against protocol "
                    "(version %d): %s before the handshake; %s wrote on stderr: %s", p->path,
                    AGAINST_PROTOCOL_VERSION, how, p->path, said);
    else
        bench_error("-against: %s is not a bench_bitcoin serving the -against protocol "
                    "(version %d): %s before the handshake", p->path, AGAINST_PROTOCOL_VERSION,
                    how);
}

/* The child closed its stdout while doing: drains its stderr, reaps it, one error line. */
static void died(bench_peer *p, const char *doing)
{
    char how[128], said[256];
    drain_stderr(p, 1);
    close_fd(&p->to);
    close_fd(&p->from);
    peer_reap(p, how, sizeof how);
    if (!p->greeted)
        handshake_failed(p, how);
    else if (peer_said(p, said, sizeof said)[0])
        bench_error("-against: %s died while %s: %s; %s wrote on stderr: %s", p->path, doing,
                    how, p->path, said);
    else
        bench_error("-against: %s died while %s: %s", p->path, doing, how);
}

/* Takes the first complete line out of p->in into *m. 1 when a message was taken, 0 when no
 * line is complete yet, -1 after one error line (not a message, or the child's error). */
static int take_line(bench_peer *p, against_msg *m, const char *doing)
{
    char *nl = memchr(p->in, '\n', p->inlen), shown[80];
    size_t len;
    int rc;
    if (!nl)
        return 0;
    len = (size_t)(nl - p->in);
    rc = bench_proto_parse(p->in, len, m);
    snprintf(shown, sizeof shown, "%.*s", (int)(len < 60 ? len : 60), p->in);
    memmove(p->in, nl + 1, p->inlen - len - 1);
    p->inlen -= len + 1;
    if (rc == 0 && !p->greeted && m->kind != AGAINST_HELLO)
        rc = -1;
    if (rc != 0) {
        bench_peer_kill(p);
        if (!p->greeted)
            bench_error("-against: %s does not speak the -against protocol: its first line "
                        "was '%s'", p->path, shown);
        else
            bench_error("-against: %s sent '%s' while %s, which is not a message of protocol "
                        "version %d", p->path, shown, doing, AGAINST_PROTOCOL_VERSION);
        return -1;
    }
    if (m->kind == AGAINST_ERROR) {
        bench_peer_kill(p);
        bench_error("-against: %s failed while %s; it reported: %s", p->path, doing, m->text);
        return -1;
    }
    return 1;
}

int bench_peer_recv(bench_peer *p, against_msg *m, const char *doing, double timeout_ms)
{
    double limit = timeout_ms > p->timeout_ms ? timeout_ms : p->timeout_ms;
    double deadline = now_ms() + limit;
    for (;;) {
        struct pollfd fds[2];
        nfds_t nfds = 0;
        double left;
        int r = take_line(p, m, doing);
        if (r != 0)
            return r > 0 ? 0 : -1;
        if (p->inlen >= AGAINST_MAX_LINE) {
            bench_peer_kill(p);
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
            bench_peer_kill(p);
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
            bench_peer_kill(p);
            bench_error("-against: waiting for %s: %s", p->path, strerror(errno));
            return -1;
        }
        if (r <= 0)
            continue;
        if (nfds == 2 && fds[1].revents)
            drain_stderr(p, 0);
        if (fds[0].revents) {
            ssize_t n = read(p->from, p->in + p->inlen, sizeof p->in - p->inlen);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                died(p, doing);
                return -1;
            }
            p->inlen += (size_t)n;
        }
    }
}
