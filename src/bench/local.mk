# src/bench: the harness library (nanobench in C). Knows nothing of Bitcoin.
noinst_LTLIBRARIES += src/bench/libnanobench.la
src_bench_libnanobench_la_SOURCES =
