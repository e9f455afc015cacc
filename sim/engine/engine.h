/* Starting SimGrid on a simcoll platform file and describing the cluster.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_ENGINE_H
#define SC_ENGINE_H

#include <simgrid/host.h>
#include <stddef.h>

#include "models/platform.h"

/* Finds the platform file (a shipped one by its name, see sc_platform_find),
 * reads and checks it (sim/io/platform_file.h), then lets
 * SimGrid load it in a child process to compute the routes, and fills
 * `plat` (caller destroys it with sc_platform_destroy). SC_ERR_INPUT with a
 * message naming `option` (e.g. "--platform"), the file and the problem if
 * it is missing, unreadable, malformed or not a simcoll cluster. */
sc_err_t sc_platform_load(const char *option, const char *path, sc_platform_t *plat);

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

/* The loaded platform's hosts in simcoll's order of nodes, numbers in
 * names by value (node-2 before node-10); *count of them. Free with
 * free(). bench/'s floors place their ranks with it too. */
sg_host_t *sc_engine_hosts_in_order(size_t *count);

/* The host of a rank on `socket` of `node` of the loaded platform: the
 * node's, or with sockets the socket's (NODE-socket-K). */
sg_host_t sc_engine_host(const sc_platform_t *plat, int node, int socket);

/* "3.32.0": the SimGrid library simcoll runs on (not the headers'). */
const char *sc_simgrid_version(void);

#endif
