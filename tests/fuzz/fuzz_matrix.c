/* Fuzz target: the traffic-matrix reader (simcoll map --matrix). The first
 * byte chooses the process count the matrix must have (0: its own), the
 * rest is the file.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "sim/io/matrix.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int np = data[0] % 64;
    sc_matrix_t m;
    if (sc_matrix_parse("fuzz.mtx", (const char *)data + 1, size - 1, np, &m) == SC_OK) {
        /* What was accepted names ranks of the matrix and finite weights. */
        if (m.size < 1 || (np && m.size != np))
            abort();
        for (long i = 0; i < m.nentries; i++) {
            const sc_traffic_entry_t *e = &m.entries[i];
            if (e->src < 0 || e->src >= m.size || e->dst < 0 || e->dst >= m.size ||
                !(e->bytes >= 0) || !isfinite(e->bytes) || !(e->messages >= 0) ||
                !isfinite(e->messages))
                abort();
        }
        sc_matrix_destroy(&m);
    }
    return 0;
}
