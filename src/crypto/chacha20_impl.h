/* Internal to the crypto library: the ChaCha20 block functions behind
 * chacha20.h, one per instruction set, each in its own file built with that
 * instruction set's flags (chacha20_sse41.c, chacha20_avx2.c,
 * chacha20_avx512.c; each exists only when configure found the compiler able
 * to build it). Only ChaCha20's variant set (chacha20_variants.c) and the
 * tests name them; chacha20.c calls whichever is installed in
 * chacha20_blocks_impl.
 *
 * A block function writes `blocks` whole 64-byte blocks of keystream, starting
 * at the block counter in state[12] (low) and state[13] (high), XORed with in
 * when in is not NULL, to out (in and out may be the same buffer, otherwise
 * not overlapping, any alignment), and advances the 64-bit counter in state by
 * blocks (wrapping at 2^64). It changes no other word of state. */
#ifndef CRYPTO_CHACHA20_IMPL_H
#define CRYPTO_CHACHA20_IMPL_H

#include <stddef.h>
#include <stdint.h>

typedef void (*chacha20_blocks_fn)(uint32_t state[16], unsigned char *out,
                                   const unsigned char *in, size_t blocks);

/* Portable C, one block at a time (chacha20.c). */
void chacha20_blocks_portable(uint32_t state[16], unsigned char *out, const unsigned char *in,
                              size_t blocks);

/* 4 blocks at a time with the state transposed across SSE registers, the last
 * 1-3 blocks in rows (see chacha20_x86.h). SSSE3 instructions (pshufb), built
 * and chosen as part of the SSE4.1 group. */
void chacha20_blocks_sse41(uint32_t state[16], unsigned char *out, const unsigned char *in,
                           size_t blocks);

/* 8 blocks at a time transposed across AVX2 registers, the last 1-7 in rows. */
void chacha20_blocks_avx2(uint32_t state[16], unsigned char *out, const unsigned char *in,
                          size_t blocks);

/* 16 blocks at a time transposed across AVX-512 registers, then 8, the last 1-7
 * in rows, all with AVX-512's rotate (F and VL). */
void chacha20_blocks_avx512(uint32_t state[16], unsigned char *out, const unsigned char *in,
                            size_t blocks);

/* The block function in use (chacha20.c): chacha20_blocks_portable until the
 * variant set installs another. */
extern chacha20_blocks_fn chacha20_blocks_impl;

/* Test hook (chacha20_variants.c): the self-test that decides whether a block
 * function may be used (its output and counter against the portable code's on
 * every block count up to 47, keystream and XOR, across a carry from word 12
 * into 13 and the wrap at 2^64, on unaligned buffers), on fn. Returns 1 when
 * fn passes, 0 otherwise; installs nothing. */
int chacha20_impl_selftest(chacha20_blocks_fn fn);

#endif
