#include "mempool/mempool_json.h"

#include <stdlib.h>

#include "util/alloc.h"

/* txid's display hex (bytes reversed) into out (65 bytes). */
static void txid_hex(const unsigned char txid[32], char out[65])
{
    static const char digits[] = "0123456789abcdef";
    int i;
    for (i = 0; i < 32; i++) {
        out[2 * i] = digits[txid[31 - i] >> 4];
        out[2 * i + 1] = digits[txid[31 - i] & 15];
    }
    out[64] = '\0';
}

/* Satoshi as coins. */
static json_t *amount(int64_t sat)
{
    return json_real((double)sat / 1e8);
}

/* A member that takes the reference to v; -1 when v is NULL or memory runs out. */
static int put(json_t *o, const char *key, json_t *v)
{
    return v != NULL && json_object_set_new(o, key, v) == 0 ? 0 : -1;
}

/* An array of the txids of txs[0 .. n). */
static json_t *txid_array(const mempool_tx **txs, size_t n)
{
    json_t *a = json_array();
    char hex[65];
    size_t i;
    for (i = 0; a != NULL && i < n; i++) {
        txid_hex(txs[i]->txid, hex);
        if (json_array_append_new(a, json_string(hex)) != 0) {
            json_decref(a);
            a = NULL;
        }
    }
    return a;
}

/* Core's entryToJSON, less what the pool does not know (see mempool_json.h). */
static json_t *entry_json(mempool *pool, const mempool_tx *tx, const mempool_tx **buf,
                          size_t cap)
{
    mempool_entry_info in;
    json_t *o = json_object(), *fees = json_object();
    size_t np, nc;
    int rc;
    if (o == NULL || fees == NULL || mempool_lookup(pool, tx->txid, &in) != 0) {
        json_decref(o);
        json_decref(fees);
        return NULL;
    }
    rc = put(o, "vsize", json_integer((json_int_t)in.size)) |
         put(o, "weight", json_integer((json_int_t)tx->weight)) |
         put(o, "descendantcount", json_integer((json_int_t)in.descendant_count)) |
         put(o, "descendantsize", json_integer((json_int_t)in.descendant_size)) |
         put(o, "ancestorcount", json_integer((json_int_t)in.ancestor_count)) |
         put(o, "ancestorsize", json_integer((json_int_t)in.ancestor_size)) |
         put(fees, "base", amount(in.fee)) | put(fees, "modified", amount(in.fee)) |
         put(fees, "ancestor", amount(in.ancestor_fees)) |
         put(fees, "descendant", amount(in.descendant_fees));
    rc |= put(o, "fees", json_incref(fees));
    json_decref(fees);
    mempool_parents(pool, tx->txid, buf, cap, &np);
    rc |= put(o, "depends", txid_array(buf, np < cap ? np : cap));
    mempool_children(pool, tx->txid, buf, cap, &nc);
    rc |= put(o, "spentby", txid_array(buf, nc < cap ? nc : cap));
    if (rc != 0) {
        json_decref(o);
        return NULL;
    }
    return o;
}

json_t *mempool_to_json(mempool *pool)
{
    size_t n = mempool_count(pool), i;
    const mempool_tx **txs = bb_malloc_array(n ? n : 1, sizeof(*txs));
    const mempool_tx **buf = bb_malloc_array(n ? n : 1, sizeof(*buf));
    json_t *o = json_object();
    char hex[65];
    if (txs == NULL || buf == NULL || o == NULL) {
        bb_free(txs);
        bb_free(buf);
        json_decref(o);
        return NULL;
    }
    mempool_list(pool, txs, n);
    for (i = 0; i < n; i++) {
        json_t *e = entry_json(pool, txs[i], buf, n);
        txid_hex(txs[i]->txid, hex);
        if (put(o, hex, e) != 0) {
            json_decref(o);
            o = NULL;
            break;
        }
    }
    bb_free(txs);
    bb_free(buf);
    return o;
}
