/* The AEAD's variant set (variant_impl.h): pairs of a ChaCha20 and a Poly1305 block function
 * (chacha20poly1305_impl.h), each pair checked against the portable one on whole messages,
 * and the pointer the chosen pair is installed in (chacha20poly1305_impl,
 * chacha20poly1305.c). The block functions are ChaCha20's and Poly1305's own; a pair is
 * chosen here, apart from their sets, because the AEAD's speed depends on the pair and on
 * the burst that suits its ChaCha20 function. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "crypto/chacha20poly1305.h"
#include "crypto/chacha20poly1305_impl.h"
#include "crypto/variant_impl.h"

/* Slowest first; the automatic choice is the last usable. The bursts: what the first and
 * last steps compute at most in one call, and from how many blocks on the whole burst is
 * cheaper (eight blocks cost the AVX2 and AVX-512 functions less than seven; doc/crypto.md). */
static const crypto_variant aead_table[] = {
    {"standard", 0, &chacha20poly1305_portable},
#ifdef ENABLE_SSE41
    {"sse41", CPU_SSE41,
     &(const chacha20poly1305_fns){chacha20_blocks_sse41, poly1305_blocks_portable, 4, 4}},
#endif
#ifdef ENABLE_AVX2
    {"avx2", CPU_AVX2,
     &(const chacha20poly1305_fns){chacha20_blocks_avx2, poly1305_blocks_avx2, 8, 7}},
#endif
#if defined(ENABLE_AVX512) && defined(ENABLE_AVX2)
    {"avx512", CPU_AVX512 | CPU_AVX2,
     &(const chacha20poly1305_fns){chacha20_blocks_avx512, poly1305_blocks_avx2, 8, 7}},
#endif
#ifdef ENABLE_AVX512IFMA
    {"avx512ifma", CPU_AVX512 | CPU_AVX512IFMA,
     &(const chacha20poly1305_fns){chacha20_blocks_avx512, poly1305_blocks_avx512ifma,
                                   8, 7}},
#endif
};

/* Message lengths around every boundary a variant has: bursts of up to 16 blocks (the
 * first step holds block 0 and up to burst - 1 data blocks; the last one, after a first
 * step of 8, 6 or 7 whole blocks and a partial one), the 4 KiB middle steps, and
 * Poly1305's 16-byte blocks and vector thresholds. */
static const unsigned short lengths[] = {
    0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 191, 192, 193, 255, 256, 257, 319, 320, 321,
    447, 448, 449, 511, 512, 513, 833, 895, 959, 960, 961, 1023, 1024, 1025, 4095, 4096, 4097,
    4160, 4161, 4351, 8192 + 1023
};
#define MAX_LEN (8192 + 1023)
static const unsigned char aad_lengths[] = {0, 12, 33};

/* f against the portable functions on every length above with each additional-data
 * length, from unaligned buffers: the ciphertext and tag out of place and in place; the
 * decryption of each (out of place and in place); and, with one byte of the tag flipped, a
 * refusal that writes nothing. */
static int aead_ok(const chacha20poly1305_fns *f)
{
    /* static: under the variant lock, one self-test at a time */
    static unsigned char raw_msg[MAX_LEN + 1], raw_ref[MAX_LEN + 17], raw_got[MAX_LEN + 17],
        raw_back[MAX_LEN + 17];
    unsigned char *msg = raw_msg + 1, *ref = raw_ref + 1, *got = raw_got + 1;
    unsigned char *back = raw_back + 1, key[32], nonce[12], aad[33];
    chacha20poly1305_ctx ctx;

    crypto_variant_test_fill(msg, MAX_LEN, 0x6a09e667);
    crypto_variant_test_fill(key, sizeof key, 0xbb67ae85);
    crypto_variant_test_fill(nonce, sizeof nonce, 0x3c6ef372);
    crypto_variant_test_fill(aad, sizeof aad, 0xa54ff53a);
    chacha20poly1305_init(&ctx, key);
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        for (size_t j = 0; j < sizeof aad_lengths; j++) {
            size_t len = lengths[i], al = aad_lengths[j];
            nonce[0] = (unsigned char)i;
            chacha20poly1305_encrypt_with(&chacha20poly1305_portable, &ctx, nonce, aad, al,
                                          msg, len, ref);
            chacha20poly1305_encrypt_with(f, &ctx, nonce, aad, al, msg, len, got);
            if (memcmp(ref, got, len + 16) != 0)
                return 0;
            memcpy(got, msg, len);
            chacha20poly1305_encrypt_with(f, &ctx, nonce, aad, al, got, len, got);
            if (memcmp(ref, got, len + 16) != 0)
                return 0;
            memset(back, 0, len);
            if (chacha20poly1305_decrypt_with(f, &ctx, nonce, aad, al, ref, len, back) != 0
                || memcmp(back, msg, len) != 0)
                return 0;
            if (chacha20poly1305_decrypt_with(f, &ctx, nonce, aad, al, got, len, got) != 0
                || memcmp(got, msg, len) != 0)
                return 0;
            ref[len + i % 16] ^= 0x10;
            memset(back, 0xa5, len);
            if (chacha20poly1305_decrypt_with(f, &ctx, nonce, aad, al, ref, len, back) != -1)
                return 0;
            for (size_t k = 0; k < len; k++)
                if (back[k] != 0xa5)
                    return 0;
        }
    }
    return 1;
}

static int aead_selftest(const crypto_variant *v)
{
    return aead_ok(v->impl);
}

static void aead_install(unsigned use);

CRYPTO_VARIANT_SET_DEFINE(chacha20poly1305, "ChaCha20-Poly1305", aead_table, aead_selftest,
                          aead_install, NULL, NULL)
CRYPTO_VARIANT_WRAPPERS(chacha20poly1305)

static void aead_install(unsigned use)
{
    chacha20poly1305_impl = crypto_variant_last_in_use(&chacha20poly1305_variant_set, use);
}

int chacha20poly1305_impl_selftest(const chacha20poly1305_fns *f)
{
    const crypto_variant v = {"test", 0, f};
    return crypto_variant_selftest(&chacha20poly1305_variant_set, &v);
}
