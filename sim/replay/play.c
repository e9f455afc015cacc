/* A rank's recorded schedule played as a state machine.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "play.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Flags of a request (a SEND or RECV op's). */
enum { REQ_USED = 1, REQ_DONE = 2, REQ_AWAITED = 4 };

void sc_play_fail(sc_player_t *pl, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sc_error_keep_first(&pl->failed, pl->error_msg, sizeof pl->error_msg, SC_ERR_RUN, fmt, ap);
    va_end(ap);
}

/* The protocol's callbacks get the matcher: the rank is around it, and
 * the player around the ranks, which the callbacks reach through `playing`
 * (one simulation runs at a time in a process). */
static sc_player_t *playing;

static sc_play_rank_t *rank_of(sc_matcher_t *m)
{
    return (sc_play_rank_t *)((char *)m - offsetof(sc_play_rank_t, match));
}

static int rank_index(const sc_play_rank_t *rk)
{
    return (int)(rk - playing->ranks);
}

/* ---- A rank's requests ---- */

/* Request `id` of the rank, or NULL if it has none so named. */
static sc_play_req_t *req_of(sc_play_rank_t *rk, uint32_t id)
{
    uint32_t i = id - rk->req_base;
    return i < rk->nreqs && (rk->reqs[i].flags & REQ_USED) ? &rk->reqs[i] : NULL;
}

/* A new request `id`; NULL if out of memory. Ids are given in rising order
 * (a schedule's op indices, a trace's counter), so the table grows at its
 * end and drops from its start what has been waited for. */
static sc_play_req_t *req_new(sc_play_rank_t *rk, uint32_t id)
{
    if (rk->nreqs == 0)
        rk->req_base = id;
    uint32_t i = id - rk->req_base;
    if (i >= rk->cap_reqs) {
        uint32_t cap = rk->cap_reqs ? rk->cap_reqs : 4;
        while (cap <= i)
            cap *= 2;
        sc_play_req_t *more = realloc(rk->reqs, (size_t)cap * sizeof *more);
        if (!more)
            return NULL;
        memset(more + rk->cap_reqs, 0, (size_t)(cap - rk->cap_reqs) * sizeof *more);
        rk->reqs = more;
        rk->cap_reqs = cap;
    }
    if (i >= rk->nreqs)
        rk->nreqs = i + 1;
    rk->reqs[i] = (sc_play_req_t){.flags = REQ_USED};
    return &rk->reqs[i];
}

/* Request `q` has been waited for: gone; so is what the table holds before
 * its first request still used. */
static void req_free(sc_play_rank_t *rk, sc_play_req_t *q)
{
    q->flags = 0;
    uint32_t gone = 0;
    while (gone < rk->nreqs && !(rk->reqs[gone].flags & REQ_USED))
        gone++;
    if (gone == rk->nreqs) {
        rk->nreqs = 0;
    } else if (gone > 0 && gone >= rk->nreqs / 2) {
        memmove(rk->reqs, rk->reqs + gone, (size_t)(rk->nreqs - gone) * sizeof *rk->reqs);
        memset(rk->reqs + rk->nreqs - gone, 0, (size_t)gone * sizeof *rk->reqs);
        rk->nreqs -= gone;
        rk->req_base += gone;
    }
}

void sc_play_complete(sc_player_t *pl, int r, uint32_t id)
{
    sc_play_rank_t *rk = &pl->ranks[r];
    sc_play_req_t *q = req_of(rk, id);
    if (!q)
        return;
    q->flags |= REQ_DONE;
    if (!(q->flags & REQ_AWAITED))
        return;
    if (--rk->pending == 0 && rk->state == SC_RANK_WAITING && pl->ops->wait_over)
        pl->ops->wait_over(pl, r);
}

static sc_envelope_t *envelope_new(sc_player_t *pl, sc_env_kind_t kind, int src, int dst, int tag,
                                   size_t bytes)
{
    sc_envelope_t *env = sc_envelope_new(kind, src, dst, tag, bytes);
    if (!env)
        sc_play_fail(pl, "out of memory replaying %d ranks", pl->np);
    return env;
}

static const sc_protocol_ops_t protocol_ops;

/* An envelope the sender does not wait for, numbered if EAGER or RTS. */
static void post(sc_player_t *pl, sc_envelope_t *env, size_t data)
{
    if (!sc_matcher_number(&pl->ranks[env->src].match, &protocol_ops, env)) {
        sc_envelope_free(env);
        return;
    }
    pl->ops->post(pl, env, data);
}

/* The protocol's requests are the ranks' request ids. A receive learns its
 * sender and its size when it matches. */
static void on_matched(sc_matcher_t *m, sc_req_ref_t rreq, const sc_envelope_t *env)
{
    sc_play_req_t *q = req_of(rank_of(m), (uint32_t)rreq);
    if (!q)
        return;
    q->path = env->path_bytes;
    q->peer = env->src;
    if (q->bytes == SC_ANY_SIZE)
        q->bytes = env->bytes;
}

static void on_received(sc_matcher_t *m, sc_req_ref_t rreq, const sc_envelope_t *env)
{
    int r = rank_index(rank_of(m));
    if (playing->ops->received)
        playing->ops->received(playing, r, (uint32_t)rreq, env);
    sc_play_complete(playing, r, (uint32_t)rreq);
}

static void on_clear_to_send(sc_matcher_t *m, sc_req_ref_t rreq, const sc_envelope_t *rts)
{
    sc_envelope_t *cts =
        envelope_new(playing, SC_ENV_CTS, rank_index(rank_of(m)), rts->src, rts->tag, rts->bytes);
    if (cts) {
        cts->sreq = rts->sreq;
        cts->rreq = rreq;
        post(playing, cts, 0);
    }
}

/* The receiver answered our RTS: the data goes, and the send completes
 * when it has arrived. */
static void on_send_data(sc_matcher_t *m, const sc_envelope_t *cts)
{
    sc_envelope_t *data =
        envelope_new(playing, SC_ENV_DATA, rank_index(rank_of(m)), cts->src, cts->tag, cts->bytes);
    if (data) {
        data->sreq = cts->sreq;
        data->rreq = cts->rreq;
        if (playing->ops->carry)
            playing->ops->carry(playing, data->src, (uint32_t)data->sreq, data);
        playing->ops->put_data(playing, data);
    }
}

static void on_mismatch(sc_matcher_t *m, sc_req_ref_t rreq, const char *message)
{
    (void)m;
    (void)rreq;
    sc_play_fail(playing, "%s", message);
}

static void on_out_of_memory(sc_matcher_t *m, const char *what)
{
    (void)m;
    sc_play_fail(playing, "out of memory for %s replaying %d ranks", what, playing->np);
}

static const sc_protocol_ops_t protocol_ops = {
    .matched = on_matched,
    .received = on_received,
    .clear_to_send = on_clear_to_send,
    .send_data = on_send_data,
    .mismatch = on_mismatch,
    .out_of_memory = on_out_of_memory,
};

void sc_play_deliver(sc_player_t *pl, sc_envelope_t *env)
{
    sc_play_rank_t *rk = &pl->ranks[env->dst];
    if (rk->state == SC_RANK_WAITING) {
        sc_matcher_accept(&rk->match, &protocol_ops, env);
        return;
    }
    env->next = NULL;
    if (rk->arrived_tail)
        rk->arrived_tail->next = env;
    else
        rk->arrived = env;
    rk->arrived_tail = env;
}

/* The rank, inside a call, takes in what arrived while it was not waiting. */
static void drain_rank(sc_player_t *pl, sc_play_rank_t *rk)
{
    while (rk->arrived && !pl->failed) {
        sc_envelope_t *env = rk->arrived;
        rk->arrived = env->next;
        if (!rk->arrived)
            rk->arrived_tail = NULL;
        sc_matcher_accept(&rk->match, &protocol_ops, env);
    }
}

static void busy(sc_player_t *pl, int r, double until)
{
    pl->ranks[r].state = SC_RANK_BUSY;
    pl->ranks[r].busy_until = until;
    if (pl->ops->busy)
        pl->ops->busy(pl, r);
}

/* What the wait for requests ids[0..count) costs the rank: its path grows,
 * and it pays the receives' overheads; the requests are gone. */
static double wait_cost(sc_player_t *pl, int r, const uint32_t *ids, uint32_t count)
{
    sc_play_rank_t *rk = &pl->ranks[r];
    sc_wait_cost_t w = sc_protocol_wait_begin(rk->path_bytes);
    for (uint32_t i = 0; i < count; i++) {
        sc_play_req_t *q = req_of(rk, ids[i]);
        if (!q)
            continue;
        sc_protocol_wait_add(&w, pl->model, r, q->is_recv, q->peer, (size_t)q->bytes, q->path);
        req_free(rk, q);
    }
    rk->path_bytes = sc_protocol_wait_path(&w, rk->path_bytes);
    return w.o_r;
}

/* The rank's next op, its window refilled when used up; NULL at its end
 * (or on the source's error, recorded). */
static const sc_sched_op_t *next_op(sc_player_t *pl, int r)
{
    sc_play_rank_t *rk = &pl->ranks[r];
    while (rk->pc >= rk->window.nops) {
        if (rk->ended)
            return NULL;
        int got = pl->source->next(pl->source, r, &rk->window);
        if (got == SC_SOURCE_LATER) {
            rk->state = SC_RANK_CODE;
            return NULL;
        }
        if (got <= 0) {
            rk->ended = 1;
            if (got < 0)
                sc_play_fail(pl, "%s", sc_error_message());
            return NULL;
        }
        rk->pc = 0;
    }
    return &rk->window.ops[rk->pc];
}

/* Each op goes through phases, as the transport's calls do:
 *   SEND     0: counted, pays o_s; 1: waits for the NIC's gap; 2: leaves;
 *   WAIT     0: counts its requests; 1: until they are complete; 2: pays o_r;
 *   TEST     2i: drains and looks at request i, which if complete is
 *            waited for (paying o_r); 2i + 1: after that;
 *   COMPUTE  0: computes; 1: done.
 * Each returns 1 when the op is done and the rank goes on to its next, 0
 * when it must wait or be busy first (or the run failed). */

/* The rank's op is done: on to its next, from its first phase. */
static int op_done(sc_play_rank_t *rk)
{
    rk->phase = 0;
    rk->pc++;
    return 1;
}

/* The peer of rank r's SEND or RECV op: ops shared with another rank
 * are shifted (sc_op_window_t). */
static int op_peer(const sc_player_t *pl, int r, const sc_sched_op_t *op)
{
    int shift = pl->ranks[r].window.shift;
    if (!shift)
        return op->peer;
    return op->peer < pl->np - shift ? op->peer + shift : op->peer + shift - pl->np;
}

/* SEND: counted, pays o_s; waits for the NIC's gap; leaves. */
static int play_send(sc_player_t *pl, int r, const sc_sched_op_t *op, double now)
{
    sc_play_rank_t *rk = &pl->ranks[r];
    const sc_model_t *model = pl->model;
    int dst = op_peer(pl, r, op);
    size_t bytes = (size_t)op->u.bytes;
    /* counted once, at the first phase */
    sc_send_plan_t plan = sc_protocol_send(model, r, dst, bytes, rk->phase == 0 ? pl->total : NULL);
    int eager = plan.eager;
    if (rk->phase == 0) {
        rk->sent_bytes += (double)bytes;
        pl->ranks[dst].match.addressed++;
        rk->phase = 1;
        if (plan.o_s > 0) {
            busy(pl, r, now + plan.o_s);
            return 0;
        }
    }
    if (rk->phase == 1) {
        rk->phase = 2;
        double leave = sc_protocol_depart(model, &plan, now);
        if (leave > now) {
            busy(pl, r, leave);
            return 0;
        }
    }
    sc_envelope_t *env = envelope_new(pl, plan.first, r, dst, op->tag, bytes);
    sc_play_req_t *q = env ? req_new(rk, op->req) : NULL;
    if (!q) {
        if (env)
            sc_play_fail(pl, "out of memory replaying %d ranks", pl->np);
        sc_envelope_free(env);
        return 0;
    }
    *q = (sc_play_req_t){.flags = REQ_USED | (eager ? REQ_DONE : 0),
                         .peer = dst,
                         .bytes = bytes,
                         .path = rk->path_bytes};
    env->path_bytes = rk->path_bytes;
    env->sreq = (sc_req_ref_t)op->req;
    if (plan.first_data > 0 && pl->ops->carry)
        pl->ops->carry(pl, r, op->req, env);
    post(pl, env, plan.first_data);
    return op_done(rk);
}

/* RECV: posted to the matcher. */
static int play_recv(sc_player_t *pl, int r, const sc_sched_op_t *op)
{
    sc_play_rank_t *rk = &pl->ranks[r];
    drain_rank(pl, rk);
    sc_play_req_t *q = req_new(rk, op->req);
    if (!q) {
        sc_play_fail(pl, "out of memory replaying %d ranks", pl->np);
        return 0;
    }
    int src = op_peer(pl, r, op);
    *q = (sc_play_req_t){.flags = REQ_USED, .is_recv = 1, .peer = src, .bytes = op->u.bytes};
    if (!sc_matcher_post(&rk->match, &protocol_ops, (sc_req_ref_t)op->req, src, op->tag,
                         (size_t)op->u.bytes))
        return 0;
    rk->pc++;
    return 1;
}

/* WAIT: until its requests are complete, then pays o_r. */
static int play_wait(sc_player_t *pl, int r, const sc_sched_op_t *op, double now)
{
    sc_play_rank_t *rk = &pl->ranks[r];
    const uint32_t *mine = rk->window.ids + op->u.wait.first;
    uint32_t count = op->u.wait.count;
    if (rk->phase == 0) {
        rk->pending = 0;
        for (uint32_t i = 0; i < count; i++) {
            sc_play_req_t *q = req_of(rk, mine[i]);
            if (!q)
                continue;
            q->flags |= REQ_AWAITED;
            rk->pending += !(q->flags & REQ_DONE);
        }
        rk->phase = 1;
    }
    if (rk->phase == 1) {
        drain_rank(pl, rk);
        if (rk->pending > 0) {
            rk->state = SC_RANK_WAITING;
            return 0;
        }
        double o_r = wait_cost(pl, r, mine, count);
        rk->phase = 2;
        if (o_r > 0) {
            busy(pl, r, now + o_r);
            return 0;
        }
    }
    return op_done(rk);
}

/* TEST: each request drained and looked at; one complete is waited for
 * (paying o_r), the others left. */
static int play_test(sc_player_t *pl, int r, const sc_sched_op_t *op, double now)
{
    sc_play_rank_t *rk = &pl->ranks[r];
    const uint32_t *mine = rk->window.ids + op->u.wait.first;
    uint32_t count = op->u.wait.count;
    while ((uint32_t)(rk->phase / 2) < count) {
        const uint32_t *id = &mine[rk->phase / 2];
        if (rk->phase % 2) {
            rk->phase++;
            continue;
        }
        drain_rank(pl, rk);
        sc_play_req_t *q = req_of(rk, *id);
        if (!q || !(q->flags & REQ_DONE)) {
            rk->phase += 2; /* not complete: left for later */
            continue;
        }
        double o_r = wait_cost(pl, r, id, 1);
        rk->phase++;
        if (o_r > 0) {
            busy(pl, r, now + o_r);
            return 0;
        }
    }
    return op_done(rk);
}

/* COMPUTE: busy for its seconds. */
static int play_compute(sc_player_t *pl, int r, const sc_sched_op_t *op, double now)
{
    sc_play_rank_t *rk = &pl->ranks[r];
    if (rk->phase == 0 && op->u.seconds > 0) {
        rk->phase = 1;
        busy(pl, r, now + op->u.seconds);
        return 0;
    }
    return op_done(rk);
}

/* Runs rank r from its op at pc until it must wait or be busy, or ends:
 * each op's function says whether the rank goes on to its next op. */
void sc_play_advance(sc_player_t *pl, int r, double now)
{
    sc_play_rank_t *rk = &pl->ranks[r];
    const sc_sched_op_t *op;
    playing = pl;
    rk->state = SC_RANK_RUNNING;
    while (!pl->failed && (op = next_op(pl, r))) {
        int done = 0;
        switch ((sc_op_kind_t)op->kind) {
        case SC_OP_SEND: done = play_send(pl, r, op, now); break;
        case SC_OP_RECV: done = play_recv(pl, r, op); break;
        case SC_OP_WAIT: done = play_wait(pl, r, op, now); break;
        case SC_OP_TEST: done = play_test(pl, r, op, now); break;
        case SC_OP_COMPUTE: done = play_compute(pl, r, op, now); break;
        }
        if (!done)
            return;
    }
    if (pl->failed)
        return;
    if (rk->state == SC_RANK_CODE) {
        pl->ops->code_runs(pl, r);
        return;
    }
    /* As the transport's end: nothing may be left over. */
    char leftover[256];
    if (sc_matcher_leftover(&rk->match, r, leftover, sizeof leftover))
        sc_play_fail(pl, "%s", leftover);
    pl->finish[r] = now;
    rk->state = SC_RANK_DONE;
    if (pl->ops->finished)
        pl->ops->finished(pl, r);
}

int sc_play_can_resume(const sc_player_t *pl, int r, double now)
{
    const sc_play_rank_t *rk = &pl->ranks[r];
    return (rk->state == SC_RANK_WAITING && rk->pending <= 0) ||
           (rk->state == SC_RANK_BUSY && rk->busy_until <= now + 1e-12 * (now > 1 ? now : 1));
}

sc_err_t sc_play_init(sc_player_t *pl, sc_op_source_t *source, const sc_model_t *model,
                      const sc_play_ops_t *ops, sc_traffic_t *total, double *finish)
{
    int p = source->np;
    *pl = (sc_player_t){
        .np = p, .source = source, .model = model, .ops = ops, .total = total, .finish = finish};
    memset(total, 0, sizeof *total);
    pl->ranks = calloc((size_t)p, sizeof *pl->ranks);
    if (!pl->ranks)
        return sc_error(SC_ERR_RUN, "out of memory replaying %d ranks", p);
    return SC_OK;
}

sc_err_t sc_play_result(sc_player_t *pl, double *max_rank_bytes,
                        sc_err_t (*unfinished_error)(const char *what, int unfinished, int np))
{
    int p = pl->np, unfinished = 0;
    for (int r = 0; r < p; r++)
        unfinished += pl->ranks[r].state != SC_RANK_DONE;
    if (pl->failed)
        return sc_error(SC_ERR_RUN, "%s", pl->error_msg);
    if (unfinished)
        return unfinished_error ? unfinished_error("the replay", unfinished, p)
                                : sc_error(SC_ERR_RUN,
                                           "the replay deadlocked: %d of %d ranks "
                                           "never finished",
                                           unfinished, p);
    *max_rank_bytes = 0;
    for (int r = 0; r < p; r++) {
        const sc_play_rank_t *rk = &pl->ranks[r];
        if (rk->match.addressed != rk->match.matched)
            return sc_error(SC_ERR_RUN, "rank %d was sent %ld message(s) but received %ld", r,
                            rk->match.addressed, rk->match.matched);
        if (rk->path_bytes > pl->total->path_bytes)
            pl->total->path_bytes = rk->path_bytes;
        if (rk->sent_bytes > *max_rank_bytes)
            *max_rank_bytes = rk->sent_bytes;
    }
    return SC_OK;
}

void sc_play_destroy(sc_player_t *pl)
{
    for (int r = 0; pl->ranks && r < pl->np; r++) {
        sc_play_rank_t *rk = &pl->ranks[r];
        while (rk->arrived) {
            sc_envelope_t *next = rk->arrived->next;
            sc_envelope_free(rk->arrived);
            rk->arrived = next;
        }
        sc_matcher_destroy(&rk->match);
        free(rk->reqs);
    }
    free(pl->ranks);
    pl->ranks = NULL;
}
