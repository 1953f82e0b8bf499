/* The tables under a locale whose decimal point is a comma: the output reads the same.
 * Skipped (exit 77) where no such locale is installed. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_test_hooks.h"
#include "check.h"
#include "nb_fake.h"

#include <stdio.h>

/* The table reads the same whatever LC_NUMERIC the calling program set. */
static int test_comma_locale(void)
{
    const char *name = check_comma_locale();
    if (!name) {
        printf("SKIP: no locale with a decimal comma is installed (the formats are checked "
               "in \"C\" only)\n");
        return 0;
    }
    printf("LC_NUMERIC=%s:\n", name);
    check_format_cases();
    check_golden_seed();
    check_c_locale();
    return 1;
}

int main(int argc, char **argv)
{
    (void)argc;
    check_rng_init(argv[0]);
    if (!test_comma_locale())
        return CHECK_SKIP;
    return check_finish();
}
