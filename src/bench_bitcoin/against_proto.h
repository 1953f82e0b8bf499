/* The -against protocol: the messages a bench_bitcoin and the other build it runs as a child
 * (bench_bitcoin -serve-protocol=1) exchange over pipes, one line of printable ASCII each,
 * ended by '\n'. Pure functions over byte buffers: no I/O, so that tests and fuzzers call them.
 *
 * Version 1. The child speaks first:
 *   child:  bench_bitcoin-against 1          the handshake: magic and version
 *   child:  name <NAME>                      once per benchmark it has
 *   child:  names-end
 * then, any number of times, one benchmark measured in epochs the parent sizes:
 *   parent: run <NAME>
 *   child:  ready <BATCH> <UNIT>             the benchmark's setup is done; or error <TEXT>
 *   parent: epoch <ITERATIONS>               run one epoch of that many iterations
 *   child:  time <NANOSECONDS>               how long it took
 *   ...     (epoch and time again)
 *   parent: end
 *   child:  done                             the benchmark's teardown is done
 * and finally
 *   parent: quit                             (or end of input): the child exits 0.
 * A child that cannot serve what it is asked says error <TEXT> and exits non-zero. */
#ifndef BENCH_BITCOIN_AGAINST_PROTO_H
#define BENCH_BITCOIN_AGAINST_PROTO_H

#include <stddef.h>
#include <stdint.h>

/* The version this build speaks, and its handshake's magic word. */
#define AGAINST_PROTOCOL_VERSION 1
#define AGAINST_MAGIC "bench_bitcoin-against"

/* The longest line, '\n' included, either side may send. */
#define AGAINST_MAX_LINE 512

typedef enum {
    AGAINST_HELLO,       /* number: the version */
    AGAINST_NAME,        /* text: a benchmark's name */
    AGAINST_NAMES_END,
    AGAINST_READY,       /* batch and text (the unit) */
    AGAINST_TIME,        /* number: nanoseconds */
    AGAINST_DONE,
    AGAINST_ERROR,       /* text: why */
    AGAINST_RUN,         /* text: a benchmark's name */
    AGAINST_EPOCH,       /* number: iterations, >= 1 */
    AGAINST_END,
    AGAINST_QUIT
} against_kind;

typedef struct {
    against_kind kind;
    uint64_t number;
    double batch;                  /* positive and finite */
    char text[AGAINST_MAX_LINE];   /* NUL-terminated; names have no space */
} against_msg;

/* Parses one line: the len bytes at line, without its '\n'. 0 and *msg set, or -1 when the
 * bytes are not exactly one message: an unknown word, a missing or extra field, a number with
 * a sign, leading zero or beyond 64 bits, a batch that is not a positive finite decimal, a
 * byte outside printable ASCII, len >= AGAINST_MAX_LINE. A hello line parses whatever its
 * version; the caller compares the number. */
int bench_proto_parse(const char *line, size_t len, against_msg *msg);

/* Writes msg as one line, '\n' included, into buf (cap bytes) with a terminating NUL; returns
 * the line's length, or 0 when msg would not parse back (an empty or spaced name, a
 * non-printable text, a bad batch) or does not fit. */
size_t bench_proto_format(const against_msg *msg, char *buf, size_t cap);

#endif
