/* Point-to-point calls with MPI shape that every collective algorithm uses.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_P2P_H
#define SC_P2P_H

#include <stddef.h>

#include "../common/sc_error.h"

/* public: in simcoll.h, the plug-ins' API (algorithms/plugin/) */
/* A request returned by isend/irecv. Owned by the transport; wait/waitall
 * complete and release it and set the caller's pointer to NULL. */
typedef struct sc_request sc_request_t;

typedef struct sc_comm sc_comm_t;

/* A receive from any rank, of any tag, of any size (MPI_ANY_SOURCE,
 * MPI_ANY_TAG; a receive of any size discards the data and has no buffer). */
#define SC_ANY_SOURCE (-1)
#define SC_ANY_TAG (-1)
#define SC_ANY_SIZE ((size_t)-1)

/* end public */
/* A replayed trace's communicators keep their tags in bands of their own:
 * tag t is band t / SC_TAG_BAND's, and a receive of any tag of band b
 * (SC_ANY_TAG_OF_BAND(b)) takes only that band's messages, as MPI's
 * MPI_ANY_TAG takes only its communicator's (sim/engine/trace_run.c). */
#define SC_TAG_BAND 65536
#define SC_ANY_TAG_OF_BAND(band) (-2 - (band))

/* public: in simcoll.h, the plug-ins' API (algorithms/plugin/) */
/* Shared garbage memory handed out by sc_buf_alloc() in size-only runs. */
typedef struct sc_scratch sc_scratch_t;

/* What a transport implements (below); simcoll's own. */
typedef struct sc_transport sc_transport_t;
/* end public */

/* What a transport implements. The SimGrid transport (sim/simgrid/transport.c)
 * simulates time; a recording transport can build a communication graph
 * from the same algorithm code. A receive must name the exact size of the
 * matching send: a mismatch is a bug in the algorithm and fails the run. */
struct sc_transport {
    sc_err_t (*isend)(sc_comm_t *comm, const void *buf, size_t bytes, int dst,
                      int tag, sc_request_t **req);
    sc_err_t (*irecv)(sc_comm_t *comm, void *buf, size_t bytes, int src,
                      int tag, sc_request_t **req);
    sc_err_t (*waitall)(sc_comm_t *comm, int count, sc_request_t **reqs);
    /* Spends the time of combining `bytes` of received data into the
     * rank's own vector (see sc_model_reduce_time). */
    sc_err_t (*reduce_time)(sc_comm_t *comm, size_t bytes);
    /* Spends the time the rank takes to enter a collective call (the
     * platform's call-overhead, o_call; see sc_model_call_time). */
    sc_err_t (*enter_call)(sc_comm_t *comm);
    /* The calls below are those of sc_waitany ... sc_iprobe; waitany
     * serves sc_wait_ready too (complete = 0). */
    sc_err_t (*waitany)(sc_comm_t *comm, int count, sc_request_t **reqs, int *index,
                        int *source, int complete);
    sc_err_t (*test)(sc_comm_t *comm, sc_request_t **req, int *flag);
    sc_err_t (*cancel)(sc_comm_t *comm, sc_request_t **req, int *cancelled);
    sc_err_t (*request_free)(sc_comm_t *comm, sc_request_t **req);
    sc_err_t (*iprobe)(sc_comm_t *comm, int src, int tag, int *flag, int *source,
                       size_t *bytes);
};

/* public: in simcoll.h, the plug-ins' API (algorithms/plugin/) */
/* One rank's view of the communicator, filled in by the transport. */
struct sc_comm {
    int rank;
    int size;
    const sc_transport_t *transport;
    void *impl;            /* the transport's per-rank state */
    sc_scratch_t *scratch; /* non-NULL in size-only runs (no payload) */
    /* The node every rank runs on, numbered from 0, for the SMP-aware
     * algorithms (subcomm.h); NULL where it is not known. */
    const int *node_of;
    /* Bytes of an element of the reduction being run, for the time of
     * combining (sc_reduce_time); set by whoever starts the call. */
    size_t elem_size;
    /* What algorithms keep from one call to the next on this rank (early
     * exit's count of calls, speculation's history): theirs alone
     * (allreduce/state.h), NULL until one needs it; sc_comm_release frees
     * it. */
    struct sc_algo_state *algo_state;
    /* Set when the algorithm looked at node_of (sc_smp_init): its messages
     * then follow where the ranks are. */
    int read_nodes;
};
/* end public */

/* Frees what algorithms kept on the communicator (algo_state), once its
 * runs are over; whoever filled it in calls this. */
void sc_comm_release(sc_comm_t *comm);

/* public: in simcoll.h, the plug-ins' API (algorithms/plugin/) */
/* Non-blocking send of `bytes` bytes to rank `dst`. */
sc_err_t sc_isend(sc_comm_t *comm, const void *buf, size_t bytes, int dst,
                  int tag, sc_request_t **req);

/* Non-blocking receive of exactly `bytes` bytes from rank `src`, or of
 * whatever is sent (SC_ANY_SIZE, buf NULL: the data is dropped); src may
 * be SC_ANY_SOURCE and tag SC_ANY_TAG. */
sc_err_t sc_irecv(sc_comm_t *comm, void *buf, size_t bytes, int src, int tag,
                  sc_request_t **req);

/* Waits for one request / for all of them; NULL entries are skipped. */
sc_err_t sc_wait(sc_comm_t *comm, sc_request_t **req);
sc_err_t sc_waitall(sc_comm_t *comm, int count, sc_request_t **reqs);

/* Waits until one of the requests completes, completes it as sc_wait does
 * and sets *index to its place (-1 if every entry is NULL) and *source, if
 * not NULL, to the sender of a receive (-1 for a send). The lowest index
 * wins when several are complete. */
sc_err_t sc_waitany(sc_comm_t *comm, int count, sc_request_t **reqs, int *index,
                    int *source);

/* As sc_waitany, but leaves the request it found complete for sc_wait or
 * sc_waitall, which then return at once: so that a send and a receive
 * still complete together (their overheads and paths as sc_sendrecv's)
 * when something else could have come first. */
sc_err_t sc_wait_ready(sc_comm_t *comm, int count, sc_request_t **reqs, int *index);

/* *flag = 1 and the request completed as by sc_wait if it is complete,
 * else *flag = 0 and nothing waits. */
sc_err_t sc_test(sc_comm_t *comm, sc_request_t **req, int *flag);

/* Withdraws a receive that has not matched a message yet: *cancelled = 1
 * and the request is gone. Otherwise *cancelled = 0 and the request must
 * still be waited for. Sends cannot be cancelled (MPI-4 deprecates it). */
sc_err_t sc_cancel(sc_comm_t *comm, sc_request_t **req, int *cancelled);

/* Lets the transport complete the request in the background (as
 * MPI_Request_free): a receive's buffer must stay valid until the run ends.
 * The run still fails if its message never comes. */
sc_err_t sc_request_free(sc_comm_t *comm, sc_request_t **req);

/* Whether a message from src (or SC_ANY_SOURCE) with tag (or SC_ANY_TAG)
 * has arrived and waits for its receive; if so, its sender and size. */
sc_err_t sc_iprobe(sc_comm_t *comm, int src, int tag, int *flag, int *source,
                   size_t *bytes);

/* Blocking send and receive (isend or irecv followed by wait). */
sc_err_t sc_send(sc_comm_t *comm, const void *buf, size_t bytes, int dst,
                 int tag);
sc_err_t sc_recv(sc_comm_t *comm, void *buf, size_t bytes, int src, int tag);

/* Posts the receive, then the send, then waits for both, like the
 * MPI_Sendrecv of MPICH. The cost models rely on this order. */
sc_err_t sc_sendrecv(sc_comm_t *comm, const void *sendbuf, size_t sendbytes,
                     int dst, int sendtag, void *recvbuf, size_t recvbytes,
                     int src, int recvtag);

/* Charges the time of a local reduction of `bytes` bytes (the combining
 * itself is the caller's; see algorithms/reduce/). */
sc_err_t sc_reduce_time(sc_comm_t *comm, size_t bytes);

/* Charges the time of entering a collective call (o_call), once a call:
 * sc_algo_call does, before the algorithm runs. */
sc_err_t sc_enter_call(sc_comm_t *comm);

/* Buffers for an algorithm's temporary data. In size-only runs they point
 * into one shared scratch area whose contents are meaningless, so that
 * thousands of simulated ranks do not each hold real memory; algorithms
 * must therefore copy between buffers with sc_buf_copy(), which does nothing
 * in that mode. sc_buf_alloc returns NULL when memory runs out. */
void *sc_buf_alloc(sc_comm_t *comm, size_t bytes);
void sc_buf_free(sc_comm_t *comm, void *buf);
void sc_buf_copy(const sc_comm_t *comm, void *dst, const void *src,
                 size_t bytes);
/* Whether buffers hold data: a loop of p copies per rank, which would cost
 * p^2 steps in all at a scale where only sizes are simulated, can be
 * skipped when they do not. */
int sc_moves_data(const sc_comm_t *comm);
/* end public */

/* The shared scratch area of a size-only run: one per run, shared by all of
 * its ranks. sc_scratch_get returns a buffer of at least `bytes` bytes
 * (NULL if out of memory); buffers stay valid until sc_scratch_destroy. */
sc_scratch_t *sc_scratch_create(void);
void *sc_scratch_get(sc_scratch_t *scratch, size_t bytes);
void sc_scratch_destroy(sc_scratch_t *scratch);

#endif
