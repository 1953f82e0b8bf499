/* Poly1305 (RFC 8439, section 2.5): a one-time authenticator. A 32-byte key (r, whose bits
 * RFC 8439 says to clear are cleared here, then s) gives a 16-byte tag of a message of any
 * length. A key must authenticate one message only: the AEAD (chacha20poly1305.h) draws a
 * fresh one from ChaCha20 for every message.
 *
 * A poly1305_ctx is a plain value with no pointers inside: the caller allocates it anywhere,
 * nothing needs freeing, and a copy made with `=` is an independent midstate. Besides the
 * accumulator it caches powers of r for the vector implementations (computed once per key,
 * on the first long update), which makes it a few hundred bytes.
 *
 * The work is done by the portable code until crypto_autodetect (variant.h) or
 * sha256_autodetect installs the fastest implementation this CPU runs that agrees with the
 * portable code on a self-test; poly1305_impl_force pins one. Every function accepts any
 * alignment, cannot fail, and does nothing when ctx (or tag, or key) is NULL. */
#ifndef CRYPTO_POLY1305_H
#define CRYPTO_POLY1305_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define POLY1305_KEY_SIZE 32
#define POLY1305_TAG_SIZE 16
#define POLY1305_BLOCK_SIZE 16

/* Authenticator state. Private: the accumulator h (h[0] + h[1] 2^64 + h[2] 2^128, partly
 * reduced), r (clamped) and s as 64-bit words, the bytes of an incomplete 16-byte block,
 * and the powers of r in the layout of the implementation that last needed them
 * (powers_of: which one; 0 when none is cached). */
typedef struct {
    uint64_t h[3];
    uint64_t r[2];
    uint64_t s[2];
    uint64_t powers[48];
    uint32_t powers_of;
    uint32_t used;
    unsigned char buf[16];
} poly1305_ctx;

/* Starts a new tag under the 32-byte key (previous contents of ctx are ignored). */
void poly1305_init(poly1305_ctx *ctx, const unsigned char key[32]);

/* Appends len bytes from data: any lengths, any number of calls (the tag depends on the
 * bytes, not on how they were split); data may be NULL when len is 0. */
void poly1305_update(poly1305_ctx *ctx, const void *data, size_t len);

/* Writes the 16-byte tag of everything appended since poly1305_init to tag. ctx is wiped:
 * call poly1305_init before using it again (copy it first to keep a midstate). */
void poly1305_finalize(poly1305_ctx *ctx, unsigned char tag[16]);

/* One shot: tag = Poly1305 of the len bytes at data under key. */
void poly1305_mac(unsigned char tag[16], const void *data, size_t len, const unsigned char key[32]);

/* Poly1305's variant set (variant.h): "standard" (portable C: radix 2^64 where the compiler
 * has unsigned __int128, radix 2^26 elsewhere), "avx2" (radix 2^26, four blocks a step),
 * "avx512ifma" (radix 2^44, eight blocks a step with AVX-512 IFMA's 52-bit multiplies).
 * impl_list stores in names[0 .. cap) those this build and CPU run and that pass the
 * self-test, "standard" first, and returns how many there are (may exceed cap; names may
 * be NULL when cap is 0). impl_force installs the one called name, or the automatic choice
 * (the last usable) for "auto", and returns 0, or -1 (nothing changed) when name is unknown,
 * not in this build, not run by this CPU or failing its self-test; not while another thread
 * is using Poly1305. impl_current names what is installed ("standard" until something is);
 * a static string, never NULL. */
size_t poly1305_impl_list(const char **names, size_t cap);
int poly1305_impl_force(const char *name);
const char *poly1305_impl_current(void);

#ifdef __cplusplus
}
#endif

#endif
