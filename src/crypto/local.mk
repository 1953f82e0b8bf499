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
