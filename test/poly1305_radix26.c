/* crypto/poly1305.c built a second time without unsigned __int128 (POLY1305_NO_INT128), under
 * names of its own (poly1305_radix26.h), so that the tests check the radix-2^26 portable code
 * that compilers without it get, incomplete last blocks included. */
#define POLY1305_NO_INT128 1
#define poly1305_init r26_poly1305_init
#define poly1305_update r26_poly1305_update
#define poly1305_finalize r26_poly1305_finalize
#define poly1305_mac r26_poly1305_mac
#define poly1305_blocks_portable r26_poly1305_blocks_portable
#define poly1305_blocks_radix26 r26_poly1305_blocks_radix26
#define poly1305_blocks_impl r26_poly1305_blocks_impl
#define poly1305_powers r26_poly1305_powers
#define poly1305_reduce r26_poly1305_reduce
#include "crypto/poly1305.c"
