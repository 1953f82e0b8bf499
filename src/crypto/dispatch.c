/* Run-time choice of hash implementations (see dispatch.h and impl.h).
 *
 * Every variant is described by a table entry saying what it provides and
 * which CPU feature it needs. Nothing is switched to until cpu_features_get()
 * allows it and a self-test against the portable code passes; the self-test
 * result is cached, so autodetection and forcing cost it once per variant. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>
#include <time.h>

#include "crypto/cpuid.h"
#include "crypto/dispatch.h"
#include "crypto/impl.h"
#include "crypto/sha256.h"
#include "crypto/variants.h"
#include "util/spinlock.h"

sha256_transform_fn sha256_transform_impl = sha256_transform_portable;
sha256_d64_fn sha256_d64_impl = sha256_d64_portable;
sha256_finish_fn sha256_finish_impl = sha256_finish_portable;
sha1_transform_fn sha1_transform_impl = sha1_transform_portable;
sha512_transform_fn sha512_transform_impl = sha512_transform_portable;

/* ---- the variants ------------------------------------------------------ */

enum {
    ISA_NONE, ISA_BMI2, ISA_SSE41, ISA_AVX2, ISA_AVX2_BMI2, ISA_SHANI, ISA_AVX512,
    ISA_AVX512_BMI2
};

static int isa_ok(int isa)
{
    const cpu_features *f = cpu_features_get();
    switch (isa) {
    case ISA_BMI2: return f->bmi2;
    case ISA_SSE41: return f->sse41;
    case ISA_AVX2: return f->avx2;
    case ISA_AVX2_BMI2: return f->avx2 && f->bmi2;
    case ISA_SHANI: return f->shani;
    case ISA_AVX512: return f->avx512;
    case ISA_AVX512_BMI2: return f->avx512 && f->bmi2;
    default: return 1;
    }
}

typedef struct {
    const char *name;
    int isa;                         /* what every part needs */
    int transform_isa;               /* what the transform and finish need besides */
    sha256_transform_fn transform;   /* NULL: none of its own */
    sha256_finish_fn finish;         /* with the transform, never without */
    sha256_d64_fn d64;               /* one input at a time; NULL: none */
    sha256_d64_kernel kernel;        /* NULL: none */
    unsigned width;                  /* inputs per kernel call */
} sha256_variant;

/* Widest kernel first: the order of the description and of the d64 chain. */
static const sha256_variant sha256_variants[] = {
    {"standard", ISA_NONE, ISA_NONE, sha256_transform_portable, sha256_finish_portable,
     sha256_d64_portable, NULL, 0},
#ifdef ENABLE_AVX512
    {"avx512", ISA_AVX512, ISA_NONE, NULL, NULL, NULL, sha256_d64_avx512_16way, 16},
#endif
#ifdef ENABLE_AVX2
    /* the 8-way kernel needs AVX2 only; the transform's rounds use rorx */
    {"avx2", ISA_AVX2, ISA_BMI2, sha256_transform_avx2, sha256_finish_avx2, NULL,
     sha256_d64_avx2_8way, 8},
#endif
#ifdef ENABLE_SSE41
    {"sse41", ISA_SSE41, ISA_NONE, NULL, NULL, NULL, sha256_d64_sse41_4way, 4},
#endif
#ifdef ENABLE_SHANI
    {"shani", ISA_SHANI, ISA_NONE, sha256_transform_shani, sha256_finish_shani,
     sha256_d64_shani, sha256_d64_shani_2way, 2},
#endif
};
#define N_SHA256 (sizeof sha256_variants / sizeof sha256_variants[0])

typedef struct {
    const char *name;
    int isa;
    sha1_transform_fn transform;
} sha1_variant;

static const sha1_variant sha1_variants[] = {
    {"standard", ISA_NONE, sha1_transform_portable},
#ifdef ENABLE_AVX2
    {"avx2", ISA_AVX2_BMI2, sha1_transform_avx2},
#endif
#ifdef ENABLE_SHANI
    {"shani", ISA_SHANI, sha1_transform_shani},
#endif
};
#define N_SHA1 (sizeof sha1_variants / sizeof sha1_variants[0])

typedef struct {
    const char *name;
    int isa;
    sha512_transform_fn transform;
} sha512_variant;

static const sha512_variant sha512_variants[] = {
    {"standard", ISA_NONE, sha512_transform_portable},
#ifdef ENABLE_AVX2
    {"avx2", ISA_AVX2_BMI2, sha512_transform_avx2},
#endif
#ifdef ENABLE_AVX512
    {"avx512", ISA_AVX512_BMI2, sha512_transform_avx512},
#endif
};
#define N_SHA512 (sizeof sha512_variants / sizeof sha512_variants[0])

/* ---- self-tests against the portable code ---------------------------- */

#define TEST_BLOCKS 35   /* 2 * 16 + 3: every kernel width, twice, plus a tail */

/* Deterministic test input: a zero block, an all-ones block (of block
 * bytes each), then xorshift bytes. The tests put every buffer they hand to
 * a variant one byte past an aligned address: a variant that assumed
 * alignment (callers' pointers, and a context's buffer, have none) shows it
 * here, at start-up, not later on some caller's buffer. */
static void test_input(unsigned char *buf, size_t len, size_t block)
{
    uint32_t x = 0x9e3779b9;
    for (size_t i = 0; i < len; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        buf[i] = i < block ? 0 : i < 2 * block ? 0xff : (unsigned char)x;
    }
}

/* The chained transform tests: one call of each of these block counts in turn, each from the
 * state the previous one left, on variant and portable code alike. Every transform variant
 * has up to two paths by block count: one block at a time below a threshold T, and from T on
 * a pipelined loop whose first and last blocks take their own code (T is 8 for sha1_avx2, 16
 * for sha256_avx2, 32 for sha512_avx2, 4 for sha512_avx512; the SHA-NI transforms have only
 * the one loop). The counts run each loop zero, one and many times and meet every threshold
 * from both sides: 0, 1, 2, 3, then T - 1, T, T + 1 for T = 4, 8, 16, 32, then 67 (twice
 * the largest T, plus three). 250 blocks in all. */
static const unsigned char test_counts[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33,
                                            67};
#define TEST_MAX_COUNT 67

/* Any of the transforms, called through call (so that one test drives all three types). */
typedef union {
    sha256_transform_fn sha256;
    sha1_transform_fn sha1;
    sha512_transform_fn sha512;
} any_transform;

typedef struct {
    size_t block, state_size;   /* bytes */
    const void *iv;
    void (*call)(any_transform fn, void *state, const unsigned char *in, size_t n);
} transform_family;

static void call_sha256(any_transform fn, void *state, const unsigned char *in, size_t n)
{
    fn.sha256(state, in, n);
}

static void call_sha1(any_transform fn, void *state, const unsigned char *in, size_t n)
{
    fn.sha1(state, in, n);
}

static void call_sha512(any_transform fn, void *state, const unsigned char *in, size_t n)
{
    fn.sha512(state, in, n);
}

/* fn against ref on the counts above, from the family's IV; the count-1 call hashes the zero
 * block, the others start at the all-ones block or the one after it. */
static int transform_ok(const transform_family *f, any_transform ref, any_transform fn)
{
    unsigned char raw[(TEST_MAX_COUNT + 2) * 128 + 1], *in = raw + 1;
    uint64_t s_ref[8], s_got[8];   /* room for the largest state, 64 bytes */

    memcpy(s_ref, f->iv, f->state_size);
    test_input(in, (TEST_MAX_COUNT + 2) * f->block, f->block);
    for (size_t k = 0; k < sizeof test_counts; k++) {
        size_t n = test_counts[k];
        const unsigned char *from = in + f->block * (n == 1 ? 0 : 1 + k % 2);
        memcpy(s_got, s_ref, f->state_size);
        f->call(ref, s_ref, from, n);
        f->call(fn, s_got, from, n);
        if (memcmp(s_ref, s_got, f->state_size) != 0)
            return 0;
    }
    return 1;
}

static const uint32_t sha1_iv[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476,
                                    0xc3d2e1f0};
static const uint64_t sha512_iv[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
    0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
    0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

static int sha256_transform_ok(sha256_transform_fn fn)
{
    static const transform_family f = {64, 32, sha256_iv, call_sha256};
    any_transform ref, got;
    ref.sha256 = sha256_transform_portable;
    got.sha256 = fn;
    return transform_ok(&f, ref, got);
}

/* The finish against the portable one: every tail length 0..63 after 0, 1
 * and 2^54 + 1 whole blocks (the last sets the top bit of the length field),
 * from states that are not the IV, with bytes past the tail that must be
 * ignored. */
static int sha256_finish_ok(sha256_finish_fn fn)
{
    unsigned char in[5 * 64], raw_ref[64 + 32 + 1], raw_got[64 + 32 + 1];
    unsigned char *buf_ref = raw_ref + 1, *ref = buf_ref + 64;   /* unaligned */
    unsigned char *buf_got = raw_got + 1, *got = buf_got + 64;
    static const uint64_t whole[3] = {0, 64, (((uint64_t)1 << 54) + 1) * 64};

    test_input(in, sizeof in, 64);
    for (size_t k = 0; k < 3; k++) {
        for (size_t used = 0; used < 64; used++) {
            uint32_t s_ref[8], s_got[8];
            memcpy(s_ref, in + 256 + 4 * k, sizeof s_ref);
            memcpy(s_got, s_ref, sizeof s_got);
            memcpy(buf_ref, in + 128 + used, 64);
            memcpy(buf_got, buf_ref, 64);
            sha256_finish_portable(s_ref, buf_ref, whole[k] + used, ref);
            fn(s_got, buf_got, whole[k] + used, got);
            if (memcmp(ref, got, 32) != 0)
                return 0;
        }
    }
    return 1;
}

/* d64 through fn on counts 0 .. TEST_BLOCKS, in place and not: a kernel of width W (16 at
 * most) runs zero, one and two times with every leftover count below W after it; count 0
 * writes nothing. */
static int sha256_d64_ok(sha256_d64_fn fn)
{
    unsigned char raw_in[TEST_BLOCKS * 64 + 1], raw_got[TEST_BLOCKS * 64 + 1];
    unsigned char *in = raw_in + 1, *got = raw_got + 1, ref[TEST_BLOCKS * 32];

    test_input(in, TEST_BLOCKS * 64, 64);
    sha256_d64_portable(ref, in, TEST_BLOCKS);
    memset(got, 0x5c, 64);
    fn(got, in, 0);
    for (size_t i = 0; i < 64; i++)
        if (got[i] != 0x5c)
            return 0;
    for (size_t n = 1; n <= TEST_BLOCKS; n++) {
        memset(got, 0, TEST_BLOCKS * 64);
        fn(got, in, n);
        if (memcmp(ref, got, 32 * n) != 0)
            return 0;
        memcpy(got, in, 64 * n);
        fn(got, got, n);
        if (memcmp(ref, got, 32 * n) != 0)
            return 0;
    }
    return 1;
}

/* How sha256_d64 is spread over kernels: groups of width[0] inputs to
 * kernel[0] (the widest), what is left in groups of width[1] to kernel[1],
 * and so on; the last inputs to one, which takes any count. */
typedef struct {
    sha256_d64_kernel kernel[N_SHA256];
    size_t width[N_SHA256];
    size_t count;
    sha256_d64_fn one;
} d64_chain;

static void d64_chain_run(const d64_chain *c, unsigned char *out, const unsigned char *in,
                          size_t blocks)
{
    for (size_t k = 0; k < c->count; k++) {
        size_t w = c->width[k];
        for (; blocks >= w; blocks -= w, in += 64 * w, out += 32 * w)
            c->kernel[k](out, in);
    }
    if (blocks > 0)
        c->one(out, in, blocks);
}

/* The chain in use, and the one a kernel's self-test drives (that kernel,
 * then portable code for the leftovers). */
static d64_chain chain, test_chain;

static void sha256_d64_chain(unsigned char *out, const unsigned char *in, size_t blocks)
{
    d64_chain_run(&chain, out, in, blocks);
}

static void sha256_d64_test_chain(unsigned char *out, const unsigned char *in, size_t blocks)
{
    d64_chain_run(&test_chain, out, in, blocks);
}

/* Whether this CPU runs the variant's transform and finish (given that it
 * runs the variant). */
static int has_transform(const sha256_variant *v)
{
    return v->transform != NULL && isa_ok(v->transform_isa);
}

static int sha256_variant_ok(const sha256_variant *v)
{
    if (has_transform(v) && !sha256_transform_ok(v->transform))
        return 0;
    if (has_transform(v) && v->finish && !sha256_finish_ok(v->finish))
        return 0;
    if (v->d64 && !sha256_d64_ok(v->d64))
        return 0;
    if (v->kernel) {
        test_chain.kernel[0] = v->kernel;
        test_chain.width[0] = v->width;
        test_chain.count = 1;
        test_chain.one = sha256_d64_portable;
        if (!sha256_d64_ok(sha256_d64_test_chain))
            return 0;
    }
    return 1;
}

static int sha1_variant_ok(const sha1_variant *v)
{
    static const transform_family f = {64, 20, sha1_iv, call_sha1};
    any_transform ref, got;
    ref.sha1 = sha1_transform_portable;
    got.sha1 = v->transform;
    return transform_ok(&f, ref, got);
}

static int sha512_variant_ok(const sha512_variant *v)
{
    static const transform_family f = {128, 64, sha512_iv, call_sha512};
    any_transform ref, got;
    ref.sha512 = sha512_transform_portable;
    got.sha512 = v->transform;
    return transform_ok(&f, ref, got);
}

/* Usable: in the build (it is in the table), allowed by the CPU, and
 * self-tested; entry 0, the portable code, always is. Cached per table
 * index: 0 unknown, 1 usable, -1 not. */
static signed char sha256_state[N_SHA256], sha1_state[N_SHA1], sha512_state[N_SHA512];

static int sha256_usable(size_t i)
{
    if (i >= N_SHA256)
        return 0;
    if (sha256_state[i] == 0)
        sha256_state[i] = i == 0 || (isa_ok(sha256_variants[i].isa)
                                     && sha256_variant_ok(&sha256_variants[i])) ? 1 : -1;
    return sha256_state[i] > 0;
}

static int sha1_usable(size_t i)
{
    if (i >= N_SHA1)
        return 0;
    if (sha1_state[i] == 0)
        sha1_state[i] = i == 0 || (isa_ok(sha1_variants[i].isa)
                                   && sha1_variant_ok(&sha1_variants[i])) ? 1 : -1;
    return sha1_state[i] > 0;
}

static int sha512_usable(size_t i)
{
    if (i >= N_SHA512)
        return 0;
    if (sha512_state[i] == 0)
        sha512_state[i] = i == 0 || (isa_ok(sha512_variants[i].isa)
                                     && sha512_variant_ok(&sha512_variants[i])) ? 1 : -1;
    return sha512_state[i] > 0;
}

static const char *sha256_name(size_t i) { return sha256_variants[i].name; }
static const char *sha1_name(size_t i) { return sha1_variants[i].name; }
static const char *sha512_name(size_t i) { return sha512_variants[i].name; }

/* The usable entries of a table of n, for the *_impl_list functions. */
static size_t list_usable(size_t n, const char *(*name)(size_t), int (*usable)(size_t),
                          const char **names, size_t cap)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        if (!usable(i))
            continue;
        if (count < cap)
            names[count] = name(i);
        count++;
    }
    return count;
}

/* The index of want in a table of n if it is usable, else -1; "auto" is
 * the last usable entry, which the tables put last because it is best. */
static int find_usable(size_t n, const char *(*name)(size_t), int (*usable)(size_t),
                       const char *want)
{
    int best = 0;
    if (want == NULL)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(want, "auto") == 0) {
            if (usable(i))
                best = (int)i;
        } else if (strcmp(want, name(i)) == 0) {
            return usable(i) ? (int)i : -1;
        }
    }
    return strcmp(want, "auto") == 0 ? best : -1;
}

/* ---- SHA-256 ----------------------------------------------------------- */

/* The sha256_d64 chain of the variants whose bits are set in use (bit i:
 * sha256_variants[i], all usable): their kernels widest first, and the
 * one-at-a-time d64 of the last that has one (portable otherwise). */
static void build_chain(unsigned use, d64_chain *c)
{
    c->count = 0;
    c->one = sha256_d64_portable;
    for (size_t i = 1; i < N_SHA256; i++) {
        const sha256_variant *v = &sha256_variants[i];
        if (!(use & 1u << i))
            continue;
        if (v->d64)
            c->one = v->d64;
        if (v->kernel) {
            c->kernel[c->count] = v->kernel;
            c->width[c->count++] = v->width;
        }
    }
}

/* Descriptions: of the autodetected set, and of each variant when forced
 * alone. Each buffer is written once, the first time its set is installed
 * (its text depends on nothing else: the verdicts are cached), so a string
 * sha256_autodetect or sha256_impl_current returned never changes, even
 * while another thread switches implementations. */
static char sha256_auto_desc[96], sha256_forced_desc[N_SHA256][32];
static const char *sha256_desc = "standard";

/* Installs the variants whose bits are set in use (bit i: sha256_variants[i]),
 * which must all be usable, and describes them in desc. The transform (with
 * its finish) and the one-at-a-time d64 come from the last variant in the
 * table that has them, and "1way" in the description names the transform's
 * variant; the kernels chain widest first. Each buffer describes one set (the
 * auto set is fixed: the verdicts are cached), so when desc is the one in
 * use that set is in place and nothing is written at all: a repeated
 * detection (each worker thread detecting before it hashes) then cannot
 * disturb a thread that is already hashing. */
static void sha256_install(unsigned use, char *desc)
{
    sha256_transform_fn transform = sha256_transform_portable;
    sha256_finish_fn finish = sha256_finish_portable;
    size_t transform_from = 0;
    char *p = desc;

    if (desc == sha256_desc)
        return;
    for (size_t i = 1; i < N_SHA256; i++) {
        const sha256_variant *v = &sha256_variants[i];
        if ((use & 1u << i) && has_transform(v)) {
            transform = v->transform;
            finish = v->finish;
            transform_from = i;
        }
    }
    build_chain(use, &chain);
    sha256_transform_impl = transform;
    sha256_finish_impl = finish;
    sha256_d64_impl = chain.count > 0 ? sha256_d64_chain : chain.one;
    sha256_desc = desc;
    if (desc[0] != '\0')
        return; /* described the first time */

    for (size_t i = 1; i < N_SHA256; i++) {
        const sha256_variant *v = &sha256_variants[i];
        const char *sep = "(";
        if (!(use & 1u << i))
            continue;
        p += strlen(strcpy(p, p == desc ? "" : ","));
        p += strlen(strcpy(p, v->name));
        if (i == transform_from) {
            p += strlen(strcpy(p, "(1way"));
            sep = ",";
        }
        if (v->kernel) {
            /* widths are at most 16: two digits */
            *p++ = *sep;
            if (v->width >= 10)
                *p++ = (char)('0' + v->width / 10);
            *p++ = (char)('0' + v->width % 10);
            p += strlen(strcpy(p, "way"));
        }
        p += strlen(strcpy(p, ")"));
    }
    if (desc[0] == '\0')
        strcpy(desc, "standard");
}

/* The race between two sets of sha256_d64 kernels (see sha256_best): the
 * fastest of RACE_ROUNDS timed calls of each on RACE_BLOCKS inputs, the calls
 * interleaved (a, b, a, b, ...) so that a change in the machine's speed falls
 * on both, after RACE_WARMUP untimed rounds (caches, page faults, and the
 * wide vector units waking up). The fastest call, not the median: a call
 * that an interrupt or another process slowed tells nothing about the code.
 * Costs about 80 us on a Zen 5 VM (doc/crypto.md). Returns 1 when wide's
 * fastest call is at least as fast as narrow's. */
#define RACE_BLOCKS 64
#define RACE_WARMUP 2
#define RACE_ROUNDS 10

static double race_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int sha256_race_wide_wins(unsigned wide, unsigned narrow)
{
    static unsigned char buf[RACE_BLOCKS * 64];   /* under the dispatch lock */
    d64_chain c[2];
    double best[2] = {1e300, 1e300};

    build_chain(wide, &c[0]);
    build_chain(narrow, &c[1]);
    test_input(buf, sizeof buf, 64);
    for (int r = 0; r < RACE_WARMUP + RACE_ROUNDS; r++) {
        for (int k = 0; k < 2; k++) {
            double t = race_clock_ns();
            d64_chain_run(&c[k], buf, buf, RACE_BLOCKS);
            t = race_clock_ns() - t;
            if (r >= RACE_WARMUP && t < best[k])
                best[k] = t;
        }
    }
    return best[0] <= best[1];
}

/* The set autodetection installs; see doc/crypto.md for the measurements
 * behind the order. The verdict is cached: the autodetected set, and the
 * description written for it, never change within a process. */
static unsigned sha256_best(void)
{
    static int decided;
    static unsigned best;
    unsigned use = 0, wide = 0;
    int shani = find_usable(N_SHA256, sha256_name, sha256_usable, "shani");

    if (decided)
        return best;
    for (size_t i = 1; i < N_SHA256; i++) {
        const sha256_variant *v = &sha256_variants[i];
        if (!sha256_usable(i))
            continue;
        /* SHA-NI two ways beats four and eight SIMD lanes: with it, only
         * the 16-lane AVX-512 kernel is worth a place in the chain. */
        if (shani > 0 && v->kernel && v->width < 16 && (int)i != shani)
            continue;
        if (shani > 0 && v->kernel && v->width >= 16)
            wide |= 1u << i;
        use |= 1u << i;
    }
    /* Whether 16 AVX-512 lanes beat SHA-NI's two ways depends on the CPU
     * (and, on a shared VM, on what runs beside it): timed here, once. */
    if (wide && !sha256_race_wide_wins(use, use & ~wide))
        use &= ~wide;
    best = use;
    decided = 1;
    return best;
}

static size_t sha256_impl_list_unlocked(const char **names, size_t cap)
{
    return list_usable(N_SHA256, sha256_name, sha256_usable, names, cap);
}

static int sha256_impl_force_unlocked(const char *name)
{
    int i;
    if (name != NULL && strcmp(name, "auto") == 0) {
        sha256_install(sha256_best(), sha256_auto_desc);
        return 0;
    }
    i = find_usable(N_SHA256, sha256_name, sha256_usable, name);
    if (i < 0)
        return -1;
    sha256_install(i == 0 ? 0u : 1u << i, sha256_forced_desc[i]);
    return 0;
}

static const char *sha256_impl_current_unlocked(void)
{
    return sha256_desc;
}

/* ---- SHA-1 and SHA-512 ------------------------------------------------- */

static const char *sha1_desc = "standard";
static const char *sha512_desc = "standard";

static size_t sha1_impl_list_unlocked(const char **names, size_t cap)
{
    return list_usable(N_SHA1, sha1_name, sha1_usable, names, cap);
}

static int sha1_impl_force_unlocked(const char *name)
{
    int i = find_usable(N_SHA1, sha1_name, sha1_usable, name);
    if (i < 0)
        return -1;
    /* no store when nothing changes, as for SHA-256 */
    if (sha1_transform_impl != sha1_variants[i].transform)
        sha1_transform_impl = sha1_variants[i].transform;
    sha1_desc = sha1_variants[i].name;
    return 0;
}

static const char *sha1_impl_current_unlocked(void)
{
    return sha1_desc;
}

static size_t sha512_impl_list_unlocked(const char **names, size_t cap)
{
    return list_usable(N_SHA512, sha512_name, sha512_usable, names, cap);
}

static int sha512_impl_force_unlocked(const char *name)
{
    int i = find_usable(N_SHA512, sha512_name, sha512_usable, name);
    if (i < 0)
        return -1;
    if (sha512_transform_impl != sha512_variants[i].transform)
        sha512_transform_impl = sha512_variants[i].transform;
    sha512_desc = sha512_variants[i].name;
    return 0;
}

static const char *sha512_impl_current_unlocked(void)
{
    return sha512_desc;
}

static const char *sha256_autodetect_unlocked(void)
{
    sha256_impl_force_unlocked("auto");
    sha1_impl_force_unlocked("auto");
    sha512_impl_force_unlocked("auto");
    return sha256_desc;
}

/* ---- the public functions: one at a time --------------------------------- */

/* Every function here runs under one lock: self-tests share buffers and the
 * chain being built, and the verdicts and descriptions are shared state, so
 * two threads detecting at once (a program's first call may come from any
 * thread) would otherwise refuse working variants or read past a test buffer.
 * Held for the self-tests at most. */
static char dispatch_lock;

#define LOCKED(type, call) \
    do { \
        type r_; \
        bb_spin_lock(&dispatch_lock); \
        r_ = call; \
        bb_spin_unlock(&dispatch_lock); \
        return r_; \
    } while (0)

/* The list, force and current functions of one hash, each under the lock. */
#define LOCKED_IMPL_FUNCTIONS(hash) \
    size_t hash##_impl_list(const char **names, size_t cap) \
    { \
        LOCKED(size_t, hash##_impl_list_unlocked(names, cap)); \
    } \
    int hash##_impl_force(const char *name) \
    { \
        LOCKED(int, hash##_impl_force_unlocked(name)); \
    } \
    const char *hash##_impl_current(void) \
    { \
        LOCKED(const char *, hash##_impl_current_unlocked()); \
    }

LOCKED_IMPL_FUNCTIONS(sha256)
LOCKED_IMPL_FUNCTIONS(sha1)
LOCKED_IMPL_FUNCTIONS(sha512)

const char *sha256_autodetect(void)
{
    LOCKED(const char *, sha256_autodetect_unlocked());
}

/* Test-only (variants.h): the self-test on a caller's functions. */
int sha256_selftest_for_tests(sha256_transform_fn transform, sha256_finish_fn finish,
                              sha256_d64_fn d64, sha256_d64_kernel kernel, unsigned width)
{
    const sha256_variant v = {"test", ISA_NONE, ISA_NONE, transform, finish, d64, kernel, width};
    LOCKED(int, sha256_variant_ok(&v));
}
