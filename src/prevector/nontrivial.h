/* The prevector benchmarks' non-trivial element (Bitcoin Core's bench/prevector.cpp): a
 * struct of one int that its initialiser sets to -1, serialised as the int's 4 bytes,
 * little-endian. One definition for bench_bitcoin's Prevector*Nontrivial benchmarks,
 * prevector_speed and the tests:
 *
 *     PREVECTOR_DEFINE_INIT(pv, nontrivial_elem, 28, nontrivial_elem_init)
 *     PREVECTOR_DEFINE_SERIALIZE(pv, nontrivial_elem, 4, NONTRIVIAL_ELEM_ENCODE,
 *                                NONTRIVIAL_ELEM_DECODE) */
#ifndef PREVECTOR_NONTRIVIAL_H
#define PREVECTOR_NONTRIVIAL_H

#include <stdint.h>

#include "serialize.h" /* relative: needs no -I for src/ */

typedef struct {
    int v;
} nontrivial_elem;

static inline void nontrivial_elem_init(nontrivial_elem *e)
{
    e->v = -1;
}

#define NONTRIVIAL_ELEM_ENCODE(dst, src) prevector_store_le32((dst), (uint32_t)(src)->v)
#define NONTRIVIAL_ELEM_DECODE(dst, src) ((dst)->v = (int)prevector_load_le32(src))

#endif
