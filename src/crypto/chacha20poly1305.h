/* ChaCha20-Poly1305 (RFC 8439, section 2.8), the AEAD, as Bitcoin Core's
 * AEADChaCha20Poly1305; and FSChaCha20Poly1305, BIP324's forward-secure wrapper of it.
 *
 * The AEAD: under a 32-byte key and a 12-byte nonce, block 0 of ChaCha20 (RFC 8439's layout:
 * a 32-bit block counter, then the nonce) gives the Poly1305 key, blocks 1, 2, ... encrypt
 * the message, and the tag is Poly1305 of the additional data, zeros to a multiple of 16,
 * the ciphertext, zeros to a multiple of 16, and both lengths as 8 bytes little-endian.
 * Core's nonce {uint32 a, uint64 b} is the 12 bytes a then b, each little-endian. Output is
 * the ciphertext followed by the 16-byte tag. The block counter carries into the nonce's
 * first word past 2^32 blocks (256 GiB), as in Core; RFC 8439 allows no such message.
 *
 * Both contexts are plain values with no pointers inside: caller-allocated, nothing to
 * free, and a copy made with `=` is independent (for the forward-secure one: a copy of the
 * key and both counters, so the two go on to encrypt the same packets). A context holds
 * key material: clear it (memset) when done.
 *
 * The work is done by the portable code until crypto_autodetect (variant.h) or
 * sha256_autodetect installs the fastest implementation this CPU runs that agrees with the
 * portable code on a self-test; chacha20poly1305_impl_force pins one. Each variant makes
 * the keystream and the tag in one pass over the message, a few kilobytes at a time, so the
 * ciphertext is authenticated while it is still in the first-level cache.
 *
 * Every function accepts any alignment. in and out may be the same buffer; otherwise they
 * must not overlap, nor overlap aad. aad may be NULL when aad_len is 0, in and out when len
 * is 0 (out still receives the tag). A NULL ctx, key or nonce makes a function do nothing
 * (decrypt then returns -1). */
#ifndef CRYPTO_CHACHA20POLY1305_H
#define CRYPTO_CHACHA20POLY1305_H

#include <stddef.h>
#include <stdint.h>

#include "chacha20.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CHACHA20POLY1305_KEY_SIZE 32
#define CHACHA20POLY1305_NONCE_SIZE 12
#define CHACHA20POLY1305_TAG_SIZE 16
/* What encryption adds to a message: the tag. */
#define CHACHA20POLY1305_EXPANSION 16

/* The AEAD's state. Private: the key, as a ChaCha20 state. */
typedef struct {
    chacha20_ctx chacha;
} chacha20poly1305_ctx;

/* Keys ctx with the 32 bytes at key. */
void chacha20poly1305_init(chacha20poly1305_ctx *ctx, const unsigned char key[32]);

/* out[0 .. len) = in encrypted under nonce, out[len .. len + 16) = the tag over aad and that
 * ciphertext. */
void chacha20poly1305_encrypt(chacha20poly1305_ctx *ctx, const unsigned char nonce[12],
                              const void *aad, size_t aad_len,
                              const unsigned char *in, size_t len, unsigned char *out);

/* in holds len bytes of ciphertext and the 16-byte tag. When the tag matches (compared in
 * constant time) writes the len bytes of plaintext to out and returns 0; otherwise returns
 * -1 and writes nothing. */
int chacha20poly1305_decrypt(chacha20poly1305_ctx *ctx, const unsigned char nonce[12],
                             const void *aad, size_t aad_len,
                             const unsigned char *in, size_t len, unsigned char *out);

/* BIP324's FSChaCha20Poly1305. Private: the AEAD under the current key, the packets until
 * the next rekey are counted in packet (0 .. interval - 1), the rekeys so far in rekey. */
typedef struct {
    chacha20poly1305_ctx aead;
    uint32_t interval;
    uint32_t packet;
    uint64_t rekey;
} fschacha20poly1305_ctx;

/* Keys ctx with key; packet counter 0. Packet number p (from 0) is encrypted with nonce
 * (p mod rekey_interval) as 4 bytes little-endian, then (p div rekey_interval) as 8; after
 * every rekey_interval packets the key becomes the first 32 bytes of the AEAD encryption of
 * 32 zero bytes under the current key with nonce 0xffffffff (4 bytes little-endian) then the
 * number of rekeys so far (8 bytes little-endian). BIP324 uses 224. An interval of 0 counts
 * as 2^32, as Core's 32-bit counter makes it. */
void fschacha20poly1305_init(fschacha20poly1305_ctx *ctx, const unsigned char key[32],
                             uint32_t rekey_interval);

/* chacha20poly1305_encrypt of the next packet (out: len + 16 bytes); advances the packet
 * counter. */
void fschacha20poly1305_encrypt(fschacha20poly1305_ctx *ctx, const void *aad, size_t aad_len,
                                const unsigned char *in, size_t len, unsigned char *out);

/* chacha20poly1305_decrypt of the next packet (in: len + 16 bytes): 0, or -1 with nothing
 * written. Advances the packet counter either way, as Core does. */
int fschacha20poly1305_decrypt(fschacha20poly1305_ctx *ctx, const void *aad, size_t aad_len,
                               const unsigned char *in, size_t len, unsigned char *out);

/* The AEAD's variant set (variant.h), whose variants pair a ChaCha20 block function with a
 * Poly1305 one (chacha20.h, poly1305.h): "standard" (both portable), "sse41" (ChaCha20 four
 * blocks at a time, Poly1305 portable), "avx2", "avx512" (AVX-512 ChaCha20, AVX2 Poly1305)
 * and "avx512ifma" (AVX-512 ChaCha20, IFMA Poly1305). The functions behave as
 * chacha20_impl_list, chacha20_impl_force and chacha20_impl_current do for ChaCha20. */
size_t chacha20poly1305_impl_list(const char **names, size_t cap);
int chacha20poly1305_impl_force(const char *name);
const char *chacha20poly1305_impl_current(void);

#ifdef __cplusplus
}
#endif

#endif
