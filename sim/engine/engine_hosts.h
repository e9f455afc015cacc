/* The SimGrid hosts of a loaded platform, for what starts actors on them
 * (sim/engine/run.c, bench/'s floors).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_ENGINE_HOSTS_H
#define SC_ENGINE_HOSTS_H

#include <simgrid/host.h>
#include <stddef.h>

#include "models/platform.h"

/* The loaded platform's hosts in simcoll's order of nodes, numbers in
 * names by value (node-2 before node-10); *count of them. Free with
 * free(). bench/'s floors place their ranks with it too. */
sg_host_t *sc_engine_hosts_in_order(size_t *count);

/* The host of a rank on smallest domain `domain` of `node` of the loaded
 * platform: the node's, or with domains the domain's (NODE-KIND-K, KIND
 * the smallest kind, socket, numa or ccx). */
sg_host_t sc_engine_host(const sc_platform_t *plat, int node, int domain);

#endif
