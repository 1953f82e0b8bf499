#!/usr/bin/env python3
"""How well does a row's figure repeat between processes: the median epoch, or the fastest?

doc/measurements.md ("What a row reports") quotes this program's output. Usage, from a build
directory, the settings alternated so that the host's state falls on all of them alike:

    for i in $(seq 10); do
        ./bench_bitcoin -min-time=10 -output-json=m10_$i.json >/dev/null
        ./bench_bitcoin -output-json=def_$i.json >/dev/null
    done
    python3 SRC/doc/experiments/median_vs_min.py m10_*.json -- def_*.json

For each setting (the file groups are separated by "--") and each benchmark, each process's
median epoch and fastest epoch (seconds per iteration, from "measurements") and its ~cyc
figure ("lowerQuartile(estcycles)") are taken; their robust coefficient of
variation between processes is 1.4826 * MAD / median. Printed: the median over the rows of that
CV for the median, the minimum and the estimated cycles, how far the minimum sits below the
median (the median over rows of 1 - min/median, per process, then over processes), and the
mean whole-run time (the sum of the rows' "totalTime").
"""
import json
import statistics
import sys


def robust_cv(v):
    med = statistics.median(v)
    mad = statistics.median([abs(x - med) for x in v])
    return 1.4826 * mad / med


def load(paths):
    rows = {}
    totals = []
    for p in paths:
        with open(p) as f:
            doc = json.load(f)
        total = 0.0
        for r in doc["results"]:
            per = [m["elapsed"] for m in r["measurements"]]
            if not per:
                continue
            rows.setdefault(r["name"], []).append((statistics.median(per), min(per),
                                                   r.get("lowerQuartile(estcycles)")))
            total += r["totalTime"]
        totals.append(total)
    return rows, totals


def main(argv):
    groups, cur = [], []
    for a in argv:
        if a == "--":
            groups.append(cur)
            cur = []
        else:
            cur.append(a)
    groups.append(cur)
    print("| files | processes | rows | robust CV of the median | robust CV of the minimum "
          "| robust CV of ~cyc | minimum below the median | whole run (s) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for g in groups:
        if not g:
            continue
        rows, totals = load(g)
        cv_med, cv_min, cv_cyc, below = [], [], [], []
        for name, v in rows.items():
            if len(v) < 3:
                continue
            cv_med.append(robust_cv([m for m, _, _ in v]))
            cv_min.append(robust_cv([n for _, n, _ in v]))
            if all(c for _, _, c in v):
                cv_cyc.append(robust_cv([c for _, _, c in v]))
            below.append(statistics.median([1 - n / m for m, n, _ in v]))
        cyc = "%.2f%%" % (100 * statistics.median(cv_cyc)) if cv_cyc else "-"
        print("| %s | %d | %d | %.2f%% | %.2f%% | %s | %.2f%% | %.2f |" % (
            g[0], len(g), len(cv_med), 100 * statistics.median(cv_med),
            100 * statistics.median(cv_min), cyc, 100 * statistics.median(below),
            statistics.mean(totals)))


if __name__ == "__main__":
    main(sys.argv[1:])
