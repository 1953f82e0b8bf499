/* The one allocation wrapper every allocating module goes through.
 *
 * It behaves as malloc/realloc/free, with one addition for tests: an allocator
 * can be told to fail, so a test can prove that every allocating function
 * returns -1 and leaves its object as it was. The allocation functions may be
 * called from several threads at once (the harness's users run one bench per
 * thread); the fail switch is a test-only global, to be set only while a
 * single thread allocates. */
#ifndef UTIL_ALLOC_H
#define UTIL_ALLOC_H

#include <stddef.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The state behind the inline functions below; not for callers. bb_alloc_fail_after_
 * is the test hook's switch (negative: never fail), bb_alloc_succeeded_ the count. */
extern long bb_alloc_fail_after_;
extern unsigned long bb_alloc_succeeded_;
void *bb_malloc_hooked_(size_t n);
void *bb_realloc_hooked_(void *p, size_t n);

/* One more success. A relaxed atomic load and store, not an atomic increment:
 * the locked read-modify-write that an increment compiles to on x86 (`lock
 * add`) took 40% of PrevectorDestructor's time (perf, cpu-clock samples), the
 * plain load and store are two ordinary moves. Atomic accesses keep
 * concurrent calls free of data races; when several threads allocate at once
 * an increment can be lost, which only makes the test-only count inexact (see
 * bb_alloc_count). */
static inline void bb_alloc_count_success_(void)
{
    __atomic_store_n(&bb_alloc_succeeded_,
                     __atomic_load_n(&bb_alloc_succeeded_, __ATOMIC_RELAXED) + 1,
                     __ATOMIC_RELAXED);
}

/* malloc(n); NULL when out of memory (or when made to fail). n == 0 is
 * treated as 1 so that NULL always means failure. Inline, as are bb_realloc
 * and bb_free: a prevector's growth is one malloc, and a call into this
 * wrapper on top of it cost PrevectorDestructor 7% of its time. */
static inline void *bb_malloc(size_t n)
{
    void *p;
    if (bb_alloc_fail_after_ >= 0)
        return bb_malloc_hooked_(n);
    p = malloc(n ? n : 1);
    if (p)
        bb_alloc_count_success_();
    return p;
}

/* realloc(p, n); NULL when out of memory, and then p is untouched. */
static inline void *bb_realloc(void *p, size_t n)
{
    void *q;
    if (bb_alloc_fail_after_ >= 0)
        return bb_realloc_hooked_(p, n);
    q = realloc(p, n ? n : 1);
    if (q)
        bb_alloc_count_success_();
    return q;
}

/* An array of count elements of size bytes each, uninitialised; NULL when
 * count * size overflows size_t or memory runs out. */
void *bb_malloc_array(size_t count, size_t size);

/* free(p); p may be NULL. */
static inline void bb_free(void *p)
{
    free(p);
}

/* Test hook: the next n allocations succeed, and every one after them fails,
 * until bb_alloc_fail_after(-1) switches failure off again (the default). */
void bb_alloc_fail_after(long n);

/* Number of allocations (bb_malloc/bb_realloc/bb_malloc_array calls)
 * that have succeeded since the process started; lets tests check that a
 * steady-state loop allocates nothing. Exact while one thread allocates at a
 * time; allocations made concurrently by several threads may be counted
 * short (the count is kept with relaxed atomic loads and stores, not a locked
 * increment, which would cost every allocation far more than the count is
 * worth). */
unsigned long bb_alloc_count(void);

#ifdef __cplusplus
}
#endif

#endif
