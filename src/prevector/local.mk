# src/prevector: the prevector (header-only, one macro per element type) and the
# byte stream it serialises to, which lives in the shared util library.
src_util_libbitcoin_util_la_SOURCES += src/util/stream.c src/util/stream.h

check_PROGRAMS += test/test_stream
TESTS += test/test_stream
test_test_stream_SOURCES = test/test_stream.c
test_test_stream_LDADD = src/util/libbitcoin_util.la test/libtestutil.la
