/* Internal to the crypto library: the Poly1305 block functions behind poly1305.h, one per
 * instruction set, each in its own file built with that instruction set's flags
 * (poly1305_avx2.c, poly1305_avx512ifma.c; each exists only when configure found the
 * compiler able to build it). Only the variant sets (poly1305_variants.c,
 * chacha20poly1305_variants.c) and the tests name them; poly1305.c calls whichever is
 * installed in poly1305_blocks_impl.
 *
 * A block function absorbs `blocks` whole 16-byte blocks from in (any alignment), each with
 * the 2^128 bit RFC 8439 appends to a full block: h = (h + block + 2^128) * r, block after
 * block, mod 2^130 - 5. It reads and writes ctx->h (on return h[2] < 8, as every function
 * here leaves it and expects it), reads ctx->r, and may fill ctx->powers with the powers of
 * r in its own layout, marked by its own powers_of id, reusing them on later calls while
 * the mark is its own. It touches nothing else of ctx. */
#ifndef CRYPTO_POLY1305_IMPL_H
#define CRYPTO_POLY1305_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/poly1305.h"

/* Below this many blocks in a call on a context without cached powers every block function
 * runs the portable code: the vector ones would not earn back the powers they make first. */
#define POLY1305_VECTOR_MIN 16

typedef void (*poly1305_blocks_fn)(poly1305_ctx *ctx, const unsigned char *in, size_t blocks);

/* The portable block function (poly1305.c): radix 2^64 with unsigned __int128 where the
 * compiler has it, else poly1305_blocks_radix26. */
void poly1305_blocks_portable(poly1305_ctx *ctx, const unsigned char *in, size_t blocks);

/* Portable radix 2^26 (five 26-bit limbs, 32x32->64 products), always built: the code a
 * compiler without unsigned __int128 gets, tested beside the other on every build. */
void poly1305_blocks_radix26(poly1305_ctx *ctx, const unsigned char *in, size_t blocks);

/* AVX2, radix 2^26: four lanes a step, each multiplied by r^4, from 12 blocks on (24 when
 * the powers are not cached yet); fewer blocks, and the last 0-3, by the portable code.
 * powers_of 1. */
void poly1305_blocks_avx2(poly1305_ctx *ctx, const unsigned char *in, size_t blocks);

/* AVX-512 IFMA (with F and VL), radix 2^44: sixteen lanes (two sets of eight, each multiplied
 * by r^16) a step from 32 blocks on, then eight lanes a step (r^8); below 16 blocks, and the
 * last 0-7, by the portable code. powers_of 2. */
void poly1305_blocks_avx512ifma(poly1305_ctx *ctx, const unsigned char *in, size_t blocks);

/* The block function in use (poly1305.c): poly1305_blocks_portable until the variant set
 * installs another. */
extern poly1305_blocks_fn poly1305_blocks_impl;

/* out = h mod 2^130 - 5 (h[2] < 8), fully reduced, in constant time. */
void poly1305_reduce(const uint64_t h[3], uint64_t out[3]);

/* Brings h[2] (below 2^61) under 8 by folding what lies above 2^130 back in, times 5,
 * after a vector function has left it larger; h's value mod 2^130 - 5 is unchanged. */
static inline void poly1305_fold(uint64_t h[3])
{
    uint64_t c = (h[2] >> 2) * 5, t;
    h[2] &= 3;
    t = h[0] + c;
    c = t < c;
    h[0] = t;
    t = h[1] + c;
    c = t < c;
    h[1] = t;
    h[2] += c;
}

/* h (h[2] < 8) as five 26-bit limbs, the top one below 2^28. */
static inline void poly1305_to26(const uint64_t h[3], uint32_t l[5])
{
    l[0] = (uint32_t)h[0] & 0x3ffffff;
    l[1] = (uint32_t)(h[0] >> 26) & 0x3ffffff;
    l[2] = (uint32_t)(h[0] >> 52 | h[1] << 12) & 0x3ffffff;
    l[3] = (uint32_t)(h[1] >> 14) & 0x3ffffff;
    l[4] = (uint32_t)(h[1] >> 40 | h[2] << 24);
}

/* h = l[0] + l[1] 2^26 + ... + l[4] 2^104 (each limb below 2^58), h[2] < 8 after. */
static inline void poly1305_from26(const uint64_t l_in[5], uint64_t h[3])
{
    uint64_t l0 = l_in[0], l1 = l_in[1], l2 = l_in[2], l3 = l_in[3], l4 = l_in[4];
    l1 += l0 >> 26; l0 &= 0x3ffffff;
    l2 += l1 >> 26; l1 &= 0x3ffffff;
    l3 += l2 >> 26; l2 &= 0x3ffffff;
    l4 += l3 >> 26; l3 &= 0x3ffffff;
    h[0] = l0 | l1 << 26 | l2 << 52;
    h[1] = l2 >> 12 | l3 << 14 | l4 << 40;
    h[2] = l4 >> 24;
    poly1305_fold(h);
}

/* h (h[2] < 8) as 44-, 44- and 42-bit limbs, the top one below 2^43. */
static inline void poly1305_to44(const uint64_t h[3], uint64_t l[3])
{
    l[0] = h[0] & 0xfffffffffff;
    l[1] = (h[0] >> 44 | h[1] << 20) & 0xfffffffffff;
    l[2] = h[1] >> 24 | h[2] << 40;
}

/* h = l[0] + l[1] 2^44 + l[2] 2^88 (each limb below 2^62), h[2] < 8 after. */
static inline void poly1305_from44(const uint64_t l_in[3], uint64_t h[3])
{
    uint64_t l0 = l_in[0], l1 = l_in[1], l2 = l_in[2];
    l1 += l0 >> 44; l0 &= 0xfffffffffff;
    l2 += l1 >> 44; l1 &= 0xfffffffffff;
    h[0] = l0 | l1 << 44;
    h[1] = l1 >> 20 | l2 << 24;
    h[2] = l2 >> 40;
    poly1305_fold(h);
}

/* Test hook (poly1305_variants.c): the self-test that decides whether a block function may
 * be used (its accumulator against the portable code's on every block count up to 80 and
 * several longer runs, chained through one context so that cached powers are reused, from
 * ordinary and all-ones input and an accumulator near 2^130, on unaligned input), on fn.
 * Returns 1 when fn passes, 0 otherwise; installs nothing. */
int poly1305_impl_selftest(poly1305_blocks_fn fn);

#endif
