/* SHA-1: FIPS 180 examples, split points, midstates, and OpenSSL on random
 * lengths and alignments (see hash_test.h); then the same again through the
 * implementation sha256_autodetect picks, when that is not the portable one. */
#include "crypto/sha1.h"
#include "crypto/sha256.h"

#include "hash_test.h"

HASH_TEST_DESC(sha1, "SHA1", SHA1_OUTPUT_SIZE);

static const hash_kat sha1_kats[] = {
    { "abc", 1, "a9993e364706816aba3e25717850c26c9cd0d89d" },
    { "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
      "84983e441c3bd26ebaae4aa1f95129e5e54670f1" },
    { "a", 1000000, "34aa973cd4c4daa4f61eeb2bdbad27316534016f" },
    { "aaaaaaaaaa", 100000, "34aa973cd4c4daa4f61eeb2bdbad27316534016f" },
    { "", 1, "da39a3ee5e6b4b0d3255bfef95601890afd80709" },
};

int main(int argc, char **argv)
{
    const char *impl;
    int compared;

    (void)argc;
    check_rng_init(argv[0]);
    compared = hash_test_all(&sha1_desc, sha1_kats, sizeof sha1_kats / sizeof sha1_kats[0]);
    impl = sha256_autodetect();
    if (strcmp(impl, "standard") != 0) {
        printf("again with %s\n", impl);
        hash_test_all(&sha1_desc, sha1_kats, sizeof sha1_kats / sizeof sha1_kats[0]);
    }
    hash_test_report(&sha1_desc, compared);
    return check_finish();
}
