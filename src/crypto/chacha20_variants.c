/* ChaCha20's variant set (variant_impl.h): the block functions of chacha20_impl.h, each
 * checked against the portable one, and the pointer they are installed in
 * (chacha20_blocks_impl, chacha20.c). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "crypto/chacha20.h"
#include "crypto/chacha20_impl.h"
#include "crypto/variant_impl.h"

typedef struct {
    chacha20_blocks_fn blocks;
} chacha20_fns;

static const chacha20_fns portable_fns = {chacha20_blocks_portable};

/* Narrowest first; the automatic choice is the widest usable. */
static const crypto_variant chacha20_table[] = {
    {"standard", 0, &portable_fns},
#ifdef ENABLE_SSE41
    {"sse41", CPU_SSE41, &(const chacha20_fns){chacha20_blocks_sse41}},
#endif
#ifdef ENABLE_AVX2
    {"avx2", CPU_AVX2, &(const chacha20_fns){chacha20_blocks_avx2}},
#endif
#ifdef ENABLE_AVX512
    {"avx512", CPU_AVX512, &(const chacha20_fns){chacha20_blocks_avx512}},
#endif
};

/* 47 = 2 * 16 + 8 + 4 + 2 + 1: with every count from 1 to 47, a variant of width W runs its
 * W-block loop zero, one and two (or more) times, followed by every tail its narrower paths
 * handle. */
#define TEST_MAX_BLOCKS 47

#define TEST_STARTS 4

/* fn against the portable block function on every count from 1 to 47 blocks, keystream,
 * XOR and XOR in place, on unaligned buffers, from counters that carry from word 12 into 13
 * after 7 blocks (inside the first 8 or 16) and after 1 (inside the shortest calls), and
 * from ones that wrap the whole 64-bit counter after 13 and after 2 blocks; the output and
 * the counter left in the state must match. */
static int blocks_ok(chacha20_blocks_fn fn)
{
    static const uint64_t starts[TEST_STARTS] = {0x00000005fffffff9, 0x00000007ffffffff,
                                                 0xfffffffffffffff3, 0xfffffffffffffffe};
    /* static: under the variant lock, one self-test at a time */
    static unsigned char raw_in[TEST_MAX_BLOCKS * 64 + 1];
    static unsigned char raw_ref[TEST_MAX_BLOCKS * 64 + 1], raw_got[TEST_MAX_BLOCKS * 64 + 1];
    unsigned char key[32], *in = raw_in + 1, *ref = raw_ref + 1, *got = raw_got + 1;
    chacha20_ctx base;

    crypto_variant_test_fill(key, sizeof key, 0x9e3779b9);
    crypto_variant_test_fill(in, TEST_MAX_BLOCKS * 64, 0x7f4a7c15);
    chacha20_set_key(&base, key);
    chacha20_set_iv(&base, 0x0123456789abcdef);
    for (size_t s = 0; s < TEST_STARTS; s++) {
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

static int chacha20_selftest(const crypto_variant *v)
{
    return blocks_ok(((const chacha20_fns *)v->impl)->blocks);
}

static void chacha20_install(unsigned use);

CRYPTO_VARIANT_SET_DEFINE(chacha20, "ChaCha20", chacha20_table, chacha20_selftest,
                          chacha20_install, NULL, NULL)
CRYPTO_VARIANT_WRAPPERS(chacha20)

static void chacha20_install(unsigned use)
{
    const chacha20_fns *f = crypto_variant_last_in_use(&chacha20_variant_set, use);
    chacha20_blocks_impl = f->blocks;
}

int chacha20_impl_selftest(chacha20_blocks_fn fn)
{
    const chacha20_fns fns = {fn};
    const crypto_variant v = {"test", 0, &fns};
    return crypto_variant_selftest(&chacha20_variant_set, &v);
}
