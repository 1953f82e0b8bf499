/* bench_bitcoin's benchmarks: one list, the single place a benchmark is registered.
 *
 * A benchmark is a function `void Name(nb_bench *bench)` that configures bench (batch, unit,
 * complexity) and calls nb_run on it exactly once per call; its name is its function's name.
 * The runner gives it a bench with the name, output and timing options already set, and reads
 * the complexity N (nb_get_complexity_n) the user asked for with -asymptote (negative when
 * none). A benchmark must not print and must leave no allocation behind.
 *
 * To add one: write the function in the file of its area (crypto_hash.c, prevector.c,
 * mempool_stress.c, ...) and add one line `BENCHMARK(Name)` to BENCH_BITCOIN_LIST below; that
 * line both declares the function and registers it, at priority level high (Core's level for
 * every benchmark here). The longer form `BENCHMARK_EX(Name, level, available)` gives another
 * level (a bench_priority) and a function `int available(void)` that says whether this CPU
 * can run it at all (NULL: always); the runner neither lists nor runs one it cannot. The
 * order of the list does not matter: the runner sorts by name (byte-wise, strcmp). */
#ifndef BENCH_BITCOIN_BENCH_H
#define BENCH_BITCOIN_BENCH_H

#include "bench/nanobench.h"
#include "bench_bitcoin/bench_op.h"

#define BENCH_BITCOIN_LIST(BENCHMARK, BENCHMARK_EX) \
    BENCHMARK(CHACHA20_1MB) \
    BENCHMARK(ComplexMemPool) \
    BENCHMARK(FastRandom_1bit) \
    BENCHMARK(FastRandom_32bit) \
    BENCHMARK(MempoolEviction) \
    BENCHMARK(PrevectorClearNontrivial) \
    BENCHMARK(PrevectorClearTrivial) \
    BENCHMARK(PrevectorDeserializeNontrivial) \
    BENCHMARK(PrevectorDeserializeTrivial) \
    BENCHMARK(PrevectorDestructorNontrivial) \
    BENCHMARK(PrevectorDestructorTrivial) \
    BENCHMARK(PrevectorFillVectorDirectNontrivial) \
    BENCHMARK(PrevectorFillVectorDirectTrivial) \
    BENCHMARK(PrevectorFillVectorIndirectNontrivial) \
    BENCHMARK(PrevectorFillVectorIndirectTrivial) \
    BENCHMARK(PrevectorResizeNontrivial) \
    BENCHMARK(PrevectorResizeTrivial) \
    BENCHMARK(RIPEMD160) \
    BENCHMARK(SHA1) \
    BENCHMARK(SHA256) \
    BENCHMARK(SHA256D64_1024) \
    BENCHMARK(SHA256_32b) \
    BENCHMARK(SHA256_STANDARD) \
    BENCHMARK_EX(SHA256_SSE4, BENCH_PRIORITY_HIGH, bench_has_sha256_sse4) \
    BENCHMARK_EX(SHA256_AVX2, BENCH_PRIORITY_HIGH, bench_has_sha256_avx2) \
    BENCHMARK_EX(SHA256_SHANI, BENCH_PRIORITY_HIGH, bench_has_sha256_shani) \
    BENCHMARK(SHA256_32b_STANDARD) \
    BENCHMARK_EX(SHA256_32b_SSE4, BENCH_PRIORITY_HIGH, bench_has_sha256_sse4) \
    BENCHMARK_EX(SHA256_32b_AVX2, BENCH_PRIORITY_HIGH, bench_has_sha256_avx2) \
    BENCHMARK_EX(SHA256_32b_SHANI, BENCH_PRIORITY_HIGH, bench_has_sha256_shani) \
    BENCHMARK(SHA256D64_1024_STANDARD) \
    BENCHMARK_EX(SHA256D64_1024_SSE4, BENCH_PRIORITY_HIGH, bench_has_sha256_sse4) \
    BENCHMARK_EX(SHA256D64_1024_AVX2, BENCH_PRIORITY_HIGH, bench_has_sha256_avx2) \
    BENCHMARK_EX(SHA256D64_1024_SHANI, BENCH_PRIORITY_HIGH, bench_has_sha256_shani) \
    BENCHMARK(SHA3_256_1M) \
    BENCHMARK(SHA512) \
    BENCHMARK(SipHash_32b) \
    BENCHMARK(MuHash) \
    BENCHMARK(MuHashMul) \
    BENCHMARK(MuHashDiv) \
    BENCHMARK(MuHashPrecompute) \
    BENCHMARK(MuHashFinalize) \
    BENCHMARK(FastRandom_rand64) \
    BENCHMARK(FastRandom_rand32) \
    BENCHMARK(FastRandom_randbool) \
    BENCHMARK(FastRandom_randbits) \
    BENCHMARK(FastRandom_randrange100) \
    BENCHMARK(FastRandom_randrange1000) \
    BENCHMARK(FastRandom_randrange1000000) \
    BENCHMARK(FastRandom_stdshuffle100) \
    BENCHMARK(InsecureRandom_rand64) \
    BENCHMARK(InsecureRandom_rand32) \
    BENCHMARK(InsecureRandom_randbool) \
    BENCHMARK(InsecureRandom_randbits) \
    BENCHMARK(InsecureRandom_randrange100) \
    BENCHMARK(InsecureRandom_randrange1000) \
    BENCHMARK(InsecureRandom_randrange1000000) \
    BENCHMARK(InsecureRandom_stdshuffle100) \
    BENCHMARK(PrePadded) \
    BENCHMARK(RegularPadded) \
    BENCHMARK(MerkleRoot) \
    BENCHMARK(MerkleRootWithMutation) \
    /* every line above ends in a backslash, so a new one can go anywhere */

/* Core's priority levels (-priority-level), as bits. */
typedef enum {
    BENCH_PRIORITY_HIGH = 1,
    BENCH_PRIORITY_MEDIUM = 2,
    BENCH_PRIORITY_LOW = 4
} bench_priority;
#define BENCH_PRIORITY_ALL (BENCH_PRIORITY_HIGH | BENCH_PRIORITY_MEDIUM | BENCH_PRIORITY_LOW)

/* Availability checks for BENCHMARK_EX (crypto_hash.c): 1 when sha256_impl_list offers the
 * SHA-256 implementation that Core's row of that suffix pins ("sse41", "avx2", "shani"). */
int bench_has_sha256_sse4(void);
int bench_has_sha256_avx2(void);
int bench_has_sha256_shani(void);

/* Declares every benchmark: void ComplexMemPool(nb_bench *bench); and so on. */
#define BENCH_BITCOIN_DECLARE(name) void name(nb_bench *bench);
#define BENCH_BITCOIN_DECLARE_EX(name, level, available) void name(nb_bench *bench);
BENCH_BITCOIN_LIST(BENCH_BITCOIN_DECLARE, BENCH_BITCOIN_DECLARE_EX)
#undef BENCH_BITCOIN_DECLARE
#undef BENCH_BITCOIN_DECLARE_EX

/* One registered benchmark. */
typedef struct {
    const char *name;
    void (*fn)(nb_bench *bench);
    bench_priority priority;    /* BENCH_PRIORITY_HIGH unless its line says otherwise */
    int (*available)(void);     /* NULL: every CPU runs it */
} bench_entry;

/* The registered benchmarks, in list order (not sorted); *count receives how many. */
const bench_entry *bench_registry(size_t *count);

/* The hash families whose implementations can be pinned (crypto/dispatch.h). */
typedef enum {
    BENCH_HASH_SHA1, BENCH_HASH_SHA256, BENCH_HASH_SHA512,
    BENCH_HASH_CHACHA20,  /* not a hash, pinned the same way (crypto/chacha20.h) */
    BENCH_HASH_SHA3       /* one implementation: the bench_sha3_impl_* functions below */
} bench_hash_family;

/* SHA3-256's implementations in the shape of crypto/dispatch.h's, for -compare
 * (crypto_hash.c): the portable code is the only one, "standard", so forcing it (or "auto")
 * changes nothing and anything else is refused. */
size_t bench_sha3_impl_list(const char **names, size_t cap);
int bench_sha3_impl_force(const char *name);
const char *bench_sha3_impl_current(void);

/* A registered benchmark that -compare measures once per implementation of its family and
 * once through OpenSSL, all in one nb_compare (paired and interleaved; the [auto] row is the
 * baseline). ours measures exactly what the benchmark does, on whichever implementation is
 * pinned while it runs. */
typedef struct {
    const char *name;                  /* the registered benchmark's name */
    bench_hash_family family;          /* what the implementation rows pin */
    bench_op_provider ours;            /* the benchmark's op on this project's code */
    bench_op_provider openssl;         /* the same work done by OpenSSL; NULL without it */
} bench_compare_entry;

/* CHACHA20_1MB's op for -compare (chacha.c). */
int bench_provide_chacha20_1mb(bench_op *op);

/* The benchmarks -compare knows, in byte-wise name order; *count receives how many. */
const bench_compare_entry *bench_compare_registry(size_t *count);

/* The SipHash key a benchmark's mempool is made with (mempool_new's salt): NULL, a random one
 * from /dev/urandom as Core's pools have, except when counted under callgrind
 * (-instructions): there a fixed one, since the random key moves the hash tables' probe
 * lengths, and the count with them, a little from run to run. */
const uint64_t *bench_mempool_salt(void);

/* The largest -asymptote value: ComplexMemPool's number of child transactions, whose memory
 * grows with its square (10000: about 170 MB, 30000: 1.4 GB). */
#define BENCH_MAX_COMPLEXITY_N 10000

/* Prints "bench_bitcoin: " and the formatted message as one line on stderr. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
void bench_error(const char *fmt, ...);

/* For a benchmark whose setup or op cannot get memory (it has no way to return an error):
 * prints "bench_bitcoin: <name>: out of memory" on stderr, removes any temporary output
 * file and exits with status 1. Does not return. */
#if defined(__GNUC__)
__attribute__((noreturn))
#endif
void bench_out_of_memory(const char *name);

#endif
