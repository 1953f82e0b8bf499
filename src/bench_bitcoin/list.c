/* bench_bitcoin -list: the selected rows' names, one a line (with -compare, its rows'). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench_bitcoin/modes.h"

#include <stdio.h>

int bench_mode_list(const bench_job *j)
{
    size_t i;
    if (j->o->compare)
        return bench_compare_list(j);
    for (i = 0; i < j->count; i++)
        puts(j->sel[i]->name);
    return BENCH_EXIT_OK;
}
