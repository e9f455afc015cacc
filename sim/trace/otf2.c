/* OTF2 archives (Score-P's format), read through libotf2 (Debian's
 * libopen-trace-format2-dev). A rank is the location MPI's
 * COMM_LOCATIONS group lists at its place; each rank's cursor is an OTF2
 * reader of its own, which reads its location's events a chunk at a time.
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
#include <math.h>
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "reader.h"

/* What a region is to the replay. */
enum { REGION_USER, REGION_MPI, REGION_INIT, REGION_FINALIZE, REGION_SKIPPED };

typedef struct {
    char *name;
    int kind;
} region_t;

typedef struct {
    OTF2_GroupType type;
    int mpi;
    uint32_t n;
    uint64_t *members;
} group_t;

typedef struct {
    OTF2_CommRef self;
    OTF2_StringRef name;
    OTF2_GroupRef group;
} comm_def_t;

typedef struct {
    uint64_t resolution, offset;
    char **strings;
    uint32_t nstrings;
    region_t *regions;
    uint32_t nregions;
    group_t *groups;
    uint32_t ngroups;
    comm_def_t *comm_defs;
    uint32_t ncomm_defs;
    struct {
        OTF2_LocationRef ref;
        uint64_t events;
    } *locations;
    uint32_t nlocations;
    uint64_t *rank_location; /* by rank */
    uint64_t *rank_events;
    int *comm_index;         /* by OTF2 comm: ours; -3 for a rank's own (a SELF group) */
    uint32_t ncomm_index;
    int *self_comm;          /* by rank: its communicator of itself, -1 until made */
    char error[256];         /* libotf2's last complaint */
} otf2_t;

static otf2_t *errors_to; /* whose error[] libotf2's messages go to */

static OTF2_ErrorCode on_otf2_error(void *data, const char *file, uint64_t line,
                                    const char *function, OTF2_ErrorCode code, const char *msg,
                                    va_list args)
{
    (void)data;
    (void)file;
    (void)line;
    (void)function;
    if (errors_to) {
        char text[200];
        vsnprintf(text, sizeof text, msg, args);
        snprintf(errors_to->error, sizeof errors_to->error, "%s: %s", OTF2_Error_GetName(code),
                 text);
    }
    return code;
}

static const char *string_of(const otf2_t *o, OTF2_StringRef ref)
{
    return ref < o->nstrings && o->strings[ref] ? o->strings[ref] : "";
}

/* Grows *array (of *n elements of `each` bytes) to hold index i, zeroing
 * the new ones; 0 if out of memory. */
static int grow_to(void **array, uint32_t *n, uint64_t i, size_t each)
{
    if (i < *n)
        return 1;
    if (i >= (1u << 24))
        return 0; /* no sane archive defines that many */
    uint32_t more = (uint32_t)i + 1 > 2 * *n ? (uint32_t)i + 1 : 2 * *n;
    void *grown = realloc(*array, (size_t)more * each);
    if (!grown)
        return 0;
    memset((char *)grown + (size_t)*n * each, 0, (size_t)(more - *n) * each);
    *array = grown;
    *n = more;
    return 1;
}

/* ---- Global definitions ---- */

static OTF2_CallbackCode def_clock(void *u, uint64_t resolution, uint64_t offset, uint64_t length,
                                   uint64_t realtime)
{
    (void)length;
    (void)realtime;
    otf2_t *o = u;
    o->resolution = resolution;
    o->offset = offset;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_string(void *u, OTF2_StringRef self, const char *string)
{
    otf2_t *o = u;
    if (!grow_to((void **)&o->strings, &o->nstrings, self, sizeof *o->strings) ||
        !(o->strings[self] = strdup(string)))
        return OTF2_CALLBACK_ERROR;
    return OTF2_CALLBACK_SUCCESS;
}

static int starts(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

/* MPI-IO, one-sided and non-blocking collective calls: recorded, not
 * replayed (Score-P writes no records of the data of the last). */
static int skipped_mpi(const char *name)
{
    static const char *const prefixes[] = {
        "MPI_File_", "MPI_Win_", "MPI_Put", "MPI_Get", "MPI_Rput", "MPI_Rget",
        "MPI_Accumulate", "MPI_Raccumulate", "MPI_Fetch_and_op", "MPI_Compare_and_swap",
        "MPI_Ibarrier", "MPI_Ibcast", "MPI_Igather", "MPI_Iscatter", "MPI_Iallgather",
        "MPI_Ialltoall", "MPI_Ireduce", "MPI_Iallreduce", "MPI_Iscan", "MPI_Iexscan",
        "MPI_Ineighbor_", NULL};
    for (int i = 0; prefixes[i]; i++)
        if (starts(name, prefixes[i]))
            return 1;
    return 0;
}

static OTF2_CallbackCode def_region(void *u, OTF2_RegionRef self, OTF2_StringRef name,
                                    OTF2_StringRef canonical, OTF2_StringRef description,
                                    OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t begin,
                                    uint32_t end)
{
    (void)canonical;
    (void)description;
    (void)role;
    (void)flags;
    (void)file;
    (void)begin;
    (void)end;
    otf2_t *o = u;
    if (!grow_to((void **)&o->regions, &o->nregions, self, sizeof *o->regions))
        return OTF2_CALLBACK_ERROR;
    const char *n = string_of(o, name);
    region_t *r = &o->regions[self];
    r->name = strdup(n);
    if (!r->name)
        return OTF2_CALLBACK_ERROR;
    int mpi = paradigm == OTF2_PARADIGM_MPI || starts(n, "MPI_");
    r->kind = !mpi                                                           ? REGION_USER
              : !strcmp(n, "MPI_Init") || !strcmp(n, "MPI_Init_thread")      ? REGION_INIT
              : !strcmp(n, "MPI_Finalize")                                   ? REGION_FINALIZE
              : skipped_mpi(n)                                               ? REGION_SKIPPED
                                                                             : REGION_MPI;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *u, OTF2_LocationRef self, OTF2_StringRef name,
                                      OTF2_LocationType type, uint64_t events,
                                      OTF2_LocationGroupRef group)
{
    (void)name;
    (void)type;
    (void)group;
    otf2_t *o = u;
    uint32_t i = o->nlocations;
    if (!grow_to((void **)&o->locations, &o->nlocations, i, sizeof *o->locations))
        return OTF2_CALLBACK_ERROR;
    o->nlocations = i + 1;
    o->locations[i].ref = self;
    o->locations[i].events = events;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *u, OTF2_GroupRef self, OTF2_StringRef name,
                                   OTF2_GroupType type, OTF2_Paradigm paradigm,
                                   OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
    (void)name;
    (void)flags;
    otf2_t *o = u;
    if (!grow_to((void **)&o->groups, &o->ngroups, self, sizeof *o->groups))
        return OTF2_CALLBACK_ERROR;
    group_t *g = &o->groups[self];
    g->type = type;
    g->mpi = paradigm == OTF2_PARADIGM_MPI;
    g->n = n;
    g->members = malloc((size_t)(n ? n : 1) * sizeof *g->members);
    if (!g->members)
        return OTF2_CALLBACK_ERROR;
    memcpy(g->members, members, (size_t)n * sizeof *members);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *u, OTF2_CommRef self, OTF2_StringRef name,
                                  OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag flags)
{
    (void)parent;
    (void)flags;
    otf2_t *o = u;
    uint32_t i = o->ncomm_defs;
    if (!grow_to((void **)&o->comm_defs, &o->ncomm_defs, i, sizeof *o->comm_defs))
        return OTF2_CALLBACK_ERROR;
    o->ncomm_defs = i + 1;
    o->comm_defs[i] = (comm_def_t){self, name, group};
    return OTF2_CALLBACK_SUCCESS;
}

static int otf2_detect(const char *path, const unsigned char *head, size_t len)
{
    (void)path;
    return len >= 8 && (memcmp(head + 1, "BOTF2", 5) == 0 || memcmp(head, "OTF2", 4) == 0);
}

static void otf2_close(sc_trace_t *t)
{
    otf2_t *o = t->format;
    if (!o)
        return;
    for (uint32_t i = 0; i < o->nstrings; i++)
        free(o->strings[i]);
    free(o->strings);
    for (uint32_t i = 0; i < o->nregions; i++)
        free(o->regions[i].name);
    free(o->regions);
    for (uint32_t i = 0; i < o->ngroups; i++)
        free(o->groups[i].members);
    free(o->groups);
    free(o->comm_defs);
    free(o->locations);
    free(o->rank_location);
    free(o->rank_events);
    free(o->comm_index);
    free(o->self_comm);
    free(o);
    t->format = NULL;
}

/* Each rank's reader holds files open: let the process open as many as
 * it may. */
static void raise_file_limit(void)
{
    struct rlimit lim;
    if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
        lim.rlim_cur = lim.rlim_max;
        setrlimit(RLIMIT_NOFILE, &lim);
    }
}

/* Our communicators from OTF2's: MPI_COMM_WORLD is ours 0. */
static sc_err_t map_comms(sc_trace_t *t, otf2_t *o, const group_t *world)
{
    uint32_t top = 0;
    for (uint32_t i = 0; i < o->ncomm_defs; i++)
        if (o->comm_defs[i].self + 1 > top)
            top = o->comm_defs[i].self + 1;
    o->comm_index = malloc((size_t)(top ? top : 1) * sizeof *o->comm_index);
    o->self_comm = malloc((size_t)t->nranks * sizeof *o->self_comm);
    if (!o->comm_index || !o->self_comm)
        return sc_error(SC_ERR_RUN, "out of memory");
    o->ncomm_index = top;
    for (uint32_t i = 0; i < top; i++)
        o->comm_index[i] = -1;
    for (int r = 0; r < t->nranks; r++)
        o->self_comm[r] = -1;
    int world_found = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < o->ncomm_defs; i++) {
            const comm_def_t *d = &o->comm_defs[i];
            if (o->comm_index[d->self] != -1)
                continue;
            const group_t *g = d->group < o->ngroups ? &o->groups[d->group] : NULL;
            if (!g || !g->members)
                return sc_error(SC_ERR_INPUT, "OTF2 archive '%s': communicator %u names group "
                                "%u, which is not defined", t->path, d->self, d->group);
            if (g->type == OTF2_GROUP_TYPE_COMM_SELF) {
                o->comm_index[d->self] = -3;
                continue;
            }
            int identity = (int)g->n == t->nranks;
            for (uint32_t k = 0; identity && k < g->n; k++)
                identity = g->members[k] == k;
            /* first pass: the world, by name or else as the first of all ranks */
            if (pass == 0) {
                if (!world_found && identity &&
                    (!strcmp(string_of(o, d->name), "MPI_COMM_WORLD") || i + 1 == o->ncomm_defs ||
                     !strcmp(string_of(o, d->name), ""))) {
                    o->comm_index[d->self] = 0;
                    world_found = 1;
                }
                continue;
            }
            int *members = malloc((size_t)(g->n ? g->n : 1) * sizeof *members);
            if (!members)
                return sc_error(SC_ERR_RUN, "out of memory");
            for (uint32_t k = 0; k < g->n; k++) {
                if (g->members[k] >= (uint64_t)t->nranks) {
                    free(members);
                    return sc_error(SC_ERR_INPUT, "OTF2 archive '%s': communicator %u holds "
                                    "rank %llu of %d", t->path, d->self,
                                    (unsigned long long)g->members[k], t->nranks);
                }
                members[k] = (int)g->members[k];
            }
            int c = sc_trace_add_comm(t, (int)g->n, members);
            free(members);
            if (c < 0)
                return SC_ERR_RUN;
            o->comm_index[d->self] = c;
        }
    (void)world;
    return SC_OK;
}

static sc_err_t otf2_open(sc_trace_t *t)
{
    otf2_t *o = calloc(1, sizeof *o);
    if (!o)
        return sc_error(SC_ERR_RUN, "out of memory");
    t->format = o;
    errors_to = o;
    OTF2_Error_RegisterCallback(on_otf2_error, NULL);
    OTF2_Reader *rd = OTF2_Reader_Open(t->path);
    if (!rd)
        return sc_error(SC_ERR_INPUT, "OTF2 archive '%s' cannot be opened: %s", t->path,
                        o->error[0] ? o->error : "not an OTF2 anchor file");
    OTF2_Reader_SetSerialCollectiveCallbacks(rd);
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(rd);
    OTF2_GlobalDefReaderCallbacks *cbs = OTF2_GlobalDefReaderCallbacks_New();
    sc_err_t err = SC_OK;
    if (!gdr || !cbs) {
        err = sc_error(SC_ERR_INPUT, "OTF2 archive '%s': its definitions cannot be read (%s)",
                       t->path, o->error);
    } else {
        OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cbs, def_clock);
        OTF2_GlobalDefReaderCallbacks_SetStringCallback(cbs, def_string);
        OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cbs, def_region);
        OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cbs, def_location);
        OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cbs, def_group);
        OTF2_GlobalDefReaderCallbacks_SetCommCallback(cbs, def_comm);
        OTF2_Reader_RegisterGlobalDefCallbacks(rd, gdr, cbs, o);
        uint64_t ndefs = 0;
        if (OTF2_Reader_ReadAllGlobalDefinitions(rd, gdr, &ndefs) != OTF2_SUCCESS)
            err = sc_error(SC_ERR_INPUT, "OTF2 archive '%s': its definitions are corrupt (%s)",
                           t->path, o->error);
    }
    if (cbs)
        OTF2_GlobalDefReaderCallbacks_Delete(cbs);
    OTF2_Reader_Close(rd);
    if (err)
        return err;
    if (o->resolution == 0)
        return sc_error(SC_ERR_INPUT, "OTF2 archive '%s' defines no clock", t->path);
    /* The ranks: MPI's group of locations, rank r at place r. */
    const group_t *world = NULL;
    for (uint32_t i = 0; i < o->ngroups; i++)
        if (o->groups[i].members && o->groups[i].type == OTF2_GROUP_TYPE_COMM_LOCATIONS &&
            o->groups[i].mpi)
            world = &o->groups[i];
    if (!world || world->n == 0)
        return sc_error(SC_ERR_INPUT, "OTF2 archive '%s' holds no MPI ranks (no MPI group of "
                        "locations): it is not an MPI application's trace", t->path);
    if ((err = sc_trace_set_ranks(t, (int)world->n)))
        return err;
    o->rank_location = malloc(world->n * sizeof *o->rank_location);
    o->rank_events = calloc(world->n, sizeof *o->rank_events);
    if (!o->rank_location || !o->rank_events)
        return sc_error(SC_ERR_RUN, "out of memory");
    for (uint32_t r = 0; r < world->n; r++) {
        o->rank_location[r] = world->members[r];
        int found = 0;
        for (uint32_t l = 0; l < o->nlocations && !found; l++)
            if (o->locations[l].ref == world->members[r]) {
                o->rank_events[r] = o->locations[l].events;
                found = 1;
            }
        if (!found)
            return sc_error(SC_ERR_INPUT, "OTF2 archive '%s': rank %u's location %llu is not "
                            "defined", t->path, r, (unsigned long long)world->members[r]);
    }
    /* Other locations are threads' own: not replayed. */
    for (uint32_t l = 0; l < o->nlocations; l++) {
        int rank = 0;
        for (uint32_t r = 0; r < world->n && !rank; r++)
            rank = o->locations[l].ref == world->members[r];
        for (uint64_t e = 0; !rank && e < o->locations[l].events; e++)
            sc_trace_skip(t, "events of threads other than the ranks'", 0);
    }
    raise_file_limit();
    return map_comms(t, o, world);
}

/* ---- One rank ---- */

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
    otf2_t *o;
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

static OTF2_CallbackCode ev_send(EVT_ARGS, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
                                 uint64_t len)
{
    RECORD(R_SEND);
    r->a = peer;
    r->comm = comm;
    r->tag = tag;
    r->len = len;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_recv(EVT_ARGS, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
                                 uint64_t len)
{
    RECORD(R_RECV);
    r->a = peer;
    r->comm = comm;
    r->tag = tag;
    r->len = len;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_isend(EVT_ARGS, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
                                  uint64_t len, uint64_t req)
{
    RECORD(R_ISEND);
    r->a = peer;
    r->comm = comm;
    r->tag = tag;
    r->len = len;
    r->req = req;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_irecv(EVT_ARGS, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
                                  uint64_t len, uint64_t req)
{
    RECORD(R_IRECV_DONE);
    r->a = peer;
    r->comm = comm;
    r->tag = tag;
    r->len = len;
    r->req = req;
    return OTF2_CALLBACK_SUCCESS;
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
    RECORD(R_COLL_END);
    r->a = op;
    r->comm = comm;
    r->tag = root;
    r->len = sent;
    r->req = received;
    return OTF2_CALLBACK_SUCCESS;
}

static sc_err_t fail(rank_t *s, const char *what)
{
    s->failed = 1;
    return sc_error(SC_ERR_INPUT, "OTF2 archive '%s', rank %d, event %llu: %s", s->t->path,
                    s->rank, (unsigned long long)s->last_position, what);
}

static sc_err_t otf2_rank_open(sc_trace_t *t, int rank, void **state)
{
    otf2_t *o = t->format;
    rank_t *s = calloc(1, sizeof *s);
    if (!s)
        return sc_error(SC_ERR_RUN, "out of memory");
    *s = (rank_t){.t = t, .o = o, .rank = rank, .remaining = o->rank_events[rank],
                  .last_leave = NAN};
    errors_to = o;
    o->error[0] = '\0';
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
    s->o->error[0] = '\0';
    errors_to = s->o;
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
    otf2_t *o = s->o;
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
    if (s->region_kind == REGION_SKIPPED) {
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
    const region_t *region = r.kind == R_ENTER || r.kind == R_LEAVE
                                 ? (r.a < s->o->nregions && s->o->regions[r.a].name
                                        ? &s->o->regions[r.a]
                                        : NULL)
                                 : NULL;
    if ((r.kind == R_ENTER || r.kind == R_LEAVE) && !region) {
        fail(s, "a region that is not defined");
        return 0;
    }
    if (s->finished)
        return 1;
    /* what a call that is not replayed records stays unreplayed */
    if (s->depth > 0 && s->region_kind == REGION_SKIPPED && r.kind != R_ENTER &&
        r.kind != R_LEAVE)
        return 1;
    uint64_t id;
    switch (r.kind) {
    case R_ENTER:
        if (region->kind == REGION_USER)
            return 1;
        if (s->depth++ > 0)
            return 1;
        s->region = r.a;
        s->region_kind = region->kind;
        s->entered = r.t;
        s->call_first = s->nout;
        s->nwaits = s->ntests = 0;
        if (region->kind == REGION_FINALIZE && s->started) {
            s->finished = 1;
            s->remaining = 0; /* what follows MPI_Finalize is not MPI's */
        }
        return 1;
    case R_LEAVE:
        if (region->kind == REGION_USER)
            return 1;
        if (s->depth == 0) {
            fail(s, "a call that ends without having begun");
            return 0;
        }
        if (--s->depth > 0)
            return 1;
        if (region->kind == REGION_INIT) {
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
    .detect = otf2_detect,
    .open = otf2_open,
    .rank_open = otf2_rank_open,
    .next = otf2_next,
    .where = otf2_where,
    .rank_close = otf2_rank_close,
    .close = otf2_close,
};
