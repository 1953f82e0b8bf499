#include "check.h"
#include "util/rng.h"

#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static unsigned long checks_run;
static unsigned long checks_failed;
static const char *program_name = "test";
static char untested[1024];   /* the parts check_untested named, ", "-separated */
static bb_rng rng;   /* seeded by check_rng_init */

int check_report(int ok, const char *file, int line, const char *expr)
{
    checks_run++;
    if (!ok) {
        checks_failed++;
        fprintf(stderr, "%s:%d: check failed: %s\n", file, line, expr);
    }
    return ok;
}

int check_reportf(int ok, const char *file, int line, const char *fmt, ...)
{
    checks_run++;
    if (!ok) {
        va_list ap;
        checks_failed++;
        fprintf(stderr, "%s:%d: check failed: ", file, line);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
    }
    return ok;
}

unsigned long check_failures(void)
{
    return checks_failed;
}

void check_untested(const char *part)
{
    size_t len = strlen(untested);
    printf("NOT TESTED: %s\n", part);
    snprintf(untested + len, sizeof untested - len, "%s%s", len ? ", " : "", part);
}

int check_finish(void)
{
    printf("%s: %lu checks, %lu failed\n", program_name, checks_run, checks_failed);
    if (checks_failed)
        return 1;
    if (untested[0]) {
        printf("SKIP: %snot tested here: %s\n", checks_run ? "everything else passed; " : "",
               untested);
        return CHECK_SKIP;
    }
    return 0;
}

uint64_t check_rng_init(const char *program)
{
    uint64_t seed;
    const char *env = getenv("TEST_SEED");

    if (program) {
        const char *slash = strrchr(program, '/');
        program_name = slash ? slash + 1 : program;
    }
    if (env && *env) {
        char *end;
        seed = strtoull(env, &end, 0);
        if (*end) {
            fprintf(stderr, "%s: TEST_SEED=%s is not a number\n", program_name, env);
            exit(99); /* hard error for automake's harness */
        }
    } else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec;
    }
    printf("%s: seed %llu (replay with TEST_SEED=%llu)\n", program_name,
           (unsigned long long)seed, (unsigned long long)seed);
    bb_rng_seed(&rng, seed);
    return seed;
}

uint64_t check_rng_u64(void)
{
    return bb_rng_next(&rng);
}

uint64_t check_rng_below(uint64_t bound)
{
    return bb_rng_below(&rng, bound);
}

void check_rng_fill(void *buf, size_t len)
{
    unsigned char *p = buf;
    while (len) {
        uint64_t v = check_rng_u64();
        size_t n = len < 8 ? len : 8;
        memcpy(p, &v, n);
        p += n;
        len -= n;
    }
}

void check_hex(char *out, const unsigned char *in, size_t len)
{
    static const char digits[] = "0123456789abcdef";
    size_t i;
    for (i = 0; i < len; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * len] = '\0';
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

size_t check_unhex(unsigned char *out, size_t cap, const char *hex)
{
    size_t n = strlen(hex), i;
    if (n % 2 || n / 2 > cap)
        return (size_t)-1;
    for (i = 0; i < n / 2; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return (size_t)-1;
        out[i] = (unsigned char)(hi << 4 | lo);
    }
    return n / 2;
}

char *check_slurp(FILE *f)
{
    long len;
    char *s;
    fflush(f);
    len = ftell(f);
    if (len < 0)
        return NULL;
    s = malloc((size_t)len + 1);
    if (!s)
        return NULL;
    rewind(f);
    if (fread(s, 1, (size_t)len, f) != (size_t)len) {
        free(s);
        return NULL;
    }
    s[len] = '\0';
    return s;
}

const char *check_comma_locale(void)
{
    static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8",
                                        "fr_FR.utf8", "nl_NL.UTF-8", "es_ES.UTF-8",
                                        "it_IT.UTF-8", "ru_RU.UTF-8", "de_DE", "fr_FR"};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; ++i) {
        if (setlocale(LC_NUMERIC, names[i]) && strcmp(localeconv()->decimal_point, ".") != 0)
            return names[i];
    }
    setlocale(LC_NUMERIC, "C");
    return NULL;
}

void check_c_locale(void)
{
    setlocale(LC_NUMERIC, "C");
}
