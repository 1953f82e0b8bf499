/* SHA-256 with the x86 SHA extensions (SHA-NI): the block transform, and
 * sha256_d64 one input at a time and two interleaved.
 *
 * The state lives in two registers in the order the instructions want:
 * ABEF (A in the top lane) and CDGH. sha256rnds2 does two rounds and returns
 * the new ABEF; the old ABEF becomes the new CDGH, so the two registers swap
 * roles every call. One instruction's latency bounds a single stream, which
 * is why the two-way d64 interleaves two independent inputs. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <immintrin.h>

#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define NB_MSAN 1
#include <sanitizer/msan_interface.h>
#endif
#endif

#include "crypto/variants.h"

/* Big-endian words in a 16-byte load become host-order lanes. */
#define BSWAP_MASK _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL)

static inline __m128i k4(int i)
{
    return _mm_loadu_si128((const __m128i *)(sha256_k + 4 * i));
}

/* Four rounds with W+K in wk (lane 0 first). */
#define ROUNDS4(abef, cdgh, wk) do { \
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk); \
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0e)); \
    } while (0)

/* Next four schedule words from the previous sixteen (m0 oldest, m3 newest).
 * W[t+3] needs W[t-4], lane 0 of the newest group, but sha256msg2 feeds
 * lane 3 of its first operand into no other lane, so that word is added to
 * msg2's result instead of to its input: the chain from one group to the
 * next is msg2 then one add, not alignr, add, msg2. Where the message was
 * just loaded (a short hash chained through its digest, sha256_d64's outer
 * hash), that chain, not the rounds, was the critical path: about 10 cycles
 * a group against the rounds' 8, measured; now 8 (doc/crypto.md,
 * doc/experiments/sha256_schedule.c). */
static inline __m128i sched(__m128i m0, __m128i m1, __m128i m2, __m128i m3)
{
    __m128i t = _mm_add_epi32(_mm_sha256msg1_epu32(m0, m1), _mm_srli_si128(m2, 4));
    return _mm_add_epi32(_mm_sha256msg2_epu32(t, m3), _mm_slli_si128(m3, 12));
}

/* state[0..7] = a..h  <->  ABEF, CDGH. */
static inline void unpack_state(const uint32_t state[8], __m128i *abef, __m128i *cdgh)
{
    __m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)state), 0xb1);
    __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(state + 4)), 0x1b);
    *abef = _mm_alignr_epi8(abcd, efgh, 8);
    *cdgh = _mm_blend_epi16(efgh, abcd, 0xf0);
}

static inline void pack_state(uint32_t state[8], __m128i abef, __m128i cdgh)
{
    __m128i t = _mm_shuffle_epi32(abef, 0x1b);
    cdgh = _mm_shuffle_epi32(cdgh, 0xb1);
    _mm_storeu_si128((__m128i *)state, _mm_blend_epi16(t, cdgh, 0xf0));
    _mm_storeu_si128((__m128i *)(state + 4), _mm_alignr_epi8(cdgh, t, 8));
}

/* 64 rounds over message words m0..m3 (host-order lanes), the first 16
 * with W+K given in wk0..wk3. */
#define COMPRESS_WK(abef, cdgh, m0, m1, m2, m3, wk0, wk1, wk2, wk3) do { \
        ROUNDS4(abef, cdgh, wk0); \
        ROUNDS4(abef, cdgh, wk1); \
        ROUNDS4(abef, cdgh, wk2); \
        ROUNDS4(abef, cdgh, wk3); \
        for (int i_ = 4; i_ < 16; i_ += 4) { \
            m0 = sched(m0, m1, m2, m3); \
            ROUNDS4(abef, cdgh, _mm_add_epi32(m0, k4(i_))); \
            m1 = sched(m1, m2, m3, m0); \
            ROUNDS4(abef, cdgh, _mm_add_epi32(m1, k4(i_ + 1))); \
            m2 = sched(m2, m3, m0, m1); \
            ROUNDS4(abef, cdgh, _mm_add_epi32(m2, k4(i_ + 2))); \
            m3 = sched(m3, m0, m1, m2); \
            ROUNDS4(abef, cdgh, _mm_add_epi32(m3, k4(i_ + 3))); \
        } \
    } while (0)

/* 64 rounds over message words m0..m3. */
#define COMPRESS(abef, cdgh, m0, m1, m2, m3) \
    COMPRESS_WK(abef, cdgh, m0, m1, m2, m3, _mm_add_epi32(m0, k4(0)), \
                _mm_add_epi32(m1, k4(1)), _mm_add_epi32(m2, k4(2)), _mm_add_epi32(m3, k4(3)))

void sha256_transform_shani(uint32_t state[8], const unsigned char *blocks, size_t n)
{
    const __m128i mask = BSWAP_MASK;
    __m128i abef, cdgh;

    unpack_state(state, &abef, &cdgh);
    for (; n > 0; n--, blocks += 64) {
        __m128i abef0 = abef, cdgh0 = cdgh;
        __m128i m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)blocks), mask);
        __m128i m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blocks + 16)), mask);
        __m128i m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blocks + 32)), mask);
        __m128i m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blocks + 48)), mask);
        COMPRESS(abef, cdgh, m0, m1, m2, m3);
        abef = _mm_add_epi32(abef, abef0);
        cdgh = _mm_add_epi32(cdgh, cdgh0);
    }
    pack_state(state, abef, cdgh);
}

/* The last block(s) of a message, built in registers: padding written to
 * memory byte by byte and read back 16 bytes at a time would stall on
 * store-to-load forwarding, and the block's first words are on the critical
 * path of a short hash (the previous digest, stored, is this one's input).
 *
 * 16 bytes at offset 16 * i of buf[0..used), then 0x80, then zeros, as
 * host-order words: one pshufb both byte-swaps and zeroes the bytes from
 * used on (a control byte with its top bit set yields 0); *pad gets the
 * 0x80 marker in its place (or zero), for the caller to add in. */
static inline __m128i tail_words(const unsigned char *buf, __m128i used, int i, __m128i *pad)
{
    const __m128i swap = BSWAP_MASK;
    const __m128i pos = _mm_add_epi8(swap, _mm_set1_epi8((char)(16 * i)));
    __m128i ctrl = _mm_or_si128(swap, _mm_andnot_si128(_mm_cmpgt_epi8(used, pos),
                                                        _mm_set1_epi8((char)0x80)));
    *pad = _mm_and_si128(_mm_cmpeq_epi8(used, pos), _mm_set1_epi8((char)0x80));
    return _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(buf + 16 * i)), ctrl);
}

static inline void store_digest(unsigned char *out, __m128i abef, __m128i cdgh);

void sha256_finish_shani(uint32_t state[8], unsigned char buf[64], uint64_t bytes,
                         unsigned char *out)
{
    const size_t used = (size_t)(bytes & 63);
#ifdef NB_MSAN
    /* The bytes past the message are loaded and masked off (tail_words), which
     * MemorySanitizer cannot follow through the shuffles: it reported the
     * digest as uninitialised. */
    __msan_unpoison(buf + used, 64 - used);
#endif
    const __m128i u = _mm_set1_epi8((char)used);
    const uint64_t bits = bytes << 3;
    /* words 14 and 15 of the last block: the bit count, big-endian */
    const __m128i len = _mm_set_epi32((int)(uint32_t)bits, (int)(uint32_t)(bits >> 32), 0, 0);
    __m128i abef, cdgh, abef0, cdgh0, p0, p1, p2, p3;
    __m128i m0 = tail_words(buf, u, 0, &p0), m1 = tail_words(buf, u, 1, &p1);
    __m128i m2 = tail_words(buf, u, 2, &p2), m3 = tail_words(buf, u, 3, &p3);

    unpack_state(state, &abef, &cdgh);
    abef0 = abef;
    cdgh0 = cdgh;
    if (used >= 56) {
        /* No room for the length: the padding spills into a second block. */
        m0 = _mm_or_si128(m0, p0);
        m1 = _mm_or_si128(m1, p1);
        m2 = _mm_or_si128(m2, p2);
        m3 = _mm_or_si128(m3, p3);
        COMPRESS(abef, cdgh, m0, m1, m2, m3);
        abef = abef0 = _mm_add_epi32(abef, abef0);
        cdgh = cdgh0 = _mm_add_epi32(cdgh, cdgh0);
        m0 = m1 = m2 = m3 = p0 = p1 = p2 = p3 = _mm_setzero_si128();
    }
    /* The padding words go into K's side of W+K, which does not wait for
     * the message: the message words reach the rounds through one pshufb
     * and one add, as in the plain transform. */
    p3 = _mm_or_si128(p3, len);
    {
        __m128i wk0 = _mm_add_epi32(m0, _mm_add_epi32(k4(0), p0));
        __m128i wk1 = _mm_add_epi32(m1, _mm_add_epi32(k4(1), p1));
        __m128i wk2 = _mm_add_epi32(m2, _mm_add_epi32(k4(2), p2));
        __m128i wk3 = _mm_add_epi32(m3, _mm_add_epi32(k4(3), p3));
        m0 = _mm_or_si128(m0, p0);
        m1 = _mm_or_si128(m1, p1);
        m2 = _mm_or_si128(m2, p2);
        m3 = _mm_or_si128(m3, p3);
        COMPRESS_WK(abef, cdgh, m0, m1, m2, m3, wk0, wk1, wk2, wk3);
    }
    store_digest(out, _mm_add_epi32(abef, abef0), _mm_add_epi32(cdgh, cdgh0));
}

/* The rounds of the padding block of a 64-byte message: W+K is constant. */
#define PAD_ROUNDS(abef, cdgh) do { \
        for (int j_ = 0; j_ < 16; j_++) \
            ROUNDS4(abef, cdgh, \
                    _mm_loadu_si128((const __m128i *)(sha256_pad64_kw + 4 * j_))); \
    } while (0)

/* The outer hash's message is the 32-byte inner digest then fixed padding:
 * the inner state, packed ABEF/CDGH, becomes words 0..7 here. */
static inline void digest_words(__m128i abef, __m128i cdgh, __m128i *m0, __m128i *m1)
{
    /* abef = [F,E,B,A], cdgh = [H,G,D,C] (lane 0 first) */
    __m128i t = _mm_shuffle_epi32(abef, 0x1b);   /* A,B,E,F */
    __m128i u = _mm_shuffle_epi32(cdgh, 0x1b);   /* C,D,G,H */
    *m0 = _mm_unpacklo_epi64(t, u);               /* A,B,C,D */
    *m1 = _mm_unpackhi_epi64(t, u);               /* E,F,G,H */
}

/* Reversing all 16 bytes of [F,E,B,A] gives A, B, E, F big-endian: one
 * shuffle per register instead of a lane shuffle and a byte swap. */
static inline void store_digest(unsigned char *out, __m128i abef, __m128i cdgh)
{
    const __m128i rev = _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    __m128i t = _mm_shuffle_epi8(abef, rev), u = _mm_shuffle_epi8(cdgh, rev);
    _mm_storeu_si128((__m128i *)out, _mm_unpacklo_epi64(t, u));
    _mm_storeu_si128((__m128i *)(out + 16), _mm_unpackhi_epi64(t, u));
}

void sha256_d64_shani(unsigned char *out, const unsigned char *in, size_t blocks)
{
    const __m128i mask = BSWAP_MASK;
    const __m128i pad2 = _mm_set_epi32(0, 0, 0, (int)0x80000000u);
    const __m128i len2 = _mm_set_epi32(256, 0, 0, 0);
    __m128i iv_abef, iv_cdgh;

    unpack_state(sha256_iv, &iv_abef, &iv_cdgh);
    for (; blocks > 0; blocks--, in += 64, out += 32) {
        __m128i abef = iv_abef, cdgh = iv_cdgh, m0, m1, m2, m3, s_abef, s_cdgh;

        m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)in), mask);
        m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + 16)), mask);
        m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + 32)), mask);
        m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + 48)), mask);
        COMPRESS(abef, cdgh, m0, m1, m2, m3);
        abef = _mm_add_epi32(abef, iv_abef);
        cdgh = _mm_add_epi32(cdgh, iv_cdgh);
        s_abef = abef;
        s_cdgh = cdgh;
        PAD_ROUNDS(abef, cdgh);
        abef = _mm_add_epi32(abef, s_abef);
        cdgh = _mm_add_epi32(cdgh, s_cdgh);

        digest_words(abef, cdgh, &m0, &m1);
        m2 = pad2;
        m3 = len2;
        abef = iv_abef;
        cdgh = iv_cdgh;
        COMPRESS(abef, cdgh, m0, m1, m2, m3);
        store_digest(out, _mm_add_epi32(abef, iv_abef), _mm_add_epi32(cdgh, iv_cdgh));
    }
}

/* Two inputs at once: the same steps as above with every line doubled, so
 * the two dependency chains of sha256rnds2 overlap. */
#define ROUNDS4X2(wka, wkb) do { \
        __m128i wa_ = (wka), wb_ = (wkb); \
        cdgh_a = _mm_sha256rnds2_epu32(cdgh_a, abef_a, wa_); \
        cdgh_b = _mm_sha256rnds2_epu32(cdgh_b, abef_b, wb_); \
        abef_a = _mm_sha256rnds2_epu32(abef_a, cdgh_a, _mm_shuffle_epi32(wa_, 0x0e)); \
        abef_b = _mm_sha256rnds2_epu32(abef_b, cdgh_b, _mm_shuffle_epi32(wb_, 0x0e)); \
    } while (0)

#define COMPRESSX2() do { \
        ROUNDS4X2(_mm_add_epi32(a0, k4(0)), _mm_add_epi32(b0, k4(0))); \
        ROUNDS4X2(_mm_add_epi32(a1, k4(1)), _mm_add_epi32(b1, k4(1))); \
        ROUNDS4X2(_mm_add_epi32(a2, k4(2)), _mm_add_epi32(b2, k4(2))); \
        ROUNDS4X2(_mm_add_epi32(a3, k4(3)), _mm_add_epi32(b3, k4(3))); \
        for (int i_ = 4; i_ < 16; i_ += 4) { \
            a0 = sched(a0, a1, a2, a3); \
            b0 = sched(b0, b1, b2, b3); \
            ROUNDS4X2(_mm_add_epi32(a0, k4(i_)), _mm_add_epi32(b0, k4(i_))); \
            a1 = sched(a1, a2, a3, a0); \
            b1 = sched(b1, b2, b3, b0); \
            ROUNDS4X2(_mm_add_epi32(a1, k4(i_ + 1)), _mm_add_epi32(b1, k4(i_ + 1))); \
            a2 = sched(a2, a3, a0, a1); \
            b2 = sched(b2, b3, b0, b1); \
            ROUNDS4X2(_mm_add_epi32(a2, k4(i_ + 2)), _mm_add_epi32(b2, k4(i_ + 2))); \
            a3 = sched(a3, a0, a1, a2); \
            b3 = sched(b3, b0, b1, b2); \
            ROUNDS4X2(_mm_add_epi32(a3, k4(i_ + 3)), _mm_add_epi32(b3, k4(i_ + 3))); \
        } \
    } while (0)

void sha256_d64_shani_2way(unsigned char *out, const unsigned char *in)
{
    const __m128i mask = BSWAP_MASK;
    const __m128i pad2 = _mm_set_epi32(0, 0, 0, (int)0x80000000u);
    const __m128i len2 = _mm_set_epi32(256, 0, 0, 0);
    __m128i iv_abef, iv_cdgh, abef_a, cdgh_a, abef_b, cdgh_b, sa_abef, sa_cdgh, sb_abef, sb_cdgh;
    __m128i a0, a1, a2, a3, b0, b1, b2, b3;

    unpack_state(sha256_iv, &iv_abef, &iv_cdgh);
    a0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)in), mask);
    a1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + 16)), mask);
    a2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + 32)), mask);
    a3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + 48)), mask);
    b0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + 64)), mask);
    b1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + 80)), mask);
    b2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + 96)), mask);
    b3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + 112)), mask);

    abef_a = abef_b = iv_abef;
    cdgh_a = cdgh_b = iv_cdgh;
    COMPRESSX2();
    sa_abef = abef_a = _mm_add_epi32(abef_a, iv_abef);
    sa_cdgh = cdgh_a = _mm_add_epi32(cdgh_a, iv_cdgh);
    sb_abef = abef_b = _mm_add_epi32(abef_b, iv_abef);
    sb_cdgh = cdgh_b = _mm_add_epi32(cdgh_b, iv_cdgh);
    for (int j = 0; j < 16; j++) {
        __m128i wk = _mm_loadu_si128((const __m128i *)(sha256_pad64_kw + 4 * j));
        ROUNDS4X2(wk, wk);
    }
    abef_a = _mm_add_epi32(abef_a, sa_abef);
    cdgh_a = _mm_add_epi32(cdgh_a, sa_cdgh);
    abef_b = _mm_add_epi32(abef_b, sb_abef);
    cdgh_b = _mm_add_epi32(cdgh_b, sb_cdgh);

    digest_words(abef_a, cdgh_a, &a0, &a1);
    digest_words(abef_b, cdgh_b, &b0, &b1);
    a2 = b2 = pad2;
    a3 = b3 = len2;
    abef_a = abef_b = iv_abef;
    cdgh_a = cdgh_b = iv_cdgh;
    COMPRESSX2();
    store_digest(out, _mm_add_epi32(abef_a, iv_abef), _mm_add_epi32(cdgh_a, iv_cdgh));
    store_digest(out + 32, _mm_add_epi32(abef_b, iv_abef), _mm_add_epi32(cdgh_b, iv_cdgh));
}
