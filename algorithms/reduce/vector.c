/* What the reduction algorithms share: element spans of the vector, local
 * combining, and recursive halving and doubling within a group of ranks.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "vector.h"

size_t sc_vector_elems(const sc_coll_args_t *args)
{
    return args->bytes / sc_type_size(args->type);
}

size_t sc_span_offset(const sc_coll_args_t *args, sc_span_t s)
{
    return s.lo * sc_type_size(args->type);
}

size_t sc_span_bytes(const sc_coll_args_t *args, sc_span_t s)
{
    return sc_span_len(s) * sc_type_size(args->type);
}

sc_err_t sc_vector_combine(sc_comm_t *comm, const sc_coll_args_t *args, char *vec,
                           const char *in, sc_span_t s)
{
    if (!comm->scratch)
        sc_op_apply(args->op, args->type, vec + sc_span_offset(args, s), in, sc_span_len(s));
    return sc_reduce_time(comm, sc_span_bytes(args, s));
}

sc_err_t sc_vector_send(sc_comm_t *comm, const sc_coll_args_t *args, const char *vec,
                        sc_span_t s, int dst, int tag)
{
    return sc_send(comm, vec + sc_span_offset(args, s), sc_span_bytes(args, s), dst, tag);
}

sc_err_t sc_vector_recv(sc_comm_t *comm, const sc_coll_args_t *args, char *vec, sc_span_t s,
                        int src, int tag)
{
    return sc_recv(comm, vec + sc_span_offset(args, s), sc_span_bytes(args, s), src, tag);
}

sc_err_t sc_vector_recv_combine(sc_comm_t *comm, const sc_coll_args_t *args, char *vec,
                                char *tmp, sc_span_t s, int src, int tag)
{
    sc_err_t err = sc_recv(comm, tmp, sc_span_bytes(args, s), src, tag);
    return err ? err : sc_vector_combine(comm, args, vec, tmp, s);
}

sc_err_t sc_vector_sendrecv(sc_comm_t *comm, const sc_coll_args_t *args, char *vec,
                            sc_span_t out, int dst, sc_span_t in, int src, int tag)
{
    return sc_sendrecv(comm, vec + sc_span_offset(args, out), sc_span_bytes(args, out), dst, tag,
                       vec + sc_span_offset(args, in), sc_span_bytes(args, in), src, tag);
}

sc_err_t sc_vector_sendrecv_combine(sc_comm_t *comm, const sc_coll_args_t *args, char *vec,
                                    char *tmp, sc_span_t out, int dst, sc_span_t in, int src,
                                    int tag)
{
    sc_err_t err = sc_sendrecv(comm, vec + sc_span_offset(args, out), sc_span_bytes(args, out),
                               dst, tag, tmp, sc_span_bytes(args, in), src, tag);
    return err ? err : sc_vector_combine(comm, args, vec, tmp, in);
}

void sc_vector_start(sc_comm_t *comm, const sc_coll_args_t *args)
{
    sc_buf_copy(comm, args->recvbuf, args->sendbuf, args->bytes);
}

sc_err_t sc_vector_alloc(sc_comm_t *comm, const sc_coll_args_t *args, size_t elems, char **buf)
{
    size_t bytes = elems * sc_type_size(args->type);
    *buf = sc_buf_alloc(comm, bytes);
    if (!*buf)
        return sc_error(SC_ERR_RUN, "rank %d: out of memory for %zu bytes of vector", comm->rank,
                        bytes);
    return SC_OK;
}

/* The span split at each step of sc_group_halving for member me: parent[s]
 * at step mask = 2^s, then the member's own block. Returns the number of
 * steps (at most 31: parent has room for 32 + 1). */
static int halving_spans(const sc_group_t *g, sc_span_t whole, sc_span_t *parent)
{
    int steps = 0;
    sc_span_t s = whole;
    for (int mask = 1; mask < g->size; mask <<= 1) {
        parent[steps++] = s;
        s = sc_span_half(s, (g->me & mask) != 0);
    }
    parent[steps] = s; /* the member's own block */
    return steps;
}

sc_err_t sc_group_halving(sc_comm_t *comm, const sc_coll_args_t *args, const sc_group_t *g,
                          char *vec, char *tmp, sc_span_t whole, int tag, sc_span_t *mine)
{
    sc_span_t parent[33];
    int steps = halving_spans(g, whole, parent);
    for (int s = 0; s < steps; s++) {
        int upper = (g->me >> s) & 1;
        sc_err_t err = sc_vector_sendrecv_combine(comm, args, vec, tmp,
                                                  sc_span_half(parent[s], !upper), g->peer[s],
                                                  sc_span_half(parent[s], upper), g->peer[s], tag);
        if (err)
            return err;
    }
    if (mine)
        *mine = parent[steps];
    return SC_OK;
}

sc_err_t sc_group_doubling(sc_comm_t *comm, const sc_coll_args_t *args, const sc_group_t *g,
                           char *vec, sc_span_t whole, int tag)
{
    sc_span_t parent[33];
    int steps = halving_spans(g, whole, parent);
    for (int s = steps - 1; s >= 0; s--) {
        int upper = (g->me >> s) & 1;
        sc_err_t err = sc_vector_sendrecv(comm, args, vec, sc_span_half(parent[s], upper),
                                          g->peer[s], sc_span_half(parent[s], !upper),
                                          g->peer[s], tag);
        if (err)
            return err;
    }
    return SC_OK;
}

sc_err_t sc_group_gather(sc_comm_t *comm, const sc_coll_args_t *args, const sc_group_t *g,
                         char *vec, sc_span_t whole, int tag)
{
    sc_span_t parent[33];
    int steps = halving_spans(g, whole, parent);
    for (int s = steps - 1; s >= 0; s--) {
        int mask = 1 << s;
        if (g->me >= 2 * mask)
            continue; /* sent its part at an earlier step */
        int peer = g->peer[s];
        sc_err_t err = g->me & mask
                           ? sc_vector_send(comm, args, vec, sc_span_half(parent[s], 1), peer, tag)
                           : sc_vector_recv(comm, args, vec, sc_span_half(parent[s], 1), peer, tag);
        if (err)
            return err;
    }
    return SC_OK;
}
