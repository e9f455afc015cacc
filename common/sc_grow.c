/* Arrays that grow one element at a time: sc_grow.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "sc_grow.h"

#include <stdlib.h>

void *sc_grow(void *array, size_t count, size_t *cap, size_t first, size_t size)
{
    if (count < *cap)
        return array;
    size_t more = *cap ? 2 * *cap : first;
    void *grown = realloc(array, more * size);
    if (grown)
        *cap = more;
    return grown;
}
