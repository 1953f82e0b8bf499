#!/bin/sh
# Drives bench_bitcoin through every option and every bad input: exit codes, the one-line
# error on stderr, nothing run (nothing on stdout) before an error, the shape of the output
# (header, rows, complexity table, CSV and JSON files), and no file left behind on failure.
# Runs only fast benchmarks with -min-time=1.
set -u
. "$(dirname "$0")/lib.sh" # fail, run, bad
prog=$top_builddir/bench_bitcoin
make_tmp test_options

# good ARGS...: the program must exit 0.
good() {
    run "$@"
    [ $rc -eq 0 ] || fail "'$*' exited $rc: $(cat "$tmp/err")"
}

# ---- help -------------------------------------------------------------------------------
for h in -help --help -h --h '-?' '--?'; do
    good "$h"
    for word in -filter= -list -asymptote= -min-time= -sanity-check -output-csv= \
                -output-json= -help -compare -no-pin -priority-level= '[openssl]' \
                "Core's 10 ms" 'default: 15' \
                NANOBENCH_ENDLESS NANOBENCH_SUPPRESS_WARNINGS quiet; do
        grep -F -q -- "$word" "$tmp/out" || fail "$h: help does not mention $word"
    done
done

# -help runs the same checks as -list first: a bad value is an error whatever else is given.
bad "-filter: invalid regular expression '('" -help -filter='('
bad "-filter: no benchmark matches 'NoSuch'" -h -filter=NoSuch
bad "-output-csv: cannot write" -help -output-csv=/nonexistent/dir/x.csv
bad "-compare cannot be combined" -h -compare -asymptote=1
good -help -filter=SHA1
# Every occurrence of an option is checked, the last one wins: the same for each kind.
bad "-filter: invalid regular expression '('" -list -filter='(' -filter=SHA1
bad "-min-time: 'abc'" -list -min-time=abc -min-time=1
bad "-output-csv: cannot write '/nonexistent/dir/x.csv'" -list -filter=SHA1 \
    -output-csv=/nonexistent/dir/x.csv -output-csv=/dev/null
bad "-output-json: '$tmp' is a directory" -list -filter=SHA1 -output-json="$tmp" \
    -output-json=/dev/null
good -list -filter=NoSuch -filter=SHA1
[ "$(cat "$tmp/out")" = SHA1 ] || fail "the last -filter did not win: $(cat "$tmp/out")"

# Messages stay one line whatever a value holds: control characters are escaped.
bad "no benchmark matches 'SHA1\\nx'" -filter="$(printf 'SHA1\nx')"
bad "'1\\t'" -list -asymptote="$(printf '1\t')"

# ---- unknown options and malformed arguments ---------------------------------------------
bad "unknown option '-bogus'" -bogus
bad "unknown option '--bogus'" --bogus
bad "unknown option '---filter=SHA1'" ---filter=SHA1
bad "unknown option '-filterx=SHA1'" -filterx=SHA1
bad "unknown option '-Filter=SHA1'" -Filter=SHA1
bad "unknown option '-'" -
bad "unknown option '--'" --
bad "unexpected argument 'SHA256'" SHA256
bad "unknown option '-bogus'" -list -bogus
bad "-list takes no value" -list=1
bad "-sanity-check takes no value" -sanity-check=yes
bad "-help takes no value" -help=1
bad "-no-pin takes no value" -no-pin=1
bad "-filter needs a value" -filter
bad "-asymptote needs a value" -asymptote
bad "-min-time needs a value" --min-time
bad "-output-csv needs a value" -output-csv
bad "-output-json needs a value" -output-json

# ---- -filter ---------------------------------------------------------------------------------
bad "-filter: invalid regular expression '('" -filter='('
bad "-filter: invalid regular expression 'SHA[1'" -filter='SHA[1'
bad "-filter: invalid regular expression '*SHA1'" -filter='*SHA1'
# The regcomp message follows the regex.
run -filter='('
grep -q "invalid regular expression '(': ." "$tmp/err" || fail "no regerror text: $(cat "$tmp/err")"
# Repetition operators in a row (undefined in POSIX; glibc's regcomp took minutes and
# gigabytes over the first) are refused by name, "{,}" being an interval too ...
bad "-filter: 'SHA.*++++++++++++++' has two repetition operators in a row ('*+')" \
    -list -filter='SHA.*++++++++++++++'
bad "has two repetition operators in a row ('{2}{3}')" -list -filter='S{2}{3}'
bad "has two repetition operators in a row ('*?')" -list -filter='SHA1*?'
bad "has two repetition operators in a row ('{,}+')" -list -filter='SHA.{,}+{,}+'
# ... and whatever else keeps the regex library busy is stopped after 2 s of CPU time in the
# child process that runs it (this one runs for minutes otherwise; the next one crashes it,
# and leaves no core file: the child has RLIMIT_CORE 0)
bad "-filter: '((||){14})+' is too complex: the regex library took more than 2 s of CPU" \
    -list -filter='((||){14})+'
bad "-filter: the regex library failed on '(((" -list \
    -filter="$(printf '(%.0s' $(seq 30000))"
# What looks like those, but is not, is a regex like any other.
for f in 'SHA1\*?' '[*+]*SHA1' '[]*+]*SHA1' 'S(H)*(A)+1' '(SHA1)*' 'SH{1}A{1,}1{0,1}' \
         'SHA{1,1}1' 'SHA1{0,300}' '(((((((((SHA1)*)*)*)*)*)*)*)*)*' '[[:upper:]]+[[:digit:]]' \
         "$(printf '(%.0s' $(seq 64))SHA1$(printf ')%.0s' $(seq 64))"; do
    good -list -filter="$f"
    [ "$(cat "$tmp/out")" = "SHA1" ] || fail "-filter='$f' selects: $(cat "$tmp/out")"
done
# With stdin and stderr closed, pipe() returns fds 0 and 2: the child's answer must not go
# where it points stderr (/dev/null).
"$prog" -list -filter=SHA1 >"$tmp/out" <&- 2>&- || fail "stdin and stderr closed: -filter failed"
[ "$(cat "$tmp/out")" = "SHA1" ] || fail "stdin and stderr closed: selects $(cat "$tmp/out")"
# An inherited "SIGCHLD ignored" does not lose the child's answer.
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import os, signal, sys; signal.signal(signal.SIGCHLD, signal.SIG_IGN); os.execv(sys.argv[1], sys.argv[1:])' \
        "$prog" -list -filter=SHA1 >"$tmp/out" 2>"$tmp/err" ||
        fail "SIGCHLD ignored: -filter=SHA1 failed: $(cat "$tmp/err")"
    [ "$(cat "$tmp/out")" = "SHA1" ] || fail "SIGCHLD ignored: selects $(cat "$tmp/out")"
fi
bad "-filter: no benchmark matches 'NoSuchBenchmark'" -filter=NoSuchBenchmark
bad "-filter: no benchmark matches 'SHA'" -filter=SHA      # whole names only, no prefix
bad "-filter: no benchmark matches 'HA1'" -filter=HA1      # nor a part
# ... and the message says so, with the pattern that would select those it matches a part of
bad "the regex must match a whole name; did you mean 'SHA.*'?" -filter=SHA
bad "did you mean '.*HA1.*'?" -list -filter=HA1
bad "did you mean '(SHA|RIPE).*'?" -filter='SHA|RIPE'
bad "no benchmark matches 'NoSuch' (the regex must match a whole name; -list shows them all)" \
    -filter=NoSuch
good -list -filter='(SHA|RIPE).*'
[ "$(grep -c -v -e '^SHA' -e '^RIPEMD160$' "$tmp/out")" -eq 0 ] && grep -q -x RIPEMD160 "$tmp/out" ||
    fail "the suggested pattern does not select: $(cat "$tmp/out")"
bad "-filter: no benchmark matches ''" -filter=
bad "-filter: no benchmark matches 'sha1'" -list -filter='SHA1' -filter=sha1  # last wins

good -list -filter=SHA256
[ "$(cat "$tmp/out")" = "SHA256" ] || fail "-filter=SHA256 selects: $(cat "$tmp/out")"
good --list --filter='SHA256.*'
for name in SHA256 SHA256D64_1024 SHA256_32b SHA256_STANDARD SHA256_32b_STANDARD \
            SHA256D64_1024_STANDARD; do
    grep -q -x "$name" "$tmp/out" || fail "-filter=SHA256.* leaves out $name: $(cat "$tmp/out")"
done
grep -v -q '^SHA256' "$tmp/out" && fail "-filter=SHA256.* selects others: $(cat "$tmp/out")"
good -list -filter='SHA1|RIPEMD160|SHA5.*'
[ "$(cat "$tmp/out")" = "RIPEMD160
SHA1
SHA512" ] || fail "alternation selects: $(cat "$tmp/out")"
# Whole-name matching must not stop at the first alternative that matches a prefix.
good -list -filter='SHA256|SHA256_32b|S|SipHash'
[ "$(cat "$tmp/out")" = "SHA256
SHA256_32b" ] || fail "prefix alternatives select: $(cat "$tmp/out")"
good -list -filter='Prevector.*Trivial'
[ "$(wc -l <"$tmp/out")" -eq 6 ] || fail "Prevector.*Trivial selects: $(cat "$tmp/out")"
good -list -filter='SHA1)' -filter='(SHA1|SHA512)'
[ "$(cat "$tmp/out")" = "SHA1
SHA512" ] || fail "a later -filter does not replace the first: $(cat "$tmp/out")"
good -list
# (which names, exactly, is test_sanity.sh's check: the one list to edit when adding one)
[ -s "$tmp/out" ] || fail "-list shows nothing"
LC_ALL=C sort "$tmp/out" | cmp -s - "$tmp/out" || fail "-list is not in byte-wise order"
[ ! -s "$tmp/err" ] || fail "-list wrote on stderr: $(cat "$tmp/err")"

# The regex library out of memory (REG_ESPACE), through an LD_PRELOAD shim: an error, never
# "invalid regex", and never a benchmark silently left out as if it did not match. Not where
# the shim cannot be built or loaded (the sanitizer build: ASan must come first).
cat >"$tmp/shim.c" <<'EOS'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static void mark(const char *var)
{
    const char *f = getenv(var);
    FILE *out = f ? fopen(f, "w") : NULL;
    if (out)
        fclose(out);
}
__attribute__((constructor)) static void loaded(void)
{
    mark("SHIM_LOADED");
}
int regcomp(regex_t *re, const char *pattern, int flags)
{
    int (*real)(regex_t *, const char *, int);
    if (getenv("SHIM_REGCOMP_ESPACE"))
        return REG_ESPACE;
    *(void **)&real = dlsym(RTLD_NEXT, "regcomp");
    return real(re, pattern, flags);
}
int regexec(const regex_t *re, const char *s, size_t n, regmatch_t m[], int flags)
{
    int (*real)(const regex_t *, const char *, size_t, regmatch_t *, int);
    const char *fail = getenv("SHIM_REGEXEC_ESPACE");
    mark("SHIM_REGEXEC_CALLED");
    if (fail && strcmp(fail, s) == 0)
        return REG_ESPACE;
    *(void **)&real = dlsym(RTLD_NEXT, "regexec");
    return real(re, s, n, m, flags);
}
EOS
if [ -z "${SAN_LDFLAGS:-}" ] &&
   { ${CC:-cc} -shared -fPIC -o "$tmp/shim.so" "$tmp/shim.c" 2>/dev/null ||
     ${CC:-cc} -shared -fPIC -o "$tmp/shim.so" "$tmp/shim.c" -ldl 2>/dev/null; } &&
   LD_PRELOAD="$tmp/shim.so" SHIM_LOADED="$tmp/loaded" SHIM_REGEXEC_CALLED="$tmp/called" \
       "$prog" -list -filter=SHA1 >/dev/null 2>&1 &&
   [ -f "$tmp/loaded" ] && [ -f "$tmp/called" ]; then
    export LD_PRELOAD="$tmp/shim.so"
    SHIM_REGCOMP_ESPACE=1 bad "-filter: out of memory compiling 'SHA1'" -list -filter=SHA1
    SHIM_REGEXEC_ESPACE=SHA1 bad "-filter: out of memory while matching 'SHA.*'" \
        -list -filter='SHA.*'
    SHIM_REGEXEC_ESPACE=SHA1 bad "-filter: out of memory while matching 'SHA.*'" \
        -sanity-check -filter='SHA.*' -output-csv="$tmp/espace.csv"
    [ ! -e "$tmp/espace.csv" ] || fail "REG_ESPACE: the CSV file was written"
    SHIM_REGEXEC_ESPACE=NoSuchName good -list -filter='SHA1'
    unset LD_PRELOAD
else
    echo "REG_ESPACE checks left out: no LD_PRELOAD shim for regcomp/regexec here"
fi

# ---- -asymptote ------------------------------------------------------------------------------
for v in '' '1,,2' '1,' ',1' 'abc' '0' '1,0' '-5' '5x' '0x10' 'inf' 'nan' ' 5' '+5' '1;2' \
         '1.2.3' 'e5' '.'; do
    bad "-asymptote: " -filter=SipHash_32b -asymptote="$v"
done
bad "-asymptote: '1e999' is above the maximum 10000" -filter=SipHash_32b -asymptote=1e999
bad "-asymptote: '0' is not a whole number >= 1" -filter=SipHash_32b -asymptote=10,0
# n counts ComplexMemPool's transactions: a fraction would run one size and be fitted as another.
bad "-asymptote: '1.9' is not a whole number >= 1" -filter=ComplexMemPool -asymptote=1,1.9,4
bad "-asymptote: '0.5' is not a whole number >= 1" -asymptote=0.5
bad "-asymptote: '1e-400' is not a whole number >= 1" -asymptote=1e-400
bad "-asymptote: empty item in '10,,20'" -filter=SipHash_32b -asymptote=10,,20
# Long spellings of good numbers are fine (no fixed-size buffer).
good -list -asymptote=0000000000000000000000000000000000000000000000000000000000000000000100,1e3,2.0
# ComplexMemPool's memory grows with n^2: n is capped, and checked before anything runs.
bad "-asymptote: '10001' is above the maximum 10000" -filter=ComplexMemPool -asymptote=10001
bad "-asymptote: '1e12' is above the maximum 10000" -filter=ComplexMemPool -asymptote=5,1e12
bad "-asymptote: '10000.5' is above the maximum 10000" -asymptote=10000.5
good -sanity-check -filter=SipHash_32b -asymptote=10000
good -sanity-check -no-pin -filter=SipHash_32b

# ---- -min-time ------------------------------------------------------------------------------
for v in '' 'abc' '-1' '10ms' '1e999' '0x10' 'inf' ' 1'; do
    bad "-min-time: " -filter=SipHash_32b -min-time="$v"
done
bad "-min-time: '1e400' milliseconds is too long" -min-time=1e400
# Finite but absurd (a run of centuries) is refused too, checked with the other options
# (-list runs nothing): the cap is 1e12 ms, and its next whole number is above it.
bad "-min-time: '1e13' milliseconds is too long" -list -min-time=1e13
bad "-min-time: '1000000000001' milliseconds is too long" -list -min-time=1000000000001
good -list -min-time=1e12
# Too small for a double is not too long: it is (nearly) 0.
good -list -min-time=1e-400
good -list -min-time=1e-310

# ---- output files that cannot be written: nothing runs, nothing is left behind -----------
mkdir "$tmp/d"
bad "-output-csv: cannot write '$tmp/no/such/dir/x.csv'" -filter=SHA1 \
    -output-csv="$tmp/no/such/dir/x.csv"
bad "-output-json: '$tmp/d' is a directory" -filter=SHA1 -output-json="$tmp/d"
bad "-output-json: '$tmp/d/' is not a file name" -filter=SHA1 -output-json="$tmp/d/"
bad "-output-csv needs a file name" -output-csv=
bad "name the same file" -output-csv="$tmp/d/x" -output-json="$tmp/d/x"
bad "name the same file" -output-csv="$tmp/d/x" -output-json="$tmp/d/../d/./x"
echo old >"$tmp/real.csv"
ln -s real.csv "$tmp/link.csv"
ln "$tmp/real.csv" "$tmp/hard.csv"
bad "name the same file" -output-csv="$tmp/link.csv" -output-json="$tmp/real.csv"
bad "name the same file" -output-csv="$tmp/hard.csv" -output-json="$tmp/real.csv"
ln -s nowhere "$tmp/d/dangling"
bad "-output-csv: '$tmp/d/dangling' is a symbolic link that leads nowhere" \
    -output-csv="$tmp/d/dangling"
rm "$tmp/d/dangling"
[ -S /dev/log ] && bad "is neither a regular file, a character device nor a FIFO" \
    -output-csv=/dev/log
# -list writes nothing, but still refuses a file it could not write.
bad "-output-csv: cannot write '$tmp/no/x.csv'" -list -output-csv="$tmp/no/x.csv"
# The CSV's temporary is created first, then the JSON one fails: the CSV one must go too.
bad "-output-json: cannot write" -filter=SHA1 -output-csv="$tmp/d/a.csv" \
    -output-json="$tmp/no/b.json"
if [ "$(id -u)" -ne 0 ]; then
    mkdir "$tmp/ro" && chmod 555 "$tmp/ro"
    bad "-output-csv: cannot write" -filter=SHA1 -output-csv="$tmp/ro/x.csv"
    touch "$tmp/d/readonly.csv" && chmod 444 "$tmp/d/readonly.csv"
    bad "-output-csv: cannot write" -filter=SHA1 -output-csv="$tmp/d/readonly.csv"
    rm -f "$tmp/d/readonly.csv"
fi
# Root may write /proc/version, but nothing can be created beside it: the message says which.
if [ "$(id -u)" = 0 ] && [ -f /proc/version ]; then
    bad "-output-csv: cannot write '/proc/version': creating a file beside it failed" -list \
        -output-csv=/proc/version
fi
# Bad input after good output options: their temporaries are made only after the options parse.
bad "unknown option" -output-csv="$tmp/d/a.csv" -nope
[ -z "$(ls -A "$tmp/d")" ] || fail "files left behind after errors: $(ls -A "$tmp/d")"

# Through a symbolic link: the file it points to gets the results (keeping its mode), the
# link stays a link.
chmod 640 "$tmp/real.csv"
good -filter=SipHash_32b -min-time=1 -output-csv="$tmp/link.csv"
[ -L "$tmp/link.csv" ] || fail "-output-csv replaced the symbolic link"
head -1 "$tmp/real.csv" | grep -q '^# Benchmark, evals,' ||
    fail "-output-csv did not write through the link"
[ "$(stat -c %a "$tmp/real.csv")" = 640 ] || fail "-output-csv changed the mode to $(stat -c %a "$tmp/real.csv")"
rm -f "$tmp/real.csv" "$tmp/link.csv" "$tmp/hard.csv"
# /dev/stdout: appended after the table, whether stdout is a file ($tmp/out) or a pipe.
good -filter=SipHash_32b -min-time=1 -output-csv=/dev/stdout -output-json=/dev/stdout
line_of() { grep -n -m1 -e "$1" "$tmp/out" | cut -d: -f1; }
t=$(line_of '^|.*SipHash_32b'); c=$(line_of '^# Benchmark, evals'); j=$(line_of '"results"')
[ -n "$t" ] && [ -n "$c" ] && [ -n "$j" ] && [ "$t" -lt "$c" ] && [ "$c" -lt "$j" ] ||
    fail "-output-csv/-json=/dev/stdout: not table, CSV, JSON in order: $(cat "$tmp/out")"
"$prog" -filter=SipHash_32b -min-time=1 -output-csv=/dev/stdout 2>/dev/null |
    grep -q '^SipHash_32b, 11, ' || fail "-output-csv=/dev/stdout on a pipe wrote no CSV row"
n=$("$prog" -filter=SipHash_32b -min-time=1 -output-csv=/dev/stdout -output-json=/dev/stdout \
    2>/dev/null | grep -c -e '^SipHash_32b, 11, ' -e '"name": "SipHash_32b"')
[ "$n" = 2 ] || fail "-output-csv and -output-json both /dev/stdout on a pipe: $n of 2 outputs"
# Any name for stdout is stdout (here a link to it): appended, not renamed over the file.
ln -s /dev/stdout "$tmp/so.csv"
good -filter=SipHash_32b -min-time=1 -output-csv="$tmp/so.csv"
grep -q '^|.*SipHash_32b' "$tmp/out" && grep -q '^SipHash_32b, 11, ' "$tmp/out" ||
    fail "-output-csv through a link to /dev/stdout lost the table or the CSV: $(cat "$tmp/out")"
rm -f "$tmp/so.csv"
# The file stderr was redirected to is stderr too: written in place, after the message
# already there, and still the file the shell opened (renaming over it would drop the message,
# and later ones would go to a file no name leads to).
: >"$tmp/d/e.csv"
ino=$(ls -i "$tmp/d/e.csv" | cut -d' ' -f1)
"$prog" -filter=SipHash_32b -min-time=1 -output-csv="$tmp/d/e.csv" >/dev/null 2>"$tmp/d/e.csv"
rc=$?
checks=$((checks + 1))
[ $rc -eq 0 ] || fail "-output-csv to the file stderr goes to: exit $rc: $(cat "$tmp/d/e.csv")"
[ "$(cut -c 1-10 "$tmp/d/e.csv" | tr '\n' ' ')" = "Using the  # Benchmar SipHash_32 " ] ||
    fail "-output-csv to stderr's file: not the message, then the CSV: $(cat "$tmp/d/e.csv")"
[ "$(ls -i "$tmp/d/e.csv" | cut -d' ' -f1)" = "$ino" ] ||
    fail "-output-csv to stderr's file replaced the file"
rm -f "$tmp/d/e.csv"
# stdout closed: the table cannot be written, and the CSV's temporary must not take its place.
# It is refused before anything runs (the first descriptor opened would become stdout).
for what in table:-filter=SipHash_32b list:-list help:-help; do
    "$prog" "${what#*:}" -min-time=1 -output-csv="$tmp/d/c.csv" >&- 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] || fail "${what#*:} with stdout closed exited $rc, not 2"
    [ -z "$(ls -A "$tmp/d")" ] || fail "files left with stdout closed: $(ls -A "$tmp/d")"
    want="bench_bitcoin: stdout is closed: the ${what%%:*} has nowhere to go"
    [ "$(cat "$tmp/err")" = "$want" ] ||
        fail "${what#*:} with stdout closed: not the one line: $(cat "$tmp/err")"
done
"$prog" -sanity-check -filter=SipHash_32b >&- 2>/dev/null ||
    fail "-sanity-check, which prints nothing, failed with stdout closed"
# stderr closed: the first temporary would get descriptor 2, and the 'Using the ... SHA256
# implementation' line written after it is opened would land in the CSV. The run works (its
# messages are lost), the files hold nothing but their own content.
"$prog" -filter=SipHash_32b -min-time=1 -output-csv="$tmp/d/c.csv" \
    -output-json="$tmp/d/c.json" >/dev/null 2>&-
rc=$?
checks=$((checks + 1))
[ $rc -eq 0 ] || fail "a run with stderr closed exited $rc"
[ "$(cut -d, -f1 "$tmp/d/c.csv" 2>/dev/null | tr '\n' ' ')" = "# Benchmark SipHash_32b " ] ||
    fail "stderr closed: the CSV is not a header and one row: $(cat "$tmp/d/c.csv")"
[ "$(head -c 1 "$tmp/d/c.json" 2>/dev/null)" = "{" ] && ! grep -q Using "$tmp/d/c.json" ||
    fail "stderr closed: the JSON holds more: $(head -3 "$tmp/d/c.json")"
rm -f "$tmp/d/c.csv" "$tmp/d/c.json"
# A character device or a FIFO is written in place, never replaced.
good -filter=SipHash_32b -min-time=1 -output-csv=/dev/null -output-json=/dev/null
[ -c /dev/null ] || fail "/dev/null is no longer a character device"
mkfifo "$tmp/fifo"
timeout 60 cat "$tmp/fifo" >"$tmp/fifo.out" &   # never hangs the suite
reader=$!
good -filter=SipHash_32b -min-time=1 -output-json="$tmp/fifo"
# A failed run may never have opened it: release the reader (bounded too).
[ $rc -eq 0 ] || timeout 5 sh -c ': >"$1"' sh "$tmp/fifo"
wait $reader
[ -p "$tmp/fifo" ] || fail "-output-json replaced the FIFO"
grep -q '"name": "SipHash_32b"' "$tmp/fifo.out" || fail "nothing came through the FIFO"
# A slow reader: the FIFO was opened without blocking (to wait for a reader), but the writes
# must block, not fail with EAGAIN once the pipe is full: 24 results make well over the
# 64 KiB a pipe holds, written before the reader starts reading (2 s after it opened it).
ns=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24
timeout 60 sh -c '{ sleep 2; cat; } <"$1" >"$2"' sh "$tmp/fifo" "$tmp/fifo.out" &
reader=$!
good -filter=SipHash_32b -min-time=0 -asymptote=$ns -output-json="$tmp/fifo"
[ $rc -eq 0 ] || timeout 5 sh -c ': >"$1"' sh "$tmp/fifo"
wait $reader
[ "$(wc -c <"$tmp/fifo.out")" -gt 65536 ] ||
    fail "a FIFO with a slow reader: only $(wc -c <"$tmp/fifo.out") bytes came through"
[ "$(grep -c '"name": "SipHash_32b"' "$tmp/fifo.out")" -eq 24 ] ||
    fail "a FIFO with a slow reader: not 24 results: $(tail -c 200 "$tmp/fifo.out")"
if command -v python3 >/dev/null 2>&1; then
    python3 -m json.tool "$tmp/fifo.out" >/dev/null ||
        fail "a FIFO with a slow reader: the JSON does not parse"
fi
rm -f "$tmp/fifo.out"
# A FIFO nobody reads is an error before the run (after 5 s for a reader to come), not a
# hang after it.
timeout 60 "$prog" -filter=SipHash_32b -min-time=1 -output-json="$tmp/fifo" \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
checks=$((checks + 1))
[ $rc -eq 2 ] || fail "a FIFO without a reader: exit $rc, not 2 (124: it hung)"
grep -q 'no process opened the FIFO for reading within 5 s' "$tmp/err" ||
    fail "a FIFO without a reader: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "a FIFO without a reader: the benchmarks ran"
# -list only checks it (opening it would end the reader's stream).
good -list -filter=SipHash_32b -output-json="$tmp/fifo"
rm -f "$tmp/fifo" "$tmp/fifo.out"

# Two files are replaced together: when the second rename fails (here its target turns into
# a directory during a 3 s run), the first is put back as it was and nothing is left.
second_rename_fails() {
    "$prog" -filter=SHA1 -min-time=3000 -no-pin -output-csv="$tmp/d/t.csv" \
        -output-json="$tmp/d/t.json" >/dev/null 2>"$tmp/err" &
    pid=$!
    sleep 1
    rm -f "$tmp/d/t.json" && mkdir "$tmp/d/t.json"
    wait $pid
    rc=$?
    checks=$((checks + 1))
    [ $rc -eq 2 ] || fail "a failed second rename exited $rc, not 2"
    grep -q 'no output file was changed' "$tmp/err" || fail "rollback message: $(cat "$tmp/err")"
}
echo old-csv >"$tmp/d/t.csv"
echo old-json >"$tmp/d/t.json"
second_rename_fails
[ "$(cat "$tmp/d/t.csv")" = old-csv ] || fail "a failed second rename left the CSV replaced"
[ "$(ls -A "$tmp/d" | sort | tr '\n' ' ')" = "t.csv t.json " ] ||
    fail "files left after a rollback: $(ls -A "$tmp/d")"
rm -rf "$tmp/d/t.csv" "$tmp/d/t.json"
# ... and when the CSV was new, it is removed again.
echo old-json >"$tmp/d/t.json"
second_rename_fails
[ "$(ls -A "$tmp/d")" = t.json ] || fail "a new CSV stayed after a rollback: $(ls -A "$tmp/d")"
rm -rf "$tmp/d/t.json"

# Another user's file in a sticky directory (/tmp-like) is writable but cannot be renamed
# over: refused before the run (needs root to set up; run as nobody through setpriv).
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
    mkdir "$tmp/sticky" && chmod 1777 "$tmp/sticky" && chmod 755 "$tmp"
    echo root-file >"$tmp/sticky/shared.csv" && chmod 666 "$tmp/sticky/shared.csv"
    setpriv --reuid=65534 --regid=65534 --clear-groups "$prog" -filter=SipHash_32b \
        -min-time=1 -output-csv="$tmp/sticky/shared.csv" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    checks=$((checks + 1))
    [ $rc -eq 2 ] || fail "another user's file in a sticky directory: exit $rc, not 2"
    grep -q "cannot replace '.*shared.csv': it belongs to another user" "$tmp/err" ||
        fail "sticky directory: $(cat "$tmp/err")"
    [ ! -s "$tmp/out" ] || fail "sticky directory: the benchmarks ran"
    [ "$(cat "$tmp/sticky/shared.csv")" = root-file ] || fail "sticky directory: file changed"
    [ "$(ls -A "$tmp/sticky")" = shared.csv ] || fail "sticky: files left: $(ls -A "$tmp/sticky")"
    chmod 700 "$tmp"
else
    untested "another user's file in a sticky directory (needs root and setpriv)"
fi

# A failure after the run (the table cannot be written): no output file, no temporary.
if [ -w /dev/full ]; then
    "$prog" -filter=SipHash_32b -min-time=1 -output-csv="$tmp/d/a.csv" \
        -output-json="$tmp/d/a.json" >/dev/full 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] || fail "writing the table to /dev/full exited $rc, not 2"
    [ -z "$(ls -A "$tmp/d")" ] || fail "files left after a failed run: $(ls -A "$tmp/d")"
    grep -q "^bench_bitcoin: SipHash_32b: writing the table to stdout failed: No space left" \
        "$tmp/err" || fail "the table to /dev/full: no or a wrong message: $(cat "$tmp/err")"
    # the same through -compare's tables, and -list's names: one error line, exit 2
    "$prog" -compare -filter=SHA1 -min-time=1 >/dev/full 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] || fail "-compare to /dev/full exited $rc, not 2"
    [ "$(grep -c '^bench_bitcoin: ' "$tmp/err")" -eq 1 ] &&
        grep -q "^bench_bitcoin: SHA1: writing the table to stdout failed: No space left" \
        "$tmp/err" || fail "-compare to /dev/full: $(cat "$tmp/err")"
    "$prog" -list >/dev/full 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "bench_bitcoin: writing to stdout failed" ] ||
        fail "-list to /dev/full: exit $rc: $(cat "$tmp/err")"
fi

# Killed while running (NANOBENCH_ENDLESS never ends): the temporaries are removed.
NANOBENCH_ENDLESS=SipHash_32b "$prog" -filter=SipHash_32b -output-csv="$tmp/d/k.csv" \
    >"$tmp/out" 2>"$tmp/err" &
pid=$!
i=0
while [ $i -lt 50 ] && [ -z "$(ls -A "$tmp/d")" ]; do sleep 0.1; i=$((i + 1)); done
[ -n "$(ls -A "$tmp/d")" ] || fail "no temporary output file while running"
i=0 # the notice comes as the benchmark starts
while [ $i -lt 50 ] && ! grep -q "NANOBENCH_ENDLESS set" "$tmp/err"; do
    sleep 0.1; i=$((i + 1))
done
sleep 0.3
kill -TERM $pid
wait $pid 2>/dev/null
rc=$?
[ $rc -ne 0 ] || fail "killed endless run exited 0"
[ -z "$(ls -A "$tmp/d")" ] || fail "files left after SIGTERM: $(ls -A "$tmp/d")"
grep -q "NANOBENCH_ENDLESS set: running 'SipHash_32b'" "$tmp/err" ||
    fail "endless run said nothing on stderr"
# A signal the parent set to be ignored (nohup, trap '' HUP) stays ignored.
(trap '' HUP; NANOBENCH_ENDLESS=SipHash_32b exec "$prog" -filter=SipHash_32b \
    -output-csv="$tmp/d/h.csv" >/dev/null 2>&1) &
pid=$!
i=0
while [ $i -lt 50 ] && [ -z "$(ls -A "$tmp/d")" ]; do sleep 0.1; i=$((i + 1)); done
kill -HUP $pid
sleep 0.3
kill -0 $pid 2>/dev/null || fail "an ignored SIGHUP ended the run"
kill -TERM $pid
wait $pid 2>/dev/null
[ -z "$(ls -A "$tmp/d")" ] || fail "files left after SIGTERM: $(ls -A "$tmp/d")"

# ---- a normal run: the table ------------------------------------------------------------
good -filter='SHA1|SipHash_32b|RIPEMD160' -min-time=1
grep -q "^Using the '.*' SHA256 implementation\$" "$tmp/err" ||
    fail "no SHA256 implementation line: $(cat "$tmp/err")"
grep '^|' "$tmp/out" >"$tmp/table"
head -1 "$tmp/table" | grep -q '^| *ns/byte *| *byte/s *| *err% *|' ||
    fail "bad header: $(head -1 "$tmp/table")"
head -1 "$tmp/table" | grep -q '| *total *| benchmark$' || fail "bad header: $(head -1 "$tmp/table")"
sed -n 2p "$tmp/table" | grep -q '^|-*:|' || fail "bad separator: $(sed -n 2p "$tmp/table")"
grep -c '^| *[0-9]' "$tmp/table" | grep -q '^3$' || fail "not 3 rows: $(cat "$tmp/table")"
# The benchmark's name is the first backticked word of a row (advice may follow it).
[ "$(sed -n 's/^| *[0-9][^`]*`\([^`]*\)`.*/\1/p' "$tmp/table" | tr '\n' ' ')" = \
  "RIPEMD160 SHA1 SipHash_32b " ] || fail "rows not in byte-wise order: $(cat "$tmp/table")"
# SipHash_32b counts ops, the hashes bytes: a new header for the new unit.
grep -q '^| *ns/op *| *op/s' "$tmp/table" || fail "no ns/op header for SipHash_32b"

# ---- -asymptote: one row per n, then the fit table ---------------------------------------
good -filter=SipHash_32b -asymptote=1,2,4,8 -min-time=1
grep -q "one size cannot" "$tmp/err" &&
    fail "-asymptote=1,2,4,8: a one-size note: $(cat "$tmp/err")"
grep -q '^| *complexityN *|' "$tmp/out" || fail "no complexityN column: $(cat "$tmp/out")"
for n in 1 2 4 8; do
    grep -q "^| *$n *|.*\`SipHash_32b\`" "$tmp/out" || fail "no row for n=$n"
done
grep -q '^| *coefficient *| *err% *| complexity$' "$tmp/out" || fail "no fit table header"
for f in 'O(1)' 'O(n)' 'O(log n)' 'O(n log n)' 'O(n^2)' 'O(n^3)'; do
    grep -F -q "| $f" "$tmp/out" || fail "fit table lacks $f"
done
# One size only: the table, and a note that it cannot tell the fits apart.
good -filter=SipHash_32b -asymptote=7,7 -min-time=1
grep -q '| O(n^2)$' "$tmp/out" || fail "-asymptote=7,7: no fit table: $(cat "$tmp/out")"
grep -q "^-asymptote: every row has n = 7, and one size cannot tell the fits apart" "$tmp/err" ||
    fail "-asymptote=7,7: no note that one size tells nothing: $(cat "$tmp/err")"
# The real use: ComplexMemPool's n is its number of child transactions.
good -filter=ComplexMemPool -asymptote=5,10,20 -min-time=1
[ "$(grep -c '`ComplexMemPool`' "$tmp/out")" -eq 3 ] || fail "ComplexMemPool: not 3 rows"
grep -q '^| *coefficient' "$tmp/out" || fail "ComplexMemPool: no fit table"
# Two benchmarks: one fit table each.
good -filter='SHA256_32b|SipHash_32b' -asymptote=1,2 -min-time=1
[ "$(grep -c '^| *coefficient' "$tmp/out")" -eq 2 ] || fail "not one fit table per benchmark"
# Two with the same unit: the second one's rows still start with their own header, not
# under the first one's fit table.
good -filter='SHA1|SHA512' -asymptote=1,2 -min-time=1
[ "$(grep -c '^| complexityN' "$tmp/out")" -eq 2 ] || fail "no header after a fit table: $(cat "$tmp/out")"
# -sanity-check prints no table, not even the fit table.
good -sanity-check -filter=SipHash_32b -asymptote=1,2
[ ! -s "$tmp/out" ] || fail "-sanity-check -asymptote printed: $(cat "$tmp/out")"

# ---- CSV and JSON files ---------------------------------------------------------------------
echo old >"$tmp/d/r.csv"
good -filter='SHA1|SipHash_32b' -min-time=1 -output-csv="$tmp/d/r.csv" \
    --output-json="$tmp/d/r.json"
[ "$(ls -A "$tmp/d" | tr '\n' ' ')" = "r.csv r.json " ] ||
    fail "output directory holds: $(ls -A "$tmp/d")"
head -1 "$tmp/d/r.csv" | grep -q '^# Benchmark, evals,' || fail "CSV header: $(head -1 "$tmp/d/r.csv")"
[ "$(wc -l <"$tmp/d/r.csv")" -eq 3 ] || fail "CSV is not a header and 2 rows: $(cat "$tmp/d/r.csv")"
[ "$(tail -n +2 "$tmp/d/r.csv" | cut -d, -f1 | tr '\n' ' ')" = "SHA1 SipHash_32b " ] ||
    fail "CSV names: $(cat "$tmp/d/r.csv")"
bad_rows=$(tail -n +2 "$tmp/d/r.csv" | awk -F, 'NF != 7 || !($2 == 11 && $3 >= 1 && $4 > 0 &&
    $5 > 0 && $5 <= $7 && $7 <= $6) { print }')
[ -z "$bad_rows" ] || fail "CSV rows malformed (7 fields, 11 epochs, min <= median <= max): $bad_rows"
[ "$(stat -c %a "$tmp/d/r.csv" 2>/dev/null || echo 644)" != 600 ] ||
    fail "CSV kept the temporary file's 0600 mode"
# A new file gets what any new file gets: 0666 less the umask (mkstemp's 0600 is not it).
if stat -c %a "$tmp" >/dev/null 2>&1; then
    for m in 022:644 027:640 002:664; do
        rm -f "$tmp/d/u.csv" "$tmp/d/u.json"
        (umask "${m%:*}" && exec "$prog" -filter=SipHash_32b -min-time=1 \
            -output-csv="$tmp/d/u.csv" -output-json="$tmp/d/u.json") >/dev/null 2>&1 ||
            fail "a run under umask ${m%:*} failed"
        for f in u.csv u.json; do
            [ "$(stat -c %a "$tmp/d/$f")" = "${m#*:}" ] ||
                fail "new $f under umask ${m%:*}: mode $(stat -c %a "$tmp/d/$f"), not ${m#*:}"
        done
    done
    rm -f "$tmp/d/u.csv" "$tmp/d/u.json"
fi
grep -q '"SHA1"' "$tmp/d/r.json" && grep -q '"SipHash_32b"' "$tmp/d/r.json" ||
    fail "JSON lacks a result: $(head -c 300 "$tmp/d/r.json")"
if command -v python3 >/dev/null 2>&1; then
    python3 - "$tmp/d/r.json" <<'EOF' || fail "JSON structure (see above)"
import json, sys
doc = json.load(open(sys.argv[1]))
res = doc["results"]
assert [r["name"] for r in res] == ["SHA1", "SipHash_32b"], [r["name"] for r in res]
for r in res:
    assert r["epochs"] == 11, r["epochs"]
    assert len(r["measurements"]) == r["epochs"], len(r["measurements"])
    assert all(m["elapsed"] > 0 and m["iterations"] >= 1 for m in r["measurements"])
assert res[0]["unit"] == "byte" and res[0]["batch"] == 1000000, (res[0]["unit"], res[0]["batch"])
assert res[1]["unit"] == "op" and res[1]["batch"] == 1, (res[1]["unit"], res[1]["batch"])
# Estimated cycles on x86-64 and AArch64 (the clock probe's chain): every epoch has some, the
# median is the median of the epochs', and they imply a clock between 0.2 and 10 GHz.
import platform, statistics
if platform.machine() in ("x86_64", "aarch64"):
    for r in res:
        cyc = [m["estcycles"] for m in r["measurements"]]
        assert all(c is not None and c > 0 for c in cyc), cyc
        assert abs(r["median(estcycles)"] / statistics.median(cyc) - 1) < 1e-9
        ghz = [c / (m["elapsed"] * 1e9) for c, m in zip(cyc, r["measurements"])]
        assert all(0.2 < g < 10 for g in ghz), ghz
EOF
fi

# -min-time spreads over the epochs: 22 ms over 11 epochs is a 2 ms minimum epoch time.
if command -v python3 >/dev/null 2>&1; then
    good -filter=SipHash_32b -min-time=22 -output-json="$tmp/d/t.json"
    python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert abs(r["minEpochTime"] - 0.002) < 1e-9, r["minEpochTime"]
' "$tmp/d/t.json" || fail "-min-time=22 did not give a 2 ms minimum epoch time"
    # 0 keeps the harness's default (1 ms); decimals are accepted.
    good -filter=SipHash_32b -min-time=0 -output-json="$tmp/d/t.json"
    python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert abs(r["minEpochTime"] - 0.001) < 1e-9, r["minEpochTime"]
' "$tmp/d/t.json" || fail "-min-time=0 changed the harness's minimum epoch time"
    good -filter=SipHash_32b -min-time=1.1 -output-json="$tmp/d/t.json"
    python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert abs(r["minEpochTime"] - 0.0001) < 1e-9, r["minEpochTime"]
' "$tmp/d/t.json" || fail "-min-time=1.1 did not give a 0.1 ms minimum epoch time"
fi

# The default -min-time is 15 ms (not Core's 10): 15/11 ms per epoch.
if command -v python3 >/dev/null 2>&1; then
    good -filter=SipHash_32b -output-json="$tmp/d/t.json"
    python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert abs(r["minEpochTime"] - 0.015 / 11) < 1e-8, r["minEpochTime"]
' "$tmp/d/t.json" || fail "the default -min-time is not 15 ms over 11 epochs"
fi

# -sanity-check: no table on stdout, but the files are written.
rm -f "$tmp/d"/*
good -sanity-check -filter=SHA256_32b -output-csv="$tmp/d/s.csv"
[ ! -s "$tmp/out" ] || fail "-sanity-check printed a table"
[ "$(tail -n +2 "$tmp/d/s.csv" | cut -d, -f1-3)" = "SHA256_32b, 1, 1" ] ||
    fail "-sanity-check CSV: $(cat "$tmp/d/s.csv")"

# ---- -compare ------------------------------------------------------------------------------
if grep -q '^#define HAVE_OPENSSL 1' "$top_builddir/config.h" 2>/dev/null; then
    openssl=yes
else
    openssl=no
fi
bad "-compare takes no value" -compare=1
bad "-compare cannot be combined with -asymptote" -compare -asymptote=1,2
bad "-compare cannot be combined with -asymptote" -asymptote=1 -list -compare
bad "-compare cannot be combined with -instructions" -compare -instructions
bad "-compare: no selected benchmark has implementations to compare" -compare -filter=RIPEMD160
bad "-compare: no selected benchmark has implementations to compare" -compare -list \
    -filter='Prevector.*|SipHash_32b'
bad "-filter: no benchmark matches 'SHA'" -compare -filter=SHA

# -list -compare: the rows, grouped by benchmark in name order: [auto] first, then
# [standard] (always there) and the other implementations, then [openssl] with OpenSSL.
good -list -compare
[ "$(sed 's/ \[.*//' "$tmp/out" | uniq | tr '\n' ' ')" = \
  "CHACHA20_1MB CHACHA20_256BYTES CHACHA20_64BYTES FSCHACHA20POLY1305_1MB \
FSCHACHA20POLY1305_256BYTES FSCHACHA20POLY1305_64BYTES MerkleRoot MerkleRootWithMutation MuHash \
MuHashDiv MuHashFinalize MuHashMul POLY1305_1MB POLY1305_256BYTES POLY1305_64BYTES PrePadded \
RegularPadded SHA1 SHA256 SHA256D64_1024 SHA256_32b SHA3_256_1M SHA512 " ] ||
    fail "-list -compare groups: $(cat "$tmp/out")"
grep -v -q '^[A-Za-z0-9_]* \[[a-z0-9]*\]$' "$tmp/out" &&
    fail "-list -compare: malformed row names: $(cat "$tmp/out")"
for h in CHACHA20_1MB CHACHA20_256BYTES CHACHA20_64BYTES FSCHACHA20POLY1305_1MB \
    FSCHACHA20POLY1305_256BYTES FSCHACHA20POLY1305_64BYTES POLY1305_1MB POLY1305_256BYTES \
    POLY1305_64BYTES SHA1 SHA256 SHA256D64_1024 SHA256_32b SHA3_256_1M SHA512; do
    grep "^$h \[" "$tmp/out" >"$tmp/group"
    [ "$(sed -n 1p "$tmp/group")" = "$h [auto]" ] || fail "$h: [auto] is not first"
    [ "$(sed -n 2p "$tmp/group")" = "$h [standard]" ] || fail "$h: [standard] is not second"
    [ "$(sort "$tmp/group" | uniq -d)" = "" ] || fail "$h: repeated rows: $(cat "$tmp/group")"
    if [ $openssl = yes ]; then
        [ "$(tail -n 1 "$tmp/group")" = "$h [openssl]" ] || fail "$h: [openssl] is not last"
    else
        grep -q openssl "$tmp/group" && fail "$h: an [openssl] row without OpenSSL"
    fi
done
grep -F -q "[auto] is SHA1 '" "$tmp/err" || fail "-compare does not say what [auto] is"
if [ $openssl = no ]; then
    grep -q "^-compare: built without OpenSSL, so there are no \[openssl\] rows" "$tmp/err" ||
        fail "-compare without OpenSSL does not say so, as a note: $(cat "$tmp/err")"
fi
grep -q '^bench_bitcoin: ' "$tmp/err" && fail "-list -compare printed an error: $(cat "$tmp/err")"
# SHA-256's implementations name the SHA256 rows only; SHA-1 has its own.
grep -q '^SHA1 \[avx512\]$' "$tmp/out" && fail "SHA1 offers SHA-256's avx512"
# Benchmarks without implementations are skipped, not refused.
good -list -compare -filter='SHA1|RIPEMD160|SipHash_32b'
[ "$(sed 's/ \[.*//' "$tmp/out" | uniq)" = "SHA1" ] ||
    fail "-compare did not skip RIPEMD160/SipHash_32b: $(cat "$tmp/out")"

# A run: one paired comparison per benchmark, titled with its name, with the relative and
# interval columns; [auto] is the baseline (100.00%, no interval); every other row has a ratio
# and an interval around it; a verdict line under each table; the rows are those -list
# -compare names, in that order, in the table and in the CSV.
good -list -compare -filter='SHA256_32b|SHA1'
cp "$tmp/out" "$tmp/rows"
good -compare -filter='SHA256_32b|SHA1' -min-time=1 -output-csv="$tmp/d/c.csv"
grep '^|' "$tmp/out" >"$tmp/table"
[ "$(grep -c '^| *relative *| *95% interval *| *ns/byte *| *byte/s *| *err% *|' \
    "$tmp/table")" -eq 2 ] ||
    fail "-compare: not 2 headers with relative and interval columns: $(cat "$tmp/table")"
grep -q '| SHA1$' "$tmp/table" && grep -q '| SHA256_32b$' "$tmp/table" ||
    fail "-compare: tables not titled by benchmark: $(cat "$tmp/table")"
[ "$(sed -n 's/^| *[0-9][^`]*`\([^`]*\)`.*/\1/p' "$tmp/table")" = "$(cat "$tmp/rows")" ] ||
    fail "-compare rows differ from -list -compare: $(cat "$tmp/table")"
[ "$(grep -c '^| *100\.00% | *- |[^`]*`[A-Za-z0-9_]* \[auto\]` (baseline)$' "$tmp/table")" \
    -eq 2 ] || fail "-compare: [auto] rows are not the baseline: $(cat "$tmp/table")"
grep '^| *[0-9]' "$tmp/table" | grep -v '\[auto\]' |
    grep -v -q '^| *[0-9][0-9.,]*% *| *\[[0-9][0-9.,]*%, [0-9][0-9.,]*%\] *| *[0-9]' &&
    fail "-compare: a row without a ratio and an interval: $(cat "$tmp/table")"
verdict='^(`SHA[0-9A-Za-z_]* \[[a-z0-9]*\]`.* is fastest'
verdict="$verdict|No alternative is significantly faster than \`SHA[0-9A-Za-z_]* \\[auto\\]\`)"
verdict="$verdict.*paired rounds, each the best of [0-9]* epochs of [0-9,]* iterations?\\)\$"
[ "$(grep -c -E "$verdict" "$tmp/out")" -eq 2 ] ||
    fail "-compare: not one verdict per table: $(cat "$tmp/out")"
[ "$(tail -n +2 "$tmp/d/c.csv" | cut -d, -f1)" = "$(cat "$tmp/rows")" ] ||
    fail "-compare CSV names: $(cat "$tmp/d/c.csv")"
# every row ran the same iterations in every epoch, as many epochs as the others
[ "$(tail -n +2 "$tmp/d/c.csv" | grep '^SHA1 ' | cut -d, -f2-3 | sort -u | wc -l)" -eq 1 ] ||
    fail "-compare: SHA1 rows ran different epochs: $(cat "$tmp/d/c.csv")"
rm -f "$tmp/d/c.csv"

# ---- -priority-level ----------------------------------------------------------------------
# Every benchmark here has Core's level, high: high and all select them all, the other levels
# none (an error, like a -filter that matches nothing); levels combine with commas.
good -list
cp "$tmp/out" "$tmp/all"
for levels in high all high,low low,medium,high all,all; do
    good -list -priority-level=$levels
    cmp -s "$tmp/out" "$tmp/all" || fail "-priority-level=$levels selects: $(cat "$tmp/out")"
done
good -list -priority-level=high -filter='SHA1|SHA512'
[ "$(cat "$tmp/out")" = "SHA1
SHA512" ] || fail "-priority-level=high with -filter selects: $(cat "$tmp/out")"
bad "-priority-level=low: none of the" -list -priority-level=low
bad "-priority-level=medium,low: none of the" -priority-level=medium,low -filter=SHA1
bad "-priority-level: unknown level 'HIGH'" -list -priority-level=HIGH
bad "-priority-level: unknown level 'hi'" -priority-level=high,hi
bad "-priority-level: empty item in 'high,'" -priority-level=high,
bad "-priority-level: empty item in ''" -list -priority-level=
bad "-priority-level needs a value" -priority-level
# The last one given wins, but each is checked.
bad "-priority-level: unknown level 'x'" -list -priority-level=x -priority-level=high
good -list -priority-level=low -priority-level=high
cmp -s "$tmp/out" "$tmp/all" || fail "a later -priority-level does not replace the first"

# ---- Core's per-implementation SHA-256 rows ---------------------------------------------
# Listed for the implementations this CPU offers (-compare's "SHA256 [impl]" rows), never for
# the others; each runs, and the automatic choice is back after it (the runner checks that
# after every benchmark and fails otherwise).
good -list -compare -filter=SHA256
cp "$tmp/out" "$tmp/impls"
good -list -filter='SHA256.*_(STANDARD|SSE4|AVX2|SHANI)'
for pair in standard:STANDARD sse41:SSE4 avx2:AVX2 shani:SHANI; do
    if grep -q -x -F "SHA256 [${pair%%:*}]" "$tmp/impls"; then
        want=3
    else
        want=0
    fi
    got=$(grep -c "_${pair#*:}\$" "$tmp/out")
    [ "$got" -eq $want ] || fail "${pair#*:} rows: $got listed, $want expected: $(cat "$tmp/out")"
done
good -list -filter='SHA256_32b.*|SHA256D64_1024_STANDARD'
cp "$tmp/out" "$tmp/rows"
good -filter='SHA256_32b.*|SHA256D64_1024_STANDARD' -min-time=1
[ "$(sed -n 's/^| *[0-9][^`]*`\([^`]*\)`.*/\1/p' "$tmp/out")" = "$(cat "$tmp/rows")" ] ||
    fail "per-implementation rows differ from -list: $(cat "$tmp/out")"
grep -q "^Using the '.*' SHA256 implementation\$" "$tmp/err" ||
    fail "per-implementation rows: no implementation line: $(cat "$tmp/err")"

echo "$checks runs, $failures failure(s)"
finish
