#!/bin/sh
# Runs test/muhash_ctime under valgrind's memcheck, which reports every branch and memory
# address that depends on the inputs it marked secret: MuHash3072 and its arithmetic
# (product, square, reduction, inverse) must have none. Skipped (77) without valgrind, in
# sanitizer builds (valgrind and ASan do not run together), where valgrind cannot start the
# program, and when the program was built without valgrind's headers.
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
    --track-origins=yes "$top_builddir/test/muhash_ctime" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -eq 77 ]; then
    exit 77
fi
if [ "$rc" -ne 0 ] && printf '%s\n' "$out" |
        grep -q -e '^valgrind: failed to start tool' -e '^valgrind:  Fatal error at startup' \
                -e 'Valgrind: debuginfo reader'; then
    echo "valgrind cannot run this build's programs: skipped"
    exit 77
fi
if [ "$rc" -ne 0 ]; then
    echo "FAIL: memcheck found a branch or an address that depends on a secret input (above)"
    exit 1
fi
