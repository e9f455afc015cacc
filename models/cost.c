/* What one message costs on the platform's levels, with MPI's protocols:
 * the parts the protocol, the engines and the evaluator share.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "cost.h"

#include <math.h>
#include <stdlib.h>

sc_level_id_t sc_model_level_id(const sc_model_t *model, int a, int b)
{
    return model->node_of[a] == model->node_of[b] ? SC_LEVEL_INTRA : SC_LEVEL_INTER;
}

int sc_model_hier_level(const sc_model_t *model, int a, int b)
{
    const int *domain = model->domain_of;
    return sc_platform_hier_level(model->plat, model->node_of[a], domain ? domain[a] : 0,
                                  model->node_of[b], domain ? domain[b] : 0);
}

const sc_level_t *sc_model_level(const sc_model_t *model, int a, int b)
{
    return sc_platform_level(model->plat, sc_model_hier_level(model, a, b));
}

static int is_eager(const sc_level_t *lv, size_t bytes)
{
    return bytes <= lv->eager_limit;
}

double sc_wire_bytes(const sc_platform_t *plat, const sc_level_t *lv, size_t data)
{
    return round((double)(data + plat->header_bytes) / sc_level_bandwidth_factor(lv, data));
}

double sc_wire_time(const sc_platform_t *plat, const sc_level_t *lv, size_t data)
{
    return sc_level_wire_time(lv, plat->header_bytes, data);
}

static double transfer(const sc_model_t *model, const sc_level_t *lv, size_t bytes)
{
    return sc_wire_time(model->plat, lv, bytes);
}

sc_err_t sc_model_init(sc_model_t *model, const sc_platform_t *plat, int size, const int *node_of,
                       const int *domain_of, const int *pi, const int *pi_inv, size_t elem_size)
{
    *model = (sc_model_t){plat, size, node_of, domain_of, pi, pi_inv, elem_size, NULL};
    if (plat->level[SC_LEVEL_INTER].gap_s > 0) {
        model->nic_free = calloc(2 * (size_t)plat->nnodes, sizeof *model->nic_free);
        if (!model->nic_free)
            return sc_error(SC_ERR_RUN, "out of memory in the cost model");
    }
    return SC_OK;
}

void sc_model_destroy(sc_model_t *model)
{
    free(model->nic_free);
    model->nic_free = NULL;
}

double sc_model_depart(double *nic_free, int src_node, int dst_node, double gap, double ready,
                       double first_transfer)
{
    if (gap <= 0 || !nic_free)
        return ready;
    double tx = ready > nic_free[2 * src_node] ? ready : nic_free[2 * src_node];
    nic_free[2 * src_node] = tx + gap;
    double arrival = tx + first_transfer;
    double rx = arrival > nic_free[2 * dst_node + 1] ? arrival : nic_free[2 * dst_node + 1];
    nic_free[2 * dst_node + 1] = rx + gap;
    return rx > arrival ? rx - first_transfer : tx;
}

static double max2(double a, double b)
{
    return a > b ? a : b;
}

double sc_model_reduce_time(const sc_model_t *model, int rank, size_t elem_size, size_t bytes)
{
    const sc_node_t *node = &model->plat->nodes[model->node_of[rank]];
    if (!elem_size)
        elem_size = model->elem_size;
    double compute = (double)(bytes / elem_size) / node->speed_flops;
    double memory = 3.0 * (double)bytes / node->membus_Bps;
    return max2(compute, memory);
}

double sc_model_call_time(const sc_model_t *model)
{
    return model->plat->level[SC_LEVEL_INTRA].call_overhead_s;
}

double sc_model_p2p_time(const sc_model_t *model, int from, int to, size_t bytes)
{
    const sc_level_t *lv = sc_model_level(model, from, to);
    double sent = sc_level_send_overhead(lv, bytes);
    if (is_eager(lv, bytes))
        return sent + transfer(model, lv, bytes);
    /* the request, the receiver's clear-to-send at once, the data */
    return sent + 2 * transfer(model, lv, 0) + transfer(model, lv, bytes);
}

double sc_model_max(const double *t, int n)
{
    double m = t[0];
    for (int i = 1; i < n; i++)
        m = max2(m, t[i]);
    return m;
}
