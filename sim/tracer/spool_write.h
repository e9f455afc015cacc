/* A rank's spool written as its application runs (spool_write.c), for the
 * PMPI wrappers of tracer.c: which calls are recorded, the communicators
 * and requests the rank knows, and the items its calls record. Private to
 * libsimcoll-trace.so.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_TRACER_SPOOL_WRITE_H
#define SC_TRACER_SPOOL_WRITE_H

#include <mpi.h>
#include <otf2/OTF2_Events.h>
#include <stdint.h>

#include "spool.h"

/* The library is preloaded into applications, whose names its own must
 * not meet: what these files share stays inside it. */
#pragma GCC visibility push(hidden)

typedef struct {
    MPI_Comm comm;
    uint64_t id;
    int size, rank, index; /* index: the spool's number of it */
} comm_entry_t;

typedef struct {
    MPI_Request req;
    uint64_t id, comm;
    int recv, used;
} req_entry_t;

/* Whether the calling thread's call is recorded: recording, and the
 * thread that called MPI_Init (others' calls are counted). */
int sc_tracer_tracing(void);

/* A communicator the rank knows, NULL (counted) if not. */
const comm_entry_t *sc_tracer_comm_find(MPI_Comm comm);

/* A communicator the application made (not the world or self), NULL if
 * the rank does not know it. */
const comm_entry_t *sc_tracer_comm_made(MPI_Comm comm);

/* Forgets a communicator freed. */
void sc_tracer_comm_remove(MPI_Comm comm);

/* A request of the rank's, NULL if it is not one it recorded. */
req_entry_t *sc_tracer_req_get(MPI_Request req);

/* Forgets a request. */
void sc_tracer_req_del(req_entry_t *e);

/* Bytes of `count` elements of `type`; of the sum of n counts. */
uint64_t sc_tracer_bytes_of(int count, MPI_Datatype type);
uint64_t sc_tracer_sum_bytes(int n, const int *counts, MPI_Datatype type);

/* SEND, RECV, ISEND, IRECV_DONE: on the spool's communicator `comm`,
 * with a request for the last two. */
void sc_tracer_message(unsigned kind, int comm, int peer, int tag, uint64_t bytes, uint64_t req);

/* A receive's end, as its status says; nothing for MPI_PROC_NULL's. */
void sc_tracer_received(unsigned kind, int comm, const MPI_Status *st, uint64_t req);

/* A collective on c, as Score-P counts its bytes; root -1 for none. */
void sc_tracer_coll(OTF2_CollectiveOp op, const comm_entry_t *c, int root, uint64_t sent,
                    uint64_t recvd);

/* A request the call began (ISEND, IRECV): ours from now to its end. */
void sc_tracer_began(unsigned kind, const comm_entry_t *c, int peer, int tag, uint64_t bytes,
                     MPI_Request req);

/* A request a wait or test was given, `before` the call and as the call
 * left it: ours completed if MPI nulled it; one still active was tested
 * if `tested`. */
void sc_tracer_settle(MPI_Request before, MPI_Request after, MPI_Status *st, int tested);

/* A communicator the call made (MPI_COMM_NULL where this rank is in
 * none); `whole`: every rank of the parent took part. */
void sc_tracer_made(const comm_entry_t *parent, MPI_Comm comm, int whole);

/* Closes the call under way: its CALL item, after which it is whole. */
void sc_tracer_call_done(sc_tracer_fn_t fn, double t0, double t1);

#pragma GCC visibility pop

#endif
