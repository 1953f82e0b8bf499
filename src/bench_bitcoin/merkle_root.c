/* The Merkle root: Bitcoin Core's bench/merkle_root.cpp, whose one benchmark makes two rows,
 * MerkleRoot and MerkleRootWithMutation; here each is its own. One iteration copies the 9001
 * leaves (FastRandomContext(true)'s rand256()s) into a buffer with room for an even count,
 * as Core's vector is reserved, and computes the root there (bench_bitcoin/merkle.h), with
 * or without mutation detection. Batch 9001, unit "leaf"; on the variant set "sha256"
 * (sha256_d64). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "bench_bitcoin/bench.h"
#include "bench_bitcoin/merkle.h"
#include "util/alloc.h"

typedef struct {
    unsigned char *hashes, *leaves, root[32];
    int mutated;
} merkle_state;

static void merkle_op(void *arg)
{
    merkle_state *s = arg;
    memcpy(s->leaves, s->hashes, 32 * BENCH_MERKLE_LEAVES);
    bench_merkle_root(s->root, s->leaves, BENCH_MERKLE_LEAVES, NULL);
}

static void merkle_mutation_op(void *arg)
{
    merkle_state *s = arg;
    memcpy(s->leaves, s->hashes, 32 * BENCH_MERKLE_LEAVES);
    bench_merkle_root(s->root, s->leaves, BENCH_MERKLE_LEAVES, &s->mutated);
}

NB_OP_N(merkle_n, merkle_op)
NB_OP_N(merkle_mutation_n, merkle_mutation_op)

static int merkle_setup(void *state, double n)
{
    merkle_state *s = state;
    (void)n;
    s->hashes = bb_malloc(32 * BENCH_MERKLE_LEAVES);
    s->leaves = bb_malloc(32 * (BENCH_MERKLE_LEAVES + 1));
    if (!s->hashes || !s->leaves)
        return -1;
    bench_merkle_leaves(s->hashes);
    return 0;
}

static void merkle_teardown(void *state)
{
    merkle_state *s = state;
    bb_free(s->hashes);
    bb_free(s->leaves);
}

const bench_def bench_defs_merkle_root[] = {
    {.name = "MerkleRoot", .state_size = sizeof(merkle_state), .setup = merkle_setup,
     .op_n = merkle_n, .teardown = merkle_teardown, .batch = BENCH_MERKLE_LEAVES,
     .unit = "leaf", .family = "sha256"},
    {.name = "MerkleRootWithMutation", .state_size = sizeof(merkle_state),
     .setup = merkle_setup, .op_n = merkle_mutation_n, .teardown = merkle_teardown,
     .batch = BENCH_MERKLE_LEAVES, .unit = "leaf", .family = "sha256"},
    BENCH_DEFS_END
};
