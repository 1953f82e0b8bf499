/* Arithmetic modulo the prime p = 2^3072 - 1103717 (the largest 3072-bit safe prime), the
 * group MuHash3072 works in (muhash.h).
 *
 * A num3072 is a 3072-bit number, 48 64-bit limbs, least significant first, standing for its
 * residue mod p. Any value below 2^3072 is accepted, so values in [p, 2^3072) (which a
 * ChaCha20 keystream can produce) are valid representatives; num3072_reduce gives the one
 * in [0, p). The products come back below 2^3072, not necessarily below p.
 *
 * Every function here runs in time that depends on nothing but the sizes, never on the
 * values: no branch and no memory index depends on a limb. The inverse is the constant-time
 * safegcd of Bernstein and Yang (see num3072_inverse).
 *
 * A num3072 is a plain value (no pointers inside): copy it with `=`. */
#ifndef CRYPTO_NUM3072_H
#define CRYPTO_NUM3072_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NUM3072_LIMBS 48
#define NUM3072_BYTES 384
/* p = 2^3072 - NUM3072_PRIME_DIFF. */
#define NUM3072_PRIME_DIFF 1103717

typedef struct {
    uint64_t limbs[NUM3072_LIMBS];  /* little-endian limbs; private */
} num3072;

/* a = 1. */
void num3072_set_one(num3072 *a);

/* a = the 384 bytes at in, read as a little-endian number (any value below 2^3072). */
void num3072_from_bytes(num3072 *a, const unsigned char in[NUM3072_BYTES]);

/* Writes a's 384 bytes, little-endian, to out (a as it is: reduce first for the residue). */
void num3072_to_bytes(unsigned char out[NUM3072_BYTES], const num3072 *a);

/* r = a * b mod p, below 2^3072. r may be a or b (or both). */
void num3072_mul(num3072 *r, const num3072 *a, const num3072 *b);

/* r = a^2 mod p, below 2^3072: num3072_mul(r, a, a) at about two thirds of the cost. r may
 * be a. */
void num3072_sqr(num3072 *r, const num3072 *a);

/* a = a mod p: the representative in [0, p). */
void num3072_reduce(num3072 *a);

/* r = a^-1 mod p, in [0, p); 0 when a is 0 mod p (p is prime, so that is the only value
 * without an inverse). r may be a. Constant time: 115 batches of 62 divsteps, always. */
void num3072_inverse(num3072 *r, const num3072 *a);

/* 1 when a and b stand for the same residue, else 0 (constant time). */
int num3072_equal(const num3072 *a, const num3072 *b);

/* The implementations (crypto/variant.h has the rules): "standard" (portable C); on x86-64
 * CPUs with BMI2 and ADX, "adx" (the products with mulx and two carry chains); with AVX-512
 * IFMA too, "avx512ifma" (those products, and the inverse's matrices applied 8 limbs at a
 * time). The library starts on "standard", and crypto_autodetect (or sha256_autodetect)
 * installs the automatic choice. list stores the names this CPU runs in names[0 .. cap) and returns
 * how many there are; force installs one ("auto" for the automatic choice), 0 or -1;
 * current names what is installed. */
size_t num3072_impl_list(const char **names, size_t cap);
int num3072_impl_force(const char *name);
const char *num3072_impl_current(void);

#ifdef __cplusplus
}
#endif

#endif
