/* The benchmark table, generated from the one list in bench.h. */
#include "bench_bitcoin/bench.h"

#define BENCH_BITCOIN_ENTRY(name) {#name, name, BENCH_PRIORITY_HIGH, NULL},
#define BENCH_BITCOIN_ENTRY_EX(name, level, available) {#name, name, level, available},

static const bench_entry registry[] = {
    BENCH_BITCOIN_LIST(BENCH_BITCOIN_ENTRY, BENCH_BITCOIN_ENTRY_EX)
};

const bench_entry *bench_registry(size_t *count)
{
    *count = sizeof registry / sizeof registry[0];
    return registry;
}
