/* libsimcoll-trace.so: a PMPI tracer. Preloaded into an MPI application
 * (mpirun -x LD_PRELOAD=libsimcoll-trace.so ./app), it records every
 * point-to-point call, wait and test, collective and communicator the
 * application makes, with the MPI_Wtime of each call's start and end, so
 * that the computing between calls is kept; at MPI_Finalize the world's
 * rank 0 turns the ranks' records into an OTF2 archive that simcoll run
 * replays (docs/tracer.md).
 *
 * While the application runs, each rank appends its calls to a spool file
 * of its own (spool.h: 10 to 30 bytes a call), a buffer at a time: when
 * the buffer is three quarters full, at the first call a second after the
 * last write, on SIGTERM, SIGINT or SIGHUP (what mpirun and batch systems
 * send before they kill), at MPI_Abort and at exit. A run killed part way
 * leaves the spools up to their last write, which simcoll-trace-recover
 * turns into an archive up to the ranks' last whole calls that pair up.
 *
 * Calls made by threads other than the one that called MPI_Init are not
 * recorded (counted and said at MPI_Finalize). Nothing here stops the
 * application: a tracer that cannot write says why on stderr and stops
 * recording.
 *
 * Here the wrappers of the calls recorded but MPI_Init's, MPI_Finalize's
 * and MPI_Abort's, which start and end the spool (spool_write.c).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <mpi.h>
#include <otf2/OTF2_Events.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spool_write.h"

/* ---- Point to point ---- */

#define BLOCKING_SEND(NAME)                                                                        \
    int MPI_##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag,               \
                   MPI_Comm comm)                                                                  \
    {                                                                                              \
        if (!sc_tracer_tracing())                                                                  \
            return PMPI_##NAME(buf, count, type, dest, tag, comm);                                 \
        double t0 = PMPI_Wtime();                                                                  \
        int err = PMPI_##NAME(buf, count, type, dest, tag, comm);                                  \
        double t1 = PMPI_Wtime();                                                                  \
        const comm_entry_t *c = sc_tracer_comm_find(comm);                                         \
        if (c && dest != MPI_PROC_NULL && err == MPI_SUCCESS)                                      \
            sc_tracer_message(SC_SPOOL_SEND, c->index, dest, tag, sc_tracer_bytes_of(count, type), \
                              0);                                                                  \
        sc_tracer_call_done(SC_FN_MPI_##NAME, t0, t1);                                             \
        return err;                                                                                \
    }
BLOCKING_SEND(Send)
BLOCKING_SEND(Ssend)
BLOCKING_SEND(Bsend)
BLOCKING_SEND(Rsend)

#define NONBLOCKING_SEND(NAME)                                                                     \
    int MPI_##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag,               \
                   MPI_Comm comm, MPI_Request *req)                                                \
    {                                                                                              \
        if (!sc_tracer_tracing())                                                                  \
            return PMPI_##NAME(buf, count, type, dest, tag, comm, req);                            \
        double t0 = PMPI_Wtime();                                                                  \
        int err = PMPI_##NAME(buf, count, type, dest, tag, comm, req);                             \
        double t1 = PMPI_Wtime();                                                                  \
        const comm_entry_t *c = sc_tracer_comm_find(comm);                                         \
        if (c && dest != MPI_PROC_NULL && err == MPI_SUCCESS)                                      \
            sc_tracer_began(SC_SPOOL_ISEND, c, dest, tag, sc_tracer_bytes_of(count, type), *req);  \
        sc_tracer_call_done(SC_FN_MPI_##NAME, t0, t1);                                             \
        return err;                                                                                \
    }
NONBLOCKING_SEND(Isend)
NONBLOCKING_SEND(Issend)
NONBLOCKING_SEND(Ibsend)
NONBLOCKING_SEND(Irsend)

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    if (!sc_tracer_tracing())
        return PMPI_Recv(buf, count, type, source, tag, comm, status);
    MPI_Status mine;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &mine : status;
    double t0 = PMPI_Wtime();
    int err = PMPI_Recv(buf, count, type, source, tag, comm, st);
    double t1 = PMPI_Wtime();
    const comm_entry_t *c = sc_tracer_comm_find(comm);
    if (c && source != MPI_PROC_NULL && err == MPI_SUCCESS)
        sc_tracer_received(SC_SPOOL_RECV, c->index, st, 0);
    sc_tracer_call_done(SC_FN_MPI_Recv, t0, t1);
    return err;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    if (!sc_tracer_tracing())
        return PMPI_Irecv(buf, count, type, source, tag, comm, req);
    double t0 = PMPI_Wtime();
    int err = PMPI_Irecv(buf, count, type, source, tag, comm, req);
    double t1 = PMPI_Wtime();
    const comm_entry_t *c = sc_tracer_comm_find(comm);
    if (c && source != MPI_PROC_NULL && err == MPI_SUCCESS)
        sc_tracer_began(SC_SPOOL_IRECV, c, source, tag, 0, *req);
    sc_tracer_call_done(SC_FN_MPI_Irecv, t0, t1);
    return err;
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag, void *rbuf,
                 int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                 MPI_Status *status)
{
    if (!sc_tracer_tracing())
        return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag,
                             comm, status);
    MPI_Status mine;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &mine : status;
    double t0 = PMPI_Wtime();
    int err =
        PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, st);
    double t1 = PMPI_Wtime();
    const comm_entry_t *c = sc_tracer_comm_find(comm);
    if (c && err == MPI_SUCCESS) {
        if (dest != MPI_PROC_NULL)
            sc_tracer_message(SC_SPOOL_SEND, c->index, dest, stag,
                              sc_tracer_bytes_of(scount, stype), 0);
        if (source != MPI_PROC_NULL)
            sc_tracer_received(SC_SPOOL_RECV, c->index, st, 0);
    }
    sc_tracer_call_done(SC_FN_MPI_Sendrecv, t0, t1);
    return err;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int stag, int source,
                         int rtag, MPI_Comm comm, MPI_Status *status)
{
    if (!sc_tracer_tracing())
        return PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag, comm, status);
    MPI_Status mine;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &mine : status;
    double t0 = PMPI_Wtime();
    int err = PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag, comm, st);
    double t1 = PMPI_Wtime();
    const comm_entry_t *c = sc_tracer_comm_find(comm);
    if (c && err == MPI_SUCCESS) {
        if (dest != MPI_PROC_NULL)
            sc_tracer_message(SC_SPOOL_SEND, c->index, dest, stag, sc_tracer_bytes_of(count, type),
                              0);
        if (source != MPI_PROC_NULL)
            sc_tracer_received(SC_SPOOL_RECV, c->index, st, 0);
    }
    sc_tracer_call_done(SC_FN_MPI_Sendrecv_replace, t0, t1);
    return err;
}

/* ---- Waits and tests ---- */

/* The handles a call on n requests was given, and statuses where the
 * application wants none: on the stack for a few, else allocated. */
typedef struct {
    MPI_Request few[32], *before;
    MPI_Status few_st[32], *st;
} copies_t;

static int copies_init(copies_t *cp, int n, const MPI_Request *reqs, MPI_Status *statuses,
                       int need_st)
{
    cp->before = n <= 32 ? cp->few : malloc((size_t)n * sizeof *cp->before);
    cp->st = statuses != MPI_STATUSES_IGNORE || !need_st ? statuses
             : n <= 32                                   ? cp->few_st
                                                         : malloc((size_t)n * sizeof *cp->st);
    if (!cp->before || (need_st && !cp->st)) {
        if (n > 32) {
            free(cp->before);
            if (statuses == MPI_STATUSES_IGNORE && need_st)
                free(cp->st);
        }
        return 0;
    }
    if (n > 0)
        memcpy(cp->before, reqs, (size_t)n * sizeof *reqs);
    return 1;
}

static void copies_destroy(copies_t *cp, int n, MPI_Status *statuses, int need_st)
{
    if (n > 32) {
        free(cp->before);
        if (statuses == MPI_STATUSES_IGNORE && need_st)
            free(cp->st);
    }
}

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
    if (!sc_tracer_tracing())
        return PMPI_Wait(req, status);
    MPI_Status mine;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &mine : status;
    MPI_Request before = *req;
    double t0 = PMPI_Wtime();
    int err = PMPI_Wait(req, st);
    double t1 = PMPI_Wtime();
    sc_tracer_settle(before, *req, st, 0);
    sc_tracer_call_done(SC_FN_MPI_Wait, t0, t1);
    return err;
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
    if (!sc_tracer_tracing())
        return PMPI_Test(req, flag, status);
    MPI_Status mine;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &mine : status;
    MPI_Request before = *req;
    double t0 = PMPI_Wtime();
    int err = PMPI_Test(req, flag, st);
    double t1 = PMPI_Wtime();
    sc_tracer_settle(before, *req, *flag ? st : NULL, 1);
    sc_tracer_call_done(SC_FN_MPI_Test, t0, t1);
    return err;
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[])
{
    copies_t cp;
    if (!sc_tracer_tracing() || !copies_init(&cp, n, reqs, statuses, 1))
        return PMPI_Waitall(n, reqs, statuses);
    double t0 = PMPI_Wtime();
    int err = PMPI_Waitall(n, reqs, cp.st);
    double t1 = PMPI_Wtime();
    for (int i = 0; i < n; i++)
        sc_tracer_settle(cp.before[i], reqs[i], &cp.st[i], 0);
    copies_destroy(&cp, n, statuses, 1);
    sc_tracer_call_done(SC_FN_MPI_Waitall, t0, t1);
    return err;
}

int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
    copies_t cp;
    if (!sc_tracer_tracing() || !copies_init(&cp, n, reqs, statuses, 1))
        return PMPI_Testall(n, reqs, flag, statuses);
    double t0 = PMPI_Wtime();
    int err = PMPI_Testall(n, reqs, flag, cp.st);
    double t1 = PMPI_Wtime();
    for (int i = 0; i < n; i++)
        sc_tracer_settle(cp.before[i], reqs[i], *flag ? &cp.st[i] : NULL, 1);
    copies_destroy(&cp, n, statuses, 1);
    sc_tracer_call_done(SC_FN_MPI_Testall, t0, t1);
    return err;
}

int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status)
{
    copies_t cp;
    if (!sc_tracer_tracing() || !copies_init(&cp, n, reqs, MPI_STATUSES_IGNORE, 0))
        return PMPI_Waitany(n, reqs, index, status);
    MPI_Status mine;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &mine : status;
    double t0 = PMPI_Wtime();
    int err = PMPI_Waitany(n, reqs, index, st);
    double t1 = PMPI_Wtime();
    if (err == MPI_SUCCESS && *index != MPI_UNDEFINED && *index >= 0 && *index < n)
        sc_tracer_settle(cp.before[*index], reqs[*index], st, 0);
    copies_destroy(&cp, n, MPI_STATUSES_IGNORE, 0);
    sc_tracer_call_done(SC_FN_MPI_Waitany, t0, t1);
    return err;
}

int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
    copies_t cp;
    if (!sc_tracer_tracing() || !copies_init(&cp, n, reqs, MPI_STATUSES_IGNORE, 0))
        return PMPI_Testany(n, reqs, index, flag, status);
    MPI_Status mine;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &mine : status;
    double t0 = PMPI_Wtime();
    int err = PMPI_Testany(n, reqs, index, flag, st);
    double t1 = PMPI_Wtime();
    if (err == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED && *index >= 0 && *index < n)
        sc_tracer_settle(cp.before[*index], reqs[*index], st, 0);
    /* those still active were tested (the one completed is no longer ours) */
    for (int i = 0; i < n; i++)
        if (reqs[i] != MPI_REQUEST_NULL)
            sc_tracer_settle(cp.before[i], reqs[i], NULL, 1);
    copies_destroy(&cp, n, MPI_STATUSES_IGNORE, 0);
    sc_tracer_call_done(SC_FN_MPI_Testany, t0, t1);
    return err;
}

#define SOME_CALL(NAME, TESTED)                                                                    \
    int MPI_##NAME(int n, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[]) \
    {                                                                                              \
        copies_t cp;                                                                               \
        if (!sc_tracer_tracing() || !copies_init(&cp, n, reqs, statuses, 1))                       \
            return PMPI_##NAME(n, reqs, outcount, indices, statuses);                              \
        double t0 = PMPI_Wtime();                                                                  \
        int err = PMPI_##NAME(n, reqs, outcount, indices, cp.st);                                  \
        double t1 = PMPI_Wtime();                                                                  \
        if (err == MPI_SUCCESS && *outcount != MPI_UNDEFINED)                                      \
            for (int k = 0; k < *outcount; k++)                                                    \
                if (indices[k] >= 0 && indices[k] < n)                                             \
                    sc_tracer_settle(cp.before[indices[k]], reqs[indices[k]], &cp.st[k], 0);       \
        for (int i = 0; TESTED && i < n; i++)                                                      \
            if (reqs[i] != MPI_REQUEST_NULL)                                                       \
                sc_tracer_settle(cp.before[i], reqs[i], NULL, 1);                                  \
        copies_destroy(&cp, n, statuses, 1);                                                       \
        sc_tracer_call_done(SC_FN_MPI_##NAME, t0, t1);                                             \
        return err;                                                                                \
    }
SOME_CALL(Waitsome, 0)
SOME_CALL(Testsome, 1)

int MPI_Request_free(MPI_Request *req)
{
    if (sc_tracer_tracing()) {
        /* freed while active: its end is not seen (an MPI_Isend's is then
         * taken at the rank's end) */
        req_entry_t *e = sc_tracer_req_get(*req);
        if (e)
            sc_tracer_req_del(e);
    }
    return PMPI_Request_free(req);
}

int MPI_Cancel(MPI_Request *req)
{
    if (!sc_tracer_tracing())
        return PMPI_Cancel(req);
    double t0 = PMPI_Wtime();
    int err = PMPI_Cancel(req);
    sc_tracer_call_done(SC_FN_MPI_Cancel, t0, PMPI_Wtime());
    return err;
}

/* ---- Collectives, sizes as Score-P counts them (what sim/trace/otf2.c
 * reads): a rooted call's root sends or receives the whole; allreduce,
 * allgather(v) and alltoall count what the rank's share is times the
 * communicator's size. ---- */

#define COLL_BEGIN(CALL)                                                                           \
    if (!sc_tracer_tracing())                                                                      \
        return CALL;                                                                               \
    double t0 = PMPI_Wtime();                                                                      \
    int err = CALL;                                                                                \
    double t1 = PMPI_Wtime();                                                                      \
    const comm_entry_t *c = sc_tracer_comm_find(comm);                                             \
    if (c && err == MPI_SUCCESS) {                                                                 \
        uint64_t n = (uint64_t)c->size;                                                            \
        int me = c->rank;                                                                          \
        (void)n;                                                                                   \
        (void)me;
#define COLL_END(NAME)                                                                             \
    }                                                                                              \
    sc_tracer_call_done(SC_FN_MPI_##NAME, t0, t1);                                                 \
    return err;

int MPI_Barrier(MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Barrier(comm))
    sc_tracer_coll(OTF2_COLLECTIVE_OP_BARRIER, c, -1, 0, 0);
    COLL_END(Barrier)
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Bcast(buf, count, type, root, comm))
    uint64_t b = sc_tracer_bytes_of(count, type);
    sc_tracer_coll(OTF2_COLLECTIVE_OP_BCAST, c, root, me == root ? n * b : 0, b);
    COLL_END(Bcast)
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root,
               MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm))
    uint64_t b = sc_tracer_bytes_of(count, type);
    sc_tracer_coll(OTF2_COLLECTIVE_OP_REDUCE, c, root, b, me == root ? n * b : 0);
    COLL_END(Reduce)
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Allreduce(sbuf, rbuf, count, type, op, comm))
    uint64_t b = sc_tracer_bytes_of(count, type);
    sc_tracer_coll(OTF2_COLLECTIVE_OP_ALLREDUCE, c, -1, n * b, n * b);
    COLL_END(Allreduce)
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
               MPI_Datatype rtype, int root, MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm))
    uint64_t mine = sbuf == MPI_IN_PLACE ? sc_tracer_bytes_of(rcount, rtype)
                                         : sc_tracer_bytes_of(scount, stype);
    sc_tracer_coll(OTF2_COLLECTIVE_OP_GATHER, c, root, mine,
                   me == root ? n * sc_tracer_bytes_of(rcount, rtype) : 0);
    COLL_END(Gather)
}

int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, const int rcounts[],
                const int displs[], MPI_Datatype rtype, int root, MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm))
    uint64_t mine = sbuf == MPI_IN_PLACE && rcounts ? sc_tracer_bytes_of(rcounts[me], rtype)
                                                    : sc_tracer_bytes_of(scount, stype);
    sc_tracer_coll(OTF2_COLLECTIVE_OP_GATHERV, c, root, mine,
                   me == root ? sc_tracer_sum_bytes((int)n, rcounts, rtype) : 0);
    COLL_END(Gatherv)
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                MPI_Datatype rtype, int root, MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm))
    uint64_t mine = rbuf == MPI_IN_PLACE ? sc_tracer_bytes_of(scount, stype)
                                         : sc_tracer_bytes_of(rcount, rtype);
    sc_tracer_coll(OTF2_COLLECTIVE_OP_SCATTER, c, root,
                   me == root ? n * sc_tracer_bytes_of(scount, stype) : 0, mine);
    COLL_END(Scatter)
}

int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype stype,
                 void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm))
    uint64_t mine = rbuf == MPI_IN_PLACE && scounts ? sc_tracer_bytes_of(scounts[me], stype)
                                                    : sc_tracer_bytes_of(rcount, rtype);
    sc_tracer_coll(OTF2_COLLECTIVE_OP_SCATTERV, c, root,
                   me == root ? sc_tracer_sum_bytes((int)n, scounts, stype) : 0, mine);
    COLL_END(Scatterv)
}

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype, MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm))
    uint64_t mine = sbuf == MPI_IN_PLACE ? sc_tracer_bytes_of(rcount, rtype)
                                         : sc_tracer_bytes_of(scount, stype);
    sc_tracer_coll(OTF2_COLLECTIVE_OP_ALLGATHER, c, -1, n * mine,
                   n * sc_tracer_bytes_of(rcount, rtype));
    COLL_END(Allgather)
}

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                   const int rcounts[], const int displs[], MPI_Datatype rtype, MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm))
    uint64_t mine = sbuf == MPI_IN_PLACE && rcounts ? sc_tracer_bytes_of(rcounts[me], rtype)
                                                    : sc_tracer_bytes_of(scount, stype);
    sc_tracer_coll(OTF2_COLLECTIVE_OP_ALLGATHERV, c, -1, n * mine,
                   sc_tracer_sum_bytes((int)n, rcounts, rtype));
    COLL_END(Allgatherv)
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm))
    uint64_t r = sc_tracer_bytes_of(rcount, rtype);
    sc_tracer_coll(OTF2_COLLECTIVE_OP_ALLTOALL, c, -1,
                   n * (sbuf == MPI_IN_PLACE ? r : sc_tracer_bytes_of(scount, stype)), n * r);
    COLL_END(Alltoall)
}

int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
                  void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype,
                  MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm))
    uint64_t r = sc_tracer_sum_bytes((int)n, rcounts, rtype);
    sc_tracer_coll(OTF2_COLLECTIVE_OP_ALLTOALLV, c, -1,
                   sbuf == MPI_IN_PLACE ? r : sc_tracer_sum_bytes((int)n, scounts, stype), r);
    COLL_END(Alltoallv)
}

int MPI_Alltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                  const MPI_Datatype stypes[], void *rbuf, const int rcounts[], const int rdispls[],
                  const MPI_Datatype rtypes[], MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm))
    uint64_t s = 0, r = 0;
    for (int i = 0; i < (int)n; i++) {
        r += rcounts && rtypes ? sc_tracer_bytes_of(rcounts[i], rtypes[i]) : 0;
        s += sbuf != MPI_IN_PLACE && scounts && stypes ? sc_tracer_bytes_of(scounts[i], stypes[i])
                                                       : 0;
    }
    sc_tracer_coll(OTF2_COLLECTIVE_OP_ALLTOALLW, c, -1, sbuf == MPI_IN_PLACE ? r : s, r);
    COLL_END(Alltoallw)
}

int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type,
                       MPI_Op op, MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm))
    sc_tracer_coll(OTF2_COLLECTIVE_OP_REDUCE_SCATTER, c, -1,
                   sc_tracer_sum_bytes((int)n, rcounts, type),
                   rcounts ? sc_tracer_bytes_of(rcounts[me], type) : 0);
    COLL_END(Reduce_scatter)
}

int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, type, op, comm))
    uint64_t b = sc_tracer_bytes_of(rcount, type);
    sc_tracer_coll(OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK, c, -1, n * b, b);
    COLL_END(Reduce_scatter_block)
}

int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Scan(sbuf, rbuf, count, type, op, comm))
    uint64_t b = sc_tracer_bytes_of(count, type);
    sc_tracer_coll(OTF2_COLLECTIVE_OP_SCAN, c, -1, b, b);
    COLL_END(Scan)
}

int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    COLL_BEGIN(PMPI_Exscan(sbuf, rbuf, count, type, op, comm))
    uint64_t b = sc_tracer_bytes_of(count, type);
    sc_tracer_coll(OTF2_COLLECTIVE_OP_EXSCAN, c, -1, b, b);
    COLL_END(Exscan)
}

/* ---- Communicators ---- */

/* A call that makes *NEWCOMM from PARENT; WHOLE: every rank of the parent
 * calls it. The broadcast that names the new communicator is part of the
 * call's time. */
#define MAKES(NAME, CALL, PARENT, NEWCOMM, WHOLE)                                                  \
    if (!sc_tracer_tracing())                                                                      \
        return CALL;                                                                               \
    double t0 = PMPI_Wtime();                                                                      \
    int err = CALL;                                                                                \
    if (err == MPI_SUCCESS) {                                                                      \
        const comm_entry_t *parent =                                                               \
            (PARENT) == MPI_COMM_NULL ? NULL : sc_tracer_comm_find(PARENT);                        \
        sc_tracer_made(parent, *(NEWCOMM), WHOLE);                                                 \
    }                                                                                              \
    sc_tracer_call_done(SC_FN_MPI_##NAME, t0, PMPI_Wtime());                                       \
    return err;

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    MAKES(Comm_split, PMPI_Comm_split(comm, color, key, newcomm), comm, newcomm, 1)
}

int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    MAKES(Comm_split_type, PMPI_Comm_split_type(comm, type, key, info, newcomm), comm, newcomm, 1)
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    MAKES(Comm_dup, PMPI_Comm_dup(comm, newcomm), comm, newcomm, 1)
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    MAKES(Comm_dup_with_info, PMPI_Comm_dup_with_info(comm, info, newcomm), comm, newcomm, 1)
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    MAKES(Comm_create, PMPI_Comm_create(comm, group, newcomm), comm, newcomm, 1)
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    /* only the group's ranks call it: no collective on the parent */
    MAKES(Comm_create_group, PMPI_Comm_create_group(comm, group, tag, newcomm), comm, newcomm, 0)
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                    MPI_Comm *newcomm)
{
    MAKES(Cart_create, PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm), comm,
          newcomm, 1)
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    MAKES(Cart_sub, PMPI_Cart_sub(comm, remain_dims, newcomm), comm, newcomm, 1)
}

int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
                     MPI_Comm *newcomm)
{
    MAKES(Graph_create, PMPI_Graph_create(comm, nnodes, index, edges, reorder, newcomm), comm,
          newcomm, 1)
}

int MPI_Dist_graph_create(MPI_Comm comm, int n, const int nodes[], const int degrees[],
                          const int targets[], const int weights[], MPI_Info info, int reorder,
                          MPI_Comm *newcomm)
{
    MAKES(Dist_graph_create,
          PMPI_Dist_graph_create(comm, n, nodes, degrees, targets, weights, info, reorder, newcomm),
          comm, newcomm, 1)
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                   const int sourceweights[], int outdegree,
                                   const int destinations[], const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm *newcomm)
{
    MAKES(Dist_graph_create_adjacent,
          PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree,
                                          destinations, destweights, info, reorder, newcomm),
          comm, newcomm, 1)
}

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newcomm)
{
    /* the parent, an intercommunicator, is not one the trace knows */
    MAKES(Intercomm_merge, PMPI_Intercomm_merge(intercomm, high, newcomm), MPI_COMM_NULL, newcomm,
          0)
}

int MPI_Comm_free(MPI_Comm *comm)
{
    if (!sc_tracer_tracing())
        return PMPI_Comm_free(comm);
    MPI_Comm gone = *comm;
    double t0 = PMPI_Wtime();
    int err = PMPI_Comm_free(comm);
    double t1 = PMPI_Wtime();
    const comm_entry_t *c = sc_tracer_comm_made(gone);
    if (c && err == MPI_SUCCESS) {
        sc_tracer_coll(OTF2_COLLECTIVE_OP_DESTROY_HANDLE, c, -1, 0, 0);
        sc_tracer_comm_remove(gone);
    }
    sc_tracer_call_done(SC_FN_MPI_Comm_free, t0, t1);
    return err;
}
