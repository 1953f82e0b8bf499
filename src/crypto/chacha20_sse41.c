/* ChaCha20 blocks with SSSE3 (built with the SSE4.1 group's flags and chosen
 * when CPUID reports SSE4.1 and SSSE3): four blocks at a time transposed, the
 * last one to three in rows (chacha20_x86.h). The 16- and 8-bit rotations are
 * byte shuffles (pshufb); 12 and 7 are two shifts and an or. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "crypto/chacha20_impl.h"

#define CHACHA_X86_C_IN_MEMORY 1
#include "crypto/chacha20_x86.h"

void chacha20_blocks_sse41(uint32_t state[16], unsigned char *out, const unsigned char *in,
                           size_t blocks)
{
    chacha_x86_from4(state, out, in, blocks);
}
