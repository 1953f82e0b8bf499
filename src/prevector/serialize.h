/* Serialisation of prevectors to a byte_stream, in Bitcoin's format: the
 * element count as a CompactSize, then each element in a fixed number of bytes.
 *
 *     PREVECTOR_DEFINE_SERIALIZE_BYTES(NAME)
 *         for a prevector of a 1-byte T (unsigned char): elements are raw bytes,
 *         copied with one memcpy each way.
 *     PREVECTOR_DEFINE_SERIALIZE(NAME, T, ELEM_SIZE, ENCODE, DECODE)
 *         for any T: each element is ELEM_SIZE bytes, written by
 *         ENCODE(unsigned char *dst, const T *src) and read back by
 *         DECODE(T *dst, const unsigned char *src) (functions or macros).
 *
 * Either defines, after PREVECTOR_DEFINE(NAME, ...) in the same file:
 *
 *     int NAME_serialize(const NAME *v, byte_stream *s);
 *         appends v; 0, or -1 when memory runs out (stream unchanged).
 *     int NAME_unserialize(NAME *v, byte_stream *s);
 *         reads one serialised prevector into v, reusing v's storage (no
 *         allocation when v's capacity suffices); v's old contents are
 *         replaced. 0, or -1 when the count is malformed (truncated,
 *         non-canonical, above STREAM_MAX_SIZE or NAME_max_size()), when
 *         fewer bytes remain than the count needs, or when memory runs out.
 *         On -1 nothing has changed: v is exactly as it was and the stream's
 *         read position is where it was (the count is not consumed), and no
 *         byte past the stream's end has been read.
 *
 * Example, a struct of one int as 4 little-endian bytes:
 *
 *     typedef struct { int v; } item;
 *     static void item_init(item *x) { x->v = -1; }
 *     #define ITEM_ENC(dst, src) prevector_store_le32((dst), (uint32_t)(src)->v)
 *     #define ITEM_DEC(dst, src) ((dst)->v = (int)prevector_load_le32(src))
 *     PREVECTOR_DEFINE_INIT(item_vec, item, 28, item_init)
 *     PREVECTOR_DEFINE_SERIALIZE(item_vec, item, 4, ITEM_ENC, ITEM_DEC)
 */
#ifndef PREVECTOR_SERIALIZE_H
#define PREVECTOR_SERIALIZE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "prevector.h" /* relative: needs no -I for src/ */
#include "../util/stream.h"

/* Little-endian 32-bit store and load, for ENCODE/DECODE. */
PREVECTOR_FN void prevector_store_le32(unsigned char *p, uint32_t x)
{
    p[0] = (unsigned char)x;
    p[1] = (unsigned char)(x >> 8);
    p[2] = (unsigned char)(x >> 16);
    p[3] = (unsigned char)(x >> 24);
}

PREVECTOR_FN uint32_t prevector_load_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Private: reads the count and checks that its elements are all there, so
 * that the caller can resize and decode without further checks. On -1 the
 * stream's position is unchanged. */
PREVECTOR_FN int prevector_read_count_(byte_stream *s, size_t elem_size, size_t max,
                                       size_t *count)
{
    size_t start = s->pos, left = s->size - s->pos;
    uint64_t n;
    if (PREVECTOR_LIKELY(left != 0 && s->data[start] < 253)) {
        /* One-byte count (below 253, so canonical and below every limit):
         * the common case, decoded here without a call. */
        n = s->data[start];
        if (n > max || n > (left - 1) / elem_size)
            return -1;
        s->pos = start + 1;
        *count = (size_t)n;
        return 0;
    }
    if (stream_read_compact_size(s, &n) != 0)
        return -1;
    if (n > max || n > stream_remaining(s) / elem_size) {
        stream_seek(s, start);
        return -1;
    }
    *count = (size_t)n;
    return 0;
}

/* Private: the next n bytes, already checked to be there; advances pos. */
PREVECTOR_FN const unsigned char *prevector_take_(byte_stream *s, size_t n)
{
    const unsigned char *p = s->data + s->pos;
    s->pos += n;
    return p;
}

/* Private: room for the count and n elements of elem_size bytes; writes the
 * count and returns where the elements go, or NULL (stream unchanged). */
PREVECTOR_FN unsigned char *prevector_write_count_(byte_stream *s, size_t elem_size, size_t n)
{
    size_t len = stream_compact_size_len(n);
    unsigned char *p;
    if (n > (SIZE_MAX - len) / elem_size)
        return NULL;
    p = stream_write_view(s, len + n * elem_size);
    if (!p)
        return NULL;
    return p + stream_encode_compact_size(p, n);
}

#define PREVECTOR_DEFINE_SERIALIZE_BYTES(NAME)                                  \
    typedef char NAME##_elements_are_bytes_[sizeof(*((NAME *)0)->u.direct) == 1 \
                                            ? 1 : -1];                          \
    PREVECTOR_FN int NAME##_serialize(const NAME *v, byte_stream *s)            \
    {                                                                           \
        size_t n = NAME##_size(v);                                              \
        unsigned char *p = prevector_write_count_(s, 1, n);                     \
        if (!p)                                                                 \
            return -1;                                                          \
        if (n)                                                                  \
            memcpy(p, NAME##_cdata(v), n);                                      \
        return 0;                                                               \
    }                                                                           \
                                                                                \
    PREVECTOR_FN int NAME##_unserialize(NAME *v, byte_stream *s)                \
    {                                                                           \
        size_t start = s->pos, n;                                               \
        if (prevector_read_count_(s, 1, NAME##_max_size(), &n) != 0)            \
            return -1;                                                          \
        if (NAME##_resize_uninit(v, n) != 0) {                                  \
            stream_seek(s, start);                                              \
            return -1;                                                          \
        }                                                                       \
        if (n)                                                                  \
            memcpy(NAME##_data(v), prevector_take_(s, n), n);                  \
        return 0;                                                               \
    }

#define PREVECTOR_DEFINE_SERIALIZE(NAME, T, ELEM_SIZE, ENCODE, DECODE)          \
    PREVECTOR_FN int NAME##_serialize(const NAME *v, byte_stream *s)            \
    {                                                                           \
        size_t n = NAME##_size(v), i;                                           \
        const T *e = NAME##_cdata(v);                                           \
        unsigned char *p = prevector_write_count_(s, (ELEM_SIZE), n);           \
        if (!p)                                                                 \
            return -1;                                                          \
        for (i = 0; i < n; i++)                                                 \
            ENCODE(p + i * (ELEM_SIZE), &e[i]);                                 \
        return 0;                                                               \
    }                                                                           \
                                                                                \
    PREVECTOR_FN int NAME##_unserialize(NAME *v, byte_stream *s)                \
    {                                                                           \
        size_t start = s->pos, n, i;                                            \
        const unsigned char *p;                                                 \
        T *e;                                                                   \
        if (prevector_read_count_(s, (ELEM_SIZE), NAME##_max_size(), &n) != 0)  \
            return -1;                                                          \
        if (NAME##_resize_uninit(v, n) != 0) {                                  \
            stream_seek(s, start);                                              \
            return -1;                                                          \
        }                                                                       \
        p = prevector_take_(s, n * (ELEM_SIZE));                               \
        e = NAME##_data(v);                                                     \
        /* Four at a time through a local block: the decoder's stores cannot */ \
        /* alias the bytes still to be read, so the compiler may combine the */ \
        /* four into vector moves (4x faster for 4-byte ints, measured). */      \
        for (i = 0; n - i >= 4; i += 4) {                                       \
            T blk[4];                                                           \
            DECODE(&blk[0], p + i * (ELEM_SIZE));                               \
            DECODE(&blk[1], p + (i + 1) * (ELEM_SIZE));                         \
            DECODE(&blk[2], p + (i + 2) * (ELEM_SIZE));                         \
            DECODE(&blk[3], p + (i + 3) * (ELEM_SIZE));                         \
            memcpy(e + i, blk, sizeof blk);                                     \
        }                                                                       \
        for (; i < n; i++)                                                      \
            DECODE(&e[i], p + i * (ELEM_SIZE));                                 \
        return 0;                                                               \
    }

#endif
