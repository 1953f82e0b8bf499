#include "mempool/table.h"

#include "util/alloc.h"

void mempool_table_init(mempool_table *t)
{
    t->s = NULL;
    t->cap = 0;
    t->used = 0;
}

void mempool_table_free(mempool_table *t)
{
    bb_free(t->s);
    mempool_table_init(t);
}

void mempool_table_put(mempool_table *t, uint64_t hash, uint32_t entry, uint32_t aux)
{
    size_t mask = t->cap - 1, i = (size_t)hash & mask;
    while (t->s[i].entry != MEMPOOL_TABLE_EMPTY)
        i = (i + 1) & mask;
    t->s[i].hash = hash;
    t->s[i].entry = entry;
    t->s[i].aux = aux;
    t->used++;
}

int mempool_table_reserve(mempool_table *t, size_t n)
{
    size_t cap, i;
    mempool_slot *s;
    mempool_table old;
    if (n <= t->cap / 2)
        return 0;
    cap = t->cap ? t->cap : 16;
    while (cap / 2 < n) {
        if (cap > SIZE_MAX / 4 / sizeof(mempool_slot))
            return -1;
        cap *= 2;
    }
    if ((s = bb_malloc_array(cap, sizeof(mempool_slot))) == NULL)
        return -1;
    for (i = 0; i < cap; i++)
        s[i].entry = MEMPOOL_TABLE_EMPTY;
    old = *t;
    t->s = s;
    t->cap = cap;
    t->used = 0;
    for (i = 0; i < old.cap; i++) {
        if (old.s[i].entry != MEMPOOL_TABLE_EMPTY)
            mempool_table_put(t, old.s[i].hash, old.s[i].entry, old.s[i].aux);
    }
    bb_free(old.s);
    return 0;
}

void mempool_table_erase_at(mempool_table *t, size_t i)
{
    size_t mask = t->cap - 1, j = i, k;
    for (;;) {
        j = (j + 1) & mask;
        if (t->s[j].entry == MEMPOOL_TABLE_EMPTY)
            break;
        k = (size_t)t->s[j].hash & mask;
        /* s[j] may fill the hole at i unless its home k lies cyclically in (i, j]. */
        if (i <= j ? (k <= i || k > j) : (k <= i && k > j)) {
            t->s[i] = t->s[j];
            i = j;
        }
    }
    t->s[i].entry = MEMPOOL_TABLE_EMPTY;
    t->used--;
}

void mempool_table_erase(mempool_table *t, uint64_t hash, uint32_t entry, uint32_t aux)
{
    size_t mask = t->cap - 1, i = (size_t)hash & mask;
    while (t->s[i].entry != entry || t->s[i].aux != aux)
        i = (i + 1) & mask;
    mempool_table_erase_at(t, i);
}

void mempool_table_clear(mempool_table *t)
{
    size_t i;
    for (i = 0; i < t->cap; i++)
        t->s[i].entry = MEMPOOL_TABLE_EMPTY;
    t->used = 0;
}
