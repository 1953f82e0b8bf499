/* A second translation unit expanding the same prevector macros: the program
 * only links if the generated functions are file-local (static inline). */
#include "prevector_kinds.h"

int tu2_append_count(pv_bytes *v, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        unsigned char b = (unsigned char)i;
        if (pv_bytes_push_back(v, &b) != 0)
            return -1;
    }
    return 0;
}
