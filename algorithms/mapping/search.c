/* The mapping search on a platform: graphs recorded once where they can
 * be, partitioned among nodes and their domains; the cut of a layout.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "search.h"

#include <stdlib.h>
#include <string.h>

/* The algorithm's graph with its ranks on node_of: the memo's if it holds
 * for every placement, else recorded (into the memo if empty and the
 * graph holds for every placement). *graph is then either the memo or
 * `own`, which the caller destroys. */
static sc_err_t graph_under(const sc_algo_t *algo, int np, int root, const int *node_of,
                            sc_graph_t *memo, sc_graph_t *own, const sc_graph_t **graph)
{
    *own = (sc_graph_t){0};
    if (memo && memo->size && !memo->placed) {
        *graph = memo;
        return SC_OK;
    }
    sc_err_t err = sc_graph_record_placed(algo, np, root, node_of, own);
    if (!err && memo && !memo->size && !own->placed) {
        *memo = *own;
        *own = (sc_graph_t){0};
        *graph = memo;
    } else {
        *graph = own;
    }
    return err;
}

/* The cuts of a layout asked for, each an assignment of positions to
 * units: the positions' nodes, their smallest domains (numbered in the
 * cluster) if domain_cut, their largest groups of nodes if top_cut on a
 * platform of groups (without, *top_cut is *cut). */
typedef struct {
    const int *unit_of[3];
    double *cut[3];
    int n;
    int *numbered; /* the domains' and groups' units, np each */
} cuts_t;

static sc_err_t cuts_init(cuts_t *c, const sc_platform_t *plat, int np, const int *node_of_position,
                          const int *domain_of_position, double *cut, double *top_cut,
                          double *domain_cut)
{
    *c = (cuts_t){.unit_of = {node_of_position}, .cut = {cut}, .n = 1};
    int groups = top_cut && plat->ngroupings > 0;
    if (!domain_cut && !groups)
        return SC_OK;
    c->numbered = malloc(2 * (size_t)np * sizeof *c->numbered);
    if (!c->numbered)
        return sc_error(SC_ERR_RUN, "out of memory");
    if (domain_cut) {
        int *unit = c->numbered, domains = sc_platform_domains(plat);
        for (int j = 0; j < np; j++)
            unit[j] = domain_of_position[j] + node_of_position[j] * domains;
        c->unit_of[c->n] = unit;
        c->cut[c->n++] = domain_cut;
    }
    if (groups) {
        int *unit = c->numbered + np;
        long size = plat->group_size[plat->ngroupings - 1];
        for (int j = 0; j < np; j++)
            unit[j] = (int)(node_of_position[j] / size);
        c->unit_of[c->n] = unit;
        c->cut[c->n++] = top_cut;
    }
    return SC_OK;
}

/* Frees the units; once the cuts are in (err 0), *top_cut is *cut on a
 * platform without groups. */
static void cuts_finish(cuts_t *c, sc_err_t err, double *top_cut)
{
    if (!err && top_cut && c->cut[c->n - 1] != top_cut)
        *top_cut = *c->cut[0];
    free(c->numbered);
}

sc_err_t sc_mapping_cut(const sc_platform_t *plat, const sc_algo_t *algo, int np, int root,
                        const int *node_of, const int *node_of_position,
                        const int *domain_of_position, sc_graph_t *memo, double *cut, double *total,
                        double *top_cut, double *domain_cut)
{
    if (memo) {
        sc_graph_t own = {0};
        const sc_graph_t *graph;
        sc_err_t err = graph_under(algo, np, root, node_of, memo, &own, &graph);
        if (!err)
            err = sc_mapping_graph_cut(plat, graph, node_of_position, domain_of_position, cut,
                                       total, top_cut, domain_cut);
        sc_graph_destroy(&own);
        return err;
    }
    cuts_t c;
    sc_err_t err =
        cuts_init(&c, plat, np, node_of_position, domain_of_position, cut, top_cut, domain_cut);
    double counted[3];
    if (!err)
        err = sc_graph_count_cuts(algo, np, root, node_of, c.unit_of, c.n, counted, total);
    for (int k = 0; k < c.n && !err; k++)
        *c.cut[k] = counted[k];
    cuts_finish(&c, err, top_cut);
    return err;
}

sc_err_t sc_mapping_graph_cut(const sc_platform_t *plat, const sc_graph_t *graph,
                              const int *node_of_position, const int *domain_of_position,
                              double *cut, double *total, double *top_cut, double *domain_cut)
{
    cuts_t c;
    sc_err_t err = cuts_init(&c, plat, graph->size, node_of_position, domain_of_position, cut,
                             top_cut, domain_cut);
    for (int k = 0; k < c.n && !err; k++)
        *c.cut[k] = sc_graph_cut(graph, c.unit_of[k]);
    *total = graph->total_weight;
    cuts_finish(&c, err, top_cut);
    return err;
}

/* The cut between nodes when rank r (in slot r) plays position pi[r];
 * `scratch` has room for p ints. */
static double node_cut(const sc_graph_t *graph, const int *slot_node, const int *pi, int p,
                       int *scratch)
{
    for (int r = 0; r < p; r++)
        scratch[pi[r]] = slot_node[r];
    return sc_graph_cut(graph, scratch);
}

/* Partitions the graph among the slots' nodes, level by level; with
 * domains in nodes, among their smallest domains (nnodes * D of them,
 * grouped as the domains of each larger kind, then as nodes): nodes first,
 * then sockets within nodes, then NUMA domains within sockets, ... The
 * partitioners are heuristics, and what the mapping keeps from them is
 * judged by the cut of the units it partitions (sc_mapping_partition):
 * with domains, a pi that cuts fewer edges between domains may cut more
 * between nodes (reduce-ompi-in-order-binary, 16 ranks on 3 nodes of 4
 * sockets: 256 against 128), so the partition into nodes alone is kept
 * where its cut between nodes is less. */
static sc_err_t partition_slots(const sc_platform_t *plat, int p, const sc_graph_t *graph,
                                const int *slot_node, sc_partitioner_t how, int *pi,
                                double *seconds)
{
    int domains = sc_platform_domains(plat), levels = sc_platform_node_levels(plat);
    if (!levels)
        return sc_mapping_partition(graph, plat->nnodes, slot_node, plat->ngroupings,
                                    plat->group_size, how, pi, seconds);
    /* groups of consecutive smallest domains: those of each larger kind
     * present, the node's, then the network's groups of nodes */
    long group_size[SC_MAX_LEVELS] = {0};
    int ngroups = 0;
    for (int hier = 2; hier <= levels; hier++)
        group_size[ngroups++] =
            sc_platform_domain_span(plat, (sc_domain_kind_t)sc_platform_domain_kind(plat, hier));
    group_size[ngroups++] = domains;
    for (int k = 0; k < plat->ngroupings; k++)
        group_size[ngroups++] = domains * plat->group_size[k];
    int *slot_domain = malloc(3 * (size_t)p * sizeof *slot_domain);
    sc_err_t err = slot_domain ? sc_place_domains(plat, p, slot_node, slot_domain)
                               : sc_error(SC_ERR_RUN, "out of memory");
    if (err) {
        free(slot_domain);
        return err;
    }
    int *by_nodes = slot_domain + p, *scratch = by_nodes + p;
    for (int r = 0; r < p; r++)
        slot_domain[r] += slot_node[r] * domains; /* numbered in the cluster */
    double more = 0;
    if (!(err = sc_mapping_partition(graph, plat->nnodes * domains, slot_domain, ngroups,
                                     group_size, how, pi, seconds)) &&
        !(err = sc_mapping_partition(graph, plat->nnodes, slot_node, plat->ngroupings,
                                     plat->group_size, how, by_nodes, &more)) &&
        node_cut(graph, slot_node, by_nodes, p, scratch) <
            node_cut(graph, slot_node, pi, p, scratch))
        memcpy(pi, by_nodes, (size_t)p * sizeof *pi);
    if (!err)
        *seconds += more;
    free(slot_domain);
    return err;
}

sc_err_t sc_mapping_search(const sc_platform_t *plat, const sc_algo_t *algo, int np, int root,
                           sc_graph_t *memo, sc_partitioner_t how, int *pi, double *seconds)
{
    int *slot_node = malloc((size_t)np * sizeof *slot_node);
    sc_graph_t own = {0};
    const sc_graph_t *graph = NULL;
    sc_err_t err = slot_node ? SC_OK : sc_error(SC_ERR_RUN, "out of memory");
    if (!err && !(err = sc_place(plat, np, SC_PLACE_BLOCK, slot_node))) {
        /* Block placement puts rank r in slot r. An SMP-aware algorithm is
         * partitioned on its graph with nodes unknown (flat), as before any
         * placement. */
        if (memo && !(err = graph_under(algo, np, root, slot_node, memo, &own, &graph)) &&
            own.size) {
            sc_graph_destroy(&own);
            graph = NULL;
        }
        if (!err && !graph && !(err = sc_graph_record(algo, np, root, &own)))
            graph = &own;
    }
    if (!err)
        err = partition_slots(plat, np, graph, slot_node, how, pi, seconds);
    sc_graph_destroy(&own);
    free(slot_node);
    return err;
}

sc_err_t sc_mapping_search_graph(const sc_platform_t *plat, const sc_graph_t *graph,
                                 sc_partitioner_t how, int *pi, double *seconds)
{
    int np = graph->size;
    int *slot_node = malloc((size_t)np * sizeof *slot_node);
    sc_err_t err = slot_node ? sc_place(plat, np, SC_PLACE_BLOCK, slot_node)
                             : sc_error(SC_ERR_RUN, "out of memory");
    if (!err)
        err = partition_slots(plat, np, graph, slot_node, how, pi, seconds);
    free(slot_node);
    return err;
}

sc_err_t sc_mapping_bottleneck(const sc_platform_t *plat, const sc_graph_t *graph, int *pi)
{
    int np = graph->size, nnodes = plat->nnodes;
    int *at = malloc(5 * (size_t)np * sizeof *at);
    if (!at)
        return sc_error(SC_ERR_RUN, "out of memory");
    int *slot_node = at, *cyclic_node = at + np, *start = at + 2 * np, *node_of = at + 3 * np,
        *best = at + 4 * np;
    sc_err_t err = sc_place(plat, np, SC_PLACE_BLOCK, slot_node);
    if (!err)
        err = sc_place(plat, np, SC_PLACE_CYCLIC, cyclic_node);
    sc_bottleneck_t least = {0, 0, 0};
    for (int k = 0; k < 3 && !err; k++) {
        if (k == 0)
            memcpy(start, pi, (size_t)np * sizeof *start);
        else if (k == 1)
            for (int i = 0; i < np; i++)
                start[i] = i;
        else if (!sc_mapping_from_nodes(np, cyclic_node, slot_node, nnodes, start))
            break;
        /* each swap lowers the bottleneck: p of them are plenty */
        if ((err = sc_mapping_balance(graph, nnodes, slot_node, start, np)))
            break;
        for (int i = 0; i < np; i++)
            node_of[start[i]] = slot_node[i];
        sc_bottleneck_t b = sc_graph_bottleneck(graph, node_of, nnodes, NULL);
        if (k == 0 || sc_bottleneck_compare(&b, &least) < 0) {
            least = b;
            memcpy(best, start, (size_t)np * sizeof *best);
        }
    }
    if (!err)
        memcpy(pi, best, (size_t)np * sizeof *pi);
    free(at);
    return err;
}
