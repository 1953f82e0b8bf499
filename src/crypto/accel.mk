# src/crypto, accelerated variants: dispatch, and one convenience library per
# instruction-set flag set (built only where configure found the compiler can),
# merged into libbitcoin_crypto.
src_crypto_libbitcoin_crypto_la_SOURCES += \
	src/crypto/dispatch.c \
	src/crypto/impl.h
