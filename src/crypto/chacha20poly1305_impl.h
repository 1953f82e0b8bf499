/* Internal to the crypto library: what a variant of the AEAD (chacha20poly1305.h) is, the
 * functions chacha20poly1305.c runs it with, and the one installed. Only the AEAD's variant
 * set (chacha20poly1305_variants.c) and the tests fill such a struct. */
#ifndef CRYPTO_CHACHA20POLY1305_IMPL_H
#define CRYPTO_CHACHA20POLY1305_IMPL_H

#include <stddef.h>

#include "crypto/chacha20_impl.h"
#include "crypto/chacha20poly1305.h"
#include "crypto/poly1305_impl.h"

/* A ChaCha20 block function, a Poly1305 block function (chacha20_impl.h, poly1305_impl.h),
 * and burst: how many blocks the ChaCha20 function is asked for where fewer are needed (the
 * first blocks of a message, with block 0's Poly1305 key, and its last), because that many
 * cost it no more than one (1: exactly what is needed). At most CHACHA20POLY1305_BURST_MAX. */
typedef struct {
    chacha20_blocks_fn chacha;
    poly1305_blocks_fn poly;
    unsigned burst;
} chacha20poly1305_fns;

#define CHACHA20POLY1305_BURST_MAX 16

/* The portable functions, burst 1 (chacha20poly1305.c). */
extern const chacha20poly1305_fns chacha20poly1305_portable;

/* The variant in use: &chacha20poly1305_portable until the variant set installs another. */
extern const chacha20poly1305_fns *chacha20poly1305_impl;

/* chacha20poly1305_encrypt and _decrypt with the functions f, whatever is installed. */
void chacha20poly1305_encrypt_with(const chacha20poly1305_fns *f, chacha20poly1305_ctx *ctx,
                                   const unsigned char nonce[12], const void *aad,
                                   size_t aad_len, const unsigned char *in, size_t len,
                                   unsigned char *out);
int chacha20poly1305_decrypt_with(const chacha20poly1305_fns *f, chacha20poly1305_ctx *ctx,
                                  const unsigned char nonce[12], const void *aad,
                                  size_t aad_len, const unsigned char *in, size_t len,
                                  unsigned char *out);

/* Test hook (chacha20poly1305_variants.c): the self-test that decides whether a variant may
 * be used (encryption against the portable functions' on message lengths around every
 * burst and chunk boundary, with and without additional data, out of place and in place;
 * decryption of each, and refusal of each with a byte of the tag flipped, writing nothing),
 * on f. Returns 1 when f passes, 0 otherwise; installs nothing. */
int chacha20poly1305_impl_selftest(const chacha20poly1305_fns *f);

#endif
