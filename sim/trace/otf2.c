/* OTF2 archives (Score-P's format), read through libotf2 (Debian's
 * libopen-trace-format2-dev). A rank is the location MPI's
 * COMM_LOCATIONS group lists at its place; each rank's cursor is an OTF2
 * reader of its own, which reads its location's events a chunk at a time;
 * the archive's definitions are otf2_defs.c's.
 *
 * How records become simcoll's events:
 *   - an MPI region (Enter .. Leave) is one call: what it records (sends,
 *     receives, completions, a collective's end) becomes events dated by
 *     its Enter and Leave; the time between the Leave of one MPI call and
 *     the Enter of the next is computing;
 *   - a blocking send or receive is a request waited for at the call's
 *     end, so MPI_Sendrecv (a send and a receive in one call) stays what
 *     it is;
 *   - an MPI_Irecv is posted when its request is (MpiIrecvRequest), but
 *     OTF2 writes its source, tag and size only at its completion: the
 *     reader looks ahead in the rank's records for them;
 *   - a failed MPI_Test is a test; a completion inside any call is a wait;
 *   - Score-P counts the data of MPI_Allreduce, Allgather, Alltoall and
 *     their v forms summed over the communicator's ranks: a rank's own
 *     share is that sum over the communicator's size;
 *   - MPI-IO, one-sided calls and what other threads record are not
 *     replayed: named once, their time kept as computing.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "otf2_defs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A record as read, before it becomes events. */
enum {
    R_ENTER, R_LEAVE, R_SEND, R_RECV, R_ISEND, R_ISEND_DONE, R_IRECV_POSTED, R_IRECV_DONE,
    R_TEST, R_CANCELLED, R_COLL_END,
};

typedef struct {
    uint8_t kind;
    uint32_t a;    /* region, peer or collective op */
    uint32_t comm; /* OTF2's */
    uint32_t tag;  /* or root */
    uint64_t len;  /* or sent */
    uint64_t req;  /* or received */
    double t;
    uint64_t position;
} record_t;

/* An OTF2 request of the rank, from its post to its completion. */
typedef struct {
    uint64_t otf2, id;
} active_t;

typedef struct {
    sc_trace_t *t;
    sc_otf2_t *o;
    int rank;
    OTF2_Reader *rd;
    OTF2_EvtReader *evt;
    uint64_t remaining; /* events not read yet */
    uint64_t last_position;
    record_t *recs;     /* read, not yet made events: recs[head .. nrecs) */
    size_t head, nrecs, cap_recs;
    sc_tev_t *out;      /* events made, not yet given */
    size_t out_head, nout, cap_out;
    uint64_t *arena;    /* the events' request and count arrays */
    size_t narena, cap_arena;
    active_t *active;
    size_t nactive, cap_active;
    uint64_t next_id;
    /* the MPI call under way */
    int depth;          /* of MPI regions: calls inside calls are the outer one's */
    int region_kind;
    uint32_t region;
    double entered;
    size_t call_first;  /* its first event in out[] */
    uint64_t *waits;    /* requests completed in it */
    size_t nwaits, cap_waits;
    uint64_t *tests;
    size_t ntests, cap_tests;
    int started, finished;
    double last_leave;  /* NaN before MPI_Init's end */
    int failed;
} rank_t;

static double seconds(const rank_t *s, OTF2_TimeStamp t)
{
    return ((double)t - (double)s->o->offset) / (double)s->o->resolution;
}

/* Records keep their index while a look-ahead reads more (otf2_next
 * moves them down between records). */
static record_t *new_record(rank_t *s)
{
    if (s->nrecs == s->cap_recs) {
        size_t cap = s->cap_recs ? 2 * s->cap_recs : 256;
        record_t *more = realloc(s->recs, cap * sizeof *more);
        if (!more) {
            s->failed = 1;
            return NULL;
        }
        s->recs = more;
        s->cap_recs = cap;
    }
    return &s->recs[s->nrecs++];
}

#define EVT_ARGS                                                                                \
    OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t position, void *u, OTF2_AttributeList *al
#define RECORD(kind_)                                                                           \
    (void)loc;                                                                                  \
    (void)al;                                                                                   \
    rank_t *s = u;                                                                              \
    record_t *r = new_record(s);                                                                \
    if (!r)                                                                                     \
        return OTF2_CALLBACK_ERROR;                                                             \
    *r = (record_t){.kind = kind_, .t = seconds(s, time), .position = position};                \
    s->last_position = position

static OTF2_CallbackCode ev_enter(EVT_ARGS, OTF2_RegionRef region)
{
    RECORD(R_ENTER);
    r->a = region;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_leave(EVT_ARGS, OTF2_RegionRef region)
{
    RECORD(R_LEAVE);
    r->a = region;
    return OTF2_CALLBACK_SUCCESS;
}

/* A record of every field: a message's (peer, communicator, tag, size,
 * and request: 0 for a blocking call's), or a collective's end (its
 * operation, communicator, root, bytes sent and received). */
static OTF2_CallbackCode record_all(EVT_ARGS, uint8_t kind, uint32_t a, OTF2_CommRef comm,
                                    uint32_t tag, uint64_t len, uint64_t req)
{
    RECORD(kind);
    r->a = a;
    r->comm = comm;
    r->tag = tag;
    r->len = len;
    r->req = req;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_send(EVT_ARGS, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
                                 uint64_t len)
{
    return record_all(loc, time, position, u, al, R_SEND, peer, comm, tag, len, 0);
}

static OTF2_CallbackCode ev_recv(EVT_ARGS, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
                                 uint64_t len)
{
    return record_all(loc, time, position, u, al, R_RECV, peer, comm, tag, len, 0);
}

static OTF2_CallbackCode ev_isend(EVT_ARGS, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
                                  uint64_t len, uint64_t req)
{
    return record_all(loc, time, position, u, al, R_ISEND, peer, comm, tag, len, req);
}

static OTF2_CallbackCode ev_irecv(EVT_ARGS, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
                                  uint64_t len, uint64_t req)
{
    return record_all(loc, time, position, u, al, R_IRECV_DONE, peer, comm, tag, len, req);
}

#define REQUEST_EVENT(name, kind)                                                               \
    static OTF2_CallbackCode name(EVT_ARGS, uint64_t req)                                       \
    {                                                                                           \
        RECORD(kind);                                                                           \
        r->req = req;                                                                           \
        return OTF2_CALLBACK_SUCCESS;                                                           \
    }
REQUEST_EVENT(ev_isend_done, R_ISEND_DONE)
REQUEST_EVENT(ev_irecv_posted, R_IRECV_POSTED)
REQUEST_EVENT(ev_test, R_TEST)
REQUEST_EVENT(ev_cancelled, R_CANCELLED)

static OTF2_CallbackCode ev_coll_end(EVT_ARGS, OTF2_CollectiveOp op, OTF2_CommRef comm,
                                     uint32_t root, uint64_t sent, uint64_t received)
{
    return record_all(loc, time, position, u, al, R_COLL_END, op, comm, root, sent, received);
}

static sc_err_t fail(rank_t *s, const char *what)
{
    s->failed = 1;
    return sc_error(SC_ERR_INPUT, "OTF2 archive '%s', rank %d, event %llu: %s", s->t->path,
                    s->rank, (unsigned long long)s->last_position, what);
}

static sc_err_t otf2_rank_open(sc_trace_t *t, int rank, void **state)
{
    sc_otf2_t *o = t->format;
    rank_t *s = calloc(1, sizeof *s);
    if (!s)
        return sc_error(SC_ERR_RUN, "out of memory");
    *s = (rank_t){.t = t, .o = o, .rank = rank, .remaining = o->rank_events[rank],
                  .last_leave = NAN};
    sc_otf2_errors_to(o);
    uint64_t loc = o->rank_location[rank];
    s->rd = OTF2_Reader_Open(t->path);
    sc_err_t err = SC_OK;
    if (!s->rd) {
        err = sc_error(SC_ERR_INPUT, "OTF2 archive '%s' cannot be opened for rank %d: %s",
                       t->path, rank, o->error);
        free(s);
        return err;
    }
    OTF2_Reader_SetSerialCollectiveCallbacks(s->rd);
    OTF2_Reader_SelectLocation(s->rd, loc);
    /* The local definitions map the location's ids to the global ones;
     * archives that need none may have no such file. */
    if (OTF2_Reader_OpenDefFiles(s->rd) == OTF2_SUCCESS) {
        OTF2_DefReader *dr = OTF2_Reader_GetDefReader(s->rd, loc);
        if (dr) {
            uint64_t n;
            OTF2_Reader_ReadAllLocalDefinitions(s->rd, dr, &n);
            OTF2_Reader_CloseDefReader(s->rd, dr);
        }
        OTF2_Reader_CloseDefFiles(s->rd);
    }
    OTF2_EvtReaderCallbacks *cbs = OTF2_EvtReaderCallbacks_New();
    if (OTF2_Reader_OpenEvtFiles(s->rd) != OTF2_SUCCESS ||
        !(s->evt = OTF2_Reader_GetEvtReader(s->rd, loc)) || !cbs) {
        err = sc_error(SC_ERR_INPUT, "OTF2 archive '%s': rank %d's events cannot be read (%s)",
                       t->path, rank, o->error);
    } else {
        OTF2_EvtReaderCallbacks_SetEnterCallback(cbs, ev_enter);
        OTF2_EvtReaderCallbacks_SetLeaveCallback(cbs, ev_leave);
        OTF2_EvtReaderCallbacks_SetMpiSendCallback(cbs, ev_send);
        OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cbs, ev_recv);
        OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cbs, ev_isend);
        OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cbs, ev_isend_done);
        OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cbs, ev_irecv_posted);
        OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cbs, ev_irecv);
        OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(cbs, ev_test);
        OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cbs, ev_cancelled);
        OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cbs, ev_coll_end);
        OTF2_Reader_RegisterEvtCallbacks(s->rd, s->evt, cbs, s);
    }
    if (cbs)
        OTF2_EvtReaderCallbacks_Delete(cbs);
    if (err) {
        OTF2_Reader_Close(s->rd);
        free(s);
        return err;
    }
    *state = s;
    return SC_OK;
}

static void otf2_rank_close(void *state)
{
    rank_t *s = state;
    if (s->rd)
        OTF2_Reader_Close(s->rd);
    free(s->recs);
    free(s->out);
    free(s->arena);
    free(s->active);
    free(s->waits);
    free(s->tests);
    free(s);
}

static void otf2_where(void *state, char *out, size_t len)
{
    rank_t *s = state;
    snprintf(out, len, "%s, event %llu of location %llu", s->t->path,
             (unsigned long long)s->last_position,
             (unsigned long long)s->o->rank_location[s->rank]);
}

/* Reads up to a chunk more records; 0 when none are left, -1 on error. */
static int read_more(rank_t *s)
{
    if (s->remaining == 0)
        return 0;
    /* libotf2 3.0.2 fails when asked for more events than are left */
    uint64_t want = s->remaining < 256 ? s->remaining : 256, got = 0;
    sc_otf2_errors_to(s->o);
    OTF2_ErrorCode e = OTF2_EvtReader_ReadEvents(s->evt, want, &got);
    if (s->failed) {
        sc_error(SC_ERR_RUN, "out of memory reading rank %d", s->rank);
        return -1;
    }
    if (e != OTF2_SUCCESS || got == 0) {
        char what[600];
        snprintf(what, sizeof what,
                 "its events end after %llu of the %llu its location's definition promises "
                 "(the archive is truncated or corrupt%s%s)",
                 (unsigned long long)(s->o->rank_events[s->rank] - s->remaining),
                 (unsigned long long)s->o->rank_events[s->rank], s->o->error[0] ? ": " : "",
                 s->o->error);
        fail(s, what);
        return -1;
    }
    s->remaining -= got;
    return 1;
}

static sc_tev_t *emit(rank_t *s, sc_tev_kind_t kind)
{
    if (s->nout == s->cap_out) {
        size_t cap = s->cap_out ? 2 * s->cap_out : 64;
        sc_tev_t *more = realloc(s->out, cap * sizeof *more);
        if (!more) {
            s->failed = 1;
            sc_error(SC_ERR_RUN, "out of memory reading rank %d", s->rank);
            return NULL;
        }
        s->out = more;
        s->cap_out = cap;
    }
    sc_tev_t *ev = &s->out[s->nout++];
    *ev = (sc_tev_t){.kind = kind, .index = (long)s->last_position, .began = NAN, .ended = NAN};
    return ev;
}

/* Room for n values in the arena; its offset, or SIZE_MAX if out of
 * memory. Offsets, not pointers: the arena may move until handed out. */
static size_t arena_take(rank_t *s, size_t n)
{
    if (s->narena + n > s->cap_arena) {
        size_t cap = s->cap_arena ? 2 * s->cap_arena : 256;
        while (cap < s->narena + n)
            cap *= 2;
        uint64_t *more = realloc(s->arena, cap * sizeof *more);
        if (!more) {
            s->failed = 1;
            sc_error(SC_ERR_RUN, "out of memory reading rank %d", s->rank);
            return SIZE_MAX;
        }
        s->arena = more;
        s->cap_arena = cap;
    }
    size_t at = s->narena;
    s->narena += n;
    return at;
}

static int push_u64(rank_t *s, uint64_t **v, size_t *n, size_t *cap, uint64_t x)
{
    if (*n == *cap) {
        size_t grown = *cap ? 2 * *cap : 16;
        uint64_t *more = realloc(*v, grown * sizeof *more);
        if (!more) {
            s->failed = 1;
            sc_error(SC_ERR_RUN, "out of memory reading rank %d", s->rank);
            return 0;
        }
        *v = more;
        *cap = grown;
    }
    (*v)[(*n)++] = x;
    return 1;
}

/* Our communicator and the rank's peer in it, from OTF2's. */
static int comm_of(rank_t *s, uint32_t comm)
{
    sc_otf2_t *o = s->o;
    if (comm >= o->ncomm_index || o->comm_index[comm] == -1) {
        fail(s, "a communicator that is not defined");
        return -1;
    }
    if (o->comm_index[comm] != -3)
        return o->comm_index[comm];
    if (o->self_comm[s->rank] < 0) {
        int me = s->rank;
        int c = sc_trace_add_comm(s->t, 1, &me);
        if (c < 0) {
            s->failed = 1;
            return -1;
        }
        o->self_comm[s->rank] = c;
    }
    return o->self_comm[s->rank];
}

/* A request the rank makes and waits for in the same call (a blocking
 * send or receive): never active across calls. */
static uint64_t new_id(rank_t *s)
{
    return s->next_id++;
}

static int active_add(rank_t *s, uint64_t otf2, uint64_t *id)
{
    if (s->nactive == s->cap_active) {
        size_t cap = s->cap_active ? 2 * s->cap_active : 16;
        active_t *more = realloc(s->active, cap * sizeof *more);
        if (!more) {
            s->failed = 1;
            sc_error(SC_ERR_RUN, "out of memory reading rank %d", s->rank);
            return 0;
        }
        s->active = more;
        s->cap_active = cap;
    }
    *id = s->next_id++;
    s->active[s->nactive++] = (active_t){otf2, *id};
    return 1;
}

/* The id of OTF2 request `otf2`, taken off the active ones if `done`; 0
 * if the rank has no such request. */
static int active_find(rank_t *s, uint64_t otf2, int done, uint64_t *id)
{
    for (size_t i = 0; i < s->nactive; i++)
        if (s->active[i].otf2 == otf2) {
            *id = s->active[i].id;
            if (done)
                s->active[i] = s->active[--s->nactive];
            return 1;
        }
    return 0;
}

static int p2p_event(rank_t *s, sc_tev_kind_t kind, const record_t *r, uint64_t id)
{
    int comm = comm_of(s, r->comm);
    if (comm < 0)
        return 0;
    sc_tev_t *ev = emit(s, kind);
    if (!ev)
        return 0;
    ev->comm = comm;
    ev->peer = (int)r->a;
    ev->tag = (int)(r->tag & 0x7fffffff);
    ev->bytes = r->len;
    ev->req = id;
    return 1;
}

/* An MPI_Irecv posted: its source, tag and size come with its completion,
 * later in the rank's records. */
static int irecv_posted(rank_t *s, size_t at)
{
    uint64_t otf2 = s->recs[at].req;
    for (size_t i = at + 1;; i++) {
        while (i >= s->nrecs) {
            int got = read_more(s);
            if (got < 0)
                return 0;
            if (got == 0) {
                /* never completed nor cancelled: it matched nothing the
                 * trace saw, so it posts nothing here */
                sc_trace_skip(s->t, "MPI_Irecv never completed", 0);
                return 1;
            }
        }
        const record_t *r = &s->recs[i];
        if (r->req != otf2)
            continue;
        if (r->kind == R_CANCELLED)
            return 1; /* cancelled: nothing to post */
        if (r->kind != R_IRECV_DONE)
            continue;
        uint64_t id;
        return active_add(s, otf2, &id) && p2p_event(s, SC_TEV_IRECV, r, id);
    }
}

static int collective(rank_t *s, const record_t *r)
{
    int comm = comm_of(s, r->comm);
    if (comm < 0)
        return 0;
    int n = sc_trace_comm(s->t, comm)->size;
    uint64_t sent = r->len, received = r->req, share = n > 0 ? sent / (uint64_t)n : sent;
    sc_tcoll_t coll;
    uint64_t bytes;
    switch ((OTF2_CollectiveOp)r->a) {
    case OTF2_COLLECTIVE_OP_BARRIER: coll = SC_TCOLL_BARRIER; bytes = 0; break;
    case OTF2_COLLECTIVE_OP_BCAST: coll = SC_TCOLL_BCAST; bytes = received; break;
    case OTF2_COLLECTIVE_OP_GATHER: coll = SC_TCOLL_GATHER; bytes = sent; break;
    case OTF2_COLLECTIVE_OP_GATHERV: coll = SC_TCOLL_GATHERV; bytes = sent; break;
    case OTF2_COLLECTIVE_OP_SCATTER: coll = SC_TCOLL_SCATTER; bytes = received; break;
    case OTF2_COLLECTIVE_OP_SCATTERV: coll = SC_TCOLL_SCATTERV; bytes = received; break;
    case OTF2_COLLECTIVE_OP_ALLGATHER: coll = SC_TCOLL_ALLGATHER; bytes = share; break;
    case OTF2_COLLECTIVE_OP_ALLGATHERV: coll = SC_TCOLL_ALLGATHERV; bytes = share; break;
    case OTF2_COLLECTIVE_OP_ALLTOALL: coll = SC_TCOLL_ALLTOALL; bytes = share; break;
    case OTF2_COLLECTIVE_OP_ALLTOALLV:
    case OTF2_COLLECTIVE_OP_ALLTOALLW: coll = SC_TCOLL_ALLTOALLV; bytes = sent; break;
    case OTF2_COLLECTIVE_OP_ALLREDUCE: coll = SC_TCOLL_ALLREDUCE; bytes = share; break;
    case OTF2_COLLECTIVE_OP_REDUCE: coll = SC_TCOLL_REDUCE; bytes = sent; break;
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK: coll = SC_TCOLL_REDUCE_SCATTER; bytes = sent; break;
    case OTF2_COLLECTIVE_OP_SCAN: coll = SC_TCOLL_SCAN; bytes = sent; break;
    case OTF2_COLLECTIVE_OP_EXSCAN: coll = SC_TCOLL_EXSCAN; bytes = sent; break;
    default:
        return 1; /* communicator and window set-up (CREATE_HANDLE ...): no data */
    }
    sc_tev_t *ev = emit(s, SC_TEV_COLL);
    if (!ev)
        return 0;
    ev->comm = comm;
    ev->coll = coll;
    ev->bytes = bytes;
    /* OTF2 has no datatype: reductions are taken to be of doubles where
     * the size allows, as most are */
    ev->elem = bytes % 8 == 0 ? 8 : bytes % 4 == 0 ? 4 : 1;
    ev->root = r->tag >= OTF2_COLLECTIVE_ROOT_THIS_GROUP ? 0 : (int)r->tag;
    return 1;
}

/* The MPI call ends: the events it made get its times, and it waits for
 * what completed in it. */
static int call_ends(rank_t *s, double left)
{
    int replayed = s->nout > s->call_first || s->nwaits > 0 || s->ntests > 0;
    if (s->region_kind == SC_OTF2_REGION_SKIPPED) {
        sc_trace_skip(s->t, s->o->regions[s->region].name, left - s->entered);
        return 1; /* its time stays the rank's computing */
    }
    if (!replayed)
        return 1; /* a call of the rank alone (MPI_Comm_rank...): computing */
    if (!isnan(s->last_leave) && s->entered > s->last_leave) {
        /* the computing before the call, ahead of its events */
        sc_tev_t *gap = emit(s, SC_TEV_COMPUTE);
        if (!gap)
            return 0;
        gap->seconds = s->entered - s->last_leave;
        gap->began = s->last_leave;
        gap->ended = s->entered;
        sc_tev_t keep = *gap;
        memmove(&s->out[s->call_first + 1], &s->out[s->call_first],
                (s->nout - 1 - s->call_first) * sizeof *s->out);
        s->out[s->call_first] = keep;
        s->call_first++;
    }
    if (s->ntests > 0) {
        size_t at = arena_take(s, s->ntests);
        sc_tev_t *ev = at == SIZE_MAX ? NULL : emit(s, SC_TEV_TEST);
        if (!ev)
            return 0;
        memcpy(s->arena + at, s->tests, s->ntests * sizeof *s->tests);
        ev->reqs = (const uint64_t *)(uintptr_t)at; /* made a pointer when given */
        ev->nreqs = (int)s->ntests;
    }
    if (s->nwaits > 0) {
        size_t at = arena_take(s, s->nwaits);
        sc_tev_t *ev = at == SIZE_MAX ? NULL : emit(s, SC_TEV_WAIT);
        if (!ev)
            return 0;
        memcpy(s->arena + at, s->waits, s->nwaits * sizeof *s->waits);
        ev->reqs = (const uint64_t *)(uintptr_t)at;
        ev->nreqs = (int)s->nwaits;
    }
    for (size_t i = s->call_first; i < s->nout; i++) {
        s->out[i].began = s->entered;
        s->out[i].ended = left;
    }
    s->last_leave = left;
    return 1;
}

/* One record of the rank, into events. */
static int take(rank_t *s, size_t at)
{
    const record_t r = s->recs[at];
    const sc_otf2_region_t *region =
        r.kind == R_ENTER || r.kind == R_LEAVE
            ? (r.a < s->o->nregions && s->o->regions[r.a].name ? &s->o->regions[r.a] : NULL)
            : NULL;
    if ((r.kind == R_ENTER || r.kind == R_LEAVE) && !region) {
        fail(s, "a region that is not defined");
        return 0;
    }
    if (s->finished)
        return 1;
    /* what a call that is not replayed records stays unreplayed */
    if (s->depth > 0 && s->region_kind == SC_OTF2_REGION_SKIPPED && r.kind != R_ENTER &&
        r.kind != R_LEAVE)
        return 1;
    uint64_t id;
    switch (r.kind) {
    case R_ENTER:
        if (region->kind == SC_OTF2_REGION_USER)
            return 1;
        if (s->depth++ > 0)
            return 1;
        s->region = r.a;
        s->region_kind = region->kind;
        s->entered = r.t;
        s->call_first = s->nout;
        s->nwaits = s->ntests = 0;
        if (region->kind == SC_OTF2_REGION_FINALIZE && s->started) {
            s->finished = 1;
            s->remaining = 0; /* what follows MPI_Finalize is not MPI's */
        }
        return 1;
    case R_LEAVE:
        if (region->kind == SC_OTF2_REGION_USER)
            return 1;
        if (s->depth == 0) {
            fail(s, "a call that ends without having begun");
            return 0;
        }
        if (--s->depth > 0)
            return 1;
        if (region->kind == SC_OTF2_REGION_INIT) {
            s->started = 1;
            s->last_leave = r.t;
            return 1;
        }
        if (!s->started) {
            s->started = 1; /* a trace that begins after MPI_Init */
            s->last_leave = s->entered;
        }
        return call_ends(s, r.t);
    case R_SEND:
    case R_RECV:
        /* blocking: a request the call waits for */
        id = new_id(s);
        return p2p_event(s, r.kind == R_SEND ? SC_TEV_ISEND : SC_TEV_IRECV, &r, id) &&
               push_u64(s, &s->waits, &s->nwaits, &s->cap_waits, id);
    case R_ISEND:
        return active_add(s, r.req, &id) && p2p_event(s, SC_TEV_ISEND, &r, id);
    case R_IRECV_POSTED:
        return irecv_posted(s, at);
    case R_ISEND_DONE:
    case R_IRECV_DONE:
        if (active_find(s, r.req, 1, &id))
            return push_u64(s, &s->waits, &s->nwaits, &s->cap_waits, id);
        if (r.kind == R_ISEND_DONE) {
            fail(s, "the completion of a send that was never started");
            return 0;
        }
        /* a receive whose post was not recorded: posted here */
        id = new_id(s);
        return p2p_event(s, SC_TEV_IRECV, &r, id) &&
               push_u64(s, &s->waits, &s->nwaits, &s->cap_waits, id);
    case R_TEST:
        return !active_find(s, r.req, 0, &id) ||
               push_u64(s, &s->tests, &s->ntests, &s->cap_tests, id);
    case R_CANCELLED:
        active_find(s, r.req, 1, &id);
        return 1;
    case R_COLL_END:
        return collective(s, &r);
    }
    return 1;
}

static int otf2_next(void *state, sc_tev_t *ev)
{
    rank_t *s = state;
    if (s->failed)
        return -1;
    while (s->out_head == s->nout || s->depth > 0) {
        if (s->out_head == s->nout) {
            s->out_head = s->nout = 0;
            s->narena = 0;
        }
        if (s->head > 0 && (s->head == s->nrecs || s->head > 4096)) {
            /* nothing is looked at now: records may move down */
            memmove(s->recs, s->recs + s->head, (s->nrecs - s->head) * sizeof *s->recs);
            s->nrecs -= s->head;
            s->head = 0;
        }
        /* events of kinds the replay does not read (ProgramBegin, ...) make
         * no record: read on until one does */
        int got = 1;
        while (s->head == s->nrecs && (got = read_more(s)) > 0)
            ;
        if (got < 0)
            return -1;
        if (s->head == s->nrecs) {
            if (s->depth > 0 && !s->finished) {
                fail(s, "its events end inside an MPI call (the trace was cut short)");
                return -1;
            }
            if (s->out_head < s->nout)
                break;
            return 0;
        }
        size_t at = s->head++;
        if (!take(s, at))
            return -1;
        if (s->depth == 0 && s->out_head < s->nout)
            break;
    }
    *ev = s->out[s->out_head++];
    if (ev->kind == SC_TEV_WAIT || ev->kind == SC_TEV_TEST)
        ev->reqs = s->arena + (uintptr_t)ev->reqs;
    return 1;
}

const sc_trace_reader_t sc_trace_otf2_reader = {
    .name = "OTF2",
    .detect = sc_otf2_detect,
    .open = sc_otf2_open,
    .rank_open = otf2_rank_open,
    .next = otf2_next,
    .where = otf2_where,
    .rank_close = otf2_rank_close,
    .close = sc_otf2_close,
};
