#!/bin/sh
# shellcheck disable=SC2086 # $flags and $rows are word lists on purpose
# MuHash side by side with Bitcoin Core's own MuHash3072: runs this build's bench_bitcoin (A)
# and a small C++ program (B) with Core's five MuHash benchmark bodies (bench/crypto_hash.cpp)
# on Core's src/crypto/muhash.cpp and src/crypto/chacha20.cpp, through nanobench, alternately
# in time (A, B, A, B, ...), both pinned to one CPU; prints each row's median ns per op on
# both sides and the median of the per-pair ratios (below 1: this project is faster).
#
# Usage (from the build directory, after make):
#   doc/experiments/muhash_side_by_side.sh CORE_CHECKOUT [PAIRS] [CPU]
# CORE_CHECKOUT is a Bitcoin Core source tree: its src/crypto/muhash.{h,cpp},
# src/crypto/chacha20.{h,cpp}, src/crypto/common.h (and what it includes), src/span.h,
# src/attributes.h and src/bench/nanobench.h are used as they are. Core's hash.h, uint256.h,
# serialize.h, random.h, util/check.h and support/cleanse.h pull in much of Core, so B gets
# small stand-ins written here instead: HashWriter is SHA-256 through OpenSSL's SHA256_*
# (SHA-NI where the CPU has it, which is also what Core's SHA256AutoDetect picks there),
# FastRandomContext(true) is Core's ChaCha20 with the zero key read as a byte stream (what
# Core's is), Assume is nothing, memory_cleanse is memset. Needs g++ (C++20), OpenSSL's
# headers, taskset and python3. B is built -O2; HARDEN=1 adds Core's default hardening flags.
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 CORE_CHECKOUT [PAIRS] [CPU]" >&2
    exit 2
fi
core=$1/src
pairs=${2:-12}
cpu=${3:-1}
bench=${BENCH_BITCOIN:-./bench_bitcoin}
rows="MuHash MuHashMul MuHashDiv MuHashPrecompute MuHashFinalize"
for f in "$core/crypto/muhash.cpp" "$core/crypto/chacha20.cpp" "$core/bench/nanobench.h" "$bench"
do
    [ -e "$f" ] || { echo "$0: missing $f" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/shim/util" "$work/shim/support"
cat > "$work/shim/uint256.h" <<'EOF'
#ifndef SHIM_UINT256_H
#define SHIM_UINT256_H
#include <array>
#include <cstddef>
#include <cstdint>
class uint256
{
    std::array<unsigned char, 32> m_data{};
public:
    static constexpr size_t size() { return 32; }
    unsigned char* data() { return m_data.data(); }
    const unsigned char* data() const { return m_data.data(); }
    unsigned char* begin() { return m_data.data(); }
    unsigned char* end() { return m_data.data() + 32; }
    const unsigned char* begin() const { return m_data.data(); }
    const unsigned char* end() const { return m_data.data() + 32; }
    friend bool operator==(const uint256& a, const uint256& b) { return a.m_data == b.m_data; }
};
#endif
EOF
cat > "$work/shim/serialize.h" <<'EOF'
#ifndef SHIM_SERIALIZE_H
#define SHIM_SERIALIZE_H
#include <cstddef>
#include <cstdint>
#include <span>
#define READWRITE(...) ((void)0)
#define SERIALIZE_METHODS(cls, obj) template <typename S> static void SerializationOps(cls& obj, S&)
#endif
EOF
cat > "$work/shim/util/check.h" <<'EOF'
#ifndef SHIM_CHECK_H
#define SHIM_CHECK_H
#include <cassert>
#define Assume(val) ((void)0)
#endif
EOF
cat > "$work/shim/support/cleanse.h" <<'EOF'
#ifndef SHIM_CLEANSE_H
#define SHIM_CLEANSE_H
#include <cstring>
inline void memory_cleanse(void* p, size_t n)
{
    std::memset(p, 0, n);
    __asm__ __volatile__("" : : "r"(p) : "memory");
}
#endif
EOF
cat > "$work/shim/hash.h" <<'EOF'
#ifndef SHIM_HASH_H
#define SHIM_HASH_H
#include <openssl/sha.h>
#include <uint256.h>
#include <cstddef>
#include <span>
// Core's HashWriter, reduced to what MuHash uses: bytes in, SHA-256 out.
class HashWriter
{
    SHA256_CTX m_ctx;
public:
    HashWriter() { SHA256_Init(&m_ctx); }
    HashWriter& operator<<(std::span<const unsigned char> s)
    {
        SHA256_Update(&m_ctx, s.data(), s.size());
        return *this;
    }
    template <size_t N> HashWriter& operator<<(const unsigned char (&a)[N])
    {
        SHA256_Update(&m_ctx, a, N);
        return *this;
    }
    uint256 GetSHA256()
    {
        uint256 out;
        SHA256_Final(out.data(), &m_ctx);
        return out;
    }
};
#endif
EOF
cat > "$work/shim/random.h" <<'EOF'
#ifndef SHIM_RANDOM_H
#define SHIM_RANDOM_H
#include <crypto/chacha20.h>
#include <uint256.h>
#include <array>
#include <cstddef>
#include <span>
#include <vector>
// FastRandomContext(true): Core's ChaCha20, zero key, its keystream as a byte stream.
class FastRandomContext
{
    ChaCha20 m_rng;
    static std::array<std::byte, 32> Zero() { return {}; }
public:
    explicit FastRandomContext(bool) : m_rng(Zero()) {}
    std::vector<unsigned char> randbytes(size_t n)
    {
        std::vector<unsigned char> v(n);
        m_rng.Keystream(std::as_writable_bytes(std::span{v}));
        return v;
    }
    uint256 rand256()
    {
        uint256 u;
        m_rng.Keystream(std::as_writable_bytes(std::span{u.data(), 32}));
        return u;
    }
};
#endif
EOF
cat > "$work/core_rows.cpp" <<'EOF'
// Core's MuHash benchmark bodies (bench/crypto_hash.cpp), each through nanobench with the
// minimum epoch time Core's bench_bitcoin uses by default (-min-time=10 ms over the epochs).
// Prints "row NAME NS_PER_OP BATCH" per row after nanobench's tables.
#define ANKERL_NANOBENCH_IMPLEMENT
#include <bench/nanobench.h>

#include <crypto/muhash.h>
#include <random.h>
#include <uint256.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

namespace {

void MuHash(ankerl::nanobench::Bench& bench)
{
    MuHash3072 acc;
    unsigned char key[32] = {0};
    uint32_t i = 0;
    bench.run([&] {
        key[0] = ++i & 0xFF;
        acc *= MuHash3072(key);
    });
}

void MuHashMul(ankerl::nanobench::Bench& bench)
{
    MuHash3072 acc;
    FastRandomContext rng(true);
    MuHash3072 muhash{rng.randbytes(32)};
    bench.run([&] { acc *= muhash; });
}

void MuHashDiv(ankerl::nanobench::Bench& bench)
{
    MuHash3072 acc;
    FastRandomContext rng(true);
    MuHash3072 muhash{rng.randbytes(32)};
    bench.run([&] { acc /= muhash; });
}

void MuHashPrecompute(ankerl::nanobench::Bench& bench)
{
    MuHash3072 acc;
    FastRandomContext rng(true);
    std::vector<unsigned char> key{rng.randbytes(32)};
    bench.run([&] { MuHash3072{key}; });
}

void MuHashFinalize(ankerl::nanobench::Bench& bench)
{
    FastRandomContext rng(true);
    MuHash3072 acc{rng.randbytes(32)};
    acc /= MuHash3072{rng.rand256()};
    bench.run([&] {
        uint256 out;
        acc.Finalize(out);
        acc /= MuHash3072{out};
    });
}

struct Row {
    const char* name;
    std::function<void(ankerl::nanobench::Bench&)> body;
};

} // namespace

int main(int argc, char** argv)
{
    const std::vector<Row> rows = {
        {"MuHash", MuHash}, {"MuHashMul", MuHashMul}, {"MuHashDiv", MuHashDiv},
        {"MuHashPrecompute", MuHashPrecompute}, {"MuHashFinalize", MuHashFinalize},
    };
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
flags="-std=c++20 -O2 -I$work/shim -I$core -Wno-deprecated-declarations"
ldflags=
if [ "${HARDEN:-0}" = 1 ]; then
    flags="$flags -fPIE -D_FORTIFY_SOURCE=3 -fstack-protector-all -fcf-protection=full"
    flags="$flags -fstack-clash-protection -ftrivial-auto-var-init=pattern"
    ldflags="-pie -Wl,-z,relro -Wl,-z,now"
fi
(
    cd "$work"
    g++ $flags -c "$core/crypto/muhash.cpp" -o muhash.o
    g++ $flags -c "$core/crypto/chacha20.cpp" -o chacha20.o
    g++ $flags -c core_rows.cpp -o core_rows.o
    g++ $ldflags -o core_rows ./*.o -lcrypto
)
filter=$(echo "$rows" | tr ' ' '|')
i=1
while [ "$i" -le "$pairs" ]; do
    taskset -c "$cpu" "$bench" -filter="$filter" -min-time=10 \
        -output-csv="$work/a$i.csv" >/dev/null 2>"$work/a.err"
    taskset -c "$cpu" "$work/core_rows" $rows >"$work/b$i.txt" 2>"$work/b.err"
    i=$((i + 1))
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work" "$pairs" $rows <<'EOF'
import statistics, sys
work, pairs, rows = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
ours = {r: [] for r in rows}
core = {r: [] for r in rows}
for i in range(1, pairs + 1):
    for line in open(f"{work}/a{i}.csv"):
        if line.startswith("#"):
            continue
        f = [x.strip() for x in line.split(",")]
        if f[0] in ours:
            ours[f[0]].append(float(f[6]) * 1e9)
    for line in open(f"{work}/b{i}.txt"):
        if line.startswith("row "):
            _, name, med, b = line.split()
            core[name].append(float(med) * 1e9 / float(b))
print("| row | ours (ns/op) | Core (ns/op) | ours/Core (median of pairs) | pairs |")
print("| --- | ---: | ---: | ---: | ---: |")
for r in rows:
    ratio = statistics.median(a / b for a, b in zip(ours[r], core[r]))
    print(f"| {r} | {statistics.median(ours[r]):,.0f} | {statistics.median(core[r]):,.0f} "
          f"| {ratio:.3f} | {len(ours[r])} |")
EOF
