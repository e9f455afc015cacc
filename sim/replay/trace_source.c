/* A trace's events as the players' ops (trace_source.h).
 *
 * Each event of a rank becomes ops as the actor per rank would call the
 * transport (sim/engine/trace_run.c), so that both engines play the same
 * messages: a blocking send or receive is a request and a wait for it, a
 * receive takes any size, a test is a TEST op, requests never waited for
 * are waited for at the rank's end; a collective is the rank's part of it,
 * recorded from the algorithm's code (sc_schedule_record_rank) on the
 * communicator's ranks and nodes, its peers made world ranks and its tags
 * put in the communicator's context, as a subcommunicator would.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "trace_source.h"

#include <stdlib.h>
#include <string.h>

#include "algorithms/subcomm.h"
#include "id_table.h"

/* Ops a window holds at least before it is handed over (a collective's
 * part may make it longer). */
#define WINDOW_OPS 256
/* A rank's ops start with room for this many and double as they need: a
 * rank of a short trace (one Bruck call of 65,536 ranks: 48 ops) keeps
 * 1.5 KiB, not two windows' 12 KiB, of which it touched a whole page. */
#define FIRST_OPS 32

typedef struct {
    sc_trace_cursor_t *cursor;
    sc_sched_op_t *ops;
    long nops, cap_ops;
    uint32_t *ids;
    long nids, cap_ids;
    uint32_t next_id;
    sc_id_table_t requests; /* the open ones by trace id (req_put) */
    int ended;
} rank_t;

/* A communicator's ranks as a model of its own, for recording. */
typedef struct {
    int made;
    int *node_of, *domain_of;
    sc_model_t model;
} comm_model_t;

/* An algorithm and the collective calls it ran. */
typedef struct {
    sc_tcoll_t coll;
    const char *name;
    long calls;
} use_t;

struct sc_trace_source {
    sc_op_source_t source;
    sc_trace_t *trace;
    const sc_model_t *model;
    sc_trace_choice_t choice;
    double scale;
    rank_t *ranks;
    comm_model_t *comms;
    sc_trace_tags_t *tags;
    sc_scratch_t *scratch;
    sc_schedule_t rec; /* a collective's part, recorded */
    double *compute;
    use_t uses[64];
    int nuses;
};

/* ---- A rank's requests ---- */

/* A request is kept by its trace id: its id in the ops (the entry's
 * number). */
static int req_put(rank_t *rk, uint64_t trace_id, uint32_t id)
{
    return sc_id_table_put(&rk->requests, trace_id, id, NULL);
}

/* The id of trace request `trace_id`, taken out if `take`; 0 if none. */
static int req_find(rank_t *rk, uint64_t trace_id, int take, uint32_t *id)
{
    sc_id_entry_t taken;
    const sc_id_entry_t *e = take ? (sc_id_table_take(&rk->requests, trace_id, &taken) ? &taken
                                                                                        : NULL)
                                  : sc_id_table_find(&rk->requests, trace_id);
    if (!e)
        return 0;
    *id = (uint32_t)e->number;
    return 1;
}

/* ---- The window's ops ---- */

static sc_sched_op_t *op_new(rank_t *rk)
{
    if (rk->nops == rk->cap_ops) {
        long cap = rk->cap_ops ? 2 * rk->cap_ops : FIRST_OPS;
        sc_sched_op_t *more = realloc(rk->ops, (size_t)cap * sizeof *more);
        if (!more)
            return NULL;
        rk->ops = more;
        rk->cap_ops = cap;
    }
    return &rk->ops[rk->nops++];
}

static int id_new(rank_t *rk, uint32_t id)
{
    if (rk->nids == rk->cap_ids) {
        long cap = rk->cap_ids ? 2 * rk->cap_ids : 64;
        uint32_t *more = realloc(rk->ids, (size_t)cap * sizeof *more);
        if (!more)
            return 0;
        rk->ids = more;
        rk->cap_ids = cap;
    }
    rk->ids[rk->nids++] = id;
    return 1;
}

static sc_err_t oom(void)
{
    return sc_error(SC_ERR_RUN, "out of memory replaying a trace");
}

/* A WAIT (or TEST) of the ids given. */
static sc_err_t wait_op(rank_t *rk, sc_op_kind_t kind, const uint32_t *ids, int n)
{
    if (n == 0)
        return SC_OK;
    sc_sched_op_t *op = op_new(rk);
    if (!op)
        return oom();
    *op = (sc_sched_op_t){.kind = (uint8_t)kind, .u.wait = {0, (uint32_t)rk->nids}};
    for (int i = 0; i < n; i++) {
        if (!id_new(rk, ids[i]))
            return oom();
        op->u.wait.count++;
    }
    return SC_OK;
}

/* A message of the rank: SEND or RECV with a new request. */
static sc_err_t message(sc_trace_source_t *s, rank_t *rk, const sc_tev_t *ev, uint32_t *id)
{
    const sc_trace_t *t = s->trace;
    int send = ev->kind == SC_TEV_SEND || ev->kind == SC_TEV_ISEND, tag;
    sc_err_t err = sc_trace_world_tag(s->tags, ev->comm, ev->tag, &tag);
    if (err)
        return err;
    sc_sched_op_t *op = op_new(rk);
    if (!op)
        return oom();
    *id = rk->next_id++;
    *op = (sc_sched_op_t){
        .kind = (uint8_t)(send ? SC_OP_SEND : SC_OP_RECV),
        .req = *id,
        .peer = ev->peer == SC_TRACE_ANY ? SC_ANY_SOURCE
                                         : sc_trace_world_rank(t, ev->comm, ev->peer),
        .tag = tag,
        .u.bytes = send ? ev->bytes : (uint64_t)SC_ANY_SIZE};
    return SC_OK;
}

/* The model of communicator c's ranks, made on first use. */
static const sc_model_t *comm_model(sc_trace_source_t *s, int c)
{
    comm_model_t *cm = &s->comms[c];
    if (cm->made)
        return &cm->model;
    const sc_trace_comm_t *comm = sc_trace_comm(s->trace, c);
    cm->node_of = malloc((size_t)comm->size * sizeof *cm->node_of);
    cm->domain_of = malloc((size_t)comm->size * sizeof *cm->domain_of);
    if (cm->node_of && cm->domain_of) {
        for (int i = 0; i < comm->size; i++) {
            cm->node_of[i] = s->model->node_of[comm->members[i]];
            cm->domain_of[i] = s->model->domain_of ? s->model->domain_of[comm->members[i]] : 0;
        }
        cm->made = !sc_model_init(&cm->model, s->model->plat, comm->size, cm->node_of,
                                  cm->domain_of, NULL, NULL, sizeof(double));
    }
    if (!cm->made) {
        free(cm->node_of);
        free(cm->domain_of);
        cm->node_of = cm->domain_of = NULL;
        return NULL;
    }
    return &cm->model;
}

typedef struct {
    sc_trace_source_t *s;
    const sc_tev_t *ev;
    const char *algo;
} coll_call_t;

static sc_err_t coll_rank(sc_comm_t *comm, void *ctx)
{
    coll_call_t *call = ctx;
    return sc_trace_coll_run(comm, call->ev, &call->s->choice, call->s->scratch, &call->algo);
}

static void count_use(sc_trace_source_t *s, sc_tcoll_t coll, const char *name)
{
    for (int i = 0; i < s->nuses; i++)
        if (s->uses[i].coll == coll && !strcmp(s->uses[i].name, name)) {
            s->uses[i].calls++;
            return;
        }
    if (s->nuses < (int)(sizeof s->uses / sizeof s->uses[0]))
        s->uses[s->nuses++] = (use_t){coll, name, 1};
}

/* The rank's part of a collective, recorded and put in the world's terms. */
static sc_err_t collective(sc_trace_source_t *s, int r, rank_t *rk, const sc_tev_t *ev)
{
    const sc_trace_comm_t *comm = sc_trace_comm(s->trace, ev->comm);
    if (comm->size < 2)
        return SC_OK; /* a communicator of the rank alone: no message */
    int me = sc_trace_cursor_comm_rank(rk->cursor, ev->comm);
    const sc_model_t *model = comm_model(s, ev->comm);
    if (!model)
        return oom();
    coll_call_t call = {s, ev, NULL};
    char what[64];
    snprintf(what, sizeof what, "rank %d's %s", r, sc_tcoll_name(ev->coll));
    sc_err_t err = sc_schedule_record_rank(coll_rank, &call, what, model, me, s->scratch, &s->rec);
    if (err)
        return err;
    if (me == 0 && call.algo)
        count_use(s, ev->coll, call.algo);
    const sc_sched_op_t *ops = s->rec.ops;
    long n = s->rec.op_start[1];
    uint32_t base = rk->next_id;
    int context = sc_trace_coll_context(ev->comm) * SC_SUBCOMM_TAGS;
    for (long i = 0; i < n; i++) {
        sc_sched_op_t *op = op_new(rk);
        if (!op)
            return oom();
        *op = ops[i];
        switch ((sc_op_kind_t)op->kind) {
        case SC_OP_SEND:
        case SC_OP_RECV:
            op->peer = comm->members[op->peer];
            op->tag += context;
            op->req += base;
            break;
        case SC_OP_WAIT:
        case SC_OP_TEST: {
            uint32_t first = (uint32_t)rk->nids;
            for (uint32_t k = 0; k < ops[i].u.wait.count; k++)
                if (!id_new(rk, base + s->rec.wait_ids[ops[i].u.wait.first + k]))
                    return oom();
            op->u.wait.first = first;
            break;
        }
        case SC_OP_COMPUTE:
            break;
        }
    }
    rk->next_id = base + (uint32_t)n; /* the part's ids were its ops' indices */
    return SC_OK;
}

/* The ops of one event of rank r. */
static sc_err_t event_ops(sc_trace_source_t *s, int r, rank_t *rk, const sc_tev_t *ev)
{
    uint32_t id, small[16];
    sc_err_t err = SC_OK;
    switch (ev->kind) {
    case SC_TEV_COMPUTE: {
        double seconds = ev->flops > 0
                             ? ev->flops / s->model->plat->nodes[s->model->node_of[r]].speed_flops
                             : ev->seconds;
        seconds /= s->scale;
        if (seconds <= 0)
            return SC_OK;
        sc_sched_op_t *op = op_new(rk);
        if (!op)
            return oom();
        *op = (sc_sched_op_t){.kind = SC_OP_COMPUTE, .u.seconds = seconds};
        s->compute[r] += seconds;
        return SC_OK;
    }
    case SC_TEV_SEND:
    case SC_TEV_RECV:
        if (!(err = message(s, rk, ev, &id)))
            err = wait_op(rk, SC_OP_WAIT, &id, 1);
        return err;
    case SC_TEV_ISEND:
    case SC_TEV_IRECV:
        if (!(err = message(s, rk, ev, &id)) && !req_put(rk, ev->req, id))
            err = oom();
        return err;
    case SC_TEV_WAIT:
    case SC_TEV_TEST: {
        uint32_t *ids = ev->nreqs <= 16 ? small : malloc((size_t)ev->nreqs * sizeof *ids);
        if (!ids)
            return oom();
        int n = 0;
        for (int i = 0; i < ev->nreqs; i++)
            n += req_find(rk, ev->reqs[i], ev->kind == SC_TEV_WAIT, &ids[n]);
        err = wait_op(rk, ev->kind == SC_TEV_WAIT ? SC_OP_WAIT : SC_OP_TEST, ids, n);
        if (ids != small)
            free(ids);
        return err;
    }
    case SC_TEV_COLL:
        return collective(s, r, rk, ev);
    }
    return SC_OK;
}

/* What the rank never waited for is waited for at its end, as SMPI's
 * replay does. */
static sc_err_t wait_the_rest(rank_t *rk)
{
    for (size_t k = 0; k < rk->requests.cap; k++)
        if (rk->requests.slots[k].used) {
            uint32_t id = (uint32_t)rk->requests.slots[k].number;
            sc_err_t err = wait_op(rk, SC_OP_WAIT, &id, 1);
            if (err)
                return err;
            rk->requests.slots[k].used = 0;
        }
    rk->requests.used = 0;
    return SC_OK;
}

static int next_window(sc_op_source_t *source, int r, sc_op_window_t *w)
{
    sc_trace_source_t *s = (sc_trace_source_t *)source;
    rank_t *rk = &s->ranks[r];
    rk->nops = rk->nids = 0;
    sc_err_t err = SC_OK;
    while (!err && !rk->ended && rk->nops < WINDOW_OPS) {
        sc_tev_t ev;
        int got = sc_trace_next(rk->cursor, &ev);
        if (got < 0)
            return -1;
        if (got == 0) {
            rk->ended = 1;
            err = wait_the_rest(rk);
        } else {
            err = event_ops(s, r, rk, &ev);
        }
        if (err)
            sc_error(err, "%s: %s", sc_trace_cursor_where(rk->cursor), sc_error_message());
    }
    if (err)
        return -1;
    *w = (sc_op_window_t){rk->ops, rk->nops, rk->ids, 0};
    return rk->nops > 0;
}

sc_err_t sc_trace_source_new(sc_trace_t *trace, const sc_model_t *model,
                             const sc_trace_choice_t *choice, double compute_scale,
                             sc_trace_source_t **out)
{
    int p = sc_trace_ranks(trace);
    sc_trace_source_t *s = calloc(1, sizeof *s);
    if (!s)
        return oom();
    *s = (sc_trace_source_t){.source = {p, next_window}, .trace = trace, .model = model,
                             .choice = *choice, .scale = compute_scale,
                             .ranks = calloc((size_t)p, sizeof *s->ranks),
                             .comms = calloc((size_t)sc_trace_ncomms(trace), sizeof *s->comms),
                             .tags = sc_trace_tags_new(sc_trace_ncomms(trace)),
                             .scratch = sc_scratch_create(),
                             .compute = calloc((size_t)p, sizeof *s->compute)};
    *out = s;
    if (!s->ranks || !s->comms || !s->tags || !s->scratch || !s->compute)
        return oom();
    for (int r = 0; r < p; r++) {
        sc_err_t err = sc_trace_cursor_open(trace, r, &s->ranks[r].cursor);
        if (err)
            return err;
    }
    return SC_OK;
}

sc_op_source_t *sc_trace_source_ops(sc_trace_source_t *s)
{
    return &s->source;
}

const double *sc_trace_source_compute(const sc_trace_source_t *s)
{
    return s->compute;
}

int sc_trace_source_use(const sc_trace_source_t *s, int i, sc_tcoll_t *coll, const char **name,
                        long *calls)
{
    if (i < 0 || i >= s->nuses)
        return 0;
    *coll = s->uses[i].coll;
    *name = s->uses[i].name;
    *calls = s->uses[i].calls;
    return 1;
}

void sc_trace_source_free(sc_trace_source_t *s)
{
    if (!s)
        return;
    for (int r = 0; s->ranks && r < s->source.np; r++) {
        rank_t *rk = &s->ranks[r];
        sc_trace_cursor_close(rk->cursor);
        free(rk->ops);
        free(rk->ids);
        sc_id_table_free(&rk->requests);
    }
    for (int c = 0; s->comms && c < sc_trace_ncomms(s->trace); c++)
        if (s->comms[c].made) {
            sc_model_destroy(&s->comms[c].model);
            free(s->comms[c].node_of);
            free(s->comms[c].domain_of);
        }
    free(s->ranks);
    free(s->comms);
    sc_trace_tags_free(s->tags);
    sc_scratch_destroy(s->scratch);
    sc_schedule_destroy(&s->rec);
    free(s->compute);
    free(s);
}
