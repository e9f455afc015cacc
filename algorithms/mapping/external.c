/* The external partitioners, Scotch and METIS, behind sc_partition.
 *
 * Both are optional at build time (CMake defines SIMCOLL_HAVE_SCOTCH and
 * SIMCOLL_HAVE_METIS where it finds them); this file is the only one that
 * calls them, as algorithms/mapping is the only layer that partitions.
 *
 * simcoll's parts have exact sizes (part u holds the ranks of node u), but
 * both libraries balance only up to a tolerance, even when told the target
 * weights: METIS's smallest imbalance is a ratio above 1, and Scotch's
 * balance 0 is a goal its refinement may miss. So each gets the parts'
 * sizes as target weights and the tightest balance it takes, and what it
 * still leaves over or under is repaired here, deterministically: vertices
 * move from the parts holding too many to those holding too few, each time
 * the move that adds least to the cut (sc_partition_make_exact).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "external.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h> /* scotch.h declares functions of FILE * */
#include <stdlib.h>
#include <string.h>

#include "csr.h"

#ifdef SIMCOLL_HAVE_SCOTCH
#include <scotch.h>
#endif
#ifdef SIMCOLL_HAVE_METIS
#include <metis.h>
#endif

/* The seed both libraries draw their random choices from: a fixed one, so
 * that the same graph gives the same partition on every run. */
enum { EXTERNAL_SEED = 1 };

int sc_partitioner_available(sc_partitioner_t how)
{
    switch (how) {
    case SC_PARTITIONER_MULTILEVEL:
    case SC_PARTITIONER_GREEDY:
        return 1;
    case SC_PARTITIONER_SCOTCH:
#ifdef SIMCOLL_HAVE_SCOTCH
        return 1;
#else
        return 0;
#endif
    case SC_PARTITIONER_METIS:
#ifdef SIMCOLL_HAVE_METIS
        return 1;
#else
        return 0;
#endif
    }
    return 0;
}

const char *sc_partitioners_available(void)
{
    static char list[64];
    if (!list[0])
        for (int how = 0; how < SC_PARTITIONERS; how++)
            if (sc_partitioner_available((sc_partitioner_t)how)) {
                if (list[0])
                    strcat(list, ", ");
                strcat(list, sc_partitioner_name((sc_partitioner_t)how));
            }
    return list;
}

/* ---- Making the sizes exact ------------------------------------------ */

/* A candidate move: vertex v, whose move would add `loss` to the cut. */
typedef struct {
    double loss;
    int v;
} move_t;

typedef struct {
    move_t *at;
    size_t count, cap;
} heap_t;

/* Least loss first, then the smaller vertex: a total order, so that the
 * repair does not depend on the heap's layout. */
static int before(move_t x, move_t y)
{
    return x.loss < y.loss || (x.loss == y.loss && x.v < y.v);
}

static int heap_push(heap_t *h, move_t m)
{
    if (h->count == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 64;
        move_t *at = realloc(h->at, cap * sizeof *at);
        if (!at)
            return -1;
        h->at = at;
        h->cap = cap;
    }
    size_t i = h->count++;
    while (i > 0 && before(m, h->at[(i - 1) / 2])) {
        h->at[i] = h->at[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->at[i] = m;
    return 0;
}

static move_t heap_pop(heap_t *h)
{
    move_t top = h->at[0], last = h->at[--h->count];
    size_t i = 0;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= h->count)
            break;
        if (child + 1 < h->count && before(h->at[child + 1], h->at[child]))
            child++;
        if (!before(h->at[child], last))
            break;
        h->at[i] = h->at[child];
        i = child;
    }
    if (h->count)
        h->at[i] = last;
    return top;
}

typedef struct {
    const sc_csr_t *c;
    int nparts;
    const int *capacity;
    int *part, *size;
    double *conn;   /* scratch: weight from the vertex to each part */
    int *touched;   /* the parts conn holds */
    int first_room; /* no part before it has room: parts only fill up */
} repair_t;

/* What moving v out of its part adds to the cut at least, and where to:
 * the part with room it is most connected to (the first such on a tie), or
 * the first part with room if it is connected to none. */
static double best_move(repair_t *r, int v, int *to)
{
    const sc_csr_t *c = r->c;
    int ntouched = 0, a = r->part[v];
    for (int k = c->xadj[v]; k < c->xadj[v + 1]; k++) {
        int b = r->part[c->adj[k]];
        if (r->conn[b] == 0)
            r->touched[ntouched++] = b;
        r->conn[b] += c->ew[k];
    }
    int best = -1;
    for (int t = 0; t < ntouched; t++) {
        int b = r->touched[t];
        if (b != a && r->size[b] < r->capacity[b] &&
            (best < 0 || r->conn[b] > r->conn[best] || (r->conn[b] == r->conn[best] && b < best)))
            best = b;
    }
    double loss = r->conn[a] - (best >= 0 ? r->conn[best] : 0);
    if (best < 0) {
        while (r->size[r->first_room] >= r->capacity[r->first_room])
            r->first_room++;
        best = r->first_room;
    }
    for (int t = 0; t < ntouched; t++)
        r->conn[r->touched[t]] = 0;
    *to = best;
    return loss;
}

static int over(const repair_t *r, int v)
{
    return r->size[r->part[v]] > r->capacity[r->part[v]];
}

/* Every vertex of a part over its size has a move in the heap, keyed by its
 * loss when pushed. A popped move whose loss has grown since (its
 * neighbours or the parts with room changed) goes back with the new one;
 * a vertex whose neighbour moves is pushed again, as its loss may have
 * fallen. So each move made is the least loss of all. */
static sc_err_t make_exact(const sc_csr_t *c, int nparts, const int *capacity, int *part)
{
    repair_t r = {c, nparts, capacity, part, calloc((size_t)nparts, sizeof(int)),
                  calloc((size_t)nparts, sizeof(double)), malloc((size_t)nparts * sizeof(int)), 0};
    heap_t h = {0};
    int oom = !r.size || !r.conn || !r.touched;
    for (int v = 0; v < c->n && !oom; v++)
        r.size[part[v]]++;
    for (int v = 0; v < c->n && !oom; v++)
        if (over(&r, v)) {
            int to;
            oom = heap_push(&h, (move_t){best_move(&r, v, &to), v}) < 0;
        }
    while (h.count && !oom) {
        move_t m = heap_pop(&h);
        if (!over(&r, m.v))
            continue;
        int to;
        double loss = best_move(&r, m.v, &to);
        if (loss > m.loss) {
            oom = heap_push(&h, (move_t){loss, m.v}) < 0;
            continue;
        }
        r.size[part[m.v]]--;
        r.size[to]++;
        part[m.v] = to;
        for (int k = c->xadj[m.v]; k < c->xadj[m.v + 1] && !oom; k++) {
            int w = c->adj[k];
            if (over(&r, w))
                oom = heap_push(&h, (move_t){best_move(&r, w, &to), w}) < 0;
        }
    }
    free(h.at);
    free(r.size);
    free(r.conn);
    free(r.touched);
    return oom ? sc_error(SC_ERR_RUN, "out of memory making the parts' sizes exact") : SC_OK;
}

sc_err_t sc_partition_make_exact(const sc_graph_t *graph, int nparts, const int *capacity,
                                 int *part)
{
    sc_csr_t c;
    sc_err_t err = sc_csr_from_igraph(&graph->graph, &graph->weight, &c);
    if (!err)
        err = make_exact(&c, nparts, capacity, part);
    sc_csr_free(&c);
    return err;
}

/* ---- The libraries ----------------------------------------------------- */

#if defined SIMCOLL_HAVE_SCOTCH || defined SIMCOLL_HAVE_METIS
/* Both libraries take integer edge weights, and add them up in the same
 * integers (a part's cut, the whole graph's): 32 bits in Debian's builds
 * (metis.h's IDXTYPEWIDTH 32, scotch.h's SCOTCH_Num an int), where a
 * program's graph can weigh 1e11 bytes. Weights that are whole and whose
 * sum stays within a quarter of the integers' range go as they are;
 * otherwise all are scaled so that the sum does, each rounded and at least
 * 1 (an edge of a few bytes still counts). The scale changes no ratio but
 * by rounding. `largest` is the library integers' maximum. */
static double weight_scale(const sc_csr_t *c, double largest)
{
    double total = 0, limit = largest / 4 - c->nadj;
    int whole = 1;
    for (int k = 0; k < c->nadj; k++) {
        total += c->ew[k];
        whole = whole && c->ew[k] == floor(c->ew[k]);
    }
    return whole && total <= limit ? 1 : limit / total;
}

static double scaled(double w, double scale)
{
    double x = nearbyint(w * scale);
    return x < 1 ? 1 : x;
}

/* The graph as both libraries take it: its CSR arrays in the library's
 * integer type (idx_t, SCOTCH_Num), whose width, 4 or 8 bytes, each header
 * chooses; the edge weights scaled to stay within that type's range. One
 * element more than used in adj and wgt: neither is empty for a graph
 * without edges. */
typedef struct {
    void *xadj, *adj, *wgt;
} library_graph_t;

static void put_integer(void *array, size_t width, int i, double value)
{
    if (width == 4)
        ((int32_t *)array)[i] = (int32_t)value;
    else
        ((int64_t *)array)[i] = (int64_t)value;
}

/* 0 when memory ran out (what was allocated left for library_graph_free). */
static int library_graph_make(const sc_csr_t *c, size_t width, library_graph_t *g)
{
    g->xadj = malloc(((size_t)c->n + 1) * width);
    g->adj = malloc(((size_t)c->nadj + 1) * width);
    g->wgt = malloc(((size_t)c->nadj + 1) * width);
    if (!g->xadj || !g->adj || !g->wgt)
        return 0;
    double scale = weight_scale(c, width == 4 ? (double)INT32_MAX : (double)INT64_MAX);
    for (int v = 0; v <= c->n; v++)
        put_integer(g->xadj, width, v, c->xadj[v]);
    for (int e = 0; e < c->nadj; e++) {
        put_integer(g->adj, width, e, c->adj[e]);
        put_integer(g->wgt, width, e, scaled(c->ew[e], scale));
    }
    return 1;
}

static void library_graph_free(library_graph_t *g)
{
    free(g->xadj);
    free(g->adj);
    free(g->wgt);
}
#endif

#ifdef SIMCOLL_HAVE_METIS
/* METIS by recursive bisection: target weights the parts' shares of the
 * vertices, and the smallest imbalance it accepts (1.0: METIS adds its own
 * 5e-5). Not k-way: with parts of a node's few ranks its coarsest graph is
 * hardly coarser than the graph, and it cut Bruck's graph of 1000 ranks in
 * 125 parts of 8 at 721714 against bisection's 436008 (multilevel's 428058),
 * and took 2.5 times as long at 65,536 ranks for the same cut. */
static sc_err_t metis_parts(const sc_csr_t *c, int k, const int *size, int *kpart)
{
    _Static_assert(sizeof(idx_t) == 4 || sizeof(idx_t) == 8, "METIS's integers");
    library_graph_t g;
    int made = library_graph_make(c, sizeof(idx_t), &g);
    idx_t *xadj = g.xadj, *adj = g.adj, *wgt = g.wgt;
    idx_t *out = malloc((size_t)c->n * sizeof *out);
    real_t *tpwgts = malloc((size_t)k * sizeof *tpwgts);
    sc_err_t err = SC_OK;
    if (!made || !out || !tpwgts) {
        err = sc_error(SC_ERR_RUN, "out of memory for METIS's graph of %d vertices", c->n);
        goto cleanup;
    }
    for (int u = 0; u < k; u++)
        tpwgts[u] = (real_t)size[u] / (real_t)c->n;
    idx_t nvtxs = c->n, ncon = 1, nparts = k, objval = 0;
    real_t ubvec[1] = {1.0};
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = EXTERNAL_SEED;
    options[METIS_OPTION_NUMBERING] = 0;
    int rc = METIS_PartGraphRecursive(&nvtxs, &ncon, xadj, adj, NULL, NULL, wgt, &nparts, tpwgts,
                                      ubvec, options, &objval, out);
    if (rc != METIS_OK) {
        err = sc_error(SC_ERR_RUN, "METIS failed (code %d) on a graph of %d vertices into %d parts",
                       rc, c->n, k);
        goto cleanup;
    }
    for (int v = 0; v < c->n; v++)
        kpart[v] = (int)out[v];
cleanup:
    library_graph_free(&g);
    free(out);
    free(tpwgts);
    return err;
}
#endif

#ifdef SIMCOLL_HAVE_SCOTCH
/* Scotch maps the graph onto a complete graph of k vertices weighted by
 * the parts' sizes (so the load of each goes by its size), strategy
 * quality and balance with an imbalance ratio of 0. Its context is held to
 * one thread, deterministic, with a fixed seed: by default Scotch 7 runs
 * threads, and its partitions varied from run to run even with a fixed
 * global seed (bench/README.md). */
static sc_err_t scotch_parts(const sc_csr_t *c, int k, const int *size, int *kpart)
{
    /* Debian ships Scotch for 32- and 64-bit integers: the header and the
     * library linked must agree. */
    if (SCOTCH_numSizeof() != (int)sizeof(SCOTCH_Num))
        return sc_error(SC_ERR_RUN,
                        "Scotch's library has %d-byte integers and its header %d-byte ones: "
                        "simcoll was built against another Scotch than it runs with",
                        SCOTCH_numSizeof(), (int)sizeof(SCOTCH_Num));
    _Static_assert(sizeof(SCOTCH_Num) == 4 || sizeof(SCOTCH_Num) == 8, "Scotch's integers");
    library_graph_t g;
    int made = library_graph_make(c, sizeof(SCOTCH_Num), &g);
    SCOTCH_Num *xadj = g.xadj, *adj = g.adj, *wgt = g.wgt;
    SCOTCH_Num *velo = malloc((size_t)k * sizeof *velo);
    SCOTCH_Num *out = malloc((size_t)c->n * sizeof *out);
    sc_err_t err = SC_OK;
    if (!made || !velo || !out) {
        err = sc_error(SC_ERR_RUN, "out of memory for Scotch's graph of %d vertices", c->n);
        goto cleanup;
    }
    for (int u = 0; u < k; u++)
        velo[u] = size[u];
    SCOTCH_randomSeed(EXTERNAL_SEED);
    SCOTCH_randomReset();
    SCOTCH_Context context;
    SCOTCH_Graph graph, bound; /* bound: the graph seen through the context */
    SCOTCH_Arch arch;
    SCOTCH_Strat strat;
    /* Each object is freed below if its init ran; the first failure stops. */
    int have_context = !SCOTCH_contextInit(&context);
    int have_graph = have_context && !SCOTCH_graphInit(&graph);
    int have_bound = have_graph && !SCOTCH_graphInit(&bound);
    int have_arch = have_bound && !SCOTCH_archInit(&arch);
    int have_strat = have_arch && !SCOTCH_stratInit(&strat);
    int failed = !have_strat ||
                 SCOTCH_contextOptionSetNum(&context, SCOTCH_OPTIONNUMDETERMINISTIC, 1) ||
                 SCOTCH_contextOptionSetNum(&context, SCOTCH_OPTIONNUMRANDOMFIXEDSEED, 1) ||
                 SCOTCH_contextRandomClone(&context);
    if (!failed) {
        SCOTCH_contextRandomSeed(&context, EXTERNAL_SEED);
        SCOTCH_contextRandomReset(&context);
        failed = SCOTCH_contextThreadSpawn(&context, 1, NULL) ||
                 SCOTCH_graphBuild(&graph, 0, c->n, xadj, NULL, NULL, NULL, c->nadj, adj, wgt) ||
                 SCOTCH_contextBindGraph(&context, &graph, &bound) ||
                 SCOTCH_archCmpltw(&arch, k, velo) ||
                 SCOTCH_stratGraphMapBuild(&strat, SCOTCH_STRATQUALITY | SCOTCH_STRATBALANCE, k,
                                           0.0) ||
                 SCOTCH_graphMap(&bound, &arch, &strat, out);
    }
    if (have_strat)
        SCOTCH_stratExit(&strat);
    if (have_arch)
        SCOTCH_archExit(&arch);
    if (have_bound)
        SCOTCH_graphExit(&bound);
    if (have_graph)
        SCOTCH_graphExit(&graph);
    if (have_context)
        SCOTCH_contextExit(&context);
    if (failed) {
        err = sc_error(SC_ERR_RUN, "Scotch failed on a graph of %d vertices into %d parts", c->n,
                       k);
        goto cleanup;
    }
    for (int v = 0; v < c->n; v++)
        kpart[v] = (int)out[v];
cleanup:
    library_graph_free(&g);
    free(velo);
    free(out);
    return err;
}
#endif

sc_err_t sc_partition_external(const sc_graph_t *graph, int nparts, const int *capacity,
                               sc_partitioner_t how, int *part)
{
    if (!sc_partitioner_available(how))
        return sc_error(SC_ERR_INPUT,
                        "partition: this build has no %s (built without lib%s-dev); it "
                        "offers %s",
                        sc_partitioner_name(how), sc_partitioner_name(how),
                        sc_partitioners_available());
    int n = graph->size, k = 0;
    if (n == 0)
        return SC_OK;
    /* Parts with no room are left out: the libraries would be asked for
     * parts of weight 0. used[i] is the i-th part with room. */
    int *used = malloc((size_t)nparts * sizeof *used);
    int *size = malloc((size_t)nparts * sizeof *size);
    int *kpart = malloc((size_t)n * sizeof *kpart);
    sc_csr_t c = {0};
    sc_err_t err = used && size && kpart
                       ? SC_OK
                       : sc_error(SC_ERR_RUN, "out of memory partitioning %d vertices", n);
    for (int u = 0; !err && u < nparts; u++)
        if (capacity[u] > 0) {
            used[k] = u;
            size[k++] = capacity[u];
        }
    if (!err && k == 1) {
        for (int v = 0; v < n; v++)
            part[v] = used[0];
        goto cleanup;
    }
    if (err || (err = sc_csr_from_igraph(&graph->graph, &graph->weight, &c)))
        goto cleanup;
#ifdef SIMCOLL_HAVE_SCOTCH
    if (how == SC_PARTITIONER_SCOTCH)
        err = scotch_parts(&c, k, size, kpart);
#endif
#ifdef SIMCOLL_HAVE_METIS
    if (how == SC_PARTITIONER_METIS)
        err = metis_parts(&c, k, size, kpart);
#endif
    for (int v = 0; !err && v < n; v++) {
        if (kpart[v] < 0 || kpart[v] >= k)
            err = sc_error(SC_ERR_RUN, "%s put vertex %d in part %d of 0..%d",
                           sc_partitioner_name(how), v, kpart[v], k - 1);
        else
            part[v] = used[kpart[v]];
    }
    if (!err)
        err = make_exact(&c, nparts, capacity, part);
cleanup:
    sc_csr_free(&c);
    free(used);
    free(size);
    free(kpart);
    return err;
}
