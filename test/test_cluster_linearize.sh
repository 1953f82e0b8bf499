#!/bin/sh
# cluster-linearize: known clusters give the optimal order and chunks; every kind of bad
# input is one line on stderr naming the input line, exit 2, nothing on stdout; the program's
# chunks agree with its order on random clusters.
set -u
. "$(dirname "$0")/lib.sh"
prog=$top_builddir/cluster-linearize
make_tmp test_cluster_linearize

# lin INPUT EXPECTED: the program's whole output for INPUT (printf format) is EXPECTED.
lin() {
    checks=$((checks + 1))
    out=$(printf "$1" | "$prog" 2>"$tmp/err")
    rc=$?
    [ $rc -eq 0 ] || fail "input '$1': exit $rc: $(cat "$tmp/err")"
    [ "$out" = "$2" ] || fail "input '$1': got '$out', expected '$2'"
}

# reject PATTERN INPUT: exit 2, one stderr line naming the program and containing PATTERN.
reject() {
    checks=$((checks + 1))
    printf "$2" | "$prog" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] || fail "input '$2': exit $rc, expected 2"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "input '$2': stderr is not one line"
    grep -q '^cluster-linearize: ' "$tmp/err" || fail "input '$2': stderr lacks the name"
    grep -F -q -- "$1" "$tmp/err" || fail "input '$2': stderr lacks '$1': $(cat "$tmp/err")"
    [ ! -s "$tmp/out" ] || fail "input '$2': printed on stdout: $(cat "$tmp/out")"
}

# One transaction; a parent and a better-paying child (one chunk: child pays for parent); two
# unrelated ones (best first); a child that is worse than its parent (two chunks).
lin '5 2\n' "0
5 2"
lin '1 1\n9 1 0\n' "0 1
10 2"
lin '1 1\n9 1\n' "1 0
9 1
1 1"
lin '9 1\n1 1 0\n' "0 1
9 1
1 1"
# A diamond: 0 pays little, 1 and 2 spend it, 3 spends both. Best: 0 2 first (rate 5.5),
# then 1 3.
lin '1 1\n2 1 0\n10 1 0\n3 1 1 2\n' "0 2 1 3
11 2
5 2"
# No trailing newline, CRLF, blanks, a negative fee, an implied parent given too.
lin '1 1\r\n  4\t1  0 \n-3 1 0 1' "0 1 2
5 2
-3 1"
# An empty input is an empty cluster.
lin '' ""

reject 'line 1: empty' '\n'
reject 'line 2: no size' '1 1\n5\n'
reject "line 1: fee 'x'" 'x 1\n'
reject "line 1: size '1.5'" '1 1.5\n'
reject "line 1: size '0'" '1 0\n'
reject "line 1: size '-1'" '1 -1\n'
reject 'line 2: parent 1 is not the index of an earlier line' '1 1\n1 1 1\n'
reject 'line 3: parent 7' '1 1\n1 1 0\n1 1 7\n'
reject "line 2: parent '-1'" '1 1\n1 1 -1\n'
reject "line 1: fee '9999999999999999'" '9999999999999999 1\n'
reject 'line 2: the sizes add up past' '1 2000000000\n1 2000000000\n'
reject 'line 1: contains a NUL byte' '1 1\0\n'
awk 'BEGIN { for (i = 0; i < 513; i++) print 1, 1 }' >"$tmp/big"
checks=$((checks + 1))
"$prog" <"$tmp/big" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q 'line 513: more than 512' "$tmp/err" ||
    fail "513 lines: $(cat "$tmp/err")"

run() { "$prog" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; checks=$((checks + 1)); }
run -h </dev/null
[ $rc -eq 0 ] && grep -q '^Usage: cluster-linearize' "$tmp/out" || fail "-h: exit $rc"
run --bogus </dev/null
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "--bogus: exit $rc"

# Random clusters (a chain of dependencies on earlier lines): the chunk lines add up to the
# cluster's totals, and the order names every line once.
for seed in 1 2 3 4 5; do
    checks=$((checks + 1))
    awk -v seed=$seed 'BEGIN { srand(seed); n = 20 + int(rand() * 40)
        for (i = 0; i < n; i++) { line = int(rand() * 1000) " " (1 + int(rand() * 300))
            for (j = 0; j < i; j++) if (rand() < 0.1) line = line " " j
            print line } }' >"$tmp/in"
    if ! "$prog" <"$tmp/in" >"$tmp/out" 2>"$tmp/err"; then
        fail "seed $seed: $(cat "$tmp/err")"
        continue
    fi
    want=$(awk '{ f += $1; s += $2 } END { print f, s, NR }' "$tmp/in")
    got=$(awk 'NR == 1 { n = NF } NR > 1 { f += $1; s += $2 } END { print f, s, n }' "$tmp/out")
    [ "$want" = "$got" ] || fail "seed $seed: totals $got, expected $want"
    sorted=$(head -1 "$tmp/out" | tr ' ' '\n' | sort -n | tr '\n' ' ')
    expect=$(awk '{ printf "%d ", NR - 1 }' "$tmp/in")
    [ "$sorted" = "$expect" ] || fail "seed $seed: the order is not a permutation"
done

echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ]
