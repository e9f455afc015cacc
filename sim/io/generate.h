/* Writing platform files for clusters that do not exist (what-if studies).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_GENERATE_H
#define SC_GENERATE_H

#include "common/sc_error.h"

/* Writes to `out_path` (stdout if NULL) a simcoll platform of `nodes` nodes
 * of `cores` cores each (0: as in the template) whose memory bus, network
 * link and protocol properties are those of the nodes of the (uniform)
 * platform file `template_path`. The file appears whole or not at all (written aside and
 * renamed). SC_ERR_INPUT for a bad template or count. */
sc_err_t sc_generate_platform(const char *template_path, int nodes, int cores,
                              const char *out_path);

#endif
