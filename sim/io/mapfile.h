/* Mapping files: pi for simcoll, machinefiles and rankfiles for real MPIs.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_MAPFILE_H
#define SC_MAPFILE_H

#include "models/platform.h"

/* Reads pi from `path`: one integer per line, pi(0) first; '#' starts a
 * comment, blank lines are skipped. It must be a permutation of 0..np-1:
 * otherwise SC_ERR_INPUT naming the line and the reason. *pi is malloc'ed. */
sc_err_t sc_mapfile_read(const char *path, int np, int **pi);

/* The same on `len` bytes of text; `name` stands for the file in
 * messages. */
sc_err_t sc_mapfile_parse(const char *name, const char *text, size_t len, int np, int **pi);

/* What `simcoll map` writes; NULL paths are skipped. Every file is written
 * aside and renamed into place only once all of them are complete.
 *   pi_path:  pi(r) per line, with a comment header (`header`, lines
 *             without the leading "# "), readable by sc_mapfile_read;
 *   machinefile (MPICH, Hydra): rank j on the node that holds position j,
 *             one "host:1" line per rank in rank order;
 *   rankfile (Open MPI): "rank j=host slot=k" lines, the same placement.
 * Two paths naming the same file are refused (SC_ERR_INPUT).
 * The machine- and rankfile run an unmodified algorithm with the layout pi
 * describes; pi itself is for the exch/reorder variants, which keep MPI's
 * block placement (slot_node[i]: node of placement slot i). They name the
 * platform's node n as hosts[n] (NULL: as the platform does, "node-0",
 * and a first comment line says those names are to be replaced; hosts
 * must then name every node used). */
sc_err_t sc_mapfile_write(const sc_platform_t *plat, int np, const int *pi, const int *slot_node,
                          const char *header, const char *pi_path, const char *machinefile,
                          const char *rankfile, char *const *hosts);

#endif
