/* A trace's collective calls and tags, as both engines run them.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "trace_coll.h"

#include <stdlib.h>
#include <string.h>

#include "algorithms/irregular/irregular.h"
#include "algorithms/kinds.h"
#include "id_table.h"

/* MPICH's threshold between its medium and long alltoall (bytes to each
 * rank): linear below, pairwise from it. */
#define ALLTOALL_LONG 32768

sc_collective_t sc_tcoll_kind(sc_tcoll_t coll, int *has)
{
    *has = 1;
    switch (coll) {
    case SC_TCOLL_BARRIER: return SC_BARRIER;
    case SC_TCOLL_BCAST: return SC_BCAST;
    case SC_TCOLL_REDUCE:
    case SC_TCOLL_REDUCE_SCATTER: return SC_REDUCE;
    case SC_TCOLL_ALLREDUCE: return SC_ALLREDUCE;
    case SC_TCOLL_ALLGATHER:
    case SC_TCOLL_ALLGATHERV: return SC_ALLGATHER;
    case SC_TCOLL_SCATTER: return SC_SCATTER;
    default: *has = 0; return SC_BARRIER;
    }
}

static sc_type_t type_of(uint64_t bytes, uint64_t elem)
{
    return elem == 4 || (bytes % 8 != 0) ? SC_TYPE_INT : SC_TYPE_DOUBLE;
}

/* The algorithm the call runs: forced for its kind, else the profile's. */
static sc_err_t choose(const sc_trace_choice_t *choice, sc_collective_t kind, const sc_comm_t *comm,
                       size_t bytes, sc_type_t type, const sc_algo_t **algo)
{
    *algo = choice->forced[kind];
    if (!*algo) {
        sc_call_t call = {.collective = kind, .bytes = bytes, .p = comm->size,
                          .node_of = comm->node_of, .type = type};
        if (!(*algo = sc_profile_choose(choice->profile, &call)))
            return sc_profile_no_rule(choice->profile, kind);
    }
    if (sc_algo_check(*algo, comm->size))
        return sc_error(SC_ERR_INPUT, "%s on %d ranks: %s", (*algo)->name, comm->size,
                        sc_error_message());
    return SC_OK;
}

/* A collective of the kinds simcoll has algorithms of. */
static sc_err_t run_kind(sc_comm_t *comm, const sc_tev_t *ev, const sc_trace_choice_t *choice,
                         sc_scratch_t *scratch, sc_collective_t kind, uint64_t bytes, int root,
                         const char **name)
{
    sc_type_t type = type_of(bytes, ev->elem);
    if (sc_kind(kind)->is_reduction) {
        /* a vector of whole elements: a few bytes more at most */
        size_t e = sc_type_size(type);
        bytes = (bytes + e - 1) / e * e;
    }
    const sc_algo_t *algo;
    sc_err_t err = choose(choice, kind, comm, (size_t)bytes, type, &algo);
    if (err)
        return err;
    *name = algo->name;
    void *area = sc_scratch_get(scratch, (size_t)bytes * (size_t)(comm->size + 1) + 1);
    if (!area)
        return sc_error(SC_ERR_RUN, "out of memory for a %s of %llu bytes",
                        sc_tcoll_name(ev->coll), (unsigned long long)bytes);
    comm->elem_size = sc_type_size(type);
    sc_coll_args_t args = {.sendbuf = area, .recvbuf = area, .bytes = (size_t)bytes,
                           .root = root, .op = SC_OP_SUM, .type = type};
    return algo->run(comm, &args);
}

/* counts[] of a v call as size_t, or `each` for every rank; NULL if out
 * of memory (sc_error set). */
static size_t *sizes(const uint64_t *counts, int n, uint64_t each)
{
    size_t *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    if (!v) {
        sc_error(SC_ERR_RUN, "out of memory");
        return NULL;
    }
    for (int i = 0; i < n; i++)
        v[i] = counts ? (size_t)counts[i] : (size_t)each;
    return v;
}

static int all_equal(const uint64_t *v, int n)
{
    for (int i = 1; i < n; i++)
        if (v[i] != v[0])
            return 0;
    return 1;
}

sc_err_t sc_trace_coll_run(sc_comm_t *comm, const sc_tev_t *ev, const sc_trace_choice_t *choice,
                           sc_scratch_t *scratch, const char **algo)
{
    int n = comm->size, has;
    size_t *v = NULL;
    /* Once a call, whichever algorithms make it up (sc_algo_call's). */
    sc_err_t err = sc_enter_call(comm);
    if (err)
        return err;
    switch (ev->coll) {
    case SC_TCOLL_BARRIER:
    case SC_TCOLL_BCAST:
    case SC_TCOLL_REDUCE:
    case SC_TCOLL_ALLREDUCE:
    case SC_TCOLL_ALLGATHER:
    case SC_TCOLL_SCATTER:
        return run_kind(comm, ev, choice, scratch, sc_tcoll_kind(ev->coll, &has), ev->bytes,
                        ev->root, algo);
    case SC_TCOLL_ALLGATHERV:
        /* blocks alike: an allgather, whose algorithm the user chooses */
        if (!ev->counts || all_equal(ev->counts, n))
            return run_kind(comm, ev, choice, scratch, SC_ALLGATHER,
                            ev->counts ? ev->counts[0] : ev->bytes, 0, algo);
        *algo = "allgatherv-ring";
        if (!(v = sizes(ev->counts, n, ev->bytes)))
            return SC_ERR_RUN;
        err = sc_allgatherv_ring(comm, v);
        break;
    case SC_TCOLL_GATHER:
        *algo = "gather-binomial";
        return sc_gather_binomial(comm, (size_t)ev->bytes, ev->root);
    case SC_TCOLL_GATHERV:
        *algo = "gatherv-linear";
        return sc_gatherv_linear(comm, (size_t)ev->bytes, ev->root);
    case SC_TCOLL_SCATTERV:
        *algo = "scatterv-linear";
        /* the root's blocks: its counts, else its total shared alike */
        if (comm->rank != ev->root)
            return sc_scatterv_linear(comm, NULL, ev->root);
        if (!(v = sizes(ev->counts, n, ev->bytes)))
            return SC_ERR_RUN;
        err = sc_scatterv_linear(comm, v, ev->root);
        break;
    case SC_TCOLL_ALLTOALL:
        *algo = ev->bytes < ALLTOALL_LONG ? "alltoall-linear" : "alltoall-pairwise";
        if (!(v = sizes(NULL, n, ev->bytes)))
            return SC_ERR_RUN;
        err = ev->bytes < ALLTOALL_LONG ? sc_alltoallv_linear(comm, v)
                                        : sc_alltoallv_pairwise(comm, v);
        break;
    case SC_TCOLL_ALLTOALLV:
        *algo = "alltoallv-linear";
        if (!(v = sizes(ev->counts, n, n ? ev->bytes / (uint64_t)n : 0)))
            return SC_ERR_RUN;
        err = sc_alltoallv_linear(comm, v);
        break;
    case SC_TCOLL_REDUCE_SCATTER:
        /* a reduce of the whole vector to rank 0, then its blocks scattered
         * (Open MPI's basic reduce_scatter) */
        if ((err = run_kind(comm, ev, choice, scratch, SC_REDUCE, ev->bytes, 0, algo)))
            return err;
        *algo = "reduce_scatter-reduce+scatterv";
        if (!(v = sizes(ev->counts, n, n ? ev->bytes / (uint64_t)n : 0)))
            return SC_ERR_RUN;
        err = sc_scatterv_linear(comm, v, 0);
        break;
    case SC_TCOLL_SCAN:
    case SC_TCOLL_EXSCAN:
        *algo = "scan-rd";
        comm->elem_size = ev->elem ? (size_t)ev->elem : 1;
        return sc_scan_rd(comm, (size_t)ev->bytes);
    }
    free(v);
    return err;
}

/* ---- Tags ---- */

struct sc_trace_tags {
    sc_id_table_t dense; /* by comm << 32 | tag: its dense number (the entry's) */
    int *next;           /* by communicator: its next dense number */
};

sc_trace_tags_t *sc_trace_tags_new(int ncomms)
{
    sc_trace_tags_t *t = calloc(1, sizeof *t);
    if (t && !(t->next = calloc((size_t)(ncomms > 0 ? ncomms : 1), sizeof *t->next))) {
        free(t);
        t = NULL;
    }
    return t;
}

void sc_trace_tags_free(sc_trace_tags_t *t)
{
    if (!t)
        return;
    sc_id_table_free(&t->dense);
    free(t->next);
    free(t);
}

sc_err_t sc_trace_world_tag(sc_trace_tags_t *t, int comm, int tag, int *out)
{
    int band = SC_TRACE_BAND_FIRST + comm;
    if (tag == SC_TRACE_ANY) {
        *out = SC_ANY_TAG_OF_BAND(band);
        return SC_OK;
    }
    uint64_t key = (uint64_t)(uint32_t)comm << 32 | (uint32_t)tag;
    const sc_id_entry_t *e = sc_id_table_find(&t->dense, key);
    if (e) {
        *out = band * SC_TAG_BAND + (int)e->number;
        return SC_OK;
    }
    if (t->next[comm] >= SC_TAG_BAND)
        return sc_error(SC_ERR_INPUT, "communicator %d uses more than %d distinct tags", comm,
                        SC_TAG_BAND);
    if (!sc_id_table_put(&t->dense, key, (uint64_t)t->next[comm], NULL))
        return sc_error(SC_ERR_RUN, "out of memory for tags");
    *out = band * SC_TAG_BAND + t->next[comm]++;
    return SC_OK;
}
