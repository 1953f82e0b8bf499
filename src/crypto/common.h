/* Internal to the crypto library: byte-order loads and stores and rotations.
 *
 * The loads and stores assemble words byte by byte, so they work at any
 * alignment on any host; GCC and Clang recognise the pattern and emit one
 * (possibly byte-swapping) move. Rotation counts must be in 1..width-1 for
 * the plain forms; the masked expression keeps even 0 free of undefined
 * behaviour and still compiles to one rotate instruction. */
#ifndef CRYPTO_COMMON_H
#define CRYPTO_COMMON_H

#include <stdint.h>

static inline uint32_t load32_be(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline uint32_t load32_le(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t load64_be(const unsigned char *p)
{
    return (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 | (uint64_t)p[2] << 40
        | (uint64_t)p[3] << 32 | (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16
        | (uint64_t)p[6] << 8 | (uint64_t)p[7];
}

static inline uint64_t load64_le(const unsigned char *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16
        | (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40
        | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static inline void store32_be(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static inline void store32_le(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static inline void store64_be(unsigned char *p, uint64_t v)
{
    store32_be(p, (uint32_t)(v >> 32));
    store32_be(p + 4, (uint32_t)v);
}

static inline void store64_le(unsigned char *p, uint64_t v)
{
    store32_le(p, (uint32_t)v);
    store32_le(p + 4, (uint32_t)(v >> 32));
}

static inline uint32_t rotl32(uint32_t x, unsigned n)
{
    return (x << (n & 31)) | (x >> (-n & 31));
}

static inline uint32_t rotr32(uint32_t x, unsigned n)
{
    return (x >> (n & 31)) | (x << (-n & 31));
}

static inline uint64_t rotl64(uint64_t x, unsigned n)
{
    return (x << (n & 63)) | (x >> (-n & 63));
}

static inline uint64_t rotr64(uint64_t x, unsigned n)
{
    return (x >> (n & 63)) | (x << (-n & 63));
}

#endif
