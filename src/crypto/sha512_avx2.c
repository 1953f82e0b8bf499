/* SHA-512 block transform: the message schedule in AVX2 registers, the
 * rounds in general-purpose registers.
 *
 * A SHA-512 round is a serial chain of 64-bit operations with no data
 * parallelism to give SIMD, but the schedule (W[16..79]) depends only on the
 * message. Computing it two words per 128-bit register, with K already added,
 * moves about a third of the work onto the vector units, which run beside the
 * scalar ones; the rounds then read W+K from a small table on the stack. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <immintrin.h>

#include "crypto/common.h"
#include "crypto/variants.h"

static const uint64_t k512[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL,
    0xe9b5dba58189dbbcULL, 0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL,
    0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL, 0xd807aa98a3030242ULL,
    0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
    0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL,
    0xc19bf174cf692694ULL, 0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL,
    0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL, 0x2de92c6f592b0275ULL,
    0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
    0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL,
    0xbf597fc7beef0ee4ULL, 0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL,
    0x06ca6351e003826fULL, 0x142929670a0e6e70ULL, 0x27b70a8546d22ffcULL,
    0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
    0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL,
    0x92722c851482353bULL, 0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL,
    0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL, 0xd192e819d6ef5218ULL,
    0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
    0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL,
    0x34b0bcb5e19b48a8ULL, 0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL,
    0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL, 0x748f82ee5defb2fcULL,
    0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL,
    0xc67178f2e372532bULL, 0xca273eceea26619cULL, 0xd186b8c721c0c207ULL,
    0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL, 0x06f067aa72176fbaULL,
    0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
    0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL,
    0x431d67c49c100d4cULL, 0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL,
    0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

static inline __m128i rotr2x64(__m128i x, int n)
{
    return _mm_or_si128(_mm_srli_epi64(x, n), _mm_slli_epi64(x, 64 - n));
}

/* sigma0 and sigma1 of FIPS 180-4 (4.12, 4.13), two words at a time. */
static inline __m128i sig0(__m128i x)
{
    return _mm_xor_si128(_mm_xor_si128(rotr2x64(x, 1), rotr2x64(x, 8)), _mm_srli_epi64(x, 7));
}

static inline __m128i sig1(__m128i x)
{
    return _mm_xor_si128(_mm_xor_si128(rotr2x64(x, 19), rotr2x64(x, 61)),
                         _mm_srli_epi64(x, 6));
}

/* wk[t] = W[t] + K[t] for the 80 rounds of one 128-byte block. */
static inline void schedule(uint64_t wk[80], const unsigned char *block)
{
    const __m128i mask = _mm_set_epi64x(0x08090a0b0c0d0e0fLL, 0x0001020304050607LL);
    __m128i p[8]; /* p[k % 8] = W[2k], W[2k+1] for the last eight k */

    for (int k = 0; k < 8; k++) {
        p[k] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(block + 16 * k)), mask);
        _mm_storeu_si128((__m128i *)(wk + 2 * k),
                         _mm_add_epi64(p[k], _mm_loadu_si128((const __m128i *)(k512 + 2 * k))));
    }
    for (int k = 8; k < 40; k++) {
        /* W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16], t = 2k, 2k+1:
         * W[t-7] and W[t-15] straddle two stored pairs. */
        __m128i w7 = _mm_alignr_epi8(p[(k - 3) & 7], p[(k - 4) & 7], 8);
        __m128i w15 = _mm_alignr_epi8(p[(k - 7) & 7], p[k & 7], 8);
        __m128i w = _mm_add_epi64(_mm_add_epi64(sig1(p[(k - 1) & 7]), w7),
                                  _mm_add_epi64(sig0(w15), p[k & 7]));
        p[k & 7] = w;
        _mm_storeu_si128((__m128i *)(wk + 2 * k),
                         _mm_add_epi64(w, _mm_loadu_si128((const __m128i *)(k512 + 2 * k))));
    }
}

#define BSIG0(x) (rotr64(x, 28) ^ rotr64(x, 34) ^ rotr64(x, 39))
#define BSIG1(x) (rotr64(x, 14) ^ rotr64(x, 18) ^ rotr64(x, 41))

#define ROUND(a, b, c, d, e, f, g, h, i) do { \
        uint64_t t1_ = h + BSIG1(e) + (g ^ (e & (f ^ g))) + wk[i]; \
        uint64_t t2_ = BSIG0(a) + ((a & b) | (c & (a | b))); \
        d += t1_; \
        h = t1_ + t2_; \
    } while (0)

void sha512_transform_avx2(uint64_t state[8], const unsigned char *blocks, size_t n)
{
    uint64_t wk[80];

    for (; n > 0; n--, blocks += 128) {
        uint64_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint64_t e = state[4], f = state[5], g = state[6], h = state[7];

        schedule(wk, blocks);
        for (int i = 0; i < 80; i += 8) {
            ROUND(a, b, c, d, e, f, g, h, i);
            ROUND(h, a, b, c, d, e, f, g, i + 1);
            ROUND(g, h, a, b, c, d, e, f, i + 2);
            ROUND(f, g, h, a, b, c, d, e, i + 3);
            ROUND(e, f, g, h, a, b, c, d, i + 4);
            ROUND(d, e, f, g, h, a, b, c, i + 5);
            ROUND(c, d, e, f, g, h, a, b, i + 6);
            ROUND(b, c, d, e, f, g, h, a, i + 7);
        }
        state[0] += a; state[1] += b; state[2] += c; state[3] += d;
        state[4] += e; state[5] += f; state[6] += g; state[7] += h;
    }
}
