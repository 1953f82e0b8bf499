#!/bin/sh
# bench_bitcoin's output files as the tools that read them see them.
# -output-csv: Bitcoin Core's format, a header "# Benchmark, evals, iterations, total, min, max,
# median" and one row per result with fields separated by ", ", the numbers consistent with
# each other (min <= median <= max; total = evals x iterations x a time between min and max).
# nb_templ_pyperf: pyperf's file format 1.0 by its rules (a benchmark per result with its name,
# whole loops and inner_loops >= 1, values > 0, value x loops x inner_loops = the epoch's time),
# a fractional batch is a clear error. The rules are the test; where pyperf itself is installed
# (it is not packaged in Debian 12, so CI checks by the rules alone) it also loads the file.
set -u
. "$(dirname "$0")/lib.sh"
bin=$top_builddir/bench_bitcoin
make_tmp test_outputs

NANOBENCH_SUPPRESS_WARNINGS=1 "$bin" -filter='SipHash_32b|SHA1' -min-time=5 \
    -output-csv="$tmp/core.csv" >"$tmp/table" 2>"$tmp/err" ||
    { cat "$tmp/err"; echo "FAIL: bench_bitcoin -output-csv failed"; exit 1; }
head=$(head -n 1 "$tmp/core.csv")
[ "$head" = "# Benchmark, evals, iterations, total, min, max, median" ] ||
    fail "CSV header is '$head', not Core's"
rows=$(tail -n +2 "$tmp/core.csv")
[ "$(printf '%s\n' "$rows" | wc -l)" -eq 2 ] || fail "CSV has not 2 rows: $rows"
printf '%s\n' "$rows" | awk -F', ' '
    NF != 7 { print "FAIL: row has " NF " fields, not 7: " $0; bad = 1; next }
    $1 !~ /^(SHA1|SipHash_32b)$/ { print "FAIL: unexpected name: " $0; bad = 1 }
    $2 != 11 { print "FAIL: evals is " $2 ", not 11 epochs: " $0; bad = 1 }
    !($3 >= 1) { print "FAIL: iterations " $3 " < 1: " $0; bad = 1 }
    !($5 > 0 && $5 <= $7 && $7 <= $6) { print "FAIL: not min <= median <= max: " $0; bad = 1 }
    !($4 >= $2 * $3 * $5 * 0.999 && $4 <= $2 * $3 * $6 * 1.001) {
        print "FAIL: total is not evals x iterations x a time per iteration: " $0; bad = 1 }
    END { exit bad }' || failures=$((failures + 1))
# The table's median for SHA1 (ns/byte, batch 1,000,000, two decimals) is the CSV's median.
csv_ns=$(printf '%s\n' "$rows" | awk -F', ' '$1 == "SHA1" { printf "%.6f", $7 * 1e9 / 1e6 }')
tab_ns=$(awk -F'|' '/`SHA1`/ { gsub(/[ ,]/, "", $2); print $2 }' "$tmp/table")
awk -v c="$csv_ns" -v t="$tab_ns" \
    'BEGIN { d = c - t; if (d < 0) d = -d; exit !(c > 0 && d <= 0.005) }' ||
    fail "SHA1: the CSV's median is $csv_ns ns/byte, the table's $tab_ns"

render=$top_builddir/test/render_template
"$render" 4 pyperf="$tmp/pyperf.json" json="$tmp/all.json" 2>"$tmp/err" ||
    fail "render_template failed: $(cat "$tmp/err")"
if "$render" 2.5 pyperf="$tmp/frac.json" 2>"$tmp/frac.err"; then
    fail "pyperf's template rendered a batch of 2.5 (inner_loops must be whole)"
else
    grep -q "tag '{{innerLoops}}': the batch 2.5 is not a whole number" "$tmp/frac.err" ||
        fail "a fractional batch's message: $(cat "$tmp/frac.err")"
    [ -s "$tmp/frac.json" ] && fail "a failed render wrote output"
fi
py=
for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null 2>&1; then py=$p; break; fi
done
if [ -z "$py" ]; then
    untested "the pyperf file's format (python3 is not installed)"
else
    "$py" - "$tmp/pyperf.json" "$tmp/all.json" <<'PY' || failures=$((failures + 1))
import json, sys
suite = json.load(open(sys.argv[1]))
full = {r["name"]: r for r in json.load(open(sys.argv[2]))["results"]}
bad = []
if suite.get("version") != "1.0":
    bad.append("version is %r" % suite.get("version"))
names = [b["metadata"]["name"] for b in suite["benchmarks"]]
if sorted(names) != ["a", "b", "c", "d"]:
    bad.append("benchmark names %r, not the results' names" % names)
for b in suite["benchmarks"]:
    md = b["metadata"]
    inner = md.get("inner_loops")
    if md.get("unit") != "second" or not isinstance(inner, int) or inner < 1:
        bad.append("%s: unit %r, inner_loops %r" % (md["name"], md.get("unit"), inner))
    want = 4 if md["name"] != "d" else 64
    if inner != want:
        bad.append("%s: inner_loops %r is not the batch %d" % (md["name"], inner, want))
    epochs = full[md["name"]]["measurements"]
    if len(b["runs"]) != len(epochs):
        bad.append("%s: %d runs for %d epochs" % (md["name"], len(b["runs"]), len(epochs)))
    for run, ep in zip(b["runs"], epochs):
        loops = run["metadata"]["loops"]
        if not isinstance(loops, int) or loops < 1 or loops != ep["iterations"]:
            bad.append("%s: loops %r, epoch iterations %r" % (md["name"], loops,
                                                              ep["iterations"]))
        for v in run["values"]:
            total = v * loops * inner
            if not v > 0 or abs(total - ep["elapsed"] * ep["iterations"]) > 1e-9 * total:
                bad.append("%s: value %r x loops x inner_loops = %r s, epoch took %r s"
                           % (md["name"], v, total, ep["elapsed"] * ep["iterations"]))
try:
    import pyperf
except ImportError:
    print("pyperf is not installed: the file was checked against its documented rules only")
else:
    loaded = pyperf.BenchmarkSuite.load(sys.argv[1])
    for bench in loaded.get_benchmarks():
        print("pyperf: %s: %s" % (bench.get_name(), bench.format_value(bench.median())))
for b in bad:
    print("FAIL: pyperf: " + b)
sys.exit(1 if bad else 0)
PY
fi
finish
