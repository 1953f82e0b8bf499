/* MuHash3072 (muhash.h) over the arithmetic of num3072.c. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "crypto/chacha20.h"
#include "crypto/muhash.h"
#include "crypto/sha256.h"

/* The element's number: ChaCha20 keyed with SHA-256(data). Core draws the keystream from
 * ChaCha20Aligned (RFC 8439's layout: a 32-bit block counter, a 96-bit nonce) with nonce 0
 * from block 0; for blocks 0..5 that is this layout's block counter 0..5 with IV 0. */
static void element(num3072 *out, const void *data, size_t len)
{
    unsigned char key[32], stream[NUM3072_BYTES];
    chacha20_ctx ctx;
    sha256_hash(key, data, len);
    chacha20_set_key(&ctx, key);
    chacha20_keystream(&ctx, stream, sizeof stream);
    num3072_from_bytes(out, stream);
}

void muhash3072_init(muhash3072 *m)
{
    num3072_set_one(&m->numerator);
    num3072_set_one(&m->denominator);
}

void muhash3072_init_element(muhash3072 *m, const void *data, size_t len)
{
    element(&m->numerator, data, len);
    num3072_set_one(&m->denominator);
}

void muhash3072_insert(muhash3072 *m, const void *data, size_t len)
{
    num3072 e;
    element(&e, data, len);
    num3072_mul(&m->numerator, &m->numerator, &e);
}

void muhash3072_remove(muhash3072 *m, const void *data, size_t len)
{
    num3072 e;
    element(&e, data, len);
    num3072_mul(&m->denominator, &m->denominator, &e);
}

void muhash3072_mul(muhash3072 *m, const muhash3072 *other)
{
    if (m == other) {
        num3072_sqr(&m->numerator, &m->numerator);
        num3072_sqr(&m->denominator, &m->denominator);
        return;
    }
    num3072_mul(&m->numerator, &m->numerator, &other->numerator);
    num3072_mul(&m->denominator, &m->denominator, &other->denominator);
}

void muhash3072_div(muhash3072 *m, const muhash3072 *other)
{
    num3072 t;
    /* Through t, since other's halves may be m's (then both become numerator * denominator). */
    num3072_mul(&t, &m->numerator, &other->denominator);
    num3072_mul(&m->denominator, &m->denominator, &other->numerator);
    m->numerator = t;
}

void muhash3072_finalize(muhash3072 *m, unsigned char out[MUHASH3072_OUTPUT_SIZE])
{
    num3072 inv;
    unsigned char bytes[NUM3072_BYTES];
    num3072_inverse(&inv, &m->denominator);
    num3072_mul(&m->numerator, &m->numerator, &inv);
    num3072_reduce(&m->numerator);
    num3072_set_one(&m->denominator);
    num3072_to_bytes(bytes, &m->numerator);
    sha256_hash(out, bytes, sizeof bytes);
}

void muhash3072_serialize(const muhash3072 *m, unsigned char out[MUHASH3072_SERIALIZED_SIZE])
{
    num3072_to_bytes(out, &m->numerator);
    num3072_to_bytes(out + NUM3072_BYTES, &m->denominator);
}

void muhash3072_deserialize(muhash3072 *m, const unsigned char in[MUHASH3072_SERIALIZED_SIZE])
{
    num3072_from_bytes(&m->numerator, in);
    num3072_from_bytes(&m->denominator, in + NUM3072_BYTES);
}
