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

#ifdef __cplusplus
extern "C" {
#endif

/* malloc(n); NULL when out of memory (or when made to fail). n == 0 is
 * treated as 1 so that NULL always means failure. */
void *bb_malloc(size_t n);

/* realloc(p, n); NULL when out of memory, and then p is untouched. */
void *bb_realloc(void *p, size_t n);

/* An array of count elements of size bytes each, uninitialised; NULL when
 * count * size overflows size_t or memory runs out. */
void *bb_malloc_array(size_t count, size_t size);

/* free(p); p may be NULL. */
void bb_free(void *p);

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
