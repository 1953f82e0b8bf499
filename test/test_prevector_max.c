/* Prevector at the most elements it holds: push_back and insert refused at the maximum,
 * growth by half again from just below it clamped to the maximum. Its own program because
 * it needs 2 GiB of address space (left untouched), which AddressSanitizer and valgrind make
 * cost seconds: there, and where 2 GiB cannot be had, it is a SKIP saying so, and
 * test_prevector still runs everything else. */
#include "prevector_kinds.h"

#include "check.h"

#include <stdlib.h>
#include <string.h>

/* AddressSanitizer poisons the shadow of a 2 GiB block when it is freed
 * (256 MiB written, seconds) and copies it on realloc, where glibc moves it
 * with mremap and touches nothing. */
#if defined(__SANITIZE_ADDRESS__)
#define PV_HUGE_BLOCKS_COST 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PV_HUGE_BLOCKS_COST 1
#endif
#endif
#ifndef PV_HUGE_BLOCKS_COST
#define PV_HUGE_BLOCKS_COST 0
#endif

/* At the most elements a prevector holds (0x7fffffff bytes: 2 GiB of address
 * space that stays untouched, resize_uninit writing nothing): push_back and
 * insert are refused and change nothing, and growth by half again from just
 * below clamps to the maximum instead of failing. Not tested, saying why, where
 * 2 GiB cannot be had (32-bit, no overcommit), under valgrind and in
 * AddressSanitizer builds, where such blocks cost seconds. */
static void test_near_max(void)
{
    const size_t max = PREVECTOR_MAX_COUNT;
    const char *preload = getenv("LD_PRELOAD");
    unsigned char b = 0x5a;
    unsigned char *d;
    pv_bytes v;

    if (PV_HUGE_BLOCKS_COST || (preload && strstr(preload, "vgpreload"))) {
        check_untested("near the maximum size (2 GiB blocks, under valgrind or ASan)");
        return;
    }
    CHECK(pv_bytes_max_size() == max);
    pv_bytes_init(&v);
    if (pv_bytes_resize_uninit(&v, max) != 0) {
        check_untested("near the maximum size (no 2 GiB block here)");
        return;
    }
    d = pv_bytes_data(&v);
    CHECK(pv_bytes_size(&v) == max && pv_bytes_capacity(&v) == max);
    CHECK(pv_bytes_push_back(&v, &b) == -1);
    CHECK(pv_bytes_insert(&v, max, &b, 1) == -1);
    CHECK(pv_bytes_insert(&v, 0, &b, 1) == -1);
    CHECK(pv_bytes_resize(&v, max + 1) == -1);
    CHECK(pv_bytes_size(&v) == max && pv_bytes_capacity(&v) == max && pv_bytes_data(&v) == d);
    pv_bytes_destroy(&v);

    /* max - 1 elements, full: the next push_back asks for max + max / 2. */
    pv_bytes_init(&v);
    if (pv_bytes_resize_uninit(&v, max - 1) != 0) {
        check_untested("growth near the maximum size (no 2 GiB block here)");
        return;
    }
    CHECK(pv_bytes_capacity(&v) == max - 1);
    if (CHECK(pv_bytes_push_back(&v, &b) == 0)) {
        CHECK(pv_bytes_size(&v) == max && pv_bytes_capacity(&v) == max);
        CHECK(pv_bytes_data(&v)[max - 1] == b);
        CHECK(pv_bytes_push_back(&v, &b) == -1 && pv_bytes_size(&v) == max);
    }
    pv_bytes_destroy(&v);
}

int main(int argc, char **argv)
{
    (void)argc;
    check_rng_init(argv[0]);
    test_near_max();
    return check_finish();
}
