/* Core's benchmarks today for MuHash3072 (bench/crypto_hash.cpp), its random generators
 * (bench/random.cpp), SHA-256 after a salt (bench/hashpadding.cpp) and the Merkle root
 * (bench/merkle_root.cpp), with Core's names, bodies, batches and units.
 *
 * Each op is a static function here so that nb_run (inline) inlines it into the measured
 * loop, and with it the inline draws of crypto/random.h, as Core's templates are. Where Core
 * throws a draw away (rng.rand64();), the op keeps it (nb_do_not_optimize_away), as the 2020
 * FastRandom rows here do: the generator's state changes either way, and the number is what
 * the row is about. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "bench_bitcoin/bench.h"
#include "bench_bitcoin/merkle.h"
#include "crypto/muhash.h"
#include "crypto/random.h"
#include "crypto/sha256.h"
#include "util/alloc.h"

/* ---- MuHash (crypto_hash.cpp) -------------------------------------------------------------
 *
 * MuHash3072 acc; is the empty set; Core's rng.randbytes(32) and rng.rand256() are the next 32
 * bytes of FastRandomContext(true)'s keystream (fastrandom2_fill). */

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

/* The state Core's bodies start from: acc empty (or, for MuHashFinalize, the element of
 * randbytes(32) divided by the element of rand256()), other the element of randbytes(32). */
static void muhash_setup(muhash_state *s, int finalize)
{
    fastrandom2_ctx rng;
    unsigned char bytes[32];
    memset(s, 0, sizeof *s);
    fastrandom2_init_deterministic(&rng);
    muhash3072_init(&s->acc);
    fastrandom2_fill(&rng, bytes, sizeof bytes);
    if (finalize) {
        muhash3072 e;
        muhash3072_init_element(&s->acc, bytes, sizeof bytes);
        fastrandom2_fill(&rng, bytes, sizeof bytes);
        muhash3072_init_element(&e, bytes, sizeof bytes);
        muhash3072_div(&s->acc, &e);
    } else {
        muhash3072_init_element(&s->other, bytes, sizeof bytes);
        memcpy(s->key, bytes, sizeof bytes);
    }
}

void MuHash(nb_bench *bench)
{
    muhash_state s;
    muhash_setup(&s, 0);
    memset(s.key, 0, sizeof s.key);
    nb_run(bench, muhash_op, &s);
}

void MuHashMul(nb_bench *bench)
{
    muhash_state s;
    muhash_setup(&s, 0);
    nb_run(bench, muhash_mul_op, &s);
}

void MuHashDiv(nb_bench *bench)
{
    muhash_state s;
    muhash_setup(&s, 0);
    nb_run(bench, muhash_div_op, &s);
}

void MuHashPrecompute(nb_bench *bench)
{
    muhash_state s;
    muhash_setup(&s, 0);
    nb_run(bench, muhash_precompute_op, &s);
}

void MuHashFinalize(nb_bench *bench)
{
    muhash_state s;
    muhash_setup(&s, 1);
    nb_run(bench, muhash_finalize_op, &s);
}

/* ---- random.cpp --------------------------------------------------------------------------
 *
 * FastRandom_* on FastRandomContext(true), InsecureRandom_* on InsecureRandomContext(251438);
 * unit "number". rand64, rand32, randbool: one draw an iteration (batch 1); randbits: widths
 * 1 to 64 (batch 64); randrangeN: ranges 1 to N (batch N); stdshuffle100: std::shuffle of 100
 * numbers, initially 0..99 and shuffled further each iteration (batch 100). */

#define SHUFFLE_N 100

typedef struct {
    fastrandom2_ctx fast;
    insecurerandom_ctx insecure;
    uint64_t data[SHUFFLE_N];
} random_state;

/* The ops for generator P: P_rand64_op, P_rand32_op, P_randbool_op, P_randbits_op,
 * P_randrange<N>_op, P_stdshuffle_op; field is P's context in random_state. */
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
    static void P##_randrange_n(random_state *s, uint64_t n) \
    { \
        uint64_t i; \
        for (i = 1; i <= n; i++) { \
            uint64_t v = P##_randrange(&s->field, i); \
            nb_do_not_optimize_away(v); \
        } \
    } \
    static void P##_randrange100_op(void *arg) { P##_randrange_n(arg, 100); } \
    static void P##_randrange1000_op(void *arg) { P##_randrange_n(arg, 1000); } \
    static void P##_randrange1000000_op(void *arg) { P##_randrange_n(arg, 1000000); } \
    static void P##_stdshuffle_op(void *arg) \
    { \
        random_state *s = arg; \
        P##_stdshuffle(&s->field, s->data, SHUFFLE_N); \
    }

RANDOM_OPS(fastrandom2, fast)
RANDOM_OPS(insecurerandom, insecure)

/* One iteration of the randrange1000000 rows (a million draws) outlasts the default epoch
 * time several times over, so each epoch is one iteration; they run at most this many epochs
 * instead of 11, to keep the default run short. */
#define BIG_ROW_EPOCHS 3

static void random_run(nb_bench *bench, void (*op)(void *), double batch)
{
    random_state s;
    int i;
    fastrandom2_init_deterministic(&s.fast);
    insecurerandom_init(&s.insecure, 251438);
    for (i = 0; i < SHUFFLE_N; i++)
        s.data[i] = (uint64_t)i;
    if (batch >= 1000000 && nb_get_epochs(bench) > BIG_ROW_EPOCHS)
        nb_epochs(bench, BIG_ROW_EPOCHS);
    nb_run(nb_unit(nb_batch(bench, batch), "number"), op, &s);
}

/* void Name(nb_bench *bench) for row Name: op with batch. */
#define RANDOM_ROW(Name, op, batch) \
    void Name(nb_bench *bench) \
    { \
        random_run(bench, op, batch); \
    }

RANDOM_ROW(FastRandom_rand64, fastrandom2_rand64_op, 1)
RANDOM_ROW(FastRandom_rand32, fastrandom2_rand32_op, 1)
RANDOM_ROW(FastRandom_randbool, fastrandom2_randbool_op, 1)
RANDOM_ROW(FastRandom_randbits, fastrandom2_randbits_op, 64)
RANDOM_ROW(FastRandom_randrange100, fastrandom2_randrange100_op, 100)
RANDOM_ROW(FastRandom_randrange1000, fastrandom2_randrange1000_op, 1000)
RANDOM_ROW(FastRandom_randrange1000000, fastrandom2_randrange1000000_op, 1000000)
RANDOM_ROW(FastRandom_stdshuffle100, fastrandom2_stdshuffle_op, SHUFFLE_N)
RANDOM_ROW(InsecureRandom_rand64, insecurerandom_rand64_op, 1)
RANDOM_ROW(InsecureRandom_rand32, insecurerandom_rand32_op, 1)
RANDOM_ROW(InsecureRandom_randbool, insecurerandom_randbool_op, 1)
RANDOM_ROW(InsecureRandom_randbits, insecurerandom_randbits_op, 64)
RANDOM_ROW(InsecureRandom_randrange100, insecurerandom_randrange100_op, 100)
RANDOM_ROW(InsecureRandom_randrange1000, insecurerandom_randrange1000_op, 1000)
RANDOM_ROW(InsecureRandom_randrange1000000, insecurerandom_randrange1000000_op, 1000000)
RANDOM_ROW(InsecureRandom_stdshuffle100, insecurerandom_stdshuffle_op, SHUFFLE_N)

/* ---- hashpadding.cpp ---------------------------------------------------------------------
 *
 * SHA-256 of a 32-byte value after a 64-byte salt (the 32-byte nonce twice): PrePadded
 * copies a context that has absorbed the salt (a midstate), RegularPadded writes the
 * 32-byte nonce each time into a copy of a fresh context. Core's GetRandHash() values are
 * FastRandomContext(true) bytes here (the cost does not depend on them). */

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

static void padding_setup(padding_state *s, int salted)
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
}

void PrePadded(nb_bench *bench)
{
    padding_state s;
    padding_setup(&s, 1);
    nb_run(bench, pre_padded_op, &s);
}

void RegularPadded(nb_bench *bench)
{
    padding_state s;
    padding_setup(&s, 0);
    nb_run(bench, regular_padded_op, &s);
}

/* ---- merkle_root.cpp ---------------------------------------------------------------------
 *
 * Core's MerkleRoot benchmark makes two rows, MerkleRoot and MerkleRootWithMutation; here each
 * is its own benchmark. One iteration: copy the 9001 leaves (FastRandomContext(true)'s
 * rand256()s) into a buffer with room for an even count, as Core's vector is reserved, and
 * compute the root there, with or without mutation detection. batch 9001, unit "leaf". */

typedef struct {
    unsigned char *hashes, *leaves, root[32];
    int mutate, mutated;
} merkle_state;

static void merkle_op(void *arg)
{
    merkle_state *s = arg;
    memcpy(s->leaves, s->hashes, 32 * BENCH_MERKLE_LEAVES);
    bench_merkle_root(s->root, s->leaves, BENCH_MERKLE_LEAVES, s->mutate ? &s->mutated : NULL);
}

static void merkle_run(nb_bench *bench, const char *name, int mutate)
{
    merkle_state s;
    s.hashes = bb_malloc(32 * BENCH_MERKLE_LEAVES);
    s.leaves = bb_malloc(32 * (BENCH_MERKLE_LEAVES + 1));
    if (!s.hashes || !s.leaves) {
        bb_free(s.hashes);
        bb_free(s.leaves);
        bench_out_of_memory(name);
    }
    bench_merkle_leaves(s.hashes);
    s.mutate = mutate;
    s.mutated = 0;
    nb_run(nb_unit(nb_batch(bench, BENCH_MERKLE_LEAVES), "leaf"), merkle_op, &s);
    bb_free(s.hashes);
    bb_free(s.leaves);
}

void MerkleRoot(nb_bench *bench)
{
    merkle_run(bench, "MerkleRoot", 0);
}

void MerkleRootWithMutation(nb_bench *bench)
{
    merkle_run(bench, "MerkleRootWithMutation", 1);
}
