#!/bin/sh
# shellcheck disable=SC2086 # $flags is a word list on purpose
# Side by side against Bitcoin Core's own cluster linearization: builds a small C++ program
# from Core's cluster_linearize.h (and the headers it includes) with nanobench, running
# Core's bodies of the PostLinearize*TxWorstCase and LinearizeOptimally* rows on the same
# clusters; first checks that both sides make the same orders at the same costs for 100 seeds
# of each recorded cluster; then runs this build's bench_bitcoin (A) and that program (B)
# alternately (A, B, A, B, ...), both pinned to one CPU, and prints each row's median ns per
# unit on both sides and the median of the per-pair ratios (ours / Core's: below 1 is faster).
#
# Usage (from the build directory, after make):
#   doc/experiments/cluster_side_by_side.sh CORE_SRC NANOBENCH_H [PAIRS] [CPU]
# ROWS=<regex> (default: every row) narrows both sides to the rows whose whole name matches.
# CORE_SRC is Core's src/ directory (of a checkout, or a scratch folder holding the headers
# cluster_linearize.h includes: util/bitset.h, util/feefrac.h, util/vecdeque.h, random.h,
# memusage.h, attributes.h, util/check.h), NANOBENCH_H nanobench's single header. Needs g++
# (C++20), taskset, python3. Core's side is built -O2 as Core builds it; its recorded
# clusters are read from what doc/experiments/cluster_dump.c prints (the same graphs as
# Core's DepGraphFormatter gives, holes in the positions closed up).
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 CORE_SRC NANOBENCH_H [PAIRS] [CPU]" >&2
    exit 2
fi
core=$1
nbh=$2
pairs=${3:-10}
cpu=${4:-1}
bench=${BENCH_BITCOIN:-./bench_bitcoin}
srcdir=$(dirname "$0")/../..
for f in "$core/cluster_linearize.h" "$core/util/bitset.h" "$nbh" "$bench"; do
    [ -e "$f" ] || { echo "$0: missing $f" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$nbh" "$work/nanobench.h"

# The recorded clusters as text, and this build's orders and costs for seeds 0 .. 99.
cc -O2 -I"$srcdir/src" -o "$work/dump" "$srcdir/doc/experiments/cluster_dump.c" \
    src/cluster/.libs/libbitcoin_cluster.a src/crypto/.libs/libbitcoin_crypto.a \
    src/util/.libs/libbitcoin_util.a
"$work/dump" >"$work/clusters.txt"
"$work/dump" -costs >"$work/ours_costs.txt"

cat >"$work/core_rows.cpp" <<'EOF'
// Core's bench/cluster_linearize.cpp bodies through nanobench (-min-time 10 ms as Core's
// bench_bitcoin), on clusters read from a text file; with -costs, Core's orders and costs
// for seeds 0 .. 99 instead. Prints "row NAME MEDIAN_SECONDS BATCH" per row.
#define ANKERL_NANOBENCH_IMPLEMENT
#include <nanobench.h>

#include <cluster_linearize.h>
#include <util/bitset.h>

#include <chrono>
#include <cstdio>
#include <regex>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace cluster_linearize;

namespace {

struct Cluster {
    std::string name;
    DepGraph<BitSet<64>> graph;
};

std::vector<Cluster> ReadClusters(const char* path)
{
    std::vector<Cluster> out;
    std::ifstream in(path);
    std::string line, name;
    std::vector<std::vector<long long>> rows;
    auto flush = [&] {
        if (rows.empty()) return;
        Cluster c;
        c.name = name;
        for (auto& r : rows) c.graph.AddTransaction(FeeFrac{r[0], int32_t(r[1])});
        for (size_t i = 0; i < rows.size(); ++i) {
            BitSet<64> parents;
            for (size_t k = 2; k < rows[i].size(); ++k) parents.Set(rows[i][k]);
            c.graph.AddDependencies(parents, i);
        }
        out.push_back(std::move(c));
        rows.clear();
    };
    while (std::getline(in, line)) {
        if (line.empty()) { flush(); continue; }
        if (line[0] == '#') { name = line.substr(2); continue; }
        std::istringstream ss(line);
        std::vector<long long> r;
        long long v;
        while (ss >> v) r.push_back(v);
        rows.push_back(r);
    }
    flush();
    return out;
}

std::regex g_rows(".*");

bool Wanted(const std::string& name)
{
    return std::regex_match(name, g_rows);
}

void Report(ankerl::nanobench::Bench& b)
{
    ankerl::nanobench::render("{{#result}}row {{name}} {{median(elapsed)}} {{batch}}\n{{/result}}",
                              b, std::cout);
}

ankerl::nanobench::Bench NewBench(const std::string& name)
{
    ankerl::nanobench::Bench b;
    b.name(name).output(nullptr);
    const std::chrono::nanoseconds min_time = std::chrono::milliseconds(10);
    b.minEpochTime(min_time / b.epochs());
    return b;
}

template <typename SetType>
void PostLinearizeWorstCase(DepGraphIndex ntx, const std::string& name)
{
    if (!Wanted(name)) return;
    DepGraph<SetType> depgraph;
    for (DepGraphIndex i = 0; i < ntx; ++i) {
        depgraph.AddTransaction({int32_t(i) + 1, 1});
        if (i > 0) depgraph.AddDependencies(SetType::Singleton(0), i);
    }
    std::vector<DepGraphIndex> lin(ntx);
    auto b = NewBench(name);
    b.run([&] {
        for (DepGraphIndex i = 0; i < ntx; ++i) lin[i] = i;
        PostLinearize(depgraph, lin);
    });
    Report(b);
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) return 1;
    auto clusters = ReadClusters(argv[1]);
    if (argc > 2 && std::strcmp(argv[2], "-costs") != 0) g_rows = std::regex(argv[2]);
    if (argc > 2 && std::strcmp(argv[2], "-costs") == 0) {
        for (auto& c : clusters) {
            for (uint64_t seed = 0; seed < 100; ++seed) {
                auto [lin, optimal, cost] = Linearize(c.graph, 10000000, seed, IndexTxOrder{});
                std::printf("%s %llu %llu", c.name.c_str(), (unsigned long long)seed,
                            (unsigned long long)cost);
                for (auto x : lin) std::printf(" %u", x);
                std::printf("\n");
            }
        }
        return 0;
    }
    PostLinearizeWorstCase<BitSet<16>>(16, "PostLinearize16TxWorstCase");
    PostLinearizeWorstCase<BitSet<32>>(32, "PostLinearize32TxWorstCase");
    PostLinearizeWorstCase<BitSet<48>>(48, "PostLinearize48TxWorstCase");
    PostLinearizeWorstCase<BitSet<64>>(64, "PostLinearize64TxWorstCase");
    PostLinearizeWorstCase<BitSet<75>>(75, "PostLinearize75TxWorstCase");
    PostLinearizeWorstCase<BitSet<99>>(99, "PostLinearize99TxWorstCase");
    for (auto& c : clusters) {
        std::string kind = c.name.substr(0, c.name.find('_'));
        std::string sizes = c.name.substr(c.name.find('_'));
        if (Wanted("LinearizeOptimally" + kind + "Total" + sizes)) {
            uint64_t rng_seed = 0;
            auto b = NewBench("LinearizeOptimally" + kind + "Total" + sizes);
            b.run([&] {
                auto [lin, optimal, cost] = Linearize(c.graph, 10000000, rng_seed++, IndexTxOrder{});
                if (!optimal) std::abort();
                ankerl::nanobench::doNotOptimizeAway(lin);
            });
            Report(b);
        }
        if (Wanted("LinearizeOptimally" + kind + "PerCost" + sizes)) {
            uint64_t total_cost = 0;
            for (uint64_t iter = 0; iter < 100; ++iter) {
                total_cost += std::get<2>(Linearize(c.graph, 10000000, iter, IndexTxOrder{}));
            }
            auto b = NewBench("LinearizeOptimally" + kind + "PerCost" + sizes);
            b.unit("cost").batch(total_cost).run([&] {
                uint64_t recompute_cost = 0;
                for (uint64_t iter = 0; iter < 100; ++iter) {
                    auto [lin, optimal, cost] = Linearize(c.graph, 10000000, iter, IndexTxOrder{});
                    if (!optimal) std::abort();
                    recompute_cost += cost;
                }
                if (total_cost != recompute_cost) std::abort();
            });
            Report(b);
        }
    }
    return 0;
}
EOF
(
    cd "$work"
    g++ -std=c++20 -O2 -I"$core" -I"$work" -o core_rows core_rows.cpp
)
"$work/core_rows" "$work/clusters.txt" -costs >"$work/core_costs.txt"
if cmp -s "$work/core_costs.txt" "$work/ours_costs.txt"; then
    echo "orders and costs: the same on both sides for every recorded cluster and seed 0-99"
else
    echo "orders and costs DIFFER between the two sides:"
    diff "$work/core_costs.txt" "$work/ours_costs.txt" | head -5
fi

filter=${ROWS:-'PostLinearize.*|LinearizeOptimally.*'}
i=1
while [ "$i" -le "$pairs" ]; do
    taskset -c "$cpu" "$bench" -filter="$filter" -min-time=10 \
        -output-csv="$work/a$i.csv" >/dev/null 2>"$work/a.err"
    taskset -c "$cpu" "$work/core_rows" "$work/clusters.txt" "$filter" >"$work/b$i.txt" \
        2>"$work/b.err"
    i=$((i + 1))
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work" "$pairs" <<'EOF'
import math, statistics, sys
work, pairs = sys.argv[1], int(sys.argv[2])
# The PerCost rows' batch: the cost of the 100 seeds, from this build's costs (the same on
# Core's side when the check above passed).
cost = {}
for line in open(f"{work}/ours_costs.txt"):
    name, seed, c = line.split()[:3]
    kind, sizes = name.split("_", 1)
    key = f"LinearizeOptimally{kind}PerCost_{sizes}"
    cost[key] = cost.get(key, 0) + int(c)
ours, core = {}, {}
for i in range(1, pairs + 1):
    for line in open(f"{work}/a{i}.csv"):
        if line.startswith("#"):
            continue
        f = [x.strip() for x in line.split(",")]
        ours.setdefault(f[0], []).append(float(f[6]) / cost.get(f[0], 1))
    for line in open(f"{work}/b{i}.txt"):
        if line.startswith("row "):
            _, name, med, b = line.split()
            core.setdefault(name, []).append(float(med) / float(b))
print("| row | ours (ns/unit) | Core (ns/unit) | ours/Core (median of pairs) | pairs |")
print("| --- | ---: | ---: | ---: | ---: |")
ratios = []
for name in sorted(core):
    if name not in ours:
        print(f"| {name} | (missing) | {statistics.median(core[name]) * 1e9:.3f} | | |")
        continue
    r = statistics.median(a / b for a, b in zip(ours[name], core[name]))
    ratios.append(r)
    print(f"| {name} | {statistics.median(ours[name]) * 1e9:.3f} | "
          f"{statistics.median(core[name]) * 1e9:.3f} | {r:.3f} | {len(ours[name])} |")
if ratios:
    g = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"\ngeometric mean of the {len(ratios)} ratios: {g:.3f}; rows where ours is slower: "
          f"{sum(r > 1 for r in ratios)}")
EOF
