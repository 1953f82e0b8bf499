/* SHA-512: FIPS 180 examples, split points, midstates, and OpenSSL on random
 * lengths and alignments (see hash_test.h), and the 128-bit length field of
 * messages too long to hash here, from forged contexts; then the same again
 * through the implementation sha256_autodetect picks, when that is not the
 * portable one. */
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

/* The padding of a message of `bytes` bytes, from a context forged to have
 * written that many: a real midstate, the last bytes % 128 bytes in its
 * buffer. The length field is 128 bits, and the bits of bytes * 8 above 64
 * (set from 2^61 bytes) go to its high half. The expected digest compresses
 * a padding block built here by hand through sha512_write from the same state
 * (a write of whole blocks compresses them and pads nothing). */
static void test_forged_length(uint64_t bytes)
{
    sha512_ctx ctx, ref;
    unsigned char start[128], pad[256], got[64], want[64];
    size_t used = (size_t)(bytes % 128), total = used < 112 ? 128 : 256, i;

    check_rng_fill(start, sizeof start);
    sha512_init(&ctx);
    sha512_write(&ctx, start, sizeof start);
    check_rng_fill(ctx.buf, used);
    ref = ctx;
    ctx.bytes = bytes;

    memset(pad, 0, sizeof pad);
    memcpy(pad, ctx.buf, used);
    pad[used] = 0x80;
    for (i = 0; i < 8; i++) {
        pad[total - 16 + i] = (unsigned char)((bytes >> 61) >> (56 - 8 * i));
        pad[total - 8 + i] = (unsigned char)((bytes << 3) >> (56 - 8 * i));
    }
    sha512_write(&ref, pad, total);
    CHECK(ref.bytes % 128 == 0);
    for (i = 0; i < 64; i++)
        want[i] = (unsigned char)(ref.s[i / 8] >> (56 - 8 * (i % 8)));
    if (bytes < 256) {
        /* Not forged at all: the hand-made padding must match the one-shot. */
        unsigned char msg[256], one[64];
        memcpy(msg, start, 128);
        memcpy(msg + 128, ctx.buf, used);
        sha512_hash(one, msg, 128 + used);
        hash_test_equal(&sha512_desc, want, one, "hand padding vs one-shot", used, 0);
    }
    sha512_finalize(&ctx, got);
    hash_test_equal(&sha512_desc, got, want, "forged length (bytes mod 2^32, >> 32)",
                    (size_t)(bytes & 0xffffffffu), (size_t)(bytes >> 32));
}

/* From short (where the forging must agree with plain hashing) to lengths
 * whose bit count passes 32 and 64 bits, with each of the three high bits
 * alone and all together; tails that fit the length field in the last block
 * and tails that need another. */
static void test_forged_lengths(void)
{
    static const uint64_t whole[] = {
        128, (uint64_t)1 << 29, (uint64_t)1 << 61, (uint64_t)1 << 62, (uint64_t)1 << 63,
        ~(uint64_t)127,
    };
    static const size_t tails[] = { 0, 5, 111, 112, 127 };
    unsigned long before = check_failures();
    size_t w, t;
    for (w = 0; w < sizeof whole / sizeof whole[0]; w++)
        for (t = 0; t < sizeof tails / sizeof tails[0] && check_failures() < before + 4; t++)
            test_forged_length(whole[w] + tails[t]);
}

int main(int argc, char **argv)
{
    const char *impl;
    int compared;

    (void)argc;
    check_rng_init(argv[0]);
    compared = hash_test_all(&sha512_desc, sha512_kats,
                             sizeof sha512_kats / sizeof sha512_kats[0]);
    test_forged_lengths();
    impl = sha256_autodetect();
    if (strcmp(impl, "standard") != 0) {
        printf("again with %s\n", impl);
        hash_test_all(&sha512_desc, sha512_kats, sizeof sha512_kats / sizeof sha512_kats[0]);
        test_forged_lengths();
    }
    hash_test_report(&sha512_desc, compared);
    return check_finish();
}
