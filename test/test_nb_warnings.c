/* The stability warnings and their recommendations. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_test_hooks.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

/* Lines of s that start with "* " (a warning or a recommendation). */
static size_t bullets(const char *s)
{
    size_t n = 0;
    const char *p = s;
    while (*p) {
        n += p[0] == '*' && p[1] == ' ';
        p = strchr(p, '\n');
        if (!p)
            break;
        ++p;
    }
    return n;
}

/* A debug build of the caller is one more warning, with one more
 * recommendation, than an optimized one; the count returned is the lines
 * written, each "* " prefixed. The wording is not checked: it is prose. */
static void test_warnings(void)
{
    char buf[4096], rec[1024], buf1[4096], rec1[1024];
    size_t n = nb_warnings_gather(buf, sizeof(buf), rec, sizeof(rec), 0);
    size_t n1 = nb_warnings_gather(buf1, sizeof(buf1), rec1, sizeof(rec1), 1);
    CHECK(n >= 1 && n == n1 + 1);
    CHECK(bullets(buf) == n && bullets(buf1) == n1);
    CHECK(bullets(rec) >= 1 && bullets(rec) >= bullets(rec1));
    CHECK(strlen(buf) > strlen(buf1));
    setenv("NANOBENCH_SUPPRESS_WARNINGS", "1", 1);
    CHECK(nb_warnings_suppressed());
    setenv("NANOBENCH_SUPPRESS_WARNINGS", "0", 1);
    CHECK(!nb_warnings_suppressed());
    unsetenv("NANOBENCH_SUPPRESS_WARNINGS");
    CHECK(!nb_warnings_suppressed());
}

int main(int argc, char **argv)
{
    (void)argc;
    check_rng_init(argv[0]);
    test_warnings();
    return check_finish();
}
