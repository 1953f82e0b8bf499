/* Fuzz target: ChaCha20 (crypto/chacha20.h) on every implementation this build and CPU run,
 * against the portable one: keystream and crypt (out of place and in place), in pieces the
 * input chooses (a call ending inside a block throws the rest of it away), from a chosen key,
 * IV and block counter (also just below 2^32, where the counter carries into its high word),
 * with a context copied part way.
 *
 * Input: key (32 bytes), IV (8), counter (8; when the first of them is odd, the counter is
 * 2^32 minus the second), up to 8 piece lengths, where to copy, then the message (the rest). */
#include "fuzz.h"

#include "crypto/chacha20.h"

#include <string.h>

#define MAX_PIECES 8
#define MAX_IMPLS 8

typedef struct {
    unsigned char key[32];
    uint64_t iv, counter;
    size_t len[MAX_PIECES + 1], count, copy_at;
    const uint8_t *msg;
    size_t msg_len;
} plan;

/* Runs the plan on the implementation in use: keystream pieces into ks, the copy's pieces (from
 * copy_at on; zeros before) into ks2, and msg encrypted into x: even pieces out of place, odd
 * ones in place. Returns where the copy started. */
static size_t run(const plan *p, unsigned char *ks, unsigned char *ks2, unsigned char *x)
{
    chacha20_ctx a, copy, c;
    size_t i, off = 0, copied = p->msg_len;
    chacha20_set_key(&a, p->key);
    chacha20_set_iv(&a, p->iv);
    chacha20_seek(&a, p->counter);
    c = a;
    copy = a;
    memset(ks2, 0, p->msg_len);
    for (i = 0; i < p->count; i++) {
        if (i == p->copy_at) {
            copy = a;
            copied = off;
        }
        chacha20_keystream(&a, ks + off, p->len[i]);
        if (i >= p->copy_at)
            chacha20_keystream(&copy, ks2 + off, p->len[i]);
        if (i % 2) {
            memcpy(x + off, p->msg + off, p->len[i]);
            chacha20_crypt(&c, x + off, x + off, p->len[i]);
        } else {
            chacha20_crypt(&c, p->msg + off, x + off, p->len[i]);
        }
        off += p->len[i];
    }
    return copied;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in;
    plan p;
    size_t pieces, i, n;
    const char *names[MAX_IMPLS];
    unsigned char *buf, *ks, *ks2, *x, *want, *want2, *wantx;
    size_t copied;
    uint64_t c;

    fuzz_init(&in, data, size);
    fuzz_fill(&in, p.key, 32);
    p.iv = fuzz_u64(&in);
    c = fuzz_u64(&in);
    p.counter = c & 1 ? 0x100000000u - ((c >> 8) & 0xff) : c;
    pieces = (size_t)fuzz_below(&in, MAX_PIECES + 1);
    for (i = 0; i < pieces; i++)
        p.len[i] = (size_t)fuzz_below(&in, 1100);
    p.copy_at = (size_t)fuzz_below(&in, pieces + 2);
    p.msg = fuzz_bytes(&in, in.left, &p.msg_len);
    p.count = fuzz_fit_pieces(p.len, pieces, p.msg_len);

    /* Three outputs for the reference, three for each implementation (a byte more each, so
     * that an empty message still has buffers). */
    if (!(buf = calloc(6, p.msg_len + 1)))
        return 0;
    want = buf;
    want2 = want + p.msg_len + 1;
    wantx = want2 + p.msg_len + 1;
    ks = wantx + p.msg_len + 1;
    ks2 = ks + p.msg_len + 1;
    x = ks2 + p.msg_len + 1;
    FUZZ_CHECK(chacha20_impl_force("standard") == 0);
    copied = run(&p, want, want2, wantx);
    /* The copy continues the same stream; crypt is the message XOR the same keystream. */
    FUZZ_CHECK(memcmp(want2 + copied, want + copied, p.msg_len - copied) == 0);
    for (i = 0; i < p.msg_len; i++)
        FUZZ_CHECK((wantx[i] ^ p.msg[i]) == want[i]);
    n = chacha20_impl_list(names, MAX_IMPLS);
    n = n > MAX_IMPLS ? MAX_IMPLS : n;
    for (i = 0; i <= n; i++) {
        FUZZ_CHECK(chacha20_impl_force(i < n ? names[i] : "auto") == 0);
        FUZZ_CHECK(run(&p, ks, ks2, x) == copied);
        FUZZ_CHECK(memcmp(ks, want, p.msg_len) == 0);
        FUZZ_CHECK(memcmp(ks2, want2, p.msg_len) == 0);
        FUZZ_CHECK(memcmp(x, wantx, p.msg_len) == 0);
    }
    FUZZ_CHECK(chacha20_impl_force("auto") == 0);
    free(buf);
    return 0;
}
