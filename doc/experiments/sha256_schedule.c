/* SHA-256 message schedule with SHA-NI: the latency that made SHA256_32b
 * slow (doc/crypto.md). Two measurements, each the minimum over alternated
 * rounds:
 *   1. one schedule group (four words) chained into the next, in the old
 *      form (msg1, alignr, add, msg2) and the present one (msg2 then an add
 *      for lane 3), in cycles of a chain of dependent scalar adds;
 *   2. a 32-byte one-shot hash chained through its own digest (store, load,
 *      rounds: the data path of bench_bitcoin's SHA256_32b without the
 *      init/write/finalize calls) with the old schedule, with the present
 *      one, and with a schedule computed from a constant message (wrong
 *      digests; it shows the time with the schedule off the critical path).
 * Not built by make; from a build directory BUILD:
 *   gcc -O2 -msse4.1 -msha -I SRC/src -I BUILD SRC/doc/experiments/sha256_schedule.c \
 *       BUILD/src/crypto/.libs/libbitcoin_crypto.a -o sha256_schedule && ./sha256_schedule
 * (sha256_shani.c is included, renamed, for its macros; ROUNDS4 and the
 * constants are the library's.) */
#define sha256_transform_shani x_sha256_transform_shani
#define sha256_finish_shani x_sha256_finish_shani
#define sha256_d64_shani x_sha256_d64_shani
#define sha256_d64_shani_2way x_sha256_d64_shani_2way
#include "../../src/crypto/sha256_shani.c"
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "crypto/sha256.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The form used before: W[t-7..t-4] by alignr, added before msg2. */
static inline __m128i sched_old(__m128i m0, __m128i m1, __m128i m2, __m128i m3)
{
    __m128i t = _mm_add_epi32(_mm_sha256msg1_epu32(m0, m1), _mm_alignr_epi8(m3, m2, 4));
    return _mm_sha256msg2_epu32(t, m3);
}

/* A schedule that ignores the message (diagnosis only). */
static inline __m128i sched_const(__m128i m0, __m128i m1, __m128i m2, __m128i m3)
{
    (void)m0; (void)m1; (void)m2;
    return _mm_add_epi32(m3, _mm_set1_epi32(0x12345));
}

#define N_CHAIN 20000000L

#define SCHED_CHAIN(S) do { \
        __m128i m0 = _mm_set1_epi32(1), m1 = _mm_set1_epi32(2); \
        __m128i m2 = _mm_set1_epi32(3), m3 = _mm_set1_epi32(4); \
        for (long i = 0; i < N_CHAIN; i++) { \
            m0 = S(m0, m1, m2, m3); m1 = S(m1, m2, m3, m0); \
            m2 = S(m2, m3, m0, m1); m3 = S(m3, m0, m1, m2); \
            __asm__ volatile("" : "+x"(m0), "+x"(m1), "+x"(m2), "+x"(m3)); \
        } \
    } while (0)

static __attribute__((noinline)) void chain_old(void) { SCHED_CHAIN(sched_old); }
static __attribute__((noinline)) void chain_new(void) { SCHED_CHAIN(sched); }

/* The clock: a chain of dependent scalar adds, one cycle each. (Vector adds
 * are not used for this: paddd measured 2 cycles on this CPU.) */
static __attribute__((noinline)) void chain_add(void)
{
    long n = N_CHAIN;
    unsigned long x = 1;
    __asm__ volatile("1:\n\t.rept 4\n\tadd %1, %1\n\t.endr\n\tdec %0\n\tjnz 1b"
                     : "+r"(n), "+r"(x));
}

/* One 32-byte message in one block, chained in -> out with schedule S. */
#define ONESHOT(name, S) \
    static __attribute__((noinline)) void name(const unsigned char *in, unsigned char *out) \
    { \
        const __m128i mask = BSWAP_MASK; \
        __m128i abef, cdgh, abef0, cdgh0; \
        unpack_state(sha256_iv, &abef, &cdgh); \
        abef0 = abef; \
        cdgh0 = cdgh; \
        __m128i m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)in), mask); \
        __m128i m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + 16)), mask); \
        __m128i m2 = _mm_set_epi32(0, 0, 0, (int)0x80000000u), m3 = _mm_set_epi32(256, 0, 0, 0); \
        ROUNDS4(abef, cdgh, _mm_add_epi32(m0, k4(0))); \
        ROUNDS4(abef, cdgh, _mm_add_epi32(m1, k4(1))); \
        ROUNDS4(abef, cdgh, _mm_add_epi32(m2, k4(2))); \
        ROUNDS4(abef, cdgh, _mm_add_epi32(m3, k4(3))); \
        for (int i = 4; i < 16; i += 4) { \
            m0 = S(m0, m1, m2, m3); \
            ROUNDS4(abef, cdgh, _mm_add_epi32(m0, k4(i))); \
            m1 = S(m1, m2, m3, m0); \
            ROUNDS4(abef, cdgh, _mm_add_epi32(m1, k4(i + 1))); \
            m2 = S(m2, m3, m0, m1); \
            ROUNDS4(abef, cdgh, _mm_add_epi32(m2, k4(i + 2))); \
            m3 = S(m3, m0, m1, m2); \
            ROUNDS4(abef, cdgh, _mm_add_epi32(m3, k4(i + 3))); \
        } \
        store_digest(out, _mm_add_epi32(abef, abef0), _mm_add_epi32(cdgh, cdgh0)); \
    }

ONESHOT(oneshot_old, sched_old)
ONESHOT(oneshot_new, sched)
ONESHOT(oneshot_const, sched_const)

typedef void (*oneshot_fn)(const unsigned char *, unsigned char *);

static double time_oneshot(oneshot_fn f, unsigned char *buf, int n)
{
    double t0 = now();
    for (int i = 0; i < n; i++)
        f(buf, buf);
    return (now() - t0) / n * 1e9;
}

static double time_chain(void (*f)(void), long n)
{
    double t0 = now();
    f();
    return (now() - t0) / (double)n * 1e9;
}

int main(void)
{
    unsigned char a[32], b[32], expect[32];
    double add = 1e9, old = 1e9, new_ = 1e9, best[3] = {1e9, 1e9, 1e9};
    oneshot_fn fs[3] = {oneshot_old, oneshot_new, oneshot_const};
    const char *names[3] = {"old schedule", "present schedule", "constant schedule (wrong digest)"};

    /* Both real forms give SHA-256: check against the library. */
    for (int i = 0; i < 32; i++)
        a[i] = (unsigned char)(i * 37 + 1);
    for (int k = 0; k < 100; k++) {
        sha256_hash(expect, a, 32);
        oneshot_old(a, b);
        if (memcmp(b, expect, 32)) {
            puts("old schedule: wrong digest");
            return 1;
        }
        oneshot_new(a, b);
        if (memcmp(b, expect, 32)) {
            puts("present schedule: wrong digest");
            return 1;
        }
        memcpy(a, expect, 32);
    }

    for (int r = 0; r < 7; r++) {
        double t;
        if ((t = time_chain(chain_add, 4 * N_CHAIN)) < add) add = t;
        if ((t = time_chain(chain_old, 4 * N_CHAIN)) < old) old = t;
        if ((t = time_chain(chain_new, 4 * N_CHAIN)) < new_) new_ = t;
    }
    printf("schedule group chained: old %.1f cycles, present %.1f cycles (1 cycle = %.3f ns)\n",
           old / add, new_ / add, add);

    memset(a, 0, sizeof a);
    for (int r = 0; r < 41; r++)
        for (int v = 0; v < 3; v++) {
            double t = time_oneshot(fs[v], a, 200000);
            if (t < best[v]) best[v] = t;
        }
    for (int v = 0; v < 3; v++)
        printf("32-byte hash chained, %-33s %.2f ns\n", names[v], best[v]);
    return 0;
}
