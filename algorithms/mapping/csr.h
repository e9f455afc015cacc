/* A communication graph in compressed adjacency form: what the multilevel
 * partitioner works on (partition.c) and what Scotch and METIS take
 * (external.c).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CSR_H
#define SC_CSR_H

#include <igraph.h>

#include "../../common/sc_error.h"

typedef struct {
    int n;      /* vertices */
    int nadj;   /* adjacency entries: twice the edges */
    int *xadj;  /* n + 1 offsets into adj and ew */
    int *adj;   /* neighbours; each edge appears at both ends */
    double *ew; /* weight of each adjacency entry */
} sc_csr_t;

/* g with edge weights w (igraph's order) into *c; SC_ERR_RUN when memory
 * runs out or the edges do not fit an int twice. Free with sc_csr_free. */
sc_err_t sc_csr_from_igraph(const igraph_t *g, const igraph_vector_t *w, sc_csr_t *c);

/* Frees what c holds and zeroes it. */
void sc_csr_free(sc_csr_t *c);

#endif
