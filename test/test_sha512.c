/* SHA-512: FIPS 180 examples, split points, midstates, and OpenSSL on random
 * lengths and alignments (see hash_test.h); then the same again through the
 * implementation sha256_autodetect picks, when that is not the portable one. */
#include "crypto/sha256.h"
#include "crypto/sha512.h"

#include "hash_test.h"

HASH_TEST_DESC(sha512, "SHA512", SHA512_OUTPUT_SIZE);

static const hash_kat sha512_kats[] = {
    { "abc", 1,
      "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
      "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f" },
    { "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
      "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c335"
      "96fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445" },
    { "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
      "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu", 1,
      "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
      "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909" },
    { "a", 1000000,
      "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
      "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b" },
    { "", 1,
      "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
      "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e" },
};

int main(int argc, char **argv)
{
    const char *impl;
    int compared;

    (void)argc;
    check_rng_init(argv[0]);
    compared = hash_test_all(&sha512_desc, sha512_kats,
                             sizeof sha512_kats / sizeof sha512_kats[0]);
    impl = sha256_autodetect();
    if (strcmp(impl, "standard") != 0) {
        printf("again with %s\n", impl);
        hash_test_all(&sha512_desc, sha512_kats, sizeof sha512_kats / sizeof sha512_kats[0]);
    }
    hash_test_report(&sha512_desc, compared);
    return check_finish();
}
