#!/bin/sh
# doc/bench_bitcoin.1 documents every option bench_bitcoin -help lists (an option added
# without its man page entry fails here), every option it documents is one -help lists (the
# option table, options.c: a removed or renamed option fails here too), -help is one line
# an option, and man(1) formats the page without a warning.
set -u
. "$(dirname "$0")/lib.sh"
page=$top_srcdir/doc/bench_bitcoin.1
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
# the reverse: each entry of OPTIONS names an option of -help
documented=$(sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$page" | grep -A1 '^\.TP' | sed 's/\\-/-/g' |
    sed -n 's/^\.B[IR]\{0,1\} \(-[a-z][a-z0-9-]*\).*/\1/p')
[ -n "$documented" ] || { echo "FAIL: no option entry found in doc/bench_bitcoin.1"; exit 1; }
for o in $documented; do
    if ! printf '%s\n' "$opts" | grep -q -x -- "$o"; then
        echo "FAIL: doc/bench_bitcoin.1 documents $o, which bench_bitcoin -help does not list"
        failures=$((failures + 1))
    fi
done
# one line an option: an option's line is followed by another option's or the end of the list
lines=$(printf '%s\n' "$help" | sed -n '/^Options:/,/^$/p' | grep -c '^ ')
[ "$lines" -eq "$(printf '%s\n' "$opts" | wc -l)" ] ||
    { echo "FAIL: -help spends $lines lines on $(printf '%s\n' "$opts" | wc -l) options"
      failures=$((failures + 1)); }
echo "checked $(printf '%s\n' "$opts" | wc -l) options against the man page, both ways"
if command -v man >/dev/null 2>&1 && command -v groff >/dev/null 2>&1; then
    warn=$(LC_ALL=C MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
    if [ -n "$warn" ]; then
        echo "FAIL: man warns about doc/bench_bitcoin.1: $warn"
        failures=$((failures + 1))
    fi
else
    untested "the page's formatting (man or groff is not installed)"
fi
finish
