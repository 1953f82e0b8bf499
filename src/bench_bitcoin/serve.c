/* bench_bitcoin -serve-protocol (against.h: bench_serve): the other side of -against. It
 * owns no policy: it lists its rows, runs the one asked for through the registry
 * (bench_row_run) with the epochs sized by the parent (nb_drive), and answers each epoch with
 * its time. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/against.h"
#include "bench_bitcoin/against_proto.h"
#include "crypto/sha256.h"
#include "util/timing.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The fraction of extra iterations BENCH_BITCOIN_AGAINST_PLANT=NAME:PCT asks of benchmark
 * name (0: none, the default). */
static double planted(const char *name)
{
    const char *plant = getenv("BENCH_BITCOIN_AGAINST_PLANT");
    size_t nlen;
    double pct;
    if (!plant)
        return 0;
    nlen = strcspn(plant, ":");
    if (strlen(name) != nlen || memcmp(plant, name, nlen) != 0 || plant[nlen] != ':')
        return 0;
    pct = strtod(plant + nlen + 1, NULL);
    return pct > 0 && pct < 1000 ? pct / 100 : 0;
}

/* Below this many extra iterations per epoch the plant is a wait instead (serve_next). */
#define PLANT_MIN_EXTRA 10

typedef struct {
    nb_bench *b;
    int fault;                 /* 0 none, 1 crash, 2 hang */
    double plant;              /* the planted slowdown, as a fraction (0: none) */
    int waiting;               /* the epoch under way is planted as a wait */
    nb_rng rng;
} serve;

/* n, plus the planted extra iterations (rounded at random, so that their mean is exact);
 * where they would be fewer than PLANT_MIN_EXTRA (an op of many microseconds), n, and the
 * epoch is planted as a wait (s->waiting). */
static uint64_t with_plant(serve *s, uint64_t n)
{
    s->waiting = 0;
    if (s->plant <= 0)
        return n;
    if ((double)n * s->plant < PLANT_MIN_EXTRA) {
        s->waiting = 1;
        return n;
    }
    return n + (uint64_t)floor((double)n * s->plant + nb_rng_uniform01(&s->rng));
}

/* ns, an epoch's time, plus a busy wait of s->plant times it when the epoch is planted as a
 * wait: the time the wait took, as measured, is added. */
static uint64_t planted_time(const serve *s, uint64_t ns)
{
    double start, until;
    if (!s->waiting)
        return ns;
    start = bb_clock_ns(CLOCK_MONOTONIC);
    until = start + (double)ns * s->plant;
    while (bb_clock_ns(CLOCK_MONOTONIC) < until)
        ;
    return ns + (uint64_t)(bb_clock_ns(CLOCK_MONOTONIC) - start);
}

static void say(const against_msg *m)
{
    char line[AGAINST_MAX_LINE + 1];
    size_t len = bench_proto_format(m, line, sizeof line);
    if (len == 0 || fwrite(line, 1, len, stdout) != len || fflush(stdout) != 0)
        exit(BENCH_EXIT_ERROR);   /* the parent is gone, or the message cannot be said */
}

static void say_error(const char *fmt, const char *arg)
{
    against_msg m;
    memset(&m, 0, sizeof m);
    m.kind = AGAINST_ERROR;
    snprintf(m.text, sizeof m.text, fmt, arg);
    say(&m);
}

/* Reads the parent's next message; at the end of input, or on a line that is no message,
 * the process ends (status 0 at the end, as after quit). */
static void hear(against_msg *m)
{
    char line[AGAINST_MAX_LINE + 1];
    size_t len;
    if (!fgets(line, sizeof line, stdin))
        exit(0);
    len = strlen(line);
    if (len == 0 || line[len - 1] != '\n' || bench_proto_parse(line, len - 1, m) != 0) {
        say_error("not a message of protocol version 1: %.60s", line);
        exit(BENCH_EXIT_ERROR);
    }
    if (m->kind == AGAINST_QUIT)
        exit(0);
}

static uint64_t serve_next(void *ctx, uint64_t iters, uint64_t ns)
{
    serve *s = ctx;
    against_msg m;
    memset(&m, 0, sizeof m);
    if (iters == 0) {
        m.kind = AGAINST_READY;
        m.batch = nb_get_batch(s->b);
        snprintf(m.text, sizeof m.text, "%s", nb_get_unit(s->b));
    } else {
        m.kind = AGAINST_TIME;
        m.number = planted_time(s, ns);
    }
    say(&m);
    hear(&m);
    if (m.kind == AGAINST_END)
        return 0;
    if (m.kind != AGAINST_EPOCH) {
        say_error("expected epoch or end, got %.60s", "another message");
        exit(BENCH_EXIT_ERROR);
    }
    if (s->fault == 1)
        kill(getpid(), SIGKILL);
    while (s->fault == 2)
        pause();
    return with_plant(s, m.number);
}

int bench_serve(const char *version)
{
    size_t count, i;
    const bench_row *all = bench_rows(&count);
    const char *fault = getenv("BENCH_BITCOIN_SERVE_FAULT");
    against_msg m;
    char *end;
    long v = strtol(version, &end, 10);

    if (*end || end == version || v != AGAINST_PROTOCOL_VERSION) {
        bench_error("-serve-protocol=%s: this build speaks -against protocol version %d only",
                    version, AGAINST_PROTOCOL_VERSION);
        return BENCH_EXIT_ERROR;
    }
    sha256_autodetect();
    memset(&m, 0, sizeof m);
    m.kind = AGAINST_HELLO;
    m.number = AGAINST_PROTOCOL_VERSION;
    say(&m);
    m.kind = AGAINST_NAME;
    for (i = 0; i < count; i++) {
        if (!bench_row_available(&all[i]))
            continue;   /* not run on this CPU (bench.h) */
        snprintf(m.text, sizeof m.text, "%s", all[i].name);
        say(&m);
    }
    m.kind = AGAINST_NAMES_END;
    say(&m);
    for (;;) {
        const bench_row *row;
        serve s;
        hear(&m);
        if (m.kind != AGAINST_RUN) {
            say_error("expected run or quit, got %.60s", "another message");
            return BENCH_EXIT_ERROR;
        }
        row = bench_row_find(m.text);
        if (!row || !bench_row_available(row)) {
            say_error("no benchmark named %.100s in this build", m.text);
            return BENCH_EXIT_ERROR;
        }
        memset(&s, 0, sizeof s);
        s.b = nb_bench_new();
        if (!s.b) {
            say_error("%s", "out of memory");
            return BENCH_EXIT_ERROR;
        }
        s.fault = fault && strcmp(fault, "crash") == 0 ? 1 : fault && strcmp(fault, "hang") == 0;
        if (fault && strcmp(fault, "hang") == 0)
            s.fault = 2;
        s.plant = planted(row->name);
        nb_rng_seed(&s.rng, 1);
        nb_output(nb_performance_counters(nb_name(s.b, row->name), 0), NULL);
        nb_drive(s.b, serve_next, &s);
        if (bench_row_run(row, s.b) != 0) {   /* its error line is on stderr */
            say_error("%s: its setup failed (out of memory)", row->name);
            return BENCH_EXIT_ERROR;
        }
        nb_bench_free(s.b);
        memset(&m, 0, sizeof m);
        m.kind = AGAINST_DONE;
        say(&m);
    }
}
