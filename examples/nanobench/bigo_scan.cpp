#define ANKERL_NANOBENCH_IMPLEMENT
#include <nanobench.h>
#include <iostream>
#include <vector>

int main() {
    ankerl::nanobench::Bench bench;
    ankerl::nanobench::Rng rng(1);
    for (size_t n = 1000; n <= 64000; n *= 2) {
        std::vector<uint32_t> v(n);
        for (auto& x : v) x = rng.bounded(1000);
        bench.complexityN(n).run("scan", [&] {
            uint32_t sum = 0;
            for (auto x : v) sum += x;
            ankerl::nanobench::doNotOptimizeAway(sum);
        });
    }
    std::cout << bench.complexityBigO() << std::endl;
}
