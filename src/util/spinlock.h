/* A spin lock for the few process-wide tables that threads may touch at once
 * (the harness's stream table, the crypto dispatch state, CPUID detection).
 * Header-only, on GCC/clang atomic builtins, so no pthread dependency; meant
 * for sections that hold it briefly. A lock is a zero-initialised char. */
#ifndef UTIL_SPINLOCK_H
#define UTIL_SPINLOCK_H

static inline void bb_spin_lock(char *lock)
{
    while (__atomic_test_and_set(lock, __ATOMIC_ACQUIRE))
        ;
}

static inline void bb_spin_unlock(char *lock)
{
    __atomic_clear(lock, __ATOMIC_RELEASE);
}

#endif
