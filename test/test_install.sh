#!/bin/sh
# `make install prefix=X` as a user types it: the pkg-config file points at X (it is written at
# install time, not configure time), a program builds against the installed header and static
# library with the flags pkg-config gives and runs, the man page lands in X/share/man/man1, and
# `make uninstall prefix=X` removes what install put there.
set -u
. "$(dirname "$0")/lib.sh"
make=${MAKE:-make}
cc=${CC:-cc}
if ! command -v pkg-config >/dev/null 2>&1; then
    skip "pkg-config is not installed, so the installed .pc file cannot be read"
fi
make_tmp test_install

prefix=$tmp/pre
if ! $make -C "$top_builddir" install prefix="$prefix" >"$tmp/install.log" 2>&1; then
    tail -n 20 "$tmp/install.log"
    echo "FAIL: make install prefix=$prefix failed"
    exit 1
fi
pc=$prefix/lib/pkgconfig/nanobench-c.pc
if [ ! -f "$pc" ]; then
    fail "no $pc after make install"
else
    grep -qx "prefix=$prefix" "$pc" || fail "$pc does not say prefix=$prefix: $(head -n 1 "$pc")"
    grep -q '@' "$pc" && fail "$pc keeps an unsubstituted @variable@: $(grep '@' "$pc")"
    flags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs nanobench-c) ||
        fail "pkg-config cannot read $pc"
    case $flags in
        *"-I$prefix/include"*"-L$prefix/lib"*) ;;
        *) fail "pkg-config gives '$flags', not paths under $prefix" ;;
    esac
    # shellcheck disable=SC2086
    if $cc -std=c99 ${SAN_LDFLAGS:-} -o "$tmp/example" "$top_srcdir/test/install_example.c" \
        $flags ${LIBS:-} 2>"$tmp/cc.err"; then
        NANOBENCH_SUPPRESS_WARNINGS=1 "$tmp/example" >/dev/null ||
            fail "a program built against the installed harness failed to run"
    else
        fail "a program does not build against the installed harness: $(head -n 5 "$tmp/cc.err")"
    fi
fi
[ -f "$prefix/include/bench/nanobench.h" ] || fail "no installed bench/nanobench.h"
[ -f "$prefix/include/bench/nanobench-single.h" ] || fail "no installed bench/nanobench-single.h"
[ -f "$prefix/lib/libnanobench.a" ] || fail "no installed libnanobench.a"
[ -x "$prefix/bin/bench_bitcoin" ] || fail "no installed bench_bitcoin"
[ -f "$prefix/share/man/man1/bench_bitcoin.1" ] || fail "no installed man page bench_bitcoin.1"

$make -C "$top_builddir" uninstall prefix="$prefix" >"$tmp/uninstall.log" 2>&1 ||
    fail "make uninstall prefix=$prefix failed"
left=$(find "$prefix" -type f 2>/dev/null)
[ -z "$left" ] || fail "make uninstall left: $left"
[ "$failures" -eq 0 ]
