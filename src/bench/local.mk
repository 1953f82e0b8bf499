# src/bench: the harness library (nanobench in C). Knows nothing of Bitcoin.
noinst_LTLIBRARIES += src/bench/libnanobench.la
src_bench_libnanobench_la_SOURCES =
src_bench_libnanobench_la_SOURCES += src/bench/nanobench.h
src_bench_libnanobench_la_SOURCES += src/bench/nb_internal.h
src_bench_libnanobench_la_SOURCES += src/bench/nb_bench.c
src_bench_libnanobench_la_SOURCES += src/bench/nb_clock.c
src_bench_libnanobench_la_SOURCES += src/bench/nb_logic.c
src_bench_libnanobench_la_SOURCES += src/bench/nb_perf.c
src_bench_libnanobench_la_SOURCES += src/bench/nb_result.c
src_bench_libnanobench_la_SOURCES += src/bench/nb_table.c
src_bench_libnanobench_la_LIBADD = src/util/libbitcoin_util.la

# Harness tests: iteration logic on a fake clock, statistics, formatting,
# the table as golden text, perf groups with software events.
check_PROGRAMS += test/test_nb_core
TESTS += test/test_nb_core
test_test_nb_core_SOURCES = test/test_nb_core.c
test_test_nb_core_LDADD = src/bench/libnanobench.la src/util/libbitcoin_util.la \
	test/libtestutil.la

# nb_run's cost per iteration against a hand-written loop (built by make
# check, never run by it: speed is measured, never asserted).
check_PROGRAMS += src/bench/nb_overhead
src_bench_nb_overhead_SOURCES = src/bench/nb_overhead.c
src_bench_nb_overhead_LDADD = src/bench/libnanobench.la src/util/libbitcoin_util.la

EXTRA_DIST += doc/harness.md
