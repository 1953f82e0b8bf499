#include "util/stream.h"

#include "util/alloc.h"

#include <string.h>

/* Byte-at-a-time loads and stores: endian-independent, and compilers turn
 * them into single moves on little-endian targets. */
static void put_le(unsigned char *p, uint64_t v, size_t bytes)
{
    size_t i;
    for (i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, size_t bytes)
{
    uint64_t v = 0;
    size_t i;
    for (i = 0; i < bytes; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

void stream_init(byte_stream *s)
{
    s->data = NULL;
    s->size = 0;
    s->capacity = 0;
    s->pos = 0;
}

void stream_destroy(byte_stream *s)
{
    bb_free(s->data);
    stream_init(s);
}

void stream_clear(byte_stream *s)
{
    s->size = 0;
    s->pos = 0;
}

void stream_rewind(byte_stream *s)
{
    s->pos = 0;
}

size_t stream_remaining(const byte_stream *s)
{
    return s->size - s->pos;
}

int stream_reserve(byte_stream *s, size_t n)
{
    unsigned char *p;
    if (n <= s->capacity)
        return 0;
    p = bb_realloc(s->data, n);
    if (!p)
        return -1;
    s->data = p;
    s->capacity = n;
    return 0;
}

/* Room for n more bytes, growing geometrically so that a long run of small
 * writes costs amortised O(1) each. */
static int stream_room(byte_stream *s, size_t n)
{
    size_t need, cap;
    if (n <= s->capacity - s->size)
        return 0;
    if (n > SIZE_MAX - s->size)
        return -1;
    need = s->size + n;
    cap = s->capacity < 64 ? 64 : s->capacity;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    if (stream_reserve(s, cap) == 0)
        return 0;
    return stream_reserve(s, need); /* the doubling may be what failed */
}

int stream_write(byte_stream *s, const void *data, size_t n)
{
    /* data may lie in s's own buffer, which growing may move: keep its offset
     * (compared as integers: pointers into different objects may not be). */
    uintptr_t d = (uintptr_t)data, b = (uintptr_t)s->data;
    int inside = s->data && d >= b && d < b + s->capacity;
    size_t off = inside ? (size_t)(d - b) : 0;
    if (n == 0)
        return 0;
    if (stream_room(s, n) != 0)
        return -1;
    memmove(s->data + s->size, inside ? s->data + off : (const unsigned char *)data, n);
    s->size += n;
    return 0;
}

unsigned char *stream_write_view(byte_stream *s, size_t n)
{
    unsigned char *p;
    if (stream_room(s, n) != 0)
        return NULL;
    if (!s->data && stream_reserve(s, 64) != 0)
        return NULL; /* n == 0 on a stream that never allocated: NULL means failure */
    p = s->data + s->size;
    s->size += n;
    return p;
}

int stream_seek(byte_stream *s, size_t pos)
{
    if (pos > s->size)
        return -1;
    s->pos = pos;
    return 0;
}

int stream_read(byte_stream *s, void *out, size_t n)
{
    if (n > s->size - s->pos)
        return -1;
    if (n)
        memcpy(out, s->data + s->pos, n);
    s->pos += n;
    return 0;
}

const unsigned char *stream_read_view(byte_stream *s, size_t n)
{
    const unsigned char *p;
    if (n > s->size - s->pos || !s->data)
        return NULL;
    p = s->data + s->pos;
    s->pos += n;
    return p;
}

static int write_le(byte_stream *s, uint64_t v, size_t bytes)
{
    if (stream_room(s, bytes) != 0)
        return -1;
    put_le(s->data + s->size, v, bytes);
    s->size += bytes;
    return 0;
}

int stream_write_u8(byte_stream *s, uint8_t v)
{
    return write_le(s, v, 1);
}

int stream_write_u16_le(byte_stream *s, uint16_t v)
{
    return write_le(s, v, 2);
}

int stream_write_u32_le(byte_stream *s, uint32_t v)
{
    return write_le(s, v, 4);
}

int stream_write_u64_le(byte_stream *s, uint64_t v)
{
    return write_le(s, v, 8);
}

static int read_le(byte_stream *s, uint64_t *v, size_t bytes)
{
    if (bytes > s->size - s->pos)
        return -1;
    *v = get_le(s->data + s->pos, bytes);
    s->pos += bytes;
    return 0;
}

int stream_read_u8(byte_stream *s, uint8_t *v)
{
    uint64_t x;
    if (read_le(s, &x, 1) != 0)
        return -1;
    *v = (uint8_t)x;
    return 0;
}

int stream_read_u16_le(byte_stream *s, uint16_t *v)
{
    uint64_t x;
    if (read_le(s, &x, 2) != 0)
        return -1;
    *v = (uint16_t)x;
    return 0;
}

int stream_read_u32_le(byte_stream *s, uint32_t *v)
{
    uint64_t x;
    if (read_le(s, &x, 4) != 0)
        return -1;
    *v = (uint32_t)x;
    return 0;
}

int stream_read_u64_le(byte_stream *s, uint64_t *v)
{
    return read_le(s, v, 8);
}

size_t stream_compact_size_len(uint64_t n)
{
    if (n < 253)
        return 1;
    if (n <= 0xffff)
        return 3;
    if (n <= 0xffffffff)
        return 5;
    return 9;
}

size_t stream_encode_compact_size(unsigned char *out, uint64_t n)
{
    size_t len = stream_compact_size_len(n);
    if (len == 1) {
        out[0] = (unsigned char)n;
    } else {
        out[0] = (unsigned char)(len == 3 ? 253 : len == 5 ? 254 : 255);
        put_le(out + 1, n, len - 1);
    }
    return len;
}

int stream_write_compact_size(byte_stream *s, uint64_t n)
{
    if (stream_room(s, stream_compact_size_len(n)) != 0)
        return -1;
    s->size += stream_encode_compact_size(s->data + s->size, n);
    return 0;
}

int stream_read_compact_size(byte_stream *s, uint64_t *n)
{
    size_t left = s->size - s->pos;
    const unsigned char *p;
    size_t len;
    uint64_t v;
    if (left == 0)
        return -1; /* also keeps a NULL data pointer out of the arithmetic */
    p = s->data + s->pos;
    if (p[0] < 253) {
        len = 1;
        v = p[0];
    } else {
        len = p[0] == 253 ? 3 : p[0] == 254 ? 5 : 9;
        if (left < len)
            return -1;
        v = get_le(p + 1, len - 1);
        /* Canonical: the value must not fit a shorter form. */
        if (stream_compact_size_len(v) != len)
            return -1;
    }
    if (v > STREAM_MAX_SIZE)
        return -1;
    s->pos += len;
    *n = v;
    return 0;
}
