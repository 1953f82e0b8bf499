/* What the harness says about the machine once per process: the stability
 * warnings (frequency scaling, governor, turbo, hypervisor, load, a debug
 * build) with their recommendations, and the note about missing hardware
 * counters. NANOBENCH_SUPPRESS_WARNINGS turns both off. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
