/* SHA-1 block transform with the x86 SHA extensions (SHA-NI).
 *
 * ABCD lives in one register with A in the top lane; E travels in the top
 * lane of a second register, already added to the next four message words.
 * sha1rnds4 does four rounds (its immediate picks the round function and
 * constant of rounds 0-19, 20-39, 40-59, 60-79); sha1nexte derives the E of
 * the next four rounds (A rotated by 30) and adds it to their words. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <immintrin.h>

#include "crypto/variants.h"

/* Next four schedule words from the previous sixteen (m0 oldest). */
static inline __m128i sched(__m128i m0, __m128i m1, __m128i m2, __m128i m3)
{
    return _mm_sha1msg2_epu32(_mm_xor_si128(_mm_sha1msg1_epu32(m0, m1), m2), m3);
}

/* Four rounds on words m (E already folded in by the caller for group 0). */
#define ROUNDS4(m, f) do { \
        e_next = abcd; \
        abcd = _mm_sha1rnds4_epu32(abcd, e, f); \
        e = _mm_sha1nexte_epu32(e_next, m); \
    } while (0)

void sha1_transform_shani(uint32_t state[5], const unsigned char *blocks, size_t n)
{
    /* Reverse all 16 bytes: big-endian words, first word in the top lane. */
    const __m128i mask = _mm_set_epi64x(0x0001020304050607ULL, 0x08090a0b0c0d0e0fULL);
    __m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)state), 0x1b);
    __m128i e0 = _mm_set_epi32((int)state[4], 0, 0, 0);

    for (; n > 0; n--, blocks += 64) {
        __m128i abcd_save = abcd, e, e_next;
        __m128i m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)blocks), mask);
        __m128i m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blocks + 16)), mask);
        __m128i m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blocks + 32)), mask);
        __m128i m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blocks + 48)), mask);

        /* Rounds 0-3 take E straight from the state; every later group
         * gets it from sha1nexte inside ROUNDS4 (which also adds the
         * words of the group after it). */
        e = _mm_add_epi32(e0, m0);
        ROUNDS4(m1, 0);
        ROUNDS4(m2, 0);
        ROUNDS4(m3, 0);
        m0 = sched(m0, m1, m2, m3);
        ROUNDS4(m0, 0);
        m1 = sched(m1, m2, m3, m0);
        ROUNDS4(m1, 0);
        m2 = sched(m2, m3, m0, m1);
        ROUNDS4(m2, 1);
        m3 = sched(m3, m0, m1, m2);
        ROUNDS4(m3, 1);
        m0 = sched(m0, m1, m2, m3);
        ROUNDS4(m0, 1);
        m1 = sched(m1, m2, m3, m0);
        ROUNDS4(m1, 1);
        m2 = sched(m2, m3, m0, m1);
        ROUNDS4(m2, 1);
        m3 = sched(m3, m0, m1, m2);
        ROUNDS4(m3, 2);
        m0 = sched(m0, m1, m2, m3);
        ROUNDS4(m0, 2);
        m1 = sched(m1, m2, m3, m0);
        ROUNDS4(m1, 2);
        m2 = sched(m2, m3, m0, m1);
        ROUNDS4(m2, 2);
        m3 = sched(m3, m0, m1, m2);
        ROUNDS4(m3, 2);
        m0 = sched(m0, m1, m2, m3);
        ROUNDS4(m0, 3);
        m1 = sched(m1, m2, m3, m0);
        ROUNDS4(m1, 3);
        m2 = sched(m2, m3, m0, m1);
        ROUNDS4(m2, 3);
        m3 = sched(m3, m0, m1, m2);
        ROUNDS4(m3, 3);
        /* Rounds 76-79: the E that follows them is the new state's E. */
        e_next = abcd;
        abcd = _mm_sha1rnds4_epu32(abcd, e, 3);
        e0 = _mm_sha1nexte_epu32(e_next, e0);
        abcd = _mm_add_epi32(abcd, abcd_save);
    }
    _mm_storeu_si128((__m128i *)state, _mm_shuffle_epi32(abcd, 0x1b));
    state[4] = (uint32_t)_mm_extract_epi32(e0, 3);
}
