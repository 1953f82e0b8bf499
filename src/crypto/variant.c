/* The variant-set mechanism (variant.h, variant_impl.h): verdicts, installing, listing,
 * descriptions, one lock; and the helpers the sets' self-tests share. Knows no primitive:
 * each set brings its table and functions. */
#include <string.h>

#include "crypto/cpuid.h"
#include "crypto/variant.h"
#include "crypto/variant_impl.h"
#include "util/spinlock.h"

/* One lock for every set: the self-tests share static buffers within a set, the verdicts
 * and descriptions are shared state, and a program's first detection may come from several
 * threads at once. Held for the self-tests (about a millisecond, once) at most. */
static char variant_lock;

/* Whether s's variant i is usable: in the table, allowed by the CPU, self-tested (cached).
 * Under the lock. */
static int usable(const crypto_variant_set *s, size_t i)
{
    signed char *v = &s->state->verdict[i];
    if (i == 0)
        return 1;
    if (i >= s->count)
        return 0;
    if (*v == 0)
        *v = s->selftest && cpu_features_supports(s->variants[i].isa)
             && s->selftest(&s->variants[i]) ? 1 : -1;
    return *v > 0;
}

/* The description of use when the set gives none of its own. */
static void describe_names(const crypto_variant_set *s, unsigned use, char *buf, size_t cap)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 1; i < s->count; i++) {
        size_t n = strlen(s->variants[i].name);
        if (!(use & 1u << i) || at + n + 2 > cap)
            continue;
        if (at > 0)
            buf[at++] = ',';
        memcpy(buf + at, s->variants[i].name, n + 1);
        at += n;
    }
    if (at == 0)
        strcpy(buf, "standard");
}

/* Installs use (all usable) described in desc, one buffer per combination: its text is
 * written the first time and never changes (the verdicts are cached), so a description
 * returned earlier stays true to its text. When desc is the one in use, that combination is
 * installed already and nothing is written at all, so a repeated detection cannot disturb a
 * thread that is running the primitive. */
static void install(const crypto_variant_set *s, unsigned use, char *desc)
{
    if (s->state->current == desc)
        return;
    if (desc[0] == '\0') {
        if (s->describe)
            s->describe(use, desc, CRYPTO_VARIANT_DESC_SIZE);
        else
            describe_names(s, use, desc, CRYPTO_VARIANT_DESC_SIZE);
    }
    if (s->install)
        s->install(use);
    s->state->current = desc;
}

/* The automatic choice, decided once: the set's own, or the last usable variant alone
 * (self-testing from the end of the table down, so only the winner's test runs). */
static unsigned auto_choice(const crypto_variant_set *s)
{
    crypto_variant_state *st = s->state;
    if (!st->auto_decided) {
        unsigned best = 0;
        if (s->choose) {
            best = s->choose(s);
        } else {
            for (size_t i = s->count; i-- > 1 && best == 0;)
                if (usable(s, i))
                    best = 1u << i;
        }
        st->auto_use = best;
        st->auto_decided = 1;
    }
    return st->auto_use;
}

static int force_unlocked(const crypto_variant_set *s, const char *name)
{
    if (strcmp(name, "auto") == 0) {
        install(s, auto_choice(s), s->state->auto_desc);
        return 0;
    }
    for (size_t i = 0; i < s->count; i++) {
        if (strcmp(name, s->variants[i].name) != 0)
            continue;
        if (!usable(s, i))
            return -1;
        install(s, i == 0 ? 0u : 1u << i, s->state->forced_desc[i]);
        return 0;
    }
    return -1;
}

/* ---- the public functions ------------------------------------------------------------ */

const char *crypto_variant_set_family(const crypto_variant_set *s)
{
    return s ? s->family : "";
}

const char *crypto_variant_set_label(const crypto_variant_set *s)
{
    return s ? s->label : "";
}

size_t crypto_variant_list(const crypto_variant_set *s, const char **names, size_t cap)
{
    size_t count = 0;
    if (s == NULL)
        return 0;
    if (names == NULL)
        cap = 0;
    bb_spin_lock(&variant_lock);
    for (size_t i = 0; i < s->count; i++) {
        if (!usable(s, i))
            continue;
        if (count < cap)
            names[count] = s->variants[i].name;
        count++;
    }
    bb_spin_unlock(&variant_lock);
    return count;
}

int crypto_variant_force(const crypto_variant_set *s, const char *name)
{
    int r;
    if (s == NULL || name == NULL)
        return -1;
    bb_spin_lock(&variant_lock);
    r = force_unlocked(s, name);
    bb_spin_unlock(&variant_lock);
    return r;
}

const char *crypto_variant_current(const crypto_variant_set *s)
{
    const char *d;
    if (s == NULL)
        return "";
    bb_spin_lock(&variant_lock);
    d = s->state->current ? s->state->current : "standard";
    bb_spin_unlock(&variant_lock);
    return d;
}

/* ---- for the sets and the tests -------------------------------------------------------- */

const char *crypto_variant_autodetect(const crypto_variant_set *s)
{
    const char *d;
    bb_spin_lock(&variant_lock);
    force_unlocked(s, "auto");
    d = s->state->current;
    bb_spin_unlock(&variant_lock);
    return d;
}

int crypto_variant_selftest(const crypto_variant_set *s, const crypto_variant *v)
{
    int r;
    bb_spin_lock(&variant_lock);
    r = s->selftest ? s->selftest(v) : 0;
    bb_spin_unlock(&variant_lock);
    return r;
}

int crypto_variant_usable(const crypto_variant_set *s, size_t i)
{
    return usable(s, i);
}

const void *crypto_variant_last_in_use(const crypto_variant_set *s, unsigned use)
{
    size_t last = 0;
    for (size_t i = 1; i < s->count; i++)
        if (use & 1u << i)
            last = i;
    return s->variants[last].impl;
}

size_t crypto_variant_built(const crypto_variant_set *s, const char **names, size_t cap)
{
    if (s == NULL)
        return 0;
    for (size_t i = 0; i < s->count && names != NULL && i < cap; i++)
        names[i] = s->variants[i].name;
    return s->count;
}

int crypto_variant_cpu_runs(const crypto_variant_set *s, const char *name)
{
    for (size_t i = 0; s != NULL && name != NULL && i < s->count; i++)
        if (strcmp(name, s->variants[i].name) == 0)
            return cpu_features_supports(s->variants[i].isa);
    return 0;
}

void crypto_variant_test_fill(unsigned char *buf, size_t len, uint32_t seed)
{
    uint32_t x = seed;
    for (size_t i = 0; i < len; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        buf[i] = (unsigned char)x;
    }
}

static const unsigned char selftest_counts[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32,
                                                33, 67};
#define SELFTEST_MAX_COUNT 67
#define SELFTEST_MAX_BLOCK 128

int crypto_variant_test_blocks(const crypto_variant_blocks_test *t, const void *ref, const void *got)
{
    /* static: up to 8.8 KB, and self-tests run under the lock, one at a time */
    static unsigned char raw[(SELFTEST_MAX_COUNT + 2) * SELFTEST_MAX_BLOCK + 1];
    unsigned char *in = raw + 1;   /* unaligned */
    unsigned char s_ref[CRYPTO_VARIANT_TEST_STATE_MAX], s_got[CRYPTO_VARIANT_TEST_STATE_MAX];
    size_t b = t->block;

    if (b == 0 || b > SELFTEST_MAX_BLOCK || t->state_size > CRYPTO_VARIANT_TEST_STATE_MAX)
        return 0;
    memset(in, 0, b);
    memset(in + b, 0xff, b);
    crypto_variant_test_fill(in + 2 * b, SELFTEST_MAX_COUNT * b, 0x9e3779b9);
    memcpy(s_ref, t->iv, t->state_size);
    for (size_t k = 0; k < sizeof selftest_counts; k++) {
        size_t n = selftest_counts[k];
        /* the 1-block call hashes the zero block; the others start at the all-ones block or
         * the one after it */
        const unsigned char *from = in + b * (n == 1 ? 0 : 1 + k % 2);
        memcpy(s_got, s_ref, t->state_size);
        t->call(ref, s_ref, from, n);
        t->call(got, s_got, from, n);
        if (memcmp(s_ref, s_got, t->state_size) != 0)
            return 0;
    }
    return 1;
}
