/* The replay engine: one actor per node plays its ranks' schedules.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "sim/simgrid/node_replay.h"
#include "sim/replay/play.h"
#include "sim/simgrid/s4u_calls.h"

#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A million ranks cannot each have an actor and a stack, and SimGrid 3.32
 * cannot start communications from one driver either (see
 * bench/README.md: they are detached, and each finished one costs a scan
 * of all those in flight; SimGrid 4.1 can, and driver.cpp does). So each
 * node has one actor, which plays the recorded calls of the ranks placed
 * on it as state machines (sim/replay/play.c, which the driver shares), with the
 * protocol of sim/protocol/protocol.h, which the actor per rank of
 * sim/simgrid/transport.c uses too: the same envelopes, matched by the same
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
 *   - the node holds what SimGrid delivers (an envelope, a rendezvous
 *     send's completion) until the protocol's time for it
 *     (sc_protocol_ready) in its `held` queue, as the transport's rank
 *     does, and its wait ends at the first of them to be ready too. The
 *     actor is always waiting when something arrives, so that is
 *     SimGrid's delivery time.
 * Requests are named by their ids (sc_sched_op_t's req). */

/* An envelope the sender does not wait for (EAGER, RTS, CTS): the sender
 * keeps its handle until the receiver has taken it (transport.c's sent_t). */
typedef struct sent {
    sg_comm_t comm;
    sc_envelope_t *env; /* until it arrives */
    struct sent *prev, *next; /* in the sender node's unreleased list */
    struct sent *arrived_next; /* in the sender node's arrived stack */
    int node;                  /* the sender's */
} sent_t;

typedef struct {
    sg_comm_t comm;
    uint32_t send_req; /* the send's request */
    int rank, peer;
    size_t bytes;
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
    sc_held_queue_t held; /* what the protocol holds back (hold) */
} node_t;

static struct {
    sc_player_t pl; /* the ranks (sim/replay/play.h) */
    node_t *nodes;
    int nnodes;
    int *node_slot; /* platform node -> index in nodes, or -1 */
    double *start;  /* per rank */
    int receives, receives_short;
} R;

static void *grow(void *v, int *cap, size_t each, int need)
{
    if (need <= *cap)
        return v;
    int cap2 = *cap ? 2 * *cap : 4;
    while (cap2 < need)
        cap2 *= 2;
    void *w = realloc(v, (size_t)cap2 * each);
    if (!w) {
        sc_play_fail(&R.pl, "out of memory replaying %d ranks", R.pl.np);
        return NULL;
    }
    *cap = cap2;
    return w;
}

static node_t *node_of_rank(int r)
{
    return &R.nodes[R.node_slot[R.pl.model->node_of[r]]];
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
    const sc_model_t *model = R.pl.model;
    node_t *to = node_of_rank(env->dst);
    sc_wire_plan_t w = sc_protocol_wire(model, env->src, env->dst, data);
    sg_comm_t comm = sc_mailbox_put_async(to->inbox, env, (long)w.wire_bytes, w.rate);
    envelope_sent(to);
    return comm;
}

/* The player's post: an envelope the sender does not wait for. */
static void post_unwaited(sc_player_t *pl, sc_envelope_t *env, size_t data)
{
    node_t *nd = node_of_rank(env->src);
    sent_t *sent = malloc(sizeof *sent);
    if (!sent) {
        sc_envelope_free(env);
        sc_play_fail(pl, "out of memory replaying %d ranks", pl->np);
        return;
    }
    env->sent = sent;
    *sent = (sent_t){.env = env, .node = (int)(nd - R.nodes), .prev = &nd->unreleased,
                     .next = nd->unreleased.next};
    nd->unreleased.next->prev = sent;
    nd->unreleased.next = sent;
    env->left = simgrid_get_clock();
    sent->comm = put(env, data);
}

/* The player's put_data: the sender's node waits for it with its receives. */
static void put_data(sc_player_t *pl, sc_envelope_t *data)
{
    (void)pl;
    node_t *nd = node_of_rank(data->src);
    put_t *puts = grow(nd->puts, &nd->cap_puts, sizeof *puts, nd->nputs + 1);
    if (!puts) {
        sc_envelope_free(data);
        return;
    }
    nd->puts = puts;
    puts[nd->nputs++] = (put_t){put(data, data->bytes), (uint32_t)data->sreq, data->src,
                                data->dst, data->bytes};
}

static void rank_finished(sc_player_t *pl, int r)
{
    (void)pl;
    node_of_rank(r)->left--;
}

/* Busy ranks and waits that are over are found by scanning the node's
 * ranks (wait_next, resume): no hooks for them. */
static const sc_play_ops_t play_ops = {
    .post = post_unwaited,
    .put_data = put_data,
    .finished = rank_finished,
};

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
            sc_play_fail(&R.pl, "out of memory for %ld receives on node %d", n, nd->node);
            return 0;
        }
        repost(nd, nd->npool++);
    }
    return !R.pl.failed;
}

/* With a latency factor: whether what SimGrid delivers now from src to
 * dst, carrying `data` bytes, is held back (and then held). */
static int hold(node_t *nd, int src, int dst, size_t data, sc_envelope_t *env, uint32_t send_req,
                int rank)
{
    double now = simgrid_get_clock();
    double ready = env ? sc_protocol_ready(R.pl.model, env, now)
                       : now + sc_protocol_wire(R.pl.model, src, dst, data).extra_latency;
    if (ready <= now)
        return 0;
    if (!sc_held_push(&nd->held, ready, env, (sc_req_ref_t)send_req, rank)) {
        sc_play_fail(&R.pl, "out of memory replaying %d ranks", R.pl.np);
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
    if (!hold(nd, env->src, env->dst, sc_envelope_data_bytes(env), env, 0, env->dst))
        sc_play_deliver(&R.pl, env);
}

/* Rendezvous data put i has arrived: the send completes when the receiver
 * has it. */
static void put_done(node_t *nd, int i)
{
    put_t p = nd->puts[i];
    nd->puts[i] = nd->puts[--nd->nputs];
    if (!hold(nd, p.rank, p.peer, p.bytes, NULL, p.send_req, p.rank))
        sc_play_complete(&R.pl, p.rank, p.send_req);
}

/* Hands on what the latency factor held until now. */
static void release_held(node_t *nd)
{
    double now = simgrid_get_clock();
    while (!R.pl.failed && sc_held_due(&nd->held, now)) {
        sc_held_t *h = sc_held_pop(&nd->held);
        if (h->env)
            sc_play_deliver(&R.pl, h->env);
        else
            sc_play_complete(&R.pl, h->rank, (uint32_t)h->send);
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

static int any_can_resume(const node_t *nd, double now)
{
    for (int i = 0; i < nd->nranks; i++)
        if (sc_play_can_resume(&R.pl, nd->ranks[i], now))
            return 1;
    return 0;
}

static int any_wait_over(const node_t *nd)
{
    for (int i = 0; i < nd->nranks; i++) {
        const sc_play_rank_t *rk = &R.pl.ranks[nd->ranks[i]];
        if (rk->state == SC_RANK_WAITING && rk->pending <= 0)
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
        const sc_play_rank_t *rk = &R.pl.ranks[nd->ranks[i]];
        if (rk->state == SC_RANK_BUSY && rk->busy_until < next)
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
        while (!R.pl.failed && wait_some(nd, 0))
            ;
}

static void resume(node_t *nd)
{
    double now = simgrid_get_clock();
    for (int i = 0; i < nd->nranks && !R.pl.failed; i++)
        if (sc_play_can_resume(&R.pl, nd->ranks[i], now))
            sc_play_advance(&R.pl, nd->ranks[i], now);
}

static void node_main(int argc, char **argv)
{
    (void)argc;
    node_t *nd = &R.nodes[atoi(argv[1])];
    sg_mailbox_set_receiver(nd->inbox_name);
    pool_at_least(nd, (long)R.receives * nd->nranks);
    /* Every node listens before any rank sends. */
    sg_actor_yield();
    for (int i = 0; i < nd->nranks && !R.pl.failed; i++) {
        R.start[nd->ranks[i]] = simgrid_get_clock();
        sc_play_advance(&R.pl, nd->ranks[i], simgrid_get_clock());
    }
    while ((nd->left > 0 || nd->nputs > 0 || nd->held.head) && !R.pl.failed) {
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

static void teardown(void)
{
    sc_play_destroy(&R.pl);
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
        free(nd->ranks);
    }
    free(R.nodes);
    free(R.node_slot);
    memset(&R, 0, sizeof R);
}

sc_err_t sc_replay_run(sc_op_source_t *source, const sc_model_t *model, int receives,
                       sc_replay_result_t *res)
{
    int p = source->np, nplat = model->plat->nnodes;
    memset(&R, 0, sizeof R);
    R.start = res->start;
    R.receives = receives > 1 ? receives : 1;
    res->max_rank_bytes = 0;
    res->receives_short = 0;
    sc_err_t err = sc_play_init(&R.pl, source, model, &play_ops, &res->total, res->finish);
    if (err)
        return err;
    R.node_slot = malloc((size_t)nplat * sizeof *R.node_slot);
    R.nodes = calloc((size_t)nplat, sizeof *R.nodes);
    int *count = calloc((size_t)nplat, sizeof *count);
    if (!R.node_slot || !R.nodes || !count) {
        free(count);
        teardown();
        return sc_error(SC_ERR_RUN, "out of memory replaying %d ranks", p);
    }
    for (int r = 0; r < p; r++)
        count[model->node_of[r]]++;
    int failed = 0;
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
        failed |= !nd->ranks;
    }
    free(count);
    if (failed) {
        teardown();
        return sc_error(SC_ERR_RUN, "out of memory replaying %d ranks", p);
    }
    for (int r = 0; r < p; r++) {
        node_t *nd = node_of_rank(r);
        nd->ranks[nd->nranks++] = r;
        nd->left++;
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

    err = sc_play_result(&R.pl, &res->max_rank_bytes, sc_engine_unfinished);
    res->receives_short = R.receives_short;
    teardown();
    return err;
}
