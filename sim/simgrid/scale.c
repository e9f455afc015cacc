/* Scaling the links of a booted platform by hierarchy level.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "sim/simgrid/scale.h"

#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <xbt/dynar.h>

#include "sim/simgrid/engine_hosts.h"
#include "sim/simgrid/topology_build.h"

/* A link's level rides on its data pointer, as level + 1 (0: not seen):
 * SimGrid finds it from the link in O(1), where a table would need a
 * search per link of every route. simcoll puts nothing else there. */
/* The mark of a link that no level's factor scales. */
enum { OWN_PARAMETER = SC_MAX_LEVELS };

static int level_of(sg_link_t link)
{
    return (int)(intptr_t)sg_link_get_data(link) - 1;
}

/* Lowers the level of every link of the route from a to b to `level`. */
static void mark_route(sg_host_t a, sg_host_t b, int level)
{
    xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
    sc_engine_route(a, b, links);
    for (unsigned i = 0; i < xbt_dynar_length(links); i++) {
        sg_link_t link = xbt_dynar_get_as(links, i, sg_link_t);
        int seen = level_of(link);
        if (seen < 0 || level < seen)
            sg_link_set_data(link, (void *)(intptr_t)(level + 1));
    }
    xbt_dynar_free(&links);
}

void sc_engine_scale_links(const sc_platform_t *plat)
{
    if (!plat->links_scaled)
        return;
    int s = sc_platform_node_levels(plat), n = plat->nnodes, domains = sc_platform_domains(plat);
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < domains; k++) {
            sg_host_t h = sc_engine_host(plat, i, k);
            mark_route(h, h, 0);
        }
        /* every link between domains: the route from the first domain of
         * each parent to the first of its second child */
        for (int d = 0; d < SC_NDOMAIN_KINDS; d++) {
            if (plat->domain_count[d] <= 1)
                continue;
            int span = sc_platform_domain_span(plat, (sc_domain_kind_t)d);
            int hier = sc_platform_domain_hier(plat, (sc_domain_kind_t)d);
            for (int first = 0; first < domains; first += span * plat->domain_count[d])
                mark_route(sc_engine_host(plat, i, first), sc_engine_host(plat, i, first + span),
                           hier);
        }
    }
    for (int i = 0; i + 1 < n; i++) {
        mark_route(sc_engine_host(plat, i, 0), sc_engine_host(plat, i + 1, 0),
                   sc_platform_hier_level(plat, i, 0, i + 1, 0));
        for (int g = 0; g < plat->ngroupings; g++)
            if (i + plat->group_size[g] < n) {
                int j = i + (int)plat->group_size[g];
                mark_route(sc_engine_host(plat, i, 0), sc_engine_host(plat, j, 0),
                           sc_platform_hier_level(plat, i, 0, j, 0));
            }
    }
    /* A node's bidirectional link has a parameter of its own
     * (inter.bidirectional-bandwidth), which the engine gave it when it
     * built it: no level's factor applies. */
    if (plat->level[SC_LEVEL_INTER].bidirectional_Bps > 0)
        for (int i = 0; i < n; i++) {
            char name[1024];
            snprintf(name, sizeof name, "%s" SC_ENGINE_BIDIRECTIONAL_SUFFIX, plat->nodes[i].name);
            sg_link_set_data(sg_link_by_name(name), (void *)(intptr_t)(OWN_PARAMETER + 1));
        }
    sg_link_t *links = sg_link_list();
    size_t count = sg_link_count();
    for (size_t i = 0; i < count; i++) {
        int level = level_of(links[i]);
        if (level < 0)
            level = s + 1;
        sg_link_set_data(links[i], NULL);
        if (level == OWN_PARAMETER)
            continue;
        double lat = plat->link_latency_scale[level], bw = plat->link_bandwidth_scale[level];
        if (lat > 0)
            sg_link_set_latency(links[i], sg_link_get_latency(links[i]) * lat);
        if (bw > 0)
            sg_link_set_bandwidth(links[i], sg_link_get_bandwidth(links[i]) * bw);
    }
    free(links);
}
