/* Objectives beyond the cut: the traffic through the busiest node's link,
 * and the swaps that lower it.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "objective.h"

#include <stdlib.h>
#include <string.h>

const char *sc_objective_name(sc_objective_t objective)
{
    switch (objective) {
    case SC_OBJECTIVE_CUT: return "cut";
    case SC_OBJECTIVE_BOTTLENECK: return "bottleneck";
    case SC_OBJECTIVE_TIME: return "time";
    }
    return "?";
}

sc_bottleneck_t sc_graph_bottleneck(const sc_graph_t *graph, const int *node_of_position,
                                    int nnodes, double *load)
{
    double *own = load ? load : calloc((size_t)(nnodes > 0 ? nnodes : 1), sizeof *own);
    sc_bottleneck_t b = {0, 0, 0};
    if (!own) /* out of memory: the cut alone, every node as loaded */
        return (sc_bottleneck_t){sc_graph_cut(graph, node_of_position), nnodes,
                                 sc_graph_cut(graph, node_of_position)};
    memset(own, 0, (size_t)nnodes * sizeof *own);
    igraph_integer_t m = igraph_ecount(&graph->graph);
    for (igraph_integer_t e = 0; e < m; e++) {
        int a = node_of_position[IGRAPH_FROM(&graph->graph, e)];
        int c = node_of_position[IGRAPH_TO(&graph->graph, e)];
        if (a != c) {
            double w = VECTOR(graph->weight)[e];
            own[a] += w;
            own[c] += w;
            b.cut += w;
        }
    }
    for (int u = 0; u < nnodes; u++)
        if (own[u] > b.load) {
            b.load = own[u];
            b.busiest = 1;
        } else if (own[u] == b.load) {
            b.busiest++;
        }
    if (!load)
        free(own);
    return b;
}

int sc_bottleneck_compare(const sc_bottleneck_t *a, const sc_bottleneck_t *b)
{
    if (a->load != b->load)
        return a->load < b->load ? -1 : 1;
    if (a->busiest != b->busiest)
        return a->busiest < b->busiest ? -1 : 1;
    if (a->cut != b->cut)
        return a->cut < b->cut ? -1 : 1;
    return 0;
}

static int by_outcome(const void *x, const void *y)
{
    const sc_swap_t *a = x, *b = y;
    int c = sc_bottleneck_compare(&a->after, &b->after);
    if (c)
        return c;
    if (a->slot_a != b->slot_a)
        return a->slot_a < b->slot_a ? -1 : 1;
    return (a->slot_b > b->slot_b) - (a->slot_b < b->slot_b);
}

/* The most loaded nodes but one: the largest load among nodes other than
 * `skip` and u, and how many carry it, from the two largest loads (and
 * their counts) among the nodes other than `skip`. */
typedef struct {
    double v1, v2;
    int c1, c2;
} tops_t;

static tops_t tops_of(const double *load, int nnodes, int skip)
{
    tops_t t = {-1, -1, 0, 0};
    for (int u = 0; u < nnodes; u++) {
        if (u == skip)
            continue;
        if (load[u] > t.v1) {
            t.v2 = t.v1;
            t.c2 = t.c1;
            t.v1 = load[u];
            t.c1 = 1;
        } else if (load[u] == t.v1) {
            t.c1++;
        } else if (load[u] > t.v2) {
            t.v2 = load[u];
            t.c2 = 1;
        } else if (load[u] == t.v2) {
            t.c2++;
        }
    }
    return t;
}

static sc_bottleneck_t outcome(double nb, double nu, double u_before, const tops_t *t,
                               double cut)
{
    double mo = t->v1;
    int co = t->c1;
    if (u_before == t->v1) { /* u leaves the others */
        if (t->c1 > 1) {
            co = t->c1 - 1;
        } else {
            mo = t->v2;
            co = t->c2;
        }
    }
    sc_bottleneck_t b = {nb > nu ? nb : nu, 0, cut};
    if (mo > b.load)
        b.load = mo;
    b.busiest = (nb == b.load) + (nu == b.load) + (mo == b.load ? co : 0);
    return b;
}

/* What weighing the swaps reads: the placement, the busiest node b and
 * its loads; by position, its edges' weight in all, to b and to its own
 * node; for the rank whose swaps are weighed, its edges' weight to each
 * position and to each node (zero between ranks). */
typedef struct {
    const sc_graph_t *graph;
    igraph_inclist_t il;
    const int *slot_node, *pi;
    int *node_of;
    double *load;
    int b;
    sc_bottleneck_t now;
    tops_t tops;
    double *deg, *to_b, *to_own, *to_v, *v_to_node;
} swap_scan_t;

/* Every edge's weight into deg, to_b and to_own of its two ends. */
static void weigh_edges(swap_scan_t *sw)
{
    const sc_graph_t *graph = sw->graph;
    igraph_integer_t m = igraph_ecount(&graph->graph);
    for (igraph_integer_t e = 0; e < m; e++) {
        int x = (int)IGRAPH_FROM(&graph->graph, e), y = (int)IGRAPH_TO(&graph->graph, e);
        double w = VECTOR(graph->weight)[e];
        sw->deg[x] += w;
        sw->deg[y] += w;
        if (sw->node_of[y] == sw->b)
            sw->to_b[x] += w;
        if (sw->node_of[x] == sw->b)
            sw->to_b[y] += w;
        if (sw->node_of[x] == sw->node_of[y]) {
            sw->to_own[x] += w;
            sw->to_own[y] += w;
        }
    }
}

/* The swaps of slot a, on the busiest node, with each slot elsewhere: the
 * best so far kept in *best, each appended to all unless it is NULL. */
static void weigh_swaps_of(swap_scan_t *sw, int a, sc_swap_t *best, sc_swap_t *all, long *nall)
{
    const sc_graph_t *graph = sw->graph;
    const double *load = sw->load, *deg = sw->deg, *to_own = sw->to_own;
    int p = graph->size, b = sw->b;
    int v = sw->pi[a];
    igraph_vector_int_t *inc = igraph_inclist_get(&sw->il, v);
    for (igraph_integer_t k = 0; k < igraph_vector_int_size(inc); k++) {
        igraph_integer_t e = VECTOR(*inc)[k];
        int y = (int)IGRAPH_OTHER(&graph->graph, e, v);
        sw->to_v[y] += VECTOR(graph->weight)[e];
        sw->v_to_node[sw->node_of[y]] += VECTOR(graph->weight)[e];
    }
    /* Only b's and u's loads change: b loses v's edges leaving b and
     * gains v's edges inside b, gains w's edges leaving b and loses
     * w's edges into b, and u the same the other way; the edge v-w
     * crosses both links before and after, which the terms in vw
     * put back. */
    double from_v = 2 * to_own[v] - deg[v];
    for (int c = 0; c < p; c++) {
        int u = sw->slot_node[c];
        if (u == b)
            continue;
        int w = sw->pi[c];
        double vw = sw->to_v[w];
        double nb = load[b] + from_v + deg[w] - 2 * sw->to_b[w] + 2 * vw;
        double nu = load[u] + deg[v] - 2 * sw->v_to_node[u] + 2 * to_own[w] - deg[w] + 2 * vw;
        sc_swap_t s = {a, c,
                       outcome(nb, nu, load[u], &sw->tops,
                               sw->now.cut + (nb - load[b] + nu - load[u]) / 2)};
        if (best->slot_a < 0 || by_outcome(&s, best) < 0)
            *best = s;
        if (all)
            all[(*nall)++] = s;
    }
    for (igraph_integer_t k = 0; k < igraph_vector_int_size(inc); k++) {
        int y = (int)IGRAPH_OTHER(&graph->graph, VECTOR(*inc)[k], v);
        sw->to_v[y] = 0;
        sw->v_to_node[sw->node_of[y]] = 0;
    }
}

/* The swaps of a slot on the busiest node with a slot elsewhere: the
 * best into *best (slot_a < 0 if there is none), and every one into *all
 * unless all is NULL. */
static sc_err_t scan_swaps(const sc_graph_t *graph, int nnodes, const int *slot_node,
                           const int *pi, sc_swap_t *best, sc_swap_t **all, long *nall)
{
    int p = graph->size;
    best->slot_a = best->slot_b = -1;
    if (all) {
        *all = NULL;
        *nall = 0;
    }
    swap_scan_t sw = {.graph = graph, .slot_node = slot_node, .pi = pi};
    sw.node_of = malloc((size_t)p * sizeof *sw.node_of);
    sw.load = malloc((size_t)nnodes * sizeof *sw.load);
    sw.deg = calloc((size_t)p, sizeof *sw.deg);
    sw.to_b = calloc((size_t)p, sizeof *sw.to_b);
    sw.to_own = calloc((size_t)p, sizeof *sw.to_own);
    sw.to_v = calloc((size_t)p, sizeof *sw.to_v);
    sw.v_to_node = calloc((size_t)nnodes, sizeof *sw.v_to_node);
    int have_il = 0;
    sc_err_t err = SC_OK;
    if (!sw.node_of || !sw.load || !sw.deg || !sw.to_b || !sw.to_own || !sw.to_v ||
        !sw.v_to_node) {
        err = sc_error(SC_ERR_RUN, "out of memory weighing swaps of %d ranks", p);
        goto cleanup;
    }
    for (int i = 0; i < p; i++)
        sw.node_of[pi[i]] = slot_node[i];
    sw.now = sc_graph_bottleneck(graph, sw.node_of, nnodes, sw.load);
    int b = 0;
    while (b < nnodes && sw.load[b] != sw.now.load)
        b++;
    if (sw.now.load == 0 || b == nnodes)
        goto cleanup; /* nothing crosses a link */
    sw.b = b;
    if ((err = sc_igraph_check(igraph_inclist_init(&graph->graph, &sw.il, IGRAPH_ALL,
                                                   IGRAPH_LOOPS_ONCE),
                               "listing edges")))
        goto cleanup;
    have_il = 1;
    weigh_edges(&sw);
    long on_b = 0;
    for (int i = 0; i < p; i++)
        on_b += slot_node[i] == b;
    if (all && !(*all = malloc((size_t)(on_b * (p - on_b) > 0 ? on_b * (p - on_b) : 1) *
                               sizeof **all))) {
        err = sc_error(SC_ERR_RUN, "out of memory weighing swaps of %d ranks", p);
        goto cleanup;
    }
    sw.tops = tops_of(sw.load, nnodes, b);
    for (int a = 0; a < p; a++)
        if (slot_node[a] == b)
            weigh_swaps_of(&sw, a, best, all ? *all : NULL, nall);
    if (all && *nall)
        qsort(*all, (size_t)*nall, sizeof **all, by_outcome);
cleanup:
    if (have_il)
        igraph_inclist_destroy(&sw.il);
    if (err && all) {
        free(*all);
        *all = NULL;
        *nall = 0;
    }
    free(sw.node_of);
    free(sw.load);
    free(sw.deg);
    free(sw.to_b);
    free(sw.to_own);
    free(sw.to_v);
    free(sw.v_to_node);
    return err;
}

sc_err_t sc_mapping_swaps(const sc_graph_t *graph, int nnodes, const int *slot_node,
                          const int *pi, sc_swap_t **swaps, long *nswaps)
{
    sc_swap_t best;
    return scan_swaps(graph, nnodes, slot_node, pi, &best, swaps, nswaps);
}

sc_err_t sc_mapping_balance(const sc_graph_t *graph, int nnodes, const int *slot_node, int *pi,
                            long max_swaps)
{
    int p = graph->size;
    int *node_of = malloc((size_t)p * sizeof *node_of);
    if (!node_of)
        return sc_error(SC_ERR_RUN, "out of memory balancing %d ranks", p);
    for (int i = 0; i < p; i++)
        node_of[pi[i]] = slot_node[i];
    sc_bottleneck_t now = sc_graph_bottleneck(graph, node_of, nnodes, NULL);
    sc_err_t err = SC_OK;
    for (long n = 0; n < max_swaps && !err; n++) {
        sc_swap_t best;
        if ((err = scan_swaps(graph, nnodes, slot_node, pi, &best, NULL, NULL)) ||
            best.slot_a < 0 || sc_bottleneck_compare(&best.after, &now) >= 0)
            break;
        /* Measured again rather than trusted: the sums of doubles may
         * round differently from the update. */
        int a = best.slot_a, c = best.slot_b, t = pi[a];
        pi[a] = pi[c];
        pi[c] = t;
        node_of[pi[a]] = slot_node[a];
        node_of[pi[c]] = slot_node[c];
        sc_bottleneck_t then = sc_graph_bottleneck(graph, node_of, nnodes, NULL);
        if (sc_bottleneck_compare(&then, &now) >= 0) {
            pi[c] = pi[a];
            pi[a] = t;
            break;
        }
        now = then;
    }
    free(node_of);
    return err;
}

int sc_mapping_from_nodes(int p, const int *node_of_position, const int *slot_node, int nnodes,
                          int *pi)
{
    int *next = calloc((size_t)nnodes + 1, sizeof *next); /* per node: its next position */
    int *positions = malloc((size_t)(p > 0 ? p : 1) * sizeof *positions);
    int fits = next && positions;
    for (int j = 0; fits && j < p; j++)
        next[node_of_position[j] + 1]++;
    for (int i = 0; fits && i < p; i++)
        next[slot_node[i] + 1]--; /* 0 everywhere if the counts agree */
    for (int u = 0; fits && u < nnodes; u++)
        fits = next[u + 1] == 0;
    if (fits) {
        for (int j = 0; j < p; j++)
            next[node_of_position[j] + 1]++;
        for (int u = 0; u < nnodes; u++)
            next[u + 1] += next[u];
        for (int j = 0; j < p; j++)
            positions[next[node_of_position[j]]++] = j;
        for (int u = nnodes; u > 0; u--) /* back to each node's first */
            next[u] = next[u - 1];
        next[0] = 0;
        for (int i = 0; i < p; i++)
            pi[i] = positions[next[slot_node[i]]++];
    }
    free(next);
    free(positions);
    return fits;
}
