/* -against's child processes seen from the parent: a bench_bitcoin started in its serving
 * mode (-serve-protocol=1) with pipes on its stdin, stdout and stderr, and the messages of
 * against_proto.h sent to it and received from it. Whatever goes wrong with the child (it
 * cannot be started, dies, hangs, speaks something else) is one error line that says which
 * program it was and quotes what that program itself wrote on stderr as its words. */
#ifndef BENCH_BITCOIN_PEER_H
#define BENCH_BITCOIN_PEER_H

#include "bench_bitcoin/against_proto.h"

#include <stddef.h>
#include <sys/types.h>

typedef struct {
    const char *path;          /* for messages: "'./old/bench_bitcoin'", "this build's ..." */
    pid_t pid;                 /* 0: none */
    int to, from, err;         /* its stdin, stdout, stderr; -1 when closed */
    char in[2 * AGAINST_MAX_LINE];
    size_t inlen;
    char errtext[1024];        /* the first bytes of its stderr, NUL-terminated */
    size_t errlen;
    double timeout_ms;
    int greeted;               /* the handshake went through */
} bench_peer;

/* A peer with no process yet: path (kept, not copied) names it in messages. */
void bench_peer_init(bench_peer *p, const char *path, double timeout_ms);

/* Starts program -serve-protocol=1 (and -no-pin with no_pin) with pipes on its stdin, stdout
 * and stderr; with strip, without the test hooks' environment variables (they are meant for
 * this build's side). Both builds start from the same argv[0] and file name, on the same CPU,
 * with address randomisation off (see peer.c). 0, or -1 after one error line (missing, not
 * executable, cannot be started). */
int bench_peer_spawn(bench_peer *p, const char *program, int no_pin, int strip);

/* Sends one message; doing says what was going on ("running SHA256"). 0, or -1 after one
 * error line (the child went away). */
int bench_peer_send(bench_peer *p, const against_msg *m, const char *doing);

/* Receives one message, waiting at most the larger of timeout_ms and the peer's timeout. 0,
 * or -1 after one error line (the child died, hung, reported an error or sent something that
 * is not a message); the child is then killed. Before the handshake (greeted 0) only a hello
 * is a message. */
int bench_peer_recv(bench_peer *p, against_msg *m, const char *doing, double timeout_ms);

/* Kills the child (if still there) and closes every pipe. */
void bench_peer_kill(bench_peer *p);

/* Ends a child that did its work: quit, then wait for it to exit 0. 0, or -1 after one error
 * line. */
int bench_peer_quit(bench_peer *p);

#endif
