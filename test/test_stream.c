/* Byte stream: fixed-width integers, CompactSize (every boundary, every
 * non-canonical form, the 32 MiB limit, truncation at every byte), reads
 * that must not move on failure, and allocation failure on write. */
#include "util/alloc.h"
#include "util/stream.h"

#include "check.h"

#include <string.h>

/* Stream holding exactly the given bytes. */
static void load(byte_stream *s, const unsigned char *bytes, size_t n)
{
    stream_clear(s);
    CHECK(stream_write(s, bytes, n) == 0);
}

static void test_empty(void)
{
    byte_stream s;
    unsigned char b[4] = {9, 9, 9, 9};
    uint8_t u8 = 7;
    uint64_t n = 7;
    byte_stream z = {0};

    stream_init(&s);
    CHECK(s.data == NULL && s.size == 0 && s.capacity == 0 && s.pos == 0);
    CHECK(stream_remaining(&s) == 0);
    CHECK(stream_read(&s, b, 1) == -1 && b[0] == 9);
    CHECK(stream_read(&s, NULL, 0) == 0);
    CHECK(stream_read_u8(&s, &u8) == -1 && u8 == 7);
    CHECK(stream_read_compact_size(&s, &n) == -1 && n == 7);
    CHECK(stream_read_view(&s, 0) == NULL);
    CHECK(stream_write(&s, NULL, 0) == 0 && s.size == 0);
    stream_rewind(&s);
    stream_clear(&s);
    stream_destroy(&s);
    stream_destroy(&s); /* destroy leaves an empty stream: twice is fine */

    CHECK(stream_write_u8(&z, 5) == 0); /* zero-initialised is usable */
    CHECK(stream_read_u8(&z, &u8) == 0 && u8 == 5);
    stream_destroy(&z);
}

static void test_fixed_width(void)
{
    static const unsigned char want[] = {
        0xab,
        0x34, 0x12,
        0x78, 0x56, 0x34, 0x12,
        0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01,
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    };
    byte_stream s;
    uint8_t a;
    uint16_t b;
    uint32_t c;
    uint64_t d, e;
    size_t cut;

    stream_init(&s);
    CHECK(stream_write_u8(&s, 0xab) == 0);
    CHECK(stream_write_u16_le(&s, 0x1234) == 0);
    CHECK(stream_write_u32_le(&s, 0x12345678) == 0);
    CHECK(stream_write_u64_le(&s, 0x0123456789abcdefULL) == 0);
    CHECK(stream_write_u64_le(&s, UINT64_MAX) == 0);
    CHECK(s.size == sizeof want && memcmp(s.data, want, sizeof want) == 0);
    CHECK(stream_remaining(&s) == sizeof want);

    CHECK(stream_read_u8(&s, &a) == 0 && a == 0xab);
    CHECK(stream_read_u16_le(&s, &b) == 0 && b == 0x1234);
    CHECK(stream_read_u32_le(&s, &c) == 0 && c == 0x12345678);
    CHECK(stream_read_u64_le(&s, &d) == 0 && d == 0x0123456789abcdefULL);
    CHECK(stream_read_u64_le(&s, &e) == 0 && e == UINT64_MAX);
    CHECK(stream_remaining(&s) == 0 && s.pos == s.size);
    CHECK(stream_read_u8(&s, &a) == -1);

    stream_rewind(&s);
    CHECK(s.pos == 0 && stream_remaining(&s) == sizeof want);

    /* Each width, truncated by one byte: fails, does not move, leaves the output. */
    for (cut = 0; cut < 8; cut++) {
        load(&s, want + 7, cut);
        d = 42;
        CHECK(stream_read_u64_le(&s, &d) == -1 && d == 42 && s.pos == 0);
        if (cut < 4) {
            c = 42;
            CHECK(stream_read_u32_le(&s, &c) == -1 && c == 42 && s.pos == 0);
        }
        if (cut < 2) {
            b = 42;
            CHECK(stream_read_u16_le(&s, &b) == -1 && b == 42 && s.pos == 0);
        }
    }
    stream_destroy(&s);
}

/* Value, its canonical encoding. */
struct cs_vector {
    uint64_t value;
    size_t len;
    unsigned char enc[9];
};

static const struct cs_vector cs_vectors[] = {
    {0, 1, {0x00}},
    {1, 1, {0x01}},
    {252, 1, {0xfc}},
    {253, 3, {0xfd, 0xfd, 0x00}},
    {254, 3, {0xfd, 0xfe, 0x00}},
    {255, 3, {0xfd, 0xff, 0x00}},
    {0x1234, 3, {0xfd, 0x34, 0x12}},
    {0xffff, 3, {0xfd, 0xff, 0xff}},
    {0x10000, 5, {0xfe, 0x00, 0x00, 0x01, 0x00}},
    {0x01ffffff, 5, {0xfe, 0xff, 0xff, 0xff, 0x01}},
    {0x02000000, 5, {0xfe, 0x00, 0x00, 0x00, 0x02}},
    {0x02000001, 5, {0xfe, 0x01, 0x00, 0x00, 0x02}},
    {0xffffffffULL, 5, {0xfe, 0xff, 0xff, 0xff, 0xff}},
    {0x100000000ULL, 9, {0xff, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00}},
    {UINT64_MAX, 9, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
};

static void test_compact_size_vectors(void)
{
    byte_stream s;
    size_t i, cut;
    uint64_t n;

    stream_init(&s);
    for (i = 0; i < sizeof cs_vectors / sizeof cs_vectors[0]; i++) {
        const struct cs_vector *v = &cs_vectors[i];
        int accept = v->value <= STREAM_MAX_SIZE;

        stream_clear(&s);
        CHECK(stream_compact_size_len(v->value) == v->len);
        CHECK(stream_write_compact_size(&s, v->value) == 0);
        CHECKF(s.size == v->len && memcmp(s.data, v->enc, v->len) == 0,
               "encoding of %llu", (unsigned long long)v->value);

        n = 12345;
        if (accept) {
            CHECKF(stream_read_compact_size(&s, &n) == 0 && n == v->value && s.pos == v->len,
                   "decoding %llu", (unsigned long long)v->value);
        } else {
            CHECKF(stream_read_compact_size(&s, &n) == -1 && n == 12345 && s.pos == 0,
                   "%llu is above STREAM_MAX_SIZE", (unsigned long long)v->value);
        }
        /* Every truncation fails and consumes nothing. */
        for (cut = 0; cut < v->len; cut++) {
            load(&s, v->enc, cut);
            n = 12345;
            CHECK(stream_read_compact_size(&s, &n) == -1 && n == 12345 && s.pos == 0);
        }
    }
    stream_destroy(&s);
}

static void test_compact_size_noncanonical(void)
{
    /* Each of these has a shorter encoding, so must be refused. */
    static const struct { size_t len; unsigned char enc[9]; } bad[] = {
        {3, {0xfd, 0x00, 0x00}},
        {3, {0xfd, 0xfc, 0x00}},
        {5, {0xfe, 0x00, 0x00, 0x00, 0x00}},
        {5, {0xfe, 0xfc, 0x00, 0x00, 0x00}},
        {5, {0xfe, 0xfd, 0x00, 0x00, 0x00}},
        {5, {0xfe, 0xff, 0xff, 0x00, 0x00}},
        {9, {0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},
        {9, {0xff, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}},
        {9, {0xff, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00}},
        {9, {0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00}},
    };
    byte_stream s;
    size_t i;
    uint64_t n;

    stream_init(&s);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        load(&s, bad[i].enc, bad[i].len);
        CHECK(stream_write_u8(&s, 0x55) == 0); /* trailing data must not matter */
        n = 777;
        CHECKF(stream_read_compact_size(&s, &n) == -1 && n == 777 && s.pos == 0,
               "non-canonical encoding %zu accepted", i);
    }
    stream_destroy(&s);
}

/* Random values round-trip through write/read, in sequence with other data. */
static void test_compact_size_random(void)
{
    enum { COUNT = 20000 };
    static uint64_t vals[COUNT];
    byte_stream s;
    size_t i, expect = 0;
    uint64_t n;

    stream_init(&s);
    for (i = 0; i < COUNT; i++) {
        /* Spread over every width: pick a bit length, then a value of it. */
        unsigned bits = (unsigned)check_rng_below(27);
        vals[i] = bits ? check_rng_u64() >> (64 - bits) : 0;
        if (vals[i] > STREAM_MAX_SIZE)
            vals[i] = STREAM_MAX_SIZE;
        CHECK(stream_write_compact_size(&s, vals[i]) == 0);
        expect += stream_compact_size_len(vals[i]);
    }
    CHECK(s.size == expect);
    for (i = 0; i < COUNT; i++) {
        if (!CHECK(stream_read_compact_size(&s, &n) == 0 && n == vals[i]))
            break;
    }
    CHECK(stream_remaining(&s) == 0);
    stream_destroy(&s);
}

static void test_bytes_and_view(void)
{
    unsigned char buf[1000], out[1000];
    const unsigned char *p;
    byte_stream s;
    size_t off = 0, n;

    check_rng_fill(buf, sizeof buf);
    stream_init(&s);
    /* Many small writes of random lengths: contents and growth. */
    while (off < sizeof buf) {
        n = (size_t)check_rng_below(40);
        if (n > sizeof buf - off)
            n = sizeof buf - off;
        CHECK(stream_write(&s, buf + off, n) == 0);
        off += n;
        CHECK(s.size == off && s.capacity >= s.size);
    }
    CHECK(memcmp(s.data, buf, sizeof buf) == 0);

    CHECK(stream_read(&s, out, 10) == 0 && memcmp(out, buf, 10) == 0);
    p = stream_read_view(&s, 20);
    CHECK(p != NULL && p == s.data + 10 && memcmp(p, buf + 10, 20) == 0 && s.pos == 30);
    CHECK(stream_read_view(&s, 971) == NULL && s.pos == 30);
    CHECK(stream_read(&s, out, 971) == -1 && s.pos == 30);
    CHECK(stream_read(&s, out, 970) == 0 && memcmp(out, buf + 30, 970) == 0);
    CHECK(stream_read_view(&s, 0) == s.data + 1000);

    /* clear keeps the buffer; rewind rereads. */
    n = s.capacity;
    stream_clear(&s);
    CHECK(s.size == 0 && s.pos == 0 && s.capacity == n && s.data != NULL);
    CHECK(stream_reserve(&s, 5) == 0 && s.capacity == n);
    CHECK(stream_reserve(&s, n + 1) == 0 && s.capacity == n + 1);
    stream_destroy(&s);

    /* Appending the stream's own bytes, with the buffer full so that the
     * write moves it (it read freed memory; ASan saw it): all of them, and a
     * part from the middle. */
    stream_init(&s);
    CHECK(stream_write(&s, buf, 64) == 0 && s.capacity == 64);
    CHECK(stream_write(&s, s.data, s.size) == 0);
    CHECK(s.size == 128 && memcmp(s.data, buf, 64) == 0 && memcmp(s.data + 64, buf, 64) == 0);
    CHECK(stream_reserve(&s, s.size) == 0);
    n = s.capacity;
    CHECK(stream_write(&s, s.data + 10, 20) == 0 && s.capacity > n);
    CHECK(s.size == 148 && memcmp(s.data + 128, buf + 10, 20) == 0);
    stream_destroy(&s);
}

static void test_views_and_seek(void)
{
    byte_stream s;
    unsigned char *w, enc[9];
    size_t i;
    uint64_t n;

    stream_init(&s);
    CHECK(stream_write_view(&s, 0) != NULL && s.size == 0); /* allocates a buffer */
    w = stream_write_view(&s, 5);
    CHECK(w == s.data && s.size == 5);
    memcpy(w, "hello", 5);
    CHECK(stream_write_view(&s, SIZE_MAX) == NULL && s.size == 5);
    CHECK(stream_seek(&s, 6) == -1 && s.pos == 0);
    CHECK(stream_seek(&s, 5) == 0 && stream_remaining(&s) == 0);
    CHECK(stream_seek(&s, 1) == 0 && stream_read_view(&s, 4) == s.data + 1);
    CHECK(memcmp(s.data + 1, "ello", 4) == 0);
    for (i = 0; i < sizeof cs_vectors / sizeof cs_vectors[0]; i++) {
        memset(enc, 0xee, sizeof enc);
        CHECK(stream_encode_compact_size(enc, cs_vectors[i].value) == cs_vectors[i].len);
        CHECK(memcmp(enc, cs_vectors[i].enc, cs_vectors[i].len) == 0);
        CHECK(cs_vectors[i].len == 9 || enc[cs_vectors[i].len] == 0xee);
    }
    stream_clear(&s);
    w = stream_write_view(&s, 3);
    CHECK(w && stream_encode_compact_size(w, 0xabcd) == 3);
    CHECK(stream_read_compact_size(&s, &n) == 0 && n == 0xabcd);
    bb_alloc_fail_after(0);
    CHECK(stream_write_view(&s, s.capacity) == NULL && s.size == 3);
    bb_alloc_fail_after(-1);
    stream_destroy(&s);
}

static void test_alloc_failure(void)
{
    unsigned char buf[300];
    byte_stream s;
    unsigned char *data;
    size_t size, cap;
    int i;

    memset(buf, 0x5a, sizeof buf);
    stream_init(&s);

    bb_alloc_fail_after(0);
    CHECK(stream_write(&s, buf, 1) == -1);
    CHECK(s.data == NULL && s.size == 0 && s.capacity == 0);
    CHECK(stream_write_u64_le(&s, 1) == -1 && s.size == 0);
    CHECK(stream_write_compact_size(&s, 70000) == -1 && s.size == 0);
    CHECK(stream_reserve(&s, 10) == -1 && s.capacity == 0);
    bb_alloc_fail_after(-1);

    CHECK(stream_write(&s, buf, 60) == 0);
    stream_rewind(&s);
    CHECK(stream_read(&s, buf, 3) == 0);
    data = s.data;
    size = s.size;
    cap = s.capacity;
    /* Fits: no allocation, so the failing allocator is never asked. */
    bb_alloc_fail_after(0);
    CHECK(stream_write(&s, buf, cap - size) == 0 && s.size == cap);
    CHECK(stream_write(&s, buf, 1) == -1);
    CHECK(stream_write_u8(&s, 1) == -1);
    CHECK(stream_write_u16_le(&s, 1) == -1);
    CHECK(stream_write_u32_le(&s, 1) == -1);
    CHECK(stream_write_compact_size(&s, 1) == -1);
    CHECK(s.data == data && s.size == cap && s.capacity == cap && s.pos == 3);
    bb_alloc_fail_after(-1);

    /* A write of an impossible size is refused before any allocation. */
    CHECK(stream_write(&s, buf, SIZE_MAX) == -1 && s.size == cap);
    CHECK(stream_write(&s, buf, SIZE_MAX - s.size + 1) == -1 && s.size == cap);

    /* After failures the stream still grows and keeps what it held. */
    for (i = 0; i < 3; i++)
        CHECK(stream_write(&s, buf, 100) == 0);
    CHECK(s.size == cap + 300);
    for (i = 0; i < (int)s.size; i++)
        if (!CHECK(s.data[i] == 0x5a))
            break;
    stream_destroy(&s);
}

int main(int argc, char **argv)
{
    (void)argc;
    check_rng_init(argv[0]);
    test_empty();
    test_fixed_width();
    test_compact_size_vectors();
    test_compact_size_noncanonical();
    test_compact_size_random();
    test_bytes_and_view();
    test_views_and_seek();
    test_alloc_failure();
    return check_finish();
}
