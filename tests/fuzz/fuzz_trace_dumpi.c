/* Fuzz target: DUMPI traces (sim/trace/dumpi.c), one rank's .bin file
 * under a .meta of one rank: the reader never crashes, and what its scan
 * accepts reads again without error, event for event.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "trace_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char meta[] = "hostname=fuzz\nnumprocs=1\nfileprefix=fuzz\nversion=1\n";
    const char *path = sc_fuzz_write("fuzz.meta", (const uint8_t *)meta, strlen(meta));
    char anchor[256];
    strcpy(anchor, path);
    sc_fuzz_write("fuzz-0000.bin", data, size);
    sc_fuzz_read_trace(anchor);
    return 0;
}
