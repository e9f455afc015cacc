/* The replay engine: one actor per node plays its ranks' schedules.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "replay.h"
#include "s4u_calls.h"

#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A million ranks cannot each have an actor and a stack, and SimGrid 3.32
 * cannot start communications from one driver either (see
 * bench/README.md: they are detached, and each finished one costs a scan
 * of all those in flight). So each node has one actor, which plays the
 * recorded calls of the ranks placed on it as state machines, with the
 * protocol of sim/protocol/protocol.h, which the actor per rank of
 * sim/engine/transport.c uses too: the same envelopes, matched by the same
 * code, on the same routes at the same times, hence the same simulated
 * times (tests/unit/test_replay.c compares both engines) but where the
 * NIC's gap serves messages of one instant in another order
 * (bench/replay_compare.py measures it).
 *
 * What differs is only how the work is organised:
 *   - a node has one inbox, whose permanent receiver is its actor; an
 *     envelope names the rank it is for;
 *   - a rank that would sleep (send and receive overheads, the NIC's gap,
 *     combining) is busy until a time; the node's actor waits for any of
 *     its communications with a timeout at the first such time;
 *   - envelopes the actor takes for a busy rank wait in the rank's arrived
 *     queue, since a rank handles messages only inside its calls: taken in
 *     at its next call, as the transport's drain does, or at once while it
 *     waits;
 *   - a rank whose wait is over takes in every other arrival of that
 *     instant before it goes on, as the transport's rank woken by one
 *     arrival drains all those of that instant (see wait_next);
 *   - with a latency factor, the node holds what SimGrid delivers (an
 *     envelope, a rendezvous send's completion) for its extra latency in
 *     its `held` queue, as the transport's rank does, and its wait ends
 *     at the first of them to be ready too. The actor is always waiting
 *     when something arrives, so that is SimGrid's delivery time.
 * Requests are named by their op's index in the schedule. */

/* An envelope the sender does not wait for (EAGER, RTS, CTS): the sender
 * keeps its handle until the receiver has taken it (transport.c's sent_t). */
typedef struct sent {
    sg_comm_t comm;
    sc_envelope_t *env; /* until it arrives */
    struct sent *prev, *next; /* in the sender node's unreleased list */
    struct sent *arrived_next; /* in the sender node's arrived stack */
    int node;                  /* the sender's */
} sent_t;

typedef enum { RANK_RUNNING, RANK_BUSY, RANK_WAITING, RANK_DONE } rank_state_t;

typedef struct {
    long pc, end;       /* its next op, its last + 1 */
    rank_state_t state;
    int phase;          /* how far the op at pc has gone (see advance) */
    double busy_until;
    long pending;       /* requests of the wait at pc not yet complete */
    double path_bytes, sent_bytes;
    sc_envelope_t *arrived, *arrived_tail; /* taken by the node, unseen */
    sc_matcher_t match; /* the protocol's queues */
} rank_t;

typedef struct {
    sg_comm_t comm;
    long send_op;
    int rank;
} put_t;

typedef struct {
    int node;          /* the platform's */
    int *ranks, nranks, left;
    char inbox_name[32];
    sg_mailbox_t inbox;
    sg_comm_t *pool;   /* receives posted on the inbox */
    sc_envelope_t ***cells; /* where each receives its envelope: one cell
                               each, since SimGrid keeps the address */
    long *pool_seq;    /* which envelope to the node each receives */
    int npool, cap_pool; /* the three arrays' length and room */
    long receives_posted, envelopes_in, envelopes_taken;
    int waiting;
    put_t *puts;       /* rendezvous data being sent */
    int nputs, cap_puts;
    sg_comm_t *waitset; /* what wait_some waits for */
    int *slot_of;       /* where each came from: pool slot, or -1 - put */
    int cap_waitset, cap_slot_of;
    sent_t unreleased; /* list head */
    sent_t *arrived;   /* stack of envelopes receivers took */
    sc_held_queue_t held; /* what the latency factor holds back */
} node_t;

/* Flags of a request (a SEND or RECV op). */
enum { REQ_DONE = 1, REQ_AWAITED = 2 };

static struct {
    const sc_schedule_t *sched;
    const sc_model_t *model;
    rank_t *ranks;
    node_t *nodes;
    int nnodes;
    int *node_slot; /* platform node -> index in nodes, or -1 */
    unsigned char *req;
    double *req_path;
    int receives, receives_short;
    int holds; /* a level has a latency factor */
    sc_replay_result_t *res;
    int failed;
    char error_msg[256];
} R;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
    if (R.failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(R.error_msg, sizeof R.error_msg, fmt, ap);
    va_end(ap);
    R.failed = 1;
}

static void *grow(void *v, int *cap, size_t each, int need)
{
    if (need <= *cap)
        return v;
    int cap2 = *cap ? 2 * *cap : 4;
    while (cap2 < need)
        cap2 *= 2;
    void *w = realloc(v, (size_t)cap2 * each);
    if (!w) {
        fail("out of memory replaying %d ranks", R.sched->np);
        return NULL;
    }
    *cap = cap2;
    return w;
}

static int rank_index(const rank_t *rk)
{
    return (int)(rk - R.ranks);
}

static node_t *node_of_rank(int r)
{
    return &R.nodes[R.node_slot[R.model->node_of[r]]];
}

/* Marks a request complete, counting it off the wait that awaits it. */
static void complete(rank_t *rk, long op)
{
    R.req[op] |= REQ_DONE;
    if (R.req[op] & REQ_AWAITED)
        rk->pending--;
}

static sc_envelope_t *envelope_new(sc_env_kind_t kind, int src, int dst, int tag, size_t bytes)
{
    sc_envelope_t *env = sc_envelope_new(kind, src, dst, tag, bytes);
    if (!env)
        fail("out of memory replaying %d ranks", R.sched->np);
    return env;
}

/* Counts an envelope put in flight to node nd (transport.c: envelope_sent). */
static void envelope_sent(node_t *nd)
{
    long in_flight = ++nd->envelopes_in - nd->envelopes_taken;
    if (nd->waiting && in_flight > nd->npool) {
        int per_rank = (int)((in_flight + nd->nranks - 1) / nd->nranks);
        if (per_rank > R.receives_short)
            R.receives_short = per_rank;
    }
}

static sg_comm_t put(sc_envelope_t *env, size_t data)
{
    node_t *to = node_of_rank(env->dst);
    double wire = sc_protocol_wire_bytes(R.model, env->src, env->dst, data);
    sg_comm_t comm = sc_mailbox_put_async(to->inbox, env, (long)wire,
                                          sc_protocol_rate_bound(R.model, env->src, env->dst, data));
    envelope_sent(to);
    return comm;
}

/* An envelope the sender does not wait for, numbered if EAGER or RTS. */
static const sc_protocol_ops_t protocol_ops;

static void post_unwaited(sc_envelope_t *env, size_t data)
{
    rank_t *from = &R.ranks[env->src];
    node_t *nd = node_of_rank(env->src);
    if (!sc_matcher_number(&from->match, &protocol_ops, env)) {
        sc_envelope_free(env);
        return;
    }
    sent_t *sent = malloc(sizeof *sent);
    if (!sent) {
        sc_envelope_free(env);
        fail("out of memory replaying %d ranks", R.sched->np);
        return;
    }
    env->sent = sent;
    *sent = (sent_t){.env = env, .node = (int)(nd - R.nodes), .prev = &nd->unreleased,
                     .next = nd->unreleased.next};
    nd->unreleased.next->prev = sent;
    nd->unreleased.next = sent;
    sent->comm = put(env, data);
}

/* The receiver took it: the sender may release its handle. */
static void sent_arrived(sent_t *sent)
{
    node_t *nd = &R.nodes[sent->node];
    sent->prev->next = sent->next;
    sent->next->prev = sent->prev;
    sent->env = NULL;
    sent->arrived_next = nd->arrived;
    nd->arrived = sent;
}

static void release_arrived(node_t *nd)
{
    while (nd->arrived) {
        sent_t *s = nd->arrived;
        nd->arrived = s->arrived_next;
        sg_comm_wait(s->comm);
        free(s);
    }
}

/* At the end: waits for the node's envelopes still in flight. */
static void release_all(node_t *nd)
{
    release_arrived(nd);
    while (nd->unreleased.next != &nd->unreleased) {
        sent_t *s = nd->unreleased.next;
        s->prev->next = s->next;
        s->next->prev = s->prev;
        s->env->sent = NULL; /* its receiver must not mark it */
        sg_comm_wait(s->comm);
        free(s);
    }
}

/* The rank whose protocol state is m. */
static rank_t *rank_of(sc_matcher_t *m)
{
    return (rank_t *)((char *)m - offsetof(rank_t, match));
}

/* The protocol's requests are the schedule's SEND and RECV ops. */
static void on_matched(sc_matcher_t *m, sc_req_ref_t rreq, const sc_envelope_t *env)
{
    (void)m;
    R.req_path[rreq] = env->path_bytes;
}

static void on_received(sc_matcher_t *m, sc_req_ref_t rreq, const sc_envelope_t *env)
{
    (void)env;
    complete(rank_of(m), (long)rreq);
}

static void on_clear_to_send(sc_matcher_t *m, sc_req_ref_t rreq, const sc_envelope_t *rts)
{
    sc_envelope_t *cts = envelope_new(SC_ENV_CTS, rank_index(rank_of(m)), rts->src, rts->tag,
                                      rts->bytes);
    if (cts) {
        cts->sreq = rts->sreq;
        cts->rreq = rreq;
        post_unwaited(cts, 0);
    }
}

/* The receiver answered our RTS: the data goes, and the send completes
 * when it has arrived. */
static void on_send_data(sc_matcher_t *m, const sc_envelope_t *cts)
{
    int r = rank_index(rank_of(m));
    node_t *nd = node_of_rank(r);
    sc_envelope_t *data = envelope_new(SC_ENV_DATA, r, cts->src, cts->tag, cts->bytes);
    put_t *puts = data ? grow(nd->puts, &nd->cap_puts, sizeof *puts, nd->nputs + 1) : NULL;
    if (!puts) {
        free(data);
        return;
    }
    nd->puts = puts;
    data->sreq = cts->sreq;
    data->rreq = cts->rreq;
    puts[nd->nputs++] = (put_t){put(data, data->bytes), (long)cts->sreq, r};
}

static void on_mismatch(sc_matcher_t *m, sc_req_ref_t rreq, const char *message)
{
    (void)m;
    (void)rreq;
    fail("%s", message);
}

static void on_out_of_memory(sc_matcher_t *m, const char *what)
{
    (void)m;
    fail("out of memory for %s replaying %d ranks", what, R.sched->np);
}

static const sc_protocol_ops_t protocol_ops = {
    .matched = on_matched,
    .received = on_received,
    .clear_to_send = on_clear_to_send,
    .send_data = on_send_data,
    .mismatch = on_mismatch,
    .out_of_memory = on_out_of_memory,
};

/* Adds env at the end of the queue from *head to *tail. */
static void append(sc_envelope_t **head, sc_envelope_t **tail, sc_envelope_t *env)
{
    env->next = NULL;
    if (*tail)
        (*tail)->next = env;
    else
        *head = env;
    *tail = env;
}

/* The rank, inside a call, takes in what arrived while it was busy. */
static void drain_rank(rank_t *rk)
{
    while (rk->arrived && !R.failed) {
        sc_envelope_t *env = rk->arrived;
        rk->arrived = env->next;
        if (!rk->arrived)
            rk->arrived_tail = NULL;
        sc_matcher_accept(&rk->match, &protocol_ops, env);
    }
}

static void busy(rank_t *rk, double until)
{
    rk->state = RANK_BUSY;
    rk->busy_until = until;
}

/* Runs rank r from its op at pc until it must wait or be busy, or ends.
 * Each op goes through phases, as the transport's calls do:
 *   SEND     0: counted, pays o_s; 1: waits for the NIC's gap; 2: leaves;
 *   WAIT     0: counts its requests; 1: until they are complete; 2: pays o_r;
 *   COMPUTE  0: computes; 1: done. */
static void advance(node_t *nd, int r)
{
    rank_t *rk = &R.ranks[r];
    const sc_model_t *model = R.model;
    const sc_sched_op_t *ops = R.sched->ops;
    const uint32_t *ids = R.sched->wait_ids + R.sched->id_start[r];
    long base = R.sched->op_start[r];
    double now = simgrid_get_clock();
    rk->state = RANK_RUNNING;
    while (rk->pc < rk->end && !R.failed) {
        const sc_sched_op_t *op = &ops[rk->pc];
        switch ((sc_op_kind_t)op->kind) {
        case SC_OP_SEND: {
            int dst = op->peer;
            size_t bytes = (size_t)op->u.bytes;
            sc_send_plan_t plan = sc_protocol_send_plan(model, r, dst, bytes);
            int eager = plan.eager;
            if (rk->phase == 0) {
                sc_protocol_count(&R.res->total, &plan, bytes);
                rk->sent_bytes += (double)bytes;
                R.ranks[dst].match.addressed++;
                rk->phase = 1;
                if (plan.o_s > 0) {
                    busy(rk, now + plan.o_s);
                    return;
                }
            }
            if (rk->phase == 1) {
                rk->phase = 2;
                double leave = sc_protocol_departure(model, &plan, r, dst, bytes, now);
                if (leave > now) {
                    busy(rk, leave);
                    return;
                }
            }
            sc_envelope_t *env = envelope_new(eager ? SC_ENV_EAGER : SC_ENV_RTS, r, dst, op->tag,
                                              bytes);
            if (!env)
                return;
            env->path_bytes = rk->path_bytes;
            env->sreq = (sc_req_ref_t)rk->pc;
            R.req_path[rk->pc] = rk->path_bytes;
            if (eager)
                R.req[rk->pc] |= REQ_DONE;
            post_unwaited(env, eager ? bytes : 0);
            rk->phase = 0;
            rk->pc++;
            break;
        }
        case SC_OP_RECV: {
            drain_rank(rk);
            if (!sc_matcher_post(&rk->match, &protocol_ops, (sc_req_ref_t)rk->pc, op->peer,
                                 op->tag, (size_t)op->u.bytes))
                return;
            rk->pc++;
            break;
        }
        case SC_OP_WAIT: {
            const uint32_t *mine = ids + op->u.wait.first;
            uint32_t count = op->u.wait.count;
            if (rk->phase == 0) {
                rk->pending = 0;
                for (uint32_t i = 0; i < count; i++) {
                    R.req[base + mine[i]] |= REQ_AWAITED;
                    rk->pending += !(R.req[base + mine[i]] & REQ_DONE);
                }
                rk->phase = 1;
            }
            if (rk->phase == 1) {
                drain_rank(rk);
                if (rk->pending > 0) {
                    rk->state = RANK_WAITING;
                    return;
                }
                sc_wait_cost_t w = sc_protocol_wait_begin(rk->path_bytes);
                for (uint32_t i = 0; i < count; i++) {
                    long id = base + mine[i];
                    const sc_sched_op_t *q = &ops[id];
                    sc_protocol_wait_add(&w, model, r, q->kind == SC_OP_RECV, q->peer,
                                         (size_t)q->u.bytes, R.req_path[id]);
                }
                rk->path_bytes = sc_protocol_wait_path(&w, rk->path_bytes);
                rk->phase = 2;
                if (w.o_r > 0) {
                    busy(rk, now + w.o_r);
                    return;
                }
            }
            rk->phase = 0;
            rk->pc++;
            break;
        }
        case SC_OP_COMPUTE:
            if (rk->phase == 0 && op->u.seconds > 0) {
                rk->phase = 1;
                busy(rk, now + op->u.seconds);
                return;
            }
            rk->phase = 0;
            rk->pc++;
            break;
        }
    }
    if (R.failed)
        return;
    /* As the transport's end: nothing may be left over. */
    char leftover[256];
    if (sc_matcher_leftover(&rk->match, r, leftover, sizeof leftover))
        fail("%s", leftover);
    R.res->finish[r] = now;
    rk->state = RANK_DONE;
    nd->left--;
}

static void repost(node_t *nd, int slot)
{
    nd->pool[slot] = sg_mailbox_get_async(nd->inbox, (void **)nd->cells[slot]);
    nd->pool_seq[slot] = nd->receives_posted++;
}

/* Posts receives until the node has n (transport.c: pool_at_least). */
static int pool_at_least(node_t *nd, long n)
{
    if (n <= nd->npool)
        return 1;
    if (n > nd->cap_pool) {
        /* grow() sets the room it made: the three arrays share it. */
        int cap = nd->cap_pool;
        sg_comm_t *pool = grow(nd->pool, &cap, sizeof *pool, (int)n);
        if (!pool)
            return 0;
        nd->pool = pool;
        cap = nd->cap_pool;
        sc_envelope_t ***cells = grow(nd->cells, &cap, sizeof *cells, (int)n);
        if (!cells)
            return 0;
        nd->cells = cells;
        cap = nd->cap_pool;
        long *seq = grow(nd->pool_seq, &cap, sizeof *seq, (int)n);
        if (!seq)
            return 0;
        nd->pool_seq = seq;
        nd->cap_pool = cap;
    }
    while (nd->npool < n) {
        if (!(nd->cells[nd->npool] = malloc(sizeof(sc_envelope_t *)))) {
            fail("out of memory for %ld receives on node %d", n, nd->node);
            return 0;
        }
        repost(nd, nd->npool++);
    }
    return !R.failed;
}

/* An envelope for its rank: at once if the rank waits, else when it next
 * makes a call. (inline: this is every arrival's path, which the compiler
 * left a call once there were two callers.) */
static inline void deliver(sc_envelope_t *env)
{
    rank_t *rk = &R.ranks[env->dst];
    if (rk->state == RANK_WAITING)
        sc_matcher_accept(&rk->match, &protocol_ops, env);
    else
        append(&rk->arrived, &rk->arrived_tail, env);
}

/* With a latency factor: whether what SimGrid delivers now from src to
 * dst, carrying `data` bytes, is held back (and then held). */
static int hold(node_t *nd, int src, int dst, size_t data, sc_envelope_t *env, long send_op,
                int rank)
{
    double now = simgrid_get_clock();
    double ready = now + sc_protocol_extra_latency(R.model, src, dst, data);
    if (ready <= now)
        return 0;
    if (!sc_held_push(&nd->held, ready, env, (sc_req_ref_t)send_op, rank)) {
        fail("out of memory replaying %d ranks", R.sched->np);
        return 0;
    }
    return 1;
}

/* The envelope the node's receive in `slot` got. */
static void take_from_pool(node_t *nd, int slot)
{
    sc_envelope_t *env = *nd->cells[slot];
    nd->envelopes_taken++;
    if (env->sent)
        sent_arrived((sent_t *)env->sent);
    env->sent = NULL;
    repost(nd, slot);
    if (!R.holds || !hold(nd, env->src, env->dst, sc_envelope_data_bytes(env), env, 0, env->dst))
        deliver(env);
}

/* Rendezvous data put i has arrived: the send completes when the receiver
 * has it. */
static void put_done(node_t *nd, int i)
{
    put_t p = nd->puts[i];
    nd->puts[i] = nd->puts[--nd->nputs];
    const sc_sched_op_t *op = &R.sched->ops[p.send_op];
    if (!R.holds || !hold(nd, p.rank, op->peer, (size_t)op->u.bytes, NULL, p.send_op, p.rank))
        complete(&R.ranks[p.rank], p.send_op);
}

/* Hands on what the latency factor held until now. */
static void release_held(node_t *nd)
{
    double now = simgrid_get_clock();
    while (!R.failed && sc_held_due(&nd->held, now)) {
        sc_held_t *h = sc_held_pop(&nd->held);
        if (h->env)
            deliver(h->env);
        else
            complete(&R.ranks[h->rank], (long)h->send);
        free(h);
    }
}

/* Waits for any of the node's communications: its receives and its
 * rendezvous data, for at most `timeout` seconds (< 0: no limit), and
 * handles the one that completed. Returns 0 if none did. With timeout 0,
 * only the receives that have an envelope (see transport.c's drain).
 *
 * Only a wait takes a finished communication off its actor's list of
 * activities: in SimGrid 3.32 one finished by a test stays on it until
 * the actor ends, and every later completion scans that list (a quarter
 * of the time at 4096 ranks when the replay tested). */
static int wait_some(node_t *nd, double timeout)
{
    int n = 0;
    sg_comm_t *set = grow(nd->waitset, &nd->cap_waitset, sizeof *set, nd->npool + nd->nputs);
    int *slot = set ? grow(nd->slot_of, &nd->cap_slot_of, sizeof *slot, nd->npool + nd->nputs)
                    : NULL;
    if (!slot)
        return 0;
    nd->waitset = set;
    nd->slot_of = slot;
    for (int k = 0; k < nd->npool; k++)
        if (timeout != 0 || nd->pool_seq[k] < nd->envelopes_in) {
            slot[n] = k;
            set[n++] = nd->pool[k];
        }
    for (int i = 0; i < nd->nputs; i++) {
        slot[n] = -1 - i;
        set[n++] = nd->puts[i].comm;
    }
    if (n == 0)
        return 0;
    nd->waiting = 1;
    ssize_t idx = timeout < 0 ? sc_comm_wait_any(set, (size_t)n)
                              : sc_comm_wait_any_for(set, (size_t)n, timeout);
    nd->waiting = 0;
    if (idx < 0)
        return 0;
    if (slot[idx] >= 0)
        take_from_pool(nd, slot[idx]);
    else
        put_done(nd, -1 - slot[idx]);
    return 1;
}

/* Whether rank rk can go on at `now`: its wait is over, or it is no
 * longer busy (an instant's times equal its clock up to rounding). */
static int can_resume(const rank_t *rk, double now)
{
    return (rk->state == RANK_WAITING && rk->pending <= 0) ||
           (rk->state == RANK_BUSY && rk->busy_until <= now + 1e-12 * (now > 1 ? now : 1));
}

static int any_can_resume(const node_t *nd, double now)
{
    for (int i = 0; i < nd->nranks; i++)
        if (can_resume(&R.ranks[nd->ranks[i]], now))
            return 1;
    return 0;
}

static int any_wait_over(const node_t *nd)
{
    for (int i = 0; i < nd->nranks; i++) {
        const rank_t *rk = &R.ranks[nd->ranks[i]];
        if (rk->state == RANK_WAITING && rk->pending <= 0)
            return 1;
    }
    return 0;
}

/* Blocks until something arrives or a send completes, or until the first
 * busy rank is free or the first held item is ready; hands on what is.
 *
 * A rank whose wait is over takes in everything else of that instant
 * before it goes on (and pays o_r), as the transport's drain does after a
 * wait: so then the instant's other arrivals are taken first. Checking
 * costs a wait that finds nothing, so it is done only then: a rank that
 * goes on after being busy sees what arrives at that instant at its next
 * call either way, as the transport's rank does. */
static void wait_next(node_t *nd)
{
    double next = INFINITY, now = simgrid_get_clock();
    for (int i = 0; i < nd->nranks; i++) {
        const rank_t *rk = &R.ranks[nd->ranks[i]];
        if (rk->state == RANK_BUSY && rk->busy_until < next)
            next = rk->busy_until;
    }
    int held = nd->held.head != NULL; /* never without a latency factor */
    if (held && nd->held.head->ready < next)
        next = nd->held.head->ready;
    if (next > now && !any_can_resume(nd, now) && !(held && sc_held_due(&nd->held, now)))
        wait_some(nd, isinf(next) ? -1 : next - now);
    if (nd->held.head)
        release_held(nd);
    if (any_wait_over(nd))
        while (!R.failed && wait_some(nd, 0))
            ;
}

static void resume(node_t *nd)
{
    double now = simgrid_get_clock();
    for (int i = 0; i < nd->nranks && !R.failed; i++)
        if (can_resume(&R.ranks[nd->ranks[i]], now))
            advance(nd, nd->ranks[i]);
}

static void node_main(int argc, char **argv)
{
    (void)argc;
    node_t *nd = &R.nodes[atoi(argv[1])];
    sg_mailbox_set_receiver(nd->inbox_name);
    pool_at_least(nd, (long)R.receives * nd->nranks);
    /* Every node listens before any rank sends. */
    sg_actor_yield();
    for (int i = 0; i < nd->nranks && !R.failed; i++) {
        R.res->start[nd->ranks[i]] = simgrid_get_clock();
        advance(nd, nd->ranks[i]);
    }
    while ((nd->left > 0 || nd->nputs > 0 || nd->held.head) && !R.failed) {
        if (!pool_at_least(nd, nd->envelopes_in - nd->envelopes_taken))
            break;
        wait_next(nd);
        release_arrived(nd);
        resume(nd);
    }
    release_all(nd);
    for (int k = 0; k < nd->npool; k++)
        sg_comm_unref(nd->pool[k]);
}

static void free_envelopes(sc_envelope_t *e)
{
    while (e) {
        sc_envelope_t *next = e->next;
        sc_envelope_free(e);
        e = next;
    }
}

static void teardown(void)
{
    for (int r = 0; R.ranks && r < R.sched->np; r++) {
        rank_t *rk = &R.ranks[r];
        free_envelopes(rk->arrived);
        sc_matcher_destroy(&rk->match);
    }
    for (int i = 0; R.nodes && i < R.nnodes; i++) {
        node_t *nd = &R.nodes[i];
        sc_held_clear(&nd->held);
        for (int k = 0; k < nd->npool; k++)
            free(nd->cells[k]);
        free(nd->cells);
        free(nd->pool);
        free(nd->pool_seq);
        free(nd->puts);
        free(nd->waitset);
        free(nd->slot_of);
    }
    free(R.ranks);
    free(R.nodes);
    free(R.node_slot);
    free(R.req);
    free(R.req_path);
    memset(&R, 0, sizeof R);
}

sc_err_t sc_replay_run(const sc_schedule_t *sched, const sc_model_t *model, int receives,
                       sc_replay_result_t *res)
{
    int p = sched->np, nplat = model->plat->nnodes;
    long nops = sched->op_start[p];
    memset(&R, 0, sizeof R);
    R.sched = sched;
    R.model = model;
    R.res = res;
    R.receives = receives > 1 ? receives : 1;
    R.holds = sc_protocol_has_extra_latency(model->plat);
    memset(&res->total, 0, sizeof res->total);
    res->max_rank_bytes = 0;
    res->receives_short = 0;
    R.ranks = calloc((size_t)p, sizeof *R.ranks);
    R.node_slot = malloc((size_t)nplat * sizeof *R.node_slot);
    R.nodes = calloc((size_t)nplat, sizeof *R.nodes);
    R.req = calloc((size_t)nops + 1, 1);
    R.req_path = calloc((size_t)nops + 1, sizeof *R.req_path);
    int *count = calloc((size_t)nplat, sizeof *count);
    if (!R.ranks || !R.node_slot || !R.nodes || !R.req || !R.req_path || !count) {
        free(count);
        teardown();
        return sc_error(SC_ERR_RUN, "out of memory replaying %d ranks (%ld calls)", p, nops);
    }
    for (int r = 0; r < p; r++)
        count[model->node_of[r]]++;
    for (int n = 0; n < nplat; n++) {
        R.node_slot[n] = count[n] ? R.nnodes : -1;
        if (!count[n])
            continue;
        node_t *nd = &R.nodes[R.nnodes++];
        nd->node = n;
        nd->ranks = malloc((size_t)count[n] * sizeof *nd->ranks);
        nd->unreleased.next = nd->unreleased.prev = &nd->unreleased;
        snprintf(nd->inbox_name, sizeof nd->inbox_name, "replay-%d", n);
        nd->inbox = sg_mailbox_by_name(nd->inbox_name);
        if (!nd->ranks)
            R.failed = 1;
    }
    free(count);
    for (int r = 0; r < p && !R.failed; r++) {
        node_t *nd = node_of_rank(r);
        nd->ranks[nd->nranks++] = r;
        nd->left++;
        R.ranks[r].pc = sched->op_start[r];
        R.ranks[r].end = sched->op_start[r + 1];
    }
    if (R.failed) {
        for (int i = 0; i < R.nnodes; i++)
            free(R.nodes[i].ranks);
        teardown();
        return sc_error(SC_ERR_RUN, "out of memory replaying %d ranks", p);
    }
    for (int i = 0; i < R.nnodes; i++) {
        char name[32], index[16];
        snprintf(name, sizeof name, "node-%d", R.nodes[i].node);
        snprintf(index, sizeof index, "%d", i);
        char *argv[] = {name, index, NULL};
        sg_actor_t actor = sg_actor_init(name, sg_host_by_name(model->plat->nodes[R.nodes[i].node].name));
        sg_actor_start(actor, node_main, 2, argv);
    }
    simgrid_run();

    sc_err_t err = SC_OK;
    int unfinished = 0;
    for (int r = 0; r < p; r++)
        unfinished += R.ranks[r].state != RANK_DONE;
    if (R.failed)
        err = sc_error(SC_ERR_RUN, "%s", R.error_msg);
    else if (unfinished)
        err = sc_error(SC_ERR_RUN, "the replay deadlocked: %d of %d ranks never finished",
                       unfinished, p);
    for (int r = 0; !err && r < p; r++) {
        const rank_t *rk = &R.ranks[r];
        if (rk->match.addressed != rk->match.matched)
            err = sc_error(SC_ERR_RUN, "rank %d was sent %ld message(s) but received %ld", r,
                           rk->match.addressed, rk->match.matched);
        if (rk->path_bytes > res->total.path_bytes)
            res->total.path_bytes = rk->path_bytes;
        if (rk->sent_bytes > res->max_rank_bytes)
            res->max_rank_bytes = rk->sent_bytes;
    }
    res->receives_short = R.receives_short;
    for (int i = 0; i < R.nnodes; i++)
        free(R.nodes[i].ranks);
    teardown();
    return err;
}
