/* Prevector benchmarks (Bitcoin Core's bench/prevector.cpp): the cost of a prevector<28, T>
 * going inline (28 elements) and onto the heap (29), for a trivial T (unsigned char, new
 * elements zero) and a non-trivial one (a struct of one int that its initialiser sets to -1).
 *
 * One macro, PREVECTOR_BENCHMARKS, writes the six benchmarks' states and ops for one element
 * type, as Core's templates do, and PREVECTOR_ROWS their six table entries. Inside each op,
 * nb_do_not_optimize_away(pointer) hands the vector's storage to the optimizer as "read from
 * here": without it the compiler could see that a filled vector is cleared or destroyed
 * unread and drop the filling, and measure nothing (FillVector hands over the whole array
 * once, after filling it). */
#include "bench_bitcoin/bench.h"
#include "prevector/nontrivial.h"
#include "prevector/prevector.h"
#include "prevector/serialize.h"
#include "util/alloc.h"
#include "util/stream.h"

#include <stdint.h>

/* Sizes from Core: 28 fits inline, 29 does not; Deserialize's stream holds 900 vectors of
 * DESER_SMALL elements then 101 of DESER_LARGE, of which each iteration reads 1000. */
#define INLINE_SIZE 28
#define DESER_SMALL_COUNT 900
#define DESER_SMALL 28
#define DESER_LARGE_COUNT 101
#define DESER_LARGE 100
#define DESER_READS 1000
/* FillVector: prevectors per array. */
#define FILL_COUNT 260

PREVECTOR_DEFINE(pv_trivial, unsigned char, INLINE_SIZE)
PREVECTOR_DEFINE_SERIALIZE_BYTES(pv_trivial)
PREVECTOR_DEFINE_INIT(pv_nontrivial, nontrivial_elem, INLINE_SIZE, nontrivial_elem_init)
PREVECTOR_DEFINE_SERIALIZE(pv_nontrivial, nontrivial_elem, 4, NONTRIVIAL_ELEM_ENCODE,
                           NONTRIVIAL_ELEM_DECODE)

#define PREVECTOR_BENCHMARKS(V, KIND)                                                        \
    /* Two vectors that live across iterations (Clear and Resize). */                       \
    typedef struct {                                                                         \
        V t0, t1;                                                                            \
    } V##_pair;                                                                              \
                                                                                             \
    static int V##_pair_setup(void *state, double n)                                         \
    {                                                                                        \
        V##_pair *p = state;                                                                 \
        (void)n;                                                                             \
        V##_init(&p->t0);                                                                    \
        V##_init(&p->t1);                                                                    \
        return 0;                                                                            \
    }                                                                                        \
                                                                                             \
    static void V##_pair_teardown(void *state)                                               \
    {                                                                                        \
        V##_pair *p = state;                                                                 \
        V##_destroy(&p->t0);                                                                 \
        V##_destroy(&p->t1);                                                                 \
    }                                                                                        \
                                                                                             \
    static void V##_resize_or_die(V *v, size_t n, const char *name)                          \
    {                                                                                        \
        if (V##_resize(v, n) != 0)                                                           \
            bench_out_of_memory(name);                                                       \
        nb_do_not_optimize_away(V##_data(v));                                                \
    }                                                                                        \
                                                                                             \
    /* Both vectors escape after both resizes, not each after its own: an escape (a memory   \
     * clobber) between them made the compiler forget that t1 was fresh (empty, inline),     \
     * so its 29-element fill took the generic path (size reloaded, the INIT loop, a memset  \
     * call) instead of straight stores. The work is the same: both fills must be done. */   \
    static void V##_destructor_op(void *arg)                                                 \
    {                                                                                        \
        V t0, t1;                                                                            \
        (void)arg;                                                                           \
        V##_init(&t0);                                                                       \
        V##_init(&t1);                                                                       \
        if ((V##_resize(&t0, INLINE_SIZE) | V##_resize(&t1, INLINE_SIZE + 1)) != 0)          \
            bench_out_of_memory("PrevectorDestructor" #KIND);                                \
        nb_do_not_optimize_away(V##_data(&t0));                                              \
        nb_do_not_optimize_away(V##_data(&t1));                                              \
        V##_destroy(&t0);                                                                    \
        V##_destroy(&t1);                                                                    \
    }                                                                                        \
                                                                                             \
    NB_OP_N(V##_destructor_n, V##_destructor_op)                                             \
                                                                                             \
    static void V##_clear_op(void *arg)                                                      \
    {                                                                                        \
        V##_pair *p = arg;                                                                   \
        V##_resize_or_die(&p->t0, INLINE_SIZE, "PrevectorClear" #KIND);                      \
        V##_clear(&p->t0);                                                                   \
        V##_resize_or_die(&p->t1, INLINE_SIZE + 1, "PrevectorClear" #KIND);                  \
        V##_clear(&p->t1);                                                                   \
    }                                                                                        \
                                                                                             \
    NB_OP_N(V##_clear_n, V##_clear_op)                                                       \
                                                                                             \
    static void V##_resize_op(void *arg)                                                     \
    {                                                                                        \
        V##_pair *p = arg;                                                                   \
        V##_resize_or_die(&p->t0, INLINE_SIZE, "PrevectorResize" #KIND);                     \
        V##_resize_or_die(&p->t0, 0, "PrevectorResize" #KIND);                               \
        V##_resize_or_die(&p->t1, INLINE_SIZE + 1, "PrevectorResize" #KIND);                 \
        V##_resize_or_die(&p->t1, 0, "PrevectorResize" #KIND);                               \
    }                                                                                        \
                                                                                             \
    NB_OP_N(V##_resize_n, V##_resize_op)                                                     \
                                                                                             \
    /* A fresh vector per iteration reads DESER_READS serialised ones, then the stream is    \
     * rewound for the next iteration. */                                                    \
    static void V##_deserialize_op(void *arg)                                                \
    {                                                                                        \
        byte_stream *s = arg;                                                                \
        V t1;                                                                                \
        int x;                                                                               \
        V##_init(&t1);                                                                       \
        for (x = 0; x < DESER_READS; x++) {                                                  \
            if (V##_unserialize(&t1, s) != 0)                                                \
                bench_out_of_memory("PrevectorDeserialize" #KIND);                           \
            nb_do_not_optimize_away(V##_data(&t1));                                          \
        }                                                                                    \
        V##_destroy(&t1);                                                                    \
        stream_rewind(s);                                                                    \
    }                                                                                        \
                                                                                             \
    NB_OP_N(V##_deserialize_n, V##_deserialize_op)                                           \
                                                                                             \
    /* The stream: DESER_SMALL_COUNT vectors of DESER_SMALL elements, then DESER_LARGE_COUNT   \
     * of DESER_LARGE. */                                                                    \
    static int V##_deserialize_setup(void *state, double n)                                  \
    {                                                                                        \
        byte_stream *s = state;                                                              \
        V t0;                                                                                \
        int x, rc = 0;                                                                       \
        (void)n;                                                                             \
        stream_init(s);                                                                      \
        V##_init(&t0);                                                                       \
        rc |= V##_resize(&t0, DESER_SMALL);                                                  \
        for (x = 0; x < DESER_SMALL_COUNT; x++)                                              \
            rc |= V##_serialize(&t0, s);                                                     \
        rc |= V##_resize(&t0, DESER_LARGE);                                                  \
        for (x = 0; x < DESER_LARGE_COUNT; x++)                                              \
            rc |= V##_serialize(&t0, s);                                                     \
        V##_destroy(&t0);                                                                    \
        return rc != 0 ? -1 : 0;                                                             \
    }                                                                                        \
                                                                                             \
    /* Core's std::vector<prevector> reserved for FILL_COUNT, filled, then dropped: one      \
     * array allocation, FILL_COUNT vectors made (n elements each: 0 stays inline, 29 puts   \
     * each on the heap), then every vector destroyed and the array freed. */                \
    static void V##_fill_vector(size_t n, const char *name)                                  \
    {                                                                                        \
        V *vec = bb_malloc_array(FILL_COUNT, sizeof(V));                                     \
        size_t i;                                                                            \
        if (vec == NULL)                                                                     \
            bench_out_of_memory(name);                                                       \
        for (i = 0; i < FILL_COUNT; i++) {                                                   \
            V##_init(&vec[i]);                                                               \
            if (n > 0 && V##_resize(&vec[i], n) != 0)                                        \
                bench_out_of_memory(name);                                                   \
        }                                                                                    \
        nb_do_not_optimize_away(vec);                                                        \
        for (i = 0; i < FILL_COUNT; i++)                                                     \
            V##_destroy(&vec[i]);                                                            \
        bb_free(vec);                                                                        \
    }                                                                                        \
                                                                                             \
    static void V##_fill_direct_op(void *arg)                                                \
    {                                                                                        \
        (void)arg;                                                                           \
        V##_fill_vector(0, "PrevectorFillVectorDirect" #KIND);                               \
    }                                                                                        \
                                                                                             \
    NB_OP_N(V##_fill_direct_n, V##_fill_direct_op)                                           \
                                                                                             \
    static void V##_fill_indirect_op(void *arg)                                              \
    {                                                                                        \
        (void)arg;                                                                           \
        V##_fill_vector(INLINE_SIZE + 1, "PrevectorFillVectorIndirect" #KIND);               \
    }                                                                                        \
                                                                                             \
    NB_OP_N(V##_fill_indirect_n, V##_fill_indirect_op)

/* Deserialize's stream, freed (also one that setup left half made: a zeroed stream is an
 * empty one). */
static void stream_teardown(void *state)
{
    stream_destroy(state);
}

PREVECTOR_BENCHMARKS(pv_trivial, Trivial)
PREVECTOR_BENCHMARKS(pv_nontrivial, Nontrivial)

/* The six rows of one element type V named KIND. */
#define PREVECTOR_ROWS(V, KIND)                                                              \
    {.name = "PrevectorDestructor" #KIND, .op_n = V##_destructor_n, .batch = 2},             \
    {.name = "PrevectorClear" #KIND, .state_size = sizeof(V##_pair),                         \
     .setup = V##_pair_setup, .op_n = V##_clear_n, .teardown = V##_pair_teardown,            \
     .batch = 2},                                                                            \
    {.name = "PrevectorResize" #KIND, .state_size = sizeof(V##_pair),                        \
     .setup = V##_pair_setup, .op_n = V##_resize_n, .teardown = V##_pair_teardown,           \
     .batch = 4},                                                                            \
    {.name = "PrevectorDeserialize" #KIND, .state_size = sizeof(byte_stream),                \
     .setup = V##_deserialize_setup, .op_n = V##_deserialize_n, .teardown = stream_teardown, \
     .batch = DESER_READS},                                                                  \
    {.name = "PrevectorFillVectorDirect" #KIND, .op_n = V##_fill_direct_n},                  \
    {.name = "PrevectorFillVectorIndirect" #KIND, .op_n = V##_fill_indirect_n}

const bench_def bench_defs_prevector[] = {
    PREVECTOR_ROWS(pv_trivial, Trivial),
    PREVECTOR_ROWS(pv_nontrivial, Nontrivial),
    BENCH_DEFS_END
};
