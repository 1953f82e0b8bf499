/* bench_bitcoin's output files: resolution, temporaries, rendering, the rename, and the
 * cleanup that removes temporaries however the program ends (outfile.h). */
#define _XOPEN_SOURCE 700 /* realpath, lstat, mkstemp, fchmod, sigaction */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/outfile.h"
#include "bench_bitcoin/bench.h"
#include "util/alloc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The files whose temporaries must go if the program ends before committing them. The
 * signal handler reads these and each file's tmp: a name is published to tmp only once it is
 * complete, and taken out of tmp before it is freed. Compiler barriers keep those stores in
 * place (the handler runs on this thread, so nothing more is needed; elsewhere the calls to
 * mkstemp, unlink and free around them order them anyway). */
#if defined(__GNUC__)
#define SIGNAL_FENCE() __asm__ __volatile__("" ::: "memory")
#else
#define SIGNAL_FENCE() ((void)0)
#endif
#define OUT_TRACK_MAX 8
static out_file *tracked[OUT_TRACK_MAX];
static volatile sig_atomic_t n_tracked;

static void set_tmp(out_file *o, char *name)
{
    SIGNAL_FENCE();
    o->tmp = name;
    SIGNAL_FENCE();
}

/* Takes o's temporary name out of o (for the caller to free). */
static char *take_tmp(out_file *o)
{
    char *t = o->tmp;
    set_tmp(o, NULL);
    return t;
}

/* Closes o's stream and removes its temporary, if it has them. The name stays published until
 * the file is gone, so a signal in between only unlinks it a second time. */
static void drop_temp(out_file *o)
{
    if (o->f) {
        fclose(o->f);
        o->f = NULL;
    }
    if (o->tmp) {
        unlink(o->tmp);
        bb_free(take_tmp(o));
    }
}

/* atexit: every tracked file's temporary goes unless it was committed. */
static void remove_temps(void)
{
    sig_atomic_t i;
    for (i = 0; i < n_tracked; i++)
        drop_temp(tracked[i]);
}

/* Set by bench_out_commit_all once every rename succeeded: from then on the commit stands, and a
 * signal only removes what is left over (the second links). */
static volatile sig_atomic_t committed;

/* Async-signal-safe: only unlink and rename, then die of the same signal. A signal during
 * bench_out_commit_all, before every rename succeeded, undoes what it did: a replaced file's
 * second link is renamed back over it (which does nothing when the target was not replaced
 * yet: both names are the same file) and then removed; a file that did not exist before is
 * removed again (renamed is set just before its rename, so a rename that completed is never
 * missed; removing a name that is not there yet does nothing). */
static void on_fatal_signal(int sig)
{
    sig_atomic_t i;
    for (i = 0; i < n_tracked; i++) {
        out_file *o = tracked[i];
        if (o->tmp)
            unlink(o->tmp);
        if (committed) {
            if (o->old)
                unlink(o->old);
        } else if (o->old) {
            rename(o->old, o->path);
            unlink(o->old);
        } else if (o->renamed && !o->exists) {
            unlink(o->path);
        }
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Adds o to the tracked files, installing the handlers on first use (not for a signal the
 * parent set to be ignored: nohup, a background job); 0, or -1 when full. */
static int track(out_file *o)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    size_t i;
    for (i = 0; i < (size_t)n_tracked; i++)
        if (tracked[i] == o)
            return 0;
    if (n_tracked == OUT_TRACK_MAX)
        return -1;
    if (n_tracked == 0) {
        atexit(remove_temps);
        for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
            struct sigaction sa, old;
            if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
                continue;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = on_fatal_signal;
            sigemptyset(&sa.sa_mask);
            sigaction(sigs[i], &sa, NULL);
        }
    }
    tracked[n_tracked] = o;
    SIGNAL_FENCE();
    n_tracked = n_tracked + 1;
    return 0;
}

/* The absolute path a new file target will have: its directory (which must exist) with its
 * links resolved, then its name. Allocated; NULL with errno set on failure. */
static char *resolve_new(const char *target)
{
    const char *slash = strrchr(target, '/'), *name = slash ? slash + 1 : target;
    size_t dir_len = !slash ? 1 : slash == target ? 1 : (size_t)(slash - target);
    char *dir = bb_malloc(dir_len + 1), *real_dir, *path = NULL;
    int saved;

    if (!dir)
        return NULL;
    memcpy(dir, !slash ? "." : slash == target ? "/" : target, dir_len);
    dir[dir_len] = '\0';
    real_dir = realpath(dir, NULL);
    saved = errno;
    bb_free(dir);
    errno = saved;   /* realpath's reason, for the caller's message */
    if (!real_dir)
        return NULL;
    path = bb_malloc(strlen(real_dir) + strlen(name) + 2);
    if (path)
        sprintf(path, "%s/%s", strcmp(real_dir, "/") == 0 ? "" : real_dir, name);
    free(real_dir);
    return path;
}

/* 1 when target, whose stat is st, is one of this process's open descriptors: named as one
 * (/dev/stdout, /dev/fd/3, ...), or the same file as stdin, stdout or stderr however it is
 * named (a link to /dev/stdout, the file stdout was redirected to). */
static int own_descriptor(const char *target, const struct stat *st)
{
    int fd;
    if (strcmp(target, "/dev/stdout") == 0 || strcmp(target, "/dev/stderr") == 0
        || strncmp(target, "/dev/fd/", 8) == 0 || strncmp(target, "/proc/self/fd/", 14) == 0)
        return 1;
    for (fd = 0; fd <= 2; fd++) {
        struct stat fst;
        if (fstat(fd, &fst) == 0 && fst.st_dev == st->st_dev && fst.st_ino == st->st_ino)
            return 1;
    }
    return 0;
}

/* A new string: the name in the directory of o's (resolved, absolute) path; NULL when memory
 * runs out. Temporaries and second links go there, beside the target. */
static char *beside(const out_file *o, const char *name)
{
    size_t dir_len = (size_t)(strrchr(o->path, '/') - o->path) + 1;
    char *s = bb_malloc(dir_len + strlen(name) + 1);
    if (s) {
        memcpy(s, o->path, dir_len);
        strcpy(s + dir_len, name);
    }
    return s;
}

/* 0 when rename would refuse to replace o's existing file: its directory has the sticky bit
 * (/tmp) and neither the file nor the directory is ours. Writable is not enough there. (Root
 * may; capabilities short of root are not looked at.) */
static int may_replace(const out_file *o)
{
    struct stat dst;
    char *dir;
    uid_t me = geteuid();
    int sticky;
    if (!o->exists || me == 0 || o->st.st_uid == me)
        return 1;
    dir = beside(o, ".");
    if (!dir)
        return 1;   /* cannot tell; the rename will say */
    sticky = stat(dir, &dst) == 0 && (dst.st_mode & S_ISVTX) && dst.st_uid != me;
    bb_free(dir);
    return !sticky;
}

/* Sets o->path (the target with its symbolic links resolved, or as given for a file written in
 * place), o->exists, o->st and o->direct, and checks that the target can be written; 0, or -1
 * after one error line. Creates nothing. */
int bench_out_resolve(out_file *o)
{
    const char *slash = strrchr(o->target, '/');
    struct stat lst;

    if (o->target[0] == '\0' || (slash && slash[1] == '\0')) {
        bench_error("%s: '%s' is not a file name", o->option, o->target);
        return -1;
    }
    if (lstat(o->target, &lst) != 0) {
        if (errno == ENOENT)
            o->path = resolve_new(o->target);
        if (!o->path) {
            bench_error("%s: cannot write '%s': %s", o->option, o->target, strerror(errno));
            return -1;
        }
        return 0;
    }
    if (stat(o->target, &o->st) != 0) {
        bench_error("%s: '%s' is a symbolic link that leads nowhere: %s", o->option, o->target,
                   strerror(errno));
        return -1;
    }
    o->exists = 1;
    if (S_ISDIR(o->st.st_mode)) {
        bench_error("%s: '%s' is a directory", o->option, o->target);
        return -1;
    }
    if (!S_ISREG(o->st.st_mode) && !S_ISCHR(o->st.st_mode) && !S_ISFIFO(o->st.st_mode)) {
        bench_error("%s: '%s' is neither a regular file, a character device nor a FIFO",
                    o->option, o->target);
        return -1;
    }
    /* Written in place: a device or FIFO (it cannot be replaced), and whatever one of this
     * process's own descriptors is (/dev/stdout redirected to a file must keep the table
     * already written there, and stay the file the shell opened). Through the name as
     * given: /dev/stdout on a pipe leads to "pipe:[n]", which open follows and realpath
     * cannot. */
    o->own = own_descriptor(o->target, &o->st);
    o->direct = !S_ISREG(o->st.st_mode) || o->own;
    o->path = o->direct ? bb_malloc(strlen(o->target) + 1) : realpath(o->target, NULL);
    if (o->path && o->direct)
        strcpy(o->path, o->target);
    if (!o->path || access(o->path, W_OK) != 0) {
        bench_error("%s: cannot write '%s': %s", o->option, o->target, strerror(errno));
        return -1;
    }
    if (!o->direct && !may_replace(o)) {
        bench_error("%s: cannot replace '%s': it belongs to another user, in a directory where "
                    "only a file's owner may rename over it (sticky, like /tmp)", o->option,
                    o->target);
        return -1;
    }
    return 0;
}

/* 1 when a and b (both resolved) are the same file, one output replacing the other. The same
 * file written in place twice (/dev/null, /dev/stdout) is fine: each is appended in turn;
 * but not a named FIFO, whose reader sees the end of its data when the first one closes
 * (a pipe this process holds open as a descriptor stays open). */
int bench_out_same(const out_file *a, const out_file *b)
{
    if (a->exists && b->exists)
        return a->st.st_dev == b->st.st_dev && a->st.st_ino == b->st.st_ino
               && !(a->direct && b->direct && (!S_ISFIFO(a->st.st_mode) || (a->own && b->own)));
    return strcmp(a->path, b->path) == 0;
}

/* How long a FIFO may stay without a reader before the run (a reader started in the
 * background just before the program may not have opened it yet). */
#define FIFO_WAIT_MS 5000

/* Opens a device or FIFO before the run, without blocking: a FIFO that no process reads would
 * otherwise hang the program after the run, silently. A FIFO gets FIFO_WAIT_MS for its reader
 * to appear. Blocking writes after that. */
static int open_direct(out_file *o)
{
    int fd, flags, waited = 0;
    while ((fd = open(o->path, O_WRONLY | O_APPEND | O_NONBLOCK | O_NOCTTY)) < 0
           && errno == ENXIO && S_ISFIFO(o->st.st_mode) && waited < FIFO_WAIT_MS) {
        struct timespec ms10 = {0, 10000000};
        nanosleep(&ms10, NULL);
        waited += 10;
    }
    if (fd < 0) {
        if (errno == ENXIO && S_ISFIFO(o->st.st_mode))
            bench_error("%s: cannot write '%s': no process opened the FIFO for reading within "
                        "%d s", o->option, o->target, FIFO_WAIT_MS / 1000);
        else
            bench_error("%s: cannot write '%s': %s", o->option, o->target, strerror(errno));
        return -1;
    }
    flags = fcntl(fd, F_GETFL);
    if (flags == -1 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == -1
        || !(o->f = fdopen(fd, "a"))) {
        bench_error("%s: cannot write '%s': %s", o->option, o->target, strerror(errno));
        close(fd);
        return -1;
    }
    return 0;
}

/* Creates o's temporary file beside the (resolved) target. A device or FIFO is opened now when
 * writing (open_direct); one of the process's own descriptors only when written. 0, or -1
 * after one error line. */
int bench_out_open(out_file *o, int writing)
{
    static const char tmp_name[] = ".bench_bitcoin.tmp.XXXXXX";
    char *name;
    mode_t mode;
    int fd;

    if (o->direct)
        return writing && !o->own ? open_direct(o) : 0;
    if (track(o) != 0) {
        bench_error("%s: too many output files", o->option);
        return -1;
    }
    name = beside(o, tmp_name);
    if (!name) {
        bench_error("%s: out of memory", o->option);
        return -1;
    }
    fd = mkstemp(name);
    if (fd < 0) {
        /* said so: /proc/version's ENOENT is about the temporary, not the target */
        bench_error("%s: cannot write '%s': creating a file beside it failed: %s", o->option,
                    o->target, strerror(errno));
        bb_free(name);
        return -1;
    }
    set_tmp(o, name);   /* from here on removed however the program ends */
    if (fd <= 2) {
        /* stdin, stdout or stderr was closed: keep it closed (writing the table must fail,
         * not land in this file). */
        int moved = fcntl(fd, F_DUPFD, 3);
        close(fd);
        fd = moved;
        if (fd < 0) {
            bench_error("%s: cannot write '%s': %s", o->option, o->target, strerror(errno));
            return -1;   /* the temporary is removed by remove_temps */
        }
    }
    /* mkstemp makes the file 0600: keep an existing file's mode, or give a new one what a
     * plain fopen would. */
    if (o->exists) {
        mode = o->st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    o->f = fchmod(fd, mode) == 0 ? fdopen(fd, "w") : NULL;
    if (!o->f) {
        bench_error("%s: cannot write '%s': %s", o->option, o->target, strerror(errno));
        close(fd);
        return -1;   /* the temporary is removed by remove_temps */
    }
    return 0;
}

/* Opens a device's or FIFO's o for appending (a regular file's temporary is open already).
 * 0, or -1 after one error line. */
static int out_ready(out_file *o)
{
    /* Appending: after the table for a file that is also stdout (a device or FIFO is open
     * already). */
    if (o->direct && !o->f && !(o->f = fopen(o->path, "a"))) {
        bench_error("%s: cannot write '%s': %s", o->option, o->target, strerror(errno));
        return -1;
    }
    return 0;
}

/* Flushes and closes o after writing; err: the writing's errno (0: none), why its text for
 * EINVAL. 0, or -1 after one error line. */
static int out_close(out_file *o, int err, const char *why)
{
    errno = 0;
    if ((fflush(o->f) != 0 || ferror(o->f)) && !err)
        err = errno ? errno : EIO;
    if (fclose(o->f) != 0 && !err)
        err = errno ? errno : EIO;
    o->f = NULL;
    if (err) {
        bench_error("%s: writing '%s' failed: %s", o->option, o->target,
                    err == EINVAL ? why : strerror(err));
        return -1;
    }
    return 0;
}

/* Renders tmpl into o's temporary file and closes it; 0, or -1 after one error line. */
int bench_out_render(out_file *o, const char *tmpl, const nb_bench *b)
{
    int err = 0;
    char why[256] = "";
    if (out_ready(o) != 0)
        return -1;
    /* nb_render's errno: ENOMEM, EINVAL (a template of ours that it refused: a bug here),
     * or the write's error */
    if (nb_render_diag(tmpl, b, o->f, why, sizeof why) != 0)
        err = errno ? errno : EIO;
    return out_close(o, err, why);
}

int bench_out_write(out_file *o, const char *text, size_t len)
{
    int err = 0;
    if (out_ready(o) != 0)
        return -1;
    errno = 0;
    if (fwrite(text, 1, len, o->f) != len)
        err = errno ? errno : EIO;
    return out_close(o, err, "");
}

/* A second link to o's existing file, for bench_out_commit_all to bring it back: a fresh name
 * beside it, reserved by mkstemp and freed again for link. The name is published before the
 * link exists, so a signal never leaves it behind. 0, or -1 when the file system will not
 * link (then the file is replaced without a way back). */
static int link_old(out_file *o)
{
    char *name = beside(o, ".bench_bitcoin.old.XXXXXX");
    int tries;
    if (!name)
        return -1;
    for (tries = 0; tries < 8; tries++) {
        int fd;
        memcpy(name + strlen(name) - 6, "XXXXXX", 6);   /* a failed try filled them in */
        fd = mkstemp(name);
        if (fd < 0)
            break;
        close(fd);
        unlink(name);
        SIGNAL_FENCE();
        o->old = name;
        SIGNAL_FENCE();
        if (link(o->path, name) == 0)
            return 0;
        SIGNAL_FENCE();
        o->old = NULL;
        SIGNAL_FENCE();
        if (errno != EEXIST)   /* EEXIST: someone took the name in between; another */
            break;
    }
    bb_free(name);
    return -1;
}

/* Removes o's second link (if it is still there: a restore consumed it) and forgets it. */
static void drop_old(out_file *o)
{
    char *name = o->old;
    if (!name)
        return;
    unlink(name);
    SIGNAL_FENCE();
    o->old = NULL;
    SIGNAL_FENCE();
    bb_free(name);
}

/* 1 when o is a file written as a temporary that is still to be renamed over it. */
static int has_temp(const out_file *o)
{
    return o->target && !o->direct && o->tmp;
}

int bench_out_commit_all(out_file *files, size_t n)
{
    out_file *order[OUT_TRACK_MAX];
    size_t m = 0, done, i;
    int err = 0, lost = 0;

    committed = 0;
    /* Files that can be brought back (new ones, and replaced ones with a second link) are
     * renamed first; an existing file the file system would not link, last. */
    for (i = 0; i < n && m < OUT_TRACK_MAX; i++)
        if (has_temp(&files[i]) && (!files[i].exists || link_old(&files[i]) == 0))
            order[m++] = &files[i];
    for (i = 0; i < n && m < OUT_TRACK_MAX; i++)
        if (has_temp(&files[i]) && files[i].exists && !files[i].old)
            order[m++] = &files[i];

    for (done = 0; done < m; done++) {
        out_file *o = order[done];
        SIGNAL_FENCE();
        o->renamed = 1;
        SIGNAL_FENCE();
        if (rename(o->tmp, o->path) != 0) {
            err = errno;
            o->renamed = 0;
            break;
        }
        bb_free(take_tmp(o));
    }
    if (done == m) {
        /* All in place: one store makes the commit final for the handler, before any of
         * the second links goes. */
        SIGNAL_FENCE();
        committed = 1;
        SIGNAL_FENCE();
    } else {
        for (i = 0; i < done; i++) {
            out_file *o = order[i];
            if (o->old ? rename(o->old, o->path) != 0
                       : o->exists ? 1 : unlink(o->path) != 0)
                lost = 1;
            o->renamed = 0;
        }
        bench_error("%s: cannot rename the temporary file to '%s': %s (%s)", order[done]->option,
                    order[done]->target, strerror(err),
                    lost ? "the other output file was already replaced and could not be restored"
                         : "no output file was changed");
    }
    for (i = 0; i < m; i++) {
        drop_old(order[i]);
        order[i]->renamed = 0;
    }
    return done < m ? -1 : 0;
}

void bench_out_release(out_file *o)
{
    drop_temp(o);
    drop_old(o);
    o->renamed = 0;
    bb_free(o->path);
    o->path = NULL;
    o->exists = 0;
    o->direct = 0;
    o->own = 0;
}
