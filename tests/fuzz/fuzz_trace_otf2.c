/* Fuzz target: OTF2 archives (sim/trace/otf2.c through libotf2), rank 0's
 * event file of the shipped two-rank ping-pong (third_party/traces/
 * pipit-pingpong-otf2-2), its definitions and rank 1's as shipped: the
 * reader never crashes, and what its scan accepts reads again without
 * error, event for event.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <sys/stat.h>

#include "trace_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    char dir[256], anchor[256];
    if (!ready) {
        snprintf(dir, sizeof dir, "%s/traces", sc_fuzz_dir());
        mkdir(dir, 0755);
        const char *from = SC_SOURCE_DIR "/third_party/traces/pipit-pingpong-otf2-2/";
        const char *files[] = {"traces.otf2", "traces.def", "traces/0.def", "traces/1.def",
                               "traces/1.evt"};
        for (int i = 0; i < 5; i++) {
            char path[512];
            snprintf(path, sizeof path, "%s%s", from, files[i]);
            sc_fuzz_copy(path, files[i]);
        }
        ready = 1;
    }
    sc_fuzz_write("traces/0.evt", data, size);
    snprintf(anchor, sizeof anchor, "%s/traces.otf2", sc_fuzz_dir());
    sc_fuzz_read_trace(anchor);
    return 0;
}
