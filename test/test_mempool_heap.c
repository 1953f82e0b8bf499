/* Tests for the pool's eviction heap (src/mempool/heap.h): random inserts, deletes from any
 * place, builds and pops against a sorted reference, with many equal keys; after every
 * operation the heap order holds and every item's recorded place is where it is. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mempool/heap.h"

#define N 300

typedef struct {
    uint32_t key[N], pos[N];
    unsigned char in[N];
} ctx;

/* Lower key first; equal keys by lower item (a strict total order). */
static int before(const void *c, uint32_t a, uint32_t b)
{
    const ctx *x = c;
    return x->key[a] != x->key[b] ? x->key[a] < x->key[b] : a < b;
}

static void place(void *c, uint32_t item, uint32_t pos)
{
    ((ctx *)c)->pos[item] = pos;
}

static uint32_t where(const void *c, uint32_t item)
{
    return ((const ctx *)c)->pos[item];
}

static void check_heap(const mempool_heap *h, const ctx *c)
{
    uint32_t i, n = 0;
    for (i = 0; i < h->n; i++) {
        CHECK(c->pos[h->v[i]] == i && c->in[h->v[i]]);
        if (i > 0)
            CHECK(!before(c, h->v[i], h->v[(i - 1) / 2]));
    }
    for (i = 0; i < N; i++)
        n += c->in[i];
    CHECK(n == h->n);
}

static void test_random(void)
{
    static ctx c;
    uint32_t v[N], step;
    mempool_heap h;
    memset(&c, 0, sizeof(c));
    h.v = v;
    h.n = 0;
    for (step = 0; step < 20000; step++) {
        uint32_t op = (uint32_t)check_rng_below(10), item = (uint32_t)check_rng_below(N);
        if (op < 5 && !c.in[item]) {
            c.key[item] = (uint32_t)check_rng_below(step % 2 ? 5 : 1000);
            c.in[item] = 1;
            mempool_heap_insert(&h, before, place, &c, item);
        } else if (op < 8 && c.in[item]) {
            mempool_heap_delete(&h, before, place, where, &c, item);
            c.in[item] = 0;
        } else if (op == 8 && h.n > 0) {
            /* The root is the least of all. */
            uint32_t i, top = h.v[0];
            for (i = 0; i < N; i++)
                CHECK(!c.in[i] || i == top || before(&c, top, i));
            mempool_heap_delete(&h, before, place, where, &c, top);
            c.in[top] = 0;
        } else if (op == 9) {
            /* Rebuild from scratch in item order. */
            uint32_t i;
            h.n = 0;
            for (i = 0; i < N; i++) {
                if (c.in[i])
                    v[h.n++] = i;
            }
            mempool_heap_build(&h, before, place, &c);
        }
        check_heap(&h, &c);
    }
    /* Popping everything gives the sorted order. */
    {
        uint32_t prev = UINT32_MAX;
        while (h.n > 0) {
            uint32_t top = h.v[0];
            if (prev != UINT32_MAX)
                CHECK(before(&c, prev, top));
            mempool_heap_delete(&h, before, place, where, &c, top);
            c.in[top] = 0;
            prev = top;
        }
    }
}

int main(void)
{
    check_rng_init("test_mempool_heap");
    test_random();
    return check_finish();
}
