/* Fuzz target: the -against protocol (src/bench_bitcoin/against_proto.h), the lines a child
 * process, which may be any program, sends to bench_bitcoin; and the lines it formats.
 *
 * Input: the first byte chooses what to run: lines (the rest, split at '\n') through
 * bench_proto_parse, or a message built from the rest through bench_proto_format.
 *
 * Checks: a parsed line is a message within its bounds that formats back to a line that
 * parses to the same message; a formatted message is one line of printable ASCII ending in
 * '\n', within the buffer and AGAINST_MAX_LINE, that parses back to the message; every field
 * stays inside its bounds. */
#include "fuzz.h"

#include "bench_bitcoin/against_proto.h"

#include <math.h>
#include <string.h>

/* The fields a's kind carries agree (a message of another kind ignores the rest). */
static int same_msg(const against_msg *a, const against_msg *b)
{
    if (a->kind != b->kind)
        return 0;
    switch (a->kind) {
    case AGAINST_HELLO:
    case AGAINST_TIME:
    case AGAINST_EPOCH:
        return a->number == b->number;
    case AGAINST_READY:
        return a->batch == b->batch && strcmp(a->text, b->text) == 0;
    case AGAINST_NAME:
    case AGAINST_RUN:
    case AGAINST_ERROR:
        return strcmp(a->text, b->text) == 0;
    default:
        return 1;
    }
}

/* A formatted line: printable, one '\n' at the end, NUL after it; it parses back to m. */
static void check_line(const against_msg *m, const char *buf, size_t n, size_t cap)
{
    against_msg back;
    size_t i;
    FUZZ_CHECK(n < cap && n <= AGAINST_MAX_LINE && buf[n] == '\0' && buf[n - 1] == '\n');
    for (i = 0; i + 1 < n; i++)
        FUZZ_CHECK(buf[i] >= 0x20 && buf[i] < 0x7f);
    FUZZ_CHECK(bench_proto_parse(buf, n - 1, &back) == 0);
    FUZZ_CHECK(same_msg(m, &back));
}

static void parse_lines(const uint8_t *p, size_t size)
{
    char buf[AGAINST_MAX_LINE + 8];
    while (size > 0) {
        const uint8_t *nl = memchr(p, '\n', size);
        size_t len = nl ? (size_t)(nl - p) : size, n;
        against_msg m;
        if (bench_proto_parse((const char *)p, len, &m) == 0) {
            FUZZ_CHECK(len < AGAINST_MAX_LINE && strlen(m.text) < AGAINST_MAX_LINE);
            FUZZ_CHECK(m.kind <= AGAINST_QUIT);
            FUZZ_CHECK(m.kind != AGAINST_READY || (m.batch > 0 && isfinite(m.batch)));
            FUZZ_CHECK(m.kind != AGAINST_EPOCH || m.number >= 1);
            n = bench_proto_format(&m, buf, sizeof buf);
            FUZZ_CHECK(n > 0);
            check_line(&m, buf, n, sizeof buf);
        }
        if (!nl)
            break;
        size -= len + 1;
        p += len + 1;
    }
}

static void format_message(fuzz_input *in)
{
    char buf[AGAINST_MAX_LINE + 8];
    size_t cap = (size_t)fuzz_below(in, sizeof buf) + 1, len, n;
    const uint8_t *text;
    against_msg m;
    memset(&m, 0, sizeof m);
    m.kind = (against_kind)fuzz_below(in, AGAINST_QUIT + 1);
    m.number = fuzz_u64(in);
    fuzz_fill(in, &m.batch, sizeof m.batch);
    text = fuzz_bytes(in, sizeof m.text - 1, &len);
    memcpy(m.text, text, len);
    m.text[len] = '\0';
    n = bench_proto_format(&m, buf, cap);
    if (n > 0)
        check_line(&m, buf, n, cap);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in;
    fuzz_init(&in, data, size);
    if (fuzz_bool(&in)) {
        format_message(&in);
    } else {
        size_t len;
        const uint8_t *rest = fuzz_bytes(&in, in.left, &len);
        parse_lines(rest, len);
    }
    return 0;
}
