#!/bin/sh
# bench_bitcoin -against, -baseline and -max-regression: the comparison of the binary with
# itself, a -baseline round trip through -output-json, the gate, and every bad input: one
# error line on stderr, a non-zero exit, nothing on stdout before the error and no file left
# half-written. Wrapper scripts stand in for other builds: one that is not bench_bitcoin, an
# older bench_bitcoin without the protocol, one that crashes or hangs mid-run, one whose list
# of benchmarks differs. Runs two fast benchmarks with small -min-time.
set -u
. "$(dirname "$0")/lib.sh" # fail, run, run_fails, bad
prog=$top_builddir/bench_bitcoin
case $prog in /*) ;; *) prog="$(pwd)/$prog" ;; esac
make_tmp test_against
FAST='-filter=SHA256_32b|SipHash_32b'

# midrun PATTERN ARGS...: fails after measuring began: exit 2 (an error) and exactly one
# error line (the others on stderr are notes), which contains PATTERN.
midrun() {
    pattern=$1
    shift
    run_errs "$@"
    [ "$(grep -c '^bench_bitcoin: ' "$tmp/err")" -eq 1 ] \
        || fail "'$*': not one error line: $(cat "$tmp/err")"
    grep -F -q -- "$pattern" "$tmp/err" || fail "'$*': stderr lacks '$pattern': $(cat "$tmp/err")"
}

# wrapper NAME BODY: an executable script $tmp/NAME.
wrapper() {
    printf '#!/bin/sh\n%s\n' "$2" >"$tmp/$1"
    chmod +x "$tmp/$1"
}

# rows FILE: the table rows of a comparison (lines that end in a `name`).
rows() { grep -c '^|.*| `[^`]*`$' "$1"; }

# ---- -against of the binary with itself -------------------------------------------------
run -against="$prog" "$FAST" -min-time=20 -max-regression=50
[ $rc -eq 0 ] || fail "-against itself exited $rc: $(cat "$tmp/err")"
[ "$(rows "$tmp/out")" -eq 2 ] || fail "-against itself: not 2 rows: $(cat "$tmp/out")"
for word in 'ns/unit (this)' 'ns/unit (other)' 'this/other' '95% interval' verdict \
            '`SHA256_32b`' '`SipHash_32b`' ' ns/byte ' ' ns/op ' '2 benchmarks compared with'; do
    grep -F -q -- "$word" "$tmp/out" || fail "-against itself: output lacks '$word'"
done
grep -q 'REGRESSION' "$tmp/out" && fail "-against itself: a regression at 50%"
grep -q '^bench_bitcoin: ' "$tmp/err" && fail "-against itself: an error: $(cat "$tmp/err")"

# The serving side alone: the handshake, a benchmark run in two epochs, quit.
printf 'run SipHash_32b\nepoch 10\nepoch 1000\nend\nquit\n' \
    | "$prog" -serve-protocol=1 -no-pin >"$tmp/serve" 2>"$tmp/err"
rc=$?
checks=$((checks + 1))
[ $rc -eq 0 ] || fail "-serve-protocol=1 exited $rc: $(cat "$tmp/err")"
[ "$(head -1 "$tmp/serve")" = "bench_bitcoin-against 1" ] || fail "no handshake: $(head -1 "$tmp/serve")"
grep -q '^name SHA256_32b$' "$tmp/serve" || fail "-serve-protocol: SHA256_32b not listed"
[ "$(sed -n '/^names-end$/,$p' "$tmp/serve" | sed 's/ [0-9][0-9]*$/ N/' | tr '\n' ' ')" \
    = "names-end ready 1 op time N time N done " ] \
    || fail "-serve-protocol: unexpected exchange: $(cat "$tmp/serve")"
[ ! -s "$tmp/err" ] || fail "-serve-protocol wrote on stderr: $(cat "$tmp/err")"
bad "this build speaks -against protocol version 1 only" -serve-protocol=2

# A planted slowdown of this build (twice the iterations in each epoch) trips the gate; the
# other build is the same program, whose processes -against starts without the plant (and
# through the same file name as this side's: a wrapper script would start them through
# another path, which moves their stack and so some rows' speed). A 2x difference in 16 or
# more paired rounds.
BENCH_BITCOIN_AGAINST_PLANT=SHA256_32b:100 run -against="$prog" "$FAST" -min-time=20 \
    -max-regression=10
[ $rc -eq 1 ] || fail "planted 2x slowdown: exit $rc, not 1: $(cat "$tmp/err")"
grep -q 'REGRESSION.*`SHA256_32b`' "$tmp/out" || fail "planted slowdown: no REGRESSION row"
grep -q 'REGRESSION.*`SipHash_32b`' "$tmp/out" && fail "planted slowdown: SipHash_32b flagged"
grep -F -q -- '-max-regression=10: 1 benchmark significantly more than 10% slower' "$tmp/err" \
    || fail "planted slowdown: no gate line: $(cat "$tmp/err")"

# The verdicts, and when a row stops (JSON: rounds, verdict, interval). A 2x slowdown is
# decided at the first looks (16 rounds, or 32 when a burst of the host's noise spoils one);
# identical code is within +-50% there too; at +-0.001% it never is, and the row runs until
# its cap: with -min-time=1 the 16 ms cap affords 32 rounds of 0.25 ms epochs on each side
# (16 when the host slows the epochs). -max-regression and -equivalence combine.
BENCH_BITCOIN_AGAINST_PLANT=SHA256_32b:100 run -against="$prog" "$FAST" -min-time=20 \
    -equivalence=50 -max-regression=10 -output-json="$tmp/seq.json"
[ $rc -eq 1 ] || fail "-equivalence=50 with a planted 2x: exit $rc, not 1: $(cat "$tmp/err")"
grep -q 'within ±50% *| `SipHash_32b`' "$tmp/out" || fail "no 'within ±50%' row: $(cat "$tmp/out")"
grep -q '1 slower, 1 within ±50%, 0 without' "$tmp/out" || fail "summary: $(tail -1 "$tmp/out")"
# Identical code is called faster or slower in at most 5% of comparisons by design (a busy
# host's burst can make one such false call): up to three tries, so that a failure here
# means the cap or the verdict is wrong, not one unlucky comparison.
for try in 1 2 3; do
    run -against="$prog" -filter=SipHash_32b -min-time=1 -equivalence=0.001 \
        -output-json="$tmp/cap.json"
    [ $rc -eq 0 ] && grep -q '| = *| `SipHash_32b`' "$tmp/out" && break
done
[ $rc -eq 0 ] && grep -q '| = *| `SipHash_32b`' "$tmp/out" \
    || fail "-equivalence=0.001: exit $rc, not '=' in $try tries: $(cat "$tmp/out" "$tmp/err")"
if command -v python3 >/dev/null 2>&1; then
    python3 - "$tmp/seq.json" "$tmp/cap.json" "$prog" "$prog" <<'EOF' \
        || fail "-against -output-json (see above)"
import json, sys
seq, cap = (json.load(open(f)) for f in sys.argv[1:3])
rows = {r["name"]: r for r in seq["results"]}
assert seq["comparedTo"] == sys.argv[4], seq["comparedTo"]
planted, same = rows["SHA256_32b"], rows["SipHash_32b"]
for r in (planted, same):
    assert r["rounds"] in (16, 32, 64), r["rounds"]
    assert r["rounds"] == len(r["measurements"]) == r["epochs"], r["rounds"]
    assert r["comparedTo"] == sys.argv[4] and r["equivalence"] == 50
    assert 0 < r["seconds"] < 30 and r["ratioLow"] <= r["ratio"] <= r["ratioHigh"]
    assert all(m["elapsed"] > 0 and m["iterations"] >= 1 for m in r["measurements"])
assert planted["verdict"] == "slower" and planted["significant"] and planted["regression"]
assert 1 < planted["ratioLow"] and 1.5 < planted["ratio"], planted["ratio"]
assert same["verdict"] == "within" and not same["significant"] and not same["regression"]
assert 1 / 1.5 <= same["ratioLow"] and same["ratioHigh"] <= 1.5
(c,) = cap["results"]
assert c["verdict"] == "=" and c["rounds"] in (16, 32) and c["equivalence"] == 0.001, c["rounds"]
assert c["unit"] == "op" and c["batch"] == 1
EOF
fi
# the one JSON reader reads it: -baseline takes this build's rounds as its epochs
run -filter=SipHash_32b -min-time=5 -baseline="$tmp/cap.json"
[ $rc -eq 0 ] && grep -q '`SipHash_32b`' "$tmp/out" \
    || fail "-baseline of an -against file: exit $rc: $(cat "$tmp/err")"

# An op of a millisecond (SHA256 hashes 1 MB) runs one iteration an epoch: its planted
# slowdown is a busy wait of that share of the epoch, and is found as well.
BENCH_BITCOIN_AGAINST_PLANT=SHA256:100 run -against="$prog" -filter=SHA256 -min-time=5
[ $rc -eq 0 ] && grep -q '| [0-9.]*% slower *| `SHA256`' "$tmp/out" \
    || fail "a planted wait on SHA256: exit $rc, not slower: $(cat "$tmp/out" "$tmp/err")"

# The rounds are spread over 8 pairs of serving processes: the other build is started 8 times,
# and the summary says so.
wrapper counted "echo started >>'$tmp/starts'; exec '$prog' \"\$@\""
run -against="$tmp/counted" -filter=SipHash_32b -min-time=10
[ $rc -eq 0 ] || fail "-against a counted wrapper: exit $rc: $(cat "$tmp/err")"
starts=$(wc -l <"$tmp/starts")
[ "$starts" -eq 8 ] || fail "the other build started $starts times, not 8"
grep -F -q "interleaved round by round over 8 pairs of processes" "$tmp/out" \
    || fail "-against: the summary does not name the pairs: $(cat "$tmp/out")"

# ---- -against: bad other builds ---------------------------------------------------------
bad "-against: cannot run '$tmp/missing': No such file or directory" -against="$tmp/missing" "$FAST"
: >"$tmp/plain"
bad "is not executable" -against="$tmp/plain" "$FAST"
bad "is a directory" -against="$tmp" "$FAST"
wrapper true 'exit 0'
bad "is not a bench_bitcoin serving the -against protocol (version 1): it exited with status 0" \
    -against="$tmp/true" "$FAST"
wrapper chatty 'echo "hello, world"; cat >/dev/null'
bad "does not speak the -against protocol: its first line was 'hello, world'" \
    -against="$tmp/chatty" "$FAST"
# an older bench_bitcoin: it refuses the option it does not know, as bench_bitcoin does
wrapper old "echo \"bench_bitcoin: unknown option '\$1' (see -help)\" >&2; exit 1"
bad "is a bench_bitcoin without the -against protocol (version 1)" -against="$tmp/old" "$FAST"
# a foreign program's complaint is quoted as its own, not taken for this program's (it was
# given bench_bitcoin's argv[0])
wrapper foreign "echo \"bench_bitcoin: invalid option -- 'r'\" >&2; exit 1"
bad "'$tmp/foreign' wrote on stderr: bench_bitcoin: invalid option -- 'r'" \
    -against="$tmp/foreign" "$FAST"
grep -q "^bench_bitcoin: invalid option" "$tmp/err" && fail "the foreign words lead the line"
if [ -x /bin/cat ]; then
    bad "-against: '/bin/cat' is not a bench_bitcoin serving the -against protocol" \
        -against=/bin/cat "$FAST"
fi
wrapper newer 'echo "bench_bitcoin-against 7"; cat >/dev/null'
bad "speaks -against protocol version 7, this build version 1" -against="$tmp/newer" "$FAST"
wrapper silent 'exec sleep 30'
BENCH_BITCOIN_AGAINST_TIMEOUT=1 bad "did not answer within 1 s" -against="$tmp/silent" "$FAST"

# dies or hangs in the middle of a benchmark
wrapper crash "BENCH_BITCOIN_SERVE_FAULT=crash exec '$prog' \"\$@\""
midrun "died while running SHA256_32b: it was killed by signal 9" -against="$tmp/crash" "$FAST"
wrapper hang "BENCH_BITCOIN_SERVE_FAULT=hang exec '$prog' \"\$@\""
start=$(date +%s)
BENCH_BITCOIN_AGAINST_TIMEOUT=1 midrun "did not answer within 1 s while running SHA256_32b" \
    -against="$tmp/hang" "$FAST"
[ $(($(date +%s) - start)) -lt 20 ] || fail "the hung child held the run for 20 s or more"

# benchmarks on one side only: named on stderr, the rest compared
wrapper onesided "'$prog' \"\$@\" | sed -u -e '/^name SipHash_32b\$/d' \
    -e 's/^names-end\$/name OnlyThere\\nnames-end/'"
run -against="$tmp/onesided" '-filter=SHA256_32b|SipHash_32b|Only.*' -min-time=10
[ $rc -eq 0 ] || fail "one-sided: exit $rc: $(cat "$tmp/err")"
[ "$(rows "$tmp/out")" -eq 1 ] && grep -q '`SHA256_32b`' "$tmp/out" \
    || fail "one-sided: not the one common row: $(cat "$tmp/out")"
grep -F -q -- '-against: only in this build, not compared: SipHash_32b' "$tmp/err" \
    || fail "one-sided: this build's own not named: $(cat "$tmp/err")"
grep -F -q -- "-against: only in '$tmp/onesided', not compared: OnlyThere" "$tmp/err" \
    || fail "one-sided: the other's own not named: $(cat "$tmp/err")"
midrun "no selected benchmark is in both builds" -against="$tmp/onesided" -filter=SipHash_32b

# ---- options ----------------------------------------------------------------------------
for v in abc -5 5% '' 1e9 nan; do
    bad "-max-regression: '$v' is not a percentage" -against="$prog" -max-regression="$v"
done
bad "-max-regression needs -against=<bench_bitcoin> or -baseline=<file>" -max-regression=5
bad "-against cannot be combined with -compare" -against="$prog" -compare
bad "-against cannot be combined with -output-csv" -against="$prog" -output-csv="$tmp/x.csv"
bad "-against cannot be combined with -output-html" -against="$prog" -output-json="$tmp/x.json" \
    -output-html="$tmp/x.html"
bad "-against cannot be combined with -output-json" -against="$prog" -instructions \
    -output-json="$tmp/x.json"
for v in 0 -1 abc 1% '' nan 1e9; do
    bad "-equivalence: '$v' is not a percentage (a number > 0" -against="$prog" -equivalence="$v"
done
bad "-equivalence needs -against=<bench_bitcoin>" -equivalence=2
bad "-equivalence needs -against=<bench_bitcoin>" -equivalence=2 -baseline="$tmp/base.json"
bad "-equivalence needs -against=<bench_bitcoin> without -instructions" -equivalence=2 \
    -against="$prog" -instructions
bad "-baseline cannot be combined with -asymptote" -baseline="$tmp/x.json" -asymptote=1
bad "-baseline cannot be combined with -instructions" -baseline="$tmp/x.json" -instructions
bad "-against needs a file name" -against=

# ---- -baseline --------------------------------------------------------------------------
run "$FAST" -min-time=10 -output-json="$tmp/base.json"
[ $rc -eq 0 ] || fail "-output-json for the baseline exited $rc: $(cat "$tmp/err")"
run "$FAST" -min-time=10 -baseline="$tmp/base.json" -output-json="$tmp/next.json" \
    -max-regression=900
[ $rc -eq 0 ] || fail "-baseline round trip exited $rc: $(cat "$tmp/err")"
sed -n '/^-baseline: this run against/,$p' "$tmp/out" >"$tmp/cmp"
[ "$(rows "$tmp/cmp")" -eq 2 ] || fail "-baseline: not 2 compared rows: $(cat "$tmp/out")"
grep -F -q "Unpaired" "$tmp/out" && grep -F -q -- "-against=<other bench_bitcoin>" "$tmp/out" \
    || fail "-baseline does not say it is weaker than -against: $(cat "$tmp/out")"
grep -F -q "2 benchmarks compared with '$tmp/base.json', unpaired" "$tmp/out" \
    || fail "-baseline: no summary: $(cat "$tmp/out")"
[ -s "$tmp/next.json" ] || fail "-baseline with -output-json wrote no file"
# where both sides estimate cycles (x86-64 and AArch64: the clock probe), those are compared;
# a file without them is compared in time, and the output says which
case $(uname -m) in
    x86_64 | aarch64)
        grep -F -q "in estimated core cycles" "$tmp/out" && grep -F -q "~cyc/unit (file)" "$tmp/out" \
            || fail "-baseline: not compared in estimated cycles: $(cat "$tmp/out")"
        grep -v '"estcycles": [0-9]' "$tmp/base.json" >"$tmp/nocyc.json"
        run "$FAST" -min-time=10 -baseline="$tmp/nocyc.json"
        [ $rc -eq 0 ] || fail "-baseline of a file without cycles exited $rc: $(cat "$tmp/err")"
        grep -F -q "in time (estimated cycles are not on both sides" "$tmp/out" \
            && grep -F -q "ns/unit (file)" "$tmp/out" && [ "$(rows "$tmp/out")" -ge 2 ] \
            || fail "-baseline: a file without cycles not compared in time: $(cat "$tmp/out")"
        ;;
esac

# scale FACTOR: base.json with every epoch's time (and estimated cycles) multiplied by FACTOR
scale() {
    awk -v f="$1" '$1 == "\"elapsed\":" || $1 == "\"estcycles\":" {
        k = $1; v = $2; c = ""; if (v ~ /,$/) { c = ","; sub(/,$/, "", v) }
        if (v == "null") { print; next }
        printf "%s%s %.17g%s\n", substr($0, 1, index($0, "\"") - 1), k, v * f, c; next
    } { print }' "$tmp/base.json"
}
# the gate, on a baseline a thousand times faster (and one a thousand times slower)
scale 1e-3 >"$tmp/fast.json"
run "$FAST" -min-time=10 -baseline="$tmp/fast.json" -max-regression=5
[ $rc -eq 1 ] || fail "-baseline of a 1000x faster file: exit $rc, not 1"
[ "$(grep -c 'REGRESSION' "$tmp/out")" -eq 2 ] || fail "-baseline fast file: not 2 regressions"
scale 1e3 >"$tmp/slow.json"
run "$FAST" -min-time=10 -baseline="$tmp/slow.json" -max-regression=5
[ $rc -eq 0 ] || fail "-baseline of a 1000x slower file: exit $rc, not 0"
[ "$(grep -c '% faster' "$tmp/out")" -eq 2 ] || fail "-baseline slow file: not 2 rows faster"

# a benchmark on one side only
run -filter='SHA256_32b|SHA1' -min-time=10 -baseline="$tmp/base.json"
[ $rc -eq 0 ] || fail "-baseline with a row missing exited $rc"
grep -F -q -- "-baseline: only in this run, not compared: SHA1" "$tmp/err" \
    || fail "-baseline: SHA1 not named: $(cat "$tmp/err")"
grep -F -q -- "-baseline: only in '$tmp/base.json', not compared: SipHash_32b" "$tmp/err" \
    || fail "-baseline: SipHash_32b not named: $(cat "$tmp/err")"

# bad files: nothing runs, the output file is not written
head -c 300 "$tmp/base.json" >"$tmp/truncated.json"
echo '{"benchmarks": []}' >"$tmp/foreign.json"
sed 's/"name"/"nom"/' "$tmp/base.json" >"$tmp/noname.json"
sed 's/"elapsed": [0-9.e+-]*/"elapsed": -1/' "$tmp/base.json" >"$tmp/negative.json"
: >"$tmp/empty.json"
bad "-baseline: cannot read '$tmp/none.json': No such file or directory" \
    -baseline="$tmp/none.json" "$FAST" -output-json="$tmp/out.json"
bad "is not JSON (line" -baseline="$tmp/truncated.json" "$FAST" -output-json="$tmp/out.json"
bad "is not a bench_bitcoin -output-json file (no \"results\" list)" \
    -baseline="$tmp/foreign.json" "$FAST" -output-json="$tmp/out.json"
bad "has no \"name\" string" -baseline="$tmp/noname.json" "$FAST"
bad "has no positive \"elapsed\" number" -baseline="$tmp/negative.json" "$FAST"
bad "is empty, not an -output-json file" -baseline="$tmp/empty.json" "$FAST"
bad "cannot read '$tmp'" -baseline="$tmp" "$FAST"
# a file of instruction counts (written under -instructions: counts, no hardware cycles,
# the simulator's times) is refused, before the run
sed 's/"median(instructions)": [a-z0-9.e+-]*/"median(instructions)": 240/' "$tmp/base.json" \
    | sed 's/"cpucycles": [0-9][0-9.e+-]*/"cpucycles": null/' >"$tmp/counts.json"
bad "-baseline: '$tmp/counts.json' holds instruction counts (written under -instructions)" \
    -baseline="$tmp/counts.json" "$FAST" -output-json="$tmp/out.json"
# nothing in common with the selection: found before the run (nothing on stdout, no file)
bad "-baseline: none of the 1 benchmarks selected has a comparable result in '$tmp/base.json'" \
    -baseline="$tmp/base.json" -filter=SHA1 -output-json="$tmp/out.json"
[ ! -e "$tmp/out.json" ] || fail "a failed -baseline left -output-json's file"
[ -z "$(find "$tmp" -name '*.tmp*' 2>/dev/null)" ] || fail "a temporary file was left behind"

echo "test_against: $checks runs, $failures failed"
[ $failures -eq 0 ]
