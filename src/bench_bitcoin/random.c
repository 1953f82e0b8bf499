/* Random generator benchmarks: Bitcoin Core's bench/random.cpp today, with Core's bodies,
 * batches and unit "number". FastRandom_* run on FastRandomContext(true) (crypto/random.h's
 * fastrandom2_), InsecureRandom_* on InsecureRandomContext(251438). rand64, rand32,
 * randbool: one draw an iteration; randbits: widths 1 to 64 (batch 64); randrangeN: ranges 1
 * to N (batch N); stdshuffle100: std::shuffle of 100 numbers, 0..99 at first and shuffled
 * further each iteration (batch 100).
 *
 * The ops inline the draws of crypto/random.h, as Core's templates are inline. Where Core
 * throws a draw away (rng.rand64();), the op keeps it (nb_do_not_optimize_away), as the 2020
 * FastRandom rows do: the generator's state changes either way. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/bench.h"
#include "crypto/random.h"

#define SHUFFLE_N 100

typedef struct {
    fastrandom2_ctx fast;
    insecurerandom_ctx insecure;
    uint64_t data[SHUFFLE_N];
} random_state;

/* The ops for generator P (field: its context in random_state): P_rand64_n, P_rand32_n,
 * P_randbool_n, P_randbits_n, P_randrange{100,1000,1000000}_n, P_stdshuffle_n. */
#define RANDOM_OPS(P, field) \
    static void P##_rand64_op(void *arg) \
    { \
        uint64_t v = P##_rand64(&((random_state *)arg)->field); \
        nb_do_not_optimize_away(v); \
    } \
    static void P##_rand32_op(void *arg) \
    { \
        uint32_t v = P##_rand32(&((random_state *)arg)->field); \
        nb_do_not_optimize_away(v); \
    } \
    static void P##_randbool_op(void *arg) \
    { \
        int v = P##_randbool(&((random_state *)arg)->field); \
        nb_do_not_optimize_away(v); \
    } \
    static void P##_randbits_op(void *arg) \
    { \
        int i; \
        for (i = 1; i <= 64; i++) { \
            uint64_t v = P##_randbits(&((random_state *)arg)->field, i); \
            nb_do_not_optimize_away(v); \
        } \
    } \
    static void P##_randranges(random_state *s, uint64_t n) \
    { \
        uint64_t i; \
        for (i = 1; i <= n; i++) { \
            uint64_t v = P##_randrange(&s->field, i); \
            nb_do_not_optimize_away(v); \
        } \
    } \
    static void P##_randrange100_op(void *arg) { P##_randranges(arg, 100); } \
    static void P##_randrange1000_op(void *arg) { P##_randranges(arg, 1000); } \
    static void P##_randrange1000000_op(void *arg) { P##_randranges(arg, 1000000); } \
    static void P##_stdshuffle_op(void *arg) \
    { \
        random_state *s = arg; \
        P##_stdshuffle(&s->field, s->data, SHUFFLE_N); \
    } \
    NB_OP_N(P##_rand64_n, P##_rand64_op) \
    NB_OP_N(P##_rand32_n, P##_rand32_op) \
    NB_OP_N(P##_randbool_n, P##_randbool_op) \
    NB_OP_N(P##_randbits_n, P##_randbits_op) \
    NB_OP_N(P##_randrange100_n, P##_randrange100_op) \
    NB_OP_N(P##_randrange1000_n, P##_randrange1000_op) \
    NB_OP_N(P##_randrange1000000_n, P##_randrange1000000_op) \
    NB_OP_N(P##_stdshuffle_n, P##_stdshuffle_op)

RANDOM_OPS(fastrandom2, fast)
RANDOM_OPS(insecurerandom, insecure)

static int random_setup(void *state, double n)
{
    random_state *s = state;
    int i;
    (void)n;
    fastrandom2_init_deterministic(&s->fast);
    insecurerandom_init(&s->insecure, 251438);
    for (i = 0; i < SHUFFLE_N; i++)
        s->data[i] = (uint64_t)i;
    return 0;
}

/* One iteration of the randrange1000000 rows is a million draws, many times the epoch time
 * of the default run: they run this many epochs of one iteration instead of eleven. */
#define BIG_ROW_EPOCHS 3

/* The bench_def of row Name: op P_op_n, batch b. */
#define RANDOM_ROW(Name, P, op, b) \
    {.name = #Name, .state_size = sizeof(random_state), .setup = random_setup, \
     .op_n = P##_##op##_n, .batch = b, .unit = "number", \
     .max_epochs = (b) >= 1000000 ? BIG_ROW_EPOCHS : 0}

const bench_def bench_defs_random[] = {
    RANDOM_ROW(FastRandom_rand64, fastrandom2, rand64, 1),
    RANDOM_ROW(FastRandom_rand32, fastrandom2, rand32, 1),
    RANDOM_ROW(FastRandom_randbool, fastrandom2, randbool, 1),
    RANDOM_ROW(FastRandom_randbits, fastrandom2, randbits, 64),
    RANDOM_ROW(FastRandom_randrange100, fastrandom2, randrange100, 100),
    RANDOM_ROW(FastRandom_randrange1000, fastrandom2, randrange1000, 1000),
    RANDOM_ROW(FastRandom_randrange1000000, fastrandom2, randrange1000000, 1000000),
    RANDOM_ROW(FastRandom_stdshuffle100, fastrandom2, stdshuffle, SHUFFLE_N),
    RANDOM_ROW(InsecureRandom_rand64, insecurerandom, rand64, 1),
    RANDOM_ROW(InsecureRandom_rand32, insecurerandom, rand32, 1),
    RANDOM_ROW(InsecureRandom_randbool, insecurerandom, randbool, 1),
    RANDOM_ROW(InsecureRandom_randbits, insecurerandom, randbits, 64),
    RANDOM_ROW(InsecureRandom_randrange100, insecurerandom, randrange100, 100),
    RANDOM_ROW(InsecureRandom_randrange1000, insecurerandom, randrange1000, 1000),
    RANDOM_ROW(InsecureRandom_randrange1000000, insecurerandom, randrange1000000, 1000000),
    RANDOM_ROW(InsecureRandom_stdshuffle100, insecurerandom, stdshuffle, SHUFFLE_N),
    BENCH_DEFS_END
};
