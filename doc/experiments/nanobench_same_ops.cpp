// bench_bitcoin's benchmark bodies, compiled once, measured by nanobench instead of this
// project's harness: the program doc/experiments/repeat_vs_nanobench.sh builds to compare the
// two harnesses on the very same machine code.
//
// The benchmark files (src/bench_bitcoin/*.c) call nb_run, an inline loop in
// src/bench/nanobench.h that asks the harness for an iteration count (nb_impl_next), brackets
// each epoch (nb_impl_epoch_begin / _end) and runs the op n times in between. Here those calls
// go to nanobench's own iteration logic (ankerl::nanobench::detail::IterationLogic), exactly
// as nanobench's Bench::run drives its loop: same epochs, same sizing, same clock, the median
// epoch reported. Every benchmark gets Core's default setting, a minimum time of 10 ms spread
// over nanobench's epochs. Prints nanobench's tables; with -o FILE also nanobench's JSON.
// -repeat K runs the whole selection K times in one process (K results per benchmark).
// Usage: nanobench_same_ops [-o FILE] [-filter REGEX] [-repeat K]
#define ANKERL_NANOBENCH_IMPLEMENT
#include "ankerl_nanobench.h"

extern "C" {
#include "bench_bitcoin/bench.h"
#include "crypto/sha256.h"
}

#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <regex.h>
#include <string>
#include <vector>

struct nb_bench {
    ankerl::nanobench::Bench bench;
    std::unique_ptr<ankerl::nanobench::detail::IterationLogic> logic;
    std::chrono::steady_clock::time_point before;
    std::vector<ankerl::nanobench::Result> results;
};

using ankerl::nanobench::detail::performanceCounters;

extern "C" {

nb_bench *nb_batch(nb_bench *b, double batch)
{
    b->bench.batch(batch);
    return b;
}

nb_bench *nb_unit(nb_bench *b, const char *unit)
{
    b->bench.unit(unit);
    return b;
}

double nb_get_complexity_n(const nb_bench *)
{
    return -1;
}

int nb_valgrind_counting(void)
{
    return 0;
}

int nb_impl_start(nb_bench *b, int)
{
    b->logic.reset(new ankerl::nanobench::detail::IterationLogic(b->bench));
    return 0;
}

uint64_t nb_impl_next(nb_bench *b)
{
    return b->logic->numIters();
}

void nb_impl_epoch_begin(nb_bench *b)
{
    performanceCounters().beginMeasure();
    b->before = ankerl::nanobench::Clock::now();
}

void nb_impl_epoch_end(nb_bench *b)
{
    const auto after = ankerl::nanobench::Clock::now();
    auto &pc = performanceCounters();
    pc.endMeasure();
    pc.updateResults(b->logic->numIters());
    b->logic->add(after - b->before, pc);
}

void nb_impl_finish(nb_bench *b)
{
    b->logic->moveResultTo(b->results);
    b->logic.reset();
}

// The -compare path (several implementations through nb_compare) is not part of this
// program; a benchmark that reaches it fails loudly.
nb_comparison *nb_compare(nb_bench *, const nb_alternative *, size_t)
{
    std::fprintf(stderr, "nanobench_same_ops: nb_compare is not supported here\n");
    std::abort();
}

// bench_bitcoin's error reporting (options.c), which the benchmark files call.
void bench_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    std::fputs("nanobench_same_ops: ", stderr);
    std::vfprintf(stderr, fmt, ap);
    std::fputc('\n', stderr);
    va_end(ap);
}

void bench_out_of_memory(const char *name)
{
    bench_error("%s: out of memory", name);
    std::exit(1);
}

} // extern "C"

int main(int argc, char **argv)
{
    const char *json = nullptr;
    const char *filter = ".*";
    int repeat = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::string(argv[i]) == "-o")
            json = argv[i + 1];
        else if (std::string(argv[i]) == "-filter")
            filter = argv[i + 1];
        else if (std::string(argv[i]) == "-repeat")
            repeat = std::atoi(argv[i + 1]);
    }
    regex_t re;
    const std::string anchored = std::string("^(") + filter + ")$";
    if (regcomp(&re, anchored.c_str(), REG_EXTENDED | REG_NOSUB) != 0) {
        std::fprintf(stderr, "nanobench_same_ops: bad -filter\n");
        return 1;
    }
    std::fprintf(stderr, "Using the '%s' SHA256 implementation\n", sha256_autodetect());
    size_t count = 0;
    const bench_entry *reg = bench_registry(&count);
    std::vector<const bench_entry *> sel;
    for (size_t i = 0; i < count; i++) {
        if (regexec(&re, reg[i].name, 0, nullptr, 0) == 0 &&
            (!reg[i].available || reg[i].available()))
            sel.push_back(&reg[i]);
    }
    std::sort(sel.begin(), sel.end(), [](const bench_entry *a, const bench_entry *b) {
        return std::string(a->name) < std::string(b->name);
    });
    std::vector<ankerl::nanobench::Result> all;
    for (int k = 0; k < repeat; k++)
    for (const bench_entry *e : sel) {
        nb_bench b;
        b.bench.name(e->name);
        // Core's bench_bitcoin: -min-time (10 ms by default) spread over the epochs.
        const std::chrono::nanoseconds min_time = std::chrono::milliseconds(10);
        b.bench.minEpochTime(min_time / b.bench.epochs());
        e->fn(&b);
        for (const auto &r : b.results)
            all.push_back(r);
    }
    if (json) {
        std::ofstream out(json);
        ankerl::nanobench::render(ankerl::nanobench::templates::json(), all, out);
    }
    regfree(&re);
    return 0;
}
