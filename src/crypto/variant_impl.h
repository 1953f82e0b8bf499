/* Internal to the crypto library: how a primitive defines its variant set (variant.h says
 * what a set is and lists the steps of adding one), and the helpers the sets' self-tests
 * share. Not installed; include only from src/crypto and tests.
 *
 * A set is a table and four functions of the primitive's own:
 *
 *   static const crypto_variant P_table[] = {
 *       {"standard", 0, &P_portable_fns},        first: the portable code, needs nothing
 *   #ifdef ENABLE_AVX2
 *       {"avx2", CPU_AVX2 | CPU_BMI2, &P_avx2_fns},
 *   #endif
 *   };                                           the automatic choice last (see choose)
 *   CRYPTO_VARIANT_SET_DEFINE(P, "Label", P_table, P_selftest, P_install, NULL, NULL)
 *   CRYPTO_VARIANT_WRAPPERS(P)
 *
 * The functions a variant installs are the primitive's own struct (impl points to it).
 * selftest(v) returns 1 when v's functions agree with the portable ones on input that
 * reaches every path v has, 0 otherwise; it runs once per variant, after the CPU check, under
 * the lock. install(use) writes the primitive's pointers for the variants whose bits are set
 * in use (bit i: table[i]; no bit set: everything portable); every variant in use is usable.
 * choose(s) returns the automatic choice, as bits of usable variants (asking
 * crypto_variant_usable only about the variants it considers, so that no other self-test
 * runs), or NULL for the last usable variant alone; it runs once per process, under the
 * lock. describe(use, buf, cap) writes
 * the description of use, or NULL for the names of the variants in use, comma-separated
 * ("standard" for none). A set of "standard" alone (SHA3-256) needs neither selftest nor
 * install: NULL. */
#ifndef CRYPTO_VARIANT_IMPL_H
#define CRYPTO_VARIANT_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/cpuid.h"
#include "crypto/variant.h"

/* At most this many variants a set, "standard" included. */
#define CRYPTO_VARIANT_MAX 8
/* Room for one description, its terminating 0 included. */
#define CRYPTO_VARIANT_DESC_SIZE 96

/* One implementation of a primitive. */
typedef struct {
    const char *name;    /* "standard", "sse41", "avx2", "shani", "avx512", ... */
    unsigned isa;        /* CPU_* bits (cpuid.h), every one needed */
    const void *impl;    /* the primitive's struct of the functions it installs */
} crypto_variant;

/* What a set has found and installed so far (private to variant.c; zero at start). */
typedef struct {
    signed char verdict[CRYPTO_VARIANT_MAX];   /* 0 not yet known, 1 usable, -1 not */
    int auto_decided;
    unsigned auto_use;                         /* choose()'s answer, once decided */
    const char *current;                       /* NULL: nothing installed, all portable */
    char auto_desc[CRYPTO_VARIANT_DESC_SIZE];  /* each written once, when first installed */
    char forced_desc[CRYPTO_VARIANT_MAX][CRYPTO_VARIANT_DESC_SIZE];
} crypto_variant_state;

struct crypto_variant_set {
    const char *family, *label;
    const crypto_variant *variants;
    size_t count;
    int (*selftest)(const crypto_variant *v);
    void (*install)(unsigned use);
    unsigned (*choose)(const crypto_variant_set *s);
    void (*describe)(unsigned use, char *buf, size_t cap);
    crypto_variant_state *state;
};

/* Defines P_variant_set (family "P") and its state; a table of more than
 * CRYPTO_VARIANT_MAX variants does not compile. */
#define CRYPTO_VARIANT_SET_DEFINE(P, label, table, selftest, install, choose, describe) \
    static crypto_variant_state P##_variant_state; \
    const crypto_variant_set P##_variant_set = { \
        #P, label, table, \
        sizeof(table) / sizeof((table)[0]) \
            + 0 * sizeof(char[sizeof(table) / sizeof((table)[0]) <= CRYPTO_VARIANT_MAX \
                              ? 1 : -1]), \
        selftest, install, choose, describe, &P##_variant_state \
    };

/* Defines P_impl_list, P_impl_force and P_impl_current (declared in P.h): the generic
 * functions on P's set. */
#define CRYPTO_VARIANT_WRAPPERS(P) \
    size_t P##_impl_list(const char **names, size_t cap) \
    { \
        return crypto_variant_list(&P##_variant_set, names, cap); \
    } \
    int P##_impl_force(const char *name) \
    { \
        return crypto_variant_force(&P##_variant_set, name); \
    } \
    const char *P##_impl_current(void) \
    { \
        return crypto_variant_current(&P##_variant_set); \
    }

/* For a set's choose (under the lock): whether its variant i is usable (in the table,
 * run by the CPU, self-tested; the verdict cached). */
int crypto_variant_usable(const crypto_variant_set *s, size_t i);

/* Installs s's automatic choice and returns its description, under the lock. */
const char *crypto_variant_autodetect(const crypto_variant_set *s);

/* Runs s's self-test on v (any functions: a test hook uses it to show that broken ones are
 * refused) under the lock; installs nothing. 1: passed, 0: refused. */
int crypto_variant_selftest(const crypto_variant_set *s, const crypto_variant *v);

/* The impl of the last variant of s whose bit is set in use, or variant 0's when none is:
 * what install writes for a set whose variants each replace the same functions. */
const void *crypto_variant_last_in_use(const crypto_variant_set *s, unsigned use);

/* Test hooks: every variant this build has in s, runnable here or not, in table order
 * (returns how many; may exceed cap; names may be NULL when cap is 0); and whether this CPU
 * and OS run what the variant called name needs (0 also when s has no such variant). */
size_t crypto_variant_built(const crypto_variant_set *s, const char **names, size_t cap);
int crypto_variant_cpu_runs(const crypto_variant_set *s, const char *name);

/* ---- for the self-tests -------------------------------------------------------------- */

/* Fills buf with len deterministic bytes (xorshift32 from seed, which must not be 0), so a
 * failing self-test fails the same way every time. */
void crypto_variant_test_fill(unsigned char *buf, size_t len, uint32_t seed);

/* A chained block function under test: call(impl, state, in, n) runs impl's function on n
 * blocks of block bytes from in, updating the state_size-byte state (at most
 * CRYPTO_VARIANT_TEST_STATE_MAX bytes) that starts as iv. */
#define CRYPTO_VARIANT_TEST_STATE_MAX 256
typedef struct {
    size_t block, state_size;
    const void *iv;
    void (*call)(const void *impl, void *state, const unsigned char *in, size_t n);
} crypto_variant_blocks_test;

/* got's block function against ref's on CRYPTO_SELFTEST_COUNTS: one call of each count in
 * turn, each from the state the previous one left, on unaligned input (a zero block, an
 * all-ones block, then generated bytes). The counts 0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17,
 * 31, 32, 33, 67 run each loop of a variant zero, one and many times and meet every
 * one-at-a-time/pipelined threshold T of 4, 8, 16 and 32 blocks at T - 1, T and T + 1.
 * Returns 1 when every state matches. */
int crypto_variant_test_blocks(const crypto_variant_blocks_test *t, const void *ref, const void *got);

#endif
