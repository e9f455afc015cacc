/* Platform description lifetime and the placement of ranks on cores.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "platform.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void zone_destroy(sc_zone_desc_t *zone)
{
    if (!zone)
        return;
    for (int i = 0; i < zone->nprops; i++) {
        free(zone->props[i].id);
        free(zone->props[i].value);
    }
    for (int i = 0; i < zone->nhosts; i++) {
        free(zone->hosts[i].name);
        free(zone->hosts[i].membus);
    }
    for (int i = 0; i < zone->nlinks; i++)
        free(zone->links[i].id);
    free(zone->props);
    free(zone->hosts);
    free(zone->links);
    free(zone->id);
    free(zone);
}

void sc_platform_destroy(sc_platform_t *plat)
{
    for (int i = 0; i < plat->nnodes; i++)
        free(plat->nodes[i].name);
    free(plat->nodes);
    free(plat->name);
    free(plat->path);
    free(plat->engine_xml);
    zone_destroy(plat->zone);
    for (int i = 0; i < plat->nsources; i++)
        free(plat->sources[i].note);
    free(plat->sources);
    memset(plat, 0, sizeof *plat);
}

double sc_piecewise_at(const sc_piecewise_t *f, size_t bytes, double empty)
{
    if (f->n == 0)
        return empty;
    int k = 0;
    while (k + 1 < f->n && f->seg[k + 1].min_bytes <= (double)bytes)
        k++;
    return f->seg[k].start + f->seg[k].per_byte * (double)bytes;
}

sc_piecewise_t sc_piecewise_constant(double value)
{
    return (sc_piecewise_t){.n = 1, .seg = {{0, value, 0}}};
}

sc_level_t sc_level_hockney(double latency_s, double bandwidth_Bps, double overhead_s,
                            size_t eager_limit)
{
    return (sc_level_t){.latency_s = latency_s, .bandwidth_Bps = bandwidth_Bps,
                        .send_overhead = sc_piecewise_constant(overhead_s),
                        .eager_limit = eager_limit};
}

double sc_level_send_overhead(const sc_level_t *lv, size_t bytes)
{
    return sc_piecewise_at(&lv->send_overhead, bytes, 0);
}

double sc_level_recv_overhead(const sc_level_t *lv, size_t bytes)
{
    return sc_piecewise_at(&lv->recv_overhead, bytes, 0);
}

double sc_level_bandwidth_factor(const sc_level_t *lv, size_t bytes)
{
    return sc_piecewise_at(&lv->bandwidth_factor, bytes, 1);
}

double sc_level_latency_factor(const sc_level_t *lv, size_t bytes)
{
    return sc_piecewise_at(&lv->latency_factor, bytes, 1);
}

double sc_level_flow_bound(const sc_level_t *lv, size_t bytes)
{
    return sc_piecewise_at(&lv->flow_factor, bytes, 0) * lv->bandwidth_Bps;
}

double sc_level_link_time(const sc_level_t *lv, size_t header, size_t data)
{
    return round((double)(data + header) / sc_level_bandwidth_factor(lv, data)) /
           lv->bandwidth_Bps;
}

double sc_level_flow_time(const sc_level_t *lv, size_t header, size_t data)
{
    double bound = sc_level_flow_bound(lv, data);
    return bound > 0 ? (double)(data + header) / bound : 0;
}

double sc_level_wire_time(const sc_level_t *lv, size_t header, size_t data)
{
    /* Without a latency factor it is 1, and L * 1 is L bit for bit. */
    return lv->latency_s * sc_level_latency_factor(lv, data) +
           fmax(sc_level_link_time(lv, header, data), sc_level_flow_time(lv, header, data));
}

const char *sc_placement_name(sc_placement_t placement)
{
    return placement == SC_PLACE_CYCLIC ? "cyclic" : "block";
}

sc_err_t sc_place(const sc_platform_t *plat, int np, sc_placement_t placement,
                  int *node_of)
{
    if (np < 1 || np > plat->total_cores)
        return sc_error(SC_ERR_INPUT,
                        "--np %d: platform '%s' has %d cores on %d nodes; use "
                        "--np 1..%d",
                        np, plat->path, plat->total_cores, plat->nnodes,
                        plat->total_cores);
    if (placement == SC_PLACE_BLOCK) {
        int node = 0, used = 0;
        for (int r = 0; r < np; r++) {
            while (used == plat->nodes[node].cores) {
                node++;
                used = 0;
            }
            node_of[r] = node;
            used++;
        }
        return SC_OK;
    }
    int *used = calloc((size_t)plat->nnodes, sizeof *used);
    if (!used)
        return sc_error(SC_ERR_RUN, "out of memory placing %d ranks", np);
    int node = 0;
    for (int r = 0; r < np; r++) {
        /* np <= total cores, so a node with a free core always exists. */
        while (used[node] == plat->nodes[node].cores)
            node = (node + 1) % plat->nnodes;
        node_of[r] = node;
        used[node]++;
        node = (node + 1) % plat->nnodes;
    }
    free(used);
    return SC_OK;
}

int sc_place_nodes_used(const sc_platform_t *plat, int np, const int *node_of)
{
    char *seen = calloc((size_t)plat->nnodes, 1);
    if (!seen)
        return -1;
    int count = 0;
    for (int r = 0; r < np; r++)
        if (!seen[node_of[r]]) {
            seen[node_of[r]] = 1;
            count++;
        }
    free(seen);
    return count;
}

/* Each kind of domain as files and options name it, and as messages do. */
static const struct {
    const char *name, *singular, *plural;
} domain_words[SC_NDOMAIN_KINDS] = {
    [SC_DOMAIN_CCX] = {"ccx", "CCX", "CCXs"},
    [SC_DOMAIN_NUMA] = {"numa", "NUMA domain", "NUMA domains"},
    [SC_DOMAIN_SOCKET] = {"socket", "socket", "sockets"},
};

const char *sc_domain_name(sc_domain_kind_t kind)
{
    return domain_words[kind].name;
}

const char *sc_domain_singular(sc_domain_kind_t kind)
{
    return domain_words[kind].singular;
}

const char *sc_domain_plural(sc_domain_kind_t kind)
{
    return domain_words[kind].plural;
}

int sc_platform_node_levels(const sc_platform_t *plat)
{
    int levels = 0;
    for (int d = 0; d < SC_NDOMAIN_KINDS; d++)
        levels += plat->domain_count[d] > 1;
    return levels;
}

int sc_platform_domains(const sc_platform_t *plat)
{
    return sc_platform_domain_span(plat, SC_NDOMAIN_KINDS);
}

int sc_platform_domain_span(const sc_platform_t *plat, sc_domain_kind_t kind)
{
    int span = 1;
    for (int d = 0; d < (int)kind; d++)
        if (plat->domain_count[d] > 1)
            span *= plat->domain_count[d];
    return span;
}

int sc_platform_domain_kind(const sc_platform_t *plat, int hier)
{
    for (int d = 0, level = 0; d < SC_NDOMAIN_KINDS; d++)
        if (plat->domain_count[d] > 1 && ++level == hier)
            return d;
    return -1;
}

int sc_platform_domain_hier(const sc_platform_t *plat, sc_domain_kind_t kind)
{
    if (plat->domain_count[kind] <= 1)
        return 0;
    int hier = 0;
    for (int d = 0; d <= (int)kind; d++)
        hier += plat->domain_count[d] > 1;
    return hier;
}

sc_err_t sc_place_domains(const sc_platform_t *plat, int np, const int *node_of, int *domain_of)
{
    for (int r = 0; r < np; r++)
        domain_of[r] = 0;
    int domains = sc_platform_domains(plat);
    if (domains == 1)
        return SC_OK;
    int *used = calloc((size_t)plat->nnodes, sizeof *used);
    if (!used)
        return sc_error(SC_ERR_RUN, "out of memory placing %d ranks", np);
    for (int r = 0; r < np; r++) {
        int node = node_of[r];
        domain_of[r] = used[node]++ / (plat->nodes[node].cores / domains);
    }
    free(used);
    return SC_OK;
}

const sc_level_t *sc_platform_level(const sc_platform_t *plat, int hier)
{
    int s = sc_platform_node_levels(plat);
    if (hier == 0)
        return &plat->level[SC_LEVEL_INTRA];
    if (hier <= s)
        return &plat->between_domains[sc_platform_domain_kind(plat, hier)];
    hier -= s;
    return hier == 1 ? &plat->level[SC_LEVEL_INTER] : &plat->between_groups[hier - 2];
}

int sc_platform_hier_level(const sc_platform_t *plat, long a, int da, long b, int db)
{
    int s = sc_platform_node_levels(plat);
    if (a == b) {
        /* the largest kind whose domains differ: its level, 1 the smallest */
        int hier = 0, level = 0, span = 1;
        for (int d = 0; d < SC_NDOMAIN_KINDS && da != db; d++) {
            if (plat->domain_count[d] <= 1)
                continue;
            level++;
            if (da / span != db / span)
                hier = level;
            span *= plat->domain_count[d];
        }
        return hier;
    }
    for (int k = 0; k < plat->ngroupings; k++)
        if (a / plat->group_size[k] == b / plat->group_size[k])
            return s + 1 + k;
    return s + 1 + plat->ngroupings;
}
