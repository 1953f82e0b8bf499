/* ChaCha20 blocks with AVX2: eight blocks at a time transposed across 256-bit
 * registers, the last one to seven in rows, two blocks to a 256-bit register
 * (chacha20_x86.h). Rotations as in chacha20_sse41.c, on twice the width. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "crypto/chacha20_impl.h"

#define CHACHA_X86_256 1
#define CHACHA_X86_C_IN_MEMORY 1
#include "crypto/chacha20_x86.h"

void chacha20_blocks_avx2(uint32_t state[16], unsigned char *out, const unsigned char *in,
                          size_t blocks)
{
    chacha_x86_from8(state, out, in, blocks);
}
