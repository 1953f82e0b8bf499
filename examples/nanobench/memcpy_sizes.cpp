#define ANKERL_NANOBENCH_IMPLEMENT
#include <nanobench.h>
#include <cstring>
#include <string>
#include <vector>

int main() {
    ankerl::nanobench::Bench bench;
    bench.title("memcpy").unit("byte");
    for (size_t n : {64, 8192, 1 << 20}) {
        std::vector<char> src(n), dst(n);
        bench.batch(n).run("memcpy " + std::to_string(n), [&] {
            std::memcpy(dst.data(), src.data(), n);
            ankerl::nanobench::doNotOptimizeAway(dst.data());
        });
    }
}
