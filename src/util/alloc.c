#include "util/alloc.h"

#include <stdint.h>
#include <stdlib.h>

long bb_alloc_fail_after_ = -1; /* < 0: never fail */
unsigned long bb_alloc_succeeded_;

/* The test hook is on (bb_alloc_fail_after_ >= 0): 1 when this allocation
 * may go ahead, counting it down. */
static int may_allocate(void)
{
    if (bb_alloc_fail_after_ == 0)
        return 0;
    bb_alloc_fail_after_--;
    return 1;
}

void *bb_malloc_hooked_(size_t n)
{
    void *p;
    if (!may_allocate())
        return NULL;
    p = malloc(n ? n : 1);
    if (p)
        bb_alloc_count_success_();
    return p;
}

void *bb_realloc_hooked_(void *p, size_t n)
{
    void *q;
    if (!may_allocate())
        return NULL;
    q = realloc(p, n ? n : 1);
    if (q)
        bb_alloc_count_success_();
    return q;
}

void *bb_malloc_array(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    return bb_malloc(count * size);
}

void bb_alloc_fail_after(long n)
{
    bb_alloc_fail_after_ = n;
}

unsigned long bb_alloc_count(void)
{
    return __atomic_load_n(&bb_alloc_succeeded_, __ATOMIC_RELAXED);
}
