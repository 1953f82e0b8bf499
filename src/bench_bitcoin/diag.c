/* bench_bitcoin's error line and exit statuses (diag.h). The C library only: a long message
 * is formatted with malloc itself, not the project's allocation wrapper, and a message that
 * finds no memory is printed cut short rather than lost. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "bench_bitcoin"

static char *capture_buf;
static size_t capture_size;

void bench_error_capture(char *buf, size_t size)
{
    capture_buf = size > 0 ? buf : NULL;
    capture_size = size;
    if (capture_buf)
        capture_buf[0] = '\0';
}

/* Appends s to the captured line, or writes it on stderr. */
static void error_put(const char *s)
{
    if (capture_buf) {
        size_t used = strlen(capture_buf), len = strlen(s);
        if (len > capture_size - 1 - used)
            len = capture_size - 1 - used;
        memcpy(capture_buf + used, s, len);
        capture_buf[used + len] = '\0';
    } else {
        fputs(s, stderr);
    }
}

size_t bench_escape_byte(unsigned char c, char out[8])
{
    if (c == '\n' || c == '\t' || c == '\r') {
        out[0] = '\\';
        out[1] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
        out[2] = '\0';
        return 2;
    }
    if (c < 0x20 || c == 0x7f)
        return (size_t)snprintf(out, 8, "\\x%02x", c);
    out[0] = (char)c;
    out[1] = '\0';
    return 1;
}

void bench_error(const char *fmt, ...)
{
    char small[512], *msg = small;
    const unsigned char *p;
    va_list ap;
    int len;

    va_start(ap, fmt);
    len = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (len >= (int)sizeof small && (msg = malloc((size_t)len + 1)) != NULL) {
        va_start(ap, fmt);
        vsnprintf(msg, (size_t)len + 1, fmt, ap);
        va_end(ap);
    }
    if (!msg)
        msg = small;   /* out of memory: the message cut short */
    error_put(PROG ": ");
    for (p = (const unsigned char *)msg; len > 0 && *p; p++) {
        char one[8];
        bench_escape_byte(*p, one);
        error_put(one);
    }
    if (!capture_buf)
        fputc('\n', stderr);
    if (msg != small)
        free(msg);
}

void bench_out_of_memory(const char *name)
{
    bench_error("%s: out of memory", name);
    exit(BENCH_EXIT_ERROR);
}
