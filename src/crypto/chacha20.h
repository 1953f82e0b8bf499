/* ChaCha20 (Bernstein, 2008) in its original layout, as Bitcoin Core's ChaCha20
 * class had it in 2020: a 256-bit key, a 64-bit block counter in state words
 * 12-13 (word 12 carries into word 13) and a 64-bit IV in words 14-15. RFC 7539
 * splits the same 128 bits as a 32-bit counter and a 96-bit nonce; with
 * counter c and nonce (n0, n1, n2), as 32-bit little-endian words, its block
 * is this one's block (n0 << 32 | c) with IV (n2 << 32 | n1).
 *
 * Output is produced a 64-byte block at a time. A call that ends inside a
 * block throws the rest of that block away: the next call starts at the next
 * block (keystream of 10 then 10 bytes gives bytes 0-9 of block 0, then bytes
 * 0-9 of block 1). A call of 0 bytes uses up no block.
 *
 * A chacha20_ctx is a plain value with no pointers inside: caller-allocated,
 * nothing to free, and a copy made with `=` is an independent stream.
 *
 * The work is done by the portable code until crypto_autodetect (variant.h)
 * or sha256_autodetect installs the fastest implementation this CPU runs that
 * agrees with the portable code on a self-test; chacha20_impl_force pins one. */
#ifndef CRYPTO_CHACHA20_H
#define CRYPTO_CHACHA20_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CHACHA20_KEY_SIZE 32
#define CHACHA20_BLOCK_SIZE 64

/* Stream state. Private: the 16 words of the ChaCha20 input block (constants,
 * key, counter low and high, IV low and high). */
typedef struct {
    uint32_t input[16];
} chacha20_ctx;

/* Keys ctx with the 32 bytes at key; block counter 0, IV 0. */
void chacha20_set_key(chacha20_ctx *ctx, const unsigned char key[32]);

/* Sets the 64-bit IV (words 14-15, low word first); the counter is kept. */
void chacha20_set_iv(chacha20_ctx *ctx, uint64_t iv);

/* Sets the 64-bit block counter: the next output starts at byte 64 * block of
 * the stream. */
void chacha20_seek(chacha20_ctx *ctx, uint64_t block);

/* Writes the next len bytes of keystream to out and advances the counter by
 * ceil(len / 64) blocks. out may be NULL when len is 0. */
void chacha20_keystream(chacha20_ctx *ctx, unsigned char *out, size_t len);

/* out = in XOR the next len bytes of keystream, advancing as keystream does.
 * in and out may be the same buffer (not otherwise overlapping); either may be
 * NULL when len is 0. */
void chacha20_crypt(chacha20_ctx *ctx, const unsigned char *in, unsigned char *out, size_t len);

/* ChaCha20's variant set (variant.h): "standard" (portable C), "sse41" (4
 * blocks at a time, SSSE3 instructions), "avx2" (8 blocks), "avx512" (16
 * blocks). impl_list stores in names[0 .. cap) those this build and CPU run and
 * that pass the self-test, "standard" first, and returns how many there are
 * (may exceed cap; names may be NULL when cap is 0). impl_force installs the
 * one called name, or the automatic choice (the widest usable) for "auto", and
 * returns 0, or -1 (nothing changed) when name is unknown, not in this build,
 * not run by this CPU or failing its self-test; not while another thread is
 * using ChaCha20. impl_current names what is installed ("standard" until
 * something is); a static string, never NULL. */
size_t chacha20_impl_list(const char **names, size_t cap);
int chacha20_impl_force(const char *name);
const char *chacha20_impl_current(void);

#ifdef __cplusplus
}
#endif

#endif
