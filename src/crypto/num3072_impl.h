/* Internal to the crypto library: the 24-limb products behind num3072_mul and num3072_sqr
 * (each a Karatsuba level over three of them) and the inverse, the pointers through which
 * num3072.c reaches the variant in use, the variants (num3072_variants.c installs them; it
 * is the only other file that names them), and the divsteps both inverses share. Not
 * installed. */
#ifndef CRYPTO_NUM3072_IMPL_H
#define CRYPTO_NUM3072_IMPL_H

#include <stdint.h>

#include "crypto/num3072.h"

#define NUM3072_HALF 24

/* r[0 .. 48) = a[0 .. 24) * b[0 .. 24). r overlaps neither. */
typedef void (*num3072_mul24_fn)(uint64_t *r, const uint64_t *a, const uint64_t *b);
/* r[0 .. 48) = a[0 .. 24)^2. r does not overlap a. */
typedef void (*num3072_sqr24_fn)(uint64_t *r, const uint64_t *a);

void num3072_mul24_portable(uint64_t *r, const uint64_t *a, const uint64_t *b);
void num3072_sqr24_portable(uint64_t *r, const uint64_t *a);

/* r = a^-1 mod p (num3072_inverse's contract). */
typedef void (*num3072_inverse_fn)(num3072 *r, const num3072 *a);
void num3072_inverse_portable(num3072 *r, const num3072 *a);

/* The functions in use; start on the portable ones. */
extern num3072_mul24_fn num3072_mul24_impl;
extern num3072_sqr24_fn num3072_sqr24_impl;
extern num3072_inverse_fn num3072_inverse_impl;

/* The transition matrix of n divsteps, scaled by 2^n: 2^n (f', g') = (u f + v g, q f + r g);
 * |u| + |v| and |q| + |r| are at most 2^n. */
typedef struct {
    int64_t u, v, q, r;
} num3072_trans;

/* n hddivsteps (n <= 62) from (zeta, f, g), on the low 64 bits of f (odd) and g: the first n
 * steps depend on the low n bits only, so bits above may be anything. Returns zeta after
 * them. zeta is -delta with delta counted in halves (1 for the starting 1/2), so delta > 0 is
 * zeta < 0. One divstep: when delta > 0 and g is odd, (delta, f, g) becomes
 * (1 - delta, g, (g - f) / 2); otherwise (1 + delta, f, (g + (g odd) f) / 2). Instead of
 * halving g, the matrix row of f is doubled, so it ends scaled by 2^n. Masks throughout: no
 * branch depends on the values. Shared by the inverses of num3072.c and its variants. */
static inline int64_t num3072_divsteps(int64_t zeta, uint64_t f, uint64_t g, int n,
                                       num3072_trans *t)
{
    uint64_t u = 1, v = 0, q = 0, r = 1, z = (uint64_t)zeta;
    int i;
    for (i = 0; i < n; i++) {
        uint64_t pos = 0 - (z >> 63);          /* delta > 0 */
        uint64_t odd = 0 - (g & 1);
        uint64_t sw = pos & odd;               /* swap f and g */
        /* g += f (g odd), or g -= f (g odd and delta > 0); the same on the rows. */
        g += ((f ^ pos) - pos) & odd;
        q += ((u ^ pos) - pos) & odd;
        r += ((v ^ pos) - pos) & odd;
        /* on a swap f becomes the old g: f + (g - f) */
        f += g & sw;
        u += q & sw;
        v += r & sw;
        /* delta becomes 1 - delta (swap) or 1 + delta: zeta' = -zeta - 2 or zeta - 2 */
        z = (z ^ sw) + (sw | ~(uint64_t)1);
        g >>= 1;
        u <<= 1;
        v <<= 1;
    }
    t->u = (int64_t)u;
    t->v = (int64_t)v;
    t->q = (int64_t)q;
    t->r = (int64_t)r;
    return (int64_t)z;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NUM3072_HAVE_ADX 1
/* mulx with two carry chains (adcx, adox); the CPU needs BMI2 and ADX (num3072_adx.c). */
void num3072_mul24_adx(uint64_t *r, const uint64_t *a, const uint64_t *b);
void num3072_sqr24_adx(uint64_t *r, const uint64_t *a);
#endif

#ifdef ENABLE_AVX512IFMA
/* The inverse with the matrices applied 8 limbs at a time by AVX-512 IFMA
 * (num3072_avx512ifma.c, built with AVX512IFMA_CFLAGS). */
void num3072_inverse_avx512ifma(num3072 *r, const num3072 *a);
#endif

#endif
