/* Numbers as the tables print them: nanobench's thousands-grouped fixed
 * point, and a decimal point that is '.' whatever locale the program set. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nb_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void nb_c_decimal_point(char *s)
{
    char *p = s, *q;
    while (*p && !(*p >= '0' && *p <= '9'))
        ++p; /* the first digit; none in "inf" and "nan" */
    while (*p >= '0' && *p <= '9')
        ++p;
    if (!*p || *p == 'e' || *p == 'E')
        return; /* no decimal point */
    for (q = p; *q && !(*q >= '0' && *q <= '9'); ++q)
        ;
    if (!*q)
        return; /* no digits follow: text after a whole number ("12%") */
    *p = '.';
    memmove(p + 1, q, strlen(q) + 1);
}

size_t nb_format_number(char *buf, size_t cap, int width, int precision, double v)
{
    char digits[400], grouped[560];
    size_t len, pos = 0, intlen, i, gl;
    const char *p = digits;
    if (cap == 0)
        return 0;
    if (!isfinite(v)) {
        strcpy(digits, "-");
        len = 1;
        memcpy(grouped, digits, 2);
        gl = 1;
    } else {
        snprintf(digits, sizeof(digits), "%.*f", precision < 0 ? 0 : precision, v);
        nb_c_decimal_point(digits);
        if (*p == '-')
            grouped[pos++] = *p++;
        intlen = strspn(p, "0123456789");
        for (i = 0; i < intlen; ++i) {
            if (i > 0 && (intlen - i) % 3 == 0)
                grouped[pos++] = ',';
            grouped[pos++] = p[i];
        }
        len = strlen(p + intlen);
        memcpy(grouped + pos, p + intlen, len + 1);
        gl = pos + len;
    }
    pos = 0;
    while ((int)(gl + pos) < width && pos + 1 < cap)
        buf[pos++] = ' ';
    for (i = 0; i < gl && pos + 1 < cap; ++i)
        buf[pos++] = grouped[i];
    buf[pos] = '\0';
    return pos;
}
