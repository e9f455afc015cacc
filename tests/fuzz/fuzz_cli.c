/* Fuzz target: the command line, up to the first file it would read. The
 * input is the arguments, separated by NUL bytes; the platform is a stand-in
 * of 8 nodes of 8 cores.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cli/cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_ARGS = 64 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static sc_node_t nodes[8];
    static char names[8][16];
    static sc_platform_t plat = {.path = "fuzz.xml", .name = "fuzz", .nnodes = 8,
                                 .nodes = nodes, .total_cores = 64, .uniform = 1};
    for (int i = 0; i < 8; i++) {
        names[i][0] = 'n';
        names[i][1] = (char)('0' + i);
        nodes[i] = (sc_node_t){names[i], 8, 1e10, 5e9};
    }
    plat.level[SC_LEVEL_INTRA] = sc_level_hockney(30e-9, 5e9, 0.8e-6, 65536);
    plat.level[SC_LEVEL_INTER] = sc_level_hockney(23e-6, 1e8, 0.8e-6, 131072);

    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[MAX_ARGS + 2] = {"simcoll"};
    int argc = 1;
    for (char *p = text; argc <= MAX_ARGS && p < text + size; p += strlen(p) + 1)
        argv[argc++] = p;
    argv[argc] = NULL;
    sc_cli_check(argc, argv, &plat);
    free(text);
    return 0;
}
