/* Bitcoin's Merkle root (merkle.h). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "bench_bitcoin/merkle.h"
#include "crypto/random.h"
#include "crypto/sha256.h"

void bench_merkle_root(unsigned char root[32], unsigned char *leaves, size_t n, int *mutated)
{
    int mutation = 0;
    while (n > 1) {
        if (mutated) {
            size_t pos;
            for (pos = 0; pos + 1 < n; pos += 2)
                if (memcmp(leaves + 32 * pos, leaves + 32 * (pos + 1), 32) == 0)
                    mutation = 1;
        }
        if (n & 1) {
            memcpy(leaves + 32 * n, leaves + 32 * (n - 1), 32);
            n++;
        }
        sha256_d64(leaves, leaves, n / 2);
        n /= 2;
    }
    if (mutated)
        *mutated = mutation;
    if (n == 0)
        memset(root, 0, 32);
    else
        memcpy(root, leaves, 32);
}

void bench_merkle_leaves(unsigned char *hashes)
{
    fastrandom2_ctx rng;
    fastrandom2_init_deterministic(&rng);
    fastrandom2_fill(&rng, hashes, 32 * (size_t)BENCH_MERKLE_LEAVES);
}
