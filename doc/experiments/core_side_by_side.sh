#!/bin/sh
# shellcheck disable=SC2086 # $flags and $rows are word lists on purpose
# Side by side against Bitcoin Core's own code: runs this build's bench_bitcoin (A) and a
# small C++ program (B) built from a Core checkout's prevector.h and SHA-1/SHA-256 sources
# with nanobench, alternately in time (A, B, A, B, ...), both pinned to one CPU, and prints
# each row's median ns per unit on both sides and the median of the per-pair ratios.
#
# Usage (from the build directory, after make):
#   doc/experiments/core_side_by_side.sh CORE_CHECKOUT NANOBENCH_H [PAIRS] [CPU]
# CORE_CHECKOUT is a Bitcoin Core source tree (its src/ is used), NANOBENCH_H nanobench's
# single header (src/include/nanobench.h of its repository). Needs g++ (C++20), taskset
# and python3. B is built as Core builds these files: -O2, with -msse4.1, -mavx -mavx2 and
# -msse4.1 -msha on the SSE4.1, AVX2 and SHA-NI files; Core's default hardening flags are
# left out unless HARDEN=1. B's prevector is prevector<28, T>, the CScriptBase size these benchmarks were
# ported with (Core's is 36 today), so both sides do the same work.
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 CORE_CHECKOUT NANOBENCH_H [PAIRS] [CPU]" >&2
    exit 2
fi
core=$1/src
nbh=$2
pairs=${3:-12}
cpu=${4:-1}
bench=${BENCH_BITCOIN:-./bench_bitcoin}
rows="PrevectorDestructorTrivial PrevectorDestructorNontrivial SHA256 SHA256D64_1024 SHA1"
for f in "$core/prevector.h" "$core/crypto/sha256.cpp" "$nbh" "$bench"; do
    [ -e "$f" ] || { echo "$0: missing $f" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$nbh" "$work/nanobench.h"
cat > "$work/core_rows.cpp" <<'EOF'
// Core's benchmark bodies for a few rows, each through nanobench with the minimum epoch
// time Core's bench_bitcoin uses by default (-min-time=10 ms spread over the epochs).
// Prints "row NAME NS_PER_UNIT" per row after nanobench's tables.
#define ANKERL_NANOBENCH_IMPLEMENT
#include <nanobench.h>

#include <crypto/sha1.h>
#include <crypto/sha256.h>
#include <prevector.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

namespace {

constexpr unsigned int SCRIPT_STATIC = 28;
constexpr size_t HASH_BYTES = 1000 * 1000;

struct Nontrivial {
    int x{-1};
    Nontrivial() = default;
};

template <typename T>
void destructor(ankerl::nanobench::Bench& b)
{
    b.batch(2).run([&] {
        prevector<SCRIPT_STATIC, T> a;
        prevector<SCRIPT_STATIC, T> c;
        a.resize(SCRIPT_STATIC);
        c.resize(SCRIPT_STATIC + 1);
#ifdef ESCAPE_DESTRUCTOR
        // What this project's row does: both vectors escape, so their fills must happen.
        ankerl::nanobench::doNotOptimizeAway(a.data());
        ankerl::nanobench::doNotOptimizeAway(c.data());
#endif
    });
}

void sha256(ankerl::nanobench::Bench& b)
{
    unsigned char out[CSHA256::OUTPUT_SIZE];
    std::vector<unsigned char> in(HASH_BYTES, 0);
    b.batch(in.size()).unit("byte").run([&] {
        CSHA256().Write(in.data(), in.size()).Finalize(out);
    });
}

void sha256d64(ankerl::nanobench::Bench& b)
{
    std::vector<unsigned char> in(64 * 1024, 0);
    b.batch(in.size()).unit("byte").run([&] { SHA256D64(in.data(), in.data(), 1024); });
}

void sha1(ankerl::nanobench::Bench& b)
{
    unsigned char out[CSHA1::OUTPUT_SIZE];
    std::vector<unsigned char> in(HASH_BYTES, 0);
    b.batch(in.size()).unit("byte").run([&] {
        CSHA1().Write(in.data(), in.size()).Finalize(out);
    });
}

struct Row {
    const char* name;
    std::function<void(ankerl::nanobench::Bench&)> body;
};

} // namespace

int main(int argc, char** argv)
{
    const std::string impl = SHA256AutoDetect();
    std::fprintf(stderr, "SHA256AutoDetect() = %s\n", impl.c_str());
    const std::vector<Row> rows = {
        {"PrevectorDestructorTrivial", destructor<unsigned char>},
        {"PrevectorDestructorNontrivial", destructor<Nontrivial>},
        {"SHA256", sha256},
        {"SHA256D64_1024", sha256d64},
        {"SHA1", sha1},
    };
    std::vector<ankerl::nanobench::Bench> done;
    for (int i = 1; i < argc; i++) {
        const Row* row = nullptr;
        for (const Row& r : rows) {
            if (std::strcmp(r.name, argv[i]) == 0) row = &r;
        }
        if (!row) {
            std::fprintf(stderr, "core_rows: unknown row '%s'\n", argv[i]);
            return 1;
        }
        ankerl::nanobench::Bench b;
        b.name(row->name);
        const std::chrono::nanoseconds min_time = std::chrono::milliseconds(10);
        b.minEpochTime(min_time / b.epochs());
        row->body(b);
        ankerl::nanobench::render("{{#result}}row {{name}} {{median(elapsed)}} {{batch}}\n"
                                  "{{/result}}", b, std::cout);
    }
    return 0;
}
EOF
flags="-std=c++20 -O2 -I$core -I$work -DENABLE_SSE41 -DENABLE_AVX2 -DENABLE_X86_SHANI"
# ESCAPE_DESTRUCTOR=1: Core's PrevectorDestructor body with the escapes this project's has.
[ "${ESCAPE_DESTRUCTOR:-0}" = 1 ] && flags="$flags -DESCAPE_DESTRUCTOR"
# HARDEN=1: Core's default hardening flags on every file and the link (its configure adds
# them unless --disable-hardening; -ftrivial-auto-var-init=pattern where the compiler has it).
ldflags=
if [ "${HARDEN:-0}" = 1 ]; then
    flags="$flags -fPIE -D_FORTIFY_SOURCE=3 -fstack-protector-all -fcf-protection=full"
    flags="$flags -fstack-clash-protection -ftrivial-auto-var-init=pattern"
    ldflags="-pie -Wl,-z,relro -Wl,-z,now"
fi
(
    cd "$work"
    g++ $flags -c "$core/crypto/sha256.cpp" -o sha256.o
    g++ $flags -c "$core/crypto/sha256_sse4.cpp" -o sha256_sse4.o
    g++ $flags -msse4.1 -c "$core/crypto/sha256_sse41.cpp" -o sha256_sse41.o
    g++ $flags -mavx -mavx2 -c "$core/crypto/sha256_avx2.cpp" -o sha256_avx2.o
    g++ $flags -msse4.1 -msha -c "$core/crypto/sha256_x86_shani.cpp" -o sha256_shani.o
    g++ $flags -c "$core/crypto/sha1.cpp" -o sha1.o
    g++ $flags -c core_rows.cpp -o core_rows.o
    g++ $ldflags -o core_rows ./*.o
)
filter=$(echo "$rows" | tr ' ' '|')
i=1
while [ "$i" -le "$pairs" ]; do
    taskset -c "$cpu" "$bench" -filter="$filter" -min-time=10 \
        -output-csv="$work/a$i.csv" >/dev/null 2>"$work/a.err"
    taskset -c "$cpu" "$work/core_rows" $rows >"$work/b$i.txt" 2>"$work/b.err"
    i=$((i + 1))
done
echo "ours: $(sed -n '1p' "$work/a.err")"
echo "Core's: $(sed -n '1p' "$work/b.err")"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work" "$pairs" $rows <<'EOF'
import statistics, sys
work, pairs, rows = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
batch = {"PrevectorDestructorTrivial": 2, "PrevectorDestructorNontrivial": 2,
         "SHA256": 1000000, "SHA256D64_1024": 65536, "SHA1": 1000000}
ours = {r: [] for r in rows}
core = {r: [] for r in rows}
for i in range(1, pairs + 1):
    for line in open(f"{work}/a{i}.csv"):
        if line.startswith("#"):
            continue
        f = [x.strip() for x in line.split(",")]
        ours[f[0]].append(float(f[6]) * 1e9 / batch[f[0]])
    for line in open(f"{work}/b{i}.txt"):
        if line.startswith("row "):
            _, name, med, b = line.split()
            core[name].append(float(med) * 1e9 / float(b))
print("| row | ours (ns/unit) | Core (ns/unit) | ours/Core (median of pairs) | pairs |")
print("| --- | ---: | ---: | ---: | ---: |")
for r in rows:
    ratio = statistics.median(a / b for a, b in zip(ours[r], core[r]))
    print(f"| {r} | {statistics.median(ours[r]):.3f} | {statistics.median(core[r]):.3f} "
          f"| {ratio:.3f} | {len(ours[r])} |")
EOF
