/* Platform description lifetime and the placement of ranks on cores.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "platform.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void sc_platform_destroy(sc_platform_t *plat)
{
    for (int i = 0; i < plat->nnodes; i++)
        free(plat->nodes[i].name);
    free(plat->nodes);
    free(plat->name);
    free(plat->path);
    free(plat->engine_xml);
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

sc_err_t sc_place_sockets(const sc_platform_t *plat, int np, const int *node_of, int *socket_of)
{
    for (int r = 0; r < np; r++)
        socket_of[r] = 0;
    if (!sc_platform_socket_levels(plat))
        return SC_OK;
    int *used = calloc((size_t)plat->nnodes, sizeof *used);
    if (!used)
        return sc_error(SC_ERR_RUN, "out of memory placing %d ranks", np);
    for (int r = 0; r < np; r++) {
        int node = node_of[r];
        socket_of[r] = used[node]++ / (plat->nodes[node].cores / plat->sockets);
    }
    free(used);
    return SC_OK;
}

int sc_platform_socket_levels(const sc_platform_t *plat)
{
    return plat->sockets > 1;
}

const sc_level_t *sc_platform_level(const sc_platform_t *plat, int hier)
{
    int s = sc_platform_socket_levels(plat);
    if (hier == 0)
        return &plat->level[SC_LEVEL_INTRA];
    if (hier <= s)
        return &plat->between_sockets;
    hier -= s;
    return hier == 1 ? &plat->level[SC_LEVEL_INTER] : &plat->between_groups[hier - 2];
}

int sc_platform_hier_level(const sc_platform_t *plat, long a, int sa, long b, int sb)
{
    int s = sc_platform_socket_levels(plat);
    if (a == b)
        return sa == sb ? 0 : s;
    for (int k = 0; k < plat->ngroupings; k++)
        if (a / plat->group_size[k] == b / plat->group_size[k])
            return s + 1 + k;
    return s + 1 + plat->ngroupings;
}
