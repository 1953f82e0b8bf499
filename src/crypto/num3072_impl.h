/* Internal to the crypto library: the 24-limb products behind num3072_mul and num3072_sqr
 * (each a Karatsuba level over three of them), the pointers through which num3072.c reaches
 * the variant in use, and the variants (num3072_variants.c installs them; it is the only
 * other file that names them). Not installed. */
#ifndef CRYPTO_NUM3072_IMPL_H
#define CRYPTO_NUM3072_IMPL_H

#include <stdint.h>

#define NUM3072_HALF 24

/* r[0 .. 48) = a[0 .. 24) * b[0 .. 24). r overlaps neither. */
typedef void (*num3072_mul24_fn)(uint64_t *r, const uint64_t *a, const uint64_t *b);
/* r[0 .. 48) = a[0 .. 24)^2. r does not overlap a. */
typedef void (*num3072_sqr24_fn)(uint64_t *r, const uint64_t *a);

void num3072_mul24_portable(uint64_t *r, const uint64_t *a, const uint64_t *b);
void num3072_sqr24_portable(uint64_t *r, const uint64_t *a);

/* The products in use; start on the portable ones. */
extern num3072_mul24_fn num3072_mul24_impl;
extern num3072_sqr24_fn num3072_sqr24_impl;

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NUM3072_HAVE_ADX 1
/* mulx with two carry chains (adcx, adox); the CPU needs BMI2 and ADX (num3072_adx.c). */
void num3072_mul24_adx(uint64_t *r, const uint64_t *a, const uint64_t *b);
void num3072_sqr24_adx(uint64_t *r, const uint64_t *a);
#endif

#endif
