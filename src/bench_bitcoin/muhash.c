/* MuHash3072 benchmarks: Bitcoin Core's MuHash rows of bench/crypto_hash.cpp today, with
 * Core's bodies (batch 1, unit op).
 *
 * MuHash3072 acc; is the empty set; Core's rng.randbytes(32) and rng.rand256() are the next
 * 32 bytes of FastRandomContext(true)'s keystream (fastrandom2_fill). The rows run on the
 * variant set "num3072" (-compare measures each variant). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "bench_bitcoin/bench.h"
#include "crypto/muhash.h"
#include "crypto/random.h"

typedef struct {
    muhash3072 acc, other;
    unsigned char key[32];
    uint32_t i;
} muhash_state;

/* acc *= MuHash3072(key), a new element every iteration (key[0] = ++i). */
static void muhash_op(void *arg)
{
    muhash_state *s = arg;
    muhash3072 e;
    s->key[0] = (unsigned char)(++s->i & 0xff);
    muhash3072_init_element(&e, s->key, sizeof s->key);
    muhash3072_mul(&s->acc, &e);
}

static void muhash_mul_op(void *arg)
{
    muhash_state *s = arg;
    muhash3072_mul(&s->acc, &s->other);
}

static void muhash_div_op(void *arg)
{
    muhash_state *s = arg;
    muhash3072_div(&s->acc, &s->other);
}

/* MuHash3072{key}: making the element, into other (so that it is made). */
static void muhash_precompute_op(void *arg)
{
    muhash_state *s = arg;
    muhash3072_init_element(&s->other, s->key, sizeof s->key);
}

/* acc.Finalize(out); acc /= MuHash3072{out}: one inverse, and a new value each time. */
static void muhash_finalize_op(void *arg)
{
    muhash_state *s = arg;
    unsigned char out[32];
    muhash3072 e;
    muhash3072_finalize(&s->acc, out);
    muhash3072_init_element(&e, out, sizeof out);
    muhash3072_div(&s->acc, &e);
}

NB_OP_N(muhash_n, muhash_op)
NB_OP_N(muhash_mul_n, muhash_mul_op)
NB_OP_N(muhash_div_n, muhash_div_op)
NB_OP_N(muhash_precompute_n, muhash_precompute_op)
NB_OP_N(muhash_finalize_n, muhash_finalize_op)

/* MuHash: acc empty, key zero. MuHashMul, MuHashDiv, MuHashPrecompute: acc empty, key
 * randbytes(32) and other its element. */
static int muhash_setup(void *state, double n)
{
    muhash_state *s = state;
    fastrandom2_ctx rng;
    (void)n;
    muhash3072_init(&s->acc);
    fastrandom2_init_deterministic(&rng);
    fastrandom2_fill(&rng, s->key, sizeof s->key);
    muhash3072_init_element(&s->other, s->key, sizeof s->key);
    return 0;
}

static int muhash_zero_key_setup(void *state, double n)
{
    muhash_state *s = state;
    muhash_setup(state, n);
    memset(s->key, 0, sizeof s->key);
    return 0;
}

/* MuHashFinalize: acc the element of randbytes(32) divided by the element of rand256(). */
static int muhash_finalize_setup(void *state, double n)
{
    muhash_state *s = state;
    fastrandom2_ctx rng;
    unsigned char bytes[32];
    muhash3072 e;
    (void)n;
    fastrandom2_init_deterministic(&rng);
    fastrandom2_fill(&rng, bytes, sizeof bytes);
    muhash3072_init_element(&s->acc, bytes, sizeof bytes);
    fastrandom2_fill(&rng, bytes, sizeof bytes);
    muhash3072_init_element(&e, bytes, sizeof bytes);
    muhash3072_div(&s->acc, &e);
    return 0;
}

const bench_def bench_defs_muhash[] = {
    {.name = "MuHash", .state_size = sizeof(muhash_state), .setup = muhash_zero_key_setup,
     .op_n = muhash_n, .family = "num3072"},
    {.name = "MuHashMul", .state_size = sizeof(muhash_state), .setup = muhash_setup,
     .op_n = muhash_mul_n, .family = "num3072"},
    {.name = "MuHashDiv", .state_size = sizeof(muhash_state), .setup = muhash_setup,
     .op_n = muhash_div_n, .family = "num3072"},
    {.name = "MuHashPrecompute", .state_size = sizeof(muhash_state), .setup = muhash_setup,
     .op_n = muhash_precompute_n},
    {.name = "MuHashFinalize", .state_size = sizeof(muhash_state),
     .setup = muhash_finalize_setup, .op_n = muhash_finalize_n, .family = "num3072"},
    BENCH_DEFS_END
};
