/* The core clock probe behind the estimated cycles (NB_EST_CYCLES).
 *
 * A chain of dependent integer adds runs one add per core clock cycle on every x86-64 and
 * AArch64 core (an add's latency is one cycle; each add waits for the one before it, so
 * neither a wider core nor a busy sibling hyperthread makes the chain go faster or slower
 * per cycle). The adds add a register, not an immediate: some cores (Intel's since Golden
 * Cove) fold a chain of adds of small immediates in their renamer, several a cycle, and such
 * a chain would read two to four times the clock. Timing the chain therefore measures the
 * clock the core runs at right now.
 * The chain is timed twice, short and long, and the rate is taken from the difference, so
 * that the clock reads' own cost and the loop's start-up cancel out. A VM's host changes a
 * core's clock from one moment to the next (boost, power limits); multiplying an epoch's
 * time by the clock measured around it gives the cycles the epoch took, a figure that such
 * changes do not move (doc/harness.md, "Estimated cycles"). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"

#if defined(__GNUC__) && defined(__x86_64__)
#define NB_ADD_STEP "add %1, %0\n\t"
#elif defined(__GNUC__) && defined(__aarch64__)
#define NB_ADD_STEP "add %0, %0, %1\n\t"
#endif

#ifdef NB_ADD_STEP
#define NB_ADDS_PER_LOOP 8
/* Loops of the short and the long chain: the difference is 8192 adds, about 2 us at
 * 4 GHz; the clock reads' jitter (a few ns) is then well under 1% of it. */
#define NB_SHORT_LOOPS 128
#define NB_LONG_LOOPS (NB_SHORT_LOOPS + 1024)

/* ns that n loops of the chain took. */
static uint64_t chain_ns(unsigned n)
{
    uint64_t x = 0, one = 1, t0, t1;
    unsigned i;
    t0 = nb_clock_now_ns();
    for (i = 0; i < n; ++i) {
        __asm__ __volatile__(NB_ADD_STEP NB_ADD_STEP NB_ADD_STEP NB_ADD_STEP
                             NB_ADD_STEP NB_ADD_STEP NB_ADD_STEP NB_ADD_STEP
                             : "+r"(x)
                             : "r"(one));
    }
    t1 = nb_clock_now_ns();
    return t1 > t0 ? t1 - t0 : 0;
}

double nb_freq_probe_ghz(void)
{
    uint64_t s = chain_ns(NB_SHORT_LOOPS), l = chain_ns(NB_LONG_LOOPS);
    if (l <= s)
        return 0.0;
    return (double)(NB_ADDS_PER_LOOP * (NB_LONG_LOOPS - NB_SHORT_LOOPS)) / (double)(l - s);
}
#else
double nb_freq_probe_ghz(void)
{
    return 0.0; /* no chain for this architecture or compiler: no estimate */
}
#endif
