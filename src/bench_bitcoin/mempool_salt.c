/* The mempool benchmarks' SipHash key (bench.h: bench_mempool_salt). */
#include "bench_bitcoin/bench.h"

const uint64_t *bench_mempool_salt(void)
{
    static const uint64_t fixed[2] = {UINT64_C(0x9e3779b97f4a7c15),
                                      UINT64_C(0xd1b54a32d192ed03)};
    return nb_valgrind_counting() ? fixed : NULL;
}
