# src/mempool: a toy mempool with ancestor/descendant bookkeeping, its
# transactions, and the ComplexMemPool workload generator.
noinst_LTLIBRARIES += src/mempool/libbitcoin_mempool.la
src_mempool_libbitcoin_mempool_la_SOURCES = \
	src/mempool/mempool.c \
	src/mempool/mempool.h \
	src/mempool/tx.c \
	src/mempool/tx.h \
	src/mempool/workload.c \
	src/mempool/workload.h

MEMPOOL_LIBS = \
	src/mempool/libbitcoin_mempool.la \
	src/crypto/libbitcoin_crypto.la \
	src/util/libbitcoin_util.la

check_PROGRAMS += test/test_mempool
TESTS += test/test_mempool
test_test_mempool_SOURCES = test/test_mempool.c
test_test_mempool_CPPFLAGS = $(AM_CPPFLAGS) $(OPENSSL_CFLAGS)
test_test_mempool_LDADD = $(MEMPOOL_LIBS) test/libtestutil.la $(OPENSSL_LIBS)

# Timing driver: one ComplexMemPool iteration per size, median of several runs.
# Built by `make check`, never run by it (speed is not asserted).
check_PROGRAMS += src/mempool/mempool_timing
src_mempool_mempool_timing_SOURCES = src/mempool/mempool_timing.c
src_mempool_mempool_timing_LDADD = $(MEMPOOL_LIBS)

EXTRA_DIST += doc/mempool.md
