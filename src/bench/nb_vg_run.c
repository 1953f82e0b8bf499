/* nb_valgrind_run: a program run under callgrind the way the harness counts
 * (nanobench.h), its dumps collected from a temporary directory. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"
#include "util/alloc.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

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
            if (nb_vg_dump_trigger(path, &k, name, sizeof name) == 0) {
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
