/* Internal to the crypto library: byte-order loads and stores, rotations, and
 * the block buffering that SHA-1, SHA-256, SHA-512 and RIPEMD-160 share.
 *
 * The loads and stores assemble words byte by byte, so they work at any
 * alignment on any host; GCC and Clang recognise the pattern and emit one
 * (possibly byte-swapping) move. Rotation counts must be in 1..width-1 for
 * the plain forms; the masked expression keeps even 0 free of undefined
 * behaviour and still compiles to one rotate instruction. */
#ifndef CRYPTO_COMMON_H
#define CRYPTO_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* ---- SHA-2 rounds ----------------------------------------------------------
 *
 * SHA-256 and SHA-512 share the round (FIPS 180-4 6.2.2 and 6.4.2 step 3) on
 * words of type T, with the including file's BSIG0, BSIG1 and CH (expanded
 * where the round is used). kw is K[t] + W[t]. Only d and h change. Maj(a, b,
 * c) is b ^ ((a ^ b) & (b ^ c)), and this round's a ^ b is the next round's
 * b ^ c: ab receives it, bc holds the previous round's. */
#define SHA2_RND(T, a, b, c, d, e, f, g, h, kw, ab, bc) do { \
        T t1_ = (h) + BSIG1(e) + CH(e, f, g) + (kw); \
        (ab) = (a) ^ (b); \
        (d) += t1_; \
        (h) = t1_ + BSIG0(a) + ((b) ^ ((ab) & (bc))); \
    } while (0)

/* Eight rounds from t on the working variables a..h (renamed each round,
 * never moved) and the Maj helpers x, y; KW(t) gives K[t] + W[t]. */
#define SHA2_RND8(T, t, KW) \
    SHA2_RND(T, a, b, c, d, e, f, g, h, KW((t) + 0), x, y); \
    SHA2_RND(T, h, a, b, c, d, e, f, g, KW((t) + 1), y, x); \
    SHA2_RND(T, g, h, a, b, c, d, e, f, KW((t) + 2), x, y); \
    SHA2_RND(T, f, g, h, a, b, c, d, e, KW((t) + 3), y, x); \
    SHA2_RND(T, e, f, g, h, a, b, c, d, KW((t) + 4), x, y); \
    SHA2_RND(T, d, e, f, g, h, a, b, c, KW((t) + 5), y, x); \
    SHA2_RND(T, c, d, e, f, g, h, a, b, KW((t) + 6), x, y); \
    SHA2_RND(T, b, c, d, e, f, g, h, a, KW((t) + 7), y, x)

/* ---- SHA-1 rounds ----------------------------------------------------------
 *
 * The three round functions of FIPS 180-4 4.1.1, in forms with fewer
 * operations (Ch as a select, Maj with an or-of-ands), and one round
 * (6.1.2 step 3) with the working variables renamed rather than moved: only
 * e (the new a) and b change. kw is K[t] + W[t]. */
#define SHA1_CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define SHA1_PARITY(x, y, z) ((x) ^ (y) ^ (z))
#define SHA1_MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))
#define SHA1_RND(a, b, c, d, e, F, kw) do { \
        (e) += rotl32(a, 5) + F(b, c, d) + (kw); \
        (b) = rotl32(b, 30); \
    } while (0)

/* ---- Merkle-Damgard buffering -------------------------------------------
 *
 * The four digests keep the same context shape: a chaining state, a buffer
 * of one block holding the (bytes % block) input bytes not yet compressed,
 * and the count of all bytes written. These helpers do the buffering and
 * the padding once for all of them. They are static inline and each caller
 * passes a constant block size and a constant compression function (a small
 * static wrapper over the hash's transform), so the compiler specialises
 * every use as if it had been written out by hand. block must be a power of
 * two. */

/* Compresses n consecutive blocks at p into state. */
typedef void (*md_compress_fn)(void *state, const unsigned char *p, size_t n);

/* Copies n bytes into the block buffer: 16 at a time, then byte by byte.
 * The SIMD transforms read the buffer 16 bytes at a time, and a load is
 * served from the store queue only when one store covers it: written in the
 * 8-byte pieces the compiler's inline memcpy uses, a freshly buffered short
 * message costs a forwarding stall on every read. */
static inline void md_copy(unsigned char *d, const unsigned char *s, size_t n)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        memcpy(d + i, s + i, 16);
    for (; i < n; i++)
        d[i] = s[i];
}

/* Appends len bytes at data: fills the buffer, compresses whole blocks
 * straight from data, keeps the tail. */
static inline void md_write(void *state, unsigned char *buf, uint64_t *bytes, size_t block,
                            md_compress_fn compress, const void *data, size_t len)
{
    const unsigned char *p = data;
    size_t used = (size_t)(*bytes & (block - 1));

    *bytes += len;
    if (used) {
        size_t room = block - used;
        if (len < room) {
            md_copy(buf + used, p, len);
            return;
        }
        md_copy(buf + used, p, room);
        compress(state, buf, 1);
        p += room;
        len -= room;
    }
    if (len >= block) {
        size_t n = len / block;
        compress(state, p, n);
        p += block * n;
        len -= block * n;
    }
    md_copy(buf, p, len);
}

/* Pads the message and compresses the last block or two: a 0x80 byte, zeros,
 * then the message length in bits in the last len_size bytes of a block (8,
 * or 16 for SHA-512; big-endian, or little-endian for RIPEMD-160 when
 * big_endian is 0). A 16-byte field gets the bits of bytes * 8 above 64 in
 * its high half. buf is left holding the last padded block. */
static inline void md_pad(void *state, unsigned char *buf, uint64_t bytes, size_t block,
                          size_t len_size, int big_endian, md_compress_fn compress)
{
    size_t used = (size_t)(bytes & (block - 1));

    buf[used++] = 0x80;
    if (used > block - len_size) {
        memset(buf + used, 0, block - used);
        compress(state, buf, 1);
        used = 0;
    }
    memset(buf + used, 0, block - 8 - used);
    if (!big_endian) {
        store64_le(buf + block - 8, bytes << 3);
    } else {
        if (len_size > 8)
            store64_be(buf + block - 16, bytes >> 61);
        store64_be(buf + block - 8, bytes << 3);
    }
    compress(state, buf, 1);
}

/* The finish of the big-endian 32-bit-word digests with 64-byte blocks
 * (SHA-1, SHA-256): md_pad, then the first words words of the state to out. */
static inline void md_finish_be32(uint32_t *state, size_t words, unsigned char *buf,
                                  uint64_t bytes, md_compress_fn compress, unsigned char *out)
{
    md_pad(state, buf, bytes, 64, 8, 1, compress);
    for (size_t i = 0; i < words; i++)
        store32_be(out + 4 * i, state[i]);
}

#endif
