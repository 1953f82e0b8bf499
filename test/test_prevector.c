/* Prevector: layout, Core's growth rules step by step, a model test of random
 * operations with injected allocation failure (prevector_model.h), refusal of
 * impossible sizes (push_back and growth at the most elements are
 * test_prevector_max.c's), no allocation in the benchmarks' steady state, and serialisation
 * (known encodings, round trips, every truncation, oversized and non-canonical
 * counts). The model runs on bytes, a non-trivial element, a
 * 2-byte element with 3 inline, and an array type (a 32-byte hash, 2 inline).
 * TEST_PREVECTOR_OPS sets the model's operation count. */
#include "prevector_kinds.h"

#include "util/alloc.h"
#include "util/stream.h"

#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* As compact as Core's: a script-sized prevector is 32 bytes. */
typedef char pv_bytes_is_32_bytes[sizeof(pv_bytes) <= 32 ? 1 : -1];
typedef char pv_nt_is_compact[sizeof(pv_nt) == 28 * sizeof(nontrivial_elem) + 4 ? 1 : -1];

#include "prevector_models.h"

static void test_layout(void)
{
    pv_bytes v;
    pv_nt w;
    size_t i;

    CHECK(sizeof(pv_bytes) == 32);
    pv_bytes_init(&v);
    CHECK(pv_bytes_size(&v) == 0 && pv_bytes_capacity(&v) == 28 && pv_bytes_is_direct(&v));
    CHECK(pv_bytes_allocated_memory(&v) == 0);
    CHECK((void *)pv_bytes_data(&v) == (void *)&v); /* inline: the object itself */
    CHECK(pv_bytes_max_size() == 0x7fffffff);
    pv_bytes_destroy(&v);

    pv_nt_init(&w);
    CHECK(pv_nt_resize(&w, 28) == 0 && pv_nt_is_direct(&w));
    for (i = 0; i < 28; i++)
        CHECK(pv_nt_data(&w)[i].v == -1);
    CHECK(pv_nt_resize(&w, 29) == 0 && !pv_nt_is_direct(&w));
    CHECK(pv_nt_allocated_memory(&w) == 29 * sizeof(nontrivial_elem));
    for (i = 0; i < 29; i++)
        CHECK(pv_nt_data(&w)[i].v == -1);
    pv_nt_destroy(&w);
    CHECK(pv_nt_size(&w) == 0 && pv_nt_is_direct(&w)); /* usable after destroy */
    pv_nt_destroy(&w);
}

/* Core's rules spelled out on one vector. */
static void test_growth_rules(void)
{
    pv_bytes v;
    unsigned char b = 7, buf[100];
    size_t i;

    memset(buf, 0xab, sizeof buf);
    pv_bytes_init(&v);
    for (i = 0; i < 28; i++)
        CHECK(pv_bytes_push_back(&v, &b) == 0);
    CHECK(pv_bytes_capacity(&v) == 28 && pv_bytes_is_direct(&v));
    CHECK(pv_bytes_push_back(&v, &b) == 0); /* 29 -> 29 + 14 */
    CHECK(pv_bytes_capacity(&v) == 43 && !pv_bytes_is_direct(&v));
    for (i = 29; i < 43; i++)
        CHECK(pv_bytes_push_back(&v, &b) == 0);
    CHECK(pv_bytes_capacity(&v) == 43);
    CHECK(pv_bytes_push_back(&v, &b) == 0); /* 44 -> 66 */
    CHECK(pv_bytes_capacity(&v) == 66);
    CHECK(pv_bytes_insert(&v, 3, buf, 100) == 0); /* 144 -> 216 */
    CHECK(pv_bytes_size(&v) == 144 && pv_bytes_capacity(&v) == 216);
    CHECK(pv_bytes_resize(&v, 300) == 0 && pv_bytes_capacity(&v) == 300); /* exact */
    CHECK(pv_bytes_reserve(&v, 301) == 0 && pv_bytes_capacity(&v) == 301);
    CHECK(pv_bytes_reserve(&v, 10) == 0 && pv_bytes_capacity(&v) == 301);
    CHECK(pv_bytes_resize(&v, 5) == 0 && pv_bytes_capacity(&v) == 301);
    pv_bytes_clear(&v);
    CHECK(pv_bytes_size(&v) == 0 && pv_bytes_capacity(&v) == 301 && !pv_bytes_is_direct(&v));
    CHECK(pv_bytes_resize(&v, 40) == 0);
    CHECK(pv_bytes_shrink_to_fit(&v) == 0 && pv_bytes_capacity(&v) == 40);
    for (i = 0; i < 40; i++)
        CHECK(pv_bytes_data(&v)[i] == 0); /* resize after clear zeroes again */
    pv_bytes_resize(&v, 28);
    CHECK(pv_bytes_shrink_to_fit(&v) == 0 && pv_bytes_is_direct(&v));
    CHECK(pv_bytes_capacity(&v) == 28 && pv_bytes_size(&v) == 28);
    CHECK(pv_bytes_assign(&v, buf, 60) == 0 && pv_bytes_capacity(&v) == 60);
    CHECK(memcmp(pv_bytes_data(&v), buf, 60) == 0);
    pv_bytes_destroy(&v);
}

/* Requests no prevector can hold are refused before anything is touched. */
static void test_limits(void)
{
    pv_bytes v, w;
    pv_nt x;
    unsigned char b = 1;
    const unsigned char *d;
    size_t i;

    pv_bytes_init(&v);
    pv_bytes_init(&w);
    pv_nt_init(&x);
    CHECK(pv_bytes_resize(&v, 40) == 0);
    d = pv_bytes_data(&v);
    CHECK(pv_bytes_resize(&v, (size_t)PREVECTOR_MAX_COUNT + 1) == -1);
    CHECK(pv_bytes_resize(&v, SIZE_MAX) == -1);
    CHECK(pv_bytes_reserve(&v, SIZE_MAX) == -1);
    CHECK(pv_bytes_resize_uninit(&v, SIZE_MAX / 2) == -1);
    CHECK(pv_bytes_insert(&v, 0, &b, SIZE_MAX) == -1);
    CHECK(pv_bytes_insert(&v, 0, &b, PREVECTOR_MAX_COUNT - 39) == -1);
    CHECK(pv_bytes_insert(&v, 41, &b, 1) == -1); /* past the end */
    CHECK(pv_bytes_assign(&v, &b, SIZE_MAX) == -1);
    CHECK(pv_nt_resize(&x, SIZE_MAX / 4 + 1) == -1); /* n * sizeof(T) > SIZE_MAX */
    CHECK(pv_nt_reserve(&x, SIZE_MAX / 2) == -1);
    CHECK(pv_bytes_size(&v) == 40 && pv_bytes_capacity(&v) == 40 && pv_bytes_data(&v) == d);
    CHECK(pv_nt_size(&x) == 0 && pv_nt_is_direct(&x));

    /* A range starting inside the vector but running past its end. */
    CHECK(pv_bytes_insert(&v, 0, pv_bytes_data(&v) + 30, 11) == -1);
    CHECK(pv_bytes_assign(&v, pv_bytes_data(&v) + 30, 11) == -1);
    CHECK(pv_bytes_size(&v) == 40);

    /* erase clamps instead of failing. */
    pv_bytes_erase(&v, 30, 1000);
    CHECK(pv_bytes_size(&v) == 30);
    pv_bytes_erase(&v, 20, 10);
    pv_bytes_erase(&v, 1000, 2000);
    CHECK(pv_bytes_size(&v) == 30);
    pv_bytes_pop_back(&w); /* empty: nothing */
    CHECK(pv_bytes_size(&w) == 0);

    /* The second translation unit's expansion works on the same objects. */
    CHECK(tu2_append_count(&w, 50) == 0 && pv_bytes_size(&w) == 50);
    CHECK(pv_bytes_capacity(&w) == 66 && !pv_bytes_is_direct(&w));
    for (i = 0; i < pv_bytes_size(&w); i++)
        CHECK(pv_bytes_data(&w)[i] == i);
    pv_bytes_destroy(&v);
    pv_bytes_destroy(&w);
    pv_nt_destroy(&x);
}

/* The benchmark shapes allocate only where they must. */
static void test_steady_state(void)
{
    pv_bytes p0, p1;
    pv_nt q0, q1;
    byte_stream s;
    unsigned long before = 0;
    int i, ok = 1;

    pv_bytes_init(&p0);
    pv_bytes_init(&p1);
    pv_nt_init(&q0);
    pv_nt_init(&q1);
    /* Clear and Resize: after the first round, nothing. */
    for (i = 0; i < 100; i++) {
        if (i == 1)
            before = bb_alloc_count();
        ok &= pv_bytes_resize(&p0, 28) == 0;
        pv_bytes_clear(&p0);
        ok &= pv_bytes_resize(&p1, 29) == 0;
        pv_bytes_clear(&p1);
        ok &= pv_nt_resize(&q0, 28) == 0 && pv_nt_resize(&q0, 0) == 0;
        ok &= pv_nt_resize(&q1, 29) == 0 && pv_nt_resize(&q1, 0) == 0;
    }
    CHECK(ok);
    CHECK(bb_alloc_count() == before);

    /* Deserialize: 900 of 28 then 101 of 100, read back 1000 at a time. */
    stream_init(&s);
    pv_bytes_resize(&p0, 28);
    pv_nt_resize(&q0, 28);
    for (i = 0; i < 900; i++)
        ok &= pv_bytes_serialize(&p0, &s) == 0;
    pv_bytes_resize(&p0, 100);
    for (i = 0; i < 101; i++)
        ok &= pv_bytes_serialize(&p0, &s) == 0;
    CHECK(ok && s.size == 900 * 29 + 101 * 101);
    for (i = 0; i < 3000; i++) {
        if (i == 1000)
            before = bb_alloc_count();
        if (i % 1000 == 0)
            stream_rewind(&s);
        ok &= pv_bytes_unserialize(&p1, &s) == 0;
        ok &= pv_bytes_size(&p1) == (i % 1000 < 900 ? 28u : 100u);
    }
    CHECK(ok);
    CHECK(bb_alloc_count() == before);
    stream_destroy(&s);
    pv_bytes_destroy(&p0);
    pv_bytes_destroy(&p1);
    pv_nt_destroy(&q0);
    pv_nt_destroy(&q1);
}

static void test_serialize_known(void)
{
    static const unsigned char want_b[] = {3, 1, 2, 0xff};
    static const unsigned char want_n[] = {2, 0xff, 0xff, 0xff, 0xff, 4, 3, 2, 1};
    static const unsigned char want_u16[] = {2, 0x34, 0x12, 0xff, 0xfe};
    const unsigned char bytes[] = {1, 2, 0xff};
    nontrivial_elem ns[2] = {{-1}, {0x01020304}};
    uint16_t us[2] = {0x1234, 0xfeff};
    pv_bytes v;
    pv_nt w;
    pv_u16 u;
    byte_stream s;
    size_t i;

    stream_init(&s);
    pv_bytes_init(&v);
    pv_nt_init(&w);
    pv_u16_init(&u);
    pv_bytes_assign(&v, bytes, 3);
    pv_nt_assign(&w, ns, 2);
    pv_u16_assign(&u, us, 2);
    CHECK(pv_bytes_serialize(&v, &s) == 0);
    CHECK(s.size == sizeof want_b && memcmp(s.data, want_b, s.size) == 0);
    stream_clear(&s);
    CHECK(pv_nt_serialize(&w, &s) == 0);
    CHECK(s.size == sizeof want_n && memcmp(s.data, want_n, s.size) == 0);
    stream_clear(&s);
    CHECK(pv_u16_serialize(&u, &s) == 0);
    CHECK(s.size == sizeof want_u16 && memcmp(s.data, want_u16, s.size) == 0);

    /* 253 elements: a three-byte count. */
    stream_clear(&s);
    CHECK(pv_bytes_resize(&v, 253) == 0);
    CHECK(pv_bytes_serialize(&v, &s) == 0 && s.size == 3 + 253);
    CHECK(s.data[0] == 253 && s.data[1] == 253 && s.data[2] == 0);
    pv_bytes_clear(&v);
    CHECK(pv_bytes_unserialize(&v, &s) == 0 && pv_bytes_size(&v) == 253);
    for (i = 3; i < 253; i++)
        CHECK(pv_bytes_data(&v)[i] == 0);

    pv_bytes_destroy(&v);
    pv_nt_destroy(&w);
    pv_u16_destroy(&u);
    stream_destroy(&s);
}

/* Reading must fail cleanly: vector and stream position as they were. */
#define EXPECT_UNSER_FAILS(KIND, vec, s, what)                                  \
    do {                                                                        \
        size_t size_ = KIND##_size(vec), cap_ = KIND##_capacity(vec);           \
        size_t pos_ = (s)->pos;                                                 \
        const void *data_ = KIND##_cdata(vec);                                  \
        CHECKF(KIND##_unserialize(vec, s) == -1, "%s: accepted", what);          \
        CHECKF(KIND##_size(vec) == size_ && KIND##_capacity(vec) == cap_ &&     \
               (const void *)KIND##_cdata(vec) == data_ && (s)->pos == pos_,    \
               "%s: state changed", what);                                      \
    } while (0)

static void test_serialize_malformed(void)
{
    pv_bytes v, w;
    pv_nt x, y;
    byte_stream s, t;
    size_t len, cut, i;
    char what[64];

    stream_init(&s);
    stream_init(&t);
    pv_bytes_init(&v);
    pv_bytes_init(&w);
    pv_nt_init(&x);
    pv_nt_init(&y);

    /* Every truncation of serialised vectors around the boundary. */
    for (len = 0; len < 70; len += (len < 35 ? 1 : 17)) {
        pv_bytes_resize(&v, len);
        for (i = 0; i < len; i++)
            pv_bytes_data(&v)[i] = (unsigned char)(i * 7);
        pv_nt_resize(&x, len);
        stream_clear(&s);
        stream_clear(&t);
        CHECK(pv_bytes_serialize(&v, &s) == 0 && pv_nt_serialize(&x, &t) == 0);
        pv_bytes_resize(&w, 5);
        pv_nt_resize(&y, 40);
        for (cut = 0; cut < s.size; cut++) {
            byte_stream part;
            stream_init(&part);
            CHECK(stream_write(&part, s.data, cut) == 0);
            snprintf(what, sizeof what, "bytes %zu cut at %zu", len, cut);
            EXPECT_UNSER_FAILS(pv_bytes, &w, &part, what);
            stream_destroy(&part);
        }
        for (cut = 0; cut < t.size; cut++) {
            byte_stream part;
            stream_init(&part);
            CHECK(stream_write(&part, t.data, cut) == 0);
            snprintf(what, sizeof what, "ints %zu cut at %zu", len, cut);
            EXPECT_UNSER_FAILS(pv_nt, &y, &part, what);
            stream_destroy(&part);
        }
        CHECK(pv_bytes_unserialize(&w, &s) == 0 && pv_bytes_equal(&v, &w));
        CHECK(pv_nt_unserialize(&y, &t) == 0 && pv_nt_equal(&x, &y));
    }

    /* Counts: above 32 MiB (with or without the data), non-canonical,
     * truncated, and larger than what follows. */
    {
        static const struct { size_t len; unsigned char b[9]; const char *what; } bad[] = {
            {5, {0xfe, 0x01, 0x00, 0x00, 0x02}, "count 32 MiB + 1"},
            {5, {0xfe, 0xff, 0xff, 0xff, 0xff}, "count 2^32 - 1"},
            {9, {0xff, 0, 0, 0, 0, 1, 0, 0, 0}, "count 2^32"},
            {9, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, "count 2^64 - 1"},
            {3, {0xfd, 0x05, 0x00}, "non-canonical 3-byte 5"},
            {5, {0xfe, 0x05, 0x00, 0x00, 0x00}, "non-canonical 5-byte 5"},
            {9, {0xff, 0x05, 0, 0, 0, 0, 0, 0, 0}, "non-canonical 9-byte 5"},
            {2, {0xfd, 0x05}, "truncated count"},
            {3, {0xfd, 0x00, 0x01}, "count 256, 200 bytes follow"},
            {5, {0xfe, 0x00, 0x00, 0x00, 0x02}, "count 32 MiB, 200 bytes follow"},
        };
        unsigned char filler[200];
        memset(filler, 0x11, sizeof filler);
        pv_bytes_resize(&w, 50);
        pv_nt_resize(&y, 3);
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            stream_clear(&s);
            CHECK(stream_write(&s, bad[i].b, bad[i].len) == 0);
            CHECK(stream_write(&s, filler, sizeof filler) == 0);
            EXPECT_UNSER_FAILS(pv_bytes, &w, &s, bad[i].what);
            EXPECT_UNSER_FAILS(pv_nt, &y, &s, bad[i].what);
        }
        /* 50 ints need 200 bytes: exactly enough; 51 is one element short. */
        stream_clear(&s);
        stream_write_compact_size(&s, 51);
        stream_write(&s, filler, sizeof filler);
        EXPECT_UNSER_FAILS(pv_nt, &y, &s, "51 ints in 200 bytes");
        stream_clear(&s);
        stream_write_compact_size(&s, 50);
        stream_write(&s, filler, sizeof filler);
        CHECK(pv_nt_unserialize(&y, &s) == 0 && pv_nt_size(&y) == 50);
        CHECK(pv_nt_data(&y)[49].v == 0x11111111 && stream_remaining(&s) == 0);
    }

    /* The largest count accepted: exactly STREAM_MAX_SIZE bytes. */
    stream_clear(&s);
    CHECK(stream_write_compact_size(&s, STREAM_MAX_SIZE) == 0);
    CHECK(stream_write_view(&s, STREAM_MAX_SIZE) != NULL);
    memset(s.data + 5, 0x22, STREAM_MAX_SIZE);
    CHECK(pv_bytes_unserialize(&w, &s) == 0 && pv_bytes_size(&w) == STREAM_MAX_SIZE);
    CHECK(pv_bytes_data(&w)[STREAM_MAX_SIZE - 1] == 0x22 && stream_remaining(&s) == 0);
    pv_bytes_destroy(&w);

    /* Out of memory while reading, and while writing. */
    stream_clear(&s);
    pv_bytes_resize(&v, 60);
    CHECK(pv_bytes_serialize(&v, &s) == 0);
    pv_bytes_resize(&w, 3);
    bb_alloc_fail_after(0);
    EXPECT_UNSER_FAILS(pv_bytes, &w, &s, "no memory");
    bb_alloc_fail_after(-1);
    stream_destroy(&t);
    stream_init(&t);
    bb_alloc_fail_after(0);
    CHECK(pv_bytes_serialize(&v, &t) == -1 && t.size == 0);
    bb_alloc_fail_after(-1);

    pv_bytes_destroy(&v);
    pv_bytes_destroy(&w);
    pv_nt_destroy(&x);
    pv_nt_destroy(&y);
    stream_destroy(&s);
    stream_destroy(&t);
}

/* Many vectors of random sizes and contents in one stream, read back. */
static void test_serialize_roundtrip(void)
{
    enum { COUNT = 300 };
    pv_bytes in[COUNT], out;
    pv_nt nin[COUNT], nout;
    byte_stream s;
    size_t i, j, n;

    stream_init(&s);
    pv_bytes_init(&out);
    pv_nt_init(&nout);
    for (i = 0; i < COUNT; i++) {
        n = (size_t)check_rng_below(i % 10 == 0 ? 70000 : 80);
        pv_bytes_init(&in[i]);
        pv_nt_init(&nin[i]);
        CHECK(pv_bytes_resize(&in[i], n) == 0 && pv_nt_resize(&nin[i], n % 500) == 0);
        check_rng_fill(pv_bytes_data(&in[i]), n);
        for (j = 0; j < n % 500; j++)
            pv_nt_data(&nin[i])[j].v = (int)(uint32_t)check_rng_u64();
        CHECK(pv_bytes_serialize(&in[i], &s) == 0 && pv_nt_serialize(&nin[i], &s) == 0);
    }
    for (i = 0; i < COUNT; i++) {
        CHECK(pv_bytes_unserialize(&out, &s) == 0 && pv_bytes_equal(&out, &in[i]));
        CHECK(pv_nt_unserialize(&nout, &s) == 0 && pv_nt_equal(&nout, &nin[i]));
        pv_bytes_destroy(&in[i]);
        pv_nt_destroy(&nin[i]);
    }
    CHECK(stream_remaining(&s) == 0);
    CHECK(pv_bytes_unserialize(&out, &s) == -1);
    pv_bytes_destroy(&out);
    pv_nt_destroy(&nout);
    stream_destroy(&s);
}

int main(int argc, char **argv)
{
    unsigned long ops = 300000;
    const char *env = getenv("TEST_PREVECTOR_OPS");

    (void)argc;
    if (env && *env)
        ops = strtoul(env, NULL, 10);
    check_rng_init(argv[0]);
    test_layout();
    test_growth_rules();
    test_limits();
    test_steady_state();
    test_serialize_known();
    test_serialize_malformed();
    test_serialize_roundtrip();
    model_bytes_run(ops);
    model_nt_run(ops);
    model_u16_run(ops / 3);
    model_hash_run(ops / 10);
    return check_finish();
}
