/* Shared by the fuzz targets: the entry point libFuzzer calls, a reader that turns the input
 * bytes into choices, and a check that stops the run.
 *
 * Each target (test/fuzz/<name>.c) defines LLVMFuzzerTestOneInput. Built with --enable-fuzz it
 * is linked with libFuzzer (test/fuzz/<name>_fuzzer); in every build it is also linked with
 * replay.c (test/fuzz/<name>), which runs it over the committed corpus for make check.
 *
 * The reader never fails: past the end of the input every number is 0 and every byte string
 * empty, so a target can draw what it needs without checking, and stop when fuzz_done says
 * the input is spent. Numbers take as few bytes as their range needs, so that a mutation of
 * one byte changes one choice. */
#ifndef TEST_FUZZ_FUZZ_H
#define TEST_FUZZ_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* libFuzzer's entry point: runs one input; returns 0 (anything else is reserved). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input not consumed yet. */
typedef struct {
    const uint8_t *p;
    size_t left;
} fuzz_input;

static inline void fuzz_init(fuzz_input *in, const uint8_t *data, size_t size)
{
    in->p = data;
    in->left = size;
}

/* 1 when every byte has been consumed. */
static inline int fuzz_done(const fuzz_input *in)
{
    return in->left == 0;
}

/* The next byte, or 0 past the end. */
static inline uint8_t fuzz_u8(fuzz_input *in)
{
    if (in->left == 0)
        return 0;
    in->left--;
    return *in->p++;
}

/* A number in [0, bound) for bound >= 1, from as many bytes as bound - 1 needs; a value out of
 * range wraps (modulo), so every byte string is a valid choice. */
static inline uint64_t fuzz_below(fuzz_input *in, uint64_t bound)
{
    uint64_t v = 0, max;
    if (bound <= 1)
        return 0;
    for (max = bound - 1; max; max >>= 8)
        v = v << 8 | fuzz_u8(in);
    return v % bound;
}

/* A number in [lo, hi] (lo <= hi < UINT64_MAX). */
static inline uint64_t fuzz_range(fuzz_input *in, uint64_t lo, uint64_t hi)
{
    return lo + fuzz_below(in, hi - lo + 1);
}

/* 8 bytes as a little-endian 64-bit number. */
static inline uint64_t fuzz_u64(fuzz_input *in)
{
    uint64_t v = 0;
    unsigned i;
    for (i = 0; i < 8; i++)
        v |= (uint64_t)fuzz_u8(in) << (8 * i);
    return v;
}

/* 0 or 1. */
static inline int fuzz_bool(fuzz_input *in)
{
    return fuzz_u8(in) & 1;
}

/* Up to n of the next bytes, in place: *got receives how many there were (n, or fewer at the
 * end). The pointer is never NULL (it may point at the end of the input). */
static inline const uint8_t *fuzz_bytes(fuzz_input *in, size_t n, size_t *got)
{
    const uint8_t *p = in->p;
    if (n > in->left)
        n = in->left;
    in->p += n;
    in->left -= n;
    *got = n;
    return p;
}

/* Fills out[0 .. n) with the next bytes, zeros past the end. */
static inline void fuzz_fill(fuzz_input *in, void *out, size_t n)
{
    unsigned char *o = out;
    size_t i;
    for (i = 0; i < n; i++)
        o[i] = fuzz_u8(in);
}

/* Fits planned piece lengths len[0 .. planned) to a message of msg_len bytes: each is cut to
 * what is left, and len[planned] (room for it is the caller's) takes the rest. Returns the
 * number of pieces, planned + 1; they add up to msg_len. */
static inline size_t fuzz_fit_pieces(size_t *len, size_t planned, size_t msg_len)
{
    size_t i;
    for (i = 0; i < planned; i++) {
        if (len[i] > msg_len)
            len[i] = msg_len;
        msg_len -= len[i];
    }
    len[planned] = msg_len;
    return planned + 1;
}

/* Reports a broken property with where it was checked and stops the process: libFuzzer (and
 * the replay program) then records the input as a finding. */
static inline void fuzz_fail(const char *file, int line, const char *what)
{
    fprintf(stderr, "%s:%d: fuzz check failed: %s\n", file, line, what);
    fflush(stderr);
    abort();
}

#define FUZZ_CHECK(cond) \
    do { \
        if (!(cond)) \
            fuzz_fail(__FILE__, __LINE__, #cond); \
    } while (0)

#endif
