/* simcoll's MPI point-to-point protocol, shared by both engines: the actor
 * per rank (sim/simgrid/transport.c) and the replay's actor per node
 * (sim/simgrid/node_replay.c). Plain C: the engines move envelopes through
 * SimGrid, this module says what they cost and what each one does.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_PROTOCOL_H
#define SC_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "models/cost.h"
#include "sim/protocol/streams.h"

/* What travels is an envelope, which occupies the platform's header size
 * on the wire plus any data:
 *
 *   EAGER  data of a message of at most the level's eager limit;
 *   RTS    request to send a larger message (header only);
 *   CTS    the receiver's answer once the receive is posted (header only);
 *   DATA   the larger message itself, sent on CTS.
 *
 * An eager send returns without waiting for the receiver, as in MPI; the
 * engines make every rank's inbox start a message flowing at once.
 *
 * A header alone (RTS, CTS, an eager message of no data) takes its route's
 * latency plus the header's time at its level, as the cost model has it,
 * and shares no link: SimGrid moves no bytes for it (the actor-free
 * driver no flow at all), and the engines add the header's time to what
 * they hold it for (sc_protocol_ready). Such control messages are a few
 * dozen bytes against the data beside them; as SimGrid flows they cost the
 * driver 60% of its time at 65,536 ranks (bench/README.md), and under
 * contention max-min sharing would make a 40-byte header wait behind the
 * data on its links as if it were a flow of its own.
 *
 * Matching follows MPI: by source and tag, in order. The envelopes receives
 * are matched against (EAGER, RTS) are numbered per pair of ranks and taken
 * in that order: in SimGrid's flow model a short message could otherwise
 * overtake a long one sent before it on the same route, and MPI forbids
 * that. CTS and DATA answer a known request and are taken as they arrive,
 * like rendezvous data moved by RDMA or a shared-memory copy. Envelopes
 * that arrive before their receive is posted wait in the unexpected queue.
 * Protocol work (answering RTS and CTS) happens only while the rank is in
 * a blocking call, as in an MPI library without a progress thread; the cost
 * model of models/cost.h assumes exactly this.
 *
 * Costs: the sender's core pays o_s, then waits for its node's NIC (the
 * gap g between messages leaving a node, sc_model_depart) before the
 * envelope leaves; the receiver pays o_r once a wait has its messages.
 *
 * A level's latency factor l(d) makes an envelope carrying d data bytes
 * take L l(d) instead of the route's L (SMPI's smpi/lat-factor). SimGrid
 * sees only wire bytes, which the bandwidth factor has inflated, so its
 * links give every envelope L, and the engines add the rest, (l(d) - 1) L
 * (sc_wire_plan_t.extra_latency), at the receiver: an envelope SimGrid
 * delivers at t is held until t + (l(d) - 1) L before the protocol sees it
 * (sc_held_t), and so is a header alone (above). So is the completion of
 * a rendezvous send, whose data SimGrid delivers to both ends at once: the
 * two ends complete together, as the cost model has it and as in SMPI,
 * where the latency factor stretches the one transfer both ends wait for.
 * The gap books the
 * receiver's NIC at the envelope's arrival with its whole latency
 * (sc_protocol_depart uses sc_wire_time). Only the time a message
 * arrives moves: while held, it occupies no link, so under contention the
 * flows differ from SMPI's, which delays their start instead. A factor
 * below 1 would take latency away from SimGrid's route: platform files
 * refuse it. */

/* Messages and bytes a rank sent, by hierarchy level, and the bytes on
 * its critical path as Hockney-style cost formulas count them (their beta
 * term, in bytes): a blocking call starts when the rank and the senders of
 * what it receives are ready, and takes as long as its largest message,
 * so path = max(own path, senders' paths when they sent) + largest message
 * of the call. A rank's calls add up; the messages of one sendrecv travel
 * side by side. */
typedef struct {
    double path_bytes;
    /* by the level of the hierarchy a message crossed (sc_model_hier_level):
     * 0 inside a node (its smallest domain), then between its domains,
     * then nodes */
    long level_messages[SC_MAX_LEVELS];
    double level_bytes[SC_MAX_LEVELS];
} sc_traffic_t;

/* Adds the messages and bytes of `t` inside a node (SC_LEVEL_INTRA:
 * hierarchy levels 0 to sc_platform_node_levels(plat)) and between nodes
 * (SC_LEVEL_INTER: every other level) to messages[] and bytes[], each times
 * `sign` (1 or -1). */
void sc_traffic_add(const sc_platform_t *plat, const sc_traffic_t *t, int sign,
                    long messages[SC_NLEVELS], double bytes[SC_NLEVELS]);

/* ---- Sending ---- */

typedef enum { SC_ENV_EAGER, SC_ENV_RTS, SC_ENV_CTS, SC_ENV_DATA } sc_env_kind_t;

/* How one message goes, decided when the send is called: everything
 * about it but when it leaves, which depends on when the sender asks its
 * NIC (sc_protocol_depart). */
typedef struct {
    int src, dst;
    size_t bytes;
    int hier;             /* the hierarchy level it crosses */
    sc_level_id_t level;  /* inside a node or between nodes */
    const sc_level_t *lv; /* that level's parameters */
    int eager;            /* 1: EAGER; 0: RTS, CTS, DATA */
    sc_env_kind_t first;  /* the envelope the send puts in flight: EAGER or RTS */
    size_t first_data;    /* the data bytes it carries: bytes, or none for RTS */
    double o_s;           /* the sender's overhead, seconds */
} sc_send_plan_t;

/* The plan of a send of `bytes` from src to dst; the message is counted in
 * `count` by its level (NULL: not counted, for a plan asked again). */
sc_send_plan_t sc_protocol_send(const sc_model_t *model, int src, int dst, size_t bytes,
                                sc_traffic_t *count);

/* When the message may leave at the earliest, its sender having paid o_s
 * by `now`: `now`, or later when it goes between nodes and the NIC's gap
 * holds it (sc_model_depart, which books the NIC: slots go in the order
 * senders ask, so ask once, after o_s). */
double sc_protocol_depart(const sc_model_t *model, const sc_send_plan_t *plan, double now);

/* How one envelope carrying `data` bytes from src to dst travels. */
typedef struct {
    /* Bytes SimGrid moves: header and data inflated by the bandwidth
     * factor; 0 for a header alone, which shares no link. */
    double wire_bytes;
    /* The most wire bytes a second SimGrid may move it at, so that its
     * header and data go no faster than its level's flow bound
     * (sc_level_flow_bound): the engines set it as the communication's
     * rate, which bounds that flow alone while its links' bandwidth stays
     * shared. -1 without a flow factor, or with no bytes to move. */
    double rate;
    /* The latency beyond its route's that the engines add at the
     * receiver: (l(data) - 1) L of its level, 0 without a latency factor;
     * for a header alone, its time at the level (sc_level_link_time, or
     * the flow bound's if slower) too. */
    double extra_latency;
} sc_wire_plan_t;

sc_wire_plan_t sc_protocol_wire(const sc_model_t *model, int src, int dst, size_t data);

/* ---- Waiting ---- */

/* What a blocking wait adds up over its requests, in their order. */
typedef struct {
    double path, longest; /* see sc_traffic_t */
    double o_r;           /* the receiver's overheads, seconds */
} sc_wait_cost_t;

/* Starts with the rank's own path. */
sc_wait_cost_t sc_protocol_wait_begin(double path_bytes);

/* Adds one request of the wait: a receive of `bytes` from `source`
 * (is_recv), or a send; `req_path` is the path its sender had. */
void sc_protocol_wait_add(sc_wait_cost_t *w, const sc_model_t *model, int rank, int is_recv,
                          int source, size_t bytes, double req_path);

/* The rank's path once the wait is over. */
double sc_protocol_wait_path(const sc_wait_cost_t *w, double path_bytes);

/* ---- Envelopes and matching ---- */

/* An engine's name for one of its requests: the transport's pointer, the
 * replay's index of the call in its schedule. */
typedef uintptr_t sc_req_ref_t;

typedef struct sc_envelope {
    sc_env_kind_t kind;
    int src, dst, tag;
    unsigned seq;             /* EAGER, RTS: position among those src sent dst */
    size_t bytes;             /* of the message */
    double path_bytes;        /* EAGER, RTS: the sender's, see sc_traffic_t */
    sc_req_ref_t sreq, rreq;  /* the two ends of a rendezvous */
    long record;              /* the transport's record of the message, or -1 */
    void *data;               /* EAGER, DATA: copy of the payload, or NULL */
    void *sent;               /* the sender's handle while it is in flight */
    double left;              /* simulated time the engine put it in flight */
    struct sc_envelope *next; /* in a queue */
} sc_envelope_t;

/* A new envelope with no data and no handles; NULL if out of memory. */
sc_envelope_t *sc_envelope_new(sc_env_kind_t kind, int src, int dst, int tag, size_t bytes);

/* The data bytes an envelope carries on the wire: its message's for EAGER
 * and DATA, none for RTS and CTS. */
size_t sc_envelope_data_bytes(const sc_envelope_t *env);

/* When envelope `env`, which SimGrid delivered at `arrived`, reaches the
 * protocol: with data, arrived plus its extra latency; a header alone
 * (RTS, CTS, an empty eager message) shares no link, so SimGrid moves no
 * bytes for it, and its arrival is the model's: env->left plus its route's
 * latency and extra latency (the header's time at its level). SimGrid may
 * hand over an empty message before its route's latency has passed (a
 * receive posted after a send on a mailbox with a permanent receiver
 * matches it as done), so `arrived` is not used for it. */
double sc_protocol_ready(const sc_model_t *model, const sc_envelope_t *env, double arrived);

/* What SimGrid has delivered but the protocol still holds back until
 * `ready` (sc_protocol_ready, sc_wire_plan_t.extra_latency): an envelope for
 * a rank, or the completion of a rendezvous send whose data has arrived
 * (`send`, the engine's request, of `rank`). */
typedef struct sc_held {
    double ready;
    sc_envelope_t *env; /* NULL for a send */
    sc_req_ref_t send;
    int rank;
    struct sc_held *next;
} sc_held_t;

/* A queue of them, in the order they become ready (those ready at the
 * same time in the order they came); zeroed to start. */
typedef struct {
    sc_held_t *head, *tail;
} sc_held_queue_t;

/* Adds an item to the queue; 0 if out of memory. */
int sc_held_push(sc_held_queue_t *q, double ready, sc_envelope_t *env, sc_req_ref_t send, int rank);

/* Whether the first item is ready at `now`. SimGrid's clock after a wait
 * of ready - now may fall short of `ready` by a rounding, as the replay's
 * busy ranks allow for. */
int sc_held_due(const sc_held_queue_t *q, double now);

/* Takes the first item off the queue; the caller frees it (and owns its
 * envelope). */
sc_held_t *sc_held_pop(sc_held_queue_t *q);

/* Frees every item and its envelope. */
void sc_held_clear(sc_held_queue_t *q);

/* Frees the envelope and its data. */
void sc_envelope_free(sc_envelope_t *env);

/* A receive posted and not yet matched. */
typedef struct {
    sc_req_ref_t req;
    int peer, tag; /* may be SC_ANY_SOURCE, SC_ANY_TAG */
    size_t bytes;  /* may be SC_ANY_SIZE */
} sc_posted_t;

/* One rank's matching state; zeroed to start. */
typedef struct {
    sc_posted_t *posted; /* oldest first */
    int nposted, cap_posted;
    sc_envelope_t *unexpected, *unexpected_tail;
    sc_envelope_t *early; /* arrived before their predecessor from the same peer */
    sc_streams_t streams; /* the numbered EAGER/RTS streams to each peer */
    long addressed;       /* messages sent to this rank */
    long matched;         /* of those, the ones its receives matched */
} sc_matcher_t;

/* What an engine does when the protocol says so. Each gets the matcher of
 * the rank concerned (the engine finds its rank around it) and owns the
 * envelope only where said. */
typedef struct {
    /* Receive `rreq` matched EAGER or RTS `env`: the sender's path is known. */
    void (*matched)(sc_matcher_t *m, sc_req_ref_t rreq, const sc_envelope_t *env);
    /* Receive `rreq` has its data: from EAGER `env` when it matched, or
     * from DATA `env` when it arrived. */
    void (*received)(sc_matcher_t *m, sc_req_ref_t rreq, const sc_envelope_t *env);
    /* Receive `rreq` matched RTS `rts`: answer its sender with CTS. */
    void (*clear_to_send)(sc_matcher_t *m, sc_req_ref_t rreq, const sc_envelope_t *rts);
    /* The rank's RTS was answered by `cts`: send the data. */
    void (*send_data)(sc_matcher_t *m, const sc_envelope_t *cts);
    /* Receive `rreq` matched a message of another size: `message` says
     * which; the run fails. */
    void (*mismatch)(sc_matcher_t *m, sc_req_ref_t rreq, const char *message);
    /* The rank ran out of memory for `what`; the run fails. */
    void (*out_of_memory)(sc_matcher_t *m, const char *what);
} sc_protocol_ops_t;

/* Numbers an EAGER or RTS envelope `env` the rank sends to its stream to
 * env->dst; other kinds are not numbered. 0 if out of memory (the engine
 * was told through ops->out_of_memory). */
int sc_matcher_number(sc_matcher_t *m, const sc_protocol_ops_t *ops, sc_envelope_t *env);

/* An envelope arrived for the rank, which is inside a call: EAGER and RTS
 * in their stream's order (kept until their turn), others at once. Takes
 * `env`. */
void sc_matcher_accept(sc_matcher_t *m, const sc_protocol_ops_t *ops, sc_envelope_t *env);

/* The rank posts receive `req`: matched at once with the oldest unexpected
 * envelope it fits, else queued. Returns 0 if out of memory (ops->out_of_memory
 * was called). */
int sc_matcher_post(sc_matcher_t *m, const sc_protocol_ops_t *ops, sc_req_ref_t req, int peer,
                    int tag, size_t bytes);

/* Removes posted receive `req` if it has not matched; 1 if it was there. */
int sc_matcher_cancel(sc_matcher_t *m, sc_req_ref_t req);

/* The oldest unexpected envelope from `src` with `tag` (wildcards allowed),
 * or NULL. */
const sc_envelope_t *sc_matcher_probe(const sc_matcher_t *m, int src, int tag);

/* When the rank has finished: 0 if nothing is left, else 1 and `message`
 * (of `len` bytes) says what was: an unreceived message, a receive still
 * posted, a message whose predecessor never arrived. */
int sc_matcher_leftover(const sc_matcher_t *m, int rank, char *message, size_t len);

/* Frees what the matcher holds but its counts; it is then empty, and may
 * be destroyed again. */
void sc_matcher_destroy(sc_matcher_t *m);

#endif
