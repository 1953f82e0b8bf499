/* The Merkle root of the MerkleRoot benchmarks (src/bench_bitcoin/merkle.h): the root Core's
 * benchmark asserts for its 9001 leaves; every count from 0 to 70 and random ones against a
 * recursive model written from the definition (SHA-256 twice of each pair, an odd level's last
 * hash paired with itself); the mutation check on duplicated subtrees, and on none. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "bench_bitcoin/merkle.h"
#include "check.h"
#include "crypto/sha256.h"
#include "util/alloc.h"

static unsigned char leaves_in[32 * 300], work[32 * 301];

/* The root of leaves [first, first + count) of a level of n hashes, recursively: a subtree of
 * width w covers w hashes; past the level's end the last hash stands in (the duplication). */
static void model(unsigned char out[32], const unsigned char *h, size_t n, size_t first,
                  size_t width)
{
    unsigned char pair[64], once[32];
    if (width == 1) {
        memcpy(out, h + 32 * (first < n ? first : n - 1), 32);
        return;
    }
    if (first + width / 2 >= n) {           /* right half empty: the left one twice */
        model(pair, h, n, first, width / 2);
        memcpy(pair + 32, pair, 32);
    } else {
        model(pair, h, n, first, width / 2);
        model(pair + 32, h, n, first + width / 2, width / 2);
    }
    sha256_hash(once, pair, 64);
    sha256_hash(out, once, 32);
}

static void model_root(unsigned char out[32], const unsigned char *h, size_t n)
{
    size_t width = 1;
    if (n == 0) {
        memset(out, 0, 32);
        return;
    }
    while (width < n)
        width *= 2;
    model(out, h, n, 0, width);
}

static void test_core_root(void)
{
    static const char *core = "d8d4dfd014a533bc3941b8663fa6e7f3a8707af124f713164d75b0c3179ecb08";
    unsigned char *h = bb_malloc(32 * (BENCH_MERKLE_LEAVES + 1)), root[32], want[32];
    int mutated = -1, i;
    if (!CHECK(h != NULL))
        return;
    bench_merkle_leaves(h);
    bench_merkle_root(root, h, BENCH_MERKLE_LEAVES, &mutated);
    check_unhex(want, sizeof want, core);
    for (i = 0; i < 16; i++) {               /* Core prints a uint256 with its bytes reversed */
        unsigned char t = want[i];
        want[i] = want[31 - i];
        want[31 - i] = t;
    }
    CHECK(memcmp(root, want, 32) == 0);
    CHECK(mutated == 0);
    bb_free(h);
}

static void test_model(void)
{
    size_t n;
    int round;
    for (round = 0; round < 120; round++) {
        unsigned char root[32], want[32];
        int mutated = -1;
        n = round < 71 ? (size_t)round : (size_t)check_rng_below(300);
        check_rng_fill(leaves_in, 32 * n);
        memcpy(work, leaves_in, 32 * n);
        bench_merkle_root(root, work, n, round % 2 ? &mutated : NULL);
        model_root(want, leaves_in, n);
        CHECKF(memcmp(root, want, 32) == 0, "%zu leaves", n);
        if (round % 2)
            CHECKF(mutated == 0, "%zu distinct leaves reported mutated", n);
    }
}

/* Core's CVE-2012-2459 case: [a, b, c] and [a, b, c, c] have one root; only the second has
 * two equal hashes side by side. Equal hashes one level up count too. */
static void test_mutation(void)
{
    unsigned char r1[32], r2[32], r3[32];
    int m1 = -1, m2 = -1, m3 = -1;
    check_rng_fill(leaves_in, 32 * 3);
    memcpy(work, leaves_in, 96);
    bench_merkle_root(r1, work, 3, &m1);
    memcpy(work, leaves_in, 96);
    memcpy(work + 96, leaves_in + 64, 32);
    bench_merkle_root(r2, work, 4, &m2);
    CHECK(memcmp(r1, r2, 32) == 0);
    CHECK(m1 == 0 && m2 == 1);
    /* [a, b, a, b]: no equal neighbours among the leaves, but the two pairs hash alike */
    memcpy(work, leaves_in, 64);
    memcpy(work + 64, leaves_in, 64);
    bench_merkle_root(r3, work, 4, &m3);
    CHECK(m3 == 1);
    /* without the check the root is the same */
    memcpy(work, leaves_in, 64);
    memcpy(work + 64, leaves_in, 64);
    bench_merkle_root(r1, work, 4, NULL);
    CHECK(memcmp(r1, r3, 32) == 0);
}

int main(void)
{
    check_rng_init("test_merkle");
    sha256_autodetect();
    test_core_root();
    test_model();
    test_mutation();
    return check_finish();
}
