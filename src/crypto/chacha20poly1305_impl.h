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
 * burst and burst_from. burst: the most blocks the first step (block 0, with Poly1305's
 * key, and the first data blocks) and the last step (the blocks around the message's end)
 * compute in one call of the ChaCha20 function into a buffer, at most
 * CHACHA20POLY1305_BURST_MAX. Each computes the blocks it needs, or the whole burst when it
 * needs burst_from blocks or more (1 <= burst_from <= burst), where the function takes no
 * longer for the burst than for that many. */
typedef struct {
    chacha20_blocks_fn chacha;
    poly1305_blocks_fn poly;
    unsigned burst;
    unsigned burst_from;
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
