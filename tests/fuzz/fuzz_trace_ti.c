/* Fuzz target: SMPI time-independent traces (sim/trace/ti.c, its anchor
 * ti_anchor.c), an action file of every rank: the reader never crashes,
 * and what its scan accepts reads rank by rank without error, event for
 * event.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "trace_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sc_fuzz_read_trace(sc_fuzz_write("actions.txt", data, size));
    return 0;
}
