# src/bench_bitcoin: the program users run (./bench_bitcoin at the top of the build tree) and
# its benchmarks, one file per area. The list of benchmarks is in bench.h.
bin_PROGRAMS += bench_bitcoin
bench_bitcoin_SOURCES = \
	src/bench_bitcoin/bench.h \
	src/bench_bitcoin/bench_bitcoin.c \
	src/bench_bitcoin/registry.c \
	src/bench_bitcoin/crypto_hash.c \
	src/bench_bitcoin/crypto_openssl.h \
	src/bench_bitcoin/crypto_openssl.c \
	src/bench_bitcoin/prevector.c \
	src/bench_bitcoin/mempool_stress.c
# Static libraries, dependents first.
bench_bitcoin_LDADD = \
	src/mempool/libbitcoin_mempool.la \
	src/bench/libnanobench.la \
	src/crypto/libbitcoin_crypto.la \
	src/util/libbitcoin_util.la
# OpenSSL only for -compare's [openssl] rows (both empty when configured --without-openssl).
bench_bitcoin_CPPFLAGS = $(AM_CPPFLAGS) $(OPENSSL_CFLAGS)
bench_bitcoin_LDADD += $(OPENSSL_LIBS)

TESTS += test/test_sanity.sh test/test_options.sh
EXTRA_DIST += test/test_sanity.sh test/test_options.sh
EXTRA_DIST += doc/benchmarks.md
