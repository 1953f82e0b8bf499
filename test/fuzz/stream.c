/* Fuzz target: reading untrusted bytes through the byte stream (util/stream.h): CompactSize
 * counts, fixed-width integers, views, seeks, and prevector deserialisation (prevector/
 * serialize.h) for four element kinds, with allocation failure injected where the input says.
 *
 * Input: up to 32 operations (one byte each, then a byte of argument for a seek or a view),
 * then the stream's bytes (the rest). Each read is checked against a decoding written here
 * from the format: the value, the bytes consumed, and on refusal that nothing moved. A
 * prevector read must accept exactly the counts the bytes left can fill, allocate at most
 * once and only what the count needs (so a hostile count never allocates more than the input
 * holds), and on refusal leave the vector as it was. */
#include "fuzz.h"

#include "../prevector_kinds.h"
#include "util/alloc.h"
#include "util/stream.h"

#include <string.h>

#define MAX_OPS 32

/* The format's CompactSize: 1 (value and length set), or 0 when truncated, not in its
 * shortest form, or above STREAM_MAX_SIZE. */
static int ref_compact(const unsigned char *p, size_t left, uint64_t *value, size_t *len)
{
    uint64_t v = 0;
    size_t n, i;
    if (left == 0)
        return 0;
    n = p[0] < 253 ? 0 : p[0] == 253 ? 2 : p[0] == 254 ? 4 : 8;
    if (left < 1 + n)
        return 0;
    if (n == 0) {
        v = p[0];
    } else {
        for (i = 0; i < n; i++)
            v |= (uint64_t)p[1 + i] << (8 * i);
        if ((n == 2 && v < 253) || (n == 4 && v <= 0xffff) || (n == 8 && v <= 0xffffffff))
            return 0;
    }
    if (v > STREAM_MAX_SIZE)
        return 0;
    *value = v;
    *len = 1 + n;
    return 1;
}

/* One unserialize of a KIND prevector (ELEM bytes per element) at the stream's position,
 * checked as the header says; inject: every allocation fails. */
#define CHECK_UNSERIALIZE(KIND, T, ELEM)                                                   \
    static void unserialize_##KIND(KIND *v, byte_stream *s, int inject)                    \
    {                                                                                      \
        size_t pos = s->pos, old_size = KIND##_size(v), len = 0, count = 0;               \
        size_t old_cap = KIND##_capacity(v), old_bytes = old_size * sizeof(T);             \
        const T *old_data = KIND##_cdata(v);                                               \
        unsigned long allocs;                                                              \
        uint64_t n = 0;                                                                    \
        int valid, rc;                                                                     \
        unsigned char *before = malloc(old_bytes + 1);                                     \
        if (!before)                                                                       \
            return;                                                                        \
        memcpy(before, old_data, old_bytes);                                               \
        valid = ref_compact(s->data + pos, s->size - pos, &n, &len)                        \
                && n <= KIND##_max_size() && n <= (s->size - pos - len) / (ELEM);          \
        count = (size_t)n;                                                                 \
        allocs = bb_alloc_count();                                                         \
        if (inject)                                                                        \
            bb_alloc_fail_after(0);                                                        \
        rc = KIND##_unserialize(v, s);                                                     \
        bb_alloc_fail_after(-1);                                                           \
        if (valid && !(inject && count > old_cap)) {                                       \
            byte_stream again;                                                             \
            FUZZ_CHECK(rc == 0);                                                           \
            FUZZ_CHECK(s->pos == pos + len + count * (ELEM));                              \
            FUZZ_CHECK(KIND##_size(v) == count);                                           \
            /* At most one allocation, of exactly what the count needs. */                 \
            FUZZ_CHECK(bb_alloc_count() - allocs == (count > old_cap));                    \
            FUZZ_CHECK(count <= old_cap || KIND##_allocated_memory(v) == count * sizeof(T)); \
            stream_init(&again);                                                           \
            FUZZ_CHECK(KIND##_serialize(v, &again) == 0);                                  \
            FUZZ_CHECK(again.size == s->pos - pos);                                        \
            FUZZ_CHECK(memcmp(again.data, s->data + pos, again.size) == 0);                \
            stream_destroy(&again);                                                        \
        } else {                                                                           \
            FUZZ_CHECK(rc == -1);                                                          \
            FUZZ_CHECK(s->pos == pos);                                                     \
            FUZZ_CHECK(bb_alloc_count() == allocs);                                        \
            FUZZ_CHECK(KIND##_size(v) == old_size && KIND##_capacity(v) == old_cap);       \
            FUZZ_CHECK(KIND##_cdata(v) == old_data);                                       \
            FUZZ_CHECK(memcmp(KIND##_cdata(v), before, old_bytes) == 0);                   \
        }                                                                                  \
        free(before);                                                                      \
    }

CHECK_UNSERIALIZE(pv_bytes, unsigned char, 1)
CHECK_UNSERIALIZE(pv_nt, nontrivial_elem, 4)
CHECK_UNSERIALIZE(pv_u16, uint16_t, 2)
CHECK_UNSERIALIZE(pv_hash, pv_hash32, 32)

/* A fixed-width little-endian read of width bytes against the bytes themselves. */
static void read_int(byte_stream *s, size_t width)
{
    size_t pos = s->pos, i;
    uint64_t want = 0, got = 0;
    uint8_t u8 = 0;
    uint16_t u16 = 0;
    uint32_t u32 = 0;
    int rc, fits = s->size - pos >= width;
    for (i = 0; fits && i < width; i++)
        want |= (uint64_t)s->data[pos + i] << (8 * i);
    switch (width) {
    case 1:
        rc = stream_read_u8(s, &u8);
        got = u8;
        break;
    case 2:
        rc = stream_read_u16_le(s, &u16);
        got = u16;
        break;
    case 4:
        rc = stream_read_u32_le(s, &u32);
        got = u32;
        break;
    default:
        rc = stream_read_u64_le(s, &got);
        break;
    }
    FUZZ_CHECK(rc == (fits ? 0 : -1));
    FUZZ_CHECK(s->pos == pos + (fits ? width : 0));
    FUZZ_CHECK(!fits || got == want);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in;
    uint8_t ops[MAX_OPS], args[MAX_OPS];
    size_t nops, i, len;
    const uint8_t *bytes;
    byte_stream s;
    pv_bytes vb;
    pv_nt vn;
    pv_u16 vu;
    pv_hash vh;

    fuzz_init(&in, data, size);
    nops = (size_t)fuzz_below(&in, MAX_OPS + 1);
    for (i = 0; i < nops; i++) {
        ops[i] = fuzz_u8(&in);
        args[i] = fuzz_u8(&in);
    }
    bytes = fuzz_bytes(&in, in.left, &len);
    stream_init(&s);
    /* Always a buffer, so that s.data + s.pos is never arithmetic on NULL. */
    if (stream_reserve(&s, len + 1) != 0 || stream_write(&s, bytes, len) != 0) {
        stream_destroy(&s);
        return 0;
    }
    pv_bytes_init(&vb);
    pv_nt_init(&vn);
    pv_u16_init(&vu);
    pv_hash_init(&vh);

    for (i = 0; i < nops; i++) {
        int inject = ops[i] >> 7;
        size_t pos = s.pos, want_len = 0;
        uint64_t want = 0, got = 0;
        const unsigned char *view;
        int valid;
        switch (ops[i] % 11) {
        case 0:
            valid = ref_compact(s.data + pos, s.size - pos, &want, &want_len);
            FUZZ_CHECK(stream_read_compact_size(&s, &got) == (valid ? 0 : -1));
            FUZZ_CHECK(s.pos == pos + want_len);
            FUZZ_CHECK(!valid || got == want);
            break;
        case 1:
        case 2:
        case 3:
        case 4:
            read_int(&s, (size_t)1 << (ops[i] % 11 - 1));
            break;
        case 5:
            unserialize_pv_bytes(&vb, &s, inject);
            break;
        case 6:
            unserialize_pv_nt(&vn, &s, inject);
            break;
        case 7:
            unserialize_pv_u16(&vu, &s, inject);
            break;
        case 8:
            unserialize_pv_hash(&vh, &s, inject);
            break;
        case 9: /* anywhere, also one past the end (refused) */
            want = (uint64_t)args[i] * (s.size + 2) / 256;
            FUZZ_CHECK(stream_seek(&s, (size_t)want) == (want <= s.size ? 0 : -1));
            FUZZ_CHECK(s.pos == (want <= s.size ? want : pos));
            break;
        default:
            view = stream_read_view(&s, args[i]);
            FUZZ_CHECK((view != NULL) == (args[i] <= s.size - pos && s.data != NULL));
            FUZZ_CHECK(s.pos == pos + (view ? args[i] : 0));
            FUZZ_CHECK(!view || view == s.data + pos);
            break;
        }
        FUZZ_CHECK(s.pos <= s.size && stream_remaining(&s) == s.size - s.pos);
    }
    pv_bytes_destroy(&vb);
    pv_nt_destroy(&vn);
    pv_u16_destroy(&vu);
    pv_hash_destroy(&vh);
    stream_destroy(&s);
    return 0;
}
