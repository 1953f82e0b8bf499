/* Performance counters (nanobench's PerformanceCounters) through Linux's
 * perf_event_open: one group on the calling thread, user space only (but
 * context switches, which happen in the kernel), reset, enabled, disabled
 * and read as one around each epoch.
 *
 * Cycles are PERF_COUNT_HW_CPU_CYCLES, the core clock, not the reference
 * clock that nanobench 4.x counted: instructions per core cycle is the IPC
 * that says how well the code uses the core, whatever its frequency.
 *
 * Corrections, all calibrated once per group: the cost of the begin/end pair
 * itself (an empty measurement, minimum of 100) is subtracted from every
 * event; the loop's own instructions per iteration (a loop with an empty
 * body) from instructions; the loop's one branch per iteration (and the exit)
 * from branches; one branch miss (the loop exit) from branch misses. When
 * the kernel multiplexed the group, values are scaled by enabled/running. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#if defined(__linux__) && defined(HAVE_LINUX_PERF_EVENT_H)
#define NB_HAVE_PERF 1
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

static const nb_perf_event default_events[] = {
#ifdef NB_HAVE_PERF
    { PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, NB_CPU_CYCLES, 1, 0, 0 },
    { PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, NB_INSTRUCTIONS, 1, 1, 0 },
    { PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, NB_BRANCH_INSTRUCTIONS, 1, 0, 0 },
    { PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, NB_BRANCH_MISSES, 1, 0, 0 },
    { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, NB_PAGE_FAULTS, 1, 0, 0 },
    /* Counting kernel mode needs perf_event_paranoid <= 1 (or CAP_PERFMON); where
     * that is refused the column is absent, never a false 0. */
    { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, NB_CONTEXT_SWITCHES, 1, 0, 1 },
#else
    { 0, 0, NB_ELAPSED, 0, 0, 0 }
#endif
};

double nb_perf_scale(uint64_t value, uint64_t enabled, uint64_t running)
{
    if (running == 0)
        return enabled == 0 ? (double)value : NAN;
    if (running >= enabled)
        return (double)value;
    return (double)value * ((double)enabled / (double)running);
}

int nb_perf_parse(nb_perf_group *g, const uint64_t *buf, size_t words)
{
    size_t i, j, nr;
    if (words < 3)
        return -1;
    nr = (size_t)buf[0];
    if (nr != g->count || words < 3 + 2 * nr)
        return -1;
    g->time_enabled = buf[1];
    g->time_running = buf[2];
    g->scaled = buf[2] != 0 && buf[2] < buf[1];
    for (i = 0; i < g->count; ++i)
        g->values[i] = NAN;
    for (j = 0; j < nr; ++j) {
        uint64_t value = buf[3 + 2 * j], id = buf[4 + 2 * j];
        for (i = 0; i < g->count; ++i) {
            if (g->ids[i] == id) {
                g->values[i] = nb_perf_scale(value, buf[1], buf[2]);
                break;
            }
        }
    }
    for (i = 0; i < g->count; ++i)
        if (isnan(g->values[i]))
            return -1;
    return 0;
}

#ifdef NB_HAVE_PERF

static int open_one(const nb_perf_event *ev, int group)
{
    struct perf_event_attr a;
    int fd;
    memset(&a, 0, sizeof(a));
    a.type = ev->type;
    a.size = sizeof(a);
    a.config = ev->config;
    a.disabled = 1;
    a.exclude_kernel = !ev->kernel;
    a.exclude_hv = 1;
    a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
                    PERF_FORMAT_TOTAL_TIME_RUNNING;
    fd = (int)syscall(SYS_perf_event_open, &a, 0 /* this thread */, -1 /* any cpu */, group,
                      (unsigned long)PERF_FLAG_FD_CLOEXEC);
    if (fd >= 0 && fd <= 2) {
        /* stdin, stdout or stderr was closed: keep it closed, so that a
         * table written to stdout fails rather than going to the counter */
        int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
        int saved = errno;
        close(fd);
        errno = saved;
        fd = moved;
    }
    return fd;
}

size_t nb_perf_open(nb_perf_group *g, const nb_perf_event *events, size_t n)
{
    size_t i;
    memset(g, 0, sizeof(*g));
    g->leader = -1;
    for (i = 0; i < n && g->count < NB_PERF_MAX_EVENTS; ++i) {
        uint64_t id = 0;
        int fd = open_one(&events[i], g->leader);
        if (fd < 0) {
            if (!g->first_errno)
                g->first_errno = errno;
            continue;
        }
        if (ioctl(fd, PERF_EVENT_IOC_ID, &id) != 0) {
            if (!g->first_errno)
                g->first_errno = errno;
            close(fd);
            continue;
        }
        if (g->leader < 0)
            g->leader = fd;
        g->fds[g->count] = fd;
        g->ids[g->count] = id;
        g->events[g->count] = events[i];
        g->count++;
    }
    return g->count;
}

void nb_perf_close(nb_perf_group *g)
{
    size_t i;
    /* members first; closing the leader last keeps the group intact */
    for (i = g->count; i-- > 0;)
        close(g->fds[i]);
    g->count = 0;
    g->leader = -1;
}

void nb_perf_begin(nb_perf_group *g)
{
    g->error = ioctl(g->leader, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP) != 0 ||
               ioctl(g->leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) != 0;
}

void nb_perf_end(nb_perf_group *g)
{
    uint64_t buf[3 + 2 * NB_PERF_MAX_EVENTS];
    size_t want = (3 + 2 * g->count) * sizeof(uint64_t);
    ssize_t got;
    if (g->error)
        return;
    if (ioctl(g->leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP) != 0) {
        g->error = 1;
        return;
    }
    got = read(g->leader, buf, want);
    g->error = got != (ssize_t)want || nb_perf_parse(g, buf, want / sizeof(uint64_t)) != 0;
}

#else

size_t nb_perf_open(nb_perf_group *g, const nb_perf_event *events, size_t n)
{
    (void)events;
    (void)n;
    memset(g, 0, sizeof(*g));
    g->leader = -1;
    g->first_errno = ENOSYS;
    return 0;
}

void nb_perf_close(nb_perf_group *g)
{
    g->count = 0;
}

void nb_perf_begin(nb_perf_group *g)
{
    g->error = 1;
}

void nb_perf_end(nb_perf_group *g)
{
    g->error = 1;
}

#endif

size_t nb_perf_open_default(nb_perf_group *g)
{
#ifdef NB_HAVE_PERF
    return nb_perf_open(g, default_events, sizeof(default_events) / sizeof(default_events[0]));
#else
    return nb_perf_open(g, default_events, 0);
#endif
}

void nb_perf_calibrate(nb_perf_group *g)
{
    double best[NB_PERF_MAX_EVENTS];
    size_t i;
    int k;
    uint64_t n = 100000;
    for (i = 0; i < g->count; ++i) {
        best[i] = INFINITY;
        g->overhead[i] = 0;
        g->loop[i] = 0;
    }
    if (g->count == 0)
        return;
    /* An empty measurement as nb_run makes it: the two clock reads of an
     * epoch sit inside the counted span. */
    for (k = 0; k < 100; ++k) {
        volatile uint64_t t;
        nb_perf_begin(g);
        t = nb_clock_now_ns();
        t = nb_clock_now_ns();
        (void)t;
        nb_perf_end(g);
        if (g->error)
            return;
        for (i = 0; i < g->count; ++i)
            if (g->values[i] < best[i])
                best[i] = g->values[i];
    }
    for (i = 0; i < g->count; ++i)
        g->overhead[i] = best[i];

    /* The shape of nb_run's loop with an empty body: what the loop itself
     * costs per iteration. */
    nb_perf_begin(g);
    {
        uint64_t j;
        for (j = 0; j < n; ++j)
            __asm__ __volatile__("");
    }
    nb_perf_end(g);
    if (g->error)
        return;
    for (i = 0; i < g->count; ++i) {
        double v = g->values[i] - g->overhead[i];
        g->loop[i] = v > 0 ? v / (double)n : 0;
    }
}

static int find(const nb_perf_group *g, nb_measure m)
{
    size_t i;
    for (i = 0; i < g->count; ++i)
        if (g->events[i].measure == m)
            return (int)i;
    return -1;
}

int nb_perf_has(const nb_perf_group *g, nb_measure m)
{
    return find(g, m) >= 0;
}

static double corrected(const nb_perf_group *g, int i, uint64_t iters)
{
    double v = g->values[i];
    if (g->events[i].correct_overhead)
        v -= g->overhead[i];
    if (g->events[i].correct_loop)
        v -= g->loop[i] * (double)iters;
    return v > 0 ? v : 0;
}

double nb_perf_value(const nb_perf_group *g, nb_measure m, uint64_t iters)
{
    int i = find(g, m);
    double v, branches;
    int bi;
    if (i < 0 || g->error)
        return NAN;
    v = corrected(g, i, iters);
    if (m == NB_BRANCH_INSTRUCTIONS || m == NB_BRANCH_MISSES) {
        bi = find(g, NB_BRANCH_INSTRUCTIONS);
        branches = bi >= 0 ? corrected(g, bi, iters) - ((double)iters + 1) : INFINITY;
        if (branches < 0)
            branches = 0;
        if (m == NB_BRANCH_INSTRUCTIONS)
            return branches;
        if (v > branches)
            v = branches;
        if (v > 1)
            v -= 1;
    }
    return v;
}

int nb_perf_hardware_available(const nb_perf_group *g)
{
    size_t i;
    for (i = 0; i < g->count; ++i)
        if (g->events[i].type == 0 /* PERF_TYPE_HARDWARE */)
            return 1;
    return 0;
}
