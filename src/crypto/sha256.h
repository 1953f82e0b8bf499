/* SHA-256 (FIPS 180-4), and double SHA-256 of many 64-byte blocks.
 *
 * A sha256_ctx is a plain value with no pointers inside: the caller allocates
 * it anywhere (stack, struct member, array), nothing needs freeing, and a copy
 * made with `=` is an independent midstate that can be continued separately.
 * All functions accept any alignment and cannot fail. */
#ifndef CRYPTO_SHA256_H
#define CRYPTO_SHA256_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Size of a SHA-256 digest, in bytes. */
#define SHA256_OUTPUT_SIZE 32

/* Hashing context. The fields are private: s is the chaining state, buf holds
 * the (bytes % 64) bytes not yet compressed, bytes counts all input so far. */
typedef struct {
    uint32_t s[8];
    unsigned char buf[64];
    uint64_t bytes;
} sha256_ctx;

/* Starts a new computation in ctx (previous contents are ignored). */
void sha256_init(sha256_ctx *ctx);

/* Appends len bytes from data. Any lengths, any number of calls; data may be
 * NULL when len is 0. Whole 64-byte blocks are compressed straight from data. */
void sha256_write(sha256_ctx *ctx, const void *data, size_t len);

/* Writes the 32-byte digest of everything written since sha256_init to out
 * (which may point into the data written, but not into ctx). ctx is left in
 * an unspecified state: call sha256_init before using it again (copy it
 * first to keep a midstate). */
void sha256_finalize(sha256_ctx *ctx, unsigned char *out);

/* One-shot: out (32 bytes) = SHA-256 of the len bytes at data. */
void sha256_hash(unsigned char *out, const void *data, size_t len);

/* out[32*i .. 32*i+32) = SHA256(SHA256(in[64*i .. 64*i+64))) for i < blocks:
 * in holds 64*blocks bytes, out receives 32*blocks bytes. out may equal in
 * (hashing in place); other overlaps are not allowed. Uses the implementation
 * chosen by sha256_autodetect (portable code until that is called). */
void sha256_d64(unsigned char *out, const unsigned char *in, size_t blocks);

/* Picks the fastest SHA-256 implementation this CPU and OS run correctly,
 * checking each candidate against the portable code first, and returns its
 * name ("standard", "shani(1way,2way)", ...): a static string, never NULL.
 * It is crypto_autodetect (variant.h): every other primitive with variants
 * (SHA-1, SHA-512, ChaCha20, ...) is switched to its fastest too. Safe to call
 * more than once, and from several threads at once (the calls take turns).
 * The first call switches implementations, so no other thread may be hashing
 * then; later ones change and write nothing (unless an implementation was
 * forced in between), so every worker thread may call it before it hashes,
 * while others already do. */
const char *sha256_autodetect(void);

#ifdef __cplusplus
}
#endif

#endif
