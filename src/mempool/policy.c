#include "mempool/policy.h"

#include <string.h>

#include "crypto/siphash.h"
#include "util/alloc.h"

#define OP_0 0x00
#define OP_1 0x51
#define OP_16 0x60
#define OP_RETURN 0x6a
#define MAX_SCRIPT_SIZE 10000

/* Core's CScript::IsWitnessProgram: a version opcode (OP_0, OP_1 .. OP_16), then one push of
 * 2 to 40 bytes, and nothing else. */
static int is_witness_program(const unsigned char *s, size_t len)
{
    if (len < 4 || len > 42)
        return 0;
    if (s[0] != OP_0 && (s[0] < OP_1 || s[0] > OP_16))
        return 0;
    return (size_t)s[1] + 2 == len;
}

/* ceil(rate * size / 1000), with Core's -1 for a negative rate that would round to 0;
 * saturating at INT64_MAX. */
static int64_t fee_for(int64_t rate, uint64_t size)
{
    uint64_t mag = rate < 0 ? (uint64_t)0 - (uint64_t)rate : (uint64_t)rate;
    uint64_t q = mag / 1000, r = mag % 1000, whole, part;
    if (size != 0 && q > (uint64_t)INT64_MAX / size)
        return rate < 0 ? INT64_MIN : INT64_MAX;
    whole = q * size;
    /* r * size / 1000 rounded away from zero for a positive rate (up), toward it for a
     * negative one (ceil of a negative number). */
    part = rate < 0 ? r * size / 1000 : (r * size + 999) / 1000;
    if (whole > (uint64_t)INT64_MAX - part)
        return rate < 0 ? INT64_MIN : INT64_MAX;
    whole += part;
    if (rate < 0)
        return whole == 0 && size != 0 ? -1 : -(int64_t)whole;
    return (int64_t)whole;
}

int64_t mempool_dust_threshold(const mempool_txout *out, int64_t rate)
{
    const unsigned char *s = mempool_script_cdata(&out->script_pubkey);
    size_t len = mempool_script_size(&out->script_pubkey);
    uint64_t size;
    if ((len > 0 && s[0] == OP_RETURN) || len > MAX_SCRIPT_SIZE)
        return 0;
    size = 8 + (len < 253 ? 1 : len <= 0xffff ? 3 : 5) + (uint64_t)len;
    size += is_witness_program(s, len) ? 32 + 4 + 1 + 107 / 4 + 4 : 32 + 4 + 1 + 107 + 4;
    return fee_for(rate, size);
}

int mempool_is_dust(const mempool_txout *out, int64_t rate)
{
    return out->value < mempool_dust_threshold(out, rate);
}

void mempool_ephemeral_init(mempool_ephemeral *e, uint64_t k0, uint64_t k1)
{
    memset(e, 0, sizeof(*e));
    e->k0 = k0;
    e->k1 = k1;
    mempool_table_init(&e->dust);
    mempool_table_init(&e->seen);
}

void mempool_ephemeral_free(mempool_ephemeral *e)
{
    mempool_table_free(&e->dust);
    mempool_table_free(&e->seen);
    bb_free(e->keys);
    bb_free(e->parent);
    e->keys = NULL;
    e->parent = NULL;
    e->nkeys = e->cap = 0;
}

/* The seen set's key index for txid, or SIZE_MAX. */
static size_t seen_find(const mempool_ephemeral *e, const unsigned char *txid, uint64_t h)
{
    size_t i;
    for (i = mempool_table_home(&e->seen, h); i != SIZE_MAX && mempool_table_full(&e->seen, i);
         i = mempool_table_next(&e->seen, i)) {
        const mempool_slot *s = &e->seen.s[i];
        if (s->hash == h && memcmp(e->keys[s->entry], txid, 32) == 0)
            return s->entry;
    }
    return SIZE_MAX;
}

/* Looks txid up in the package, then in the pool. */
static const mempool_tx *find_parent(const mempool *pool, const mempool_tx *const *package,
                                     size_t n, const unsigned char *txid)
{
    mempool_entry_info info;
    size_t i;
    for (i = 0; i < n; i++) {
        if (memcmp(package[i]->txid, txid, 32) == 0)
            return package[i];
    }
    return pool != NULL && mempool_lookup(pool, txid, &info) == 0 ? info.tx : NULL;
}

/* Room for one more key. 0 or -1. */
static int reserve_key(mempool_ephemeral *e)
{
    size_t c;
    const unsigned char **k;
    const mempool_tx **p;
    if (e->nkeys < e->cap)
        return 0;
    c = e->cap ? e->cap * 2 : 16;
    if ((k = bb_realloc(e->keys, c * sizeof(*k))) == NULL)
        return -1;
    e->keys = k;
    if ((p = bb_realloc(e->parent, c * sizeof(*p))) == NULL)
        return -1;
    e->parent = p;
    e->cap = c;
    return 0;
}

int mempool_check_ephemeral_spends(mempool_ephemeral *e, const mempool *pool,
                                   const mempool_tx *const *package, size_t n, int64_t rate,
                                   size_t *child)
{
    size_t t, k, o;
    for (t = 0; t < n; t++) {
        const mempool_tx *tx = package[t];
        mempool_table_clear(&e->dust);
        mempool_table_clear(&e->seen);
        e->nkeys = 0;
        /* The dust of each distinct parent. */
        for (k = 0; k < tx->vin_count; k++) {
            const unsigned char *ptxid = tx->vin[k].prevout.txid;
            uint64_t h = siphash_uint256(e->k0, e->k1, ptxid);
            const mempool_tx *parent;
            size_t key;
            if (seen_find(e, ptxid, h) != SIZE_MAX)
                continue;
            parent = find_parent(pool, package, n, ptxid);
            if (reserve_key(e) != 0 || mempool_table_reserve(&e->seen, e->seen.used + 1) != 0 ||
                (parent != NULL &&
                 mempool_table_reserve(&e->dust, e->dust.used + parent->vout_count) != 0))
                return -1;
            key = e->nkeys++;
            e->keys[key] = ptxid;
            e->parent[key] = parent;
            for (o = 0; parent != NULL && o < parent->vout_count; o++) {
                if (mempool_is_dust(&parent->vout[o], rate))
                    mempool_table_put(&e->dust, siphash_uint256_extra(e->k0, e->k1, ptxid,
                                                                      (uint32_t)o),
                                      (uint32_t)key, (uint32_t)o);
            }
            mempool_table_put(&e->seen, h, (uint32_t)key, 0);
        }
        /* What the transaction spends is no longer unspent. */
        for (k = 0; k < tx->vin_count && e->dust.used > 0; k++) {
            const mempool_outpoint *po = &tx->vin[k].prevout;
            uint64_t h = siphash_uint256_extra(e->k0, e->k1, po->txid, po->n);
            size_t i;
            for (i = mempool_table_home(&e->dust, h); mempool_table_full(&e->dust, i);
                 i = mempool_table_next(&e->dust, i)) {
                const mempool_slot *s = &e->dust.s[i];
                if (s->hash == h && s->aux == po->n &&
                    memcmp(e->keys[s->entry], po->txid, 32) == 0) {
                    mempool_table_erase_at(&e->dust, i);
                    break;
                }
            }
        }
        if (e->dust.used > 0) {
            if (child != NULL)
                *child = t;
            return 1;
        }
    }
    return 0;
}
