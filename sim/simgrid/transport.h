/* The SimGrid transport: MPI-like point-to-point messages between actors,
 * an actor per rank, with the protocol of sim/protocol/protocol.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_TRANSPORT_H
#define SC_TRANSPORT_H

#include "algorithms/p2p.h"
#include "models/cost.h"
#include "sim/protocol/protocol.h"

/* One message as it went, for traces: sent by `src` to `dst` at `level`
 * with `tag`; `posted` when the send was called, `left` when the message
 * started on its way (after the send overhead and the NIC's gap),
 * `arrived` when the receiving rank had its data (an eager message, or the
 * data of a rendezvous, taken in by the receiver's progress), and
 * `completed` when the receiver's wait for it returned (after the receive
 * overhead): from then on the receiver's program can use it. NaN for what
 * never happened (a message drained in the background never completes). */
typedef struct {
    int src, dst, level, tag;
    double bytes;
    double posted, left, arrived, completed;
} sc_msg_record_t;

/* All ranks of one simulation. Only valid inside a SimGrid session (a
 * child process started with sc_engine_boot). */
typedef struct sc_world sc_world_t;

/* Creates the ranks' communicators and mailboxes. `model` (platform and
 * placement) and `scratch` (NULL when payloads are real) must outlive the
 * world. Each rank starts with `receives` receives posted (at least 1). */
sc_err_t sc_world_create(const sc_model_t *model, sc_scratch_t *scratch, int receives,
                         sc_world_t **world);
void sc_world_destroy(sc_world_t *world);

sc_comm_t *sc_world_comm(sc_world_t *world, int rank);
const sc_traffic_t *sc_world_traffic(const sc_world_t *world, int rank);

/* Records every message from now on, at most `max`: see
 * sc_world_messages. */
void sc_world_record_messages(sc_world_t *world, long max);

/* The messages recorded, in the order they were sent; *overflow is 1 if
 * there were more than the maximum (the rest were not recorded). */
const sc_msg_record_t *sc_world_messages(const sc_world_t *world, long *n, int *overflow);

/* After the simulation: SC_ERR_RUN naming a rank that was sent messages it
 * never received (they may arrive after it finished, unseen by
 * sc_transport_end). */
sc_err_t sc_world_check(const sc_world_t *world);

/* After the simulation: 0 if every message was seen the moment it arrived,
 * else the number of receives a rank needed posted and lacked (more
 * messages were in flight to it while it waited than it had receives, so
 * one may have been seen late). The simulation is then to be run again
 * with at least that many receives per rank. */
int sc_world_receives_short(const sc_world_t *world);

/* Called by rank `comm` in its actor: sc_transport_begin before any other
 * call (it starts listening on the rank's mailbox); sc_transport_sync to
 * take in whatever has already arrived (after a deliberate delay);
 * sc_transport_end last, which fails if messages were left unmatched. */
void sc_transport_begin(sc_comm_t *comm);
void sc_transport_sync(sc_comm_t *comm);
sc_err_t sc_transport_end(sc_comm_t *comm);

#endif
