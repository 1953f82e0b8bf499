/* The -against protocol's messages (against_proto.h): parsing and formatting one line. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/against_proto.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The word of each kind, indexed by against_kind; hello's is the magic. */
static const char *const words[] = {
    AGAINST_MAGIC, "name", "names-end", "ready", "time", "done", "error", "run", "epoch",
    "end", "quit",
};

/* What follows the word. */
enum { ARG_NONE, ARG_NUMBER, ARG_NAME, ARG_TEXT, ARG_BATCH_UNIT };

static const unsigned char args[] = {
    ARG_NUMBER, ARG_NAME, ARG_NONE, ARG_BATCH_UNIT, ARG_NUMBER, ARG_NONE, ARG_TEXT, ARG_NAME,
    ARG_NUMBER, ARG_NONE, ARG_NONE,
};

#define KIND_COUNT (sizeof words / sizeof words[0])

static int printable(const char *s, size_t len, int space_ok)
{
    size_t i;
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c > 0x7e || (c == ' ' && !space_ok))
            return 0;
    }
    return 1;
}

/* Plain decimal digits, no leading zero (but "0"), at most 2^64 - 1. */
static int parse_u64(const char *s, size_t len, uint64_t *v)
{
    uint64_t x = 0;
    size_t i;
    if (len == 0 || (len > 1 && s[0] == '0'))
        return -1;
    for (i = 0; i < len; i++) {
        unsigned d;
        if (s[i] < '0' || s[i] > '9')
            return -1;
        d = (unsigned)(s[i] - '0');
        if (x > (UINT64_MAX - d) / 10)
            return -1;
        x = x * 10 + d;
    }
    *v = x;
    return 0;
}

/* A positive finite decimal as printf's %.17g writes it: digits, '.', an exponent. */
static int parse_batch(const char *s, size_t len, double *v)
{
    char tmp[64];
    char *end;
    size_t i;
    if (len == 0 || len >= sizeof tmp || !(s[0] >= '0' && s[0] <= '9'))
        return -1;
    for (i = 0; i < len; i++)
        if (!strchr("0123456789.eE+-", s[i]))
            return -1;
    memcpy(tmp, s, len);
    tmp[len] = '\0';
    *v = strtod(tmp, &end);
    if (end != tmp + len || !isfinite(*v) || !(*v > 0))
        return -1;
    return 0;
}

int bench_proto_parse(const char *line, size_t len, against_msg *msg)
{
    const char *rest = NULL;
    size_t k, wlen, rlen = 0;
    if (!line || !msg || len >= AGAINST_MAX_LINE || !printable(line, len, 1))
        return -1;
    for (wlen = 0; wlen < len && line[wlen] != ' '; wlen++)
        ;
    if (wlen < len) {
        rest = line + wlen + 1;
        rlen = len - wlen - 1;
    }
    for (k = 0; k < KIND_COUNT; k++)
        if (strlen(words[k]) == wlen && memcmp(words[k], line, wlen) == 0)
            break;
    if (k == KIND_COUNT)
        return -1;
    memset(msg, 0, sizeof *msg);
    msg->kind = (against_kind)k;
    switch (args[k]) {
    case ARG_NONE:
        return rest ? -1 : 0;
    case ARG_NUMBER:
        if (!rest || parse_u64(rest, rlen, &msg->number) != 0)
            return -1;
        return msg->kind == AGAINST_EPOCH && msg->number == 0 ? -1 : 0;
    case ARG_NAME:
        if (!rest || rlen == 0 || !printable(rest, rlen, 0))
            return -1;
        break;
    case ARG_TEXT:
        if (!rest)
            return -1;
        break;
    default: { /* ARG_BATCH_UNIT */
        const char *sp = rest ? memchr(rest, ' ', rlen) : NULL;
        size_t blen;
        if (!sp)
            return -1;
        blen = (size_t)(sp - rest);
        if (parse_batch(rest, blen, &msg->batch) != 0)
            return -1;
        rlen -= blen + 1;
        rest = sp + 1;
        if (rlen == 0)
            return -1;
        break;
    }
    }
    memcpy(msg->text, rest, rlen);
    msg->text[rlen] = '\0';
    return 0;
}

size_t bench_proto_format(const against_msg *msg, char *buf, size_t cap)
{
    size_t tlen;
    int n;
    if (!msg || !buf || (unsigned)msg->kind >= KIND_COUNT)
        return 0;
    tlen = strnlen(msg->text, sizeof msg->text);
    if (tlen == sizeof msg->text)
        return 0;
    switch (args[msg->kind]) {
    case ARG_NONE:
        n = snprintf(buf, cap, "%s\n", words[msg->kind]);
        break;
    case ARG_NUMBER:
        if (msg->kind == AGAINST_EPOCH && msg->number == 0)
            return 0;
        n = snprintf(buf, cap, "%s %llu\n", words[msg->kind],
                     (unsigned long long)msg->number);
        break;
    case ARG_NAME:
    case ARG_TEXT:
        if (!printable(msg->text, tlen, args[msg->kind] == ARG_TEXT)
            || (args[msg->kind] == ARG_NAME && tlen == 0))
            return 0;
        n = snprintf(buf, cap, "%s %s\n", words[msg->kind], msg->text);
        break;
    default: /* ARG_BATCH_UNIT */
        if (!isfinite(msg->batch) || !(msg->batch > 0) || tlen == 0
            || !printable(msg->text, tlen, 1))
            return 0;
        n = snprintf(buf, cap, "%s %.17g %s\n", words[msg->kind], msg->batch, msg->text);
        break;
    }
    if (n < 0 || (size_t)n >= cap || (size_t)n > AGAINST_MAX_LINE)
        return 0;
    return (size_t)n;
}
