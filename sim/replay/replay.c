/* The replay engine: one actor per node plays its ranks' schedules.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "replay.h"
#include "wait_any.h"
#include "sim/engine/streams.h"

#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A million ranks cannot each have an actor and a stack, and SimGrid 3.32
 * cannot start communications from one driver either (see
 * bench/README.md: they are detached, and each finished one costs a scan
 * of all those in flight). So each node has one actor, which plays the
 * recorded calls of the ranks placed on it as state machines, with the
 * protocol of sim/engine/transport.c, whose comment explains it: the same
 * envelopes on the same routes at the same times, hence the same
 * simulated times (tests/unit/test_replay.c compares both engines).
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
 *     arrival drains all those of that instant (see wait_next).
 * Requests are named by their op's index in the schedule. */

typedef enum { ENV_EAGER, ENV_RTS, ENV_CTS, ENV_DATA } env_kind_t;

/* An envelope the sender does not wait for (EAGER, RTS, CTS): the sender
 * keeps its handle until the receiver has taken it (transport.c's sent_t). */
typedef struct sent {
    sg_comm_t comm;
    struct envelope *env; /* until it arrives */
    struct sent *prev, *next; /* in the sender node's unreleased list */
    struct sent *arrived_next; /* in the sender node's arrived stack */
    int node;                  /* the sender's */
} sent_t;

typedef struct envelope {
    env_kind_t kind;
    int src, dst, tag;
    unsigned seq;          /* EAGER, RTS: position among those from src */
    size_t bytes;
    double path_bytes;     /* EAGER, RTS: the sender's */
    long send_op, recv_op; /* the two requests of a rendezvous */
    sent_t *sent;          /* EAGER, RTS, CTS */
    struct envelope *next;
} envelope_t;

typedef enum { RANK_RUNNING, RANK_BUSY, RANK_WAITING, RANK_DONE } rank_state_t;

typedef struct {
    long pc, end;       /* its next op, its last + 1 */
    rank_state_t state;
    int phase;          /* how far the op at pc has gone (see advance) */
    double busy_until;
    long pending;       /* requests of the wait at pc not yet complete */
    double path_bytes, sent_bytes;
    envelope_t *arrived, *arrived_tail; /* taken by the node, unseen */
    envelope_t *unexpected, *unexpected_tail;
    envelope_t *early; /* arrived before their predecessor from the peer */
    long *posted;      /* receive ops posted, oldest first */
    int nposted, cap_posted;
    sc_streams_t streams;
    long addressed, matched;
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
    envelope_t ***cells; /* where each receives its envelope: one cell
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

static sc_stream_t *stream(rank_t *rk, int peer)
{
    sc_stream_t *s = sc_stream(&rk->streams, peer);
    if (!s)
        fail("out of memory for message streams replaying %d ranks", R.sched->np);
    return s;
}

/* Marks a request complete, counting it off the wait that awaits it. */
static void complete(rank_t *rk, long op)
{
    R.req[op] |= REQ_DONE;
    if (R.req[op] & REQ_AWAITED)
        rk->pending--;
}

static envelope_t *envelope_new(env_kind_t kind, int src, int dst, int tag, size_t bytes)
{
    envelope_t *env = calloc(1, sizeof *env);
    if (!env) {
        fail("out of memory replaying %d ranks", R.sched->np);
        return NULL;
    }
    *env = (envelope_t){.kind = kind, .src = src, .dst = dst, .tag = tag, .bytes = bytes,
                        .send_op = -1, .recv_op = -1};
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

static sg_comm_t put(envelope_t *env, size_t data)
{
    const sc_model_t *model = R.model;
    node_t *to = node_of_rank(env->dst);
    double wire = sc_wire_bytes(model->plat, sc_model_level(model, env->src, env->dst), data);
    sg_comm_t comm = sg_mailbox_put_async(to->inbox, env, (long)wire);
    envelope_sent(to);
    return comm;
}

/* An envelope the sender does not wait for, numbered if EAGER or RTS. */
static void post_unwaited(envelope_t *env, size_t data)
{
    rank_t *from = &R.ranks[env->src];
    node_t *nd = node_of_rank(env->src);
    if (env->kind == ENV_EAGER || env->kind == ENV_RTS) {
        sc_stream_t *s = stream(from, env->dst);
        if (!s) {
            free(env);
            return;
        }
        env->seq = s->next_out++;
    }
    sent_t *sent = malloc(sizeof *sent);
    if (!sent) {
        free(env);
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

static void match(rank_t *rk, long recv_op, envelope_t *env)
{
    int r = rank_index(rk);
    if (env->bytes != R.sched->ops[recv_op].u.bytes) {
        fail("rank %d expected %llu bytes from rank %d (tag %d) but %zu were sent", r,
             (unsigned long long)R.sched->ops[recv_op].u.bytes, env->src, env->tag,
             env->bytes);
    } else if (env->kind == ENV_EAGER) {
        rk->matched++;
        R.req_path[recv_op] = env->path_bytes;
        complete(rk, recv_op);
    } else { /* RTS: tell the sender to go ahead */
        rk->matched++;
        R.req_path[recv_op] = env->path_bytes;
        envelope_t *cts = envelope_new(ENV_CTS, r, env->src, env->tag, env->bytes);
        if (cts) {
            cts->send_op = env->send_op;
            cts->recv_op = recv_op;
            post_unwaited(cts, 0);
        }
    }
    free(env);
}

/* Adds env at the end of the queue from *head to *tail. */
static void append(envelope_t **head, envelope_t **tail, envelope_t *env)
{
    env->next = NULL;
    if (*tail)
        (*tail)->next = env;
    else
        *head = env;
    *tail = env;
}

static long take_posted(rank_t *rk, int src, int tag)
{
    for (int i = 0; i < rk->nposted; i++) {
        const sc_sched_op_t *op = &R.sched->ops[rk->posted[i]];
        if (op->peer == src && op->tag == tag) {
            long found = rk->posted[i];
            memmove(&rk->posted[i], &rk->posted[i + 1],
                    (size_t)(rk->nposted - i - 1) * sizeof *rk->posted);
            rk->nposted--;
            return found;
        }
    }
    return -1;
}

static envelope_t *take_unexpected(rank_t *rk, int src, int tag)
{
    envelope_t **link = &rk->unexpected, *prev = NULL;
    for (envelope_t *e = rk->unexpected; e; prev = e, link = &e->next, e = e->next)
        if (e->src == src && e->tag == tag) {
            *link = e->next;
            if (rk->unexpected_tail == e)
                rk->unexpected_tail = prev;
            return e;
        }
    return NULL;
}

/* The receiver answered our RTS: the data goes, and the send completes
 * when it has arrived. */
static void start_data(rank_t *rk, const envelope_t *cts)
{
    node_t *nd = node_of_rank(rank_index(rk));
    envelope_t *data = envelope_new(ENV_DATA, rank_index(rk), cts->src, cts->tag, cts->bytes);
    put_t *puts = data ? grow(nd->puts, &nd->cap_puts, sizeof *puts, nd->nputs + 1) : NULL;
    if (!puts) {
        free(data);
        return;
    }
    nd->puts = puts;
    data->send_op = cts->send_op;
    data->recv_op = cts->recv_op;
    puts[nd->nputs++] = (put_t){put(data, data->bytes), cts->send_op, rank_index(rk)};
}

static void deliver(rank_t *rk, envelope_t *env)
{
    switch (env->kind) {
    case ENV_EAGER:
    case ENV_RTS: {
        long r = take_posted(rk, env->src, env->tag);
        if (r >= 0) {
            match(rk, r, env);
        } else {
            append(&rk->unexpected, &rk->unexpected_tail, env);
        }
        return;
    }
    case ENV_CTS:
        start_data(rk, env);
        free(env);
        return;
    case ENV_DATA:
        complete(rk, env->recv_op);
        free(env);
        return;
    }
}

static envelope_t *take_early(rank_t *rk, int src, unsigned seq)
{
    for (envelope_t **link = &rk->early; *link; link = &(*link)->next)
        if ((*link)->src == src && (*link)->seq == seq) {
            envelope_t *e = *link;
            *link = e->next;
            return e;
        }
    return NULL;
}

/* EAGER and RTS envelopes in the order they were sent (transport.c: accept). */
static void accept(rank_t *rk, envelope_t *env)
{
    if (env->kind != ENV_EAGER && env->kind != ENV_RTS) {
        deliver(rk, env);
        return;
    }
    int src = env->src;
    sc_stream_t *s = stream(rk, src);
    if (!s)
        return;
    if (env->seq != s->next_in) {
        env->next = rk->early;
        rk->early = env;
        return;
    }
    while (env) {
        unsigned next = ++s->next_in;
        deliver(rk, env);
        if (!(s = stream(rk, src)))
            return;
        env = take_early(rk, src, next);
    }
}

/* The rank, inside a call, takes in what arrived while it was busy. */
static void drain_rank(rank_t *rk)
{
    while (rk->arrived && !R.failed) {
        envelope_t *env = rk->arrived;
        rk->arrived = env->next;
        if (!rk->arrived)
            rk->arrived_tail = NULL;
        accept(rk, env);
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
            int hier = sc_model_hier_level(model, r, dst);
            const sc_level_t *lv = sc_platform_level(model->plat, hier);
            int eager = bytes <= lv->eager_limit;
            if (rk->phase == 0) {
                R.res->total.level_messages[hier]++;
                R.res->total.level_bytes[hier] += (double)bytes;
                rk->sent_bytes += (double)bytes;
                R.ranks[dst].addressed++;
                rk->phase = 1;
                double o_s = sc_level_send_overhead(lv, bytes);
                if (o_s > 0) {
                    busy(rk, now + o_s);
                    return;
                }
            }
            if (rk->phase == 1) {
                rk->phase = 2;
                if (sc_model_level_id(model, r, dst) == SC_LEVEL_INTER && model->nic_free) {
                    double leave = sc_model_depart(
                        model->nic_free, model->node_of[r], model->node_of[dst], lv->gap_s,
                        now, sc_wire_time(model->plat, lv, eager ? bytes : 0));
                    if (leave > now) {
                        busy(rk, leave);
                        return;
                    }
                }
            }
            envelope_t *env = envelope_new(eager ? ENV_EAGER : ENV_RTS, r, dst, op->tag, bytes);
            if (!env)
                return;
            env->path_bytes = rk->path_bytes;
            env->send_op = rk->pc;
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
            envelope_t *env = take_unexpected(rk, op->peer, op->tag);
            if (env) {
                match(rk, rk->pc, env);
            } else {
                long *posted = grow(rk->posted, &rk->cap_posted, sizeof *posted,
                                    rk->nposted + 1);
                if (!posted)
                    return;
                rk->posted = posted;
                posted[rk->nposted++] = rk->pc;
            }
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
                double path = rk->path_bytes, longest = -1, o_r = 0;
                for (uint32_t i = 0; i < count; i++) {
                    long id = base + mine[i];
                    const sc_sched_op_t *q = &ops[id];
                    if (R.req_path[id] > path)
                        path = R.req_path[id];
                    if ((double)q->u.bytes > longest)
                        longest = (double)q->u.bytes;
                    if (q->kind == SC_OP_RECV)
                        o_r += sc_level_recv_overhead(sc_model_level(model, q->peer, r),
                                                      (size_t)q->u.bytes);
                }
                if (longest >= 0)
                    rk->path_bytes = path + longest;
                rk->phase = 2;
                if (o_r > 0) {
                    busy(rk, now + o_r);
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
    if (rk->unexpected)
        fail("rank %d finished with an unreceived message from rank %d (tag %d, %zu bytes)",
             r, rk->unexpected->src, rk->unexpected->tag, rk->unexpected->bytes);
    else if (rk->nposted)
        fail("rank %d finished with a receive from rank %d (tag %d) still posted", r,
             ops[rk->posted[0]].peer, ops[rk->posted[0]].tag);
    else if (rk->early)
        fail("rank %d finished with a message from rank %d whose predecessor never arrived",
             r, rk->early->src);
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
        envelope_t ***cells = grow(nd->cells, &cap, sizeof *cells, (int)n);
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
        if (!(nd->cells[nd->npool] = malloc(sizeof(envelope_t *)))) {
            fail("out of memory for %ld receives on node %d", n, nd->node);
            return 0;
        }
        repost(nd, nd->npool++);
    }
    return !R.failed;
}

/* An envelope the node's receive in `slot` got: to its rank at once if
 * the rank waits, else when it next makes a call. */
static void take_from_pool(node_t *nd, int slot)
{
    envelope_t *env = *nd->cells[slot];
    nd->envelopes_taken++;
    if (env->sent)
        sent_arrived(env->sent);
    env->sent = NULL;
    repost(nd, slot);
    rank_t *rk = &R.ranks[env->dst];
    if (rk->state == RANK_WAITING)
        accept(rk, env);
    else
        append(&rk->arrived, &rk->arrived_tail, env);
}

static void put_done(node_t *nd, int i)
{
    complete(&R.ranks[nd->puts[i].rank], nd->puts[i].send_op);
    nd->puts[i] = nd->puts[--nd->nputs];
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
    ssize_t idx = timeout < 0 ? sg_comm_wait_any(set, (size_t)n)
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
 * busy rank is free.
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
    if (next > now && !any_can_resume(nd, now))
        wait_some(nd, isinf(next) ? -1 : next - now);
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
    while ((nd->left > 0 || nd->nputs > 0) && !R.failed) {
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

static void free_envelopes(envelope_t *e)
{
    while (e) {
        envelope_t *next = e->next;
        free(e);
        e = next;
    }
}

static void teardown(void)
{
    for (int r = 0; R.ranks && r < R.sched->np; r++) {
        rank_t *rk = &R.ranks[r];
        free_envelopes(rk->arrived);
        free_envelopes(rk->unexpected);
        free_envelopes(rk->early);
        free(rk->posted);
        sc_streams_free(&rk->streams);
    }
    for (int i = 0; R.nodes && i < R.nnodes; i++) {
        node_t *nd = &R.nodes[i];
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
        if (rk->addressed != rk->matched)
            err = sc_error(SC_ERR_RUN, "rank %d was sent %ld message(s) but received %ld", r,
                           rk->addressed, rk->matched);
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
