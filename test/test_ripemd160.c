/* RIPEMD-160: every test vector of the RIPEMD-160 paper, split points,
 * midstates, and OpenSSL on random lengths and alignments (see hash_test.h)
 * when this OpenSSL still provides RIPEMD-160; the length field of messages
 * too long to hash here, from forged contexts. */
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

/* The padding of a message of `bytes` bytes (512 MiB and more, where the
 * length in bits no longer fits 32 bits), from a context forged to have
 * written that many: its state is a real midstate and its buffer holds the
 * last bytes % 64 bytes. The expected digest compresses a padding block built
 * here by hand, through ripemd160_write from the same state (a write of whole
 * blocks compresses them and pads nothing). */
static void test_forged_length(uint64_t bytes)
{
    ripemd160_ctx ctx, ref;
    unsigned char start[64], pad[128], got[20], want[20];
    size_t used = (size_t)(bytes % 64), total = used < 56 ? 64 : 128, i;
    uint64_t bits = bytes << 3; /* the field is the length in bits mod 2^64 */

    check_rng_fill(start, sizeof start);
    ripemd160_init(&ctx);
    ripemd160_write(&ctx, start, sizeof start);
    check_rng_fill(ctx.buf, used);
    ref = ctx;
    ctx.bytes = bytes;

    memset(pad, 0, sizeof pad);
    memcpy(pad, ctx.buf, used);
    pad[used] = 0x80;
    for (i = 0; i < 8; i++)
        pad[total - 8 + i] = (unsigned char)(bits >> (8 * i));
    ripemd160_write(&ref, pad, total);
    CHECK(ref.bytes % 64 == 0);
    for (i = 0; i < 20; i++)
        want[i] = (unsigned char)(ref.s[i / 4] >> (8 * (i % 4)));

    if (bytes < 128) {
        /* Not forged at all: the hand-made padding must match the one-shot. */
        unsigned char msg[128], one[20];
        memcpy(msg, start, 64);
        memcpy(msg + 64, ctx.buf, used);
        ripemd160_hash(one, msg, 64 + used);
        hash_test_equal(&ripemd160_desc, want, one, "hand padding vs one-shot", used, 0);
    }
    ripemd160_finalize(&ctx, got);
    hash_test_equal(&ripemd160_desc, got, want, "forged length (bytes mod 2^32, >> 32)",
                    (size_t)(bytes & 0xffffffffu), (size_t)(bytes >> 32));
}

int main(int argc, char **argv)
{
    int compared;

    (void)argc;
    check_rng_init(argv[0]);
    compared = hash_test_all(&ripemd160_desc, ripemd160_kats,
                             sizeof ripemd160_kats / sizeof ripemd160_kats[0]);
    {
        /* From short (where the forging must agree with plain hashing) to
         * 2^29 bytes (the bit count passes 32 bits) and 2^64 - 1; tails
         * that fit the length in one block and tails that need two. */
        static const uint64_t whole[] = {
            64, (uint64_t)1 << 29, ((uint64_t)1 << 32) + 64, (uint64_t)1 << 61,
            ~(uint64_t)63,
        };
        static const size_t tails[] = { 0, 5, 55, 56, 63 };
        unsigned long before = check_failures();
        size_t w, t;
        for (w = 0; w < sizeof whole / sizeof whole[0]; w++)
            for (t = 0; t < sizeof tails / sizeof tails[0] && check_failures() < before + 4; t++)
                test_forged_length(whole[w] + tails[t]);
    }
    hash_test_report(&ripemd160_desc, compared);
    return check_finish();
}
