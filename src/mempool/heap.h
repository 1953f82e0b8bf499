/* The pool's eviction heap: a binary min-heap of 32-bit items (entry indices) under an
 * order the caller gives, where every item knows its place so that it can be removed or
 * re-keyed from anywhere in O(log n). Header-only and inline, so that the order and the
 * place bookkeeping (two small functions the caller passes, usually static) inline into the
 * sift loops as if written there. */
#ifndef MEMPOOL_HEAP_H
#define MEMPOOL_HEAP_H

#include <stdint.h>

typedef struct {
    uint32_t *v;  /* v[0 .. n): the items; v[0] comes first */
    uint32_t n;
} mempool_heap;

/* 1 when item a must come before item b (a strict weak order). */
typedef int (*mempool_heap_before_fn)(const void *ctx, uint32_t a, uint32_t b);
/* Records that item now sits at place pos; where_fn answers it back. */
typedef void (*mempool_heap_place_fn)(void *ctx, uint32_t item, uint32_t pos);
typedef uint32_t (*mempool_heap_where_fn)(const void *ctx, uint32_t item);

static inline void mempool_heap_set_(mempool_heap *h, mempool_heap_place_fn place, void *ctx,
                                     uint32_t pos, uint32_t item)
{
    h->v[pos] = item;
    place(ctx, item, pos);
}

/* Moves the item at pos towards the root while it comes before its parent. */
static inline void mempool_heap_sift_up(mempool_heap *h, mempool_heap_before_fn before,
                                        mempool_heap_place_fn place, void *ctx, uint32_t pos)
{
    uint32_t item = h->v[pos];
    while (pos > 0) {
        uint32_t up = (pos - 1) / 2;
        if (!before(ctx, item, h->v[up]))
            break;
        mempool_heap_set_(h, place, ctx, pos, h->v[up]);
        pos = up;
    }
    mempool_heap_set_(h, place, ctx, pos, item);
}

/* Moves the item at pos towards the leaves while a child comes before it. */
static inline void mempool_heap_sift_down(mempool_heap *h, mempool_heap_before_fn before,
                                          mempool_heap_place_fn place, void *ctx, uint32_t pos)
{
    uint32_t item = h->v[pos], n = h->n;
    for (;;) {
        uint32_t c = 2 * pos + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(ctx, h->v[c + 1], h->v[c]))
            c++;
        if (!before(ctx, h->v[c], item))
            break;
        mempool_heap_set_(h, place, ctx, pos, h->v[c]);
        pos = c;
    }
    mempool_heap_set_(h, place, ctx, pos, item);
}

/* Adds item (h->v must have room for one more). */
static inline void mempool_heap_insert(mempool_heap *h, mempool_heap_before_fn before,
                                       mempool_heap_place_fn place, void *ctx, uint32_t item)
{
    mempool_heap_set_(h, place, ctx, h->n++, item);
    mempool_heap_sift_up(h, before, place, ctx, h->n - 1);
}

/* Removes item, which must be in the heap. */
static inline void mempool_heap_delete(mempool_heap *h, mempool_heap_before_fn before,
                                       mempool_heap_place_fn place, mempool_heap_where_fn where,
                                       void *ctx, uint32_t item)
{
    uint32_t pos = where(ctx, item), last = h->v[--h->n];
    if (last == item)
        return;
    mempool_heap_set_(h, place, ctx, pos, last);
    mempool_heap_sift_up(h, before, place, ctx, pos);
    mempool_heap_sift_down(h, before, place, ctx, where(ctx, last));
}

/* Orders v[0 .. n), which the caller filled (placing nothing yet), into a heap. */
static inline void mempool_heap_build(mempool_heap *h, mempool_heap_before_fn before,
                                      mempool_heap_place_fn place, void *ctx)
{
    uint32_t i;
    for (i = 0; i < h->n; i++)
        place(ctx, h->v[i], i);
    for (i = h->n / 2; i-- > 0;)
        mempool_heap_sift_down(h, before, place, ctx, i);
}

#endif
