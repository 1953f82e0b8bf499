/* What one bench_bitcoin -compare row measures (bench_op) and how a benchmark hands it over.
 * Its own header, without the benchmark declarations of bench.h, so that crypto_openssl.c can
 * include it beside <openssl/sha.h> (which declares functions named SHA1, SHA256, SHA512). */
#ifndef BENCH_BITCOIN_BENCH_OP_H
#define BENCH_BITCOIN_BENCH_OP_H

#include <stdint.h>

/* What one -compare row measures: op_n(arg, iters) runs the benchmark's op iters times (a
 * loop the op inlines into, as it does into nb_run's), each processing batch units of unit.
 * release(arg), when set, frees what the op's provider set up. */
typedef struct {
    void (*op_n)(void *arg, uint64_t iters);
    void *arg;
    double batch;
    const char *unit;
    void (*release)(void *arg);
} bench_op;

/* Defines static void name(void *arg, uint64_t n) that calls op(arg) n times, op inlined. */
#define BENCH_OP_LOOP(name, op) \
    static void name(void *arg, uint64_t n) \
    { \
        while (n--) \
            op(arg); \
    }

/* Fills *op with a benchmark's op and its freshly set-up state: 0, or -1 when memory runs
 * out (nothing to release then). */
typedef int (*bench_op_provider)(bench_op *op);

#endif
