#!/bin/sh
# doc/bench_bitcoin.1 documents every option bench_bitcoin -help lists (an option added
# without its man page entry fails here), and man(1) formats the page without a warning.
set -u
: "${top_builddir:=.}" "${top_srcdir:=.}"
page=$top_srcdir/doc/bench_bitcoin.1
failures=0
help=$("$top_builddir/bench_bitcoin" -help) || { echo "FAIL: bench_bitcoin -help failed"; exit 1; }
opts=$(printf '%s\n' "$help" | sed -n 's/^  \(-[a-z][a-z0-9-]*\).*/\1/p')
[ -n "$opts" ] || { echo "FAIL: no option found in bench_bitcoin -help"; exit 1; }
for o in $opts; do
    # an entry is a .TP followed by a .B/.BI/.BR line naming the option (dashes escaped)
    if ! grep -A1 '^\.TP' "$page" | sed 's/\\-/-/g' | grep -q "^\.B[IR]\{0,1\} $o\([= ]\|$\)"
    then
        echo "FAIL: $o is in bench_bitcoin -help but has no entry in doc/bench_bitcoin.1"
        failures=$((failures + 1))
    fi
done
echo "checked $(printf '%s\n' "$opts" | wc -l) options against the man page"
if command -v man >/dev/null 2>&1 && command -v groff >/dev/null 2>&1; then
    warn=$(LC_ALL=C MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
    if [ -n "$warn" ]; then
        echo "FAIL: man warns about doc/bench_bitcoin.1: $warn"
        failures=$((failures + 1))
    fi
else
    echo "man or groff is not installed: the page's formatting is not checked"
fi
[ "$failures" -eq 0 ]
