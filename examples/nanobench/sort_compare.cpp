#define ANKERL_NANOBENCH_IMPLEMENT
#include <nanobench.h>
#include <cstdlib>
#include <vector>

int main() {
    ankerl::nanobench::Rng rng(42);
    std::vector<int> shuffled(200);
    for (auto& x : shuffled) x = static_cast<int>(rng.bounded(1000000));
    auto cmp = [](void const* a, void const* b) {
        return *static_cast<int const*>(a) - *static_cast<int const*>(b);
    };
    ankerl::nanobench::Bench bench;
    bench.title("sort 200 ints").relative(true);
    bench.run("qsort", [&] {
        auto v = shuffled;
        std::qsort(v.data(), v.size(), sizeof(int), cmp);
        ankerl::nanobench::doNotOptimizeAway(v);
    });
    bench.run("insertion sort", [&] {
        auto v = shuffled;
        for (size_t i = 1; i < v.size(); ++i) {
            int x = v[i];
            size_t j = i;
            for (; j > 0 && v[j - 1] > x; --j) v[j] = v[j - 1];
            v[j] = x;
        }
        ankerl::nanobench::doNotOptimizeAway(v);
    });
}
