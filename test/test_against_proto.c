/* The -against protocol's messages: every kind formats and parses back; malformed lines,
 * numbers out of range, bad batches and non-printable bytes are refused; random bytes never
 * parse into a message that does not format back to the same line. */
#include "bench_bitcoin/against_proto.h"
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int parses(const char *line, against_msg *m)
{
    return bench_proto_parse(line, strlen(line), m) == 0;
}

/* line parses, and formats back to itself plus '\n'. */
static void round_trip(const char *line)
{
    against_msg m;
    char buf[AGAINST_MAX_LINE + 1], want[AGAINST_MAX_LINE + 2];
    size_t n;
    if (!CHECKF(parses(line, &m), "'%s' does not parse", line))
        return;
    n = bench_proto_format(&m, buf, sizeof buf);
    snprintf(want, sizeof want, "%s\n", line);
    CHECKF(n == strlen(want) && strcmp(buf, want) == 0, "'%s' formats as '%s'", line, buf);
}

static void test_kinds(void)
{
    against_msg m;
    round_trip("bench_bitcoin-against 1");
    round_trip("name SHA256_32b");
    round_trip("names-end");
    round_trip("ready 1000000 byte");
    round_trip("ready 0.5 my unit");
    round_trip("time 18446744073709551615");
    round_trip("time 0");
    round_trip("done");
    round_trip("error no benchmark named X in this build");
    round_trip("run SHA1");
    round_trip("epoch 1");
    round_trip("end");
    round_trip("quit");
    CHECK(parses("bench_bitcoin-against 2", &m) && m.kind == AGAINST_HELLO && m.number == 2);
    CHECK(parses("ready 32 byte", &m) && m.kind == AGAINST_READY && m.batch == 32
          && strcmp(m.text, "byte") == 0);
    CHECK(parses("epoch 12345", &m) && m.kind == AGAINST_EPOCH && m.number == 12345);
    CHECK(parses("ready 1e+06 byte", &m) && m.batch == 1e6);
}

static void test_refused(void)
{
    static const char *const bad[] = {
        "", " ", "hello", "name", "name ", "name a b", "names-end x", "time", "time -1",
        "time +1", "time 01", "time 18446744073709551616", "time 1.5", "time 1 ", "epoch 0",
        "ready", "ready 1", "ready 1 ", "ready 0 op", "ready -1 op", "ready inf op",
        "ready nan op", "ready 1e999 op", "ready x op", "done ", "quit now", "Quit",
        "bench_bitcoin-against", "bench_bitcoin-against x", "run", "run  SHA1", "error",
        "end\r",
    };
    against_msg m;
    char line[AGAINST_MAX_LINE + 8];
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECKF(!parses(bad[i], &m), "'%s' parsed", bad[i]);
    /* bytes outside printable ASCII, anywhere */
    CHECK(bench_proto_parse("name a\0b", 8, &m) != 0);
    CHECK(!parses("name a\tb", &m) && !parses("error caf\xc3\xa9", &m));
    /* the longest line: AGAINST_MAX_LINE - 1 bytes before the newline */
    memset(line, 'x', sizeof line);
    memcpy(line, "name ", 5);
    CHECK(bench_proto_parse(line, AGAINST_MAX_LINE - 1, &m) == 0);
    CHECK(bench_proto_parse(line, AGAINST_MAX_LINE, &m) != 0);
    /* what cannot be said is not formatted */
    memset(&m, 0, sizeof m);
    m.kind = AGAINST_NAME;
    strcpy(m.text, "two words");
    CHECK(bench_proto_format(&m, line, sizeof line) == 0);
    m.kind = AGAINST_READY;
    m.batch = NAN;
    CHECK(bench_proto_format(&m, line, sizeof line) == 0);
    m.kind = AGAINST_EPOCH;
    m.number = 0;
    CHECK(bench_proto_format(&m, line, sizeof line) == 0);
    m.number = 5;
    CHECK(bench_proto_format(&m, line, 4) == 0);   /* does not fit */
}

/* Random lines over the protocol's alphabet: whatever parses formats back to the same bytes,
 * or the line had a spelling the formatter normalises (a batch's digits). */
static void test_random(void)
{
    static const char alphabet[] = "0123456789 .e+-abcdeimnoprstuyqx_";
    static const char *const words[] = {"name ", "time ", "epoch ", "ready ", "run ", "end"};
    char line[64], buf[AGAINST_MAX_LINE + 1];
    against_msg m;
    int i;
    for (i = 0; i < 20000; i++) {
        const char *w = words[check_rng_below(6)];
        size_t len = strlen(w), extra = (size_t)check_rng_below(12), k;
        memcpy(line, w, len);
        for (k = 0; k < extra; k++)
            line[len++] = alphabet[check_rng_below(sizeof alphabet - 1)];
        line[len] = '\0';
        if (bench_proto_parse(line, len, &m) != 0)
            continue;
        if (!CHECKF(bench_proto_format(&m, buf, sizeof buf) > 0, "'%s' parsed, does not format",
                    line))
            continue;
        if (m.kind != AGAINST_READY)
            CHECKF(strncmp(buf, line, len) == 0 && buf[len] == '\n', "'%s' came back as '%s'",
                   line, buf);
    }
}

int main(void)
{
    check_rng_init("test_against_proto");
    test_kinds();
    test_refused();
    test_random();
    return check_finish();
}
