# src/crypto: the hashes. Portable code always; one convenience library per
# instruction-set variant, each built with its own flags, merged into
# libbitcoin_crypto, which chooses among them at run time.
noinst_LTLIBRARIES += src/crypto/libbitcoin_crypto.la
src_crypto_libbitcoin_crypto_la_SOURCES = \
	src/crypto/cpuid.c \
	src/crypto/cpuid.h
src_crypto_libbitcoin_crypto_la_SOURCES += \
	src/crypto/common.h \
	src/crypto/sha1.c \
	src/crypto/sha1.h \
	src/crypto/sha256.c \
	src/crypto/sha256.h \
	src/crypto/sha512.c \
	src/crypto/sha512.h \
	src/crypto/ripemd160.c \
	src/crypto/ripemd160.h \
	src/crypto/siphash.c \
	src/crypto/siphash.h
src_crypto_libbitcoin_crypto_la_LIBADD =

# Tests: one program per hash. The digest tests share test/hash_test.h.
HASH_TEST_LIBS = src/crypto/libbitcoin_crypto.la src/util/libbitcoin_util.la \
	test/libtestutil.la $(OPENSSL_LIBS)
noinst_HEADERS += test/hash_test.h
check_PROGRAMS += test/test_sha1 test/test_sha256 test/test_sha512 \
	test/test_ripemd160 test/test_siphash
TESTS += test/test_sha1 test/test_sha256 test/test_sha512 \
	test/test_ripemd160 test/test_siphash
test_test_sha1_SOURCES = test/test_sha1.c
test_test_sha1_CPPFLAGS = $(AM_CPPFLAGS) $(OPENSSL_CFLAGS)
test_test_sha1_LDADD = $(HASH_TEST_LIBS)
test_test_sha256_SOURCES = test/test_sha256.c
test_test_sha256_CPPFLAGS = $(AM_CPPFLAGS) $(OPENSSL_CFLAGS)
test_test_sha256_LDADD = $(HASH_TEST_LIBS)
test_test_sha512_SOURCES = test/test_sha512.c
test_test_sha512_CPPFLAGS = $(AM_CPPFLAGS) $(OPENSSL_CFLAGS)
test_test_sha512_LDADD = $(HASH_TEST_LIBS)
test_test_ripemd160_SOURCES = test/test_ripemd160.c
test_test_ripemd160_CPPFLAGS = $(AM_CPPFLAGS) $(OPENSSL_CFLAGS)
test_test_ripemd160_LDADD = $(HASH_TEST_LIBS)
test_test_siphash_SOURCES = test/test_siphash.c
test_test_siphash_CPPFLAGS = $(AM_CPPFLAGS) $(OPENSSL_CFLAGS)
test_test_siphash_LDADD = $(HASH_TEST_LIBS)

# Every implementation of every hash side by side with OpenSSL: not a test
# (noisy shared machine), built on demand with `make test/crypto_speed`
# (usage and figures in doc/crypto.md).
EXTRA_PROGRAMS += test/crypto_speed
test_crypto_speed_SOURCES = test/crypto_speed.c
test_crypto_speed_CPPFLAGS = $(AM_CPPFLAGS) $(OPENSSL_CFLAGS)
test_crypto_speed_LDADD = src/crypto/libbitcoin_crypto.la src/util/libbitcoin_util.la \
	$(OPENSSL_LIBS)
