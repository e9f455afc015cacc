/* Hockney cost of messages on a two-level cluster, with MPI's protocols.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_COST_H
#define SC_COST_H

#include <stddef.h>

#include "platform.h"

/* public: in simcoll.h, the plug-ins' API (algorithms/plugin/) */
/* The ranks of one run and where they are placed (below); opaque to
 * plug-ins. */
typedef struct sc_model sc_model_t;
/* end public */

struct sc_model {
    const sc_platform_t *plat;
    int size;            /* number of ranks */
    const int *node_of;  /* node of each rank */
    const int *domain_of; /* its smallest domain there (sc_place_domains); NULL: 0 */
    /* For algorithms that play their schedule through a rank mapping (the
     * exch and reorder variants): pi[r] is the position rank r plays,
     * pi_inv[j] the rank playing position j. NULL: the identity. */
    const int *pi, *pi_inv;
    size_t elem_size;    /* bytes per element of reductions (0: none) */
    /* When each node's NIC is next free, to send (2 u) and to receive
     * (2 u + 1): the state of the gap g as messages are costed (see
     * sc_model_depart). NULL when no level has a gap. */
    double *nic_free;
};

/* Fills model; allocates nic_free if the platform's network has a gap.
 * Free with sc_model_destroy. */
sc_err_t sc_model_init(sc_model_t *model, const sc_platform_t *plat, int size, const int *node_of,
                       const int *domain_of, const int *pi, const int *pi_inv, size_t elem_size);
void sc_model_destroy(sc_model_t *model);

/* Bytes a piece carrying `data` bytes occupies on the wire of level lv: the
 * header and the data, divided by the bandwidth factor of that size, in
 * whole bytes as SimGrid counts them. */
double sc_wire_bytes(const sc_platform_t *plat, const sc_level_t *lv, size_t data);

/* Time that piece takes on an idle route: latency * latency factor(data)
 * + wire bytes / bandwidth, or, if longer, the header and data at the
 * level's flow bound (sc_level_flow_bound). SimGrid's links give it the
 * latency; the engines add the rest of it at the receiver
 * (sc_protocol_wire). */
double sc_wire_time(const sc_platform_t *plat, const sc_level_t *lv, size_t data);

/* The gap g of the network level, shared by the transport and the models:
 * a message whose sender is ready at `ready` takes the sender node's next
 * send slot of its NIC (one every g) and the receiver node's next receive
 * slot, reckoned for its first piece arriving after `first_transfer` on an
 * idle route; it leaves when both allow, and the sending core waits until
 * then, as behind a full send queue. Slots go in the order messages ask.
 * nic_free is the state (see sc_model_t); returns the departure time.
 * With gap <= 0 or no state, returns `ready`. */
double sc_model_depart(double *nic_free, int src_node, int dst_node, double gap, double ready,
                       double first_transfer);

/* The level a message from rank a to rank b travels through: in a node or
 * between nodes (sc_model_level_id); between groups of nodes, the network
 * level with the latency and bandwidth of the routes between them
 * (sc_platform_t.between_groups). */
sc_level_id_t sc_model_level_id(const sc_model_t *model, int a, int b);
const sc_level_t *sc_model_level(const sc_model_t *model, int a, int b);

/* The hierarchy level a message from rank a to rank b crosses
 * (sc_platform_hier_level): 0 on one node (one smallest domain), then
 * between its domains, level by level, then the network's levels. */
int sc_model_hier_level(const sc_model_t *model, int a, int b);

/* Every message is costed as the transport of sim/ carries it, assuming no
 * other message shares a link (no contention). Each piece on the wire
 * carries the platform's header of h bytes besides any data, and a piece of
 * d data bytes takes w(d) = L l(d) + (h + d) / (B min(f(d), F(d)))
 * (sc_wire_time), l the latency factor, f the bandwidth factor and F the
 * flow factor (1, 1 and none by default; the header-only RTS and CTS take
 * l(0), f(0) and F(0)):
 *
 *   eager (bytes <= eager_limit): the sender spends o_s(m) and the message
 *     leaves (after any wait for the NIC's gap, sc_model_depart); the data
 *     arrives w(m) later; the send completes on leaving.
 *   rendezvous: the sender spends o_s(m) and sends a request (RTS, w(0));
 *     once the receiver has posted the receive and is inside an MPI call,
 *     it answers with a clear-to-send (w(0)); then the data flows (w(m));
 *     both sides complete together.
 *   the receiver's call returns o_r(m) after the data arrived.
 *
 * For a single message on an idle pair, with f = 1, this is alpha + m beta
 * with alpha = o_s + L + h/B + o_r (eager) or o_s + 3(L + h/B) + o_r
 * (rendezvous), beta = 1/B. */

/* Seconds rank r spends combining `bytes` of received data into its own
 * vector (inout = inout op in), for elements of `elem_size` bytes (0:
 * model->elem_size; a transport passes its call's, comm->elem_size): the
 * roofline of its core (S. Williams, A. Waterman, D. Patterson, "Roofline",
 * CACM 52(4), 2009), the larger of one operation per element at the core's
 * speed and three bytes of memory traffic per byte (two loads, one store, as
 * STREAM's Add kernel counts them) at the node's memory-bus bandwidth. This
 * is gamma * bytes of the reduction cost models. */
double sc_model_reduce_time(const sc_model_t *model, int rank, size_t elem_size, size_t bytes);

/* The seconds a rank's core spends entering a collective call: the
 * platform's o_call (0 without one). */
double sc_model_call_time(const sc_model_t *model);

/* A message's time from its send call to its arrival on an idle pair
 * whose receiver is waiting, without the gap's queue: o_s and the wire
 * time, eager; o_s, the request and the clear-to-send (headers alone) and
 * the data, rendezvous. */
double sc_model_p2p_time(const sc_model_t *model, int from, int to, size_t bytes);

/* Largest entry of t[0..n-1]. */
double sc_model_max(const double *t, int n);

#endif
