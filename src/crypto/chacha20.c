/* ChaCha20 (see chacha20.h): the key and counter handling, the portable block
 * function, and the run-time choice among the block functions of
 * chacha20_impl.h.
 *
 * Every call goes through one function pointer. It starts on a resolver that
 * makes the automatic choice on the first call; nothing but the portable code
 * is installed unless CPUID and XGETBV say the CPU and OS run the variant and
 * it passes chacha20_selftest. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "crypto/chacha20.h"
#include "crypto/chacha20_impl.h"
#include "crypto/common.h"
#include "crypto/cpuid.h"
#include "util/spinlock.h"

void chacha20_set_key(chacha20_ctx *ctx, const unsigned char key[32])
{
    /* "expand 32-byte k" as four little-endian words */
    ctx->input[0] = 0x61707865;
    ctx->input[1] = 0x3320646e;
    ctx->input[2] = 0x79622d32;
    ctx->input[3] = 0x6b206574;
    for (int i = 0; i < 8; i++)
        ctx->input[4 + i] = load32_le(key + 4 * i);
    ctx->input[12] = ctx->input[13] = ctx->input[14] = ctx->input[15] = 0;
}

void chacha20_set_iv(chacha20_ctx *ctx, uint64_t iv)
{
    ctx->input[14] = (uint32_t)iv;
    ctx->input[15] = (uint32_t)(iv >> 32);
}

void chacha20_seek(chacha20_ctx *ctx, uint64_t block)
{
    ctx->input[12] = (uint32_t)block;
    ctx->input[13] = (uint32_t)(block >> 32);
}

/* ---- portable block function -------------------------------------------- */

#define QR(a, b, c, d) \
    do { \
        a += b; d = rotl32(d ^ a, 16); \
        c += d; b = rotl32(b ^ c, 12); \
        a += b; d = rotl32(d ^ a, 8); \
        c += d; b = rotl32(b ^ c, 7); \
    } while (0)

void chacha20_blocks_portable(uint32_t state[16], unsigned char *out, const unsigned char *in,
                              size_t blocks)
{
    for (; blocks > 0; blocks--) {
        uint32_t x[16];
        memcpy(x, state, sizeof x);
        for (int i = 0; i < 10; i++) {
            QR(x[0], x[4], x[8], x[12]);
            QR(x[1], x[5], x[9], x[13]);
            QR(x[2], x[6], x[10], x[14]);
            QR(x[3], x[7], x[11], x[15]);
            QR(x[0], x[5], x[10], x[15]);
            QR(x[1], x[6], x[11], x[12]);
            QR(x[2], x[7], x[8], x[13]);
            QR(x[3], x[4], x[9], x[14]);
        }
        for (int i = 0; i < 16; i++) {
            uint32_t w = x[i] + state[i];
            if (in)
                w ^= load32_le(in + 4 * i);
            store32_le(out + 4 * i, w);
        }
        if (in)
            in += 64;
        out += 64;
        if (++state[12] == 0)
            state[13]++;
    }
}

/* ---- the variants and the choice ---------------------------------------- */

enum { ISA_NONE, ISA_SSE41, ISA_AVX2, ISA_AVX512 };

typedef struct {
    const char *name;
    int isa;
    chacha20_blocks_fn fn;
} chacha20_variant;

/* Narrowest first; the automatic choice is the widest usable. */
static const chacha20_variant variants[] = {
    {"standard", ISA_NONE, chacha20_blocks_portable},
#ifdef ENABLE_SSE41
    {"sse41", ISA_SSE41, chacha20_blocks_sse41},
#endif
#ifdef ENABLE_AVX2
    {"avx2", ISA_AVX2, chacha20_blocks_avx2},
#endif
#ifdef ENABLE_AVX512
    {"avx512", ISA_AVX512, chacha20_blocks_avx512},
#endif
};
#define N_VARIANTS (sizeof variants / sizeof variants[0])

static int isa_ok(int isa)
{
    const cpu_features *f = cpu_features_get();
    switch (isa) {
    case ISA_SSE41: return f->sse41;
    case ISA_AVX2: return f->avx2;
    case ISA_AVX512: return f->avx512;
    default: return 1;
    }
}

/* Deterministic test bytes (xorshift), so a failure repeats. */
static void test_bytes(unsigned char *buf, size_t len, uint32_t x)
{
    for (size_t i = 0; i < len; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        buf[i] = (unsigned char)x;
    }
}

/* 47 = 2 * 16 + 8 + 4 + 2 + 1: with every count from 1 to 47, a variant of
 * width W runs its W-block loop zero, one and two (or more) times, followed
 * by every tail its narrower paths handle. */
#define TEST_MAX_BLOCKS 47

int chacha20_selftest(chacha20_blocks_fn fn)
{
    /* Counters: one that carries from word 12 into 13 inside the first 16
     * blocks, one that wraps the whole 64-bit counter. */
    static const uint64_t starts[2] = {0x00000005fffffff9, 0xfffffffffffffff3};
    unsigned char key[32], raw_in[TEST_MAX_BLOCKS * 64 + 1];
    unsigned char raw_ref[TEST_MAX_BLOCKS * 64 + 1], raw_got[TEST_MAX_BLOCKS * 64 + 1];
    unsigned char *in = raw_in + 1, *ref = raw_ref + 1, *got = raw_got + 1;   /* unaligned */
    chacha20_ctx base;

    test_bytes(key, sizeof key, 0x9e3779b9);
    test_bytes(in, TEST_MAX_BLOCKS * 64, 0x7f4a7c15);
    chacha20_set_key(&base, key);
    chacha20_set_iv(&base, 0x0123456789abcdef);
    for (size_t s = 0; s < 2; s++) {
        for (size_t n = 1; n <= TEST_MAX_BLOCKS; n++) {
            for (int xor_in = 0; xor_in < 2; xor_in++) {
                const unsigned char *src = xor_in ? in : NULL;
                chacha20_ctx a = base, b = base;
                chacha20_seek(&a, starts[s]);
                chacha20_seek(&b, starts[s]);
                chacha20_blocks_portable(a.input, ref, src, n);
                memset(got, 0, 64 * n);
                fn(b.input, got, src, n);
                if (memcmp(ref, got, 64 * n) != 0 || memcmp(&a, &b, sizeof a) != 0)
                    return 0;
                /* in place */
                if (xor_in) {
                    memcpy(got, in, 64 * n);
                    b = base;
                    chacha20_seek(&b, starts[s]);
                    fn(b.input, got, got, n);
                    if (memcmp(ref, got, 64 * n) != 0 || memcmp(&a, &b, sizeof a) != 0)
                        return 0;
                }
            }
        }
    }
    return 1;
}

static void blocks_first_call(uint32_t state[16], unsigned char *out, const unsigned char *in,
                              size_t blocks);

/* What every call runs, and the name of what it is once chosen. */
static chacha20_blocks_fn blocks_impl = blocks_first_call;
static const char *impl_name;
static char impl_lock;
/* Self-test results, once per variant: 0 not run, 1 passed, -1 failed. */
static int selftest_state[N_VARIANTS];

static int variant_usable(size_t i)
{
    if (!isa_ok(variants[i].isa))
        return 0;
    if (selftest_state[i] == 0)
        selftest_state[i] = chacha20_selftest(variants[i].fn) ? 1 : -1;
    return selftest_state[i] == 1;
}

static void install(size_t i)
{
    impl_name = variants[i].name;
    __atomic_store_n(&blocks_impl, variants[i].fn, __ATOMIC_RELEASE);
}

/* Under impl_lock. */
static int force_unlocked(const char *name)
{
    if (strcmp(name, "auto") == 0) {
        size_t i = N_VARIANTS;
        while (--i > 0 && !variant_usable(i))
            ;
        install(i);
        return 0;
    }
    for (size_t i = 0; i < N_VARIANTS; i++) {
        if (strcmp(name, variants[i].name) == 0) {
            if (!variant_usable(i))
                return -1;
            install(i);
            return 0;
        }
    }
    return -1;
}

static void choose_once(void)
{
    bb_spin_lock(&impl_lock);
    if (impl_name == NULL)
        force_unlocked("auto");
    bb_spin_unlock(&impl_lock);
}

/* Installed until the first choice: makes it, then runs the chosen function. */
static void blocks_first_call(uint32_t state[16], unsigned char *out, const unsigned char *in,
                              size_t blocks)
{
    choose_once();
    __atomic_load_n(&blocks_impl, __ATOMIC_ACQUIRE)(state, out, in, blocks);
}

const char *chacha20_implementation(void)
{
    choose_once();
    bb_spin_lock(&impl_lock);
    const char *name = impl_name;
    bb_spin_unlock(&impl_lock);
    return name;
}

size_t chacha20_impl_list(const char **names, size_t cap)
{
    size_t count = 0;
    bb_spin_lock(&impl_lock);
    for (size_t i = 0; i < N_VARIANTS; i++) {
        if (variant_usable(i)) {
            if (count < cap)
                names[count] = variants[i].name;
            count++;
        }
    }
    bb_spin_unlock(&impl_lock);
    return count;
}

int chacha20_force(const char *name)
{
    bb_spin_lock(&impl_lock);
    int r = force_unlocked(name);
    bb_spin_unlock(&impl_lock);
    return r;
}

/* ---- streaming ------------------------------------------------------------ */

/* Whole blocks straight into out; a final partial block through a buffer,
 * the rest of it thrown away (the next call starts at the next block). */
static void run(chacha20_ctx *ctx, const unsigned char *in, unsigned char *out, size_t len)
{
    chacha20_blocks_fn fn = __atomic_load_n(&blocks_impl, __ATOMIC_ACQUIRE);
    size_t whole = len / 64, rest = len % 64;
    if (whole > 0)
        fn(ctx->input, out, in, whole);
    if (rest > 0) {
        unsigned char buf[64];
        size_t at = 64 * whole;
        fn(ctx->input, buf, NULL, 1);
        for (size_t i = 0; i < rest; i++)
            out[at + i] = in ? (unsigned char)(buf[i] ^ in[at + i]) : buf[i];
    }
}

void chacha20_keystream(chacha20_ctx *ctx, unsigned char *out, size_t len)
{
    run(ctx, NULL, out, len);
}

void chacha20_crypt(chacha20_ctx *ctx, const unsigned char *in, unsigned char *out, size_t len)
{
    run(ctx, in, out, len);
}
