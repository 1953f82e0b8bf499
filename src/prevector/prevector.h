/* prevector: a vector that keeps up to N elements inside the object and moves
 * them to the heap past that, after Bitcoin Core's prevector<N, T>.
 *
 *     PREVECTOR_DEFINE(NAME, T, N)             new elements are zero bytes
 *     PREVECTOR_DEFINE_INIT(NAME, T, N, INIT)  new elements are made by INIT(T *elem)
 *
 * Either macro, at file scope, defines `typedef struct NAME NAME;` and the
 * functions NAME_init, NAME_destroy, ... documented below, all `static inline`,
 * so the same definition may be expanded in any number of translation units.
 * T is a type name (use a typedef for arrays or function pointers) whose values
 * may be moved and copied with memcpy: the vector never runs per-element code
 * except INIT on elements it creates. N is a constant from 1 to 0x7fffffff.
 * (With an array T, C99's -Wpedantic wants a cast where a T * is passed as a
 * const T *: push_back(&v, (const T *)p).)
 *
 * Layout (for a 28-byte T[N], as Bitcoin's scripts: 32 bytes, as in Core):
 *
 *     union {                         offset 0, max(N * sizeof(T), 12) bytes
 *         T direct[N];                  the elements while inline
 *         struct {
 *             unsigned char ptr[sizeof(T *)];   the heap block, as bytes
 *             uint32_t capacity;                elements it holds
 *         } heap;
 *     } u;
 *     uint32_t sz;                    bit 31 set: on the heap; bits 0-30: size
 *
 * The heap pointer is kept as bytes (read and written with memcpy, which
 * compiles to one move) so that the heap half of the union needs only 4-byte
 * alignment: a real pointer member would pad the union to a multiple of 8 and
 * push the size field past 32 bytes. Inline, the capacity is N and the heap
 * fields do not exist; the flag bit alone tells the two states apart, so
 * is_direct and size are one mask each. Sizes and capacities are therefore at
 * most 0x7fffffff elements (and at most SIZE_MAX / sizeof(T)); larger requests
 * are refused with -1.
 *
 * Growth, as Core's: resize, reserve, assign and copy grow the capacity to
 * exactly what is asked; push_back and insert, when the new size s exceeds
 * the capacity, grow it to s + s / 2. Nothing shrinks the capacity except
 * shrink_to_fit (and destroy): clear, erase, pop_back and resizing down keep
 * the storage, so a vector reused at the same sizes stops allocating.
 * shrink_to_fit moves the elements back inline when they fit in N.
 *
 * Errors: every function that returns int returns 0 on success and -1 when
 * memory runs out (allocation goes through bb_malloc/bb_realloc), when a
 * size would exceed the limits above, or on an out-of-range position; on -1 the
 * vector is exactly as it was. Element pointers (NAME_data) are invalidated by
 * any call that changes the capacity or the inline/heap state.
 */
#ifndef PREVECTOR_PREVECTOR_H
#define PREVECTOR_PREVECTOR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../util/alloc.h" /* relative: needs no -I for src/ */

/* Bit of the size field that says the elements are on the heap. */
#define PREVECTOR_HEAP_FLAG 0x80000000u
/* Most elements any prevector holds (the size field's other 31 bits). */
#define PREVECTOR_MAX_COUNT 0x7fffffffu

#if defined(__GNUC__)
#define PREVECTOR_FN static inline __attribute__((unused))
/* Growth is rare: keeping it out of line keeps the hot paths small enough
 * to inline everywhere. */
#define PREVECTOR_SLOW_FN static __attribute__((unused, noinline))
#define PREVECTOR_LIKELY(x) __builtin_expect(!!(x), 1)
/* INIT loops: GCC turns a loop storing one constant into memset and, when it
 * can bound the length (at most N elements inline), expands that memset as
 * `rep stos`, whose start-up costs more than the 28 stores (measured: 13 ns
 * against 7 ns per Clear on the benchmark shape). An empty asm naming the
 * pointer hides the idiom and leaves four plain (vectorisable) stores per
 * step. A length known at compile time is left to the compiler's memset. */
#define PREVECTOR_OPAQUE_(p) __asm__("" : : "r"(p))
#define PREVECTOR_CONSTANT_(n) __builtin_constant_p(n)
#else
#define PREVECTOR_FN static inline
#define PREVECTOR_SLOW_FN static
#define PREVECTOR_LIKELY(x) (x)
#define PREVECTOR_OPAQUE_(p) ((void)0)
#define PREVECTOR_CONSTANT_(n) 0
#endif

/* Is p inside [base, base + n)? Through uintptr_t: comparing pointers into
 * different objects with < is undefined in C. */
#define PREVECTOR_POINTS_INTO(p, base, n)                                       \
    ((uintptr_t)(const void *)(p) >= (uintptr_t)(const void *)(base) &&         \
     (uintptr_t)(const void *)(p) < (uintptr_t)(const void *)((base) + (n)))

/* New elements are zero bytes: one memset, no per-element work. */
#define PREVECTOR_DEFINE(NAME, T, N)                                            \
    PREVECTOR_DEFINE_TYPE_(NAME, T, N)                                          \
    PREVECTOR_FN void NAME##_fill_new_(T *p, size_t n)                          \
    {                                                                           \
        if (n)                                                                  \
            memset(p, 0, n * sizeof(T));                                        \
    }                                                                           \
    PREVECTOR_DEFINE_FUNCS_(NAME, T, N)

/* New elements are made by INIT(T *elem) (a function or a macro), one call per
 * element; nothing else runs per element (moves are memcpy). */
#define PREVECTOR_DEFINE_INIT(NAME, T, N, INIT)                                 \
    PREVECTOR_DEFINE_TYPE_(NAME, T, N)                                          \
    PREVECTOR_FN void NAME##_fill_new_(T *p, size_t n)                          \
    {                                                                           \
        T *end = p + n;                                                         \
        if (!PREVECTOR_CONSTANT_(n)) {                                          \
            /* Four at a time; see PREVECTOR_OPAQUE_. */                        \
            T *end4 = p + (n & ~(size_t)3);                                     \
            for (; p != end4; p += 4) {                                         \
                INIT(&p[0]);                                                    \
                INIT(&p[1]);                                                    \
                INIT(&p[2]);                                                    \
                INIT(&p[3]);                                                    \
                PREVECTOR_OPAQUE_(p);                                           \
            }                                                                   \
        }                                                                       \
        for (; p != end; p++)                                                   \
            INIT(p);                                                            \
    }                                                                           \
    PREVECTOR_DEFINE_FUNCS_(NAME, T, N)

/* Private: the struct (fields are private; use the functions). */
#define PREVECTOR_DEFINE_TYPE_(NAME, T, N)                                      \
    typedef char NAME##_n_is_in_range_[(N) >= 1 &&                              \
                                       (N) <= PREVECTOR_MAX_COUNT ? 1 : -1];    \
    typedef struct NAME {                                                       \
        union {                                                                 \
            T direct[N];                                                        \
            struct {                                                            \
                unsigned char ptr[sizeof(T *)];                                 \
                uint32_t capacity;                                              \
            } heap;                                                             \
        } u;                                                                    \
        uint32_t sz;                                                            \
    } NAME;

/* Private: the functions. Names ending in an underscore are internal. */
#define PREVECTOR_DEFINE_FUNCS_(NAME, T, N)                                     \
                                                                                \
    PREVECTOR_FN T *NAME##_heap_(const NAME *v)                                 \
    {                                                                           \
        T *p;                                                                   \
        memcpy(&p, v->u.heap.ptr, sizeof p);                                    \
        return p;                                                               \
    }                                                                           \
                                                                                \
    PREVECTOR_FN void NAME##_set_heap_(NAME *v, T *p, size_t cap)               \
    {                                                                           \
        memcpy(v->u.heap.ptr, &p, sizeof p);                                    \
        v->u.heap.capacity = (uint32_t)cap;                                     \
    }                                                                           \
                                                                                \
    PREVECTOR_FN void NAME##_set_size_(NAME *v, size_t n)                       \
    {                                                                           \
        v->sz = (uint32_t)n | (v->sz & PREVECTOR_HEAP_FLAG);                    \
    }                                                                           \
                                                                                \
    /* Most elements this type can hold: 0x7fffffff or SIZE_MAX / sizeof(T). */ \
    PREVECTOR_FN size_t NAME##_max_size(void)                                   \
    {                                                                           \
        return SIZE_MAX / sizeof(T) < PREVECTOR_MAX_COUNT                       \
                   ? SIZE_MAX / sizeof(T) : (size_t)PREVECTOR_MAX_COUNT;        \
    }                                                                           \
                                                                                \
    /* Empty and inline; allocates nothing. Only the size field is written:  */\
    /* the element storage stays uninitialised until elements are made.      */\
    PREVECTOR_FN void NAME##_init(NAME *v)                                      \
    {                                                                           \
        v->sz = 0;                                                              \
    }                                                                           \
                                                                                \
    /* 1 while the elements are inline (capacity N, no heap block). */          \
    PREVECTOR_FN int NAME##_is_direct(const NAME *v)                            \
    {                                                                           \
        return !(v->sz & PREVECTOR_HEAP_FLAG);                                  \
    }                                                                           \
                                                                                \
    /* Frees the heap block, if any; v is then empty and inline, usable      */ \
    /* again without another init.                                           */ \
    PREVECTOR_FN void NAME##_destroy(NAME *v)                                   \
    {                                                                           \
        if (!NAME##_is_direct(v))                                               \
            bb_free(NAME##_heap_(v));                                         \
        v->sz = 0;                                                              \
    }                                                                           \
                                                                                \
    PREVECTOR_FN size_t NAME##_size(const NAME *v)                              \
    {                                                                           \
        return v->sz & PREVECTOR_MAX_COUNT;                                     \
    }                                                                           \
                                                                                \
    /* Elements held without reallocating: N inline, else the heap block's. */  \
    PREVECTOR_FN size_t NAME##_capacity(const NAME *v)                          \
    {                                                                           \
        return NAME##_is_direct(v) ? (size_t)(N) : (size_t)v->u.heap.capacity;  \
    }                                                                           \
                                                                                \
    /* The first element (size() of them are valid). Never NULL. */             \
    PREVECTOR_FN T *NAME##_data(NAME *v)                                        \
    {                                                                           \
        return NAME##_is_direct(v) ? v->u.direct : NAME##_heap_(v);             \
    }                                                                           \
                                                                                \
    /* NAME_data for a const vector. */                                         \
    PREVECTOR_FN const T *NAME##_cdata(const NAME *v)                           \
    {                                                                           \
        /* The casts: with an array T, C99 sees const T[N] and T as             \
         * differently qualified. */                                            \
        return NAME##_is_direct(v) ? (const T *)v->u.direct                    \
                                   : (const T *)NAME##_heap_(v);                \
    }                                                                           \
                                                                                \
    /* Bytes of heap held: capacity * sizeof(T) on the heap, 0 inline. */       \
    PREVECTOR_FN size_t NAME##_allocated_memory(const NAME *v)                  \
    {                                                                           \
        return NAME##_is_direct(v) ? 0 : (size_t)v->u.heap.capacity * sizeof(T); \
    }                                                                           \
                                                                                \
    /* Moves the elements to storage for exactly cap elements (inline when    */ \
    /* cap <= N). The caller guarantees size <= cap. -1: unchanged.           */ \
    PREVECTOR_SLOW_FN int NAME##_change_capacity_(NAME *v, size_t cap)          \
    {                                                                           \
        size_t n = NAME##_size(v);                                              \
        T *p;                                                                   \
        if (cap <= (size_t)(N)) {                                               \
            if (!NAME##_is_direct(v)) {                                         \
                p = NAME##_heap_(v);                                            \
                if (n)                                                          \
                    memcpy(v->u.direct, p, n * sizeof(T));                      \
                bb_free(p);                                                   \
                v->sz = (uint32_t)n;                                            \
            }                                                                   \
            return 0;                                                           \
        }                                                                       \
        if (cap > NAME##_max_size())                                            \
            return -1;                                                          \
        if (NAME##_is_direct(v)) {                                              \
            p = (T *)bb_malloc(cap * sizeof(T));                              \
            if (!p)                                                             \
                return -1;                                                      \
            if (n)                                                              \
                memcpy(p, v->u.direct, n * sizeof(T));                          \
            v->sz = (uint32_t)n | PREVECTOR_HEAP_FLAG;                          \
        } else {                                                                \
            p = (T *)bb_realloc(NAME##_heap_(v), cap * sizeof(T));            \
            if (!p)                                                             \
                return -1;                                                      \
        }                                                                       \
        NAME##_set_heap_(v, p, cap);                                            \
        return 0;                                                               \
    }                                                                           \
                                                                                \
    /* Room for need elements, by half again (push_back and insert). */         \
    PREVECTOR_SLOW_FN int NAME##_grow_(NAME *v, size_t need)                    \
    {                                                                           \
        size_t cap = need + need / 2;                                           \
        if (need > NAME##_max_size())                                           \
            return -1;                                                          \
        if (cap > NAME##_max_size())                                            \
            cap = NAME##_max_size();                                            \
        return NAME##_change_capacity_(v, cap);                                 \
    }                                                                           \
                                                                                \
    /* Capacity at least n; grows to exactly n when it grows. */                \
    PREVECTOR_FN int NAME##_reserve(NAME *v, size_t n)                          \
    {                                                                           \
        if (n <= NAME##_capacity(v))                                            \
            return 0;                                                           \
        return NAME##_change_capacity_(v, n);                                   \
    }                                                                           \
                                                                                \
    /* Size n; elements past the old size are left uninitialised and the    */  \
    /* caller must write them before reading (deserialisers). Capacity as   */  \
    /* NAME_resize.                                                         */  \
    PREVECTOR_FN int NAME##_resize_uninit(NAME *v, size_t n)                    \
    {                                                                           \
        if (n > NAME##_capacity(v) && NAME##_change_capacity_(v, n) != 0)       \
            return -1;                                                          \
        NAME##_set_size_(v, n);                                                 \
        return 0;                                                               \
    }                                                                           \
                                                                                \
    /* Size n: shrinking drops the tail and keeps the capacity; growing past */ \
    /* the capacity makes it exactly n; new elements as the macro says.      */ \
    PREVECTOR_FN int NAME##_resize(NAME *v, size_t n)                           \
    {                                                                           \
        size_t old = NAME##_size(v);                                            \
        if (n > old) {                                                          \
            if (n > NAME##_capacity(v)) {                                       \
                if (NAME##_change_capacity_(v, n) != 0)                         \
                    return -1;                                                  \
                /* Past the capacity, which is N or more: on the heap now.  */  \
                /* Said so rather than asked again through NAME_data, whose */  \
                /* inline branch gcc 12 cannot rule out and then finds the  */  \
                /* fill overrunning (-Warray-bounds in the caller's build). */  \
                NAME##_fill_new_(NAME##_heap_(v) + old, n - old);               \
            } else {                                                            \
                NAME##_fill_new_(NAME##_data(v) + old, n - old);                \
            }                                                                   \
        }                                                                       \
        NAME##_set_size_(v, n);                                                 \
        return 0;                                                               \
    }                                                                           \
                                                                                \
    /* Size 0; keeps the capacity (and the heap block, if any). */              \
    PREVECTOR_FN void NAME##_clear(NAME *v)                                     \
    {                                                                           \
        NAME##_set_size_(v, 0);                                                 \
    }                                                                           \
                                                                                \
    /* Appends a copy of *val (which may point into v). */                      \
    PREVECTOR_FN int NAME##_push_back(NAME *v, const T *val)                    \
    {                                                                           \
        size_t n = NAME##_size(v);                                              \
        /* memcpy, not =: T may be an array type */                             \
        if (PREVECTOR_LIKELY(n < NAME##_capacity(v))) {                         \
            memcpy(NAME##_data(v) + n, val, sizeof(T));                         \
        } else {                                                                \
            T elem; /* val may point into the block about to move */            \
            memcpy(&elem, val, sizeof(T));                                      \
            if (NAME##_grow_(v, n + 1) != 0)                                    \
                return -1;                                                      \
            memcpy(NAME##_heap_(v) + n, &elem, sizeof(T)); /* see resize */     \
        }                                                                       \
        NAME##_set_size_(v, n + 1);                                             \
        return 0;                                                               \
    }                                                                           \
                                                                                \
    /* Drops the last element; nothing when empty. Keeps the capacity. */       \
    PREVECTOR_FN void NAME##_pop_back(NAME *v)                                  \
    {                                                                           \
        size_t n = NAME##_size(v);                                              \
        if (n)                                                                  \
            NAME##_set_size_(v, n - 1);                                         \
    }                                                                           \
                                                                                \
    /* Inserts vals[0 .. n) before element pos (0 <= pos <= size). vals may  */ \
    /* point into v's own elements. -1 also when pos > size, or when vals    */ \
    /* starts inside v but runs past its end.                                */ \
    PREVECTOR_FN int NAME##_insert(NAME *v, size_t pos, const T *vals, size_t n) \
    {                                                                           \
        size_t old = NAME##_size(v), off = 0;                                   \
        int self;                                                               \
        T *d;                                                                   \
        if (pos > old || n > NAME##_max_size() - old)                           \
            return -1;                                                          \
        if (n == 0)                                                             \
            return 0;                                                           \
        d = NAME##_data(v);                                                     \
        self = PREVECTOR_POINTS_INTO(vals, d, old);                             \
        if (self) {                                                             \
            off = (size_t)(vals - (const T *)d);                                \
            if (n > old - off)                                                  \
                return -1;                                                      \
        }                                                                       \
        if (old + n > NAME##_capacity(v)) {                                     \
            if (NAME##_grow_(v, old + n) != 0)                                  \
                return -1;                                                      \
            d = NAME##_heap_(v); /* grown past N (see NAME_resize) */           \
        }                                                                       \
        memmove(d + pos + n, d + pos, (old - pos) * sizeof(T));                 \
        if (!self) {                                                            \
            memmove(d + pos, vals, n * sizeof(T));                              \
        } else if (off + n <= pos) {   /* source wholly before the gap */       \
            memcpy(d + pos, d + off, n * sizeof(T));                            \
        } else if (off >= pos) {       /* wholly after: moved up by n */        \
            memcpy(d + pos, d + off + n, n * sizeof(T));                        \
        } else {                       /* straddles the gap: two pieces */      \
            memcpy(d + pos, d + off, (pos - off) * sizeof(T));                  \
            memcpy(d + 2 * pos - off, d + pos + n, (off + n - pos) * sizeof(T)); \
        }                                                                       \
        NAME##_set_size_(v, old + n);                                           \
        return 0;                                                               \
    }                                                                           \
                                                                                \
    /* Removes elements [first, last); last is clamped to the size, and     */  \
    /* nothing happens when first >= last. Keeps the capacity.              */  \
    PREVECTOR_FN void NAME##_erase(NAME *v, size_t first, size_t last)          \
    {                                                                           \
        size_t n = NAME##_size(v);                                              \
        T *d;                                                                   \
        if (last > n)                                                           \
            last = n;                                                           \
        if (first >= last)                                                      \
            return;                                                             \
        d = NAME##_data(v);                                                     \
        memmove(d + first, d + last, (n - last) * sizeof(T));                   \
        NAME##_set_size_(v, n - (last - first));                                \
    }                                                                           \
                                                                                \
    /* Makes v a copy of vals[0 .. n) (which may lie inside v); capacity      */ \
    /* grows to exactly n when it must, and is kept otherwise.               */ \
    PREVECTOR_FN int NAME##_assign(NAME *v, const T *vals, size_t n)            \
    {                                                                           \
        T *d = NAME##_data(v);                                                  \
        if (PREVECTOR_POINTS_INTO(vals, d, NAME##_size(v))) {                   \
            /* Already inside the storage: never needs to grow. */              \
            if (n > NAME##_size(v) - (size_t)(vals - (const T *)d))             \
                return -1;                                                      \
        } else if (n > NAME##_capacity(v)) {                                    \
            if (NAME##_change_capacity_(v, n) != 0)                             \
                return -1;                                                      \
            d = NAME##_heap_(v); /* grown past N (see NAME_resize) */           \
        }                                                                       \
        if (n)                                                                  \
            memmove(d, vals, n * sizeof(T));                                    \
        NAME##_set_size_(v, n);                                                 \
        return 0;                                                               \
    }                                                                           \
                                                                                \
    /* dst (already init'ed) becomes a copy of src: NAME_assign of src's     */ \
    /* elements. dst == src is fine.                                         */ \
    PREVECTOR_FN int NAME##_copy(NAME *dst, const NAME *src)                    \
    {                                                                           \
        if (dst == src)                                                         \
            return 0;                                                           \
        return NAME##_assign(dst, NAME##_cdata(src), NAME##_size(src));         \
    }                                                                           \
                                                                                \
    /* Exchanges contents, capacities and storage; allocates nothing. */        \
    PREVECTOR_FN void NAME##_swap(NAME *a, NAME *b)                             \
    {                                                                           \
        NAME t = *a;                                                            \
        *a = *b;                                                                \
        *b = t;                                                                 \
    }                                                                           \
                                                                                \
    /* Capacity down to the size: back inline when size <= N (no             */ \
    /* allocation), else a heap block of exactly size elements.               */ \
    PREVECTOR_FN int NAME##_shrink_to_fit(NAME *v)                              \
    {                                                                           \
        if (NAME##_is_direct(v) || NAME##_size(v) == v->u.heap.capacity)        \
            return 0;                                                           \
        return NAME##_change_capacity_(v, NAME##_size(v));                      \
    }                                                                           \
                                                                                \
    /* 1 when a and b hold the same elements (same size, same bytes). */        \
    PREVECTOR_FN int NAME##_equal(const NAME *a, const NAME *b)                 \
    {                                                                           \
        size_t n = NAME##_size(a);                                              \
        return n == NAME##_size(b) &&                                           \
               (n == 0 ||                                                       \
                memcmp(NAME##_cdata(a), NAME##_cdata(b), n * sizeof(T)) == 0);  \
    }                                                                           \
                                                                                \
    /* -1, 0 or 1: the shorter vector first, equal sizes by memcmp of the    */ \
    /* elements' bytes (bytewise for unsigned char, as Core's operator<).    */ \
    PREVECTOR_FN int NAME##_compare(const NAME *a, const NAME *b)               \
    {                                                                           \
        size_t na = NAME##_size(a), nb = NAME##_size(b);                        \
        int r;                                                                  \
        if (na != nb)                                                           \
            return na < nb ? -1 : 1;                                            \
        if (na == 0)                                                            \
            return 0;                                                           \
        r = memcmp(NAME##_cdata(a), NAME##_cdata(b), na * sizeof(T));           \
        return (r > 0) - (r < 0);                                               \
    }

#endif
