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

/* The time of combining is known now: it depends only on the rank's node
 * and the bytes (sc_model_reduce_time). Without a platform (a graph's
 * recording) there is no time to record. */
static sc_err_t rec_reduce_time(sc_comm_t *comm, size_t bytes)
{
    recorder_t *rec = comm->impl;
    if (!bytes || !rec->model->plat)
        return SC_OK;
    sc_model_t model = *rec->model;
    if (comm->elem_size)
        model.elem_size = comm->elem_size;
    sc_sched_op_t *op = new_op(rec);
    if (!op)
        return SC_ERR_RUN;
    *op = (sc_sched_op_t){.kind = SC_OP_COMPUTE,
                          .u.seconds = sc_model_reduce_time(&model, comm->rank, bytes)};
    return SC_OK;
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
    .waitany = rec_waitany,
    .test = rec_test,
    .cancel = rec_cancel,
    .request_free = rec_request_free,
    .iprobe = rec_iprobe,
};

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

/* An algorithm as sc_schedule_record_fn runs it. */
typedef struct {
    const sc_algo_t *algo;
    const sc_coll_args_t *args;
} algo_call_t;

static sc_err_t run_algo(sc_comm_t *comm, void *ctx)
{
    const algo_call_t *call = ctx;
    return call->algo->run(comm, call->args);
}

sc_err_t sc_schedule_record(const sc_algo_t *algo, const sc_coll_args_t *args,
                            const sc_model_t *model, sc_scratch_t *scratch,
                            sc_schedule_t *sched)
{
    memset(sched, 0, sizeof *sched);
    sc_err_t err = sc_schedule_replayable(algo);
    if (err)
        return err;
    algo_call_t call = {algo, args};
    return sc_schedule_record_fn(run_algo, &call, algo->name, model, scratch, sched);
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
    recorder_t rec = {.sched = sched, .model = model, .failed = !sched->op_start ||
                                                                !sched->id_start};
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
    }
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
    if (src->given[r] || s->op_start[r + 1] == s->op_start[r])
        return 0;
    src->given[r] = 1;
    *w = (sc_op_window_t){s->ops + s->op_start[r], s->op_start[r + 1] - s->op_start[r],
                          s->wait_ids + s->id_start[r]};
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
    memset(sched, 0, sizeof *sched);
}
