/* SHA256_32b finish experiments (doc/crypto.md): the SHA-NI finish as built,
 * with the tail length a compile-time 32, with the tail masks from a table,
 * and a one-shot finish straight from the previous digest (no sha256_write
 * copy), each chained through its own output like bench_bitcoin's SHA256_32b;
 * minimum of 41 rounds of 200,000 hashes per variant, the variants alternated.
 * Not built by make; from a build directory BUILD:
 *   gcc -O2 -msse4.1 -msha -I SRC/src -I BUILD SRC/doc/experiments/sha256_finish.c \
 *       BUILD/src/crypto/.libs/libbitcoin_crypto.a -o sha256_finish && ./sha256_finish
 * (the copy of sha256_shani.c included below is renamed so that it does not
 * clash with the library's). */
#define sha256_transform_shani x_sha256_transform_shani
#define sha256_finish_shani x_sha256_finish_shani
#define sha256_d64_shani x_sha256_d64_shani
#define sha256_d64_shani_2way x_sha256_d64_shani_2way
#include "../../src/crypto/sha256_shani.c"
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "crypto/sha256.h"
#include "crypto/dispatch.h"

/* B: used known to be 32 at compile time (floor for the ctrl path) */
__attribute__((noinline)) void fin_const(uint32_t state[8], unsigned char buf[64], uint64_t bytes,
                                         unsigned char *out)
{
    (void)bytes;
    x_sha256_finish_shani(state, buf, 32, out);
}

/* C: tables */
static __m128i ctrl_tab[64][4], padk_tab[64][4], pad_tab[64][4];
static void init_tabs(void)
{
    for (int u = 0; u < 64; u++)
        for (int i = 0; i < 4; i++) {
            unsigned char c[16], p[16];
            uint32_t pk[4];
            for (int b = 0; b < 16; b++) {
                int src = 16 * i + (b & ~3) + (3 - (b & 3));
                c[b] = src < u ? (unsigned char)(src - 16 * i) : 0x80;
                p[b] = src == u ? 0x80 : 0;
            }
            memcpy(&ctrl_tab[u][i], c, 16);
            memcpy(&pad_tab[u][i], p, 16);
            for (int w = 0; w < 4; w++) {
                uint32_t pw; memcpy(&pw, p + 4 * w, 4);
                pk[w] = sha256_k[4 * i + w] + pw;
            }
            memcpy(&padk_tab[u][i], pk, 16);
        }
}

__attribute__((noinline)) void fin_tab(uint32_t state[8], unsigned char buf[64], uint64_t bytes,
                         unsigned char *out)
{
    const size_t used = (size_t)(bytes & 63);
    const uint64_t bits = bytes << 3;
    const __m128i len = _mm_set_epi32((int)(uint32_t)bits, (int)(uint32_t)(bits >> 32), 0, 0);
    const __m128i *ct = ctrl_tab[used], *pk = padk_tab[used], *pd = pad_tab[used];
    __m128i abef, cdgh, abef0, cdgh0;
    __m128i m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)buf), ct[0]);
    __m128i m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(buf + 16)), ct[1]);
    __m128i m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(buf + 32)), ct[2]);
    __m128i m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(buf + 48)), ct[3]);
    unpack_state(state, &abef, &cdgh);
    abef0 = abef; cdgh0 = cdgh;
    if (used >= 56) {
        m0 = _mm_or_si128(m0, pd[0]); m1 = _mm_or_si128(m1, pd[1]);
        m2 = _mm_or_si128(m2, pd[2]); m3 = _mm_or_si128(m3, pd[3]);
        COMPRESS(abef, cdgh, m0, m1, m2, m3);
        abef = abef0 = _mm_add_epi32(abef, abef0);
        cdgh = cdgh0 = _mm_add_epi32(cdgh, cdgh0);
        m0 = m1 = m2 = _mm_setzero_si128(); m3 = len;
        __m128i wk0 = k4(0), wk1 = k4(1), wk2 = k4(2), wk3 = _mm_add_epi32(k4(3), len);
        COMPRESS_WK(abef, cdgh, m0, m1, m2, m3, wk0, wk1, wk2, wk3);
    } else {
        __m128i wk0 = _mm_add_epi32(m0, pk[0]);
        __m128i wk1 = _mm_add_epi32(m1, pk[1]);
        __m128i wk2 = _mm_add_epi32(m2, pk[2]);
        __m128i wk3 = _mm_add_epi32(m3, _mm_add_epi32(pk[3], len));
        m0 = _mm_or_si128(m0, pd[0]); m1 = _mm_or_si128(m1, pd[1]);
        m2 = _mm_or_si128(m2, pd[2]); m3 = _mm_or_si128(m3, _mm_or_si128(pd[3], len));
        COMPRESS_WK(abef, cdgh, m0, m1, m2, m3, wk0, wk1, wk2, wk3);
    }
    store_digest(out, _mm_add_epi32(abef, abef0), _mm_add_epi32(cdgh, cdgh0));
}

/* D: fused one-shot (no write/buffer round trip): hash 32 bytes at in into out */
__attribute__((noinline)) void oneshot32(const unsigned char *in, unsigned char *out)
{
    x_sha256_finish_shani((uint32_t *)sha256_iv, (unsigned char *)in, 32, out);
}
typedef void (*fin_fn)(uint32_t *, unsigned char *, uint64_t, unsigned char *);
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static double run(fin_fn f, unsigned char *in, int n)
{
    double t0 = now();
    for (int i = 0; i < n; i++) {
        sha256_ctx c;
        sha256_init(&c);
        sha256_write(&c, in, 32);
        f(c.s, c.buf, c.bytes, in);
    }
    return (now() - t0) / n * 1e9;
}

static double run_1block(int n)
{
    static uint32_t st[8]; static unsigned char blk[64];
    double t0 = now();
    for (int i = 0; i < n; i++) x_sha256_transform_shani(st, blk, 1);
    return (now() - t0) / n * 1e9;
}
static double run_oneshot(unsigned char *in, int n)
{
    double t0 = now();
    for (int i = 0; i < n; i++) oneshot32(in, in);
    return (now() - t0) / n * 1e9;
}
int main(void)
{
    init_tabs();
    sha256_impl_force("shani");
    fin_fn fs[] = {x_sha256_finish_shani, fin_const, fin_tab};
    const char *names[] = {"current", "const32", "table"};
    /* correctness: all variants agree for all lengths */
    for (int len = 0; len < 200; len++) {
        unsigned char msg[200], o[3][32];
        for (int i = 0; i < len; i++) msg[i] = (unsigned char)(i * 7 + len);
        for (int v = 0; v < 3; v += 2) {   /* const32 only handles 32 bytes */
            sha256_ctx c; sha256_init(&c); sha256_write(&c, msg, (size_t)len);
            fs[v](c.s, c.buf, c.bytes, o[v]);
        }
        if (memcmp(o[0], o[2], 32)) { printf("MISMATCH len %d\n", len); return 1; }
    }
    double best[3] = {1e9, 1e9, 1e9};
    unsigned char in[32] = {0};
    for (int r = 0; r < 41; r++)
        for (int v = 0; v < 3; v++) {
            double t = run(fs[v], in, 200000);
            if (t < best[v]) best[v] = t;
        }
    double bo = 1e9;
    for (int r = 0; r < 41; r++) {
        double t = run_oneshot(in, 200000);
        if (t < bo) bo = t;
    }
    double b1 = 1e9;
    for (int r = 0; r < 41; r++) {
        double t = run_1block(200000);
        if (t < b1) b1 = t;
    }
    printf("1block   %.2f ns\n", b1);
    printf("oneshot  %.2f ns\n", bo);
    for (int v = 0; v < 3; v++) printf("%-8s %.2f ns\n", names[v], best[v]);
    return 0;
}
