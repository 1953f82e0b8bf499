/* Bitcoin's Merkle root (Core's ComputeMerkleRoot, consensus/merkle.cpp), on sha256_d64, for
 * the MerkleRoot benchmarks and their test. */
#ifndef BENCH_BITCOIN_MERKLE_H
#define BENCH_BITCOIN_MERKLE_H

#include <stddef.h>

/* The leaves of Core's MerkleRoot benchmark. */
#define BENCH_MERKLE_LEAVES 9001

/* Writes the Merkle root of the n 32-byte hashes at leaves to root: level by level, each
 * pair's double SHA-256, the last hash of an odd level paired with itself; n = 1 gives that
 * hash, n = 0 zeros. Works in place: leaves is overwritten and must have room for n + 1
 * hashes (32 (n + 1) bytes) when n is odd. When mutated is not NULL, *mutated becomes 1 when
 * some level held two equal hashes at positions 2k and 2k + 1 (a duplicated subtree, the
 * mutation Core's check detects), else 0. */
void bench_merkle_root(unsigned char root[32], unsigned char *leaves, size_t n, int *mutated);

/* Fills hashes (32 * BENCH_MERKLE_LEAVES bytes) with the benchmark's leaves: successive
 * rand256() of FastRandomContext(true), the keystream of the zero key. */
void bench_merkle_leaves(unsigned char *hashes);

#endif
