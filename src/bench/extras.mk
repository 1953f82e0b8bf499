# src/bench, extras: Rng, complexity fits, templates (added to libnanobench).
src_bench_libnanobench_la_SOURCES += src/bench/nb_rng.c
src_bench_libnanobench_la_SOURCES += src/bench/nb_bigo.c
src_bench_libnanobench_la_SOURCES += src/bench/nb_render.c
# log2, sqrt (fits); anything linking the library needs libm
src_bench_libnanobench_la_LIBADD += -lm

check_PROGRAMS += test/test_nb_rng test/test_nb_bigo test/test_nb_render
TESTS += test/test_nb_rng test/test_nb_bigo test/test_nb_render
test_test_nb_rng_SOURCES = test/test_nb_rng.c
test_test_nb_rng_LDADD = src/bench/libnanobench.la src/util/libbitcoin_util.la \
	test/libtestutil.la
test_test_nb_bigo_SOURCES = test/test_nb_bigo.c
test_test_nb_bigo_LDADD = src/bench/libnanobench.la src/util/libbitcoin_util.la \
	test/libtestutil.la
test_test_nb_render_SOURCES = test/test_nb_render.c
test_test_nb_render_LDADD = src/bench/libnanobench.la src/util/libbitcoin_util.la \
	test/libtestutil.la

EXTRA_DIST += doc/templates.md
