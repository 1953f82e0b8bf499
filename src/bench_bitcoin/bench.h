/* bench_bitcoin's benchmarks: the one form a benchmark is written in, and the registry that
 * every mode (the plain run, -list, -compare, -against's serving side, -instructions,
 * -sanity-check) takes its rows from.
 *
 * A benchmark is one bench_def: what its state is and how it is made and unmade (setup,
 * teardown), its op (op_n: runs the op iters times, the op inlined in that loop, as
 * NB_OP_N writes it), what one iteration processes (batch units of unit), and what the
 * modes need to know about it (priority level, availability on this CPU, a per-epoch or
 * per-iteration setup, its default complexity N, the variant family it can be pinned on, an
 * OpenSSL counterpart).
 * One definition serves every mode: bench_row_run runs a row for the plain run,
 * -sanity-check, -asymptote, -instructions and -against's serving side; -compare makes each
 * alternative's state with bench_state_new and runs its op_n in nb_compare.
 *
 * ---- How to add a benchmark ----
 *
 * 1. In the file of its area (crypto_hash.c, chacha.c, prevector.c, mempool_stress.c, ...),
 *    write the state, the op and, if the state needs more than zeroed memory, its setup and
 *    teardown; every function static:
 *
 *        typedef struct { unsigned char *in; unsigned char out[64]; } big_hash;
 *        static void sha1_op(void *arg) { big_hash *h = arg; ...; sha1_finalize(&c, h->out); }
 *        NB_OP_N(sha1_n, sha1_op)
 *
 * 2. Add its bench_def to the area's table (bench_defs_<area>[], ended by BENCH_DEFS_END):
 *
 *        {.name = "SHA1", .state_size = sizeof(big_hash), .setup = big_hash_setup,
 *         .op_n = sha1_n, .teardown = big_hash_teardown, .batch = 1000000, .unit = "byte",
 *         .family = "sha1", .openssl = BENCH_OPENSSL(sha1)},
 *
 *    Fields left out are zero, and zero means the usual: batch 1 and unit "op" (the
 *    harness's defaults), priority level high, every CPU runs it, no per-epoch or
 *    per-iteration setup, no complexity N, the harness's epochs, no variant family, no
 *    OpenSSL counterpart.
 * 3. A new area file: one line X(area) in BENCH_AREAS below, and the file in Makefile.am
 *    (libbench_bitcoin's sources).
 *
 * That is all: the row is then listed, filtered, run, compared, served and counted; its name
 * is the one in the table (byte-wise order decides where it runs: the registry sorts).
 *
 * Rules the modes rely on:
 *  - The runner allocates state_size bytes, zeroed (none and a NULL state when 0), calls
 *    setup(state, n), runs op_n any number of times with any iteration counts, and then
 *    calls teardown(state) (also after a setup that failed: it frees what is not NULL).
 *    setup returns 0, or -1 when memory runs out.
 *  - An op never prints and keeps its result where the compiler cannot prove it dead (in
 *    the state, or through nb_do_not_optimize_away). An op that cannot get memory calls
 *    bench_out_of_memory (diag.h), which ends the process.
 *  - -compare makes one state per alternative (the row on each variant, OpenSSL's), so a
 *    state must not live in static storage, except an OpenSSL counterpart's, which only
 *    ever has one state at a time. There a per-epoch (per-iteration) setup runs on every
 *    alternative's state before each epoch (iteration) of any of them.
 *  - epoch_setup runs before each epoch of many iterations: the later iterations see what
 *    the earlier ones left. For state one iteration uses up (an array to sort), use
 *    iteration_setup, which times each iteration alone.
 *  - n is the row's complexity N: the -asymptote value when given, else complexity_n (for
 *    a row that reads it), else negative.
 *  - family names a crypto variant set (crypto_variant_set_find: "sha256", "chacha20"):
 *    -compare then runs the row once per variant of the set and once on the automatic
 *    choice. pins adds Core's <NAME>_<SUFFIX> rows: the same benchmark with the family
 *    pinned on one variant (SHA256_SHANI), registered only where this CPU runs it. */
#ifndef BENCH_BITCOIN_BENCH_H
#define BENCH_BITCOIN_BENCH_H

#include "bench/nanobench.h"

#include <stddef.h>
#include <stdint.h>

/* The area files, each with its table bench_defs_<area> (the order does not matter). */
#define BENCH_AREAS(X) \
    X(crypto_hash) \
    X(chacha) \
    X(aead) \
    X(prevector) \
    X(mempool_stress) \
    X(mempool_eviction) \
    X(mempool_ephemeral) \
    X(rpc_mempool) \
    X(cluster_linearize) \
    X(muhash) \
    X(random) \
    X(hashpadding) \
    X(merkle_root)

/* Core's priority levels (-priority-level), as bits; 0 in a bench_def means high. */
typedef enum {
    BENCH_PRIORITY_HIGH = 1,
    BENCH_PRIORITY_MEDIUM = 2,
    BENCH_PRIORITY_LOW = 4
} bench_priority;
#define BENCH_PRIORITY_ALL (BENCH_PRIORITY_HIGH | BENCH_PRIORITY_MEDIUM | BENCH_PRIORITY_LOW)

/* One of Core's pinned rows: <NAME>_<suffix> is NAME with its family on variant. */
typedef struct {
    const char *suffix;          /* "SHANI" */
    const char *variant;         /* "shani": a name of the family's variant set */
} bench_pin;

typedef struct bench_def bench_def;

/* One benchmark (see the rules above). */
struct bench_def {
    const char *name;            /* the row's name: Core's, a C identifier */
    size_t state_size;           /* bytes of state the runner allocates, zeroed; 0: none */
    int (*setup)(void *state, double n);     /* NULL: zeroed state is ready */
    void (*op_n)(void *state, uint64_t iters);
    void (*teardown)(void *state);           /* NULL: nothing to free */
    void (*epoch_setup)(void *state);        /* before each measured epoch, untimed (nb_setup);
                                              * NULL: none */
    double batch;                /* units one iteration processes; 0: 1 */
    const char *unit;            /* NULL: the harness's "op" */
    unsigned priority;           /* bench_priority bits; 0: BENCH_PRIORITY_HIGH */
    int (*available)(void);      /* 1 when this CPU runs it; NULL: every CPU */
    double complexity_n;         /* > 0: the row reads n, and this is n without -asymptote */
    const char *family;          /* a crypto variant set's name; NULL: none */
    const bench_pin *pins;       /* Core's pinned rows, ended by {NULL, NULL}; NULL: none */
    const bench_def *openssl;    /* the same work through OpenSSL (no name, family or pins
                                  * of its own; same batch and unit); NULL: none */
    size_t max_epochs;           /* at most this many epochs in a run (for a row whose one
                                  * iteration outlasts the epoch time, so that each epoch is
                                  * one iteration); 0: the bench's count */
    void (*iteration_setup)(void *state);    /* before every iteration, untimed, each
                                              * iteration timed alone (nb_setup_each): for
                                              * state one iteration uses up; NULL: none
                                              * (with epoch_setup, this one wins) */
};

/* Ends a bench_defs_<area> table. */
#define BENCH_DEFS_END \
    {NULL, 0, NULL, NULL, NULL, NULL, 0, NULL, 0, NULL, 0, NULL, NULL, NULL, 0, NULL}

/* Declares every area's table: extern const bench_def bench_defs_crypto_hash[]; ... */
#define BENCH_DECLARE_AREA(area) extern const bench_def bench_defs_##area[];
BENCH_AREAS(BENCH_DECLARE_AREA)
#undef BENCH_DECLARE_AREA

/* The longest row name, with a pin's suffix. */
#define BENCH_NAME_MAX 80

/* One row of the suite: a benchmark, or a benchmark pinned on one variant of its family. */
typedef struct {
    char name[BENCH_NAME_MAX];
    const bench_def *def;
    const char *pin;             /* the variant it runs on; NULL: the automatic choice */
} bench_row;

/* Every row this build defines (those this CPU cannot run too), sorted byte-wise by name
 * (strcmp); *count receives how many. Made on the first call. */
const bench_row *bench_rows(size_t *count);

/* The row called name, or NULL. */
const bench_row *bench_row_find(const char *name);

/* 1 when this CPU runs row: its def's available() says so and its pin is a variant that
 * passes its self-test here. */
int bench_row_available(const bench_row *row);

/* The row's complexity N for a bench whose nb_complexity_n is given (negative: none). */
double bench_row_n(const bench_row *row, double given);

/* Runs row once into b, whose name, output and timing options the caller has set: pins its
 * variant (if any), makes its state, sets batch and unit (where the def has them) and the
 * per-epoch setup, calls nb_run_n, frees the state and puts the family back on its
 * automatic choice. The complexity N is b's (nb_get_complexity_n). 0, or -1 after one error
 * line (no memory for the state, a pin this CPU refuses). */
int bench_row_run(const bench_row *row, nb_bench *b);

/* Makes def's state for complexity N n into *state (NULL when the def has none). 0, or -1
 * after one error line naming name (no memory); *state is then freed. */
int bench_state_new(const bench_def *def, const char *name, double n, void **state);

/* Frees a state bench_state_new made (teardown, then the memory); state may be NULL. */
void bench_state_free(const bench_def *def, void *state);

/* The SipHash key a benchmark's mempool is made with (mempool_new's salt): NULL, a random one
 * from /dev/urandom as Core's pools have, except when counted under callgrind
 * (-instructions): there a fixed one, since the random key moves the hash tables' probe
 * lengths, and the count with them, a little from run to run (mempool_salt.c). */
const uint64_t *bench_mempool_salt(void);

/* The largest -asymptote value: ComplexMemPool's number of child transactions, whose memory
 * grows with its square (10000: about 170 MB, 30000: 1.4 GB). */
#define BENCH_MAX_COMPLEXITY_N 10000
#define BENCH_MAX_COMPLEXITY_N_TEXT "10000"

/* An OpenSSL counterpart's address for a bench_def's .openssl, NULL when built without
 * OpenSSL: BENCH_OPENSSL(sha1) is &bench_openssl_sha1 (crypto_openssl.h declares them). */
#ifdef HAVE_OPENSSL
#define BENCH_OPENSSL(name) (&bench_openssl_##name)
#else
#define BENCH_OPENSSL(name) NULL
#endif

#include "bench_bitcoin/diag.h"

#endif
