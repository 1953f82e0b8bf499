#!/bin/sh
# The public headers as a program outside this tree uses them (shared/API.md: "headers are
# self-contained ... need no config.h"): each compiles on its own, included twice, with only
# its own directory on the include path, as strict C99; and, when a C++ compiler is installed,
# a C++ program that includes them all and calls into each library links against the static
# archives the build made and gets known answers (C++ sees mangled names unless a header
# declares its functions extern "C").
set -u
. "$(dirname "$0")/lib.sh"
cc=${CC:-cc}
make_tmp test_headers

# Warnings are errors where the build makes them so (CI); a call to an undeclared function
# (a missing #include) always is.
strict="-pedantic-errors"
case " ${WARN_CFLAGS:-} " in *" -Werror "*) strict="$strict -Werror" ;; esac

headers="crypto/sha1.h crypto/sha256.h crypto/sha512.h crypto/ripemd160.h crypto/siphash.h
crypto/sha3.h crypto/dispatch.h crypto/chacha20.h crypto/fastrandom.h crypto/random.h
crypto/num3072.h crypto/muhash.h crypto/poly1305.h crypto/chacha20poly1305.h prevector/prevector.h
prevector/serialize.h util/alloc.h util/stream.h
bench/nanobench.h"
for h in $headers; do
    base=${h##*/}
    dir=$top_srcdir/src/${h%/*}
    printf '#include "%s"\n#include "%s"\nint main(void) { return 0; }\n' "$base" "$base" \
        >"$tmp/alone.c"
    # shellcheck disable=SC2086
    $cc -std=c99 -Wall -Wextra -Wpedantic -Werror=implicit-function-declaration $strict \
        -I"$dir" -c "$tmp/alone.c" -o "$tmp/alone.o" 2>"$tmp/alone.err" ||
        fail "$h does not compile alone as C99 with only -I src/${h%/*}:" \
            "$(head -n 3 "$tmp/alone.err")"
done

cxx=
for c in ${CXX:-} c++ g++ clang++; do
    if command -v "$c" >/dev/null 2>&1; then cxx=$c; break; fi
done
if [ -z "$cxx" ]; then
    echo "no C++ compiler found: the C++ link check is left out"
else
    cat >"$tmp/client.cpp" <<'EOF'
#include "sha1.h"
#include "sha256.h"
#include "sha512.h"
#include "ripemd160.h"
#include "siphash.h"
#include "sha3.h"
#include "dispatch.h"
#include "chacha20.h"
#include "fastrandom.h"
#include "muhash.h"
#include "random.h"
#include "prevector.h"
#include "serialize.h"
#include "nanobench.h"
#include <cstdio>
#include <cstring>

PREVECTOR_DEFINE(bytes28, unsigned char, 28)
PREVECTOR_DEFINE_SERIALIZE_BYTES(bytes28)

static int failures;
static void expect(bool ok, const char *what)
{
    if (!ok) {
        std::printf("FAIL: C++ client: %s\n", what);
        failures++;
    }
}

static void hex(char *dst, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        std::sprintf(dst + 2 * i, "%02x", p[i]);
}

static void increment(void *arg)
{
    ++*static_cast<unsigned long *>(arg);
}

int main()
{
    unsigned char out[64], key16[16], msg[15];
    char h[129];
    sha1_hash(out, "abc", 3);
    hex(h, out, SHA1_OUTPUT_SIZE);
    expect(!std::strcmp(h, "a9993e364706816aba3e25717850c26c9cd0d89d"), "sha1(abc)");
    sha256_hash(out, "abc", 3);
    hex(h, out, SHA256_OUTPUT_SIZE);
    expect(!std::strcmp(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
           "sha256(abc)");
    sha512_hash(out, "abc", 3);
    hex(h, out, 8);
    expect(!std::strcmp(h, "ddaf35a193617aba"), "sha512(abc)");
    ripemd160_hash(out, "abc", 3);
    hex(h, out, RIPEMD160_OUTPUT_SIZE);
    expect(!std::strcmp(h, "8eb208f7e05d987a9b044a8e98c6b087f15a0bfc"), "ripemd160(abc)");
    sha3_256_hash(out, "abc", 3);
    hex(h, out, SHA3_256_OUTPUT_SIZE);
    expect(!std::strcmp(h, "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"),
           "sha3_256(abc)");
    expect(sha256_autodetect() != NULL, "sha256_autodetect");

    /* ChaCha20 and FastRandom of the all-zero key: keystream 76 b8 e0 ad ... */
    chacha20_ctx cc;
    unsigned char zkey[32] = {0};
    chacha20_set_key(&cc, zkey);
    chacha20_keystream(&cc, out, 64);
    hex(h, out, 4);
    expect(!std::strcmp(h, "76b8e0ad"), "chacha20 keystream");
    fastrandom_ctx fr;
    fastrandom_init_deterministic(&fr);
    expect(fastrandom_rand32(&fr) == 0xade0b876u && fastrandom_randbool(&fr) == 0,
           "fastrandom");
    fastrandom2_ctx fr2;
    fastrandom2_init_deterministic(&fr2);
    expect(fastrandom2_rand32(&fr2) == 0xade0b876u && fastrandom2_randrange(&fr2, 1) == 0,
           "fastrandom2");
    insecurerandom_ctx ir;
    insecurerandom_init(&ir, 0);
    expect(insecurerandom_rand64(&ir) == 0x6f68e1e7e2646ee1ull, "insecurerandom");

    /* MuHash3072: the empty set's digest is SHA-256 of the number 1 in 384 bytes */
    muhash3072 mh;
    unsigned char one[384] = {1}, want[32];
    muhash3072_init(&mh);
    muhash3072_finalize(&mh, out);
    sha256_hash(want, one, sizeof one);
    expect(!std::memcmp(out, want, 32), "muhash3072 of the empty set");

    /* SipHash-2-4 paper, appendix A: key 00..0f, message 00..0e. */
    for (int i = 0; i < 16; i++)
        key16[i] = (unsigned char)i;
    for (int i = 0; i < 15; i++)
        msg[i] = (unsigned char)i;
    uint64_t k0 = 0, k1 = 0;
    for (int i = 7; i >= 0; i--) {
        k0 = k0 << 8 | key16[i];
        k1 = k1 << 8 | key16[8 + i];
    }
    siphash_ctx sc;
    siphash_init(&sc, k0, k1);
    siphash_write(&sc, msg, sizeof msg);
    expect(siphash_finalize(&sc) == 0xa129ca6149be45e5ull, "siphash paper vector");

    bytes28 v, w;
    bytes28_init(&v);
    bytes28_init(&w);
    expect(bytes28_resize(&v, 100) == 0 && !bytes28_is_direct(&v) && bytes28_size(&v) == 100,
           "prevector to the heap");
    byte_stream s;
    stream_init(&s);
    expect(bytes28_serialize(&v, &s) == 0 && bytes28_unserialize(&w, &s) == 0 &&
               bytes28_equal(&v, &w),
           "prevector round trip through a stream");
    stream_destroy(&s);
    bytes28_destroy(&v);
    bytes28_destroy(&w);

    unsigned long n = 0;
    nb_bench *b = nb_bench_new();
    expect(b != NULL, "nb_bench_new");
    if (b) {
        nb_run(nb_epochs(nb_name(nb_output(b, NULL), "increment"), 3), increment, &n);
        expect(nb_result_count(b) == 1 && n > 0, "nb_run");
        nb_bench_free(b);
    }
    return failures != 0;
}
EOF
    b=$top_builddir
    # shellcheck disable=SC2086
    if ! $cxx -Wall -Wextra -Wpedantic $strict -I"$top_srcdir/src/crypto" \
        -I"$top_srcdir/src/prevector" -I"$top_srcdir/src/util" -I"$top_srcdir/src/bench" \
        "$tmp/client.cpp" -o "$tmp/client" ${SAN_LDFLAGS:-} \
        "$b/src/bench/.libs/libnanobench.a" "$b/src/crypto/.libs/libbitcoin_crypto.a" \
        "$b/src/util/.libs/libbitcoin_util.a" "$b/src/util/.libs/libbitcoin_alloc.a" \
        ${LIBS:-} 2>"$tmp/client.err"; then
        fail "the C++ client does not build with $cxx:" \
            "$(grep -m 3 -i -E 'error|undefined' "$tmp/client.err")"
    elif ! "$tmp/client"; then
        fail "the C++ client failed"
    fi
fi

# A prevector grown past N, then copied: the fills and moves inside prevector.h must not look
# out of bounds to the compiler. gcc 12 warned (-Warray-bounds, a memset "forming offset
# [116, 159]" out of a 116-byte vector) wherever the header, after growing, asked NAME_data
# again, whose inline branch it could not rule out (doc/prevector.md, "gcc 12's bounds
# warnings"). Two clients, as gcc's choices depend on the whole function: the shape that
# first showed it, and every growing call in one.
cat >"$tmp/grow1.c" <<'EOF'
#include "prevector.h"
PREVECTOR_DEFINE(ints, int, 28)
int main(void)
{
    ints x, y;
    int bad;
    ints_init(&x);
    ints_init(&y);
    bad = ints_resize(&x, 40) || ints_copy(&y, &x) || ints_size(&y) != 40;
    ints_destroy(&x);
    ints_destroy(&y);
    return bad;
}
EOF
cat >"$tmp/grow2.c" <<'EOF'
#include "prevector.h"
typedef struct { int v; } item;
static void item_init(item *x) { x->v = -1; }
PREVECTOR_DEFINE_INIT(items, item, 28, item_init)
PREVECTOR_DEFINE(ints, int, 28)
PREVECTOR_DEFINE(bytes, unsigned char, 28)
int main(void)
{
    items a, b;
    ints c, d;
    bytes e, f;
    int src[40] = {0}, i, bad = 0;
    item one = {5};
    unsigned char u = 7;
    items_init(&a); items_init(&b);
    ints_init(&c); ints_init(&d);
    bytes_init(&e); bytes_init(&f);
    bad |= items_resize(&a, 40) || items_copy(&b, &a);
    bad |= ints_resize(&c, 40) || ints_copy(&d, &c);
    bad |= bytes_resize(&e, 40) || bytes_copy(&f, &e);
    for (i = 0; i < 40; i++)
        bad |= items_push_back(&b, &one) || ints_push_back(&d, &i) || bytes_push_back(&f, &u);
    bad |= ints_assign(&c, src, 40) || ints_insert(&d, 3, src, 40) || items_copy(&a, &b);
    bad |= bytes_resize(&e, 100) || bytes_insert(&f, 0, bytes_data(&e), 50);
    bad |= ints_reserve(&c, 90) || ints_resize(&c, 90) || items_resize_uninit(&a, 95);
    bad |= items_size(&b) != 80 || ints_size(&d) != 120 || bytes_size(&f) != 130;
    items_destroy(&a); items_destroy(&b);
    ints_destroy(&c); ints_destroy(&d);
    bytes_destroy(&e); bytes_destroy(&f);
    return bad;
}
EOF
for client in grow1 grow2; do
    for opt in -O1 -O2 -O3 -Os; do
        $cc -std=c99 $opt -Wall -Wextra -I"$top_srcdir/src/prevector" -I"$top_srcdir/src/util" \
            -c "$tmp/$client.c" -o "$tmp/$client.o" >"$tmp/$client.err" 2>&1 ||
            fail "$client.c does not compile with $cc $opt: $(head -n 3 "$tmp/$client.err")"
        ! grep -q 'warning' "$tmp/$client.err" ||
            fail "a prevector grown past N warns with $cc $opt: $(head -n 3 "$tmp/$client.err")"
    done
done

[ "$failures" -eq 0 ] && echo "PASS: every public header compiles alone${cxx:+ and links from C++}"
[ "$failures" -eq 0 ]
