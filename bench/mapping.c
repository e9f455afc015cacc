/* Benchmark of the exact-size partitioners against METIS and Scotch.
 *
 * Records the communication graphs of Bruck and recursive doubling for
 * n ranks (m = 1), cuts them into n/8 parts of 8 vertices, and prints for
 * each method the cut weight, whether every part has exactly 8 vertices,
 * and the best wall time of three runs. METIS and Scotch (Debian libmetis-dev,
 * libscotch-dev) are used here only, for comparison.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <metis.h>
#include <scotch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "algorithms/mapping/partition.h"

enum { PART = 8, REPEATS = 3 };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The graph as METIS and Scotch take it (both 32-bit here). */
typedef struct {
    int n;
    int *xadj, *adj, *wgt;
} csr_t;

static csr_t to_csr(const sc_graph_t *g)
{
    csr_t c = {g->size, calloc((size_t)g->size + 1, sizeof(int)), NULL, NULL};
    igraph_integer_t m = igraph_ecount(&g->graph);
    c.adj = malloc((size_t)(2 * m) * sizeof(int));
    c.wgt = malloc((size_t)(2 * m) * sizeof(int));
    for (igraph_integer_t e = 0; e < m; e++) {
        c.xadj[IGRAPH_FROM(&g->graph, e) + 1]++;
        c.xadj[IGRAPH_TO(&g->graph, e) + 1]++;
    }
    for (int v = 0; v < c.n; v++)
        c.xadj[v + 1] += c.xadj[v];
    int *fill = malloc((size_t)c.n * sizeof *fill);
    memcpy(fill, c.xadj, (size_t)c.n * sizeof *fill);
    for (igraph_integer_t e = 0; e < m; e++) {
        int a = (int)IGRAPH_FROM(&g->graph, e), b = (int)IGRAPH_TO(&g->graph, e);
        int w = (int)VECTOR(g->weight)[e];
        c.adj[fill[a]] = b;
        c.wgt[fill[a]++] = w;
        c.adj[fill[b]] = a;
        c.wgt[fill[b]++] = w;
    }
    free(fill);
    return c;
}

static int exact(const int *part, int n, int nparts)
{
    int *size = calloc((size_t)nparts, sizeof *size);
    int ok = 1;
    for (int v = 0; v < n; v++) {
        if (part[v] < 0 || part[v] >= nparts) {
            ok = 0;
            break;
        }
        size[part[v]]++;
    }
    for (int u = 0; ok && u < nparts; u++)
        ok = size[u] == PART;
    free(size);
    return ok;
}

typedef int (*method_fn)(const sc_graph_t *g, const csr_t *c, int nparts, int *part);

static int by_block(const sc_graph_t *g, const csr_t *c, int nparts, int *part)
{
    (void)g;
    (void)nparts;
    for (int v = 0; v < c->n; v++)
        part[v] = v / PART;
    return 0;
}

static int by_cyclic(const sc_graph_t *g, const csr_t *c, int nparts, int *part)
{
    (void)g;
    for (int v = 0; v < c->n; v++)
        part[v] = v % nparts;
    return 0;
}

static int by_simcoll(const sc_graph_t *g, int nparts, sc_partitioner_t how, int *part)
{
    int *cap = malloc((size_t)nparts * sizeof *cap);
    for (int u = 0; u < nparts; u++)
        cap[u] = PART;
    int err = sc_partition(g, nparts, cap, how, part);
    free(cap);
    return err;
}

static int by_multilevel(const sc_graph_t *g, const csr_t *c, int nparts, int *part)
{
    (void)c;
    return by_simcoll(g, nparts, SC_PARTITIONER_MULTILEVEL, part);
}

static int by_greedy(const sc_graph_t *g, const csr_t *c, int nparts, int *part)
{
    (void)c;
    return by_simcoll(g, nparts, SC_PARTITIONER_GREEDY, part);
}

/* METIS k-way with the smallest imbalance it accepts (ufactor 1: 0.1%). */
static int by_metis(const sc_graph_t *g, const csr_t *c, int nparts, int *part)
{
    (void)g;
    idx_t n = c->n, ncon = 1, np = nparts, objval;
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_UFACTOR] = 1;
    int rc = METIS_PartGraphKway(&n, &ncon, c->xadj, c->adj, NULL, NULL, c->wgt, &np, NULL, NULL,
                                 options, &objval, part);
    return rc == METIS_OK ? 0 : 1;
}

/* Scotch's partitioner asked for quality and exact balance. Its random
 * generator is seeded from the clock unless told otherwise: a fixed seed
 * makes the comparison repeatable. */
static int by_scotch(const sc_graph_t *g, const csr_t *c, int nparts, int *part)
{
    (void)g;
    SCOTCH_randomSeed(1);
    SCOTCH_randomReset();
    SCOTCH_Graph graph;
    SCOTCH_Strat strat;
    int rc = SCOTCH_graphInit(&graph) || SCOTCH_stratInit(&strat) ||
             SCOTCH_graphBuild(&graph, 0, c->n, c->xadj, NULL, NULL, NULL, c->xadj[c->n], c->adj,
                               c->wgt) ||
             SCOTCH_stratGraphMapBuild(&strat, SCOTCH_STRATQUALITY | SCOTCH_STRATBALANCE, nparts,
                                       0.0) ||
             SCOTCH_graphPart(&graph, nparts, &strat, part);
    SCOTCH_stratExit(&strat);
    SCOTCH_graphExit(&graph);
    return rc;
}

/* Process counts: the arguments (multiples of 8), or 1024, 16384, 65536. */
int main(int argc, char **argv)
{
    int sizes[32] = {1024, 16384, 65536}, nsizes = 3;
    if (argc > 1)
        for (nsizes = 0; nsizes < argc - 1 && nsizes < 32; nsizes++)
            sizes[nsizes] = atoi(argv[nsizes + 1]);
    static const char *const algos[] = {"bruck", "rd"};
    static const struct {
        const char *name;
        method_fn fn;
    } methods[] = {{"block", by_block},         {"cyclic", by_cyclic},
                   {"simcoll-multilevel", by_multilevel}, {"simcoll-greedy", by_greedy},
                   {"metis-5.1", by_metis},     {"scotch-7.0", by_scotch}};
    printf("%-6s %6s %-19s %12s %12s %6s %10s\n", "graph", "n", "method", "cut", "of total",
           "exact", "seconds");
    for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++)
        for (int s = 0; s < nsizes; s++) {
            int n = sizes[s], nparts = n / PART;
            if (n < PART || n % PART) {
                fprintf(stderr, "bench: %d is not a positive multiple of %d\n", n, PART);
                return 2;
            }
            sc_graph_t g;
            const sc_algo_t *algo = sc_algo_find(algos[a]);
            if (sc_algo_check(algo, n))
                continue; /* recursive doubling needs a power of two */
            if (sc_graph_record(algo, n, 0, &g)) {
                fprintf(stderr, "bench: %s\n", sc_error_message());
                return 1;
            }
            csr_t c = to_csr(&g);
            int *part = malloc((size_t)n * sizeof *part);
            int *node = malloc((size_t)n * sizeof *node);
            for (size_t k = 0; k < sizeof methods / sizeof methods[0]; k++) {
                double best = 1e300;
                int failed = 0;
                for (int rep = 0; rep < REPEATS && !failed; rep++) {
                    double t0 = now();
                    failed = methods[k].fn(&g, &c, nparts, part);
                    double t = now() - t0;
                    if (t < best)
                        best = t;
                }
                if (failed) {
                    printf("%-6s %6d %-19s %s\n", algos[a], n, methods[k].name, "failed");
                    continue;
                }
                for (int v = 0; v < n; v++)
                    node[v] = part[v];
                printf("%-6s %6d %-19s %12.0f %12.0f %6s %10.4f\n", algos[a], n, methods[k].name,
                       sc_graph_cut(&g, node), g.total_weight, exact(part, n, nparts) ? "yes" : "NO",
                       best);
                fflush(stdout);
            }
            free(part);
            free(node);
            free(c.xadj);
            free(c.adj);
            free(c.wgt);
            sc_graph_destroy(&g);
        }
    return 0;
}
