# Sourced by the test scripts (`. "$(dirname "$0")/lib.sh"`): the build and source folders,
# a temporary folder removed on exit, failure counting, skipping, and running bench_bitcoin
# with its output kept for checks. POSIX sh.
: "${top_builddir:=.}" "${top_srcdir:=.}"
failures=0
checks=0

# fail MESSAGE: reports a failed check and counts it; the script ends with
# [ "$failures" -eq 0 ].
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# skip REASON: the test cannot run here (a tool is missing): says why, exit 77.
skip() { echo "SKIP: $*"; exit 77; }

# make_tmp NAME: $tmp, a new folder under $TMPDIR (or /tmp), removed when the script exits.
make_tmp() {
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 99
    trap 'rm -rf "$tmp"' EXIT
}

# first_command NAME...: prints the first NAME that is a command here; fails when none is.
first_command() {
    for c in "$@"; do
        if command -v "$c" >/dev/null 2>&1; then
            echo "$c"
            return 0
        fi
    done
    return 1
}

# run ARGS...: runs $prog with ARGS; its exit status in $rc, its output in $tmp/out and
# $tmp/err.
run() {
    "$prog" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    checks=$((checks + 1))
}

# run_fails ARGS...: run, and $prog must exit non-zero of itself (not by a signal).
run_fails() {
    run "$@"
    [ $rc -ne 0 ] || fail "'$*' exited 0"
    [ $rc -lt 126 ] || fail "'$*' died (exit $rc): $(cat "$tmp/err")"
}

# bad PATTERN ARGS...: $prog must fail before running anything: run_fails, exactly one line
# on stderr that names the program and contains PATTERN (a fixed string), nothing on stdout.
bad() {
    pattern=$1
    shift
    run_fails "$@"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "'$*': stderr is not one line: $(cat "$tmp/err")"
    grep -F -q -- "$pattern" "$tmp/err" || fail "'$*': stderr lacks '$pattern': $(cat "$tmp/err")"
    grep -q '^bench_bitcoin: ' "$tmp/err" || fail "'$*': stderr does not name the program"
    [ ! -s "$tmp/out" ] || fail "'$*': printed on stdout: $(head -2 "$tmp/out")"
}
