# src/prevector: the prevector (header-only, one macro per element type) and the
# byte stream it serialises to, which lives in the shared util library.
src_util_libbitcoin_util_la_SOURCES += src/util/stream.c src/util/stream.h

check_PROGRAMS += test/test_stream
TESTS += test/test_stream
test_test_stream_SOURCES = test/test_stream.c
test_test_stream_LDADD = src/util/libbitcoin_util.la test/libtestutil.la

noinst_HEADERS += src/prevector/prevector.h src/prevector/serialize.h

check_PROGRAMS += test/test_prevector
TESTS += test/test_prevector
test_test_prevector_SOURCES = test/test_prevector.c test/test_prevector_tu2.c \
	test/prevector_kinds.h test/prevector_model.h
test_test_prevector_LDADD = src/util/libbitcoin_util.la test/libtestutil.la

# Times the benchmark shapes on their own: a comparison tool, not a test (built
# by make check so that it keeps compiling, never run by it):
# src/prevector/prevector_speed [epoch-ms]
check_PROGRAMS += src/prevector/prevector_speed
src_prevector_prevector_speed_SOURCES = src/prevector/prevector_speed.c
src_prevector_prevector_speed_LDADD = src/util/libbitcoin_util.la

EXTRA_DIST += doc/prevector.md
