#include "util/alloc.h"

#include <stdint.h>
#include <stdlib.h>

static long fail_after = -1; /* < 0: never fail */
static unsigned long succeeded;

/* One more success. A relaxed atomic load and store, not an atomic increment:
 * the locked read-modify-write that an increment compiles to on x86 (`lock
 * add`) took 40% of PrevectorDestructor's time (perf, cpu-clock samples), the
 * plain load and store are the two ordinary moves. Atomic accesses keep
 * concurrent calls free of data races; when several threads allocate at once
 * an increment can be lost, which only makes the test-only count inexact (see
 * bb_alloc_count). */
static void count_success(void)
{
    __atomic_store_n(&succeeded, __atomic_load_n(&succeeded, __ATOMIC_RELAXED) + 1,
                     __ATOMIC_RELAXED);
}

/* One branch on the fast path; the hook is for tests only. */
static int may_allocate(void)
{
    if (fail_after < 0)
        return 1;
    if (fail_after == 0)
        return 0;
    fail_after--;
    return 1;
}

void *bb_malloc(size_t n)
{
    void *p;
    if (!may_allocate())
        return NULL;
    p = malloc(n ? n : 1);
    if (p)
        count_success();
    return p;
}

void *bb_realloc(void *p, size_t n)
{
    void *q;
    if (!may_allocate())
        return NULL;
    q = realloc(p, n ? n : 1);
    if (q)
        count_success();
    return q;
}

void *bb_malloc_array(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    return bb_malloc(count * size);
}

void bb_free(void *p)
{
    free(p);
}

void bb_alloc_fail_after(long n)
{
    fail_after = n;
}

unsigned long bb_alloc_count(void)
{
    return __atomic_load_n(&succeeded, __ATOMIC_RELAXED);
}
