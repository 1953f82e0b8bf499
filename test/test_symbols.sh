#!/bin/sh
# Every global symbol a library of this build defines carries one of the project's prefixes,
# so that a program linking the archives never collides with a name of its own (a generic
# util_malloc or stream_init in a program would fail to link, or worse, be replaced).
# The archives are the static libraries the build makes (.libs/*.a), test helpers excepted.
# Allowed prefixes, per library (doc/harness.md, "Getting it"):
#   libnanobench (installed):  nb_ (the harness), bb_ (the allocation wrapper it carries)
#   libbitcoin_crypto*:        sha1_ sha256_ sha512_ sha3_ ripemd160_ siphash_ chacha20_
#                              fastrandom_, the CPUID module's cpu_features_, the variant
#                              sets' crypto_variant_ and crypto_autodetect, and the third
#                              wave's poly1305_ chacha20poly1305_ fschacha20poly1305_
#                              muhash3072_ num3072_ insecurerandom_ fastrandom2_
#   libbitcoin_util, _alloc:   bb_ (allocation wrapper), stream_ (the byte stream)
#   libbitcoin_mempool:        mempool_
#   libbitcoin_cluster:        cluster_
#   any other library:         the union of the above plus prevector_ and bench_
# Names starting with two underscores belong to the compiler and are not checked.
set -u
: "${top_builddir:=.}"
if ! command -v nm >/dev/null 2>&1; then
    echo "SKIP: nm is not installed (binutils), so the archives' symbols cannot be listed"
    exit 77
fi
crypto='sha1_ sha256_ sha512_ sha3_ ripemd160_ siphash_ chacha20_ fastrandom_ cpu_features_'
crypto="$crypto crypto_variant_ crypto_autodetect"
crypto="$crypto poly1305_ chacha20poly1305_ fschacha20poly1305_ muhash3072_ insecurerandom_"
crypto="$crypto num3072_ fastrandom2_"
util='bb_ stream_'
all="nb_ bb_ $crypto stream_ mempool_ prevector_ bench_"

archives=$(find "$top_builddir/src" -path '*/.libs/*.a' | sort)
if [ -z "$archives" ]; then
    echo "FAIL: no static library under $top_builddir/src/*/.libs: build first"
    exit 1
fi
failures=0
checked=0
for a in $archives; do
    case ${a##*/} in
        libnanobench.a) allowed='nb_ bb_' ;;
        libbitcoin_crypto*.a) allowed=$crypto ;;
        libbitcoin_util.a|libbitcoin_alloc.a) allowed=$util ;;
        libbitcoin_mempool.a) allowed='mempool_' ;;
        libbitcoin_cluster.a) allowed='cluster_' ;;
        *) allowed=$all ;;
    esac
    # nm prints "value type name" for defined symbols; upper-case types are global
    # (T text, D data, B bss, R read-only, W/V weak, C common, i indirect function).
    syms=$(nm -g --defined-only "$a" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u)
    for s in $syms; do
        checked=$((checked + 1))
        case $s in __*) continue ;; esac
        ok=0
        for p in $allowed; do
            case $s in "$p"*) ok=1; break ;; esac
        done
        if [ "$ok" -eq 0 ]; then
            echo "FAIL: ${a#"$top_builddir"/} exports '$s', which has none of its prefixes" \
                "($allowed)"
            failures=$((failures + 1))
        fi
    done
done
if [ "$checked" -eq 0 ]; then
    echo "FAIL: nm listed no global symbol in: $archives"
    exit 1
fi
echo "checked $checked global symbols in $(echo "$archives" | wc -l) archives"
[ "$failures" -eq 0 ]
