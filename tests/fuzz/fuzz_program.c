/* Fuzz target: the program parser, the checks against a process count,
 * printing, and the packing transform. The first byte chooses the process
 * count, the rest is the file.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/program/pack.h"
#include "sim/program/program.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static sc_err_t small_interval(void *ctx, const sc_stmt_t *st, sc_interval_t *iv)
{
    (void)ctx;
    /* Bounded chunk counts: the interval grows with the statement. */
    *iv = (sc_interval_t){st->bytes / 64 + 1, st->bytes / 32 + 2};
    return SC_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int p = 1 + data[0] % 64, node_of[64] = {0};
    sc_program_t prog, again, packed;
    if (sc_program_parse("fuzz.prog", (const char *)data + 1, size - 1, &prog) != SC_OK)
        return 0;
    /* What parses prints as a program that parses to the same print. */
    char *first = NULL, *second = NULL;
    size_t len1 = 0, len2 = 0;
    FILE *f = open_memstream(&first, &len1);
    sc_program_print(&prog, f);
    fclose(f);
    if (sc_program_parse("printed", first, len1, &again) != SC_OK)
        abort();
    f = open_memstream(&second, &len2);
    sc_program_print(&again, f);
    fclose(f);
    if (len1 != len2 || memcmp(first, second, len1) != 0)
        abort();
    free(first);
    free(second);
    sc_program_destroy(&again);
    long statements, comms;
    sc_program_count(&prog, &statements, &comms);
    if (statements > SC_PROGRAM_MAX_CALLS || comms > statements)
        abort();
    if (sc_program_resolve(&prog, p, node_of, sc_profile_find("mpich-3.2")) == SC_OK) {
        for (int b = 0; b < prog.nbuffers; b++)
            (void)sc_program_buffer_bytes(&prog, b, p);
        if (sc_program_pack(&prog, small_interval, NULL, &packed) == SC_OK)
            sc_program_destroy(&packed);
    }
    sc_program_destroy(&prog);
    return 0;
}
