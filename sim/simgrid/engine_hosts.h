/* The SimGrid hosts of a loaded platform, for what starts actors on them
 * (sim/engine/run.c, bench/'s floors); its zone and routes, read alike on
 * SimGrid 3.32 and 4.1.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_ENGINE_HOSTS_H
#define SC_ENGINE_HOSTS_H

#include <simgrid/host.h>
#include <simgrid/zone.h>
#include <stddef.h>
#include <xbt/dynar.h>

#include "models/platform.h"

/* The loaded platform's hosts in simcoll's order of nodes, numbers in
 * names by value (node-2 before node-10); *count of them. Free with
 * free(). bench/'s floors place their ranks with it too. */
sg_host_t *sc_engine_hosts_in_order(size_t *count);

/* The host of a rank on smallest domain `domain` of `node` of the loaded
 * platform: the node's, or with domains the domain's (NODE-KIND-K, KIND
 * the smallest kind, socket, numa or ccx). */
sg_host_t sc_engine_host(const sc_platform_t *plat, int node, int domain);

/* Appends the links of the route from a to b to `links` (of sg_link_t), as
 * SimGrid 3.32's sg_host_get_route, which 4.1 deprecates for
 * sg_host_get_route_links (an array that 3.32 lacks). */
void sc_engine_route(sg_host_t a, sg_host_t b, xbt_dynar_t links);

/* The loaded platform's own zone, the one the file's <zone> (or the
 * topology's builder) made, whose name and properties are the platform's:
 * SimGrid's root zone up to 3.x; from 4.0 on, every platform sits in an
 * implicit root zone, _world_, and its zone is that root's only child. */
sg_netzone_t sc_engine_zone(void);

#endif
