/* simcoll's MPI point-to-point protocol, shared by both engines.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "protocol.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/p2p.h"

void sc_traffic_add(const sc_platform_t *plat, const sc_traffic_t *t, int sign,
                    long messages[SC_NLEVELS], double bytes[SC_NLEVELS])
{
    for (int l = 0; l < SC_MAX_LEVELS; l++) {
        sc_level_id_t id = l <= sc_platform_node_levels(plat) ? SC_LEVEL_INTRA : SC_LEVEL_INTER;
        messages[id] += sign * t->level_messages[l];
        bytes[id] += sign * t->level_bytes[l];
    }
}

sc_send_plan_t sc_protocol_send(const sc_model_t *model, int src, int dst, size_t bytes,
                                sc_traffic_t *count)
{
    sc_send_plan_t plan = {.src = src, .dst = dst, .bytes = bytes};
    plan.hier = sc_model_hier_level(model, src, dst);
    plan.level = sc_model_level_id(model, src, dst);
    plan.lv = sc_platform_level(model->plat, plan.hier);
    plan.eager = bytes <= plan.lv->eager_limit;
    plan.first = plan.eager ? SC_ENV_EAGER : SC_ENV_RTS;
    plan.first_data = plan.eager ? bytes : 0;
    plan.o_s = sc_level_send_overhead(plan.lv, bytes);
    if (count) {
        count->level_messages[plan.hier]++;
        count->level_bytes[plan.hier] += (double)bytes;
    }
    return plan;
}

double sc_protocol_depart(const sc_model_t *model, const sc_send_plan_t *plan, double now)
{
    if (plan->level != SC_LEVEL_INTER || !model->nic_free)
        return now;
    /* An RTS occupies the wire with its header only: its data goes later,
     * on CTS, without another turn at the NIC. */
    return sc_model_depart(model->nic_free, model->node_of[plan->src], model->node_of[plan->dst],
                           plan->lv->gap_s, now,
                           sc_wire_time(model->plat, plan->lv, plan->first_data));
}

/* See sc_wire_plan_t.extra_latency. */
static double extra_latency(const sc_model_t *model, const sc_level_t *lv, size_t data)
{
    double extra = (sc_level_latency_factor(lv, data) - 1) * lv->latency_s;
    if (data == 0) { /* the header's time on the wire, which SimGrid does not spend */
        size_t header = model->plat->header_bytes;
        extra += fmax(sc_level_link_time(lv, header, 0), sc_level_flow_time(lv, header, 0));
    }
    return extra;
}

sc_wire_plan_t sc_protocol_wire(const sc_model_t *model, int src, int dst, size_t data)
{
    const sc_level_t *lv = sc_model_level(model, src, dst);
    sc_wire_plan_t w = {0, -1, extra_latency(model, lv, data)};
    if (data == 0) /* a header alone shares no link: SimGrid moves no bytes for it */
        return w;
    w.wire_bytes = sc_wire_bytes(model->plat, lv, data);
    double bound = sc_level_flow_bound(lv, data);
    /* The wire bytes are the data and header inflated by the bandwidth
     * factor: the same share of them per second. */
    if (bound > 0)
        w.rate = bound * w.wire_bytes / (double)(data + model->plat->header_bytes);
    return w;
}

double sc_protocol_ready(const sc_model_t *model, const sc_envelope_t *env, double arrived)
{
    size_t data = sc_envelope_data_bytes(env);
    const sc_level_t *lv = sc_model_level(model, env->src, env->dst);
    double extra = extra_latency(model, lv, data);
    if (data > 0)
        return arrived + extra;
    return env->left + lv->latency_s + extra;
}

sc_wait_cost_t sc_protocol_wait_begin(double path_bytes)
{
    return (sc_wait_cost_t){.path = path_bytes, .longest = -1, .o_r = 0};
}

void sc_protocol_wait_add(sc_wait_cost_t *w, const sc_model_t *model, int rank, int is_recv,
                          int source, size_t bytes, double req_path)
{
    /* The messages of one call travel side by side, after both ends are
     * ready: the longest of them extends the longest path into the call. */
    if (req_path > w->path)
        w->path = req_path;
    if ((double)bytes > w->longest)
        w->longest = (double)bytes;
    /* The receiver's overhead, once its messages are in. */
    if (is_recv)
        w->o_r += sc_level_recv_overhead(sc_model_level(model, source, rank), bytes);
}

double sc_protocol_wait_path(const sc_wait_cost_t *w, double path_bytes)
{
    return w->longest >= 0 ? w->path + w->longest : path_bytes;
}

sc_envelope_t *sc_envelope_new(sc_env_kind_t kind, int src, int dst, int tag, size_t bytes)
{
    sc_envelope_t *env = calloc(1, sizeof *env);
    if (env)
        *env = (sc_envelope_t){
            .kind = kind, .src = src, .dst = dst, .tag = tag, .bytes = bytes, .record = -1};
    return env;
}

void sc_envelope_free(sc_envelope_t *env)
{
    free(env->data);
    free(env);
}

size_t sc_envelope_data_bytes(const sc_envelope_t *env)
{
    return env->kind == SC_ENV_EAGER || env->kind == SC_ENV_DATA ? env->bytes : 0;
}

int sc_held_push(sc_held_queue_t *q, double ready, sc_envelope_t *env, sc_req_ref_t send, int rank)
{
    sc_held_t *h = malloc(sizeof *h);
    if (!h)
        return 0;
    *h = (sc_held_t){.ready = ready, .env = env, .send = send, .rank = rank};
    /* Items mostly come in the order they become ready: look from the end
     * only when one does not. */
    if (!q->tail || q->tail->ready <= ready) {
        if (q->tail)
            q->tail->next = h;
        else
            q->head = h;
        q->tail = h;
        return 1;
    }
    sc_held_t **link = &q->head;
    while ((*link)->ready <= ready)
        link = &(*link)->next;
    h->next = *link;
    *link = h;
    return 1;
}

int sc_held_due(const sc_held_queue_t *q, double now)
{
    return q->head && q->head->ready <= now + 1e-12 * (now > 1 ? now : 1);
}

sc_held_t *sc_held_pop(sc_held_queue_t *q)
{
    sc_held_t *h = q->head;
    if (h && !(q->head = h->next))
        q->tail = NULL;
    return h;
}

void sc_held_clear(sc_held_queue_t *q)
{
    for (sc_held_t *h; (h = sc_held_pop(q));) {
        if (h->env)
            sc_envelope_free(h->env);
        free(h);
    }
}

static void free_list(sc_envelope_t *env)
{
    while (env) {
        sc_envelope_t *next = env->next;
        sc_envelope_free(env);
        env = next;
    }
}

void sc_matcher_destroy(sc_matcher_t *m)
{
    free_list(m->unexpected);
    free_list(m->early);
    free(m->posted);
    sc_streams_free(&m->streams);
    *m = (sc_matcher_t){.addressed = m->addressed, .matched = m->matched};
}

/* Whether a message from src with tag is one a receive of `peer` and `tag`
 * asked for. */
static int matches(int peer, int tag, int src, int msg_tag)
{
    int any_of_band = tag < SC_ANY_TAG && msg_tag >= 0 && msg_tag / SC_TAG_BAND == -2 - tag;
    return (peer == src || peer == SC_ANY_SOURCE) &&
           (tag == msg_tag || tag == SC_ANY_TAG || any_of_band);
}

static sc_stream_t *stream(sc_matcher_t *m, const sc_protocol_ops_t *ops, int peer)
{
    sc_stream_t *s = sc_stream(&m->streams, peer);
    if (!s)
        ops->out_of_memory(m, "message streams");
    return s;
}

int sc_matcher_number(sc_matcher_t *m, const sc_protocol_ops_t *ops, sc_envelope_t *env)
{
    if (env->kind != SC_ENV_EAGER && env->kind != SC_ENV_RTS)
        return 1;
    sc_stream_t *s = stream(m, ops, env->dst);
    if (!s)
        return 0;
    env->seq = s->next_out++;
    return 1;
}

/* Completes posted receive p with envelope env (EAGER or RTS) from its
 * queue, and frees env. */
static void match(sc_matcher_t *m, const sc_protocol_ops_t *ops, sc_posted_t p, sc_envelope_t *env)
{
    if (env->bytes != p.bytes && p.bytes != SC_ANY_SIZE) {
        char message[160];
        snprintf(message, sizeof message,
                 "rank %d expected %zu bytes from rank %d (tag %d) but %zu were sent", env->dst,
                 p.bytes, env->src, env->tag, env->bytes);
        ops->mismatch(m, p.req, message);
    } else {
        m->matched++;
        ops->matched(m, p.req, env);
        if (env->kind == SC_ENV_EAGER)
            ops->received(m, p.req, env);
        else /* RTS: tell the sender to go ahead */
            ops->clear_to_send(m, p.req, env);
    }
    sc_envelope_free(env);
}

/* Takes posted receive i off the queue, keeping the others' order. */
static void unpost(sc_matcher_t *m, int i)
{
    memmove(&m->posted[i], &m->posted[i + 1], (size_t)(m->nposted - i - 1) * sizeof *m->posted);
    m->nposted--;
}

/* The oldest posted receive a message from src with tag fits, taken off
 * the queue; 0 if none. */
static int take_posted(sc_matcher_t *m, int src, int tag, sc_posted_t *out)
{
    for (int i = 0; i < m->nposted; i++)
        if (matches(m->posted[i].peer, m->posted[i].tag, src, tag)) {
            *out = m->posted[i];
            unpost(m, i);
            return 1;
        }
    return 0;
}

/* The oldest unexpected envelope a receive of peer and tag fits, taken off
 * the queue, or NULL. */
static sc_envelope_t *take_unexpected(sc_matcher_t *m, int peer, int tag)
{
    sc_envelope_t **link = &m->unexpected, *prev = NULL;
    for (sc_envelope_t *e = m->unexpected; e; prev = e, link = &e->next, e = e->next)
        if (matches(peer, tag, e->src, e->tag)) {
            *link = e->next;
            if (m->unexpected_tail == e)
                m->unexpected_tail = prev;
            return e;
        }
    return NULL;
}

static void deliver(sc_matcher_t *m, const sc_protocol_ops_t *ops, sc_envelope_t *env)
{
    sc_posted_t p;
    switch (env->kind) {
    case SC_ENV_EAGER:
    case SC_ENV_RTS:
        if (take_posted(m, env->src, env->tag, &p)) {
            match(m, ops, p, env);
        } else {
            env->next = NULL;
            if (m->unexpected_tail)
                m->unexpected_tail->next = env;
            else
                m->unexpected = env;
            m->unexpected_tail = env;
        }
        return;
    case SC_ENV_CTS:
        ops->send_data(m, env);
        sc_envelope_free(env);
        return;
    case SC_ENV_DATA:
        ops->received(m, env->rreq, env);
        sc_envelope_free(env);
        return;
    }
}

static sc_envelope_t *take_early(sc_matcher_t *m, int src, unsigned seq)
{
    for (sc_envelope_t **link = &m->early; *link; link = &(*link)->next)
        if ((*link)->src == src && (*link)->seq == seq) {
            sc_envelope_t *e = *link;
            *link = e->next;
            return e;
        }
    return NULL;
}

void sc_matcher_accept(sc_matcher_t *m, const sc_protocol_ops_t *ops, sc_envelope_t *env)
{
    if (env->kind != SC_ENV_EAGER && env->kind != SC_ENV_RTS) {
        deliver(m, ops, env);
        return;
    }
    int src = env->src;
    sc_stream_t *s = stream(m, ops, src);
    if (!s)
        return;
    if (env->seq != s->next_in) {
        env->next = m->early;
        m->early = env;
        return;
    }
    while (env) {
        unsigned next = ++s->next_in;
        deliver(m, ops, env); /* may add streams: look ours up again */
        if (!(s = stream(m, ops, src)))
            return;
        env = take_early(m, src, next);
    }
}

int sc_matcher_post(sc_matcher_t *m, const sc_protocol_ops_t *ops, sc_req_ref_t req, int peer,
                    int tag, size_t bytes)
{
    sc_posted_t p = {req, peer, tag, bytes};
    sc_envelope_t *env = take_unexpected(m, peer, tag);
    if (env) {
        match(m, ops, p, env);
        return 1;
    }
    if (m->nposted == m->cap_posted) {
        int cap = m->cap_posted ? 2 * m->cap_posted : 4;
        sc_posted_t *more = realloc(m->posted, (size_t)cap * sizeof *more);
        if (!more) {
            ops->out_of_memory(m, "posted receives");
            return 0;
        }
        m->posted = more;
        m->cap_posted = cap;
    }
    m->posted[m->nposted++] = p;
    return 1;
}

int sc_matcher_cancel(sc_matcher_t *m, sc_req_ref_t req)
{
    for (int i = 0; i < m->nposted; i++)
        if (m->posted[i].req == req) {
            unpost(m, i);
            return 1;
        }
    return 0;
}

const sc_envelope_t *sc_matcher_probe(const sc_matcher_t *m, int src, int tag)
{
    for (const sc_envelope_t *e = m->unexpected; e; e = e->next)
        if (matches(src, tag, e->src, e->tag))
            return e;
    return NULL;
}

int sc_matcher_leftover(const sc_matcher_t *m, int rank, char *message, size_t len)
{
    if (m->unexpected)
        snprintf(message, len,
                 "rank %d finished with an unreceived message from rank %d (tag %d, %zu bytes)",
                 rank, m->unexpected->src, m->unexpected->tag, m->unexpected->bytes);
    else if (m->nposted)
        snprintf(message, len, "rank %d finished with a receive from rank %d (tag %d) still posted",
                 rank, m->posted[0].peer, m->posted[0].tag);
    else if (m->early)
        snprintf(message, len,
                 "rank %d finished with a message from rank %d whose predecessor never arrived",
                 rank, m->early->src);
    else
        return 0;
    return 1;
}
