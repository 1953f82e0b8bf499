# src/bench_bitcoin: the program and its benchmarks (filled in by its area)
