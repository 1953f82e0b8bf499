/* Fuzz target: the prevector model test (test/prevector_model.h) with the input making every
 * choice the RNG makes in make check: which of four element kinds, then each operation (resize,
 * reserve, push_back, insert from outside or from the vector itself, erase, assign, copy,
 * swap, shrink_to_fit, unserialize, ...), its sizes and positions, and whether allocation fails
 * during it. The model mirrors each vector on a plain array and checks, after every step, size,
 * capacity, inline or heap, allocated memory and contents, that an operation refused memory
 * returned -1 and changed nothing, and that exactly one allocation happened where Core's growth
 * rules move the storage. Element values come from a generator seeded by the input. */
#include "fuzz.h"

#include "../check.h"
#include "../prevector_kinds.h"
#include "util/alloc.h"
#include "util/stream.h"

#include <string.h>

/* The longest walk one input drives (each step takes at least one byte anyway). */
#define MAX_STEPS 2048

static fuzz_input model_in;
static uint64_t model_rng;

static uint64_t next_value(void)
{
    model_rng = model_rng * 6364136223846793005u + 1442695040888963407u;
    return model_rng >> 29;
}

#define MODEL_BELOW(n) fuzz_below(&model_in, (n))
#define MODEL_MORE(step) (!fuzz_done(&model_in) && (step) < MAX_STEPS)
#define MODEL_NO_COVERAGE

#define MODEL_U64() next_value()
#include "../prevector_models.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_init(&model_in, data, size);
    model_rng = fuzz_u8(&model_in);
    switch (fuzz_below(&model_in, 4)) {
    case 0:
        model_bytes_run(0);
        break;
    case 1:
        model_nt_run(0);
        break;
    case 2:
        model_u16_run(0);
        break;
    default:
        model_hash_run(0);
        break;
    }
    FUZZ_CHECK(check_failures() == 0);
    return 0;
}
