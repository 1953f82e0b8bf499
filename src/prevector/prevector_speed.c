/* prevector_speed: times the prevector benchmark shapes of bench_bitcoin on
 * their own, so that the prevector can be compared with other small-vector
 * implementations timed by the same loop (doc/prevector.md has figures).
 * Not a test: it asserts nothing, and its numbers depend on the machine.
 *
 *     src/prevector/prevector_speed [epoch-ms]     (default 20)
 *
 * Each shape is one non-inlined function called through a pointer, as a
 * harness would call it; the vectors escape to the compiler after every
 * step so that no store is optimised away. Reports the median over 11 epochs
 * of nanoseconds per call, and the spread (min..max) of the epochs. */

#include "prevector/prevector.h"
#include "prevector/nontrivial.h"
#include "prevector/serialize.h"
#include "util/stream.h"
#include "util/timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if defined(__GNUC__)
#define SPEED_NOINLINE __attribute__((noinline))
#define SPEED_ESCAPE(p) __asm__ volatile("" : : "g"(p) : "memory")
#else
#define SPEED_NOINLINE
#define SPEED_ESCAPE(p) ((void)(p))
#endif

PREVECTOR_DEFINE(speed_tv, unsigned char, 28)
PREVECTOR_DEFINE_SERIALIZE_BYTES(speed_tv)
PREVECTOR_DEFINE_INIT(speed_ntv, nontrivial_elem, 28, nontrivial_elem_init)
PREVECTOR_DEFINE_SERIALIZE(speed_ntv, nontrivial_elem, 4, NONTRIVIAL_ELEM_ENCODE,
                           NONTRIVIAL_ELEM_DECODE)

static int speed_failed; /* an allocation failed: the figures mean nothing */

/* The shapes, once per element kind. */
#define SPEED_SHAPES(K)                                                         \
    static speed_##K t0_##K, t1_##K;                                            \
                                                                                \
    SPEED_NOINLINE static void destructor_##K(void *arg)                        \
    {                                                                           \
        speed_##K a, b;                                                         \
        (void)arg;                                                              \
        speed_##K##_init(&a);                                                   \
        speed_##K##_init(&b);                                                   \
        speed_failed |= speed_##K##_resize(&a, 28);                             \
        speed_failed |= speed_##K##_resize(&b, 29);                             \
        SPEED_ESCAPE(&a);                                                       \
        SPEED_ESCAPE(&b);                                                       \
        speed_##K##_destroy(&a);                                                \
        speed_##K##_destroy(&b);                                                \
    }                                                                           \
                                                                                \
    SPEED_NOINLINE static void clear_##K(void *arg)                             \
    {                                                                           \
        (void)arg;                                                              \
        speed_failed |= speed_##K##_resize(&t0_##K, 28);                        \
        SPEED_ESCAPE(&t0_##K);                                                  \
        speed_##K##_clear(&t0_##K);                                             \
        speed_failed |= speed_##K##_resize(&t1_##K, 29);                        \
        SPEED_ESCAPE(&t1_##K);                                                  \
        speed_##K##_clear(&t1_##K);                                             \
    }                                                                           \
                                                                                \
    SPEED_NOINLINE static void resize_##K(void *arg)                            \
    {                                                                           \
        (void)arg;                                                              \
        speed_failed |= speed_##K##_resize(&t0_##K, 28);                        \
        SPEED_ESCAPE(&t0_##K);                                                  \
        speed_failed |= speed_##K##_resize(&t0_##K, 0);                         \
        speed_failed |= speed_##K##_resize(&t1_##K, 29);                        \
        SPEED_ESCAPE(&t1_##K);                                                  \
        speed_failed |= speed_##K##_resize(&t1_##K, 0);                         \
    }                                                                           \
                                                                                \
    SPEED_NOINLINE static void deserialize_##K(void *arg)                       \
    {                                                                           \
        byte_stream *s = arg;                                                   \
        int i;                                                                  \
        for (i = 0; i < 1000; i++) {                                            \
            speed_failed |= speed_##K##_unserialize(&t0_##K, s);                \
            SPEED_ESCAPE(&t0_##K);                                              \
        }                                                                       \
        stream_rewind(s);                                                       \
    }                                                                           \
                                                                                \
    /* 900 serialised prevectors of 28 elements, then 101 of 100. */           \
    static void fill_stream_##K(byte_stream *s)                                 \
    {                                                                           \
        speed_##K v;                                                            \
        int i;                                                                  \
        speed_##K##_init(&v);                                                   \
        speed_failed |= speed_##K##_resize(&v, 28);                             \
        for (i = 0; i < 900; i++)                                               \
            speed_failed |= speed_##K##_serialize(&v, s);                       \
        speed_failed |= speed_##K##_resize(&v, 100);                            \
        for (i = 0; i < 101; i++)                                               \
            speed_failed |= speed_##K##_serialize(&v, s);                       \
        speed_##K##_destroy(&v);                                                \
    }

SPEED_SHAPES(tv)
SPEED_SHAPES(ntv)

/* Thread CPU time: other processes on a busy machine do not inflate it. */
static double now_ns(void)
{
    return bb_clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

/* Median ns per call of op(arg) over 11 epochs of about epoch_ns each. */
static void measure(const char *name, void (*op)(void *), void *arg, double epoch_ns)
{
    enum { EPOCHS = 11 };
    double t[EPOCHS], start, took;
    unsigned long iters = 1, i;
    int e;

    for (;;) { /* find an iteration count that fills an epoch */
        start = now_ns();
        for (i = 0; i < iters; i++)
            op(arg);
        took = now_ns() - start;
        if (took >= epoch_ns)
            break;
        iters = took < epoch_ns / 16 ? iters * 8 : (unsigned long)(iters * epoch_ns / took) + 1;
    }
    for (e = 0; e < EPOCHS; e++) {
        start = now_ns();
        for (i = 0; i < iters; i++)
            op(arg);
        t[e] = (now_ns() - start) / (double)iters;
    }
    bb_sort_doubles(t, EPOCHS);
    printf("| %10.2f | %8.2f .. %8.2f | %s\n", t[EPOCHS / 2], t[0], t[EPOCHS - 1], name);
}

int main(int argc, char **argv)
{
    double epoch_ns = 20e6;
    byte_stream s_tv, s_ntv;

    if (argc > 1) {
        char *end;
        double ms = strtod(argv[1], &end);
        if (*end || !(ms > 0 && ms < 10000)) {
            fprintf(stderr, "usage: %s [epoch-ms]\n", argv[0]);
            return 2;
        }
        epoch_ns = ms * 1e6;
    }
    stream_init(&s_tv);
    stream_init(&s_ntv);
    speed_tv_init(&t0_tv);
    speed_tv_init(&t1_tv);
    speed_ntv_init(&t0_ntv);
    speed_ntv_init(&t1_ntv);
    fill_stream_tv(&s_tv);
    fill_stream_ntv(&s_ntv);

    printf("| ns/call    | epochs min .. max    | shape (one call)\n");
    printf("|-----------:|---------------------:|:-----------------\n");
    measure("PrevectorDestructorTrivial", destructor_tv, NULL, epoch_ns);
    measure("PrevectorDestructorNontrivial", destructor_ntv, NULL, epoch_ns);
    measure("PrevectorClearTrivial", clear_tv, NULL, epoch_ns);
    measure("PrevectorClearNontrivial", clear_ntv, NULL, epoch_ns);
    measure("PrevectorResizeTrivial", resize_tv, NULL, epoch_ns);
    measure("PrevectorResizeNontrivial", resize_ntv, NULL, epoch_ns);
    measure("PrevectorDeserializeTrivial (1000 reads)", deserialize_tv, &s_tv, epoch_ns);
    measure("PrevectorDeserializeNontrivial (1000 reads)", deserialize_ntv, &s_ntv, epoch_ns);

    speed_tv_destroy(&t0_tv);
    speed_tv_destroy(&t1_tv);
    speed_ntv_destroy(&t0_ntv);
    speed_ntv_destroy(&t1_ntv);
    stream_destroy(&s_tv);
    stream_destroy(&s_ntv);
    if (speed_failed) {
        fprintf(stderr, "prevector_speed: out of memory; figures are meaningless\n");
        return 1;
    }
    return 0;
}
