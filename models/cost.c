/* Hockney cost of messages on a two-level cluster, with MPI's protocols.
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

/* When a message of `bytes` from rank a, whose sender is ready (has spent
 * o_s) at `ready`, leaves: the gap applies between nodes. */
static double depart(const sc_model_t *model, int a, int b, size_t bytes, double ready)
{
    const sc_level_t *lv = sc_model_level(model, a, b);
    if (sc_model_level_id(model, a, b) != SC_LEVEL_INTER)
        return ready;
    double first = transfer(model, lv, bytes <= lv->eager_limit ? bytes : 0);
    return sc_model_depart(model->nic_free, model->node_of[a], model->node_of[b], lv->gap_s,
                           ready, first);
}

static double max2(double a, double b)
{
    return a > b ? a : b;
}

double sc_model_reduce_time(const sc_model_t *model, int rank, size_t bytes)
{
    const sc_node_t *node = &model->plat->nodes[model->node_of[rank]];
    double compute = (double)(bytes / model->elem_size) / node->speed_flops;
    double memory = 3.0 * (double)bytes / node->membus_Bps;
    return max2(compute, memory);
}

sc_err_t sc_round_init(sc_round_t *round, int n)
{
    round->dst = malloc((size_t)n * sizeof *round->dst);
    round->src = malloc((size_t)n * sizeof *round->src);
    round->bytes = malloc((size_t)n * sizeof *round->bytes);
    round->reduce = malloc((size_t)n * sizeof *round->reduce);
    round->scratch = malloc(2 * (size_t)n * sizeof *round->scratch);
    round->order = malloc((size_t)n * sizeof *round->order);
    if (!round->dst || !round->src || !round->bytes || !round->reduce || !round->scratch ||
        !round->order) {
        sc_round_destroy(round);
        return sc_error(SC_ERR_RUN, "out of memory in the cost model");
    }
    sc_round_clear(round, n);
    return SC_OK;
}

void sc_round_clear(sc_round_t *round, int n)
{
    for (int i = 0; i < n; i++) {
        round->dst[i] = round->src[i] = -1;
        round->bytes[i] = round->reduce[i] = 0;
    }
}

void sc_round_destroy(sc_round_t *round)
{
    free(round->dst);
    free(round->src);
    free(round->bytes);
    free(round->reduce);
    free(round->scratch);
    free(round->order);
    *round = (sc_round_t){0};
}

/* Orders the senders of a round by when they ask the NIC, then by rank. */
static int by_ready(const void *a, const void *b)
{
    const sc_sender_t *x = a, *y = b;
    if (x->ready != y->ready)
        return x->ready < y->ready ? -1 : 1;
    return x->rank - y->rank;
}

void sc_model_exchange(const sc_model_t *model, sc_round_t *round, double *t)
{
    const int *dst = round->dst, *src = round->src;
    const size_t *bytes = round->bytes;
    int n = model->size;
    /* progress[i]: when rank i, having posted its receive and sent its
     * message (o_s, and any wait for the NIC), enters the wait and starts
     * answering protocol messages.
     * done[i]: when the message sent by rank i has been delivered. */
    double *progress = round->scratch;
    double *done = round->scratch + n;
    int nsend = 0;
    for (int i = 0; i < n; i++) {
        progress[i] = t[i];
        if (dst[i] >= 0) {
            progress[i] += sc_level_send_overhead(sc_model_level(model, i, dst[i]), bytes[i]);
            round->order[nsend++] = (sc_sender_t){progress[i], i};
        }
    }
    if (model->nic_free) { /* NIC slots go to the senders in time order */
        qsort(round->order, (size_t)nsend, sizeof *round->order, by_ready);
        for (int k = 0; k < nsend; k++) {
            int i = round->order[k].rank;
            progress[i] = depart(model, i, dst[i], bytes[i], progress[i]);
        }
    }
    for (int i = 0; i < n; i++) {
        if (dst[i] < 0)
            continue;
        int d = dst[i];
        const sc_level_t *lv = sc_model_level(model, i, d);
        if (is_eager(lv, bytes[i])) {
            done[i] = progress[i] + transfer(model, lv, bytes[i]);
        } else {
            double rts = progress[i] + transfer(model, lv, 0);
            /* A request that arrived before the receiver started this round
             * was queued as unexpected and is answered when the receive is
             * posted; a later one is answered once the receiver waits. */
            double cts = rts <= t[d] ? t[d] : max2(progress[d], rts);
            done[i] = cts + transfer(model, lv, 0) + transfer(model, lv, bytes[i]);
        }
    }
    for (int i = 0; i < n; i++) {
        if (dst[i] < 0 && src[i] < 0)
            continue;
        double now = progress[i];
        if (dst[i] >= 0 && !is_eager(sc_model_level(model, i, dst[i]), bytes[i]))
            now = max2(now, done[i]);
        if (src[i] >= 0) {
            now = max2(now, done[src[i]]);
            now += sc_level_recv_overhead(sc_model_level(model, src[i], i), bytes[src[i]]);
        }
        t[i] = round->reduce[i] ? now + sc_model_reduce_time(model, i, round->reduce[i]) : now;
    }
}

/* Translates a round of positions into a round of ranks. */
static void play(const sc_model_t *model, const sc_round_t *by_position, sc_round_t *by_rank)
{
    for (int r = 0; r < model->size; r++) {
        int j = model->pi[r];
        int d = by_position->dst[j], s = by_position->src[j];
        by_rank->dst[r] = d < 0 ? -1 : model->pi_inv[d];
        by_rank->src[r] = s < 0 ? -1 : model->pi_inv[s];
        by_rank->bytes[r] = by_position->bytes[j];
        by_rank->reduce[r] = by_position->reduce[j];
    }
}

sc_err_t sc_model_rounds(const sc_model_t *model, int rounds, sc_round_fill_fn fill,
                         size_t bytes, int root, double *t)
{
    sc_round_t positions, ranks = {0};
    sc_err_t err = sc_round_init(&positions, model->size);
    if (!err && model->pi)
        err = sc_round_init(&ranks, model->size);
    for (int k = 0; k < rounds && !err; k++) {
        fill(k, model->size, bytes, root, &positions);
        if (model->pi) {
            play(model, &positions, &ranks);
            sc_model_exchange(model, &ranks, t);
        } else {
            sc_model_exchange(model, &positions, t);
        }
    }
    sc_round_destroy(&positions);
    sc_round_destroy(&ranks);
    return err;
}

sc_err_t sc_model_exchange_own(const sc_model_t *model, size_t bytes, double *t)
{
    if (!model->pi)
        return SC_OK;
    sc_round_t round;
    sc_err_t err = sc_round_init(&round, model->size);
    if (err)
        return err;
    for (int r = 0; r < model->size; r++)
        if (model->pi[r] != r) {
            round.dst[r] = model->pi_inv[r];
            round.src[r] = model->pi[r];
            round.bytes[r] = bytes;
        }
    sc_model_exchange(model, &round, t);
    sc_round_destroy(&round);
    return SC_OK;
}

double sc_model_send(const sc_model_t *model, int from, int to, size_t bytes,
                     double *t_from, double t_to)
{
    const sc_level_t *lv = sc_model_level(model, from, to);
    double left = depart(model, from, to, bytes,
                         *t_from + sc_level_send_overhead(lv, bytes));
    double o_r = sc_level_recv_overhead(lv, bytes);
    if (is_eager(lv, bytes)) {
        *t_from = left;
        return max2(t_to, left + transfer(model, lv, bytes)) + o_r;
    }
    double cts = max2(t_to, left + transfer(model, lv, 0));
    double done = cts + transfer(model, lv, 0) + transfer(model, lv, bytes);
    *t_from = done;
    return done + o_r;
}

sc_err_t sc_model_sub(const sc_model_t *model, const int *members, int n, sc_model_fn fn,
                      size_t bytes, int root, double *t)
{
    int *node_of = malloc(2 * (size_t)n * sizeof *node_of);
    double *ts = malloc((size_t)n * sizeof *ts);
    sc_err_t err = node_of && ts ? SC_OK : sc_error(SC_ERR_RUN, "out of memory in the cost model");
    if (!err) {
        int *domain_of = node_of + n;
        for (int i = 0; i < n; i++) {
            node_of[i] = model->node_of[members[i]];
            domain_of[i] = model->domain_of ? model->domain_of[members[i]] : 0;
            ts[i] = t[members[i]];
        }
        sc_model_t sub = {model->plat, n,    node_of,          domain_of,
                          NULL,        NULL, model->elem_size, model->nic_free};
        err = fn(&sub, bytes, root, ts);
        for (int i = 0; i < n && !err; i++)
            t[members[i]] = ts[i];
    }
    free(node_of);
    free(ts);
    return err;
}

double sc_model_max(const double *t, int n)
{
    double m = t[0];
    for (int i = 1; i < n; i++)
        m = max2(m, t[i]);
    return m;
}
