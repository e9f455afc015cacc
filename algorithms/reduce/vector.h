/* What the reduction algorithms share: element spans of the vector (the
 * span type is the cost models' too), local combining, and recursive
 * halving and doubling within a group of ranks.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_REDUCE_VECTOR_H
#define SC_REDUCE_VECTOR_H

#include "algorithms/steps.h"
#include "../registry.h"

/* public: in simcoll.h, the plug-ins' API (algorithms/plugin/) */
/* The number of elements of the vector. */
size_t sc_vector_elems(const sc_coll_args_t *args);

/* Byte offset / length of a span. */
size_t sc_span_offset(const sc_coll_args_t *args, sc_span_t s);
size_t sc_span_bytes(const sc_coll_args_t *args, sc_span_t s);

/* Combines `in`, which holds span s, into span s of `vec` with args->op,
 * and spends the time of it. In size-only runs only the time is spent. */
sc_err_t sc_vector_combine(sc_comm_t *comm, const sc_coll_args_t *args, char *vec,
                           const char *in, sc_span_t s);
/* end public */

/* Point-to-point calls on spans of a vector: span s (or `out`) of vec goes
 * to dst; span s (or `in`) from src lands in place in vec, or, for the
 * _combine calls, in tmp (which holds it from its start) and is then
 * combined into vec (sc_vector_combine). sendrecv is sc_sendrecv. */
sc_err_t sc_vector_send(sc_comm_t *comm, const sc_coll_args_t *args, const char *vec,
                        sc_span_t s, int dst, int tag);
sc_err_t sc_vector_recv(sc_comm_t *comm, const sc_coll_args_t *args, char *vec, sc_span_t s,
                        int src, int tag);
sc_err_t sc_vector_recv_combine(sc_comm_t *comm, const sc_coll_args_t *args, char *vec,
                                char *tmp, sc_span_t s, int src, int tag);
sc_err_t sc_vector_sendrecv(sc_comm_t *comm, const sc_coll_args_t *args, char *vec,
                            sc_span_t out, int dst, sc_span_t in, int src, int tag);
sc_err_t sc_vector_sendrecv_combine(sc_comm_t *comm, const sc_coll_args_t *args, char *vec,
                                    char *tmp, sc_span_t out, int dst, sc_span_t in, int src,
                                    int tag);

/* This rank as member `me` of a power-of-two group of ranks: all that
 * halving and doubling need to know of the group are the ranks of the
 * members it pairs with. */
typedef struct {
    int size;
    int me;
    int peer[31]; /* peer[s]: the rank of member me XOR 2^s */
} sc_group_t;

/* Recursive halving (Rabenseifner): at step mask = 1, 2, 4, ... member k
 * and member k XOR mask split the span both hold partial results for; the
 * one without `mask` in its index keeps the lower half and sends the upper,
 * each combines the half it keeps. The largest halves go to the nearest
 * members, which block placement puts on one node. On entry vec holds this
 * rank's partial result over `whole`; on return it holds the result over
 * the group for one block of `whole`, whose span goes to *mine unless that
 * is NULL. Message sizes fall from len/2 to len/size. tmp must hold
 * ceil(len/2) elements. */
sc_err_t sc_group_halving(sc_comm_t *comm, const sc_coll_args_t *args, const sc_group_t *g,
                          char *vec, char *tmp, sc_span_t whole, int tag, sc_span_t *mine);

/* After sc_group_halving: the steps in reverse, exchanging what each holds,
 * so that every member holds the whole span (recursive doubling). */
sc_err_t sc_group_doubling(sc_comm_t *comm, const sc_coll_args_t *args, const sc_group_t *g,
                           char *vec, sc_span_t whole, int tag);

/* After sc_group_halving: the steps in reverse, with only the member
 * without `mask` in its index receiving, so that member 0 ends up with the
 * whole span (a binomial gather). */
sc_err_t sc_group_gather(sc_comm_t *comm, const sc_coll_args_t *args, const sc_group_t *g,
                         char *vec, sc_span_t whole, int tag);

/* The rank at virtual rank v, ranks being numbered from the root. */
static inline int sc_rank_of_virtual(const sc_comm_t *comm, int root, int v)
{
    return (v + root) % comm->size;
}

/* public: in simcoll.h, the plug-ins' API (algorithms/plugin/) */
/* Copies this rank's input into recvbuf, where the algorithms work. */
void sc_vector_start(sc_comm_t *comm, const sc_coll_args_t *args);

/* A temporary buffer for `elems` elements (sc_buf_alloc); SC_ERR_RUN if
 * memory runs out. Free it with sc_buf_free. */
sc_err_t sc_vector_alloc(sc_comm_t *comm, const sc_coll_args_t *args, size_t elems,
                         char **buf);
/* end public */

#endif
