/* The accelerated variants against the portable code, and the variant sets.
 *
 * 1. Each hash variant this build has, called directly, on random states, inputs,
 *    alignments, lengths, block counts and (for the SHA-256 finish) tail
 *    lengths and byte counts, against the portable functions.
 * 2. Forcing each SHA-256/SHA-1/SHA-512 implementation, then the public
 *    functions (write in random pieces, finalize, one-shot, d64 in and out of
 *    place) against the digests computed while forced to "standard".
 * 3. sha256_autodetect: its string names what the CPU, as CPUID reports it,
 *    allows, and the function pointers are the ones the string names.
 * 4. Under each forced implementation, inputs that end exactly where an
 *    inaccessible page begins (or start right after one): a variant that
 *    reads a byte outside its input crashes the test.
 * 5. The start-up self-test (through its test-only hook) refuses functions
 *    broken in one corner only: the last lane of a kernel, the 18th input,
 *    a 60-byte tail, a length past 2^60 bytes, a 3-block call, the last block
 *    dropped from 4, 8, 16 or 32 blocks on (SHA-1 and SHA-512 too), a call of
 *    0 blocks that changes something.
 * 6. Every variant set (variant.h), the same way for each: its names, what it
 *    lists against what the CPU runs, each listed variant forced and the
 *    primitive's output compared with the portable code's, refusals, "auto",
 *    NULL arguments, and the per-primitive wrappers against the set.
 *
 * A variant this build has but the CPU (as CPUID reports it) cannot run is
 * not tested: everything else is, and then the program exits 77 (SKIP) naming
 * what it left out, so that make check counts it. On a CPU that runs every
 * variant of the build, nothing is left out.
 *
 * Usage: test_crypto_variants [--quick]   (--quick: fewer rounds, for valgrind)
 *        test_crypto_variants --untested  (prints, one a line, each variant of the build
 *                                          that this CPU cannot run, and exits) */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "crypto/chacha20.h"
#include "crypto/chacha20poly1305.h"
#include "crypto/cpuid.h"
#include "crypto/dispatch.h"
#include "crypto/impl.h"
#include "crypto/num3072.h"
#include "crypto/poly1305.h"
#include "crypto/sha1.h"
#include "crypto/sha256.h"
#include "crypto/sha3.h"
#include "crypto/sha512.h"
#include "crypto/variant.h"
#include "crypto/variant_impl.h"
#include "crypto/variants.h"

#define MAX_BLOCKS 40

static int rounds = 200;
static int ran;   /* variant tests that could run */

static void random_state32(uint32_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        s[i] = (uint32_t)check_rng_u64();
}

static void test_sha256_transform(const char *name, sha256_transform_fn fn)
{
    static unsigned char buf[MAX_BLOCKS * 64 + 16];
    for (int r = 0; r < rounds; r++) {
        uint32_t ref[8], got[8];
        size_t n = check_rng_below(MAX_BLOCKS + 1), off = check_rng_below(16);
        check_rng_fill(buf, sizeof buf);
        random_state32(ref, 8);
        memcpy(got, ref, sizeof ref);
        sha256_transform_portable(ref, buf + off, n);
        fn(got, buf + off, n);
        if (!CHECKF(memcmp(ref, got, sizeof ref) == 0, "%s transform, %zu blocks", name, n))
            return;
    }
    ran++;
}

/* The finish (padding, last compressions, digest) against the portable one:
 * random states, tails of every length with random bytes after them (to be
 * ignored), and byte counts small, random and near 2^64. */
static void test_sha256_finish(const char *name, sha256_finish_fn fn)
{
    for (int r = 0; r < rounds; r++) {
        for (uint64_t used = 0; used < 64; used++) {
            uint32_t s_ref[8], s_got[8];
            unsigned char b_ref[64], b_got[64], ref[32], got[32];
            uint64_t whole = r % 3 == 0 ? 0 : r % 3 == 1 ? check_rng_u64() : ~(uint64_t)0;
            uint64_t bytes = (whole & ~(uint64_t)63) | used;
            random_state32(s_ref, 8);
            memcpy(s_got, s_ref, sizeof s_ref);
            check_rng_fill(b_ref, sizeof b_ref);
            memcpy(b_got, b_ref, sizeof b_ref);
            sha256_finish_portable(s_ref, b_ref, bytes, ref);
            fn(s_got, b_got, bytes, got);
            if (!CHECKF(memcmp(ref, got, sizeof ref) == 0, "%s finish, %llu bytes", name,
                        (unsigned long long)bytes))
                return;
        }
    }
    ran++;
}

static void test_sha256_d64(const char *name, sha256_d64_fn fn)
{
    static unsigned char in[MAX_BLOCKS * 64 + 16], ref[MAX_BLOCKS * 32], got[MAX_BLOCKS * 64 + 16];
    for (int r = 0; r < rounds; r++) {
        size_t n = check_rng_below(MAX_BLOCKS + 1), off = check_rng_below(16);
        check_rng_fill(in, sizeof in);
        sha256_d64_portable(ref, in + off, n);
        fn(got, in + off, n);
        if (!CHECKF(memcmp(ref, got, 32 * n) == 0, "%s d64, %zu blocks", name, n))
            return;
        memcpy(got + off, in + off, 64 * n);
        fn(got + off, got + off, n);
        if (!CHECKF(memcmp(ref, got + off, 32 * n) == 0, "%s d64 in place, %zu blocks", name, n))
            return;
    }
    ran++;
}

/* A fixed-width kernel driven over random counts, leftovers to portable. */
static sha256_d64_kernel cur_kernel;
static size_t cur_width;

static void kernel_then_portable(unsigned char *out, const unsigned char *in, size_t blocks)
{
    for (; blocks >= cur_width; blocks -= cur_width, in += 64 * cur_width, out += 32 * cur_width)
        cur_kernel(out, in);
    sha256_d64_portable(out, in, blocks);
}

static void test_kernel(const char *name, sha256_d64_kernel k, size_t width)
{
    cur_kernel = k;
    cur_width = width;
    test_sha256_d64(name, kernel_then_portable);
}

static void test_sha1_transform(const char *name, sha1_transform_fn fn)
{
    static unsigned char buf[MAX_BLOCKS * 64 + 16];
    for (int r = 0; r < rounds; r++) {
        uint32_t ref[5], got[5];
        size_t n = check_rng_below(MAX_BLOCKS + 1), off = check_rng_below(16);
        check_rng_fill(buf, sizeof buf);
        random_state32(ref, 5);
        memcpy(got, ref, sizeof ref);
        sha1_transform_portable(ref, buf + off, n);
        fn(got, buf + off, n);
        if (!CHECKF(memcmp(ref, got, sizeof ref) == 0, "%s sha1 transform, %zu blocks", name, n))
            return;
    }
    ran++;
}

static void test_sha512_transform(const char *name, sha512_transform_fn fn)
{
    static unsigned char buf[MAX_BLOCKS * 128 + 16];
    for (int r = 0; r < rounds; r++) {
        uint64_t ref[8], got[8];
        size_t n = check_rng_below(MAX_BLOCKS + 1), off = check_rng_below(16);
        check_rng_fill(buf, sizeof buf);
        for (int i = 0; i < 8; i++)
            ref[i] = check_rng_u64();
        memcpy(got, ref, sizeof ref);
        sha512_transform_portable(ref, buf + off, n);
        fn(got, buf + off, n);
        if (!CHECKF(memcmp(ref, got, sizeof ref) == 0, "%s sha512 transform, %zu blocks",
                    name, n))
            return;
    }
    ran++;
}

/* Whether to test a variant: one this build lacks has nothing to test; one the CPU lacks
 * is left out, and said so. */
static int have(const char *name, int built, int cpu)
{
    if (!built) {
        printf("%s: not in this build\n", name);
    } else if (!cpu) {
        char what[96];
        snprintf(what, sizeof what, "%s (this CPU, as CPUID reports it, lacks it)", name);
        check_untested(what);
    } else {
        printf("%s: testing\n", name);
    }
    return built && cpu;
}

/* BUILT_X: whether this build has variant X; IN_X(f): f, or NULL where the
 * build lacks it (never called then: have() says no first). */
#ifdef ENABLE_SHANI
#define BUILT_SHANI 1
#define IN_SHANI(f) f
#else
#define BUILT_SHANI 0
#define IN_SHANI(f) NULL
#endif
#ifdef ENABLE_SSE41
#define BUILT_SSE41 1
#define IN_SSE41(f) f
#else
#define BUILT_SSE41 0
#define IN_SSE41(f) NULL
#endif
#ifdef ENABLE_AVX2
#define BUILT_AVX2 1
#define IN_AVX2(f) f
#else
#define BUILT_AVX2 0
#define IN_AVX2(f) NULL
#endif
#ifdef ENABLE_AVX512
#define BUILT_AVX512 1
#define IN_AVX512(f) f
#else
#define BUILT_AVX512 0
#define IN_AVX512(f) NULL
#endif

static void test_variants(const cpu_features *f)
{
    if (have("shani", BUILT_SHANI, f->shani)) {
        test_sha256_transform("shani", IN_SHANI(sha256_transform_shani));
        test_sha256_finish("shani", IN_SHANI(sha256_finish_shani));
        test_sha256_d64("shani 1way", IN_SHANI(sha256_d64_shani));
        test_kernel("shani 2way", IN_SHANI(sha256_d64_shani_2way), 2);
        test_sha1_transform("shani", IN_SHANI(sha1_transform_shani));
    }
    if (have("sse41", BUILT_SSE41, f->sse41))
        test_kernel("sse41 4way", IN_SSE41(sha256_d64_sse41_4way), 4);
    if (have("avx2", BUILT_AVX2, f->avx2)) {
        test_kernel("avx2 8way", IN_AVX2(sha256_d64_avx2_8way), 8);
        if (f->bmi2) {
            test_sha256_transform("avx2", IN_AVX2(sha256_transform_avx2));
            test_sha256_finish("avx2", IN_AVX2(sha256_finish_avx2));
            test_sha1_transform("avx2", IN_AVX2(sha1_transform_avx2));
            test_sha512_transform("avx2", IN_AVX2(sha512_transform_avx2));
        } else {
            check_untested("the avx2 transforms (this CPU lacks BMI2)");
        }
    }
    if (have("avx512", BUILT_AVX512, f->avx512)) {
        test_kernel("avx512 16way", IN_AVX512(sha256_d64_avx512_16way), 16);
        if (f->bmi2)
            test_sha512_transform("avx512", IN_AVX512(sha512_transform_avx512));
        else
            check_untested("the avx512 SHA-512 transform (this CPU lacks BMI2)");
    }
}

/* ---- public functions under each forced implementation -------------------- */

#define NMSG 24
#define MSG_MAX 1100

static unsigned char msgs[NMSG][MSG_MAX];
static size_t msg_len[NMSG];
static unsigned char ref256[NMSG][32], ref1[NMSG][20], ref512[NMSG][64];
static unsigned char d64_in[MAX_BLOCKS * 64], d64_ref[MAX_BLOCKS * 32];

static void make_messages(void)
{
    for (int i = 0; i < NMSG; i++) {
        /* short, around block edges, and long */
        msg_len[i] = i < 8 ? (size_t)i * 9 : i < 16 ? 55 + (size_t)check_rng_below(20)
                                                    : (size_t)check_rng_below(MSG_MAX + 1);
        check_rng_fill(msgs[i], MSG_MAX);
    }
    check_rng_fill(d64_in, sizeof d64_in);
}

/* Writes msg in random pieces. */
#define WRITE_PIECES(prefix, ctx, msg, len) do { \
        size_t pos_ = 0; \
        while (pos_ < (len)) { \
            size_t k_ = 1 + (size_t)check_rng_below((len) - pos_); \
            prefix##_write(ctx, (msg) + pos_, k_); \
            pos_ += k_; \
        } \
    } while (0)

static void hash_all(unsigned char out256[NMSG][32], unsigned char out1[NMSG][20],
                     unsigned char out512[NMSG][64])
{
    for (int i = 0; i < NMSG; i++) {
        sha256_ctx c256;
        sha1_ctx c1;
        sha512_ctx c512;
        unsigned char one[64];

        sha256_init(&c256);
        WRITE_PIECES(sha256, &c256, msgs[i], msg_len[i]);
        sha256_finalize(&c256, out256[i]);
        sha256_hash(one, msgs[i], msg_len[i]);
        CHECK(memcmp(one, out256[i], 32) == 0);

        sha1_init(&c1);
        WRITE_PIECES(sha1, &c1, msgs[i], msg_len[i]);
        sha1_finalize(&c1, out1[i]);
        sha1_hash(one, msgs[i], msg_len[i]);
        CHECK(memcmp(one, out1[i], 20) == 0);

        sha512_init(&c512);
        WRITE_PIECES(sha512, &c512, msgs[i], msg_len[i]);
        sha512_finalize(&c512, out512[i]);
        sha512_hash(one, msgs[i], msg_len[i]);
        CHECK(memcmp(one, out512[i], 64) == 0);
    }
}

static void check_public(const char *what)
{
    static unsigned char out256[NMSG][32], out1[NMSG][20], out512[NMSG][64];
    static unsigned char buf[MAX_BLOCKS * 64];

    hash_all(out256, out1, out512);
    CHECKF(memcmp(out256, ref256, sizeof ref256) == 0, "%s: sha256 digests", what);
    CHECKF(memcmp(out1, ref1, sizeof ref1) == 0, "%s: sha1 digests", what);
    CHECKF(memcmp(out512, ref512, sizeof ref512) == 0, "%s: sha512 digests", what);
    for (size_t n = 0; n <= MAX_BLOCKS; n++) {
        sha256_d64(buf, d64_in, n);
        CHECKF(memcmp(buf, d64_ref, 32 * n) == 0, "%s: d64 of %zu", what, n);
        memcpy(buf, d64_in, 64 * n);
        sha256_d64(buf, buf, n);
        CHECKF(memcmp(buf, d64_ref, 32 * n) == 0, "%s: d64 of %zu in place", what, n);
    }
}

/* What forcing name should describe, or NULL when the CPU forbids it. */
static const char *expected_forced(const char *name, const cpu_features *f)
{
    if (strcmp(name, "standard") == 0)
        return "standard";
    if (strcmp(name, "sse41") == 0)
        return BUILT_SSE41 && f->sse41 ? "sse41(4way)" : NULL;
    if (strcmp(name, "avx2") == 0)
        return !(BUILT_AVX2 && f->avx2) ? NULL : f->bmi2 ? "avx2(1way,8way)" : "avx2(8way)";
    if (strcmp(name, "shani") == 0)
        return BUILT_SHANI && f->shani ? "shani(1way,2way)" : NULL;
    if (strcmp(name, "avx512") == 0)
        return BUILT_AVX512 && f->avx512 ? "avx512(16way)" : NULL;
    return NULL;
}

/* The transform (and finish) that forcing name must install. */
static sha256_transform_fn forced256(const char *name, const cpu_features *f,
                                     sha256_finish_fn *finish)
{
    if (strcmp(name, "shani") == 0) {
        *finish = IN_SHANI(sha256_finish_shani);
        return IN_SHANI(sha256_transform_shani);
    }
    if (strcmp(name, "avx2") == 0 && f->bmi2) {
        *finish = IN_AVX2(sha256_finish_avx2);
        return IN_AVX2(sha256_transform_avx2);
    }
    *finish = sha256_finish_portable;
    return sha256_transform_portable;
}

static sha1_transform_fn forced1(const char *name)
{
    if (strcmp(name, "shani") == 0)
        return IN_SHANI(sha1_transform_shani);
    if (strcmp(name, "avx2") == 0)
        return IN_AVX2(sha1_transform_avx2);
    return sha1_transform_portable;
}

static sha512_transform_fn forced512(const char *name)
{
    if (strcmp(name, "avx2") == 0)
        return IN_AVX2(sha512_transform_avx2);
    if (strcmp(name, "avx512") == 0)
        return IN_AVX512(sha512_transform_avx512);
    return sha512_transform_portable;
}

static void test_forced(const cpu_features *f)
{
    static const char *const all256[] = {"standard", "sse41", "avx2", "shani", "avx512"};
    const char *names[8], *kept[5] = {NULL};
    sha256_finish_fn finish;
    size_t n;

    CHECK(sha256_impl_force("standard") == 0);
    CHECK(sha1_impl_force("standard") == 0);
    CHECK(sha512_impl_force("standard") == 0);
    CHECK(strcmp(sha256_impl_current(), "standard") == 0);
    CHECK(sha256_transform_impl == sha256_transform_portable);
    CHECK(sha256_finish_impl == sha256_finish_portable);
    CHECK(sha256_d64_impl == sha256_d64_portable);
    hash_all(ref256, ref1, ref512);
    sha256_d64(d64_ref, d64_in, MAX_BLOCKS);

    CHECK(sha256_impl_force("nonsense") == -1);
    CHECK(sha256_impl_force(NULL) == -1);
    CHECK(sha1_impl_force("avx512") == -1);
    CHECK(sha512_impl_force("") == -1);
    CHECK(strcmp(sha256_impl_current(), "standard") == 0);

    n = sha256_impl_list(names, 8);
    CHECK(n >= 1 && n <= 5 && strcmp(names[0], "standard") == 0);
    CHECK(sha256_impl_list(NULL, 0) == n);
    for (size_t i = 0; i < sizeof all256 / sizeof all256[0]; i++) {
        const char *want = expected_forced(all256[i], f);
        int listed = 0;
        for (size_t j = 0; j < n && j < 8; j++)
            listed |= strcmp(names[j], all256[i]) == 0;
        CHECKF(listed == (want != NULL), "sha256 %s listed %d", all256[i], listed);
        if (want == NULL) {
            CHECKF(sha256_impl_force(all256[i]) == -1, "forcing %s must fail", all256[i]);
            continue;
        }
        CHECKF(sha256_impl_force(all256[i]) == 0, "forcing %s", all256[i]);
        CHECKF(strcmp(sha256_impl_current(), want) == 0, "forced %s describes itself as %s",
               all256[i], sha256_impl_current());
        CHECKF(sha256_transform_impl == forced256(all256[i], f, &finish)
               && sha256_finish_impl == finish, "forced %s: its transform and finish", all256[i]);
        printf("forced sha256 %s: %s\n", all256[i], sha256_impl_current());
        kept[i] = sha256_impl_current();
        check_public(all256[i]);
    }
    CHECK(sha256_impl_force("standard") == 0);
    /* A description kept from an earlier force still says what it said. */
    for (size_t i = 0; i < sizeof all256 / sizeof all256[0]; i++)
        CHECKF(!kept[i] || strcmp(kept[i], expected_forced(all256[i], f)) == 0,
               "the string kept from forcing %s now reads %s", all256[i],
               kept[i] ? kept[i] : "(none)");

    n = sha1_impl_list(names, 8);
    CHECK(n == 1 + (size_t)(BUILT_AVX2 && f->avx2 && f->bmi2) + (size_t)(BUILT_SHANI && f->shani));
    for (size_t i = 0; i < n && i < 8; i++) {
        CHECK(sha1_impl_force(names[i]) == 0);
        CHECK(strcmp(sha1_impl_current(), names[i]) == 0);
        CHECKF(sha1_transform_impl == forced1(names[i]), "forced sha1 %s: its transform",
               names[i]);
        printf("forced sha1 %s\n", names[i]);
        check_public(names[i]);
    }
    CHECK(sha1_impl_force("standard") == 0);

    n = sha512_impl_list(names, 8);
    CHECK(n == 1 + (size_t)(BUILT_AVX2 && f->avx2 && f->bmi2)
                 + (size_t)(BUILT_AVX512 && f->avx512 && f->bmi2));
    for (size_t i = 0; i < n && i < 8; i++) {
        CHECK(sha512_impl_force(names[i]) == 0);
        CHECK(strcmp(sha512_impl_current(), names[i]) == 0);
        CHECKF(sha512_transform_impl == forced512(names[i]), "forced sha512 %s: its transform",
               names[i]);
        printf("forced sha512 %s\n", names[i]);
        check_public(names[i]);
    }
}

/* ---- inputs next to an inaccessible page ------------------------------------ */

/* The variants load whole blocks and some schedule the next block ahead of
 * the rounds (the avx2 SHA-1 and SHA-256 transforms and both SHA-512 ones
 * do): a read past the caller's last block would go unnoticed in the tests
 * above, whose buffers have room after the input, and would crash a caller
 * whose message ends at the end of a page. Here every input lies between two
 * PROT_NONE pages, touching one of them, so such a read is a SIGSEGV.
 * Lengths: around each block multiple up to 5 blocks and around 8, 16 and
 * 33 blocks; sha256_d64 counts around every kernel width, twice over. */
typedef struct {
    unsigned char *map, *lo, *hi;   /* the data pages: [lo, hi) */
    size_t len;                      /* the whole mapping */
} guarded;

static int guarded_new(guarded *g, size_t need)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t data = (need + page - 1) / page * page;
    void *m;

    g->len = data + 2 * page;
    m = mmap(NULL, g->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!CHECKF(m != MAP_FAILED, "mmap of %zu bytes", g->len))
        return 0;
    g->map = m;
    g->lo = g->map + page;
    g->hi = g->lo + data;
    if (!CHECK(mprotect(g->map, page, PROT_NONE) == 0 && mprotect(g->hi, page, PROT_NONE) == 0)) {
        munmap(g->map, g->len);
        return 0;
    }
    return 1;
}

#define GUARD_D64_MAX 34   /* 2 * 16 + 2 */

static const size_t guard_d64_counts[] = {
    1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, GUARD_D64_MAX
};

/* The i-th of the lengths tried for a hash of block size b: k * b - 1,
 * k * b, k * b + 1 for each k below (skipping -1). The AVX2 and AVX-512
 * transforms hash a few blocks one at a time and pipeline longer runs (from
 * 4, 8, 16 or 32 blocks), so the counts reach past every such threshold. */
static const size_t guard_ks[] = {0, 1, 2, 3, 4, 5, 8, 16, 33};
#define GUARD_LENS (3 * (sizeof guard_ks / sizeof guard_ks[0]) - 1)
#define GUARD_MSG (33 * 128 + 1)
static size_t guard_len(size_t i, size_t b)
{
    size_t k = guard_ks[(i + 1) / 3], r = (i + 1) % 3;
    return k * b + r - 1;
}

/* Digests of every guard length (at the high end, then at the low end) of
 * the message msg (GUARD_LENS lengths of up to 33 blocks + 1 byte), and
 * sha256_d64 of the counts above (in place and not, at either end). */
typedef struct {
    unsigned char s256[2][GUARD_LENS][32], s1[2][GUARD_LENS][20], s512[2][GUARD_LENS][64];
    unsigned char d64[2][sizeof guard_d64_counts / sizeof guard_d64_counts[0]]
                     [GUARD_D64_MAX * 32];
} guard_digests;

static void guard_hash_all(guarded *in, guarded *out, const unsigned char *msg,
                           guard_digests *d)
{
    for (int end = 0; end < 2; end++) {
        for (size_t i = 0; i < GUARD_LENS; i++) {
            size_t l64 = guard_len(i, 64), l128 = guard_len(i, 128);
            unsigned char *p64 = end == 0 ? in->hi - l64 : in->lo;
            unsigned char *p128 = end == 0 ? in->hi - l128 : in->lo;
            memcpy(p64, msg, l64);
            sha256_hash(d->s256[end][i], p64, l64);
            sha1_hash(d->s1[end][i], p64, l64);
            memcpy(p128, msg, l128);
            sha512_hash(d->s512[end][i], p128, l128);
        }
        for (size_t i = 0; i < sizeof guard_d64_counts / sizeof guard_d64_counts[0]; i++) {
            size_t n = guard_d64_counts[i];
            unsigned char *src = end == 0 ? in->hi - 64 * n : in->lo;
            unsigned char *dst = end == 0 ? out->hi - 32 * n : out->lo;
            memcpy(src, msg, 64 * n);
            sha256_d64(dst, src, n);
            memcpy(d->d64[end][i], dst, 32 * n);
            /* In place: the output is the first half of the input. */
            sha256_d64(src, src, n);
            CHECKF(memcmp(src, dst, 32 * n) == 0, "%s d64 of %zu in place, %s",
                   sha256_impl_current(), n, end == 0 ? "at the end" : "at the start");
        }
    }
}

/* ChaCha20 in place over each guard length (at the high end, then at the low end), from a
 * counter that carries into word 13 within the first blocks. */
typedef unsigned char guard_stream[2][GUARD_LENS][33 * 64 + 2];

static void guard_chacha20_all(guarded *in, const unsigned char *msg, guard_stream *d)
{
    static const unsigned char key[32] = {7, 1, 2, 3};
    for (int end = 0; end < 2; end++) {
        for (size_t i = 0; i < GUARD_LENS; i++) {
            size_t len = guard_len(i, 64);
            unsigned char *p = end == 0 ? in->hi - len : in->lo;
            chacha20_ctx c;
            chacha20_set_key(&c, key);
            chacha20_seek(&c, 0xfffffff5u);
            memcpy(p, msg, len);
            chacha20_crypt(&c, p, p, len);
            memcpy((*d)[end][i], p, len);
        }
    }
}

static void test_guard_pages(void)
{
    static guard_stream c20_ref, c20_got;
    static guard_digests ref, got;
    static unsigned char msg[GUARD_MSG > GUARD_D64_MAX * 64 ? GUARD_MSG : GUARD_D64_MAX * 64];
    const char *names[8];
    guarded in, out;
    size_t n;

    if (!guarded_new(&in, sizeof msg))
        return;
    if (!guarded_new(&out, GUARD_D64_MAX * 32)) {
        munmap(in.map, in.len);
        return;
    }
    check_rng_fill(msg, sizeof msg);
    CHECK(sha256_impl_force("standard") == 0);
    CHECK(sha1_impl_force("standard") == 0);
    CHECK(sha512_impl_force("standard") == 0);
    guard_hash_all(&in, &out, msg, &ref);

    /* Each hash's implementations in turn, the others on portable code. The
     * line before each run names the culprit of a crash. */
    n = sha256_impl_list(names, 8);
    for (size_t i = 1; i < n && i < 8; i++) {
        CHECK(sha256_impl_force(names[i]) == 0);
        printf("guard pages: sha256 %s\n", sha256_impl_current());
        fflush(stdout);
        guard_hash_all(&in, &out, msg, &got);
        CHECKF(memcmp(got.s256, ref.s256, sizeof ref.s256) == 0, "%s: sha256 at a guard",
               names[i]);
        CHECKF(memcmp(got.d64, ref.d64, sizeof ref.d64) == 0, "%s: d64 at a guard", names[i]);
    }
    CHECK(sha256_impl_force("auto") == 0);
    printf("guard pages: sha256 %s\n", sha256_impl_current());
    fflush(stdout);
    guard_hash_all(&in, &out, msg, &got);
    CHECK(memcmp(got.s256, ref.s256, sizeof ref.s256) == 0);
    CHECK(memcmp(got.d64, ref.d64, sizeof ref.d64) == 0);
    CHECK(sha256_impl_force("standard") == 0);

    n = sha1_impl_list(names, 8);
    for (size_t i = 1; i < n && i < 8; i++) {
        CHECK(sha1_impl_force(names[i]) == 0);
        printf("guard pages: sha1 %s\n", names[i]);
        fflush(stdout);
        guard_hash_all(&in, &out, msg, &got);
        CHECKF(memcmp(got.s1, ref.s1, sizeof ref.s1) == 0, "%s: sha1 at a guard", names[i]);
    }
    CHECK(sha1_impl_force("standard") == 0);

    n = sha512_impl_list(names, 8);
    for (size_t i = 1; i < n && i < 8; i++) {
        CHECK(sha512_impl_force(names[i]) == 0);
        printf("guard pages: sha512 %s\n", names[i]);
        fflush(stdout);
        guard_hash_all(&in, &out, msg, &got);
        CHECKF(memcmp(got.s512, ref.s512, sizeof ref.s512) == 0, "%s: sha512 at a guard",
               names[i]);
    }
    CHECK(sha512_impl_force("standard") == 0);

    CHECK(chacha20_impl_force("standard") == 0);
    guard_chacha20_all(&in, msg, &c20_ref);
    n = chacha20_impl_list(names, 8);
    for (size_t i = 1; i < n && i < 8; i++) {
        CHECK(chacha20_impl_force(names[i]) == 0);
        printf("guard pages: chacha20 %s\n", names[i]);
        fflush(stdout);
        guard_chacha20_all(&in, msg, &c20_got);
        CHECKF(memcmp(c20_got, c20_ref, sizeof c20_ref) == 0, "%s: chacha20 at a guard",
               names[i]);
    }
    CHECK(chacha20_impl_force("standard") == 0);
    munmap(in.map, in.len);
    munmap(out.map, out.len);
}

/* ---- the self-test refuses broken variants ---------------------------------- */

/* Portable code made wrong in one corner each: the self-test must look into
 * every corner a real variant could get wrong, or dispatch would install it. */
static void flip(unsigned char *p)
{
    p[0] ^= 1;
}

static void ok_16way(unsigned char *out, const unsigned char *in)
{
    sha256_d64_portable(out, in, 16);
}

static void bad_16way_last_lane(unsigned char *out, const unsigned char *in)
{
    sha256_d64_portable(out, in, 16);
    flip(out + 32 * 15);
}

static void bad_d64_input17(unsigned char *out, const unsigned char *in, size_t blocks)
{
    sha256_d64_portable(out, in, blocks);
    if (blocks > 17)
        flip(out + 32 * 17);
}

static void bad_finish_tail60(uint32_t state[8], unsigned char buf[64], uint64_t bytes,
                              unsigned char *out)
{
    sha256_finish_portable(state, buf, bytes, out);
    if (bytes % 64 == 60)
        flip(out);
}

static void bad_finish_long(uint32_t state[8], unsigned char buf[64], uint64_t bytes,
                            unsigned char *out)
{
    /* Keeps only 60 bits of the byte count: wrong for 2^60 bytes and more. */
    sha256_finish_portable(state, buf, bytes & (((uint64_t)1 << 60) - 1), out);
}

static void bad_transform_3(uint32_t state[8], const unsigned char *blocks, size_t n)
{
    sha256_transform_portable(state, blocks, n);
    if (n == 3)
        state[7] ^= 1;
}

/* The loop-condition break of a pipelined multi-block path (n > 1 for n > 0): the last block
 * dropped, only from bad_from blocks on, where a variant's pipelined loop starts. */
static size_t bad_from;

static void bad_transform_many(uint32_t state[8], const unsigned char *blocks, size_t n)
{
    sha256_transform_portable(state, blocks, n >= bad_from ? n - 1 : n);
}

/* The same break in SHA-1's and SHA-512's transforms, whose variants pipeline from 8 (SHA-1
 * AVX2), 32 (SHA-512 AVX2) and 4 blocks (SHA-512 AVX-512) on. */
static void bad_sha1_many(uint32_t state[5], const unsigned char *blocks, size_t n)
{
    sha1_transform_portable(state, blocks, n >= bad_from ? n - 1 : n);
}

static void bad_sha512_many(uint64_t state[8], const unsigned char *blocks, size_t n)
{
    sha512_transform_portable(state, blocks, n >= bad_from ? n - 1 : n);
}

static void bad_transform_zero(uint32_t state[8], const unsigned char *blocks, size_t n)
{
    sha256_transform_portable(state, blocks, n);
    if (n == 0)
        state[0] ^= 1;
}

static void bad_d64_zero(unsigned char *out, const unsigned char *in, size_t blocks)
{
    sha256_d64_portable(out, in, blocks);
    if (blocks == 0)
        flip(out);
}

static void test_selftest_refuses(void)
{
    static const size_t thresholds[] = {4, 8, 16, 32};

    /* Correct functions pass: a self-test refusing everything proves nothing. */
    CHECK(sha256_impl_selftest(sha256_transform_portable, sha256_finish_portable,
                                    sha256_d64_portable, ok_16way, 16) == 1);
    CHECKF(sha256_impl_selftest(NULL, NULL, NULL, bad_16way_last_lane, 16) == 0,
           "a 16-way kernel wrong in its last lane passed the self-test");
    CHECKF(sha256_impl_selftest(NULL, NULL, bad_d64_input17, NULL, 0) == 0,
           "sha256_d64 wrong at input 17 passed the self-test");
    CHECKF(sha256_impl_selftest(sha256_transform_portable, bad_finish_tail60, NULL, NULL,
                                     0) == 0, "a finish wrong for 60-byte tails passed");
    CHECKF(sha256_impl_selftest(sha256_transform_portable, bad_finish_long, NULL, NULL,
                                     0) == 0, "a finish wrong past 2^60 bytes passed");
    CHECKF(sha256_impl_selftest(bad_transform_3, sha256_finish_portable, NULL, NULL,
                                     0) == 0, "a transform wrong for 3 blocks passed");
    for (size_t i = 0; i < sizeof thresholds / sizeof thresholds[0]; i++) {
        bad_from = thresholds[i];
        CHECKF(sha256_impl_selftest(bad_transform_many, sha256_finish_portable, NULL, NULL,
                                         0) == 0,
               "a transform dropping the last block from %zu blocks on passed", bad_from);
    }
    CHECK(sha1_impl_selftest(sha1_transform_portable) == 1);
    CHECK(sha512_impl_selftest(sha512_transform_portable) == 1);
    for (size_t i = 0; i < sizeof thresholds / sizeof thresholds[0]; i++) {
        bad_from = thresholds[i];
        CHECKF(sha1_impl_selftest(bad_sha1_many) == 0,
               "a SHA-1 transform dropping the last block from %zu blocks on passed", bad_from);
        CHECKF(sha512_impl_selftest(bad_sha512_many) == 0,
               "a SHA-512 transform dropping the last block from %zu blocks on passed",
               bad_from);
    }
    CHECKF(sha256_impl_selftest(bad_transform_zero, sha256_finish_portable, NULL, NULL,
                                     0) == 0, "a transform changing the state on 0 blocks passed");
    CHECKF(sha256_impl_selftest(NULL, NULL, bad_d64_zero, NULL, 0) == 0,
           "sha256_d64 writing on 0 blocks passed");
    /* Nothing the hook ran was installed. */
    CHECK(sha256_transform_impl != bad_transform_3 && sha256_transform_impl != bad_transform_many
          && sha256_transform_impl != bad_transform_zero);
    CHECK(sha256_finish_impl != bad_finish_tail60 && sha256_finish_impl != bad_finish_long);
}

/* ---- every variant set, the same way ------------------------------------------------- */

/* What each set's primitive computes on fixed inputs through its public functions, written
 * to out (SET_OUT bytes at most); returns the bytes written. A set without an entry here
 * fails the test: a new primitive brings its check. */
#define SET_OUT (2 * NMSG * MSG_MAX + 4096)

/* Each message in one piece and in three (a third, a third, the rest). */
#define HASH_TWICE(P, size, out) do { \
        for (int i_ = 0; i_ < NMSG; i_++) { \
            P##_ctx c_; \
            size_t l_ = msg_len[i_], t_ = l_ / 3; \
            P##_hash((out) + (2 * i_) * (size), msgs[i_], l_); \
            P##_init(&c_); \
            P##_write(&c_, msgs[i_], t_); \
            P##_write(&c_, msgs[i_] + t_, t_); \
            P##_write(&c_, msgs[i_] + 2 * t_, l_ - 2 * t_); \
            P##_finalize(&c_, (out) + (2 * i_ + 1) * (size)); \
        } \
    } while (0)

static size_t run_sha1(unsigned char *out)
{
    HASH_TWICE(sha1, 20, out);
    return 2 * NMSG * 20;
}

static size_t run_sha256(unsigned char *out)
{
    HASH_TWICE(sha256, 32, out);
    sha256_d64(out + 2 * NMSG * 32, d64_in, MAX_BLOCKS);
    return 2 * NMSG * 32 + MAX_BLOCKS * 32;
}

static size_t run_sha512(unsigned char *out)
{
    HASH_TWICE(sha512, 64, out);
    return 2 * NMSG * 64;
}

static size_t run_sha3_256(unsigned char *out)
{
    HASH_TWICE(sha3_256, 32, out);
    return 2 * NMSG * 32;
}

/* Keystream, then each message XORed in place, each keyed by the message's first bytes
 * from a counter near a carry into word 13; and 47 blocks and a bit (every width's loop
 * and tails). */
static size_t run_chacha20(unsigned char *out)
{
    size_t at = 0;
    for (int i = 0; i < NMSG; i++) {
        chacha20_ctx c;
        chacha20_set_key(&c, msgs[i]);
        chacha20_set_iv(&c, (uint64_t)i * 0x0123456789abcdefULL);
        chacha20_seek(&c, 0xfffffff0u + (uint64_t)i);
        chacha20_keystream(&c, out + at, msg_len[i]);
        at += msg_len[i];
        memcpy(out + at, msgs[i], msg_len[i]);
        chacha20_crypt(&c, out + at, out + at, msg_len[i]);
        at += msg_len[i];
    }
    {
        chacha20_ctx c;
        chacha20_set_key(&c, msgs[0]);
        chacha20_keystream(&c, out + at, 47 * 64 + 13);
        at += 47 * 64 + 13;
    }
    return at;
}

/* Num3072: each message's first 768 bytes as two numbers, their product and the first's
 * square, through the public functions (which use the 24-limb products in use). */
static size_t run_num3072(unsigned char *out)
{
    size_t at = 0;
    for (int i = 0; i < NMSG; i++) {
        num3072 a, b, r;
        num3072_from_bytes(&a, msgs[i]);
        num3072_from_bytes(&b, msgs[i] + NUM3072_BYTES);
        num3072_mul(&r, &a, &b);
        num3072_to_bytes(out + at, &r);
        at += NUM3072_BYTES;
        num3072_sqr(&r, &a);
        num3072_to_bytes(out + at, &r);
        at += NUM3072_BYTES;
    }
    return at;
}

/* Each message's Poly1305 tag under its own first 32 bytes, one shot and in three pieces
 * (the buffers full of generated bytes, so a key exists for the short ones too); and a
 * 4 KiB one (every vector path). */
static size_t run_poly1305(unsigned char *out)
{
    size_t at = 0;
    for (int i = 0; i < NMSG; i++) {
        poly1305_ctx c;
        size_t l = msg_len[i], t = l / 3;
        poly1305_mac(out + at, msgs[i], l, msgs[i]);
        poly1305_init(&c, msgs[i]);
        poly1305_update(&c, msgs[i], t);
        poly1305_update(&c, msgs[i] + t, t);
        poly1305_update(&c, msgs[i] + 2 * t, l - 2 * t);
        poly1305_finalize(&c, out + at + 16);
        at += 32;
    }
    poly1305_mac(out + at, msgs, 4096, msgs[1]);
    return at + 16;
}

/* Each message encrypted (and decrypted back) under its own first 32 bytes, the next
 * message's first bytes as additional data. */
static size_t run_chacha20poly1305(unsigned char *out)
{
    size_t at = 0;
    for (int i = 0; i < NMSG; i++) {
        chacha20poly1305_ctx c;
        unsigned char nonce[12] = {(unsigned char)i};
        size_t l = msg_len[i];
        chacha20poly1305_init(&c, msgs[i]);
        chacha20poly1305_encrypt(&c, nonce, msgs[(i + 1) % NMSG], (size_t)i, msgs[i], l,
                                 out + at);
        if (chacha20poly1305_decrypt(&c, nonce, msgs[(i + 1) % NMSG], (size_t)i, out + at, l,
                                     out + at + l + 16) != 0)
            memset(out + at + l + 16, 0, l);
        at += 2 * l + 16;
    }
    return at;
}

typedef struct {
    const char *family;
    size_t (*run)(unsigned char *out);
} set_check;

static const set_check set_checks[] = {
    {"sha1", run_sha1},
    {"sha256", run_sha256},
    {"sha512", run_sha512},
    {"chacha20", run_chacha20},
    {"sha3_256", run_sha3_256},
    {"num3072", run_num3072},
    {"poly1305", run_poly1305},
    {"chacha20poly1305", run_chacha20poly1305},
};

static void test_set(const crypto_variant_set *s)
{
    static unsigned char ref[SET_OUT], got[SET_OUT];
    const char *family = crypto_variant_set_family(s);
    const char *built[CRYPTO_VARIANT_MAX], *listed[CRYPTO_VARIANT_MAX], *cur;
    const set_check *c = NULL;
    size_t nb, nl, j = 0, rlen;

    for (size_t i = 0; i < sizeof set_checks / sizeof set_checks[0]; i++)
        if (strcmp(set_checks[i].family, family) == 0)
            c = &set_checks[i];
    if (!CHECKF(c != NULL, "no check for the set '%s' in test_crypto_variants", family))
        return;
    CHECK(crypto_variant_set_label(s)[0] != '\0');
    CHECK(crypto_variant_set_find(family) == s);
    nb = crypto_variant_built(s, built, CRYPTO_VARIANT_MAX);
    nl = crypto_variant_list(s, listed, CRYPTO_VARIANT_MAX);
    if (!CHECK(nb >= 1 && nb <= CRYPTO_VARIANT_MAX && nl >= 1 && nl <= nb))
        return;
    CHECK(strcmp(built[0], "standard") == 0 && strcmp(listed[0], "standard") == 0);
    CHECK(crypto_variant_list(s, NULL, 3) == nl);
    for (size_t i = 0; i < nb; i++)
        for (size_t k = 0; k < i; k++)
            CHECKF(strcmp(built[i], built[k]) != 0, "%s: two variants called %s", family,
                   built[i]);

    CHECK(crypto_variant_force(s, "standard") == 0);
    CHECK(strcmp(crypto_variant_current(s), "standard") == 0);
    rlen = c->run(ref);
    for (size_t i = 0; i < nb; i++) {
        int runs = crypto_variant_cpu_runs(s, built[i]);
        int is_listed = j < nl && strcmp(listed[j], built[i]) == 0;
        j += (size_t)is_listed;
        /* correct code: usable exactly when the CPU runs it */
        CHECKF(is_listed == runs, "%s %s: listed %d, the CPU runs it %d", family, built[i],
               is_listed, runs);
        if (!runs) {
            char what[64];
            snprintf(what, sizeof what, "%s %s", family, built[i]);
            check_untested(what);
            CHECKF(crypto_variant_force(s, built[i]) == -1, "%s: forcing %s, which the CPU "
                   "lacks", family, built[i]);
            continue;
        }
        if (!is_listed || !CHECK(crypto_variant_force(s, built[i]) == 0))
            continue;
        cur = crypto_variant_current(s);
        CHECKF(strncmp(cur, built[i], strlen(built[i])) == 0, "%s: forced %s describes "
               "itself as %s", family, built[i], cur);
        printf("set %s: %s installs %s\n", family, built[i], cur);
        CHECKF(c->run(got) == rlen && memcmp(ref, got, rlen) == 0,
               "%s: the output under %s differs from standard's", family, built[i]);
    }
    CHECKF(j == nl, "%s: listed what is not built, or out of order", family);

    CHECK(crypto_variant_force(s, "auto") == 0);
    cur = crypto_variant_current(s);
    CHECK(strcmp(cur, crypto_variant_autodetect(s)) == 0);
    printf("set %s (%s): auto installs %s\n", family, crypto_variant_set_label(s), cur);
    CHECKF(c->run(got) == rlen && memcmp(ref, got, rlen) == 0,
           "%s: the output under auto differs from standard's", family);
    CHECK(crypto_variant_force(s, "nonsense") == -1);
    CHECK(crypto_variant_force(s, "") == -1);
    CHECK(crypto_variant_force(s, NULL) == -1);
    CHECK(crypto_variant_current(s) == cur);
    CHECK(crypto_variant_force(s, "standard") == 0);
}

/* P_impl_list / P_impl_force / P_impl_current are the set's functions. */
typedef struct {
    const char *family;
    size_t (*list)(const char **names, size_t cap);
    int (*force)(const char *name);
    const char *(*current)(void);
} wrappers;

static void test_wrappers(void)
{
    static const wrappers w[] = {
        {"sha1", sha1_impl_list, sha1_impl_force, sha1_impl_current},
        {"sha256", sha256_impl_list, sha256_impl_force, sha256_impl_current},
        {"sha512", sha512_impl_list, sha512_impl_force, sha512_impl_current},
        {"chacha20", chacha20_impl_list, chacha20_impl_force, chacha20_impl_current},
        {"num3072", num3072_impl_list, num3072_impl_force, num3072_impl_current},
        {"poly1305", poly1305_impl_list, poly1305_impl_force, poly1305_impl_current},
        {"chacha20poly1305", chacha20poly1305_impl_list, chacha20poly1305_impl_force,
         chacha20poly1305_impl_current},
    };
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        const crypto_variant_set *s = crypto_variant_set_find(w[i].family);
        const char *a[CRYPTO_VARIANT_MAX], *b[CRYPTO_VARIANT_MAX];
        size_t n = w[i].list(a, CRYPTO_VARIANT_MAX);
        if (!CHECKF(s != NULL, "no set %s", w[i].family))
            continue;
        CHECK(n == crypto_variant_list(s, b, CRYPTO_VARIANT_MAX) && n <= CRYPTO_VARIANT_MAX);
        for (size_t k = 0; k < n && k < CRYPTO_VARIANT_MAX; k++)
            CHECK(a[k] == b[k]);
        CHECK(w[i].force(a[n - 1]) == 0);
        CHECK(w[i].current() == crypto_variant_current(s));
        CHECK(crypto_variant_force(s, "standard") == 0);
        CHECK(strcmp(w[i].current(), "standard") == 0);
        CHECK(w[i].force(NULL) == -1 && w[i].force("nonsense") == -1);
    }
}

static void test_sets(void)
{
    static const char *const first[] = {"sha1", "sha256", "sha512", "chacha20", "sha3_256"};
    const crypto_variant_set *sets[32];
    size_t n = crypto_variant_sets(sets, 32);

    CHECK(crypto_variant_sets(NULL, 0) == n && crypto_variant_sets(NULL, 5) == n);
    if (!CHECK(n >= 5 && n <= 32))
        return;
    for (size_t i = 0; i < 5; i++)
        CHECKF(strcmp(crypto_variant_set_family(sets[i]), first[i]) == 0,
               "set %zu is %s, not %s", i, crypto_variant_set_family(sets[i]), first[i]);
    for (size_t i = 0; i < n; i++)
        test_set(sets[i]);
    test_wrappers();

    /* NULL and unknown: answers, not crashes */
    CHECK(crypto_variant_set_find(NULL) == NULL);
    CHECK(crypto_variant_set_find("no-such") == NULL);
    CHECK(crypto_variant_set_find("SHA256") == NULL);
    CHECK(strcmp(crypto_variant_set_family(NULL), "") == 0);
    CHECK(strcmp(crypto_variant_set_label(NULL), "") == 0);
    CHECK(crypto_variant_list(NULL, NULL, 0) == 0);
    CHECK(crypto_variant_force(NULL, "auto") == -1);
    CHECK(strcmp(crypto_variant_current(NULL), "") == 0);
}

/* ---- autodetect -------------------------------------------------------------- */

static void test_autodetect(const cpu_features *f)
{
    int shani = BUILT_SHANI && f->shani, avx512 = BUILT_AVX512 && f->avx512;
    int avx2 = BUILT_AVX2 && f->avx2, sse41 = BUILT_SSE41 && f->sse41;
    char want[96] = "";
    const char *got, *again;
    sha256_transform_fn transform;
    sha256_finish_fn finish;
    const char *sha512_want = !f->bmi2 ? "standard" : avx512 ? "avx512" : avx2 ? "avx2"
                              : "standard";
    const char *sha1_want = shani ? "shani" : avx2 && f->bmi2 ? "avx2" : "standard";

    /* The policy in dispatch.c: with SHA-NI, only the 16-lane kernel joins it,
     * and only if it wins the timed race against SHA-NI alone, so with both
     * either string is right; what it says must then be what is installed. */
    got = sha256_autodetect();
    if (avx512 && (!shani || strncmp(got, "avx512(16way),", 14) == 0))
        strcat(want, "avx512(16way),");
    if (!shani && avx2)
        strcat(want, f->bmi2 ? "avx2(1way,8way)," : "avx2(8way),");
    if (!shani && sse41)
        strcat(want, "sse41(4way),");
    if (shani)
        strcat(want, "shani(1way,2way),");
    if (want[0] == '\0')
        strcpy(want, "standard");
    else
        want[strlen(want) - 1] = '\0';

    printf("sha256_autodetect: %s (sha1 %s, sha512 %s)\n", got, sha1_impl_current(),
           sha512_impl_current());
    CHECKF(strcmp(got, want) == 0, "autodetect said %s, expected %s", got, want);
    CHECK(strcmp(sha256_impl_current(), got) == 0);
    CHECK(strcmp(sha1_impl_current(), sha1_want) == 0);
    CHECK(strcmp(sha512_impl_current(), sha512_want) == 0);

    /* The pointers are what the strings say: the transform (and finish) of
     * the variant that provides them, as when it is forced alone. */
    transform = forced256(shani ? "shani" : avx2 ? "avx2" : "standard", f, &finish);
    CHECK(sha256_transform_impl == transform);
    CHECK(sha256_finish_impl == finish);
    CHECK(sha1_transform_impl == forced1(sha1_want));
    CHECK(sha512_transform_impl == forced512(sha512_want));
    if (strcmp(want, "standard") == 0)
        CHECK(sha256_d64_impl == sha256_d64_portable);
    check_public("autodetected");

    /* Forcing and coming back: same choice, same string. */
    CHECK(sha256_impl_force("standard") == 0);
    again = sha256_autodetect();
    CHECK(again == got && strcmp(again, want) == 0);
    CHECK(sha256_impl_force("auto") == 0);
    CHECK(strcmp(sha256_impl_current(), want) == 0);
}

/* cpuid.c against the compiler's own CPU detection (libgcc / compiler-rt read
 * CPUID and XGETBV independently): the flags the variants are chosen from must
 * agree with it, here and under valgrind. Off x86 every flag must be 0. */
static void test_cpu_detection(const cpu_features *f)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    __builtin_cpu_init();
    CHECK(f->sse41 == (__builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("ssse3")));
    CHECK(f->avx2 == !!__builtin_cpu_supports("avx2"));
    CHECK(f->avx512 == (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")
                        && __builtin_cpu_supports("avx512bw")));
    CHECK(f->bmi2 == !!__builtin_cpu_supports("bmi2"));
    CHECK(f->avx512ifma == (f->avx512 && __builtin_cpu_supports("avx512ifma")));
#if !defined(__clang__)
    /* clang 14's builtin knows neither "sha" nor "adx". */
    CHECK(f->shani == (__builtin_cpu_supports("sha") && f->sse41));
    CHECK(f->adx == !!__builtin_cpu_supports("adx"));
#endif
    /* the bits say what the fields say */
    CHECK(cpu_features_supports(0));
    CHECK(cpu_features_supports(CPU_SSE41) == f->sse41);
    CHECK(cpu_features_supports(CPU_AVX2) == f->avx2);
    CHECK(cpu_features_supports(CPU_SHANI) == f->shani);
    CHECK(cpu_features_supports(CPU_AVX512) == f->avx512);
    CHECK(cpu_features_supports(CPU_BMI2) == f->bmi2);
    CHECK(cpu_features_supports(CPU_AVX512IFMA) == f->avx512ifma);
    CHECK(cpu_features_supports(CPU_ADX) == f->adx);
    CHECK(cpu_features_supports(CPU_AVX2 | CPU_BMI2) == (f->avx2 && f->bmi2));
#elif !defined(__x86_64__) && !defined(__i386__)
    CHECK(!f->sse41 && !f->avx2 && !f->shani && !f->avx512 && !f->bmi2 && !f->avx512ifma
          && !f->adx);
    CHECK(cpu_features_supports(0) && !cpu_features_supports(CPU_SSE41));
#else
    (void)f;
#endif
}

/* The process's first detection, from eight threads at once: each must get the
 * same answer, and no variant may be refused for good because another thread's
 * self-test ran at the same time (it did: about half of such runs lost one, and
 * a kernel read past a test buffer). The verdicts are cached, so the checks
 * below (forcing every level, the autodetected string against CPUID) see what
 * this concurrent first detection decided. */
#define DETECT_THREADS 8
static pthread_barrier_t detect_barrier;
static const char *detected[DETECT_THREADS];

static void *detect_thread(void *arg)
{
    pthread_barrier_wait(&detect_barrier);
    detected[(size_t)arg] = sha256_autodetect();
    return NULL;
}

static void test_concurrent_first_detection(void)
{
    pthread_t t[DETECT_THREADS];
    size_t i, started = 0;
    if (pthread_barrier_init(&detect_barrier, NULL, DETECT_THREADS) != 0) {
        check_untested("concurrent first detection (no pthread barrier)");
        return;
    }
    for (i = 0; i < DETECT_THREADS; i++)
        started += pthread_create(&t[i], NULL, detect_thread, (void *)i) == 0;
    if (!CHECK(started == DETECT_THREADS))
        exit(check_finish()); /* the others wait at the barrier for ever */
    for (i = 0; i < DETECT_THREADS; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&detect_barrier);
    for (i = 1; i < DETECT_THREADS; i++)
        CHECKF(detected[i] && detected[0] && strcmp(detected[i], detected[0]) == 0,
               "thread %zu detected '%s', thread 0 '%s'", i, detected[i] ? detected[i] : "",
               detected[0] ? detected[0] : "");
}

/* Detection again, while another thread hashes and reads the string the
 * first detection returned (the usual "each worker detects, then hashes"):
 * a repeated detection must write nothing. It used to rebuild the
 * description in place (the reader saw it cut short, e.g. "avx512(16way)")
 * and reinstall the chain, emptied for a moment, under the hashing thread. */
typedef struct {
    const char *desc;                 /* what detection returned */
    char copy[128];                   /* its text then */
    unsigned char d64_in[64 * 20], d64_ref[32 * 20], abc_ref[32];
    int done, reads, bad_desc, bad_hash;
} redetect_state;

static void *redetect_reader(void *arg)
{
    redetect_state *s = arg;
    unsigned char got[32 * 20];
    while (!__atomic_load_n(&s->done, __ATOMIC_ACQUIRE) || s->reads < 1000) {
        const volatile char *p = s->desc;
        size_t i = 0;
        while (s->copy[i] != '\0' && p[i] == s->copy[i])
            i++;
        s->bad_desc += p[i] != s->copy[i];
        sha256_d64(got, s->d64_in, 20);
        s->bad_hash += memcmp(got, s->d64_ref, sizeof s->d64_ref) != 0;
        sha256_hash(got, (const unsigned char *)"abc", 3);
        s->bad_hash += memcmp(got, s->abc_ref, 32) != 0;
        s->reads++;
    }
    return NULL;
}

static void test_redetect_writes_nothing(int calls)
{
    static redetect_state s;
    pthread_t t;
    int i, same = 1;
    s.desc = sha256_autodetect();
    if (!CHECK(strlen(s.desc) < sizeof s.copy))
        return;
    strcpy(s.copy, s.desc);
    for (i = 0; i < (int)sizeof s.d64_in; i++)
        s.d64_in[i] = (unsigned char)(i * 7 + 1);
    sha256_d64_portable(s.d64_ref, s.d64_in, 20);
    sha256_hash(s.abc_ref, (const unsigned char *)"abc", 3);
    if (pthread_create(&t, NULL, redetect_reader, &s) != 0) {
        check_untested("detection repeated beside a reader (no thread)");
        return;
    }
    for (i = 0; i < calls; i++)
        same &= sha256_autodetect() == s.desc;
    __atomic_store_n(&s.done, 1, __ATOMIC_RELEASE);
    pthread_join(t, NULL);
    CHECK(same);
    CHECKF(s.bad_desc == 0, "%d of %d reads saw the description change", s.bad_desc, s.reads);
    CHECKF(s.bad_hash == 0, "%d of %d hashes wrong during detection", s.bad_hash, 2 * s.reads);
    printf("repeated detection: %d calls, %d reads by another thread\n", calls, s.reads);
}

static int print_untested(void)
{
    const crypto_variant_set *sets[32];
    size_t n = crypto_variant_sets(sets, 32);
    for (size_t i = 0; i < n && i < 32; i++) {
        const char *built[CRYPTO_VARIANT_MAX];
        size_t nb = crypto_variant_built(sets[i], built, CRYPTO_VARIANT_MAX);
        for (size_t k = 0; k < nb && k < CRYPTO_VARIANT_MAX; k++)
            if (!crypto_variant_cpu_runs(sets[i], built[k]))
                printf("%s %s\n", crypto_variant_set_family(sets[i]), built[k]);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const cpu_features *f;

    if (argc > 1 && strcmp(argv[1], "--untested") == 0)
        return print_untested();
    test_concurrent_first_detection();
    f = cpu_features_get();
    check_rng_init(argv[0]);
    if (argc > 1 && strcmp(argv[1], "--quick") == 0)
        rounds = 20;
    test_redetect_writes_nothing(rounds * 500);
    printf("cpu: sse41=%d avx2=%d shani=%d avx512=%d bmi2=%d avx512ifma=%d adx=%d\n",
           f->sse41, f->avx2, f->shani, f->avx512, f->bmi2, f->avx512ifma, f->adx);
    test_cpu_detection(f);
    make_messages();
    test_variants(f);
    test_forced(f);
    test_guard_pages();
    test_selftest_refuses();
    test_sets();
    test_autodetect(f);
    printf("variant tests run: %d\n", ran);
    return check_finish();
}
