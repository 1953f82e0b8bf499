#!/bin/sh
# Instruction counts under valgrind's callgrind: bench_bitcoin -instructions and the
# nb-instructions tool. Checks that two runs count the same, that an op doing twice the work
# counts twice the instructions (within 1%), that the table and the JSON carry the counts,
# and the errors: valgrind missing, a crash under valgrind, a program that counts nothing,
# a build without valgrind's client-request header. Skipped (77) in sanitizer builds
# (valgrind and ASan do not run together), without valgrind and where valgrind cannot run
# this build's programs.
: "${top_builddir:=.}"
bb="$top_builddir/bench_bitcoin"
tool="$top_builddir/nb-instructions"
prog="$top_builddir/test/nb_valgrind_prog"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_instructions.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

if grep -q '^#define BB_SANITIZERS 1' "$top_builddir/config.h"; then
    if grep -q '^#define HAVE_VALGRIND_CALLGRIND_H 1' "$top_builddir/config.h"; then
        "$bb" -instructions -filter=SHA1 >"$tmp/out" 2>"$tmp/err" && fail "sanitizers: exit 0"
        grep -q "built with sanitizers" "$tmp/err" || fail "sanitizers: $(cat "$tmp/err")"
    fi
    echo "built with sanitizers: valgrind cannot run ASan programs: skipped"
    exit 77
fi

# Built without the header: -instructions says so (whether or not valgrind is installed).
if ! grep -q '^#define HAVE_VALGRIND_CALLGRIND_H 1' "$top_builddir/config.h"; then
    "$bb" -instructions -filter=SHA1 >"$tmp/out" 2>"$tmp/err" && fail "no header: exit 0"
    grep -q "built without valgrind's client-request header" "$tmp/err" ||
        fail "no header: $(cat "$tmp/err")"
    echo "built without valgrind/callgrind.h: that error checked, the rest skipped"
    exit 77
fi

# Valgrind not installed: an empty PATH finds none. One line, naming the Debian package.
mkdir "$tmp/empty"
PATH="$tmp/empty" "$bb" -instructions -filter=SHA1 >"$tmp/out" 2>"$tmp/err" &&
    fail "without valgrind: exit 0"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "Debian package valgrind" "$tmp/err" ||
    fail "without valgrind: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && fail "without valgrind: a table was printed"
PATH="$tmp/empty" "$tool" "$prog" >"$tmp/out" 2>"$tmp/err" && fail "tool without valgrind"
grep -q "Debian package valgrind" "$tmp/err" || fail "tool without valgrind: $(cat "$tmp/err")"

# Valgrind crashing: a stand-in that dies of SIGSEGV at once.
mkdir "$tmp/fake"
printf '#!/bin/sh\nkill -SEGV $$\n' >"$tmp/fake/valgrind"
chmod +x "$tmp/fake/valgrind"
PATH="$tmp/fake:$PATH" "$bb" -instructions -filter=SHA1 >"$tmp/out" 2>"$tmp/err" &&
    fail "fake crash: exit 0"
grep -q "crashed under valgrind (signal 11" "$tmp/err" || fail "fake crash: $(cat "$tmp/err")"

if ! command -v valgrind >/dev/null 2>&1; then
    echo "valgrind not found: the counting checks skipped"
    exit 77
fi

# Two runs of a small selection: the same counts. A hash (dispatched) and SipHash.
sel='SHA256_32b|SipHash_32b'
"$bb" -instructions -filter="$sel" -output-json="$tmp/1.json" >"$tmp/1.out" 2>"$tmp/1.err"
rc=$?
if [ "$rc" -ne 0 ] && grep -q -e '^valgrind: failed to start tool' \
        -e '^valgrind:  Fatal error at startup' -e 'Valgrind: debuginfo reader' "$tmp/1.err"; then
    cat "$tmp/1.err"
    echo "valgrind cannot run this build's programs: skipped"
    exit 77
fi
[ "$rc" -eq 0 ] || fail "-instructions exited $rc: $(cat "$tmp/1.err")"
"$bb" -instructions -filter="$sel" >"$tmp/2.out" 2>"$tmp/2.err" ||
    fail "second run: $(cat "$tmp/2.err")"
cat "$tmp/1.out" "$tmp/1.err"
grep -q 'ins/byte' "$tmp/1.out" && grep -q 'ins/op' "$tmp/1.out" && grep -q 'sim.miss%' "$tmp/1.out" ||
    fail "the table has no ins/<unit> or sim.miss% column"
grep -q "the hashes run SHA1 '[^']*', SHA256 '[^']*', SHA512 '[^']*'" "$tmp/1.err" ||
    fail "stderr does not say which implementations ran"
# The counts: columns ins/<unit> and bra/<unit> (5 and 6 of the '|'-split row) and the name.
counts() { awk -F'|' '/`/ { print $5, $6, $9 }' "$1"; }
counts "$tmp/1.out" >"$tmp/1.counts"
counts "$tmp/2.out" >"$tmp/2.counts"
[ "$(wc -l <"$tmp/1.counts")" -eq 2 ] || fail "expected 2 rows: $(cat "$tmp/1.counts")"
cmp -s "$tmp/1.counts" "$tmp/2.counts" ||
    fail "two runs counted differently: $(cat "$tmp/1.counts" "$tmp/2.counts")"
# The JSON: every result's median(instructions) a number, not null.
[ "$(grep -c '"median(instructions)": [0-9]' "$tmp/1.json")" -eq 2 ] ||
    fail "the JSON has no instruction counts: $(grep 'median(instructions)' "$tmp/1.json")"
[ "$(grep -c '"instructions": [0-9]' "$tmp/1.json")" -ge 2 ] ||
    fail "the JSON's measurements have no instruction counts"

# A program of the user's own: twice the work, twice the count (the loop's fixed cost is
# divided out, the call's is not: within 1%); two runs the same; its JSON has the counts.
"$tool" "$prog" json "$tmp/p.json" >"$tmp/p1.out" 2>"$tmp/p1.err" ||
    fail "nb-instructions: $(cat "$tmp/p1.err")"
"$tool" "$prog" >"$tmp/p2.out" 2>"$tmp/p2.err" || fail "nb-instructions: $(cat "$tmp/p2.err")"
cat "$tmp/p1.out"
grep 'ins=' "$tmp/p1.out" >"$tmp/p1.counts"
grep 'ins=' "$tmp/p2.out" >"$tmp/p2.counts"
cmp -s "$tmp/p1.counts" "$tmp/p2.counts" || fail "nb_valgrind_prog: two runs counted differently"
once=$(sed -n 's/^once ins=\([0-9.e+]*\) .*/\1/p' "$tmp/p1.out")
twice=$(sed -n 's/^twice ins=\([0-9.e+]*\) .*/\1/p' "$tmp/p1.out")
[ -n "$once" ] && [ -n "$twice" ] || fail "nb_valgrind_prog printed no counts"
awk -v a="$once" -v b="$twice" 'BEGIN { r = b / a; exit !(r > 1.98 && r < 2.02) }' ||
    fail "twice the work counted $twice against $once"
echo "twice the work: $twice instructions against $once"
grep -q '"median(instructions)": [0-9]' "$tmp/p.json" || fail "nb_valgrind_prog: no JSON counts"

# The documented manual way: callgrind with collection off at the start, its default out
# file in the working directory; the harness finds it by itself.
prog_abs=$(cd "$(dirname "$prog")" && pwd)/$(basename "$prog")
(cd "$tmp" && valgrind --tool=callgrind --collect-atstart=no -q "$prog_abs") \
    >"$tmp/m.out" 2>"$tmp/m.err" || fail "by hand: $(cat "$tmp/m.err")"
grep -q "^once ins=$once " "$tmp/m.out" || fail "by hand: $(cat "$tmp/m.out")"
ls "$tmp"/callgrind.out.* >/dev/null 2>&1 || fail "by hand: no callgrind files"
# Collection left on at the start: the harness switches it off itself, and counts the same.
(cd "$tmp" && valgrind --tool=callgrind -q "$prog_abs") >"$tmp/m2.out" 2>"$tmp/m2.err" ||
    fail "collecting from the start: $(cat "$tmp/m2.err")"
grep -q "^once ins=$once " "$tmp/m2.out" || fail "collecting from the start: $(cat "$tmp/m2.out")"

# -instructions -against: this build against itself counts the same (a gate of 0% passes);
# against a stand-in whose SipHash_32b does less work, the gate fails and names the row.
"$bb" -instructions -against="$bb" -filter=SipHash_32b -max-regression=0 \
    >"$tmp/a.out" 2>"$tmp/a.err" || fail "-against itself: $(cat "$tmp/a.err")"
cat "$tmp/a.out"
grep -q '^|  *\([0-9.,]*\) |  *\1 |  *+0.00% | op  *| `SipHash_32b`$' "$tmp/a.out" ||
    fail "-against itself: $(cat "$tmp/a.out")"
"$bb" -instructions -against="$prog_abs" -filter=SipHash_32b -max-regression=0.5 \
    >"$tmp/a2.out" 2>"$tmp/a2.err" && fail "-against a stand-in: exit 0"
cat "$tmp/a2.out" "$tmp/a2.err"
grep -q -- "-max-regression=0.5: 1 benchmark counts more than 0.5% more instructions than in .*: SipHash_32b (+" \
    "$tmp/a2.err" || fail "-against a stand-in: $(cat "$tmp/a2.err")"
"$bb" -instructions -against="$tmp/empty/none" -filter=SipHash_32b >"$tmp/a3.out" \
    2>"$tmp/a3.err" && fail "-against a missing program: exit 0"
grep -q "cannot be run" "$tmp/a3.err" || fail "-against a missing program: $(cat "$tmp/a3.err")"

# A crash under valgrind, inside a measured op.
"$tool" "$prog" crash >"$tmp/c.out" 2>"$tmp/c.err" && fail "crash: exit 0"
grep -q "crashed under valgrind (signal 11.*after the last counted epoch of 'once'" \
    "$tmp/c.err" || fail "crash: $(cat "$tmp/c.err")"
# A program that counts nothing (as one built without the header would).
"$tool" "$prog" none >"$tmp/n.out" 2>"$tmp/n.err" && fail "none: exit 0"
grep -q "counted nothing" "$tmp/n.err" || fail "none: $(cat "$tmp/n.err")"
exit 0
