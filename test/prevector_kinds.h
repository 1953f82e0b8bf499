/* The prevector kinds the tests use, defined once here so that two
 * translation units expand the same macros (test_prevector.c and
 * test_prevector_tu2.c). */
#ifndef TEST_PREVECTOR_KINDS_H
#define TEST_PREVECTOR_KINDS_H

#include "prevector/prevector.h"
#include "prevector/serialize.h"
#include "prevector/nontrivial.h"

/* Bitcoin's script type: bytes, new ones zero. */
PREVECTOR_DEFINE(pv_bytes, unsigned char, 28)
PREVECTOR_DEFINE_SERIALIZE_BYTES(pv_bytes)

PREVECTOR_DEFINE_INIT(pv_nt, nontrivial_elem, 28, nontrivial_elem_init)
PREVECTOR_DEFINE_SERIALIZE(pv_nt, nontrivial_elem, 4, NONTRIVIAL_ELEM_ENCODE,
                           NONTRIVIAL_ELEM_DECODE)

/* A small inline part narrower than the heap fields (6 bytes < 12). */
#define U16_ENCODE(dst, src) ((dst)[0] = (unsigned char)*(src), \
                              (dst)[1] = (unsigned char)(*(src) >> 8))
#define U16_DECODE(dst, src) (*(dst) = (uint16_t)((src)[0] | (src)[1] << 8))
PREVECTOR_DEFINE(pv_u16, uint16_t, 3)
PREVECTOR_DEFINE_SERIALIZE(pv_u16, uint16_t, 2, U16_ENCODE, U16_DECODE)

/* An array element type (a 32-byte hash), which the header allows: every
 * function must compile for it, push_back included. */
typedef unsigned char pv_hash32[32];
#define HASH32_ENCODE(dst, src) memcpy((dst), *(src), 32)
#define HASH32_DECODE(dst, src) memcpy(*(dst), (src), 32)
PREVECTOR_DEFINE(pv_hash, pv_hash32, 2)
PREVECTOR_DEFINE_SERIALIZE(pv_hash, pv_hash32, 32, HASH32_ENCODE, HASH32_DECODE)

/* Defined in test_prevector_tu2.c: appends the bytes 0 .. n-1 to v through
 * that file's own expansion of the macros; returns its push_back status. */
int tu2_append_count(pv_bytes *v, size_t n);

#endif
