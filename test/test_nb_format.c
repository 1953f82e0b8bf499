/* Number formatting: nanobench's grouped fixed point and the C decimal point. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_test_hooks.h"
#include "check.h"
#include "nb_fake.h"
#include "util/alloc.h"

#include <math.h>
#include <string.h>

/* ---- formatting ---- */

static void test_decimal_point(void)
{
    static const char *const cases[][2] = {
        {"1,5", "1.5"},       {"  -12,25", "  -12.25"}, {" 45,0%", " 45.0%"},
        {"1,5e-07", "1.5e-07"}, {"1\xd9\xab" "5", "1.5"}, {"1e-07", "1e-07"},
        {"12", "12"},         {"nan", "nan"},           {"-inf", "-inf"},
        {"1.5", "1.5"},       {"", ""},                 {"12%", "12%"},
        {" 7 ", " 7 "},
    };
    char buf[32];
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        strcpy(buf, cases[i][0]);
        nb_c_decimal_point(buf);
        CHECKF(strcmp(buf, cases[i][1]) == 0, "'%s' became '%s'", cases[i][0], buf);
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    check_rng_init(argv[0]);
    check_format_cases();
    test_decimal_point();
    return check_finish();
}
