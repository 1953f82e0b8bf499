# Sourced by the test scripts (`. "$(dirname "$0")/lib.sh"`): the build and source folders,
# a temporary folder removed on exit, failure counting, skipping (the whole test or a part of
# it), and running bench_bitcoin with its output kept for checks. POSIX sh.
: "${top_builddir:=.}" "${top_srcdir:=.}"
failures=0
checks=0

# fail MESSAGE: reports a failed check and counts it; the script ends with
# [ "$failures" -eq 0 ].
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# skip REASON: the test cannot run here (a tool is missing): says why, exit 77.
skip() { echo "SKIP: $*"; exit 77; }

# untested PART: a part of the test's subject cannot run here, named in one phrase with the
# reason ("the page's formatting (man is not installed)"); finish then exits 77, not 0.
untested_parts=
untested() {
    echo "NOT TESTED: $*"
    untested_parts="${untested_parts:+$untested_parts, }$*"
}

# finish: ends the test: exit 1 when a check failed; else 77 (SKIP), naming every part
# untested recorded, when there is one; else 0.
finish() {
    [ "$failures" -eq 0 ] || exit 1
    if [ -n "$untested_parts" ]; then
        echo "SKIP: everything else passed; not tested here: $untested_parts"
        exit 77
    fi
    exit 0
}

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

# documented_rows: "NAME NEEDS" for every row doc/benchmarks.md's "The benchmarks" lists (each
# backticked name of a table row's first cell), NEEDS its "needs" cell with spaces as
# underscores, "-" where the row runs on every build and CPU; sorted byte-wise.
documented_rows() {
    sed -n '/^## The benchmarks$/,/^## /p' "$top_srcdir/doc/benchmarks.md" |
        sed '/^### Core.s rows left out/,/^## /d' |
        awk -F'|' '/^\| `/ {
            needs = $5; gsub(/^ +| +$/, "", needs); if (needs == "") needs = "-"
            gsub(/ /, "_", needs)
            n = split($2, part, "`")
            for (i = 2; i <= n; i += 2) print part[i], needs
        }' | LC_ALL=C sort
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

# run_errs ARGS...: run, and $prog must exit 2, its status for an error (1 is a regression
# that -max-regression found).
run_errs() {
    run_fails "$@"
    [ $rc -eq 2 ] || [ $rc -ge 126 ] || fail "'$*' exited $rc, not 2 (an error): $(cat "$tmp/err")"
}

# bad PATTERN ARGS...: $prog must fail before running anything: exit 2 (run_errs), exactly one
# line on stderr that names the program and contains PATTERN (a fixed string), nothing on
# stdout.
bad() {
    pattern=$1
    shift
    run_errs "$@"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "'$*': stderr is not one line: $(cat "$tmp/err")"
    grep -F -q -- "$pattern" "$tmp/err" || fail "'$*': stderr lacks '$pattern': $(cat "$tmp/err")"
    grep -q '^bench_bitcoin: ' "$tmp/err" || fail "'$*': stderr does not name the program"
    [ ! -s "$tmp/out" ] || fail "'$*': printed on stdout: $(head -2 "$tmp/out")"
}

# ---- link-level layers (nm) ---------------------------------------------------------------
# The layer checks (test_*_layers.sh) read an archive's objects with nm: an object's undefined
# symbols, matched against what the archive's other objects define, give the edges "A uses
# B"; the rules are then checked on the edges. Each check first shows it catches a planted
# violation.

# layer_tools: skips (77) the test where nm or tsort is missing.
layer_tools() {
    command -v nm >/dev/null 2>&1 || skip "nm is not installed (binutils)"
    command -v tsort >/dev/null 2>&1 || skip "tsort is not installed (coreutils)"
}

# archive_symbols ARCHIVE PREFIX: "member type symbol" for every global symbol of ARCHIVE's
# members (defined: T, D, B, ...; undefined: U), members named without PREFIX (libtool's
# per-target "lib..._la-").
archive_symbols() {
    nm -A -g "$1" | awk -v pre="$2" '{
        split($1, p, ":"); m = p[2]
        if (pre != "" && index(m, pre) == 1) m = substr(m, length(pre) + 1)
        print m, $(NF - 1), $NF }'
}

# layer_symbols OUT ARCHIVE PREFIX: archive_symbols into OUT; fails the test, and ends it,
# where ARCHIVE is missing or nm lists nothing in it.
layer_symbols() {
    [ -f "$2" ] || { echo "FAIL: $2 is missing: build first"; exit 1; }
    archive_symbols "$2" "$3" >"$1"
    [ -s "$1" ] || { echo "FAIL: nm listed no symbols in $2"; exit 1; }
}

# layer_edges < "member type symbol" lines: "user used symbol", sorted, for each member that
# leaves undefined a symbol another member defines (one line a pair of members, naming the
# first such symbol).
layer_edges() {
    awk '{ if ($2 == "U") used[$1] = used[$1] " " $3; else def[$3] = $1 }
    END {
        for (m in used) {
            n = split(used[m], s, " ")
            for (i = 1; i <= n; i++)
                if ((s[i] in def) && def[s[i]] != m && !seen[m " " def[s[i]]]++)
                    print m, def[s[i]], s[i]
        }
    }' | sort
}

# layer_cycle EDGES_FILE: prints the members on a cycle and returns 1 when there is one.
layer_cycle() {
    if ! awk '{ print $1, $2 }' "$1" | tsort >/dev/null 2>"$1.loop"; then
        echo "cycle: $(grep -v 'input contains a loop' "$1.loop" | sed 's/^tsort: //' |
            tr '\n' ' ')"
        return 1
    fi
    return 0
}

# layer_order LAYERS_FILE SYMS_FILE EDGES_FILE: the members keep a declared order. LAYERS_FILE
# holds one layer a line, lowest first: a name, then its members without ".o". Each member
# uses only members of the layers before its own (none of its own layer), every member of
# SYMS_FILE is in a layer (a new file is placed on purpose) and every listed one is in
# SYMS_FILE. Prints each broken rule, and returns 1 if any.
layer_order() {
    awk 'FILENAME == ARGV[1] { for (i = 2; i <= NF; i++) rank[$i] = FNR; next }
        FILENAME == ARGV[2] { o = $1; sub(/\.o$/, "", o); seen[o] = 1; next }
        { u = $1; d = $2; sub(/\.o$/, "", u); sub(/\.o$/, "", d)
          if ((u in rank) && (d in rank) && rank[d] >= rank[u]) {
              print u " (layer " rank[u] ") uses " $3 " of " d " (layer " rank[d] ")"; bad++ } }
        END {
            for (o in seen) if (!(o in rank)) { print "object " o " is in no layer"; bad++ }
            for (o in rank) if (!(o in seen)) { print "layer object " o " is not built"; bad++ }
            exit bad ? 1 : 0
        }' "$1" "$2" "$3"
}

# layer_print SYMS_FILE EDGES_FILE: the members layer by layer (layer 0 uses nothing of the
# others; each member sits one above the highest it uses), for the log.
layer_print() {
    awk 'NR == FNR { obj[$1] = 1; next } { use[$1] = use[$1] " " $2 }
        END {
            changed = 1
            while (changed) {
                changed = 0
                for (o in obj) {
                    l = 0; n = split(use[o], u, " ")
                    for (i = 1; i <= n; i++) if (level[u[i]] + 1 > l) l = level[u[i]] + 1
                    if (l > level[o] && l < 100) { level[o] = l; changed = 1 }
                }
            }
            for (o in obj) print level[o] + 0, o
        }' "$1" "$2" | sort -n | awk '
        NR == 1 || $1 != last { if (NR > 1) print line; line = "layer " $1 ":"; last = $1 }
        { line = line " " $2 } END { print line }'
}
