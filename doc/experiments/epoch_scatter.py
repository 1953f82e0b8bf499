#!/usr/bin/env python3
"""Where a row's err% comes from: the epochs of bench_bitcoin -output-json files.

doc/measurements.md ("The default -min-time, and what a row reports") quotes this program's output.
Usage, from a build directory:

    for i in $(seq 12); do ./bench_bitcoin -output-json=run$i.json >/dev/null; done
    python3 SRC/doc/experiments/epoch_scatter.py run*.json

An epoch's "elapsed" in the file is its time per iteration. For every result,
each epoch is compared with the median of that result's epochs (the figure the
table prints). The first table pools all results by epoch index: if the first
epochs were slower (a warm-up the harness should have run), the median deviation
at index 0, 1, ... would be positive. Then err% is recalculated as the harness
does (the median of |x - median| / x), over all epochs (checked against the
files), without the first three and without the last three. Last, per
benchmark, the err% each run's table showed.
"""
import json
import statistics
import sys
from collections import defaultdict


def err_percent(v):
    med = statistics.median(v)
    return 100 * statistics.median([abs(x - med) / x for x in v])


def main(paths):
    by_index = defaultdict(list)   # epoch index -> signed deviations in %
    err = defaultdict(list)        # benchmark name -> err% per run, from the file
    recalc = {"all epochs": [], "without the first 3": [], "without the last 3": []}
    worst_mismatch = 0.0
    for path in paths:
        with open(path) as f:
            results = json.load(f)["results"]
        for r in results:
            v = [m["elapsed"] for m in r["measurements"]]
            med = statistics.median(v)
            for i, x in enumerate(v):
                by_index[i].append((x - med) / med * 100)
            shown = r["medianAbsolutePercentError(elapsed)"] * 100
            err[r["name"]].append(shown)
            recalc["all epochs"].append(err_percent(v))
            worst_mismatch = max(worst_mismatch, abs(err_percent(v) - shown))
            if len(v) > 3:
                recalc["without the first 3"].append(err_percent(v[3:]))
                recalc["without the last 3"].append(err_percent(v[:-3]))
    if not err:
        sys.exit("epoch_scatter: no results in " + " ".join(paths))

    print("epoch  results  median dev  mean dev  >1% slower  >1% faster")
    for i in sorted(by_index):
        d = by_index[i]
        print("%5d  %7d  %9.2f%%  %7.2f%%  %10.0f%%  %10.0f%%" % (
            i, len(d), statistics.median(d), statistics.mean(d),
            100 * sum(x > 1 for x in d) / len(d), 100 * sum(x < -1 for x in d) / len(d)))

    print("\nerr%% recalculated (largest difference from the files: %.2g points)" % worst_mismatch)
    for what, e in recalc.items():
        if e:
            print("  %-20s mean %.2f%%, %d of %d results at 1%% or more" % (
                what, statistics.mean(e), sum(x >= 1 for x in e), len(e)))

    print("\n%-32s %5s %9s %8s %10s" % ("benchmark", "runs", "mean err%", "max err%", "err% >= 1"))
    for name in sorted(err, key=lambda s: s.encode()):
        e = err[name]
        print("%-32s %5d %8.2f%% %7.2f%% %10d" % (
            name, len(e), statistics.mean(e), max(e), sum(x >= 1 for x in e)))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: epoch_scatter.py RUN.json...")
    main(sys.argv[1:])
