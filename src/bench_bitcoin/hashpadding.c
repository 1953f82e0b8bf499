/* SHA-256 after a salt: Bitcoin Core's bench/hashpadding.cpp. The 32-byte value is hashed
 * after a 64-byte salt (the 32-byte nonce twice): PrePadded copies a context that has
 * absorbed the salt (a midstate), RegularPadded writes the nonce and the value each time
 * into a copy of a fresh context. Core's GetRandHash() values are FastRandomContext(true)
 * bytes here (the cost does not depend on them). Batch 1, unit op. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/bench.h"
#include "crypto/random.h"
#include "crypto/sha256.h"

typedef struct {
    sha256_ctx hasher;
    unsigned char nonce[32], data[32], out[32];
} padding_state;

static void pre_padded_op(void *arg)
{
    padding_state *s = arg;
    sha256_ctx h = s->hasher;
    sha256_write(&h, s->data, 32);
    sha256_finalize(&h, s->out);
}

static void regular_padded_op(void *arg)
{
    padding_state *s = arg;
    sha256_ctx h = s->hasher;
    sha256_write(&h, s->nonce, 32);
    sha256_write(&h, s->data, 32);
    sha256_finalize(&h, s->out);
}

NB_OP_N(pre_padded_n, pre_padded_op)
NB_OP_N(regular_padded_n, regular_padded_op)

static int padding_setup(padding_state *s, int salted)
{
    fastrandom2_ctx rng;
    fastrandom2_init_deterministic(&rng);
    fastrandom2_fill(&rng, s->nonce, sizeof s->nonce);
    fastrandom2_fill(&rng, s->data, sizeof s->data);
    sha256_init(&s->hasher);
    if (salted) {
        sha256_write(&s->hasher, s->nonce, 32);
        sha256_write(&s->hasher, s->nonce, 32);
    }
    return 0;
}

static int pre_padded_setup(void *state, double n)
{
    (void)n;
    return padding_setup(state, 1);
}

static int regular_padded_setup(void *state, double n)
{
    (void)n;
    return padding_setup(state, 0);
}

const bench_def bench_defs_hashpadding[] = {
    {.name = "PrePadded", .state_size = sizeof(padding_state), .setup = pre_padded_setup,
     .op_n = pre_padded_n, .family = "sha256"},
    {.name = "RegularPadded", .state_size = sizeof(padding_state),
     .setup = regular_padded_setup, .op_n = regular_padded_n, .family = "sha256"},
    BENCH_DEFS_END
};
