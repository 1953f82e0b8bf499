#include "mempool/tx.h"

#include <string.h>

#include "crypto/sha256.h"
#include "util/alloc.h"

void mempool_tx_init(mempool_tx *tx) {
    memset(tx, 0, sizeof(*tx));
    tx->version = 2;
}

static void free_io(mempool_txin *vin, size_t n_in, mempool_txout *vout, size_t n_out) {
    size_t i;
    for (i = 0; i < n_in; i++) {
        mempool_script_destroy(&vin[i].script_sig);
        mempool_script_destroy(&vin[i].witness);
    }
    for (i = 0; i < n_out; i++) {
        mempool_script_destroy(&vout[i].script_pubkey);
    }
    bb_free(vin);
    bb_free(vout);
}

void mempool_tx_destroy(mempool_tx *tx) {
    free_io(tx->vin, tx->vin_count, tx->vout, tx->vout_count);
    mempool_tx_init(tx);
}

int mempool_tx_set_counts(mempool_tx *tx, size_t n_in, size_t n_out) {
    mempool_txin *vin = NULL;
    mempool_txout *vout = NULL;
    size_t i;
    if (n_in > 0 && (vin = bb_malloc_array(n_in, sizeof(*vin))) == NULL) {
        return -1;
    }
    if (n_out > 0 && (vout = bb_malloc_array(n_out, sizeof(*vout))) == NULL) {
        bb_free(vin);
        return -1;
    }
    for (i = 0; i < n_in; i++) {
        memset(&vin[i].prevout, 0, sizeof(vin[i].prevout));
        mempool_script_init(&vin[i].script_sig);
        mempool_script_init(&vin[i].witness);
        vin[i].sequence = 0xffffffffu;
    }
    for (i = 0; i < n_out; i++) {
        vout[i].value = 0;
        mempool_script_init(&vout[i].script_pubkey);
    }
    free_io(tx->vin, tx->vin_count, tx->vout, tx->vout_count);
    tx->vin = vin;
    tx->vin_count = n_in;
    tx->vout = vout;
    tx->vout_count = n_out;
    return 0;
}

static int write_script(byte_stream *s, const mempool_script *script) {
    size_t n = mempool_script_size(script);
    /* mempool_script_data wants a mutable vector; the bytes are only read. */
    mempool_script *m = (mempool_script *)script;
    if (stream_write_compact_size(s, n) != 0) {
        return -1;
    }
    return stream_write(s, mempool_script_data(m), n);
}

static int serialize(const mempool_tx *tx, byte_stream *s) {
    size_t i;
    if (stream_write_u32_le(s, (uint32_t)tx->version) != 0 ||
        stream_write_compact_size(s, tx->vin_count) != 0) {
        return -1;
    }
    for (i = 0; i < tx->vin_count; i++) {
        const mempool_txin *in = &tx->vin[i];
        if (stream_write(s, in->prevout.txid, 32) != 0 ||
            stream_write_u32_le(s, in->prevout.n) != 0 ||
            write_script(s, &in->script_sig) != 0 ||
            stream_write_u32_le(s, in->sequence) != 0) {
            return -1;
        }
    }
    if (stream_write_compact_size(s, tx->vout_count) != 0) {
        return -1;
    }
    for (i = 0; i < tx->vout_count; i++) {
        const mempool_txout *out = &tx->vout[i];
        if (stream_write_u64_le(s, (uint64_t)out->value) != 0 ||
            write_script(s, &out->script_pubkey) != 0) {
            return -1;
        }
    }
    return stream_write_u32_le(s, tx->locktime);
}

size_t mempool_tx_serialized_size(const mempool_tx *tx) {
    size_t n = 4 + stream_compact_size_len(tx->vin_count) + 4;
    size_t i, len;
    for (i = 0; i < tx->vin_count; i++) {
        len = mempool_script_size(&tx->vin[i].script_sig);
        n += 32 + 4 + stream_compact_size_len(len) + len + 4;
    }
    n += stream_compact_size_len(tx->vout_count);
    for (i = 0; i < tx->vout_count; i++) {
        len = mempool_script_size(&tx->vout[i].script_pubkey);
        n += 8 + stream_compact_size_len(len) + len;
    }
    return n;
}

int mempool_tx_serialize(const mempool_tx *tx, byte_stream *s) {
    /* Reserving the exact size first makes every write below succeed, so a
     * failure can only happen here, before anything was appended. */
    size_t need = mempool_tx_serialized_size(tx);
    if (need > SIZE_MAX - s->size || stream_reserve(s, s->size + need) != 0) {
        return -1;
    }
    return serialize(tx, s);
}

/* Bytes the witness data adds to the serialisation: 0 without any, else the
 * marker and flag and every input's stack (0 or 1 item). */
static size_t witness_size(const mempool_tx *tx) {
    size_t n = 2, i, len;
    int any = 0;
    for (i = 0; i < tx->vin_count; i++) {
        len = mempool_script_size(&tx->vin[i].witness);
        any |= len > 0;
        n += len > 0 ? 1 + stream_compact_size_len(len) + len : 1;
    }
    return any ? n : 0;
}

int mempool_tx_finalize(mempool_tx *tx, byte_stream *scratch) {
    unsigned char h[SHA256_OUTPUT_SIZE];
    size_t wit;
    stream_clear(scratch);
    if (mempool_tx_serialize(tx, scratch) != 0) {
        return -1;
    }
    /* weight = 4 x size + wit must fit in 32 bits. */
    wit = witness_size(tx);
    if (scratch->size > UINT32_MAX / 4 || wit > UINT32_MAX - 4 * scratch->size) {
        return -1;
    }
    sha256_hash(h, scratch->data, scratch->size);
    sha256_hash(tx->txid, h, sizeof(h));
    tx->size = (uint32_t)scratch->size;
    tx->weight = (uint32_t)(4 * scratch->size + wit);
    tx->vsize = tx->weight / 4 + (tx->weight % 4 != 0);
    return 0;
}

size_t mempool_malloc_usage(size_t n) {
    const size_t align = 2 * sizeof(size_t), least = 4 * sizeof(size_t);
    size_t c;
    if (n == 0) {
        return 0;
    }
    if (n > SIZE_MAX - sizeof(size_t) - align) {
        return SIZE_MAX;
    }
    c = (n + sizeof(size_t) + align - 1) / align * align;
    return c < least ? least : c;
}

size_t mempool_tx_dynamic_usage(const mempool_tx *tx) {
    size_t n = sizeof(*tx), i;
    n += mempool_malloc_usage(tx->vin_count * sizeof(mempool_txin));
    n += mempool_malloc_usage(tx->vout_count * sizeof(mempool_txout));
    for (i = 0; i < tx->vin_count; i++) {
        n += mempool_malloc_usage(mempool_script_allocated_memory(&tx->vin[i].script_sig));
        n += mempool_malloc_usage(mempool_script_allocated_memory(&tx->vin[i].witness));
    }
    for (i = 0; i < tx->vout_count; i++) {
        n += mempool_malloc_usage(mempool_script_allocated_memory(&tx->vout[i].script_pubkey));
    }
    return n;
}
