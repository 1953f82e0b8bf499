/* SHA3-256: FIPS 202 examples (NIST's published SHA3-256 examples: the empty
 * message, "abc", the 1600-bit message of 0xa3 bytes), the 448- and 896-bit
 * messages and a million "a", split points, midstates, and OpenSSL's
 * EVP_sha3_256 on random lengths and alignments (see hash_test.h); then
 * 1,000,000 zero bytes (the SHA3_256_1M benchmark's input) against a digest
 * taken from OpenSSL, and against OpenSSL itself when built with it. */
#include "crypto/sha3.h"

#include "hash_test.h"

HASH_TEST_DESC(sha3_256, "SHA3-256", SHA3_256_OUTPUT_SIZE);

static const hash_kat sha3_kats[] = {
    { "", 1, "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a" },
    { "abc", 1, "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532" },
    { "\xa3", 200, "79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787" },
    { "\xa3\xa3\xa3\xa3\xa3\xa3\xa3\xa3\xa3\xa3\xa3\xa3\xa3\xa3\xa3\xa3\xa3\xa3\xa3\xa3", 10,
      "79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787" },
    { "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
      "41c0dba2a9d6240849100376a8235e2c82e1b9998a999e21db32dd97496d3376" },
    { "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
      "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu", 1,
      "916f6061fe879741ca6469b43971dfdb28b1a32dc36cb3254e812be27aad1d18" },
    { "a", 1000000, "5c8875ae474a3634ba4fd55ec85bffd661f32aca75c6d699d0cdcb6c115891c1" },
};

/* SHA3-256 of 1,000,000 zero bytes, as OpenSSL 3.0 computes it. */
static const char zeros_1m_hex[] =
    "cb2679d674f0565ad17c666d5ea5746f747fd94650fe2d105571f7e36231674c";

static void test_zeros_1m(void)
{
    enum { LEN = 1000000 };
    unsigned char *zeros = calloc(1, LEN);
    unsigned char want[32], got[32];

    if (!CHECK(zeros != NULL))
        return;
    CHECK(check_unhex(want, sizeof want, zeros_1m_hex) == 32);
    sha3_256_hash(got, zeros, LEN);
    hash_test_equal(&sha3_256_desc, got, want, "1 MB of zeros", LEN, 0);
#ifdef HAVE_OPENSSL
    if (hash_test_md) {
        unsigned char ossl[EVP_MAX_MD_SIZE];
        unsigned int olen;
        CHECK(EVP_Digest(zeros, LEN, ossl, &olen, hash_test_md, NULL) == 1);
        hash_test_equal(&sha3_256_desc, got, ossl, "1 MB of zeros vs OpenSSL", LEN, 0);
    }
#endif
    free(zeros);
}

int main(int argc, char **argv)
{
    int compared;

    (void)argc;
    check_rng_init(argv[0]);
    compared = hash_test_all(&sha3_256_desc, sha3_kats, sizeof sha3_kats / sizeof sha3_kats[0]);
    test_zeros_1m();
    hash_test_report(&sha3_256_desc, compared);
    return check_finish();
}
