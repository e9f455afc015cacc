/* Fuzz target: the mapping-file reader. The first two bytes choose the
 * process count, the rest is the file.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdint.h>
#include <stdlib.h>

#include "sim/io/mapfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    int np = 1 + (data[0] | data[1] << 8) % 4096;
    int *pi = NULL;
    if (sc_mapfile_parse("fuzz.txt", (const char *)data + 2, size - 2, np, &pi) == SC_OK) {
        /* What was accepted must be a permutation of 0..np-1. */
        char *seen = calloc((size_t)np, 1);
        for (int r = 0; r < np; r++) {
            if (pi[r] < 0 || pi[r] >= np || seen[pi[r]])
                abort();
            seen[pi[r]] = 1;
        }
        free(seen);
        free(pi);
    }
    return 0;
}
