# src/crypto: the hashes. Portable code always; one convenience library per
# instruction-set variant, each built with its own flags, merged into
# libbitcoin_crypto, which chooses among them at run time.
noinst_LTLIBRARIES += src/crypto/libbitcoin_crypto.la
src_crypto_libbitcoin_crypto_la_SOURCES = \
	src/crypto/cpuid.c \
	src/crypto/cpuid.h
src_crypto_libbitcoin_crypto_la_LIBADD =
