/* Run-time choice among a primitive's implementations: one mechanism for all of them.
 *
 * Each primitive with more than one implementation (SHA-1, SHA-256, SHA-512, ChaCha20, ...)
 * has one variant set: a table of variants, each with a name, the instruction sets it needs
 * (as CPUID and XGETBV report them, cpuid.h) and the functions it installs. Variant 0,
 * "standard", is the portable C code: always built, always usable, and what every primitive
 * runs until something is installed. Any other variant is usable when this build has it, the
 * CPU and OS run what it needs, and it gives the same answers as the portable code on a
 * self-test that reaches each of its paths (block counts, tails, unaligned buffers); the
 * verdict is cached, so each self-test runs at most once per process.
 *
 * Names are the instruction set a variant is built for: "standard", "sse41", "avx2",
 * "shani", "avx512", ... The same name in two sets means the same instruction set.
 *
 * A description says what is installed. For a set whose automatic choice is one variant it
 * is that variant's name; SHA-256's automatic choice can combine variants, and its
 * description lists them (dispatch.h has the format: "avx512(16way),shani(1way,2way)").
 * Descriptions are static strings that keep their text for the life of the process.
 *
 * Threads: the functions here that read or change what a set has found take one lock (one
 * for all sets), so they may be called from several threads at once, a program's first
 * detection included. Installing changes what
 * the primitive's functions call, so no other thread may be running the primitive while one
 * forces a different variant; installing what is already installed writes nothing, so each
 * worker thread may detect (crypto_autodetect) before it starts while others already run.
 *
 * Every function accepts NULL: a NULL set is unknown (-1, 0 or ""), a NULL name is refused.
 *
 * How to add a primitive P (portable code first):
 *  1. P.c holds the portable code and P's implementation pointer(s), initialised to the
 *     portable functions; P's public functions call through the pointer(s). P.c knows
 *     nothing of variants or of this file.
 *  2. Each accelerated variant lives in a file of its own (P_avx2.c, ...), built with that
 *     instruction set's flags in its convenience library (Makefile.am), and may call P.c's
 *     portable code (for tails) and constants.
 *  3. P_variants.c defines the set, and is the only file that names the variant functions:
 *     a table of crypto_variant (name, CPU_* bits, the functions; "standard" first, the
 *     automatic choice last), a self-test against the portable code that reaches every
 *     path of each variant, and an install function that writes P's pointer(s); then
 *     CRYPTO_VARIANT_SET_DEFINE(P, "Label", table, selftest, install, NULL, NULL), which
 *     defines P_variant_set, and CRYPTO_VARIANT_WRAPPERS(P), which defines P_impl_list,
 *     P_impl_force and P_impl_current (variant_impl.h has the details and the shared
 *     self-test helpers). A test hook P_impl_selftest(...) that runs the self-test on given
 *     functions lets a test show that broken ones are refused.
 *  4. One line, X(P), in the list of sets in dispatch.c; declare P_impl_* in P.h; add the
 *     new files to Makefile.am (the set to libbitcoin_crypto, each variant to its
 *     instruction set's convenience library).
 *  5. test_crypto_variants tests every set the same way, and fails for a set it has no
 *     check for: add P's (a function that runs P's public functions on fixed inputs) to its
 *     set_checks table. test_crypto_layers.sh then keeps the objects' order one way. */
#ifndef CRYPTO_VARIANT_H
#define CRYPTO_VARIANT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One primitive's variants and what is installed (opaque). */
typedef struct crypto_variant_set crypto_variant_set;

/* Stores in sets[0 .. cap) every variant set of this build, in a fixed order (SHA-1,
 * SHA-256, SHA-512, ChaCha20, SHA3-256, then the later primitives), and returns how many
 * there are (which may exceed cap; sets may be NULL when cap is 0). */
size_t crypto_variant_sets(const crypto_variant_set **sets, size_t cap);

/* The set of the primitive called family ("sha1", "sha256", "sha512", "chacha20",
 * "sha3_256", ...), or NULL when this build has none of that name. */
const crypto_variant_set *crypto_variant_set_find(const char *family);

/* The set's family name ("sha256"), the key crypto_variant_set_find takes; "" for NULL. */
const char *crypto_variant_set_family(const crypto_variant_set *s);

/* The primitive's name for people ("SHA256", "ChaCha20", "SHA3-256"); "" for NULL. */
const char *crypto_variant_set_label(const crypto_variant_set *s);

/* Stores in names[0 .. cap) the names of the variants this build and CPU run and that pass
 * the self-test, "standard" first, in the table's order, and returns how many there are
 * (which may exceed cap; names may be NULL when cap is 0). Runs the self-tests not yet run.
 * The strings are static. */
size_t crypto_variant_list(const crypto_variant_set *s, const char **names, size_t cap);

/* Installs the variant called name, alone (what it does not cover stays portable), or the
 * automatic choice for "auto". Returns 0, or -1 when name is unknown, not in this build, not
 * run by this CPU or failing its self-test; then nothing changes. */
int crypto_variant_force(const crypto_variant_set *s, const char *name);

/* The description of what is installed ("standard" until something else is); a static
 * string; "" for NULL. */
const char *crypto_variant_current(const crypto_variant_set *s);

/* Installs every set's automatic choice: the fastest combination of usable variants (ranked
 * by instruction set; where that cannot tell, as for SHA-256's sha256_d64 between SHA-NI and
 * AVX-512, timed once). The first call runs the self-tests; later ones write nothing unless
 * something was forced in between. sha256_autodetect (sha256.h) is this, returning SHA-256's
 * description. */
void crypto_autodetect(void);

#ifdef __cplusplus
}
#endif

#endif
