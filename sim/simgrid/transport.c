/* The SimGrid transport: MPI-like point-to-point messages between actors.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "sim/simgrid/transport.h"

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/comm.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/simgrid/s4u_calls.h"

/* Every rank owns one mailbox, its inbox, and is declared its permanent
 * receiver: a message put there starts flowing at once, whether or not the
 * rank is waiting, as an MPI eager message does. (A plain SimGrid put waits
 * for the matching get, which is the rendezvous behaviour.) The envelopes
 * that travel, their matching and their costs are the protocol's
 * (sim/protocol/protocol.h); this file moves them through SimGrid with an
 * actor per rank, which sleeps for its overheads and blocks in its waits. */

/* Receives the rank keeps posted on its inbox. Envelopes are matched to them
 * in arrival order, but each completes on its own, so a long message still
 * in flight does not hold back a short one that arrived after it. That
 * needs one receive per envelope in flight to the rank, and a rank waits on
 * all of its receives (a cost per wait), so it posts as many as it has
 * envelopes in flight when it is about to wait. While it waits it cannot
 * add any: if a sender then puts more envelopes in flight to it than it has
 * receives (Open MPI's linear reduce has p - 1 ranks sending to the root at
 * once), the world records it and the simulation is run again with that
 * many receives from the start (sc_world_receives_short). */

/* What SimGrid delivers is held in the rank's `held` queue until the
 * protocol says it arrives (sc_protocol_ready, sim/protocol/protocol.h): a
 * header alone at its model's time, an envelope with data after its
 * latency factor's extra latency, counted from when SimGrid delivered it
 * (a rank busy meanwhile takes it later), and so is a rendezvous send
 * whose data has arrived; a wait then also ends at the first of them to
 * be ready. */

/* An envelope the sender does not wait for (EAGER, RTS, CTS). SimGrid would
 * let the sender detach it, but 3.32 keeps detached communications on one
 * global list and scans it to remove each one as it completes, a cost per
 * message that grows with the messages in flight (a quarter of the time at
 * 4096 ranks). So the sender keeps it instead, the receiver marks it
 * arrived when it takes the envelope, and the sender then releases it with a
 * wait that returns at once. */
typedef struct sent {
    sg_comm_t comm;
    sc_envelope_t *env; /* until it arrives */
    int arrived;
    struct sent *next;
} sent_t;

struct sc_request {
    int is_send;
    int done;
    int freed;  /* by sc_request_free: the transport completes and frees it */
    int peer, tag; /* receives: may be SC_ANY_SOURCE, SC_ANY_TAG */
    int source;    /* receives: the sender of the message matched */
    size_t bytes;
    double path_bytes; /* the sender's path_bytes when it sent */
    long record;       /* its message's sc_msg_record_t, or -1 (a receive: once
                          its message is known) */
    const void *sendbuf;
    void *recvbuf;
};

typedef struct {
    sg_comm_t comm;
    sc_request_t *req;
} put_t;

typedef struct {
    sc_comm_t comm;
    sc_world_t *world;
    char inbox_name[32];
    sg_mailbox_t inbox;
    sg_comm_t *pool;       /* posted receives */
    sc_envelope_t ***pool_env; /* where each receives its envelope: one
                                  cell each, since SimGrid keeps the address */
    long *pool_seq; /* which envelope to the rank each receives: see drain() */
    int npool;
    long receives_posted;
    int waiting;           /* blocked in wait_one: cannot post receives */
    long envelopes_in;     /* put into the inbox by senders */
    long envelopes_taken;  /* taken out of the pool */
    sc_matcher_t match;  /* the protocol's queues */
    sc_held_queue_t held; /* what the protocol holds back (hold) */
    sent_t *sent; /* envelopes not yet released, newest first */
    put_t *puts; /* rendezvous data this rank is sending */
    int nputs, cap_puts;
    sg_comm_t *waitset; /* room for npool + cap_puts comms */
    sc_traffic_t traffic;
    long background; /* requests freed before they completed */
    sc_err_t error; /* first protocol error seen by this rank */
    char error_msg[256];
} rank_t;

struct sc_world {
    const sc_model_t *model;
    rank_t *ranks;
    int receives;       /* posted by each rank when it begins */
    int receives_short; /* see sc_world_receives_short */
    /* sc_world_record_messages: the log, its room, its limit */
    sc_msg_record_t *msgs;
    long nmsgs, cap_msgs, max_msgs;
    int msgs_overflow;
};

static const sc_transport_t simgrid_transport;
static const sc_protocol_ops_t protocol_ops;

sc_err_t sc_world_create(const sc_model_t *model, sc_scratch_t *scratch, int receives,
                         sc_world_t **out)
{
    sc_world_t *world = calloc(1, sizeof *world);
    if (!world || !(world->ranks = calloc((size_t)model->size, sizeof *world->ranks))) {
        free(world);
        return sc_error(SC_ERR_RUN, "out of memory creating %d ranks", model->size);
    }
    world->model = model;
    world->receives = receives > 1 ? receives : 1;
    for (int r = 0; r < model->size; r++) {
        rank_t *rk = &world->ranks[r];
        rk->comm = (sc_comm_t){.rank = r, .size = model->size,
                               .transport = &simgrid_transport, .impl = rk,
                               .scratch = scratch, .node_of = model->node_of};
        rk->world = world;
        snprintf(rk->inbox_name, sizeof rk->inbox_name, "inbox-%d", r);
        rk->inbox = sg_mailbox_by_name(rk->inbox_name);
    }
    *out = world;
    return SC_OK;
}

void sc_world_destroy(sc_world_t *world)
{
    if (!world)
        return;
    for (int r = 0; r < world->model->size; r++) {
        sc_matcher_destroy(&world->ranks[r].match);
        sc_held_clear(&world->ranks[r].held);
        sc_comm_release(&world->ranks[r].comm);
        free(world->ranks[r].puts);
        free(world->ranks[r].waitset);
        free(world->ranks[r].pool);
        for (int k = 0; k < world->ranks[r].npool; k++)
            free(world->ranks[r].pool_env[k]);
        free(world->ranks[r].pool_env);
        free(world->ranks[r].pool_seq);
    }
    free(world->ranks);
    free(world->msgs);
    free(world);
}

void sc_world_record_messages(sc_world_t *world, long max)
{
    world->max_msgs = max;
}

const sc_msg_record_t *sc_world_messages(const sc_world_t *world, long *n, int *overflow)
{
    *n = world->nmsgs;
    *overflow = world->msgs_overflow;
    return world->msgs;
}

/* A new record for a message being sent, or -1 when not recording. */
static long record_message(sc_world_t *world, int src, int dst, int level, int tag,
                           size_t bytes, double posted)
{
    if (world->nmsgs >= world->max_msgs) {
        world->msgs_overflow |= world->max_msgs > 0;
        return -1;
    }
    if (world->nmsgs == world->cap_msgs) {
        long cap = world->cap_msgs ? 2 * world->cap_msgs : 1024;
        sc_msg_record_t *more = realloc(world->msgs, (size_t)cap * sizeof *more);
        if (!more) {
            world->msgs_overflow = 1;
            return -1;
        }
        world->msgs = more;
        world->cap_msgs = cap;
    }
    world->msgs[world->nmsgs] = (sc_msg_record_t){.src = src, .dst = dst, .level = level,
                                                  .tag = tag, .bytes = (double)bytes,
                                                  .posted = posted, .left = posted,
                                                  .arrived = NAN, .completed = NAN};
    return world->nmsgs++;
}

int sc_world_receives_short(const sc_world_t *world)
{
    return world->receives_short;
}

sc_err_t sc_world_check(const sc_world_t *world)
{
    for (int r = 0; r < world->model->size; r++) {
        const rank_t *rk = &world->ranks[r];
        if (rk->match.addressed != rk->match.matched)
            return sc_error(SC_ERR_RUN, "rank %d was sent %ld message(s) but received %ld", r,
                            rk->match.addressed, rk->match.matched);
    }
    return SC_OK;
}

sc_comm_t *sc_world_comm(sc_world_t *world, int rank)
{
    return &world->ranks[rank].comm;
}

const sc_traffic_t *sc_world_traffic(const sc_world_t *world, int rank)
{
    return &world->ranks[rank].traffic;
}

static int payload(const rank_t *rk)
{
    return rk->comm.scratch == NULL;
}

/* Records the rank's first protocol error; later calls return it. */
static void fail(rank_t *rk, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(rank_t *rk, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sc_error_keep_first(&rk->error, rk->error_msg, sizeof rk->error_msg, SC_ERR_RUN, fmt, ap);
    va_end(ap);
}

/* Returns the rank's error, recorded for the caller, or SC_OK. */
static sc_err_t status(rank_t *rk)
{
    if (rk->error)
        sc_error(rk->error, "%s", rk->error_msg);
    return rk->error;
}

/* Marks r complete; one the rank has freed is released here, since nobody
 * will wait for it. */
static void complete(rank_t *rk, sc_request_t *r)
{
    r->done = 1;
    if (r->freed) {
        rk->background--;
        free(r);
    }
}

/* The rank whose protocol state is m. */
static rank_t *rank_of(sc_matcher_t *m)
{
    return (rank_t *)((char *)m - offsetof(rank_t, match));
}

/* A new envelope from the rank to dst, carrying a copy of `data` when
 * payloads are real. */
static sc_envelope_t *envelope_new(rank_t *rk, sc_env_kind_t kind, int dst, int tag,
                                   size_t bytes, const void *data)
{
    sc_envelope_t *env = sc_envelope_new(kind, rk->comm.rank, dst, tag, bytes);
    if (env && data && payload(rk) && bytes) {
        env->data = malloc(bytes);
        if (env->data)
            memcpy(env->data, data, bytes);
        else {
            free(env);
            env = NULL;
        }
    }
    if (!env)
        fail(rk, "rank %d: out of memory for a message of %zu bytes", rk->comm.rank, bytes);
    return env;
}

static sg_mailbox_t inbox_of(const rank_t *rk, int rank)
{
    return rk->world->ranks[rank].inbox;
}

/* Puts in flight to `peer` a payload carrying `data` bytes: its wire
 * bytes, at most at its level's flow bound. */
static sg_comm_t put(const rank_t *rk, int peer, void *payload, size_t data)
{
    sc_wire_plan_t w = sc_protocol_wire(rk->world->model, rk->comm.rank, peer, data);
    return sc_mailbox_put_async(inbox_of(rk, peer), payload, (long)w.wire_bytes, w.rate);
}

/* Counts an envelope put in flight to rank dst, and whether dst may see it
 * late (see the comment on receives at the top). */
static void envelope_sent(sc_world_t *world, int dst)
{
    rank_t *to = &world->ranks[dst];
    long in_flight = ++to->envelopes_in - to->envelopes_taken;
    if (to->waiting && in_flight > to->npool && in_flight > world->receives_short)
        world->receives_short = (int)in_flight;
}

/* A message that completes on its own: the sender does not wait for it,
 * but releases it once it has arrived (see sent_t). */
static void post_unwaited(rank_t *rk, sc_envelope_t *env, size_t data)
{
    int dst = env->dst;
    sent_t *sent = malloc(sizeof *sent);
    if (!sent || !sc_matcher_number(&rk->match, &protocol_ops, env)) {
        if (!sent)
            fail(rk, "rank %d: out of memory sending to rank %d", rk->comm.rank, dst);
        free(sent);
        sc_envelope_free(env);
        return;
    }
    env->sent = sent;
    env->left = simgrid_get_clock();
    *sent = (sent_t){put(rk, dst, env, data), env, 0, rk->sent};
    rk->sent = sent;
    envelope_sent(rk->world, dst);
}

/* Releases the rank's envelopes that have arrived; with `all`, waits for
 * the others too (at the end, where the rank's time is already taken). */
static void release_sent(rank_t *rk, int all)
{
    for (sent_t **link = &rk->sent; *link;) {
        sent_t *s = *link;
        if (s->arrived || all) {
            if (!s->arrived)
                s->env->sent = NULL; /* its receiver must not mark it */
            sg_comm_wait(s->comm);
            *link = s->next;
            free(s);
        } else {
            link = &s->next;
        }
    }
}

/* The protocol's requests are the transport's. */
static sc_request_t *request(sc_req_ref_t ref)
{
    return (sc_request_t *)ref;
}

static void on_matched(sc_matcher_t *m, sc_req_ref_t rreq, const sc_envelope_t *env)
{
    (void)m;
    request(rreq)->source = env->src;
    request(rreq)->path_bytes = env->path_bytes;
    /* a receive of any size costs what came */
    if (request(rreq)->bytes == SC_ANY_SIZE)
        request(rreq)->bytes = env->bytes;
}

static void on_received(sc_matcher_t *m, sc_req_ref_t rreq, const sc_envelope_t *env)
{
    sc_request_t *r = request(rreq);
    r->record = env->record;
    if (env->data && r->recvbuf)
        memcpy(r->recvbuf, env->data, env->bytes);
    complete(rank_of(m), r);
}

static void on_clear_to_send(sc_matcher_t *m, sc_req_ref_t rreq, const sc_envelope_t *rts)
{
    rank_t *rk = rank_of(m);
    sc_envelope_t *cts = envelope_new(rk, SC_ENV_CTS, rts->src, rts->tag, rts->bytes, NULL);
    if (cts) {
        cts->sreq = rts->sreq;
        cts->rreq = rreq;
        post_unwaited(rk, cts, 0);
    } else {
        complete(rk, request(rreq));
    }
}

/* The receiver answered our RTS: send the data for real. */
static void on_send_data(sc_matcher_t *m, const sc_envelope_t *cts)
{
    rank_t *rk = rank_of(m);
    sc_request_t *s = request(cts->sreq);
    sc_envelope_t *data = envelope_new(rk, SC_ENV_DATA, s->peer, s->tag, s->bytes, s->sendbuf);
    if (!data) {
        complete(rk, s);
        return;
    }
    data->rreq = cts->rreq;
    data->record = s->record;
    if (rk->nputs == rk->cap_puts) {
        int cap = rk->cap_puts ? 2 * rk->cap_puts : 4;
        put_t *puts = realloc(rk->puts, (size_t)cap * sizeof *puts);
        sg_comm_t *waitset = realloc(rk->waitset, (size_t)(rk->npool + cap) * sizeof *waitset);
        if (puts)
            rk->puts = puts;
        if (waitset)
            rk->waitset = waitset;
        if (!puts || !waitset) {
            fail(rk, "rank %d: out of memory for pending sends", rk->comm.rank);
            sc_envelope_free(data);
            complete(rk, s);
            return;
        }
        rk->cap_puts = cap;
    }
    sg_comm_t c = put(rk, s->peer, data, s->bytes);
    envelope_sent(rk->world, s->peer);
    rk->puts[rk->nputs++] = (put_t){c, s};
}

static void on_mismatch(sc_matcher_t *m, sc_req_ref_t rreq, const char *message)
{
    rank_t *rk = rank_of(m);
    fail(rk, "%s", message);
    complete(rk, request(rreq));
}

static void on_out_of_memory(sc_matcher_t *m, const char *what)
{
    rank_t *rk = rank_of(m);
    fail(rk, "rank %d: out of memory for %s", rk->comm.rank, what);
}

static const sc_protocol_ops_t protocol_ops = {
    .matched = on_matched,
    .received = on_received,
    .clear_to_send = on_clear_to_send,
    .send_data = on_send_data,
    .mismatch = on_mismatch,
    .out_of_memory = on_out_of_memory,
};

static void repost(rank_t *rk, int slot)
{
    rk->pool[slot] = sg_mailbox_get_async(rk->inbox, (void **)rk->pool_env[slot]);
    rk->pool_seq[slot] = rk->receives_posted++;
}

/* The rank takes in an envelope that has arrived. */
static void accept(rank_t *rk, sc_envelope_t *env)
{
    if (env->record >= 0)
        rk->world->msgs[env->record].arrived = simgrid_get_clock();
    sc_matcher_accept(&rk->match, &protocol_ops, env);
}

/* Whether what SimGrid delivered at `arrived` from src to dst, carrying
 * `data` bytes, is held back (and then held). */
static int hold(rank_t *rk, int src, int dst, size_t data, double arrived, sc_envelope_t *env,
                sc_request_t *send)
{
    double ready = env ? sc_protocol_ready(rk->world->model, env, arrived)
                       : arrived + sc_protocol_wire(rk->world->model, src, dst, data).extra_latency;
    if (ready <= simgrid_get_clock())
        return 0;
    if (!sc_held_push(&rk->held, ready, env, (sc_req_ref_t)send, rk->comm.rank)) {
        fail(rk, "rank %d: out of memory holding a message", rk->comm.rank);
        return 0;
    }
    return 1;
}

/* The envelope of receive `slot`, which SimGrid delivered at `arrived`. */
static void take_from_pool(rank_t *rk, int slot, double arrived)
{
    sc_envelope_t *env = *rk->pool_env[slot];
    rk->envelopes_taken++;
    if (env->sent)
        ((sent_t *)env->sent)->arrived = 1;
    repost(rk, slot);
    if (!hold(rk, env->src, env->dst, sc_envelope_data_bytes(env), arrived, env, NULL))
        accept(rk, env);
}

/* Posts receives until the rank has n. Returns 0 if out of memory (the
 * rank has failed). */
static int pool_at_least(rank_t *rk, long needed)
{
    if (needed <= rk->npool)
        return 1;
    int n = (int)needed;
    sg_comm_t *pool = realloc(rk->pool, (size_t)n * sizeof *pool);
    if (pool)
        rk->pool = pool;
    sc_envelope_t ***cells = pool ? realloc(rk->pool_env, (size_t)n * sizeof *cells) : NULL;
    if (cells)
        rk->pool_env = cells;
    long *seq = cells ? realloc(rk->pool_seq, (size_t)n * sizeof *seq) : NULL;
    if (seq)
        rk->pool_seq = seq;
    sg_comm_t *waitset = seq ? realloc(rk->waitset, (size_t)(n + rk->cap_puts) * sizeof *waitset)
                               : NULL;
    if (waitset)
        rk->waitset = waitset;
    while (waitset && rk->npool < n) {
        if (!(rk->pool_env[rk->npool] = malloc(sizeof(sc_envelope_t *))))
            break;
        repost(rk, rk->npool++);
    }
    if (rk->npool < n) {
        fail(rk, "rank %d: out of memory for %d receives", rk->comm.rank, n);
        return 0;
    }
    return 1;
}

/* Rendezvous data put i, which SimGrid delivered at `arrived`: the send
 * completes when the receiver has it. */
static void put_done(rank_t *rk, int i, double arrived)
{
    sc_request_t *s = rk->puts[i].req;
    rk->puts[i] = rk->puts[--rk->nputs];
    if (!hold(rk, rk->comm.rank, s->peer, s->bytes, arrived, NULL, s))
        complete(rk, s);
}

/* Hands on what the latency factor held until now. */
static void release_held(rank_t *rk)
{
    double now = simgrid_get_clock();
    while (sc_held_due(&rk->held, now)) {
        sc_held_t *h = sc_held_pop(&rk->held);
        if (h->env)
            accept(rk, h->env);
        else
            complete(rk, request(h->send));
        free(h);
    }
}

/* Handles every message that has already arrived and every send that has
 * already completed, without letting simulated time pass. One pass is
 * enough: transfers complete only when SimGrid advances its model, never
 * while this rank runs.
 *
 * Only receives that have an envelope can have completed, and testing one
 * costs a SimGrid call. SimGrid pairs the receives posted on the inbox
 * with the envelopes put there first come, first served on both sides, so
 * the n-th receive the rank posts gets the n-th envelope sent to it: the
 * receives whose number is below the envelopes put so far are the ones to
 * test. A reposted one may find its envelope already there, so a slot is
 * tested until it has nothing. */
static void drain(rank_t *rk)
{
    if (!pool_at_least(rk, rk->envelopes_in - rk->envelopes_taken))
        return;
    /* What SimGrid delivered is held from when it did (a rank busy
     * meanwhile tests it only now), then what is ready goes on. */
    double arrived;
    for (int k = 0; k < rk->npool; k++)
        while (rk->pool_seq[k] < rk->envelopes_in && sc_comm_test_finish(rk->pool[k], &arrived))
            take_from_pool(rk, k, arrived);
    for (int i = 0; i < rk->nputs; i++)
        if (sc_comm_test_finish(rk->puts[i].comm, &arrived))
            put_done(rk, i--, arrived);
    release_held(rk);
}

/* Blocks until one message arrives or one send completes, and handles it,
 * or until the first thing held is ready (which drain then hands on). */
static void wait_one(rank_t *rk)
{
    if (!pool_at_least(rk, rk->envelopes_in - rk->envelopes_taken))
        return;
    memcpy(rk->waitset, rk->pool, (size_t)rk->npool * sizeof *rk->pool);
    for (int i = 0; i < rk->nputs; i++)
        rk->waitset[rk->npool + i] = rk->puts[i].comm;
    size_t n = (size_t)(rk->npool + rk->nputs);
    rk->waiting = 1;
    /* drain has handed on all that was ready: the first held is later. */
    ssize_t idx = rk->held.head ? sc_comm_wait_any_for(rk->waitset, n,
                                                       rk->held.head->ready - simgrid_get_clock())
                                : sc_comm_wait_any(rk->waitset, n);
    rk->waiting = 0;
    if (idx < 0 && rk->held.head)
        return; /* timed out: the first held is ready */
    double now = simgrid_get_clock();
    if (idx < 0)
        fail(rk, "rank %d: a SimGrid communication failed", rk->comm.rank);
    else if (idx < rk->npool)
        take_from_pool(rk, (int)idx, now);
    else
        put_done(rk, (int)idx - rk->npool, now);
}

static sc_err_t check_peer(rank_t *rk, int peer, const char *what)
{
    if (peer < 0 || peer >= rk->comm.size)
        fail(rk, "rank %d: %s rank %d, but ranks are 0..%d", rk->comm.rank, what, peer,
             rk->comm.size - 1);
    return rk->error;
}

static sc_err_t sim_isend(sc_comm_t *comm, const void *buf, size_t bytes, int dst,
                          int tag, sc_request_t **out)
{
    rank_t *rk = comm->impl;
    *out = NULL;
    if (check_peer(rk, dst, "send to"))
        return rk->error;
    const sc_model_t *model = rk->world->model;
    sc_send_plan_t plan = sc_protocol_send(model, comm->rank, dst, bytes, &rk->traffic);
    rk->world->ranks[dst].match.addressed++;
    long record = record_message(rk->world, comm->rank, dst, plan.level, tag, bytes,
                                 simgrid_get_clock());
    int eager = plan.eager;
    if (plan.o_s > 0)
        sg_actor_sleep_for(plan.o_s);
    /* The NIC's gap: the core waits until the message may leave. */
    double now = simgrid_get_clock();
    double leave = sc_protocol_depart(model, &plan, now);
    if (leave > now)
        sg_actor_sleep_for(leave - now);

    sc_request_t *req = calloc(1, sizeof *req);
    sc_envelope_t *env = envelope_new(rk, plan.first, dst, tag, bytes, eager ? buf : NULL);
    if (!req || !env) {
        free(req);
        if (env)
            sc_envelope_free(env);
        fail(rk, "rank %d: out of memory sending %zu bytes", comm->rank, bytes);
        return rk->error;
    }
    *req = (sc_request_t){.is_send = 1, .peer = dst, .tag = tag, .bytes = bytes,
                          .path_bytes = rk->traffic.path_bytes, .record = record,
                          .sendbuf = buf};
    env->path_bytes = rk->traffic.path_bytes;
    if (record >= 0)
        rk->world->msgs[record].left = simgrid_get_clock();
    if (eager) {
        env->record = record;
        req->done = 1;
    } else {
        env->sreq = (sc_req_ref_t)req;
    }
    post_unwaited(rk, env, plan.first_data);
    *out = req;
    return SC_OK;
}

static sc_err_t sim_irecv(sc_comm_t *comm, void *buf, size_t bytes, int src, int tag,
                          sc_request_t **out)
{
    rank_t *rk = comm->impl;
    *out = NULL;
    if (src != SC_ANY_SOURCE && check_peer(rk, src, "receive from"))
        return rk->error;
    if (bytes == SC_ANY_SIZE && buf) {
        fail(rk, "rank %d: a receive of any size discards its data: its buffer must be NULL",
             comm->rank);
        return rk->error;
    }
    sc_request_t *req = calloc(1, sizeof *req);
    if (!req) {
        fail(rk, "rank %d: out of memory posting a receive", comm->rank);
        return rk->error;
    }
    *req = (sc_request_t){.peer = src, .tag = tag, .source = src, .bytes = bytes,
                          .record = -1, .recvbuf = buf};
    /* What arrived while the rank was busy (computing, or paying o_r) is
     * unexpected by now, and matched at once: the cost model assumes so. */
    drain(rk);
    if (!sc_matcher_post(&rk->match, &protocol_ops, (sc_req_ref_t)req, src, tag, bytes)) {
        free(req);
        return rk->error;
    }
    *out = req;
    return rk->error;
}

static int pending(sc_request_t **reqs, int count)
{
    for (int i = 0; i < count; i++)
        if (reqs[i] && !reqs[i]->done)
            return 1;
    return 0;
}

static sc_err_t sim_waitall(sc_comm_t *comm, int count, sc_request_t **reqs)
{
    rank_t *rk = comm->impl;
    /* Draining before each check means a wait returns only once everything
     * that has arrived by now is handled; the cost model relies on it. */
    for (drain(rk); pending(reqs, count) && !rk->error; drain(rk))
        wait_one(rk);
    release_sent(rk, 0);
    /* A failed rank's receives may have no source: it pays no o_r. */
    sc_wait_cost_t w = sc_protocol_wait_begin(rk->traffic.path_bytes);
    for (int i = 0; i < count; i++)
        if (reqs[i])
            sc_protocol_wait_add(&w, rk->world->model, comm->rank,
                                 !reqs[i]->is_send && !rk->error, reqs[i]->source,
                                 reqs[i]->bytes, reqs[i]->path_bytes);
    rk->traffic.path_bytes = sc_protocol_wait_path(&w, rk->traffic.path_bytes);
    if (w.o_r > 0)
        sg_actor_sleep_for(w.o_r);
    for (int i = 0; i < count; i++) {
        if (reqs[i] && !reqs[i]->is_send && reqs[i]->record >= 0 && !rk->error)
            rk->world->msgs[reqs[i]->record].completed = simgrid_get_clock();
        free(reqs[i]);
        reqs[i] = NULL;
    }
    return status(rk);
}

static sc_err_t sim_waitany(sc_comm_t *comm, int count, sc_request_t **reqs, int *index,
                            int *source, int complete)
{
    rank_t *rk = comm->impl;
    *index = -1;
    if (source)
        *source = -1;
    int any = 0;
    for (int i = 0; i < count; i++)
        any |= reqs[i] != NULL;
    if (!any)
        return SC_OK;
    for (drain(rk); !rk->error; drain(rk)) {
        for (int i = 0; i < count; i++)
            if (reqs[i] && reqs[i]->done) {
                *index = i;
                if (!complete)
                    return SC_OK;
                if (source)
                    *source = reqs[i]->is_send ? -1 : reqs[i]->source;
                return sim_waitall(comm, 1, &reqs[i]);
            }
        wait_one(rk);
    }
    return status(rk);
}

static sc_err_t sim_test(sc_comm_t *comm, sc_request_t **req, int *flag)
{
    rank_t *rk = comm->impl;
    *flag = 1;
    if (!*req)
        return SC_OK;
    drain(rk);
    if (!(*req)->done) {
        *flag = 0;
        return status(rk);
    }
    return sim_waitall(comm, 1, req);
}

/* Only a receive that has not matched a message can be cancelled: what has
 * arrived by now has matched (drain), as it would in MPI. */
static sc_err_t sim_cancel(sc_comm_t *comm, sc_request_t **req, int *cancelled)
{
    rank_t *rk = comm->impl;
    sc_request_t *r = *req;
    *cancelled = 0;
    if (!r)
        return SC_OK;
    if (r->is_send) {
        fail(rk, "rank %d: only receives can be cancelled (MPI-4 deprecates cancelling "
                 "sends)", comm->rank);
        return status(rk);
    }
    drain(rk);
    if (sc_matcher_cancel(&rk->match, (sc_req_ref_t)r)) {
        free(r);
        *req = NULL;
        *cancelled = 1;
    }
    return status(rk);
}

static sc_err_t sim_request_free(sc_comm_t *comm, sc_request_t **req)
{
    rank_t *rk = comm->impl;
    if (*req && (*req)->done) {
        free(*req);
    } else if (*req) {
        (*req)->freed = 1;
        rk->background++;
    }
    *req = NULL;
    return status(rk);
}

static sc_err_t sim_iprobe(sc_comm_t *comm, int src, int tag, int *flag, int *source,
                           size_t *bytes)
{
    rank_t *rk = comm->impl;
    drain(rk);
    const sc_envelope_t *e = sc_matcher_probe(&rk->match, src, tag);
    *flag = e != NULL;
    if (e && source)
        *source = e->src;
    if (e && bytes)
        *bytes = e->bytes;
    return status(rk);
}

/* The core computes for as long as the cost model says; SimGrid shares a
 * node's cores among its ranks (never more ranks than cores). */
static sc_err_t sim_reduce_time(sc_comm_t *comm, size_t bytes)
{
    rank_t *rk = comm->impl;
    if (bytes && !rk->error) {
        /* The world's model holds the placement; the call, the element. */
        double seconds = sc_model_reduce_time(rk->world->model, comm->rank, comm->elem_size, bytes);
        sg_actor_execute(seconds * sg_host_get_speed(sg_host_self()));
    }
    return rk->error;
}

/* The core is busy entering the call (o_call), as the cost model's
 * COMPUTE op of it. */
static sc_err_t sim_enter_call(sc_comm_t *comm)
{
    rank_t *rk = comm->impl;
    double seconds = sc_model_call_time(rk->world->model);
    if (seconds > 0 && !rk->error)
        sg_actor_execute(seconds * sg_host_get_speed(sg_host_self()));
    return rk->error;
}

static const sc_transport_t simgrid_transport = {
    .isend = sim_isend,
    .irecv = sim_irecv,
    .waitall = sim_waitall,
    .reduce_time = sim_reduce_time,
    .enter_call = sim_enter_call,
    .waitany = sim_waitany,
    .test = sim_test,
    .cancel = sim_cancel,
    .request_free = sim_request_free,
    .iprobe = sim_iprobe,
};

void sc_transport_begin(sc_comm_t *comm)
{
    rank_t *rk = comm->impl;
    sg_mailbox_set_receiver(rk->inbox_name);
    pool_at_least(rk, rk->world->receives);
}

void sc_transport_sync(sc_comm_t *comm)
{
    drain(comm->impl);
}

sc_err_t sc_transport_end(sc_comm_t *comm)
{
    rank_t *rk = comm->impl;
    /* Requests the rank freed still count: their messages must arrive;
     * what is held is taken in, so that a message nobody received shows. */
    for (drain(rk); (rk->background > 0 || rk->held.head) && !rk->error; drain(rk))
        wait_one(rk);
    release_sent(rk, 1);
    char leftover[256];
    if (!rk->error && sc_matcher_leftover(&rk->match, comm->rank, leftover, sizeof leftover))
        fail(rk, "%s", leftover);
    sc_matcher_destroy(&rk->match); /* its counts stay, for sc_world_check */
    sc_held_clear(&rk->held);
    for (int k = 0; k < rk->npool; k++)
        sg_comm_unref(rk->pool[k]);
    if (rk->error)
        sc_error(rk->error, "%s", rk->error_msg);
    return rk->error;
}
