/* RIPEMD-160: every test vector of the RIPEMD-160 paper, split points,
 * midstates, and OpenSSL on random lengths and alignments (see hash_test.h)
 * when this OpenSSL still provides RIPEMD-160. */
#include "crypto/ripemd160.h"

#include "hash_test.h"

HASH_TEST_DESC(ripemd160, "RIPEMD160", RIPEMD160_OUTPUT_SIZE);

static const hash_kat ripemd160_kats[] = {
    { "", 1, "9c1185a5c5e9fc54612808977ee8f548b2258d31" },
    { "a", 1, "0bdc9d2d256b3ee9daae347be6f4dc835a467ffe" },
    { "abc", 1, "8eb208f7e05d987a9b044a8e98c6b087f15a0bfc" },
    { "message digest", 1, "5d0689ef49d2fae572b881b123a85ffa21595f36" },
    { "abcdefghijklmnopqrstuvwxyz", 1, "f71c27109c692c1b56bbdceb5b9d2865b3708dbc" },
    { "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
      "12a053384a9c0c88e405a06c27dcf49ada62eb2b" },
    { "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 1,
      "b0e20b6e3116640286ed3a87a5713079b21f5189" },
    { "1234567890", 8, "9b752e45573d4b39f4dbd3323cab82bf63326bfb" },
    { "a", 1000000, "52783243c1697bdbe16d37f97f68f08325dc1528" },
};

int main(int argc, char **argv)
{
    int compared;

    (void)argc;
    check_rng_init(argv[0]);
    compared = hash_test_all(&ripemd160_desc, ripemd160_kats,
                             sizeof ripemd160_kats / sizeof ripemd160_kats[0]);
    hash_test_report(&ripemd160_desc, compared);
    return check_finish();
}
