/* Arithmetic modulo p = 2^3072 - 1103717 (num3072.h), in portable C.
 *
 * Products. A 48-limb product is one level of Karatsuba over 24-limb products (three instead
 * of four, 1728 limb products instead of 2304), the subtractive form, so that
 * every operand stays 24 limbs: a*b = z0 + z1 B + z2 B^2 with B = 2^1536, z0 = a0 b0,
 * z2 = a1 b1 and z1 = z0 + z2 - (a0 - a1)(b0 - b1), the signs of the two differences handled
 * with masks. Squaring does the same with squares. The 24-limb products are schoolbook rows
 * here (a square takes each off-diagonal product once, then doubles), or a variant's
 * (num3072_impl.h); the Karatsuba level, the reduction and the inverse are always this
 * file's. The 96-limb result is folded twice with 2^3072 = 1103717 (mod p), then once more
 * by the carry of the second fold, which leaves it below 2^3072.
 *
 * Inverse. The safegcd algorithm of Bernstein and Yang ("Fast constant-time gcd computation
 * and modular inversion", 2019) in its "half-delta" form (hddivsteps, delta starting at
 * 1/2), the form libsecp256k1's constant-time inverse uses: f = p, g = x, and every divstep
 * keeps f and g equal, mod p, to d x and e x. 62 divsteps at a time are worked out on the
 * low 64 bits of f and g alone, as a 2x2 matrix scaled by 2^62, which is then applied to
 * the full f, g (kept in 50 signed limbs of 62 bits) and to d, e (mod p, in the same limbs:
 * a multiple of p is added so that the division by 2^62 is exact). Wuille's convex-hull
 * bound (github.com/sipa/safegcd-bounds) says that floor((3787 log2(M) + 2166) / 1644)
 * hddivsteps take every 0 <= g <= f <= M to g = 0, computationally verified for
 * M <= 2^3805: 7077 for M = p, so 115 batches of 62 (7130) always suffice, and the inverse
 * always runs exactly that many. At the end f = +-1 and the inverse is +-d.
 *
 * Where the compiler has unsigned __int128 the 64x64->128 products use it; elsewhere (or
 * with NUM3072_NO_INT128 defined, which the tests use to check that code too) they are
 * built from 32-bit halves. Signed right shifts and conversions of values >= 2^63 to
 * int64_t are assumed to behave as on every two's complement compiler (arithmetic shift,
 * wrap-around). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "crypto/common.h"
#include "crypto/num3072.h"
#include "crypto/num3072_impl.h"

#define LIMBS NUM3072_LIMBS
#define HALF NUM3072_HALF
#define C NUM3072_PRIME_DIFF

#if defined(__SIZEOF_INT128__) && !defined(NUM3072_NO_INT128)
#define NUM3072_HAVE_INT128 1
/* __extension__: the types are a GCC and Clang extension, not ISO C. */
__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;
#endif

/* ---- 64-bit limb primitives ---------------------------------------------------------- */

/* Returns the high word of a * b + c + d and stores the low word in *lo (the sum is below
 * 2^128, so nothing is lost). */
static inline uint64_t mac(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t *lo)
{
#ifdef NUM3072_HAVE_INT128
    u128 t = (u128)a * b + c + d;
    *lo = (uint64_t)t;
    return (uint64_t)(t >> 64);
#else
    uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    uint64_t l = (ll & 0xffffffffu) | mid << 32;
    uint64_t h = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    l += c;
    h += l < c;
    l += d;
    h += l < d;
    *lo = l;
    return h;
#endif
}

/* x, which the compiler may no longer assume anything about: a mask made from a value goes
 * through this before it selects, or clang turns the select into a choice between two
 * addresses (a load whose address depends on the value; test_muhash_ctime.sh caught it). */
static inline uint64_t value_barrier(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+r"(x));
#endif
    return x;
}

/* *r = a + b + carry (carry 0 or 1); returns the carry out. */
static inline uint64_t addc(uint64_t a, uint64_t b, uint64_t carry, uint64_t *r)
{
    uint64_t s = a + carry, t;
    uint64_t c1 = s < carry;
    t = s + b;
    *r = t;
    return c1 | (t < b);
}

/* *r = a - b - borrow (borrow 0 or 1); returns the borrow out. */
static inline uint64_t subb(uint64_t a, uint64_t b, uint64_t borrow, uint64_t *r)
{
    uint64_t d = a - b;
    uint64_t b1 = a < b;
    *r = d - borrow;
    return b1 | (d < borrow);
}

/* ---- products ------------------------------------------------------------------------ */

/* r[0..2n) = a[0..n) * b[0..n), schoolbook by rows. */
static void mul_school(uint64_t *r, const uint64_t *a, const uint64_t *b, int n)
{
    int i, j;
    uint64_t carry = 0;
    for (j = 0; j < n; j++)
        carry = mac(a[0], b[j], carry, 0, &r[j]);
    r[n] = carry;
    for (i = 1; i < n; i++) {
        carry = 0;
        for (j = 0; j < n; j++)
            carry = mac(a[i], b[j], r[i + j], carry, &r[i + j]);
        r[i + n] = carry;
    }
}

/* r[0..2n) = a[0..n)^2: the products a_i a_j with i < j once, doubled, plus the squares. */
static void sqr_school(uint64_t *r, const uint64_t *a, int n)
{
    int i, j;
    uint64_t carry, top;
    r[0] = 0;
    r[2 * n - 1] = 0;
    for (j = 1; j < n; j++)
        r[j] = 0;
    for (i = 0; i + 1 < n; i++) {
        carry = 0;
        for (j = i + 1; j < n; j++)
            carry = mac(a[i], a[j], r[i + j], carry, &r[i + j]);
        r[i + n] = carry;
    }
    top = 0;
    for (i = 0; i < 2 * n; i++) {   /* r *= 2 */
        uint64_t next = r[i] >> 63;
        r[i] = r[i] << 1 | top;
        top = next;
    }
    carry = 0;
    for (i = 0; i < n; i++) {       /* r += the squares */
        uint64_t lo, hi = mac(a[i], a[i], 0, 0, &lo);
        carry = addc(r[2 * i], lo, carry, &r[2 * i]);
        carry = addc(r[2 * i + 1], hi, carry, &r[2 * i + 1]);
    }
}

/* d = |x - y| over n limbs; returns all ones when x < y, else 0. */
static uint64_t abs_diff(uint64_t *d, const uint64_t *x, const uint64_t *y, int n)
{
    uint64_t borrow = 0, mask, carry;
    int i;
    for (i = 0; i < n; i++)
        borrow = subb(x[i], y[i], borrow, &d[i]);
    mask = 0 - borrow;
    carry = borrow;                 /* negate: invert, then add 1 */
    for (i = 0; i < n; i++)
        carry = addc(d[i] ^ mask, 0, carry, &d[i]);
    return mask;
}

/* r[HALF .. 2 LIMBS) += z0 + z2 - sign m, where z0 = r[0 .. LIMBS), z2 = r[LIMBS ..) and
 * m = |a0 - a1| |b0 - b1|: sub is all ones to subtract m (the differences have the same
 * sign), 0 to add it. The sum, the middle Karatsuba term, is non-negative and below
 * 2^(64 LIMBS + 1). */
static void karatsuba_middle(uint64_t *r, const uint64_t *m, uint64_t sub)
{
    uint64_t z1[LIMBS + 1], carry = 0, carry2, top;
    int i;
    for (i = 0; i < LIMBS; i++)
        carry = addc(r[i], r[LIMBS + i], carry, &z1[i]);
    top = carry;
    /* z1 += m ^ sub, plus 1 when subtracting (two's complement of m over LIMBS + 1 limbs) */
    carry2 = sub & 1;
    for (i = 0; i < LIMBS; i++)
        carry2 = addc(z1[i], m[i] ^ sub, carry2, &z1[i]);
    z1[LIMBS] = top + sub + carry2;
    carry = 0;
    for (i = 0; i <= LIMBS; i++)
        carry = addc(r[HALF + i], z1[i], carry, &r[HALF + i]);
    for (i = HALF + LIMBS + 1; i < 2 * LIMBS; i++)
        carry = addc(r[i], 0, carry, &r[i]);
}

void num3072_mul24_portable(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    mul_school(r, a, b, HALF);
}

void num3072_sqr24_portable(uint64_t *r, const uint64_t *a)
{
    sqr_school(r, a, HALF);
}

num3072_mul24_fn num3072_mul24_impl = num3072_mul24_portable;
num3072_sqr24_fn num3072_sqr24_impl = num3072_sqr24_portable;

/* r[0..96) = a * b. */
static void mul_wide(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    uint64_t da[HALF], db[HALF], m[LIMBS], sa, sb;
    num3072_mul24_fn mul24 = num3072_mul24_impl;
    sa = abs_diff(da, a, a + HALF, HALF);
    sb = abs_diff(db, b, b + HALF, HALF);
    mul24(r, a, b);
    mul24(r + LIMBS, a + HALF, b + HALF);
    mul24(m, da, db);
    karatsuba_middle(r, m, ~(sa ^ sb));
}

/* r[0..96) = a^2. */
static void sqr_wide(uint64_t *r, const uint64_t *a)
{
    uint64_t da[HALF], m[LIMBS];
    num3072_sqr24_fn sqr24 = num3072_sqr24_impl;
    abs_diff(da, a, a + HALF, HALF);
    sqr24(r, a);
    sqr24(r + LIMBS, a + HALF);
    sqr24(m, da);
    karatsuba_middle(r, m, ~(uint64_t)0);
}

/* r = t mod p, below 2^3072, for a 96-limb t: t = lo + 2^3072 hi = lo + C hi (mod p). */
static void reduce_wide(uint64_t *r, const uint64_t *t)
{
    uint64_t carry = 0, top;
    int i;
    for (i = 0; i < LIMBS; i++)
        carry = mac(t[LIMBS + i], C, t[i], carry, &r[i]);
    top = carry;                    /* below 2^22: fold it in once more */
    carry = mac(top, C, r[0], 0, &r[0]);
    for (i = 1; i < LIMBS; i++)
        carry = addc(r[i], 0, carry, &r[i]);
    /* A carry here leaves r below 2^43, so one more fold cannot carry. As a mask, not
     * carry * C: knowing carry is 0 or 1, compilers make that product a branch. */
    carry = addc(r[0], C & (0 - carry), 0, &r[0]);
    for (i = 1; i < LIMBS; i++)
        carry = addc(r[i], 0, carry, &r[i]);
}

void num3072_mul(num3072 *r, const num3072 *a, const num3072 *b)
{
    uint64_t t[2 * LIMBS];
    mul_wide(t, a->limbs, b->limbs);
    reduce_wide(r->limbs, t);
}

void num3072_sqr(num3072 *r, const num3072 *a)
{
    uint64_t t[2 * LIMBS];
    sqr_wide(t, a->limbs);
    reduce_wide(r->limbs, t);
}

/* ---- representation ------------------------------------------------------------------ */

void num3072_set_one(num3072 *a)
{
    memset(a->limbs, 0, sizeof a->limbs);
    a->limbs[0] = 1;
}

void num3072_from_bytes(num3072 *a, const unsigned char in[NUM3072_BYTES])
{
    int i;
    for (i = 0; i < LIMBS; i++)
        a->limbs[i] = load64_le(in + 8 * i);
}

void num3072_to_bytes(unsigned char out[NUM3072_BYTES], const num3072 *a)
{
    int i;
    for (i = 0; i < LIMBS; i++)
        store64_le(out + 8 * i, a->limbs[i]);
}

void num3072_reduce(num3072 *a)
{
    /* a >= p exactly when a + C carries out of 3072 bits; then a - p is that sum's low bits. */
    uint64_t t[LIMBS], carry = C, mask;
    int i;
    for (i = 0; i < LIMBS; i++)
        carry = addc(a->limbs[i], 0, carry, &t[i]);
    mask = value_barrier(0 - carry);
    for (i = 0; i < LIMBS; i++)
        a->limbs[i] ^= (t[i] ^ a->limbs[i]) & mask;
}

int num3072_equal(const num3072 *a, const num3072 *b)
{
    num3072 x = *a, y = *b;
    uint64_t diff = 0;
    int i;
    num3072_reduce(&x);
    num3072_reduce(&y);
    for (i = 0; i < LIMBS; i++)
        diff |= x.limbs[i] ^ y.limbs[i];
    /* diff | -diff has its top bit set exactly when diff is not 0 */
    return (int)(((diff | (0 - diff)) >> 63) ^ 1);
}

/* ---- inverse: safegcd ---------------------------------------------------------------- */

#define S_BITS 62                     /* bits per signed limb, and divsteps per batch */
#define S_LIMBS 50                    /* 3072 / 62 = 49.5: limb 49 holds bits 3038 and up */
#define S_MASK ((UINT64_C(1) << S_BITS) - 1)
#define S_TOP_BIT (3072 - S_BITS * (S_LIMBS - 1))   /* 2^3072 is 2^34 in limb 49 */
#define BATCHES 115                   /* 115 * 62 = 7130 >= 7077 hddivsteps */
/* p^-1 mod 2^62 (p = -C mod 2^62); the test checks it. */
#define P_INV62 UINT64_C(0x070a1421da087d93)

/* A number as sum(limbs[i] 2^(62 i)): limbs 0..48 in [0, 2^62) except where said, limb 49
 * signed and carrying the sign. */
typedef struct {
    int64_t limbs[S_LIMBS];
} signed62;

/* The transition matrix of 62 divsteps (num3072_divsteps). */
typedef num3072_trans trans62;

/* A signed 128-bit accumulator for the matrix products (each below 2^125 in size). */
#ifdef NUM3072_HAVE_INT128
typedef struct {
    i128 v;
} acc128;

static inline void acc_mul2(acc128 *r, int64_t a, int64_t x, int64_t b, int64_t y)
{
    r->v = (i128)a * x + (i128)b * y;
}

static inline void acc_add_mul2(acc128 *r, int64_t a, int64_t x, int64_t b, int64_t y)
{
    r->v += (i128)a * x + (i128)b * y;
}

static inline void acc_add_shifted(acc128 *r, int64_t a, int shift)
{
    r->v += (i128)a * ((int64_t)1 << shift);
}

static inline uint64_t acc_low(const acc128 *r)
{
    return (uint64_t)r->v;
}

static inline void acc_shift62(acc128 *r)
{
    r->v >>= S_BITS;
}
#else
typedef struct {
    uint64_t lo, hi;      /* two's complement */
} acc128;

/* (hi, lo) = a * x as signed numbers: the unsigned product less 2^64 y for a negative x and
 * 2^64 x for a negative y. */
static inline void smul(int64_t a, int64_t x, uint64_t *hi, uint64_t *lo)
{
    uint64_t h = mac((uint64_t)a, (uint64_t)x, 0, 0, lo);
    h -= (uint64_t)x & (0 - ((uint64_t)a >> 63));
    h -= (uint64_t)a & (0 - ((uint64_t)x >> 63));
    *hi = h;
}

static inline void acc_add_word(acc128 *r, uint64_t hi, uint64_t lo)
{
    uint64_t s = r->lo + lo;
    r->hi += hi + (s < lo);
    r->lo = s;
}

static inline void acc_add_mul2(acc128 *r, int64_t a, int64_t x, int64_t b, int64_t y)
{
    uint64_t hi, lo;
    smul(a, x, &hi, &lo);
    acc_add_word(r, hi, lo);
    smul(b, y, &hi, &lo);
    acc_add_word(r, hi, lo);
}

static inline void acc_mul2(acc128 *r, int64_t a, int64_t x, int64_t b, int64_t y)
{
    r->lo = 0;
    r->hi = 0;
    acc_add_mul2(r, a, x, b, y);
}

static inline void acc_add_shifted(acc128 *r, int64_t a, int shift)
{
    uint64_t sign = 0 - ((uint64_t)a >> 63);
    acc_add_word(r, (uint64_t)a >> (64 - shift) | sign << shift, (uint64_t)a << shift);
}

static inline uint64_t acc_low(const acc128 *r)
{
    return r->lo;
}

static inline void acc_shift62(acc128 *r)
{
    uint64_t sign = 0 - (r->hi >> 63);
    r->lo = r->lo >> S_BITS | r->hi << (64 - S_BITS);
    r->hi = r->hi >> S_BITS | sign << (64 - S_BITS);
}
#endif

static void to_signed62(signed62 *out, const num3072 *in)
{
    int i, bit = 0, word = 0;
    for (i = 0; i < S_LIMBS; i++) {
        uint64_t v = in->limbs[word] >> bit;
        if (bit > 64 - S_BITS && word + 1 < LIMBS)
            v |= in->limbs[word + 1] << (64 - bit);
        out->limbs[i] = (int64_t)(v & S_MASK);
        bit += S_BITS;
        if (bit >= 64) {
            bit -= 64;
            word++;
        }
    }
}

/* Requires limbs 0..48 in [0, 2^62) and the value in [0, 2^3072). */
static void from_signed62(num3072 *out, const signed62 *in)
{
    int i, bit = 0, limb = 0;
    for (i = 0; i < LIMBS; i++) {
        uint64_t v = (uint64_t)in->limbs[limb] >> bit;
        int have = S_BITS - bit;
        limb++;
        v |= (uint64_t)in->limbs[limb] << have;
        if (have + S_BITS < 64) {
            limb++;
            v |= (uint64_t)in->limbs[limb] << (have + S_BITS);
            bit = 64 - have - S_BITS;
        } else {
            bit = 64 - have;
        }
        out->limbs[i] = v;
    }
}

/* (f, g) = t (f, g) / 2^62, exactly (t makes both multiples of 2^62). */
static void update_fg(signed62 *f, signed62 *g, const trans62 *t)
{
    int64_t u = t->u, v = t->v, q = t->q, r = t->r;
    acc128 cf, cg;
    int i;
    acc_mul2(&cf, u, f->limbs[0], v, g->limbs[0]);
    acc_mul2(&cg, q, f->limbs[0], r, g->limbs[0]);
    acc_shift62(&cf);
    acc_shift62(&cg);
    for (i = 1; i < S_LIMBS; i++) {
        int64_t fi = f->limbs[i], gi = g->limbs[i];
        acc_add_mul2(&cf, u, fi, v, gi);
        acc_add_mul2(&cg, q, fi, r, gi);
        f->limbs[i - 1] = (int64_t)(acc_low(&cf) & S_MASK);
        g->limbs[i - 1] = (int64_t)(acc_low(&cg) & S_MASK);
        acc_shift62(&cf);
        acc_shift62(&cg);
    }
    f->limbs[S_LIMBS - 1] = (int64_t)acc_low(&cf);
    g->limbs[S_LIMBS - 1] = (int64_t)acc_low(&cg);
}

/* (d, e) = t (d, e) / 2^62 mod p, keeping both in (-2p, p). Each gets first p times 1 for
 * each negative input the row multiplies (which puts t (d, e) in (-2^62 p, 2^62 p)), then
 * less p times the k in [0, 2^62) that makes the sum divisible by 2^62; divided, the result
 * is in (-2p, p). p = 2^3072 - C has only two non-zero signed limbs: -C in limb 0 and 2^34
 * in limb 49. */
static void update_de(signed62 *d, signed62 *e, const trans62 *t)
{
    int64_t u = t->u, v = t->v, q = t->q, r = t->r;
    int64_t sd = (int64_t)(0 - ((uint64_t)d->limbs[S_LIMBS - 1] >> 63));
    int64_t se = (int64_t)(0 - ((uint64_t)e->limbs[S_LIMBS - 1] >> 63));
    int64_t md = (u & sd) + (v & se), me = (q & sd) + (r & se);
    acc128 cd, ce;
    int i;
    acc_mul2(&cd, u, d->limbs[0], v, e->limbs[0]);
    acc_mul2(&ce, q, d->limbs[0], r, e->limbs[0]);
    md -= (int64_t)((P_INV62 * acc_low(&cd) + (uint64_t)md) & S_MASK);
    me -= (int64_t)((P_INV62 * acc_low(&ce) + (uint64_t)me) & S_MASK);
    acc_add_mul2(&cd, -(int64_t)C, md, 0, 0);
    acc_add_mul2(&ce, -(int64_t)C, me, 0, 0);
    acc_shift62(&cd);
    acc_shift62(&ce);
    for (i = 1; i < S_LIMBS; i++) {
        int64_t di = d->limbs[i], ei = e->limbs[i];
        acc_add_mul2(&cd, u, di, v, ei);
        acc_add_mul2(&ce, q, di, r, ei);
        if (i == S_LIMBS - 1) {
            acc_add_shifted(&cd, md, S_TOP_BIT);
            acc_add_shifted(&ce, me, S_TOP_BIT);
        }
        d->limbs[i - 1] = (int64_t)(acc_low(&cd) & S_MASK);
        e->limbs[i - 1] = (int64_t)(acc_low(&ce) & S_MASK);
        acc_shift62(&cd);
        acc_shift62(&ce);
    }
    d->limbs[S_LIMBS - 1] = (int64_t)acc_low(&cd);
    e->limbs[S_LIMBS - 1] = (int64_t)acc_low(&ce);
}

/* Propagates carries so that limbs 0..48 are in [0, 2^62), the value unchanged. */
static void carry62(signed62 *a)
{
    int i;
    for (i = 0; i < S_LIMBS - 1; i++) {
        a->limbs[i + 1] += a->limbs[i] >> S_BITS;
        a->limbs[i] = (int64_t)((uint64_t)a->limbs[i] & S_MASK);
    }
}

/* a += p when a is negative (limb 49's sign), in the sparse form: -C in limb 0, 2^34 in 49. */
static void add_p_if_negative(signed62 *a)
{
    int64_t neg = (int64_t)(0 - ((uint64_t)a->limbs[S_LIMBS - 1] >> 63));
    a->limbs[0] += -(int64_t)C & neg;
    a->limbs[S_LIMBS - 1] += ((int64_t)1 << S_TOP_BIT) & neg;
    carry62(a);
}

void num3072_inverse_portable(num3072 *r, const num3072 *a)
{
    signed62 d, e, f, g;
    num3072 x = *a;
    int64_t zeta = -1, neg;
    int i;

    num3072_reduce(&x);             /* safegcd's bound needs 0 <= g <= f = p */
    memset(&d, 0, sizeof d);
    memset(&e, 0, sizeof e);
    memset(&f, 0, sizeof f);
    e.limbs[0] = 1;
    f.limbs[0] = -(int64_t)C;       /* f = p, sparse; the first update normalises it */
    f.limbs[S_LIMBS - 1] = (int64_t)1 << S_TOP_BIT;
    to_signed62(&g, &x);
    for (i = 0; i < BATCHES; i++) {
        trans62 t;
        zeta = num3072_divsteps(zeta, (uint64_t)f.limbs[0], (uint64_t)g.limbs[0], S_BITS, &t);
        update_fg(&f, &g, &t);
        update_de(&d, &e, &t);
    }
    /* Now g = 0 and f = +-1 (f = p, d = 0 when x was 0): the inverse is d f = +-d, with d in
     * (-2p, p). Bring d into (-p, p), negate it with f, then into [0, p). */
    add_p_if_negative(&d);
    neg = (int64_t)(0 - ((uint64_t)f.limbs[S_LIMBS - 1] >> 63));
    for (i = 0; i < S_LIMBS; i++)
        d.limbs[i] = (d.limbs[i] ^ neg) - neg;
    carry62(&d);
    add_p_if_negative(&d);
    from_signed62(r, &d);
}

num3072_inverse_fn num3072_inverse_impl = num3072_inverse_portable;

void num3072_inverse(num3072 *r, const num3072 *a)
{
    num3072_inverse_impl(r, a);
}
