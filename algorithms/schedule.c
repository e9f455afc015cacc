/* Recording an algorithm's schedule from its own code.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "schedule.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The recorder of every rank, run one rank after the other: sends and
 * receives complete at once, since a size-only algorithm whose messages
 * depend on neither data nor timing does the same whatever the order.
 * A request handle is its op's index in the rank's list, plus one (NULL
 * stays "no request"). */
typedef struct {
    sc_schedule_t *sched;
    long nops, cap_ops;
    long nids, cap_ids;
    const sc_model_t *model;
    int row;                 /* the recorded rank's place in sched (its rank, or 0
                                when one rank alone is recorded) */
    int any_size;            /* receives of any size are recorded (a trace's) */
    const char *unsupported; /* the first call the replay cannot play */
    int failed;              /* out of memory */
} recorder_t;

/* Room for one more in *array of `used` elements of `each` bytes: doubles
 * *cap when full. 0 (the recording failed) if out of memory. */
static int room_for_one(recorder_t *rec, void **array, long used, long *cap, size_t each)
{
    if (used < *cap)
        return 1;
    long more = *cap ? 2 * *cap : 4096;
    void *grown = realloc(*array, (size_t)more * each);
    if (!grown) {
        rec->failed = 1;
        return 0;
    }
    *array = grown;
    *cap = more;
    return 1;
}

static sc_sched_op_t *new_op(recorder_t *rec)
{
    if (!room_for_one(rec, (void **)&rec->sched->ops, rec->nops, &rec->cap_ops,
                      sizeof *rec->sched->ops))
        return NULL;
    return &rec->sched->ops[rec->nops++];
}

static sc_request_t *handle_of(long index)
{
    return (sc_request_t *)(uintptr_t)(index + 1);
}

static sc_err_t unsupported(sc_comm_t *comm, const char *what)
{
    recorder_t *rec = comm->impl;
    if (!rec->unsupported)
        rec->unsupported = what;
    return SC_ERR_INPUT;
}

static sc_err_t p2p(sc_comm_t *comm, sc_op_kind_t kind, size_t bytes, int peer, int tag,
                    sc_request_t **req)
{
    recorder_t *rec = comm->impl;
    *req = NULL;
    if (peer == SC_ANY_SOURCE)
        return unsupported(comm, "a receive from any source");
    if (tag == SC_ANY_TAG)
        return unsupported(comm, "a receive of any tag");
    if (bytes == SC_ANY_SIZE && !rec->any_size)
        return unsupported(comm, "a receive of any size");
    if (peer < 0 || peer >= comm->size) {
        rec->failed = 1;
        return SC_ERR_RUN;
    }
    long first = rec->sched->op_start[rec->row];
    sc_sched_op_t *op = new_op(rec);
    if (!op)
        return SC_ERR_RUN;
    long index = rec->nops - 1 - first;
    *op = (sc_sched_op_t){.kind = (uint8_t)kind, .req = (uint32_t)index, .peer = peer,
                          .tag = tag, .u.bytes = bytes};
    *req = handle_of(index);
    return SC_OK;
}

static sc_err_t rec_isend(sc_comm_t *comm, const void *buf, size_t bytes, int dst, int tag,
                          sc_request_t **req)
{
    (void)buf;
    return p2p(comm, SC_OP_SEND, bytes, dst, tag, req);
}

static sc_err_t rec_irecv(sc_comm_t *comm, void *buf, size_t bytes, int src, int tag,
                          sc_request_t **req)
{
    (void)buf;
    return p2p(comm, SC_OP_RECV, bytes, src, tag, req);
}

static sc_err_t rec_waitall(sc_comm_t *comm, int count, sc_request_t **reqs)
{
    recorder_t *rec = comm->impl;
    sc_sched_op_t *op = new_op(rec);
    if (!op)
        return SC_ERR_RUN;
    *op = (sc_sched_op_t){.kind = SC_OP_WAIT,
                          .u.wait = {0, (uint32_t)(rec->nids - rec->sched->id_start[rec->row])}};
    for (int i = 0; i < count; i++) {
        if (!reqs[i])
            continue;
        if (!room_for_one(rec, (void **)&rec->sched->wait_ids, rec->nids, &rec->cap_ids,
                          sizeof *rec->sched->wait_ids))
            return SC_ERR_RUN;
        rec->sched->wait_ids[rec->nids++] = (uint32_t)((uintptr_t)reqs[i] - 1);
        op->u.wait.count++;
        reqs[i] = NULL;
    }
    return SC_OK;
}

/* The rank's core busy for `seconds`: a COMPUTE op. */
static sc_err_t record_compute(recorder_t *rec, double seconds)
{
    sc_sched_op_t *op = new_op(rec);
    if (!op)
        return SC_ERR_RUN;
    *op = (sc_sched_op_t){.kind = SC_OP_COMPUTE, .u.seconds = seconds};
    return SC_OK;
}

/* The time of combining is known now: it depends only on the rank's node
 * and the bytes (sc_model_reduce_time). Without a platform (a graph's
 * recording) there is no time to record. */
static sc_err_t rec_reduce_time(sc_comm_t *comm, size_t bytes)
{
    recorder_t *rec = comm->impl;
    if (!bytes || !rec->model->plat)
        return SC_OK;
    return record_compute(rec,
                          sc_model_reduce_time(rec->model, comm->rank, comm->elem_size, bytes));
}

/* The call's entry, o_call, a COMPUTE op (none without a platform, or
 * when it is 0). */
static sc_err_t rec_enter_call(sc_comm_t *comm)
{
    recorder_t *rec = comm->impl;
    double seconds = rec->model->plat ? sc_model_call_time(rec->model) : 0;
    return seconds > 0 ? record_compute(rec, seconds) : SC_OK;
}

static sc_err_t rec_waitany(sc_comm_t *comm, int count, sc_request_t **reqs, int *index,
                            int *source, int complete)
{
    (void)count;
    (void)reqs;
    (void)source;
    (void)complete;
    *index = -1;
    return unsupported(comm, "a wait for any of several requests");
}

static sc_err_t rec_test(sc_comm_t *comm, sc_request_t **req, int *flag)
{
    (void)req;
    *flag = 1;
    return unsupported(comm, "a test of a request");
}

static sc_err_t rec_cancel(sc_comm_t *comm, sc_request_t **req, int *cancelled)
{
    (void)req;
    *cancelled = 0;
    return unsupported(comm, "a cancelled receive");
}

static sc_err_t rec_request_free(sc_comm_t *comm, sc_request_t **req)
{
    (void)req;
    return unsupported(comm, "a request left to complete in the background");
}

static sc_err_t rec_iprobe(sc_comm_t *comm, int src, int tag, int *flag, int *source,
                           size_t *bytes)
{
    (void)src;
    (void)tag;
    (void)source;
    (void)bytes;
    *flag = 0;
    return unsupported(comm, "a probe for a message");
}

static const sc_transport_t schedule_transport = {
    .isend = rec_isend,
    .irecv = rec_irecv,
    .waitall = rec_waitall,
    .reduce_time = rec_reduce_time,
    .enter_call = rec_enter_call,
    .waitany = rec_waitany,
    .test = rec_test,
    .cancel = rec_cancel,
    .request_free = rec_request_free,
    .iprobe = rec_iprobe,
};

/* ---- Ranks that share their ops (sc_schedule_t's like) ---- */

/* A rank's ops as recorded so far. */
typedef struct {
    const sc_sched_op_t *ops;
    long nops;
    const uint32_t *ids;
    long nids;
    int rank;
} row_t;

/* Rank r's ops, up to ops[end_ops] and wait_ids[end_ids]. */
static row_t row_of(const sc_schedule_t *s, int r, long end_ops, long end_ids)
{
    row_t w = {NULL, end_ops - s->op_start[r], NULL, end_ids - s->id_start[r], r};
    if (w.nops)
        w.ops = s->ops + s->op_start[r];
    if (w.nids)
        w.ids = s->wait_ids + s->id_start[r];
    return w;
}

/* An op as its rank sees it: a SEND's or RECV's peer as how far ahead of
 * the rank it is, mod p, which ranks that share their ops have alike. (A
 * schedule of every rank has no receive from any source.) */
static sc_sched_op_t relative(const sc_sched_op_t *op, int r, int p)
{
    sc_sched_op_t rel = *op;
    if (op->kind == SC_OP_SEND || op->kind == SC_OP_RECV)
        rel.peer = op->peer >= r ? op->peer - r : op->peer - r + p;
    return rel;
}

/* The union's eight bytes: a size, a time or a wait's two counts. */
static uint64_t op_value(const sc_sched_op_t *op)
{
    uint64_t v;
    memcpy(&v, &op->u, sizeof v);
    return v;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h = (h ^ v) * 0x9e3779b97f4a7c15u;
    return h ^ (h >> 29);
}

static uint64_t row_hash(const row_t *w, int p)
{
    uint64_t h = mix((uint64_t)w->nops, (uint64_t)w->nids);
    for (long i = 0; i < w->nops; i++) {
        sc_sched_op_t op = relative(&w->ops[i], w->rank, p);
        h = mix(h, (uint64_t)op.kind << 32 | op.req);
        h = mix(h, (uint64_t)(uint32_t)op.peer << 32 | (uint32_t)op.tag);
        h = mix(h, op_value(&op));
    }
    for (long i = 0; i < w->nids; i++)
        h = mix(h, w->ids[i]);
    return h;
}

/* Whether two ranks' ops are the same as each rank sees them. Times are
 * compared bit for bit: what is shared is exactly what was recorded. */
static int same_ops(const row_t *a, const row_t *b, int p)
{
    if (a->nops != b->nops || a->nids != b->nids)
        return 0;
    for (long i = 0; i < a->nops; i++) {
        sc_sched_op_t x = relative(&a->ops[i], a->rank, p);
        sc_sched_op_t y = relative(&b->ops[i], b->rank, p);
        if (x.kind != y.kind || x.req != y.req || x.peer != y.peer || x.tag != y.tag ||
            op_value(&x) != op_value(&y))
            return 0;
    }
    return a->nids == 0 || !memcmp(a->ids, b->ids, (size_t)a->nids * sizeof *a->ids);
}

/* The ranks that keep their own ops, by the hash of their ops as they see
 * them: open addressing, at most half full. */
typedef struct {
    uint64_t hash;
    int rank; /* -1: empty */
} kept_t;

typedef struct {
    kept_t *slot;
    size_t cap, used;
} kept_table_t;

static void kept_put(kept_table_t *t, uint64_t hash, int rank)
{
    size_t i = (size_t)hash & (t->cap - 1);
    while (t->slot[i].rank >= 0)
        i = (i + 1) & (t->cap - 1);
    t->slot[i] = (kept_t){hash, rank};
    t->used++;
}

/* Room for one more; 0 if out of memory. */
static int kept_room(kept_table_t *t)
{
    if (2 * (t->used + 1) <= t->cap)
        return 1;
    kept_table_t bigger = {malloc((t->cap ? 2 * t->cap : 64) * sizeof(kept_t)),
                           t->cap ? 2 * t->cap : 64, 0};
    if (!bigger.slot)
        return 0;
    for (size_t i = 0; i < bigger.cap; i++)
        bigger.slot[i].rank = -1;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slot[i].rank >= 0)
            kept_put(&bigger, t->slot[i].hash, t->slot[i].rank);
    free(t->slot);
    *t = bigger;
    return 1;
}

/* Rank r, just recorded: if an earlier rank kept ops that are r's as each
 * sees its own, r plays those (like[r]) and its recording is dropped;
 * else r keeps its own. */
static void share_ops(recorder_t *rec, kept_table_t *kept, int r)
{
    sc_schedule_t *s = rec->sched;
    row_t mine = row_of(s, r, rec->nops, rec->nids);
    uint64_t hash = row_hash(&mine, s->np);
    for (size_t i = kept->cap ? (size_t)hash & (kept->cap - 1) : 0;
         kept->cap && kept->slot[i].rank >= 0; i = (i + 1) & (kept->cap - 1)) {
        int o = kept->slot[i].rank;
        row_t theirs = row_of(s, o, s->op_start[o + 1], s->id_start[o + 1]);
        if (kept->slot[i].hash == hash && same_ops(&theirs, &mine, s->np)) {
            s->like[r] = o;
            rec->nops = s->op_start[r];
            rec->nids = s->id_start[r];
            return;
        }
    }
    if (!kept_room(kept)) {
        rec->failed = 1;
        return;
    }
    kept_put(kept, hash, r);
    s->like[r] = r;
}

sc_err_t sc_schedule_replayable(const sc_algo_t *algo)
{
    if (algo->needs & SC_DATA_DEPENDENT)
        return sc_error(SC_ERR_INPUT,
                        "%s sends messages that depend on the data, which a replay does not "
                        "have; run it without --replay",
                        algo->name);
    if (sc_algo_is_added(algo))
        return sc_error(SC_ERR_INPUT,
                        "%s is an algorithm of your own (--load): recording its schedule would "
                        "run it in simcoll's own process; run it without --replay",
                        algo->name);
    return SC_OK;
}

sc_err_t sc_schedule_run_algo(sc_comm_t *comm, void *call)
{
    const sc_algo_call_t *c = call;
    return sc_algo_call(c->algo, comm, c->args);
}

sc_err_t sc_schedule_record(const sc_algo_t *algo, const sc_coll_args_t *args,
                            const sc_model_t *model, sc_scratch_t *scratch,
                            sc_schedule_t *sched)
{
    memset(sched, 0, sizeof *sched);
    sc_err_t err = sc_schedule_replayable(algo);
    if (err)
        return err;
    sc_algo_call_t call = {algo, args};
    return sc_schedule_record_fn(sc_schedule_run_algo, &call, algo->name, model, scratch, sched);
}

sc_err_t sc_schedule_record_fn(sc_err_t (*run)(sc_comm_t *comm, void *ctx), void *ctx,
                               const char *what, const sc_model_t *model,
                               sc_scratch_t *scratch, sc_schedule_t *sched)
{
    int p = model->size;
    sc_err_t err = SC_OK;
    memset(sched, 0, sizeof *sched);
    sched->np = p;
    sched->op_start = malloc(((size_t)p + 1) * sizeof *sched->op_start);
    sched->id_start = malloc(((size_t)p + 1) * sizeof *sched->id_start);
    sched->like = malloc((size_t)p * sizeof *sched->like);
    recorder_t rec = {.sched = sched, .model = model,
                      .failed = !sched->op_start || !sched->id_start || !sched->like};
    kept_table_t kept = {0};
    for (int r = 0; r < p && !rec.failed && !rec.unsupported; r++) {
        rec.row = r;
        sched->op_start[r] = rec.nops;
        sched->id_start[r] = rec.nids;
        sc_comm_t comm = {.rank = r, .size = p, .transport = &schedule_transport, .impl = &rec,
                          .scratch = scratch, .node_of = model->node_of,
                          .elem_size = model->elem_size};
        sc_err_t ran = run(&comm, ctx);
        sc_comm_release(&comm);
        sched->read_nodes |= comm.read_nodes;
        if (ran && !rec.unsupported && !rec.failed)
            err = sc_error(ran, "recording %s on rank %d: %s", what, r, sc_error_message());
        if (err)
            break;
        if (!rec.failed && !rec.unsupported)
            share_ops(&rec, &kept, r);
    }
    free(kept.slot);
    if (!err && rec.unsupported)
        err = sc_error(SC_ERR_INPUT,
                       "%s makes %s, whose outcome depends on timing: a replay plays a fixed "
                       "schedule; run it without --replay",
                       what, rec.unsupported);
    else if (!err && rec.failed)
        err = sc_error(SC_ERR_RUN, "recording %s on %d ranks: out of memory or a rank out of "
                                   "range",
                       what, p);
    if (err) {
        sc_schedule_destroy(sched);
        return err;
    }
    sched->op_start[p] = rec.nops;
    sched->id_start[p] = rec.nids;
    return SC_OK;
}

sc_err_t sc_schedule_record_rank(sc_err_t (*run)(sc_comm_t *comm, void *ctx), void *ctx,
                                 const char *what, const sc_model_t *model, int rank,
                                 sc_scratch_t *scratch, sc_schedule_t *sched)
{
    /* the buffers of the last recording are used again */
    sched->np = 1;
    if (!sched->op_start && !(sched->op_start = calloc(2, sizeof *sched->op_start)))
        return sc_error(SC_ERR_RUN, "out of memory");
    if (!sched->id_start && !(sched->id_start = calloc(2, sizeof *sched->id_start)))
        return sc_error(SC_ERR_RUN, "out of memory");
    recorder_t rec = {.sched = sched, .model = model, .any_size = 1,
                      .cap_ops = sched->ops ? sched->cap_ops : 0,
                      .cap_ids = sched->wait_ids ? sched->cap_ids : 0};
    sched->op_start[0] = sched->id_start[0] = 0;
    sc_comm_t comm = {.rank = rank, .size = model->size, .transport = &schedule_transport,
                      .impl = &rec, .scratch = scratch, .node_of = model->node_of,
                      .elem_size = model->elem_size};
    sc_err_t err = run(&comm, ctx);
    sc_comm_release(&comm);
    sched->read_nodes = comm.read_nodes;
    sched->cap_ops = rec.cap_ops;
    sched->cap_ids = rec.cap_ids;
    sched->op_start[1] = rec.nops;
    sched->id_start[1] = rec.nids;
    if (rec.unsupported)
        return sc_error(SC_ERR_INPUT,
                        "%s makes %s, whose outcome depends on timing: a replay plays a fixed "
                        "schedule; run it without --replay",
                        what, rec.unsupported);
    if (rec.failed)
        return sc_error(SC_ERR_RUN, "recording %s on rank %d of %d: out of memory or a rank "
                                    "out of range", what, rank, model->size);
    if (err)
        return sc_error(err, "recording %s on rank %d of %d: %s", what, rank, model->size,
                        sc_error_message());
    return SC_OK;
}

static int schedule_next(sc_op_source_t *source, int r, sc_op_window_t *w)
{
    sc_schedule_source_t *src = (sc_schedule_source_t *)source;
    const sc_schedule_t *s = src->sched;
    int o = s->like[r]; /* whose ops r plays, shifted by r - o */
    if (src->given[r] || s->op_start[o + 1] == s->op_start[o])
        return 0;
    src->given[r] = 1;
    *w = (sc_op_window_t){s->ops + s->op_start[o], s->op_start[o + 1] - s->op_start[o],
                          s->wait_ids + s->id_start[o], r - o};
    return 1;
}

sc_err_t sc_schedule_source_init(sc_schedule_source_t *src, const sc_schedule_t *sched)
{
    *src = (sc_schedule_source_t){{sched->np, schedule_next}, sched,
                                  calloc((size_t)sched->np + 1, 1)};
    return src->given ? SC_OK : sc_error(SC_ERR_RUN, "out of memory for %d ranks", sched->np);
}

void sc_schedule_source_destroy(sc_schedule_source_t *src)
{
    free(src->given);
    src->given = NULL;
}

void sc_schedule_destroy(sc_schedule_t *sched)
{
    free(sched->ops);
    free(sched->op_start);
    free(sched->wait_ids);
    free(sched->id_start);
    free(sched->like);
    memset(sched, 0, sizeof *sched);
}
