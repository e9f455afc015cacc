/* The algorithms Open MPI 4.1's coll/tuned picks (models/openmpi.h has its
 * rules) that simcoll did not have, from ompi/mca/coll/base/ at tag v4.1.6,
 * unsegmented as coll/tuned's fixed rules run them (segsize 0, fanout 0).
 * Each file's header comment names the Open MPI function it follows.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_OPENMPI_ALGORITHMS_H
#define SC_OPENMPI_ALGORITHMS_H

#include "../registry.h"

/* Broadcasts (bcast.c). Open MPI counts elements; a broadcast of simcoll's
 * is `bytes` single bytes (MPI_BYTE). */
sc_err_t sc_bcast_ompi_linear(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_bcast_ompi_chain(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_bcast_ompi_bintree(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_bcast_ompi_binomial(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_bcast_ompi_knomial(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_bcast_ompi_split_bintree(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_bcast_ompi_scatter_allgather(sc_comm_t *comm, const sc_coll_args_t *args);

/* Open MPI 5.0's coll/han (han.c): 64 KiB segments among the ranks of the
 * root's local rank, then on each node by tuned's rules, or by the
 * algorithm coll_tuned_bcast_algorithm forces there. */
sc_err_t sc_bcast_ompi_han(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_bcast_ompi_han_linear(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_bcast_ompi_han_chain(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_bcast_ompi_han_bintree(sc_comm_t *comm, const sc_coll_args_t *args);

/* The broadcast coll/tuned's rule picks for args->bytes on comm, on
 * elements of `elem` bytes (the data type of the allreduce calling it). */
sc_err_t sc_bcast_ompi_tuned(sc_comm_t *comm, const sc_coll_args_t *args, size_t elem);

/* Reductions (reduce.c, allreduce.c). */
sc_err_t sc_reduce_ompi_linear(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_reduce_ompi_chain(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_reduce_ompi_binary(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_reduce_ompi_binomial(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_reduce_ompi_in_order_binary(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_reduce_ompi_redscat_gather(sc_comm_t *comm, const sc_coll_args_t *args);

/* The reduce coll/tuned's rule picks for args->bytes on comm. */
sc_err_t sc_reduce_ompi_tuned(sc_comm_t *comm, const sc_coll_args_t *args);

sc_err_t sc_allreduce_ompi_linear(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_allreduce_ompi_nonoverlapping(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_allreduce_ompi_ring(sc_comm_t *comm, const sc_coll_args_t *args);
/* The segmented ring of Open MPI 3.1 / 4.0's rules, 1 MiB segments
 * (SC_OMPI_RING_SEGMENT); _by takes the segment in bytes (0: the ring). */
sc_err_t sc_allreduce_ompi_ring_segmented(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_allreduce_ompi_ring_segmented_by(sc_comm_t *comm, const sc_coll_args_t *args,
                                             size_t segsize);

/* Barriers (barrier.c). */
sc_err_t sc_barrier_ompi_linear(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_barrier_ompi_rd(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_barrier_ompi_tree(sc_comm_t *comm, const sc_coll_args_t *args);

/* Allgather (allgather.c). */
sc_err_t sc_allgather_ompi_neighbor(sc_comm_t *comm, const sc_coll_args_t *args);

/* Scatters (scatter.c): coll_tuned_scatter_algorithm 1 basic_linear, 3
 * linear_nb, 2 binomial. */
sc_err_t sc_scatter_ompi_linear(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_scatter_ompi_linear_nb(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_scatter_ompi_binomial(sc_comm_t *comm, const sc_coll_args_t *args);

/* The scatter coll/tuned's fixed rule picks for args->bytes on comm. */
sc_err_t sc_scatter_ompi_tuned(sc_comm_t *comm, const sc_coll_args_t *args);

/* Open MPI 5.0's coll/han scatter (han.c): the blocks of each node to the
 * rank of the root's local rank there, then each node by tuned's rules, or
 * by the algorithm coll_tuned_scatter_algorithm forces there. */
sc_err_t sc_scatter_ompi_han(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_scatter_ompi_han_linear(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_scatter_ompi_han_linear_nb(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_scatter_ompi_han_binomial(sc_comm_t *comm, const sc_coll_args_t *args);

#endif
