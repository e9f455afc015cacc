/* Starting SimGrid on a simcoll platform file and describing the cluster.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_ENGINE_H
#define SC_ENGINE_H

#include "../models/platform.h"

/* Zone properties a simcoll platform must define (see platforms/README.md):
 * the per-message software overhead and the eager/rendezvous switch of each
 * level, and the size of the header every message carries. */
#define SC_PROP_INTRA_OVERHEAD "simcoll/intra/overhead"
#define SC_PROP_INTRA_EAGER "simcoll/intra/eager-limit"
#define SC_PROP_INTER_OVERHEAD "simcoll/inter/overhead"
#define SC_PROP_INTER_EAGER "simcoll/inter/eager-limit"
#define SC_PROP_HEADER "simcoll/header-bytes"

/* Reads and checks the platform file in a child process and fills `plat`
 * (caller destroys it with sc_platform_destroy). SC_ERR_INPUT with a
 * message naming the file and the problem if it is missing, unreadable,
 * malformed or not a simcoll cluster. */
sc_err_t sc_platform_load(const char *path, sc_platform_t *plat);

/* In a child process: starts SimGrid with simcoll's model configuration and
 * loads the platform file. Aborts the process on a malformed file, which
 * sc_platform_load has ruled out beforehand. */
void sc_engine_boot(const char *path);

#endif
