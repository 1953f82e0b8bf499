#!/bin/sh
# Runs test_crypto_variants and test_chacha20 under valgrind. Valgrind emulates a CPU
# without SHA-NI or AVX-512 and says so through CPUID, so this shows that dispatch follows
# CPUID/XGETBV (an instruction the emulated CPU lacks would stop the run with SIGILL) and
# that the variants it does run make no invalid memory accesses. The variants the emulated
# CPU cannot run are test_valgrind_untested.sh's subject (a SKIP naming them), which sources
# this file with VALGRIND_PART=untested. Skipped (77) without valgrind, in sanitizer builds
# (valgrind and ASan do not run together) and where valgrind cannot start the program.
: "${top_builddir:=.}" "${VALGRIND_PART:=run}"

if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIP: valgrind not found"
    exit 77
fi
if grep -q '^#define BB_SANITIZERS 1' "$top_builddir/config.h"; then
    echo "SKIP: built with sanitizers"
    exit 77
fi

# under_valgrind PROGRAM ARGS...: $out, $rc. Exits 77 when valgrind itself cannot start
# this build's program (a cross build tested under emulation: no tool for that platform,
# or no symbols for its ld.so) or cannot read its debug info (valgrind 3.19 and clang 14's
# DWARF 5: build with CFLAGS='-g -gdwarf-4 -O2' to run this check with clang).
under_valgrind() {
    prog=$1
    shift
    out=$("$top_builddir/libtool" --mode=execute valgrind -q --error-exitcode=1 \
        "$top_builddir/test/$prog" "$@" 2>&1)
    rc=$?
    if [ "$rc" -ne 0 ] && printf '%s\n' "$out" |
            grep -q -e '^valgrind: failed to start tool' -e '^valgrind:  Fatal error at startup' \
                    -e 'Valgrind: debuginfo reader'; then
        printf '%s\n' "$out"
        echo "SKIP: valgrind cannot run this build's programs"
        exit 77
    fi
}

if [ "$VALGRIND_PART" = untested ]; then
    under_valgrind test_crypto_variants --untested
    if [ "$rc" -ne 0 ]; then
        printf '%s\n' "$out"
        echo "FAIL: test_crypto_variants --untested under valgrind exited $rc"
        exit 1
    fi
    if [ -n "$out" ]; then
        echo "SKIP: valgrind's CPU does not run these variants, so they were not checked" \
            "under valgrind: $(printf '%s\n' "$out" | paste -s -d, - | sed 's/,/, /g')"
        exit 77
    fi
    echo "valgrind's CPU runs every variant of this build: test_valgrind.sh checked them all"
    exit 0
fi

# test_crypto_variants exits 77 when it left out variants the (emulated) CPU cannot run,
# having passed everything else; what it left out is test_valgrind_untested.sh's.
under_valgrind test_crypto_variants --quick
printf '%s\n' "$out"
if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then
    echo "FAIL: test_crypto_variants under valgrind exited $rc"
    exit 1
fi

# The test checks the autodetected name against CPUID itself; check the one
# thing this script is for once more, from its output.
cpu=$(printf '%s\n' "$out" | grep '^cpu:')
chosen=$(printf '%s\n' "$out" | grep '^sha256_autodetect:')
echo "emulated $cpu"
echo "chose $chosen"
case $cpu in *shani=0*)
    case $chosen in *shani*) echo "FAIL: picked SHA-NI on a CPU without it"; exit 1 ;; esac ;;
esac
case $cpu in *avx512=0*)
    case $chosen in *avx512*) echo "FAIL: picked AVX-512 on a CPU without it"; exit 1 ;; esac ;;
esac

# ChaCha20 the same way: its tests under valgrind, and AVX-512 not picked on a CPU
# (valgrind's) without it.
under_valgrind test_chacha20 --quick
printf '%s\n' "$out" | tail -n 4
if [ "$rc" -ne 0 ]; then
    echo "FAIL: test_chacha20 under valgrind exited $rc"
    exit 1
fi
chosen=$(printf '%s\n' "$out" | grep '^chacha20_impl_current:')
case $cpu in *avx512=0*)
    case $chosen in *avx512*) echo "FAIL: ChaCha20 picked AVX-512 on a CPU without it"; exit 1 ;; esac ;;
esac
exit 0
