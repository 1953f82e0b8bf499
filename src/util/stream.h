/* A growable byte buffer with a read cursor: what serialisation writes to and
 * reads from (prevectors, transactions).
 *
 * Writes append at the end (data[0 .. size)); reads consume from pos, which
 * never passes size. Integers are little-endian, as Bitcoin serialises them.
 * Counts use Bitcoin's CompactSize: a value below 253 is one byte; otherwise a
 * marker byte 253, 254 or 255 followed by a 2-, 4- or 8-byte little-endian
 * value. Only the shortest (canonical) form is accepted on read.
 *
 * Every function that can fail returns 0 or -1 and leaves the stream exactly
 * as it was on failure: a write that cannot allocate appends nothing, a read
 * that would run past the end (or meets a malformed count) consumes nothing.
 * The fields are public so that hot loops may read data[pos .. size) in place
 * and then advance pos past what they consumed (never beyond size); anything
 * else changes them only through the functions below. A zero-initialised struct is a valid empty
 * stream, as is one set up by stream_init. */
#ifndef UTIL_STREAM_H
#define UTIL_STREAM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    unsigned char *data; /* heap buffer of capacity bytes, or NULL while capacity is 0 */
    size_t size;         /* bytes written */
    size_t capacity;     /* bytes allocated */
    size_t pos;          /* read cursor, pos <= size */
} byte_stream;

/* Largest CompactSize count stream_read_compact_size accepts (32 MiB), as
 * Bitcoin's MAX_SIZE: a count is a length that a reader is about to allocate,
 * so a hostile stream must not be able to ask for more. */
#define STREAM_MAX_SIZE 0x02000000

/* An empty stream that owns nothing. */
void stream_init(byte_stream *s);

/* Frees the buffer; s is then empty and may be used or init'ed again. */
void stream_destroy(byte_stream *s);

/* size = pos = 0; keeps the buffer and its capacity for reuse. */
void stream_clear(byte_stream *s);

/* pos = 0: read again from the start. */
void stream_rewind(byte_stream *s);

/* Bytes left to read: size - pos. */
size_t stream_remaining(const byte_stream *s);

/* Makes capacity at least n bytes (never shrinks). 0, or -1 when memory runs
 * out (stream unchanged). */
int stream_reserve(byte_stream *s, size_t n);

/* Appends n bytes from data (data may be NULL when n is 0; it may point into
 * s's own bytes). 0, or -1 when memory runs out or size + n overflows (stream
 * unchanged). */
int stream_write(byte_stream *s, const void *data, size_t n);

/* Appends n bytes left for the caller to fill and returns a pointer to them,
 * or NULL when memory runs out or size + n overflows (stream unchanged). The
 * pointer is valid until the next write, clear or destroy. Lets a serialiser
 * encode in place after one capacity check. */
unsigned char *stream_write_view(byte_stream *s, size_t n);

/* Copies the next n bytes to out and advances pos. 0, or -1 when fewer than n
 * bytes remain (pos unchanged, out untouched). */
int stream_read(byte_stream *s, void *out, size_t n);

/* Returns a pointer to the next n bytes in place and advances pos past them,
 * or NULL when fewer than n remain (pos unchanged). The pointer is valid until
 * the next write, clear or destroy. n == 0 returns a non-NULL pointer only
 * when the stream has a buffer; use stream_remaining to test for room. */
const unsigned char *stream_read_view(byte_stream *s, size_t n);

/* Moves the read cursor to pos (e.g. back to a position saved earlier).
 * 0, or -1 when pos > size (cursor unchanged). */
int stream_seek(byte_stream *s, size_t pos);

/* Fixed-width little-endian integers: 0, or -1 as stream_write/stream_read. */
int stream_write_u8(byte_stream *s, uint8_t v);
int stream_write_u16_le(byte_stream *s, uint16_t v);
int stream_write_u32_le(byte_stream *s, uint32_t v);
int stream_write_u64_le(byte_stream *s, uint64_t v);
int stream_read_u8(byte_stream *s, uint8_t *v);
int stream_read_u16_le(byte_stream *s, uint16_t *v);
int stream_read_u32_le(byte_stream *s, uint32_t *v);
int stream_read_u64_le(byte_stream *s, uint64_t *v);

/* Appends n in CompactSize form (shortest encoding; any uint64_t). 0, or -1
 * when memory runs out (stream unchanged). */
int stream_write_compact_size(byte_stream *s, uint64_t n);

/* Bytes that stream_write_compact_size(n) appends: 1, 3, 5 or 9. */
size_t stream_compact_size_len(uint64_t n);

/* Writes n's CompactSize encoding to out (room for 9 bytes, or for
 * stream_compact_size_len(n)); returns the length written. */
size_t stream_encode_compact_size(unsigned char *out, uint64_t n);

/* Reads a CompactSize into *n. -1 (pos unchanged, *n untouched) when the
 * stream is truncated, the encoding is not the shortest one, or the value
 * exceeds STREAM_MAX_SIZE. */
int stream_read_compact_size(byte_stream *s, uint64_t *n);

#ifdef __cplusplus
}
#endif

#endif
