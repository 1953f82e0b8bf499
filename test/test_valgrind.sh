#!/bin/sh
# Runs test_crypto_variants under valgrind. Valgrind emulates a CPU without
# SHA-NI or AVX-512 and says so through CPUID, so this shows that dispatch
# follows CPUID/XGETBV (an instruction the emulated CPU lacks would stop the
# run with SIGILL) and that the variants it does pick make no invalid memory
# accesses. Skipped (77) without valgrind, in sanitizer builds (valgrind
# and ASan do not run together) and where valgrind cannot start the program.
: "${top_builddir:=.}"

if ! command -v valgrind >/dev/null 2>&1; then
    echo "valgrind not found: skipped"
    exit 77
fi
if grep -q '^#define BB_SANITIZERS 1' "$top_builddir/config.h"; then
    echo "built with sanitizers: skipped"
    exit 77
fi

out=$("$top_builddir/libtool" --mode=execute valgrind -q --error-exitcode=1 \
    "$top_builddir/test/test_crypto_variants" --quick 2>&1)
rc=$?
printf '%s\n' "$out"
# Valgrind itself could not start this build's program (a cross build tested
# under emulation: no tool for that platform, or no symbols for its ld.so), or
# could not read its debug info (valgrind 3.19 and clang 14's DWARF 5: build
# with CFLAGS='-g -gdwarf-4 -O2' to run this check with clang).
if [ "$rc" -ne 0 ] && printf '%s\n' "$out" |
        grep -q -e '^valgrind: failed to start tool' -e '^valgrind:  Fatal error at startup' \
                -e 'Valgrind: debuginfo reader'; then
    echo "valgrind cannot run this build's programs: skipped"
    exit 77
fi
if [ "$rc" -ne 0 ]; then
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

# ChaCha20's own choice, the same way: its tests under valgrind, and AVX-512
# not picked on a CPU (valgrind's) without it.
out=$("$top_builddir/libtool" --mode=execute valgrind -q --error-exitcode=1 \
    "$top_builddir/test/test_chacha20" --quick 2>&1)
rc=$?
printf '%s\n' "$out" | tail -n 4
if [ "$rc" -ne 0 ]; then
    echo "FAIL: test_chacha20 under valgrind exited $rc"
    exit 1
fi
cpu=$(printf '%s\n' "$out" | grep '^cpu:')
chosen=$(printf '%s\n' "$out" | grep '^chacha20_implementation:')
case $cpu in *avx512=0*)
    case $chosen in *avx512*) echo "FAIL: ChaCha20 picked AVX-512 on a CPU without it"; exit 1 ;; esac ;;
esac
exit 0
