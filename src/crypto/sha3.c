/* SHA3-256, written from FIPS 202 (sections 3.2, 4, 5.1 and 6.1).
 *
 * Keccak-f[1600] is unrolled by rounds: the 25 lanes live in local variables
 * (aXY is lane x + 5y), each round reads one set of 25 and writes the other
 * (a to e, then e back to a), so nothing is ever moved, and a pair of rounds
 * is one trip of a 12-trip loop. Within a round the steps are fused per
 * output row: theta's column parities first, then for each of the five rows
 * of the result the five lanes that rho and pi bring there (lane (x, y) goes
 * to (y, 2x + 3y), so row Y gathers lanes ((X + 3Y) mod 5, X)), each xored
 * with its theta term and rotated, then chi across the row; iota on lane 0.
 * Blocks are absorbed with the lanes kept in local variables from one block
 * to the next.
 *
 * Chi (b0 ^ (~b1 & b2)) would cost a NOT per lane, 25 a round. Instead six
 * lanes, (1,0) (2,0) (3,1) (2,2) (2,3) (0,4), are held complemented while the
 * permutation runs (complemented on load, restored on store, so a context
 * always holds the true state). Theta's parities and terms carry the
 * complements through xor and rotation, so each chi input arrives either
 * true or complemented in a pattern fixed for its position; each chi output
 * is then written as an AND or an OR of the inputs as they arrive
 * (~x & y = ~(x | ~y)), chosen so that the result comes out complemented
 * exactly where the next round expects it. One NOT per row remains, five a
 * round. With 1 MB at a time this puts the portable code level with
 * OpenSSL's x86-64 assembly (doc/measurements.md). */
#include "crypto/sha3.h"

#include <string.h>

#include "crypto/common.h"

#define SHA3_256_RATE 136   /* bytes: 1600 - 2 * 256 bits */

/* Iota's round constants (FIPS 202 3.2.5), one per round. */
static const uint64_t keccak_rc[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL,
    0x8000000080008000ULL, 0x000000000000808bULL, 0x0000000080000001ULL,
    0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008aULL,
    0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL,
    0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL,
    0x000000000000800aULL, 0x800000008000000aULL, 0x8000000080008081ULL,
    0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

/* One round from the lanes S##XY to the lanes T##XY, both with the six lanes
 * above complemented; rc is iota's constant. The rotation of lane (x, y) is
 * rho's offset for it (FIPS 202 table 2); nb is the row's one complemented
 * chi input. */
#define KECCAK_ROUND(S, T, rc) do { \
        uint64_t c0, c1, c2, c3, c4, d0, d1, d2, d3, d4, b0, b1, b2, b3, b4, nb; \
        c0 = S##00 ^ S##01 ^ S##02 ^ S##03 ^ S##04; \
        c1 = S##10 ^ S##11 ^ S##12 ^ S##13 ^ S##14; \
        c2 = S##20 ^ S##21 ^ S##22 ^ S##23 ^ S##24; \
        c3 = S##30 ^ S##31 ^ S##32 ^ S##33 ^ S##34; \
        c4 = S##40 ^ S##41 ^ S##42 ^ S##43 ^ S##44; \
        d0 = c4 ^ rotl64(c1, 1); \
        d1 = c0 ^ rotl64(c2, 1); \
        d2 = c1 ^ rotl64(c3, 1); \
        d3 = c2 ^ rotl64(c4, 1); \
        d4 = c3 ^ rotl64(c0, 1); \
        b0 = S##00 ^ d0; \
        b1 = rotl64(S##11 ^ d1, 44); \
        b2 = rotl64(S##22 ^ d2, 43); \
        b3 = rotl64(S##33 ^ d3, 21); \
        b4 = rotl64(S##44 ^ d4, 14); \
        nb = ~b2; \
        T##00 = b0 ^ (b1 | b2) ^ (rc); \
        T##10 = b1 ^ (nb | b3); \
        T##20 = b2 ^ (b3 & b4); \
        T##30 = b3 ^ (b4 | b0); \
        T##40 = b4 ^ (b0 & b1); \
        b0 = rotl64(S##30 ^ d3, 28); \
        b1 = rotl64(S##41 ^ d4, 20); \
        b2 = rotl64(S##02 ^ d0, 3); \
        b3 = rotl64(S##13 ^ d1, 45); \
        b4 = rotl64(S##24 ^ d2, 61); \
        nb = ~b4; \
        T##01 = b0 ^ (b1 | b2); \
        T##11 = b1 ^ (b2 & b3); \
        T##21 = b2 ^ (b3 | nb); \
        T##31 = b3 ^ (b4 | b0); \
        T##41 = b4 ^ (b0 & b1); \
        b0 = rotl64(S##10 ^ d1, 1); \
        b1 = rotl64(S##21 ^ d2, 6); \
        b2 = rotl64(S##32 ^ d3, 25); \
        b3 = rotl64(S##43 ^ d4, 8); \
        b4 = rotl64(S##04 ^ d0, 18); \
        nb = ~b3; \
        T##02 = b0 ^ (b1 | b2); \
        T##12 = b1 ^ (b2 & b3); \
        T##22 = b2 ^ (nb & b4); \
        T##32 = nb ^ (b4 | b0); \
        T##42 = b4 ^ (b0 & b1); \
        b0 = rotl64(S##40 ^ d4, 27); \
        b1 = rotl64(S##01 ^ d0, 36); \
        b2 = rotl64(S##12 ^ d1, 10); \
        b3 = rotl64(S##23 ^ d2, 15); \
        b4 = rotl64(S##34 ^ d3, 56); \
        nb = ~b3; \
        T##03 = b0 ^ (b1 & b2); \
        T##13 = b1 ^ (b2 | b3); \
        T##23 = b2 ^ (nb | b4); \
        T##33 = nb ^ (b4 & b0); \
        T##43 = b4 ^ (b0 | b1); \
        b0 = rotl64(S##20 ^ d2, 62); \
        b1 = rotl64(S##31 ^ d3, 55); \
        b2 = rotl64(S##42 ^ d4, 39); \
        b3 = rotl64(S##03 ^ d0, 41); \
        b4 = rotl64(S##14 ^ d1, 2); \
        nb = ~b1; \
        T##04 = b0 ^ (nb & b2); \
        T##14 = nb ^ (b2 | b3); \
        T##24 = b2 ^ (b3 & b4); \
        T##34 = b3 ^ (b4 | b0); \
        T##44 = b4 ^ (b0 & b1); \
    } while (0)

/* For n blocks: xors the next 136 bytes at p into the rate (the first 17
 * lanes), then permutes; with p NULL only permutes, n times. The lanes
 * marked ~ on load and store are the complemented six. */
static void keccak_absorb(uint64_t s[25], const unsigned char *p, size_t n)
{
    uint64_t a00, a10, a20, a30, a40, a01, a11, a21, a31, a41, a02, a12, a22,
        a32, a42, a03, a13, a23, a33, a43, a04, a14, a24, a34, a44;
    uint64_t e00, e10, e20, e30, e40, e01, e11, e21, e31, e41, e02, e12, e22,
        e32, e42, e03, e13, e23, e33, e43, e04, e14, e24, e34, e44;
    a00 = s[0];
    a10 = ~s[1];
    a20 = ~s[2];
    a30 = s[3];
    a40 = s[4];
    a01 = s[5];
    a11 = s[6];
    a21 = s[7];
    a31 = ~s[8];
    a41 = s[9];
    a02 = s[10];
    a12 = s[11];
    a22 = ~s[12];
    a32 = s[13];
    a42 = s[14];
    a03 = s[15];
    a13 = s[16];
    a23 = ~s[17];
    a33 = s[18];
    a43 = s[19];
    a04 = ~s[20];
    a14 = s[21];
    a24 = s[22];
    a34 = s[23];
    a44 = s[24];

    while (n--) {
        if (p) {
            a00 ^= load64_le(p + 0);
            a10 ^= load64_le(p + 8);
            a20 ^= load64_le(p + 16);
            a30 ^= load64_le(p + 24);
            a40 ^= load64_le(p + 32);
            a01 ^= load64_le(p + 40);
            a11 ^= load64_le(p + 48);
            a21 ^= load64_le(p + 56);
            a31 ^= load64_le(p + 64);
            a41 ^= load64_le(p + 72);
            a02 ^= load64_le(p + 80);
            a12 ^= load64_le(p + 88);
            a22 ^= load64_le(p + 96);
            a32 ^= load64_le(p + 104);
            a42 ^= load64_le(p + 112);
            a03 ^= load64_le(p + 120);
            a13 ^= load64_le(p + 128);
            p += SHA3_256_RATE;
        }
        for (size_t i = 0; i < 24; i += 2) {
            KECCAK_ROUND(a, e, keccak_rc[i]);
            KECCAK_ROUND(e, a, keccak_rc[i + 1]);
        }
    }
    s[0] = a00;
    s[1] = ~a10;
    s[2] = ~a20;
    s[3] = a30;
    s[4] = a40;
    s[5] = a01;
    s[6] = a11;
    s[7] = a21;
    s[8] = ~a31;
    s[9] = a41;
    s[10] = a02;
    s[11] = a12;
    s[12] = ~a22;
    s[13] = a32;
    s[14] = a42;
    s[15] = a03;
    s[16] = a13;
    s[17] = ~a23;
    s[18] = a33;
    s[19] = a43;
    s[20] = ~a04;
    s[21] = a14;
    s[22] = a24;
    s[23] = a34;
    s[24] = a44;
}

/* Xors len bytes at p into the state from byte offset pos of the rate. */
static void xor_bytes(uint64_t s[25], size_t pos, const unsigned char *p, size_t len)
{
    for (size_t i = 0; i < len; i++, pos++)
        s[pos / 8] ^= (uint64_t)p[i] << (8 * (pos % 8));
}

void sha3_256_init(sha3_256_ctx *ctx)
{
    memset(ctx->s, 0, sizeof ctx->s);
    ctx->used = 0;
}

void sha3_256_write(sha3_256_ctx *ctx, const void *data, size_t len)
{
    const unsigned char *p = data;
    size_t used = ctx->used;

    if (used) {
        size_t room = SHA3_256_RATE - used;
        if (len < room) {
            xor_bytes(ctx->s, used, p, len);
            ctx->used = (uint32_t)(used + len);
            return;
        }
        xor_bytes(ctx->s, used, p, room);
        keccak_absorb(ctx->s, NULL, 1);
        p += room;
        len -= room;
    }
    if (len >= SHA3_256_RATE) {
        size_t n = len / SHA3_256_RATE;
        keccak_absorb(ctx->s, p, n);
        p += n * SHA3_256_RATE;
        len -= n * SHA3_256_RATE;
    }
    xor_bytes(ctx->s, 0, p, len);
    ctx->used = (uint32_t)len;
}

void sha3_256_finalize(sha3_256_ctx *ctx, unsigned char *out)
{
    /* SHA-3's domain bits 01, then pad10*1: the first pad bit lands right
     * after them (0x06 together), the last is the rate's top bit. */
    ctx->s[ctx->used / 8] ^= (uint64_t)0x06 << (8 * (ctx->used % 8));
    ctx->s[(SHA3_256_RATE - 1) / 8] ^= (uint64_t)0x80 << (8 * ((SHA3_256_RATE - 1) % 8));
    keccak_absorb(ctx->s, NULL, 1);
    for (size_t i = 0; i < SHA3_256_OUTPUT_SIZE / 8; i++)
        store64_le(out + 8 * i, ctx->s[i]);
    ctx->used = 0;
}

void sha3_256_hash(unsigned char *out, const void *data, size_t len)
{
    sha3_256_ctx ctx;
    sha3_256_init(&ctx);
    sha3_256_write(&ctx, data, len);
    sha3_256_finalize(&ctx, out);
}
