/* callgrind's dump files as the harness reads them: the totals of a dump
 * (instructions, branches, misses), and the trigger line that names which
 * epoch of which run asked for it. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The trigger text of dump k: "nanobench <k> <name>", the name with
 * anything but printable ASCII as '?' (the text is one line of the dump). */
void nb_vg_trigger_text(char *buf, size_t cap, unsigned long k, const char *name)
{
    size_t len, i;
    snprintf(buf, cap, "nanobench %lu ", k);
    len = strlen(buf);
    for (i = 0; name[i] && len + 1 < cap; ++i)
        buf[len++] = name[i] >= 0x20 && name[i] < 0x7f ? name[i] : '?';
    buf[len] = '\0';
}

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

/* Reads the trigger of a dump file: its k and name when the harness asked
 * for it; 0, or -1 when it is another dump (the one at the program's end). */
int nb_vg_dump_trigger(const char *path, unsigned long *k, char *name, size_t cap)
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
