# src/crypto, accelerated variants: dispatch, and one convenience library per
# instruction-set flag set (built only where configure found the compiler can),
# merged into libbitcoin_crypto.
src_crypto_libbitcoin_crypto_la_SOURCES += \
	src/crypto/dispatch.c \
	src/crypto/dispatch.h \
	src/crypto/impl.h \
	src/crypto/variants.h \
	src/crypto/sha256_xway.h

if ENABLE_SHANI
noinst_LTLIBRARIES += src/crypto/libbitcoin_crypto_shani.la
src_crypto_libbitcoin_crypto_shani_la_SOURCES = \
	src/crypto/sha256_shani.c \
	src/crypto/sha1_shani.c
src_crypto_libbitcoin_crypto_shani_la_CFLAGS = $(AM_CFLAGS) $(SHANI_CFLAGS)
src_crypto_libbitcoin_crypto_la_LIBADD += src/crypto/libbitcoin_crypto_shani.la
endif

if ENABLE_SSE41
noinst_LTLIBRARIES += src/crypto/libbitcoin_crypto_sse41.la
src_crypto_libbitcoin_crypto_sse41_la_SOURCES = src/crypto/sha256_sse41.c
src_crypto_libbitcoin_crypto_sse41_la_CFLAGS = $(AM_CFLAGS) $(SSE41_CFLAGS)
src_crypto_libbitcoin_crypto_la_LIBADD += src/crypto/libbitcoin_crypto_sse41.la
endif

if ENABLE_AVX2
noinst_LTLIBRARIES += src/crypto/libbitcoin_crypto_avx2.la
src_crypto_libbitcoin_crypto_avx2_la_SOURCES = \
	src/crypto/sha256_avx2.c \
	src/crypto/sha512_avx2.c
src_crypto_libbitcoin_crypto_avx2_la_CFLAGS = $(AM_CFLAGS) $(AVX2_CFLAGS)
src_crypto_libbitcoin_crypto_la_LIBADD += src/crypto/libbitcoin_crypto_avx2.la
endif

if ENABLE_AVX512
noinst_LTLIBRARIES += src/crypto/libbitcoin_crypto_avx512.la
src_crypto_libbitcoin_crypto_avx512_la_SOURCES = src/crypto/sha256_avx512.c
src_crypto_libbitcoin_crypto_avx512_la_CFLAGS = $(AM_CFLAGS) $(AVX512_CFLAGS)
src_crypto_libbitcoin_crypto_la_LIBADD += src/crypto/libbitcoin_crypto_avx512.la
endif

# Every variant against the portable code; forced selection; autodetection.
check_PROGRAMS += test/test_crypto_variants
TESTS += test/test_crypto_variants
test_test_crypto_variants_SOURCES = test/test_crypto_variants.c
test_test_crypto_variants_LDADD = src/crypto/libbitcoin_crypto.la src/util/libbitcoin_util.la \
	test/libtestutil.la

# The variant test under valgrind (skipped without it and with sanitizers).
TESTS += test/test_valgrind.sh
EXTRA_DIST += test/test_valgrind.sh doc/crypto.md
