/* Fuzz target: the parser of simcoll sweep's study files. What it accepts
 * has at most 10 million points, and every point's key (the sweep's
 * record of it, KEY=VALUE;...) fits its 4096-byte buffer whole.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdint.h>
#include <stdlib.h>

#include "sim/cli/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    long points;
    size_t longest_key;
    if (sc_sweep_check_study("fuzz.ini", (const char *)data, size, &points, &longest_key) != SC_OK)
        return 0;
    if (points < 1 || points > 10000000L || longest_key >= 4096)
        abort();
    return 0;
}
