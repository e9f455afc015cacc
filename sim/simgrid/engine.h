/* Starting SimGrid on a simcoll platform file and describing the cluster.
 * No SimGrid type appears here, so that sim/cli sees none: the hosts of a
 * loaded platform are in engine_hosts.h, for the engines and bench/.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_ENGINE_H
#define SC_ENGINE_H

#include <stddef.h>

#include "models/params.h"
#include "models/platform.h"

/* Finds the platform file (a shipped one by its name, see sc_platform_find),
 * reads and checks it (sim/io/platform_file.h), then lets
 * SimGrid load it in a child process to compute the routes, and fills
 * `plat` (caller destroys it with sc_platform_destroy). SC_ERR_INPUT with a
 * message naming `option` (e.g. "--platform"), the file and the problem if
 * it is missing, unreadable, malformed or not a simcoll cluster. */
sc_err_t sc_platform_load(const char *option, const char *path, sc_platform_t *plat);

/* One parameter of the table (models/params.c) at one level, multiplied
 * by a factor: what a sensitivity analysis changes. */
typedef struct {
    const sc_param_t *param;
    sc_param_at_t at;
    double factor;
} sc_scaling_t;

/* As sc_platform_load, with the parameters of scalings[0..n-1] multiplied:
 * a latency or bandwidth on every link of its level (memory buses, the
 * links between a node's domains, NIC links, the uplinks of every grouping above:
 * sim/simgrid/scale.h), which every later boot of `plat` changes too; the
 * others where the file gives them, every route of their level (the
 * network's between groups, shared memory's between domains). SC_ERR_INPUT
 * if the platform lacks the level or the parameter is not the platform's
 * (a node's speed). */
sc_err_t sc_platform_load_scaled(const char *option, const char *name, const sc_scaling_t *scalings,
                                 int n, sc_platform_t *plat);

/* In a child process: starts SimGrid with simcoll's model configuration,
 * set for the number of actors the caller will start, and loads the
 * platform, as checked and rewritten by sc_platform_load
 * (plat->engine_xml). */
void sc_engine_boot(const sc_platform_t *plat, int actors);

/* Tests only: from now on, simulations update every flow at each event
 * (SimGrid's network/optim:Full) instead of only those that changed (its
 * default, Lazy). With the lazy update, a flow's end can depend on the
 * order in which the flows of one instant start, which differs between an
 * actor per rank and an actor per node (sim/replay/): a barrier on 17
 * ranks of ib4x.xml, cyclic, has a mean rank time of 20.7506 us with
 * actors and 20.7516 us replayed, and 20.7516 us with both engines under
 * the full update. It costs the number of flows at every event. */
void sc_engine_full_network_update(int on);

/* "3.32.0": the SimGrid library simcoll runs on (not the headers'). */
const char *sc_simgrid_version(void);

#endif
