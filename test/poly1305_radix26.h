/* poly1305.c built without unsigned __int128 (test/poly1305_radix26.c): Poly1305's public
 * functions on the radix-2^26 portable code alone, prefixed r26_. */
#ifndef TEST_POLY1305_RADIX26_H
#define TEST_POLY1305_RADIX26_H

#include "crypto/poly1305.h"

void r26_poly1305_init(poly1305_ctx *ctx, const unsigned char key[32]);
void r26_poly1305_update(poly1305_ctx *ctx, const void *data, size_t len);
void r26_poly1305_finalize(poly1305_ctx *ctx, unsigned char tag[16]);
void r26_poly1305_mac(unsigned char tag[16], const void *data, size_t len,
                      const unsigned char key[32]);

#endif
