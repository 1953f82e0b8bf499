/* SHA-256: FIPS 180 examples, split points, midstates, and OpenSSL on random
 * lengths and alignments (see hash_test.h); sha256_d64 against two SHA-256
 * calls (OpenSSL's when available, else our own one-shot), out of place and in
 * place; then all of it again through the implementation sha256_autodetect
 * picks, when that is not the portable one. */
#include "crypto/impl.h"
#include "crypto/sha256.h"

#include "hash_test.h"

HASH_TEST_DESC(sha256, "SHA256", SHA256_OUTPUT_SIZE);

static const hash_kat sha256_kats[] = {
    { "abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
    { "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
    { "a", 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
    { "", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
};

/* SHA256(SHA256(64 zero bytes)): one fixed answer for sha256_d64, checked
 * even without OpenSSL. */
static const char d64_zero_hex[] =
    "e2f61c3f71d1defd3fa999dfa36953755c690689799962b48bebd836974e8cf9";

/* Reference for block i: two plain SHA-256 calls. */
static void d64_reference(unsigned char *out, const unsigned char *in, size_t blocks,
                          int use_openssl)
{
    size_t i;
    for (i = 0; i < blocks; i++) {
        unsigned char mid[32];
#ifdef HAVE_OPENSSL
        if (use_openssl) {
            unsigned int n;
            CHECK(EVP_Digest(in + 64 * i, 64, mid, &n, EVP_sha256(), NULL) == 1);
            CHECK(EVP_Digest(mid, 32, out + 32 * i, &n, EVP_sha256(), NULL) == 1);
            continue;
        }
#else
        (void)use_openssl;
#endif
        sha256_hash(mid, in + 64 * i, 64);
        sha256_hash(out + 32 * i, mid, 32);
    }
}

static int untouched(const unsigned char *p, size_t n, unsigned char guard)
{
    while (n--)
        if (*p++ != guard)
            return 0;
    return 1;
}

static void test_d64(int use_openssl)
{
    static const size_t big[] = { 63, 64, 100, 257 };
    enum { MAXB = 257 };
    unsigned char *in = malloc(64 * MAXB + 8);
    unsigned char *work = malloc(64 * MAXB + 8);
    unsigned char *out = malloc(32 * MAXB + 40);
    unsigned char *ref = malloc(32 * MAXB);
    unsigned char zero[64] = { 0 }, want[32];
    size_t t;

    if (!CHECK(in && work && out && ref))
        goto done;
    CHECK(check_unhex(want, sizeof want, d64_zero_hex) == 32);
    sha256_d64(out, zero, 1);
    CHECK(memcmp(out, want, 32) == 0);
    sha256_d64_portable(out, zero, 1);
    CHECK(memcmp(out, want, 32) == 0);

    for (t = 0; t <= 40 + sizeof big / sizeof big[0]; t++) {
        size_t n = t <= 40 ? t : big[t - 41];
        size_t off = (size_t)check_rng_below(8); /* misaligned input and output */
        unsigned char guard = (unsigned char)check_rng_u64();

        check_rng_fill(in + off, 64 * n);
        d64_reference(ref, in + off, n, use_openssl);

        memset(out, guard, 32 * n + 40);
        sha256_d64(out + off, in + off, n);
        CHECKF(n == 0 || memcmp(out + off, ref, 32 * n) == 0, "sha256_d64, %zu blocks", n);
        CHECKF(untouched(out, off, guard) && untouched(out + off + 32 * n, 40 - off, guard),
               "sha256_d64 wrote outside its %zu blocks", n);

        sha256_d64_portable(out + off, in + off, n);
        CHECKF(n == 0 || memcmp(out + off, ref, 32 * n) == 0, "d64_portable, %zu blocks", n);

        /* In place, as the SHA256D64_1024 benchmark does it. */
        memcpy(work + off, in + off, 64 * n);
        sha256_d64(work + off, work + off, n);
        CHECKF(n == 0 || memcmp(work + off, ref, 32 * n) == 0, "in-place d64, %zu blocks", n);
        CHECKF(n == 0 || memcmp(work + off + 32 * n, in + off + 32 * n, 32 * n) == 0,
               "in-place d64 changed the second half, %zu blocks", n);
    }
done:
    free(in);
    free(work);
    free(out);
    free(ref);
}

int main(int argc, char **argv)
{
    const char *impl;
    int compared;

    (void)argc;
    check_rng_init(argv[0]);
    compared = hash_test_all(&sha256_desc, sha256_kats,
                             sizeof sha256_kats / sizeof sha256_kats[0]);
    test_d64(compared);
    impl = sha256_autodetect();
    CHECK(impl != NULL && strcmp(impl, sha256_autodetect()) == 0);
    if (strcmp(impl, "standard") != 0) {
        printf("again with %s\n", impl);
        hash_test_all(&sha256_desc, sha256_kats, sizeof sha256_kats / sizeof sha256_kats[0]);
        test_d64(compared);
    }
    hash_test_report(&sha256_desc, compared);
    return check_finish();
}
