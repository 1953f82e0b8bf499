/* ChaCha20-Poly1305 and FSChaCha20Poly1305 (see chacha20poly1305.h), in one pass over the
 * message with the functions of the variant in use (chacha20poly1305_impl.h).
 *
 * A message goes in three kinds of steps. The first computes block 0 (the Poly1305 key)
 * and the first data blocks in one call of up to a burst of blocks, into a buffer; the
 * middle ones encrypt up to CHUNK_BLOCKS whole blocks straight from in to out, and Poly1305
 * then reads the ciphertext just written while it is still in the first-level cache; the
 * last computes the blocks around the message's end, again one call into the buffer. A
 * vector ChaCha20 computes a few blocks for about the price of one, so a message of a few
 * blocks costs one call. Decryption cannot write before the tag is checked: it
 * authenticates the whole ciphertext first, then decrypts in the same steps. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "crypto/chacha20poly1305.h"
#include "crypto/chacha20poly1305_impl.h"
#include "crypto/common.h"
#include "crypto/poly1305.h"

/* 64 blocks (4 KiB) a middle step: the plaintext and ciphertext of a step stay in the
 * first-level cache until Poly1305 has read them, and a Poly1305 call is long enough for
 * the vector functions' fixed costs to vanish. */
#define CHUNK_BLOCKS 64

const chacha20poly1305_fns chacha20poly1305_portable = {
    chacha20_blocks_portable, poly1305_blocks_portable, 1, 1
};

const chacha20poly1305_fns *chacha20poly1305_impl = &chacha20poly1305_portable;

void chacha20poly1305_init(chacha20poly1305_ctx *ctx, const unsigned char key[32])
{
    if (ctx != NULL && key != NULL)
        chacha20_set_key(&ctx->chacha, key);
}

/* The ChaCha20 state of block 0 under nonce: RFC 8439's word 12 is the block counter, 13-15
 * the nonce, which in chacha20_ctx's layout are the counter's high word and the IV. */
static void nonce_state(uint32_t st[16], const chacha20poly1305_ctx *ctx,
                        const unsigned char nonce[12])
{
    memcpy(st, ctx->chacha.input, 12 * sizeof st[0]);
    st[12] = 0;
    st[13] = load32_le(nonce);
    st[14] = load32_le(nonce + 4);
    st[15] = load32_le(nonce + 8);
}

/* Absorbs len bytes and zeros to a multiple of 16. */
static void mac_padded(const chacha20poly1305_fns *f, poly1305_ctx *p, const unsigned char *d,
                       size_t len)
{
    size_t whole = len / 16;
    if (whole > 0)
        f->poly(p, d, whole);
    if (len % 16) {
        unsigned char last[16] = {0};
        memcpy(last, d + 16 * whole, len % 16);
        f->poly(p, last, 1);
    }
}

/* out = in XOR ks, n bytes. */
static void xor_bytes(unsigned char *out, const unsigned char *in, const unsigned char *ks,
                      size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (unsigned char)(in[i] ^ ks[i]);
}

/* The keystream call of a step that needs blocks (at most a burst): those, or the whole
 * burst where that costs no more. */
static size_t burst_of(const chacha20poly1305_fns *f, size_t blocks)
{
    return blocks >= f->burst_from ? f->burst : blocks;
}

/* The keystream buffer of the first step: block 0 and the first data blocks. */
typedef struct {
    unsigned char ks[64 * CHACHA20POLY1305_BURST_MAX];
    size_t blocks;
} head;

/* Computes the first step's blocks from block 0 (st on block 0, left after them). */
static void head_blocks(const chacha20poly1305_fns *f, uint32_t st[16], head *h, size_t len)
{
    size_t need = 1 + (len + 63) / 64;
    if (need > f->burst)
        need = f->burst;
    h->blocks = burst_of(f, need);
    f->chacha(st, h->ks, NULL, h->blocks);
}

/* out = in XOR the keystream from byte 0 of block 1, len bytes: the head's blocks first,
 * then the middle and last steps from st. With p, absorbs each step's output (the
 * ciphertext) as whole blocks, the last one padded. */
static void crypt_steps(const chacha20poly1305_fns *f, uint32_t st[16], head *h,
                        const unsigned char *in, size_t len, unsigned char *out,
                        poly1305_ctx *p)
{
    size_t done = 64 * (h->blocks - 1), whole, keep;
    if (done > len)
        done = len;
    xor_bytes(out, in, h->ks + 64, done);
    if (p)
        mac_padded(f, p, out, done);
    if (done == len)
        return;
    /* Whole blocks straight through; but where a partial block is left and the whole blocks
     * fit beside it in a burst, all of them in the last step's one call. */
    whole = (len - done) / 64;
    keep = f->burst > 1 && (len - done) % 64 != 0 && whole < f->burst ? whole : 0;
    for (whole -= keep; whole > 0;) {
        size_t n = whole < CHUNK_BLOCKS ? whole : CHUNK_BLOCKS;
        f->chacha(st, out + done, in + done, n);
        if (p)
            f->poly(p, out + done, 4 * n);
        done += 64 * n;
        whole -= n;
    }
    if (done < len) {
        size_t rest = len - done;   /* at most a burst */
        f->chacha(st, h->ks, NULL, burst_of(f, (rest + 63) / 64));
        xor_bytes(out + done, in + done, h->ks, rest);
        if (p)
            mac_padded(f, p, out + done, rest);
    }
}

/* Absorbs both lengths and writes the tag. */
static void mac_finish(const chacha20poly1305_fns *f, poly1305_ctx *p, size_t aad_len,
                       size_t len, unsigned char tag[16])
{
    unsigned char lengths[16];
    store64_le(lengths, (uint64_t)aad_len);
    store64_le(lengths + 8, (uint64_t)len);
    f->poly(p, lengths, 1);
    poly1305_finalize(p, tag);
}

/* What encryption and decryption begin with: the state on block 0 under nonce, the first
 * step's keystream, Poly1305 keyed from block 0 and the additional data absorbed. */
static void start(const chacha20poly1305_fns *f, const chacha20poly1305_ctx *ctx,
                  const unsigned char nonce[12], const void *aad, size_t aad_len, size_t len,
                  uint32_t st[16], head *h, poly1305_ctx *p)
{
    nonce_state(st, ctx, nonce);
    head_blocks(f, st, h, len);
    poly1305_init(p, h->ks);
    mac_padded(f, p, aad, aad_len);
}

void chacha20poly1305_encrypt_with(const chacha20poly1305_fns *f, chacha20poly1305_ctx *ctx,
                                   const unsigned char nonce[12], const void *aad,
                                   size_t aad_len, const unsigned char *in, size_t len,
                                   unsigned char *out)
{
    uint32_t st[16];
    head h;
    poly1305_ctx p;
    if (ctx == NULL || nonce == NULL || out == NULL || (aad == NULL && aad_len > 0)
        || (in == NULL && len > 0))
        return;
    start(f, ctx, nonce, aad, aad_len, len, st, &h, &p);
    crypt_steps(f, st, &h, in, len, out, &p);
    mac_finish(f, &p, aad_len, len, out + len);
    memset(&h, 0, sizeof h);
}

int chacha20poly1305_decrypt_with(const chacha20poly1305_fns *f, chacha20poly1305_ctx *ctx,
                                  const unsigned char nonce[12], const void *aad,
                                  size_t aad_len, const unsigned char *in, size_t len,
                                  unsigned char *out)
{
    uint32_t st[16];
    head h;
    poly1305_ctx p;
    unsigned char tag[16];
    unsigned diff = 0;
    if (ctx == NULL || nonce == NULL || in == NULL || (aad == NULL && aad_len > 0)
        || (out == NULL && len > 0))
        return -1;
    start(f, ctx, nonce, aad, aad_len, len, st, &h, &p);
    mac_padded(f, &p, in, len);
    mac_finish(f, &p, aad_len, len, tag);
    for (int i = 0; i < 16; i++)
        diff |= (unsigned)(tag[i] ^ in[len + i]);
    if (diff != 0) {
        memset(&h, 0, sizeof h);
        return -1;
    }
    crypt_steps(f, st, &h, in, len, out, NULL);
    memset(&h, 0, sizeof h);
    return 0;
}

void chacha20poly1305_encrypt(chacha20poly1305_ctx *ctx, const unsigned char nonce[12],
                              const void *aad, size_t aad_len,
                              const unsigned char *in, size_t len, unsigned char *out)
{
    chacha20poly1305_encrypt_with(chacha20poly1305_impl, ctx, nonce, aad, aad_len, in, len,
                                  out);
}

int chacha20poly1305_decrypt(chacha20poly1305_ctx *ctx, const unsigned char nonce[12],
                             const void *aad, size_t aad_len,
                             const unsigned char *in, size_t len, unsigned char *out)
{
    return chacha20poly1305_decrypt_with(chacha20poly1305_impl, ctx, nonce, aad, aad_len, in,
                                         len, out);
}

/* ---- FSChaCha20Poly1305 -------------------------------------------------------------- */

void fschacha20poly1305_init(fschacha20poly1305_ctx *ctx, const unsigned char key[32],
                             uint32_t rekey_interval)
{
    if (ctx == NULL || key == NULL)
        return;
    chacha20poly1305_init(&ctx->aead, key);
    ctx->interval = rekey_interval;
    ctx->packet = 0;
    ctx->rekey = 0;
}

static void fs_nonce(const fschacha20poly1305_ctx *ctx, unsigned char nonce[12])
{
    store32_le(nonce, ctx->packet);
    store64_le(nonce + 4, ctx->rekey);
}

/* After a packet: at the end of an interval, the new key is block 1's first 32 bytes of
 * keystream under nonce (0xffffffff, rekeys so far), which is what encrypting 32 zero bytes
 * gives. */
static void fs_next(fschacha20poly1305_ctx *ctx)
{
    if (++ctx->packet == ctx->interval) {
        const chacha20poly1305_fns *f = chacha20poly1305_impl;
        unsigned char nonce[12], ks[64 * CHACHA20POLY1305_BURST_MAX];
        uint32_t st[16];
        store32_le(nonce, 0xffffffffu);
        store64_le(nonce + 4, ctx->rekey);
        nonce_state(st, &ctx->aead, nonce);
        st[12] = 1;
        f->chacha(st, ks, NULL, burst_of(f, 1));
        chacha20_set_key(&ctx->aead.chacha, ks);
        memset(ks, 0, sizeof ks);
        memset(st, 0, sizeof st);
        ctx->packet = 0;
        ctx->rekey++;
    }
}

void fschacha20poly1305_encrypt(fschacha20poly1305_ctx *ctx, const void *aad, size_t aad_len,
                                const unsigned char *in, size_t len, unsigned char *out)
{
    unsigned char nonce[12];
    if (ctx == NULL)
        return;
    fs_nonce(ctx, nonce);
    chacha20poly1305_encrypt(&ctx->aead, nonce, aad, aad_len, in, len, out);
    fs_next(ctx);
}

int fschacha20poly1305_decrypt(fschacha20poly1305_ctx *ctx, const void *aad, size_t aad_len,
                               const unsigned char *in, size_t len, unsigned char *out)
{
    unsigned char nonce[12];
    int r;
    if (ctx == NULL)
        return -1;
    fs_nonce(ctx, nonce);
    r = chacha20poly1305_decrypt(&ctx->aead, nonce, aad, aad_len, in, len, out);
    fs_next(ctx);
    return r;
}
