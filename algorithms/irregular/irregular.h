/* The collectives a recorded application calls that simcoll has no
 * algorithms of its own to choose from (algorithms/kinds.h has none of
 * their kind, or their blocks differ from rank to rank), each run as one
 * MPI library's own exchange, on sizes only: buffers are the run's
 * scratch, and receives take whatever size is sent. Each file names the
 * library code it follows.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_IRREGULAR_H
#define SC_IRREGULAR_H

#include <stddef.h>

#include "../p2p.h"

/* Tags of their own, beside algorithms/collectives.h's. */
enum {
    SC_TAG_GATHER = 40,
    SC_TAG_SCATTERV,
    SC_TAG_ALLGATHERV,
    SC_TAG_ALLTOALL,
    SC_TAG_SCAN,
};

/* Gather of `bytes` from every rank to `root`: a binomial tree whose
 * messages grow with the subtree (MPICH's MPIR_Gather_intra_binomial;
 * Open MPI's tuned gather for short messages). */
sc_err_t sc_gather_binomial(sc_comm_t *comm, size_t bytes, int root);

/* Gatherv: every rank sends its `bytes` to `root`, which receives from
 * each in rank order (MPICH's MPIR_Gatherv_intra_linear, Open MPI's
 * basic linear). */
sc_err_t sc_gatherv_linear(sc_comm_t *comm, size_t bytes, int root);

/* Scatterv: `root` sends counts[i] bytes to rank i (counts is the root's;
 * the others' may be NULL), each rank receives its own (MPICH's
 * MPIR_Scatterv_intra_linear). */
sc_err_t sc_scatterv_linear(sc_comm_t *comm, const size_t *counts, int root);

/* Allgatherv on a ring: in step k, rank r passes on the block of rank
 * r - k to r + 1; counts[i] is rank i's block (MPICH's
 * MPIR_Allgatherv_intra_ring, its choice for long messages). */
sc_err_t sc_allgatherv_ring(sc_comm_t *comm, const size_t *counts);

/* Alltoall(v): counts[j] bytes to each rank j. linear posts every receive
 * and send at once and waits for all (MPICH's medium-message
 * MPIR_Alltoall_intra_scattered, Open MPI's basic linear alltoallv);
 * pairwise exchanges with rank r + k and r - k in step k (MPICH's
 * MPIR_Alltoall_intra_pairwise for long messages). */
sc_err_t sc_alltoallv_linear(sc_comm_t *comm, const size_t *counts);
sc_err_t sc_alltoallv_pairwise(sc_comm_t *comm, const size_t *counts);

/* Scan (and exscan) of a `bytes` vector by recursive doubling, combining
 * what comes in (MPICH's MPIR_Scan_intra_recursive_doubling). */
sc_err_t sc_scan_rd(sc_comm_t *comm, size_t bytes);

#endif
