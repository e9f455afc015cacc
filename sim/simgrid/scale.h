/* Scaling the links of a booted platform by hierarchy level (sensitivity).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_ENGINE_SCALE_H
#define SC_ENGINE_SCALE_H

#include "models/platform.h"

/* Multiplies the latency and bandwidth of every link of the platform
 * SimGrid has loaded by plat's factors for the link's hierarchy level
 * (plat->link_latency_scale, link_bandwidth_scale). A link's level is the
 * lowest of the routes that cross it among: each node's (each domain's)
 * loopback route, 0; the routes between a node's domains, their levels
 * (1 between the smallest, ...); the routes
 * from each node to the next and to the node one group further, by their
 * level (sc_platform_hier_level). A link none of them crosses (a torus's
 * or a dragonfly's other links) is a network link of the lowest network
 * level, as `simcoll platform --set inter.latency=` counts them. plat must
 * be described (its nodes known); does nothing unless plat->links_scaled. */
void sc_engine_scale_links(const sc_platform_t *plat);

#endif
