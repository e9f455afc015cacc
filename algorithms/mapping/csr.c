/* A communication graph in compressed adjacency form.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "csr.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

void sc_csr_free(sc_csr_t *c)
{
    free(c->xadj);
    free(c->adj);
    free(c->ew);
    memset(c, 0, sizeof *c);
}

sc_err_t sc_csr_from_igraph(const igraph_t *g, const igraph_vector_t *w, sc_csr_t *c)
{
    int n = (int)igraph_vcount(g);
    igraph_integer_t m = igraph_ecount(g);
    *c = (sc_csr_t){0};
    if (m > INT_MAX / 2)
        return sc_error(SC_ERR_RUN, "partition: a graph of %lld edges is too large", (long long)m);
    c->n = n;
    c->nadj = (int)(2 * m);
    c->xadj = calloc((size_t)n + 1, sizeof *c->xadj);
    c->adj = malloc((size_t)(2 * m + 1) * sizeof *c->adj);
    c->ew = malloc((size_t)(2 * m + 1) * sizeof *c->ew);
    int *fill = malloc(((size_t)n + 1) * sizeof *fill);
    if (!c->xadj || !c->adj || !c->ew || !fill) {
        free(fill);
        sc_csr_free(c);
        return sc_error(SC_ERR_RUN, "out of memory for a graph of %d vertices", n);
    }
    for (igraph_integer_t e = 0; e < m; e++) {
        c->xadj[IGRAPH_FROM(g, e) + 1]++;
        c->xadj[IGRAPH_TO(g, e) + 1]++;
    }
    for (int v = 0; v < n; v++)
        c->xadj[v + 1] += c->xadj[v];
    memcpy(fill, c->xadj, ((size_t)n + 1) * sizeof *fill);
    for (igraph_integer_t e = 0; e < m; e++) {
        int a = (int)IGRAPH_FROM(g, e), b = (int)IGRAPH_TO(g, e);
        double we = VECTOR(*w)[e];
        c->adj[fill[a]] = b;
        c->ew[fill[a]++] = we;
        c->adj[fill[b]] = a;
        c->ew[fill[b]++] = we;
    }
    free(fill);
    return SC_OK;
}
