/* Building a platform whose network is one of SimGrid's topologies.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_TOPOLOGY_BUILD_H
#define SC_TOPOLOGY_BUILD_H

#ifdef __cplusplus
extern "C" {
#endif

#include "models/platform.h"

/* After simgrid_init: builds the zone the platform file's check described
 * (plat->zone), whose simcoll/topology property names the network,
 * instead of loading the checked rewrite as a file; with bidirectional_Bps > 0 (the
 * network level's, which a sensitivity run may have scaled since the file
 * was written) each node's messages in and out also cross a link of that
 * bandwidth, NODE_bidirectional. Exits the (child) process with a message
 * if the description disagrees with itself, which the platform check
 * prevents. */
void sc_engine_build_topology(const sc_zone_desc_t *zone, double bidirectional_Bps);

/* What the name of that link adds to its node's: NODE_bidirectional. */
#define SC_ENGINE_BIDIRECTIONAL_SUFFIX "_bidirectional"

/* The order of simcoll's nodes (sc_engine_hosts_in_order): by name, with
 * numbers compared by value, node-2 before node-10. */
int sc_engine_name_compare(const char *a, const char *b);

#ifdef __cplusplus
}
#endif

#endif
