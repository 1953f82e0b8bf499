/* Tests for the pool's hash table (src/mempool/table.h): random puts and erases against a
 * plain list, with hashes from a tiny range so that probe runs collide, wrap around the end
 * and are cut by backward-shift deletion; growth keeps every item; a reserve that cannot get
 * memory leaves the table as it was; clear empties and keeps the slots. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mempool/table.h"
#include "util/alloc.h"

#define MAX_ITEMS 600

typedef struct {
    uint64_t hash;
    uint32_t entry, aux;
} item;

/* How many slots hold (hash, entry, aux), found the way the pool looks items up. */
static unsigned count_found(const mempool_table *t, uint64_t hash, uint32_t entry, uint32_t aux)
{
    size_t i = mempool_table_home(t, hash);
    unsigned n = 0;
    if (i == SIZE_MAX)
        return 0;
    for (; mempool_table_full(t, i); i = mempool_table_next(t, i)) {
        const mempool_slot *s = &t->s[i];
        n += s->hash == hash && s->entry == entry && s->aux == aux;
    }
    return n;
}

static void check_all(const mempool_table *t, const item *items, size_t n)
{
    size_t i, full = 0;
    for (i = 0; i < n; i++)
        CHECK(count_found(t, items[i].hash, items[i].entry, items[i].aux) == 1);
    for (i = 0; i < t->cap; i++)
        full += mempool_table_full(t, i);
    CHECK(full == n && t->used == n);
    CHECK(t->used <= t->cap / 2);
}

static void test_random(void)
{
    static item items[MAX_ITEMS];
    mempool_table t;
    size_t n = 0, step;
    uint32_t next = 0;
    mempool_table_init(&t);
    CHECK(mempool_table_home(&t, 5) == SIZE_MAX);
    for (step = 0; step < 20000; step++) {
        int put = n == 0 || (n < MAX_ITEMS && check_rng_below(100) < 55);
        /* Hashes from a small range: long shared probe runs near the end of the slots. */
        uint64_t range = step % 3 == 0 ? 8 : 1000;
        if (put) {
            item it;
            it.hash = check_rng_below(range) | (check_rng_below(2) << 40);
            it.entry = next++;
            it.aux = (uint32_t)check_rng_below(3);
            CHECK(mempool_table_reserve(&t, t.used + 1) == 0);
            mempool_table_put(&t, it.hash, it.entry, it.aux);
            items[n++] = it;
        } else {
            size_t k = (size_t)check_rng_below(n);
            mempool_table_erase(&t, items[k].hash, items[k].entry, items[k].aux);
            CHECK(count_found(&t, items[k].hash, items[k].entry, items[k].aux) == 0);
            items[k] = items[--n];
        }
        if (step % 97 == 0)
            check_all(&t, items, n);
    }
    check_all(&t, items, n);
    /* A reserve that fails changes nothing; clear keeps the slots. */
    {
        size_t cap = t.cap;
        bb_alloc_fail_after(0);
        CHECK(mempool_table_reserve(&t, cap) == -1);
        bb_alloc_fail_after(-1);
        CHECK(t.cap == cap);
        check_all(&t, items, n);
        CHECK(mempool_table_reserve(&t, SIZE_MAX / 2) == -1);
        mempool_table_clear(&t);
        CHECK(t.cap == cap && t.used == 0);
        check_all(&t, items, 0);
    }
    mempool_table_free(&t);
    CHECK(t.cap == 0 && t.s == NULL);
}

int main(void)
{
    check_rng_init("test_mempool_table");
    test_random();
    return check_finish();
}
