/* simcoll sweep: a study's every point, resumable.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_SWEEP_H
#define SC_CLI_SWEEP_H

#include <stddef.h>

#include "common/sc_error.h"

int sc_cli_sweep(int argc, char **argv);

/* The column of a study's axis `key` in the sweep's CSV: one name per
 * quantity, whatever the axes. The run's column where the run reports the
 * same quantity (np, algo, mapping, op, type, mpi, program: the axis's
 * value is the run's, one column); "template" for platform (the file the
 * study names, the template of a generated one, where the run's platform
 * is the generated one's name); "platform_nodes" for nodes (the
 * platform's, where the run's nodes are those its ranks used); else key. */
const char *sc_sweep_axis_column(const char *key);

/* For the fuzzer (tests/fuzz/fuzz_study.c): parses a study's `len` bytes
 * as simcoll sweep does, without running anything. SC_ERR_INPUT naming
 * the line at fault; else *points, the study's, and *longest_key, the
 * length of the longest key among its points (all of a small study, the
 * first and last 64 of a large one), which must stay below 4096. */
sc_err_t sc_sweep_check_study(const char *name, const char *text, size_t len, long *points,
                              size_t *longest_key);

#endif
