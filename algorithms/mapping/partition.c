/* Splitting a communication graph into node-sized parts of exact sizes.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "partition.h"

#include <stdlib.h>
#include <string.h>

#include "common/sc_grow.h"
#include "csr.h"
#include "external.h"

/* General-purpose partitioners (METIS, Scotch) balance parts only up to a
 * tolerance; here every part must hold exactly as many ranks as its node
 * has, so the packing and the refinement below never break that. Where
 * METIS or Scotch is asked for (external.c), its partition is made exact
 * afterwards. */

const char *sc_partitioner_name(sc_partitioner_t how)
{
    static const char *const names[SC_PARTITIONERS] = {"multilevel", "greedy", "scotch",
                                                       "metis"};
    return (unsigned)how < SC_PARTITIONERS ? names[how] : "?";
}

/* The coarsening hierarchy: level 0 is the graph itself; vertex c of level
 * l > 0 stands for its children child[l][first[l][c] .. first[l][c+1]) of
 * level l-1. vw[l][c] counts the original vertices inside. */
typedef struct {
    int levels;
    int *n;
    int **vw;
    int **first, **child;
} hierarchy_t;

static void hierarchy_free(hierarchy_t *h)
{
    for (int l = 0; l < h->levels; l++) {
        free(h->vw[l]);
        if (l > 0) {
            free(h->first[l]);
            free(h->child[l]);
        }
    }
    free(h->n);
    free(h->vw);
    free(h->first);
    free(h->child);
    memset(h, 0, sizeof *h);
}

/* Adds a level above the top one from mapping[v] = coarse vertex of v
 * (numbered 0..ncoarse-1). */
static sc_err_t hierarchy_push(hierarchy_t *h, const int *mapping, int ncoarse)
{
    int l = h->levels, nfine = h->n[l - 1];
    int *n = realloc(h->n, (size_t)(l + 1) * sizeof *n);
    if (n)
        h->n = n;
    int **vw = realloc(h->vw, (size_t)(l + 1) * sizeof *vw);
    if (vw)
        h->vw = vw;
    int **first = realloc(h->first, (size_t)(l + 1) * sizeof *first);
    if (first)
        h->first = first;
    int **child = realloc(h->child, (size_t)(l + 1) * sizeof *child);
    if (child)
        h->child = child;
    if (!n || !vw || !first || !child)
        return sc_error(SC_ERR_RUN, "out of memory coarsening the graph");
    h->n[l] = ncoarse;
    h->vw[l] = calloc((size_t)ncoarse, sizeof **h->vw);
    h->first[l] = calloc((size_t)ncoarse + 1, sizeof **h->first);
    h->child[l] = malloc((size_t)nfine * sizeof **h->child);
    if (!h->vw[l] || !h->first[l] || !h->child[l]) {
        free(h->vw[l]);
        free(h->first[l]);
        free(h->child[l]);
        return sc_error(SC_ERR_RUN, "out of memory coarsening the graph");
    }
    h->levels++;
    for (int v = 0; v < nfine; v++) {
        h->vw[l][mapping[v]] += h->vw[l - 1][v];
        h->first[l][mapping[v] + 1]++;
    }
    for (int c = 0; c < ncoarse; c++)
        h->first[l][c + 1] += h->first[l][c];
    int *at = malloc((size_t)ncoarse * sizeof *at);
    if (!at)
        return sc_error(SC_ERR_RUN, "out of memory coarsening the graph");
    memcpy(at, h->first[l], (size_t)ncoarse * sizeof *at);
    for (int v = 0; v < nfine; v++)
        h->child[l][at[mapping[v]]++] = v;
    free(at);
    return SC_OK;
}

typedef struct {
    int a, b;
    double w;
} edge_t;

static int heavier_first(const void *x, const void *y)
{
    const edge_t *e = x, *f = y;
    if (e->w != f->w)
        return e->w > f->w ? -1 : 1;
    if (e->a != f->a)
        return e->a < f->a ? -1 : 1;
    return (e->b > f->b) - (e->b < f->b);
}

/* The edges of c (each once), heaviest first; NULL if out of memory. */
static edge_t *sorted_edges(const sc_csr_t *c, int *count)
{
    edge_t *edges = malloc((size_t)(c->xadj[c->n] / 2 + 1) * sizeof *edges);
    if (!edges)
        return NULL;
    int m = 0;
    for (int a = 0; a < c->n; a++)
        for (int k = c->xadj[a]; k < c->xadj[a + 1]; k++)
            if (a < c->adj[k])
                edges[m++] = (edge_t){a, c->adj[k], c->ew[k]};
    qsort(edges, (size_t)m, sizeof *edges, heavier_first);
    *count = m;
    return edges;
}

/* Greedy heavy-edge matching: heaviest edges first, each joining two
 * unmatched vertices whose weights together stay within maxw. Fills
 * mapping[v] and returns the number of coarse vertices, or -1. */
static int heavy_edge_matching(const sc_csr_t *c, const int *vw, int maxw, int *mapping)
{
    int m;
    edge_t *edges = sorted_edges(c, &m);
    int *mate = malloc((size_t)c->n * sizeof *mate);
    if (!edges || !mate) {
        free(edges);
        free(mate);
        return -1;
    }
    for (int v = 0; v < c->n; v++)
        mate[v] = -1;
    for (int e = 0; e < m; e++) {
        int a = edges[e].a, b = edges[e].b;
        if (mate[a] < 0 && mate[b] < 0 && vw[a] + vw[b] <= maxw) {
            mate[a] = b;
            mate[b] = a;
        }
    }
    int ncoarse = 0;
    for (int v = 0; v < c->n; v++)
        mapping[v] = -1;
    for (int v = 0; v < c->n; v++)
        if (mapping[v] < 0) {
            mapping[v] = ncoarse;
            if (mate[v] >= 0)
                mapping[mate[v]] = ncoarse;
            ncoarse++;
        }
    free(edges);
    free(mate);
    return ncoarse;
}

/* Contracts g by mapping with igraph, summing the weights of merged edges
 * and dropping the edges that fall inside a coarse vertex. */
static sc_err_t contract(igraph_t *g, igraph_vector_t *w, const int *mapping)
{
    igraph_vector_int_t map;
    igraph_attribute_combination_t comb;
    sc_err_t err = sc_igraph_check(igraph_vector_int_init(&map, igraph_vcount(g)), "contracting");
    if (err)
        return err;
    for (igraph_integer_t v = 0; v < igraph_vcount(g); v++)
        VECTOR(map)[v] = mapping[v];
    err = sc_igraph_check(igraph_attribute_combination(&comb, "weight",
                                                       IGRAPH_ATTRIBUTE_COMBINE_SUM, "",
                                                       IGRAPH_ATTRIBUTE_COMBINE_IGNORE,
                                                       IGRAPH_NO_MORE_ATTRIBUTES),
                          "contracting");
    if (err) {
        igraph_vector_int_destroy(&map);
        return err;
    }
    if (!(err = sc_igraph_check(igraph_cattribute_EAN_setv(g, "weight", w), "contracting")) &&
        !(err = sc_igraph_check(igraph_contract_vertices(g, &map, NULL), "contracting")) &&
        !(err = sc_igraph_check(igraph_simplify(g, 1, 1, &comb), "merging parallel edges")))
        err = sc_igraph_check(igraph_cattribute_EANV(g, "weight", igraph_ess_all(IGRAPH_EDGEORDER_ID), w),
                              "reading contracted weights");
    igraph_attribute_combination_destroy(&comb);
    igraph_vector_int_destroy(&map);
    return err;
}

/* Coarsens until no two vertices can merge within maxw or there are no
 * more vertices than parts. */
static sc_err_t coarsen(const sc_graph_t *graph, int maxw, int nparts, hierarchy_t *h)
{
    igraph_t g;
    igraph_vector_t w;
    sc_err_t err = sc_igraph_check(igraph_copy(&g, &graph->graph), "copying the graph");
    if (err)
        return err;
    if ((err = sc_igraph_check(igraph_vector_init_copy(&w, &graph->weight), "copying weights"))) {
        igraph_destroy(&g);
        return err;
    }
    int *mapping = malloc((size_t)graph->size * sizeof *mapping);
    if (!mapping)
        err = sc_error(SC_ERR_RUN, "out of memory coarsening the graph");
    while (!err && h->n[h->levels - 1] > nparts) {
        sc_csr_t c = {0};
        if ((err = sc_csr_from_igraph(&g, &w, &c)))
            break;
        int ncoarse = heavy_edge_matching(&c, h->vw[h->levels - 1], maxw, mapping);
        sc_csr_free(&c);
        if (ncoarse < 0) {
            err = sc_error(SC_ERR_RUN, "out of memory matching the graph");
            break;
        }
        if (ncoarse == h->n[h->levels - 1])
            break; /* nothing merged */
        if (!(err = hierarchy_push(h, mapping, ncoarse)))
            err = contract(&g, &w, mapping);
    }
    free(mapping);
    igraph_vector_destroy(&w);
    igraph_destroy(&g);
    return err;
}

/* The part assignment being built, with each part's room left and the
 * parts indexed by room so a best fit is found without a scan. */
typedef struct {
    const sc_csr_t *c;
    int nparts, maxcap;
    int *part;       /* of each vertex, -1 while unassigned */
    int *room;       /* capacity left in each part */
    int **by_room;   /* by_room[r]: parts that had room r (lazily kept) */
    int *nby_room;
    size_t *cap_by_room;
    double *conn;    /* scratch, per part */
    int *touched, ntouched;
    int *members, nmembers; /* scratch: original vertices of an item */
} packer_t;

static int by_room_push(packer_t *pk, int r, int u)
{
    int *a = sc_grow(pk->by_room[r], (size_t)pk->nby_room[r], &pk->cap_by_room[r], 16, sizeof *a);
    if (!a)
        return -1;
    pk->by_room[r] = a;
    a[pk->nby_room[r]++] = u;
    return 0;
}

/* The part with the least room >= need, or -1. Stale entries (whose room
 * changed since they were filed) are dropped on the way. */
static int best_fit(packer_t *pk, int need)
{
    for (int r = need; r <= pk->maxcap; r++)
        while (pk->nby_room[r] > 0) {
            int u = pk->by_room[r][pk->nby_room[r] - 1];
            if (pk->room[u] == r)
                return u;
            pk->nby_room[r]--;
        }
    return -1;
}

/* Collects the original vertices of (level, id) into pk->members. */
static void collect(const hierarchy_t *h, packer_t *pk, int level, int id)
{
    if (level == 0) {
        pk->members[pk->nmembers++] = id;
        return;
    }
    for (int k = h->first[level][id]; k < h->first[level][id + 1]; k++)
        collect(h, pk, level - 1, h->child[level][k]);
}

/* Places item (level, id) of weight w in a part, or returns -1 if no part
 * has room for it. Prefers the part it is most connected to, then the
 * tightest fit. */
static int place(const hierarchy_t *h, packer_t *pk, int level, int id, int w)
{
    pk->nmembers = 0;
    collect(h, pk, level, id);
    const sc_csr_t *c = pk->c;
    for (int i = 0; i < pk->nmembers; i++) {
        int v = pk->members[i];
        for (int k = c->xadj[v]; k < c->xadj[v + 1]; k++) {
            int u = pk->part[c->adj[k]];
            if (u < 0)
                continue;
            if (pk->conn[u] == 0)
                pk->touched[pk->ntouched++] = u;
            pk->conn[u] += c->ew[k];
        }
    }
    int best = -1;
    for (int i = 0; i < pk->ntouched; i++) {
        int u = pk->touched[i];
        if (pk->room[u] >= w &&
            (best < 0 || pk->conn[u] > pk->conn[best] ||
             (pk->conn[u] == pk->conn[best] &&
              (pk->room[u] < pk->room[best] || (pk->room[u] == pk->room[best] && u < best)))))
            best = u;
    }
    for (int i = 0; i < pk->ntouched; i++)
        pk->conn[pk->touched[i]] = 0;
    pk->ntouched = 0;
    if (best < 0)
        best = best_fit(pk, w);
    if (best < 0)
        return -1;
    for (int i = 0; i < pk->nmembers; i++)
        pk->part[pk->members[i]] = best;
    pk->room[best] -= w;
    return by_room_push(pk, pk->room[best], best) < 0 ? -2 : 0;
}

typedef struct {
    int level, id;
} item_t;

/* Items waiting to be placed, bucketed by weight. */
typedef struct {
    int maxw;
    item_t **bucket;
    int *count;
    size_t *cap;
} queue_t;

static int queue_push(queue_t *q, int w, item_t it)
{
    item_t *b = sc_grow(q->bucket[w], (size_t)q->count[w], &q->cap[w], 64, sizeof *b);
    if (!b)
        return -1;
    q->bucket[w] = b;
    b[q->count[w]++] = it;
    return 0;
}

/* Packs the top level's vertices into parts, heaviest first; an item that
 * fits no part is replaced by its children, which are lighter, so they are
 * met later in the same sweep. */
static sc_err_t pack(const hierarchy_t *h, const sc_csr_t *c, int nparts, const int *capacity,
                     int *part)
{
    packer_t pk = {.c = c, .nparts = nparts, .part = part};
    for (int u = 0; u < nparts; u++)
        if (capacity[u] > pk.maxcap)
            pk.maxcap = capacity[u];
    int top = h->levels - 1;
    queue_t q = {.maxw = pk.maxcap};
    for (int v = 0; v < h->n[top]; v++)
        if (h->vw[top][v] > q.maxw)
            q.maxw = h->vw[top][v];
    pk.room = malloc((size_t)nparts * sizeof *pk.room);
    pk.by_room = calloc((size_t)pk.maxcap + 1, sizeof *pk.by_room);
    pk.nby_room = calloc((size_t)pk.maxcap + 1, sizeof *pk.nby_room);
    pk.cap_by_room = calloc((size_t)pk.maxcap + 1, sizeof *pk.cap_by_room);
    pk.conn = calloc((size_t)nparts, sizeof *pk.conn);
    pk.touched = malloc((size_t)nparts * sizeof *pk.touched);
    pk.members = malloc((size_t)c->n * sizeof *pk.members);
    q.bucket = calloc((size_t)q.maxw + 1, sizeof *q.bucket);
    q.count = calloc((size_t)q.maxw + 1, sizeof *q.count);
    q.cap = calloc((size_t)q.maxw + 1, sizeof *q.cap);
    int oom = !pk.room || !pk.by_room || !pk.nby_room || !pk.cap_by_room || !pk.conn ||
              !pk.touched || !pk.members || !q.bucket || !q.count || !q.cap;
    for (int v = 0; v < c->n; v++)
        part[v] = -1;
    for (int u = nparts - 1; u >= 0 && !oom; u--) {
        pk.room[u] = capacity[u];
        oom = by_room_push(&pk, capacity[u], u) < 0;
    }
    for (int id = 0; id < h->n[top] && !oom; id++)
        oom = queue_push(&q, h->vw[top][id], (item_t){top, id}) < 0;
    for (int w = q.maxw; w >= 1 && !oom; w--)
        for (int i = 0; i < q.count[w] && !oom; i++) {
            item_t it = q.bucket[w][i];
            int placed = place(h, &pk, it.level, it.id, w);
            oom = placed == -2;
            if (placed != -1)
                continue;
            for (int k = h->first[it.level][it.id]; k < h->first[it.level][it.id + 1] && !oom; k++) {
                int ch = h->child[it.level][k];
                oom = queue_push(&q, h->vw[it.level - 1][ch], (item_t){it.level - 1, ch}) < 0;
            }
        }
    for (int r = 0; pk.by_room && r <= pk.maxcap; r++)
        free(pk.by_room[r]);
    for (int w = 0; q.bucket && w <= q.maxw; w++)
        free(q.bucket[w]);
    free(q.bucket);
    free(q.count);
    free(q.cap);
    free(pk.room);
    free(pk.by_room);
    free(pk.nby_room);
    free(pk.cap_by_room);
    free(pk.conn);
    free(pk.touched);
    free(pk.members);
    return oom ? sc_error(SC_ERR_RUN, "out of memory packing the partition") : SC_OK;
}

/* Swaps pairs of vertices between parts while that lowers the cut: sizes
 * never change. For each vertex u with a neighbouring part B it would
 * rather be in, the best partner v of B is found by scanning B's members.
 * Passes repeat until none improves (at most max_passes). */
static sc_err_t refine(const sc_csr_t *c, int nparts, const int *capacity, int *part,
                       int max_passes)
{
    int n = c->n;
    int *start = malloc(((size_t)nparts + 1) * sizeof *start);
    int *slot = malloc((size_t)n * sizeof *slot);   /* members of part u: slot[start[u]..] */
    int *where = malloc((size_t)n * sizeof *where); /* index of v in slot */
    double *conn = calloc((size_t)nparts, sizeof *conn);
    int *touched = malloc((size_t)nparts * sizeof *touched);
    double *to_u = calloc((size_t)n, sizeof *to_u); /* w(u, v) for the current u */
    if (!start || !slot || !where || !conn || !touched || !to_u) {
        free(start);
        free(slot);
        free(where);
        free(conn);
        free(touched);
        free(to_u);
        return sc_error(SC_ERR_RUN, "out of memory refining the partition");
    }
    start[0] = 0;
    for (int u = 0; u < nparts; u++)
        start[u + 1] = start[u] + capacity[u];
    int *fill = touched; /* borrowed before use as a touched list */
    memcpy(fill, start, (size_t)nparts * sizeof *fill);
    for (int v = 0; v < n; v++) {
        where[v] = fill[part[v]]++;
        slot[where[v]] = v;
    }
    for (int pass = 0; pass < max_passes; pass++) {
        int swaps = 0;
        for (int u = 0; u < n; u++) {
            int a = part[u], ntouched = 0;
            for (int k = c->xadj[u]; k < c->xadj[u + 1]; k++) {
                int b = part[c->adj[k]];
                if (conn[b] == 0)
                    touched[ntouched++] = b;
                conn[b] += c->ew[k];
                to_u[c->adj[k]] += c->ew[k];
            }
            double best = 0;
            int best_v = -1;
            for (int t = 0; t < ntouched; t++) {
                int b = touched[t];
                double gain_u = conn[b] - conn[a];
                if (b == a || gain_u <= 0)
                    continue;
                for (int s = start[b]; s < start[b + 1]; s++) {
                    int v = slot[s];
                    double v_in_a = 0, v_in_b = 0;
                    for (int k = c->xadj[v]; k < c->xadj[v + 1]; k++) {
                        int pb = part[c->adj[k]];
                        if (pb == a)
                            v_in_a += c->ew[k];
                        else if (pb == b)
                            v_in_b += c->ew[k];
                    }
                    double total = gain_u + (v_in_a - v_in_b) - 2 * to_u[v];
                    if (total > best) {
                        best = total;
                        best_v = v;
                    }
                }
            }
            for (int t = 0; t < ntouched; t++)
                conn[touched[t]] = 0;
            for (int k = c->xadj[u]; k < c->xadj[u + 1]; k++)
                to_u[c->adj[k]] = 0;
            if (best_v >= 0) {
                int b = part[best_v];
                part[best_v] = a;
                part[u] = b;
                int wu = where[u], wv = where[best_v];
                slot[wu] = best_v;
                slot[wv] = u;
                where[u] = wv;
                where[best_v] = wu;
                swaps++;
            }
        }
        if (!swaps)
            break;
    }
    free(start);
    free(slot);
    free(where);
    free(conn);
    free(touched);
    free(to_u);
    return SC_OK;
}

/* Reference 004's merging as a one-level hierarchy: heaviest edges first,
 * merge two groups while together they still fit the largest part. */
static sc_err_t greedy_groups(const sc_csr_t *c, int maxcap, hierarchy_t *h)
{
    int n = c->n, m;
    edge_t *edges = sorted_edges(c, &m);
    int *leader = malloc((size_t)n * sizeof *leader);
    int *size = malloc((size_t)n * sizeof *size);
    int *mapping = malloc((size_t)n * sizeof *mapping);
    sc_err_t err = SC_OK;
    if (!edges || !leader || !size || !mapping) {
        err = sc_error(SC_ERR_RUN, "out of memory grouping the graph");
        goto cleanup;
    }
    for (int v = 0; v < n; v++) {
        leader[v] = v;
        size[v] = 1;
    }
    for (int e = 0; e < m; e++) {
        int a = edges[e].a, b = edges[e].b;
        while (leader[a] != a)
            a = leader[a] = leader[leader[a]];
        while (leader[b] != b)
            b = leader[b] = leader[leader[b]];
        if (a != b && size[a] + size[b] <= maxcap) {
            if (a > b) {
                int t = a;
                a = b;
                b = t;
            }
            leader[b] = a;
            size[a] += size[b];
        }
    }
    int groups = 0;
    for (int v = 0; v < n; v++) {
        int r = v;
        while (leader[r] != r)
            r = leader[r];
        mapping[v] = r == v ? groups++ : mapping[r];
    }
    err = hierarchy_push(h, mapping, groups);
cleanup:
    free(edges);
    free(leader);
    free(size);
    free(mapping);
    return err;
}

sc_err_t sc_partition(const sc_graph_t *graph, int nparts, const int *capacity,
                      sc_partitioner_t how, int *part)
{
    int n = graph->size, total = 0, maxcap = 0;
    for (int u = 0; u < nparts; u++) {
        if (capacity[u] < 0)
            return sc_error(SC_ERR_INPUT, "partition: part %d has capacity %d; use >= 0", u,
                            capacity[u]);
        total += capacity[u];
        if (capacity[u] > maxcap)
            maxcap = capacity[u];
    }
    if (total != n)
        return sc_error(SC_ERR_INPUT,
                        "partition: the %d parts hold %d vertices but the graph has %d", nparts,
                        total, n);
    if (how == SC_PARTITIONER_SCOTCH || how == SC_PARTITIONER_METIS)
        return sc_partition_external(graph, nparts, capacity, how, part);
    sc_csr_t c = {0};
    hierarchy_t h = {0};
    sc_err_t err = sc_csr_from_igraph(&graph->graph, &graph->weight, &c);
    if (err)
        return err;
    h.levels = 1;
    h.n = malloc(sizeof *h.n);
    h.vw = malloc(sizeof *h.vw);
    h.first = calloc(1, sizeof *h.first);
    h.child = calloc(1, sizeof *h.child);
    if (!h.n || !h.vw || !h.first || !h.child || !(h.vw[0] = malloc((size_t)n * sizeof **h.vw))) {
        if (h.vw)
            h.vw[0] = NULL;
        err = sc_error(SC_ERR_RUN, "out of memory partitioning %d vertices", n);
        goto cleanup;
    }
    h.n[0] = n;
    for (int v = 0; v < n; v++)
        h.vw[0][v] = 1;
    if (how == SC_PARTITIONER_GREEDY)
        err = greedy_groups(&c, maxcap, &h);
    else
        err = coarsen(graph, maxcap, nparts, &h);
    if (!err)
        err = pack(&h, &c, nparts, capacity, part);
    if (!err && how == SC_PARTITIONER_MULTILEVEL)
        err = refine(&c, nparts, capacity, part, 20);
cleanup:
    hierarchy_free(&h);
    sc_csr_free(&c);
    return err;
}
