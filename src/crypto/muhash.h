/* MuHash3072, Bitcoin Core's rolling set hash (the hash of its UTXO set): a set is the
 * product of its elements' numbers modulo the prime p = 2^3072 - 1103717, so elements can
 * be added and removed in any order, and two sets' hashes combined, without the set.
 *
 * An element's number: SHA-256 of its bytes, used as a ChaCha20 key (nonce 0, block counter
 * 0), gives 384 bytes of keystream, read as a little-endian number. The state is a fraction,
 * numerator over denominator, so that removing an element is a multiplication too and the
 * one modular inverse waits for the digest: SHA-256 of the 384-byte little-endian value of
 * numerator / denominator mod p. Everything matches Core's MuHash3072 bit for bit,
 * serialization included; Core prints the digest as a uint256, its bytes reversed.
 *
 * A muhash3072 is a plain value: caller-allocated, nothing to free, and a copy made with `=`
 * is an independent state. The arithmetic runs in constant time (num3072.h). */
#ifndef CRYPTO_MUHASH_H
#define CRYPTO_MUHASH_H

#include <stddef.h>

#include "num3072.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MUHASH3072_OUTPUT_SIZE 32
/* Bytes of muhash3072_serialize's form: the numerator's 384 little-endian bytes, then the
 * denominator's (Core's serialization of a MuHash3072). */
#define MUHASH3072_SERIALIZED_SIZE (2 * NUM3072_BYTES)

typedef struct {
    num3072 numerator;    /* private */
    num3072 denominator;  /* private */
} muhash3072;

/* m = the empty set (1 / 1). */
void muhash3072_init(muhash3072 *m);

/* m = the set {data}: the element of the len bytes at data (Core's MuHash3072(span)). data
 * may be NULL when len is 0. */
void muhash3072_init_element(muhash3072 *m, const void *data, size_t len);

/* Adds the element of the len bytes at data: the numerator times its number. */
void muhash3072_insert(muhash3072 *m, const void *data, size_t len);

/* Removes the element of the len bytes at data: the denominator times its number. */
void muhash3072_remove(muhash3072 *m, const void *data, size_t len);

/* m *= other: the union (numerators and denominators multiplied). other may be m. */
void muhash3072_mul(muhash3072 *m, const muhash3072 *other);

/* m /= other: the difference (m's numerator times other's denominator, and the other way
 * round). other may be m. */
void muhash3072_div(muhash3072 *m, const muhash3072 *other);

/* Writes the 32-byte digest of m to out, and leaves m as its value over 1 (the same set: Core
 * does the same, so the denominator's inverse is paid once). Costs one modular inverse. */
void muhash3072_finalize(muhash3072 *m, unsigned char out[MUHASH3072_OUTPUT_SIZE]);

/* Writes m's state, numerator then denominator, 384 little-endian bytes each, as they are
 * (not reduced; Core writes the same bytes). */
void muhash3072_serialize(const muhash3072 *m, unsigned char out[MUHASH3072_SERIALIZED_SIZE]);

/* m = the state in the 768 bytes at in, as muhash3072_serialize writes it. Every byte
 * string is a valid state (each half is any number below 2^3072). */
void muhash3072_deserialize(muhash3072 *m, const unsigned char in[MUHASH3072_SERIALIZED_SIZE]);

#ifdef __cplusplus
}
#endif

#endif
