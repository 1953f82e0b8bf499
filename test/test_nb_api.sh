#!/bin/sh
# Every function nanobench.h declares is called with NULL arguments in test_nb_errors.c
# (the header's promise: nothing crashes on a NULL argument anywhere in the public API), and
# is named in the harness's manual (doc/harness.md, compare.md, templates.md,
# instructions.md). A new function fails this until it is in both.
set -u
. "$(dirname "$0")/lib.sh"
header=$top_srcdir/src/bench/nanobench.h
# The declared names: "nb_xxx(" at a declaration's start, comments removed.
names=$(sed -e 's|/\*.*\*/||g' "$header" | awk '
    /\/\*/ { inc = 1 } inc { if (/\*\//) inc = 0; next }
    { print }' | grep -E '^[a-z]' | grep -oE 'nb_[a-z0-9_]+ *\(' | sed 's/ *(//' | sort -u)
[ -n "$names" ] || { echo "FAIL: no function found in $header"; exit 1; }
count=0
for n in $names; do
    count=$((count + 1))
    grep -q "\<$n(" "$top_srcdir/test/test_nb_errors.c" ||
        fail "$n is not called with NULL in test/test_nb_errors.c"
    grep -q "$n" "$top_srcdir/doc/harness.md" "$top_srcdir/doc/compare.md" \
        "$top_srcdir/doc/templates.md" "$top_srcdir/doc/instructions.md" ||
        fail "$n is not in the manual (doc/harness.md, compare.md, templates.md, instructions.md)"
done
echo "$count functions checked"
[ "$failures" -eq 0 ]
