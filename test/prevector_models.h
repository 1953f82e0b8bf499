/* The model test (prevector_model.h) for each of the four kinds of prevector_kinds.h: defines
 * model_bytes_run, model_nt_run, model_u16_run and model_hash_run. Element values come from
 * MODEL_U64(), 64 random bits (default: check_rng_u64); the hooks of prevector_model.h may be
 * defined before this file. Include it once, after prevector_kinds.h. */
#ifndef TEST_PREVECTOR_MODELS_H
#define TEST_PREVECTOR_MODELS_H

#ifndef MODEL_U64
#define MODEL_U64() check_rng_u64()
#endif

#define MODEL_VEC pv_bytes
#define MODEL_T unsigned char
#define MODEL_N 28
#define MODEL_NEW(e) (*(e) = 0)
#define MODEL_RAND(e) (*(e) = (unsigned char)MODEL_U64())
#define MODEL_ID bytes
#include "prevector_model.h"

#define MODEL_VEC pv_nt
#define MODEL_T nontrivial_elem
#define MODEL_N 28
#define MODEL_NEW(e) ((e)->v = -1)
#define MODEL_RAND(e) ((e)->v = (int)(MODEL_U64() % 2001) - 1000)
#define MODEL_ID nt
#include "prevector_model.h"

#define MODEL_VEC pv_u16
#define MODEL_T uint16_t
#define MODEL_N 3
#define MODEL_NEW(e) (*(e) = 0)
#define MODEL_RAND(e) (*(e) = (uint16_t)MODEL_U64())
#define MODEL_ID u16
#include "prevector_model.h"

static void model_random_hash32(pv_hash32 *e)
{
    size_t i;
    for (i = 0; i < sizeof *e; i++)
        (*e)[i] = (unsigned char)MODEL_U64();
}

#define MODEL_VEC pv_hash
#define MODEL_T pv_hash32
#define MODEL_N 2
#define MODEL_NEW(e) memset((e), 0, sizeof *(e))
#define MODEL_RAND(e) model_random_hash32(e)
#define MODEL_ID hash
#include "prevector_model.h"

#endif
