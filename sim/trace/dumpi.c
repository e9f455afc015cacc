/* DUMPI traces (SST's binary per-rank format, sstsimulator/sst-dumpi), read
 * by a reader of simcoll's own: Debian has no package of sst-dumpi, and its
 * reader library stops the process with assert() on a file it cannot read,
 * where simcoll must name the file and the record and exit 2. A trace is
 * a .meta file of key=value lines, whose numprocs and fileprefix name the
 * rank files PREFIX-NNNN.bin beside it; dumpi_record.c reads a rank file
 * record by record, and this file turns the records into events.
 *
 * Handles (communicators, requests, datatypes, groups) are the rank's own
 * numbers, reused when MPI reuses the handle: requests are paired with
 * their waits in time order. Which ranks a split or created communicator
 * holds is not written: it is worked out from every rank's calls
 * (sc_trace_comm_created). MPI_PROC_NULL is written as the MPI library's
 * own value: a destination of -1 or -2 is taken as MPI_PROC_NULL (no
 * message), a source of -2 too; a source of -1 is MPI_ANY_SOURCE.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dumpi_record.h"

enum {
    F_SEND = 0, F_RECV = 1, F_BSEND = 3, F_SSEND = 4, F_RSEND = 5, F_ISEND = 8, F_IBSEND = 9,
    F_ISSEND = 10, F_IRSEND = 11, F_IRECV = 12, F_WAIT = 13, F_TEST = 14, F_REQUEST_FREE = 15,
    F_WAITANY = 16, F_TESTANY = 17, F_WAITALL = 18, F_TESTALL = 19, F_WAITSOME = 20,
    F_TESTSOME = 21, F_CANCEL = 24, F_SEND_INIT = 26, F_RECV_INIT = 30, F_START = 31,
    F_STARTALL = 32, F_SENDRECV = 33, F_SENDRECV_REPLACE = 34, F_BARRIER = 52, F_BCAST = 53,
    F_GATHER = 54, F_GATHERV = 55, F_SCATTER = 56, F_SCATTERV = 57, F_ALLGATHER = 58,
    F_ALLGATHERV = 59, F_ALLTOALL = 60, F_ALLTOALLV = 61, F_REDUCE = 62, F_ALLREDUCE = 65,
    F_REDUCE_SCATTER = 66, F_SCAN = 67, F_COMM_GROUP = 72, F_GROUP_UNION = 73,
    F_GROUP_INTERSECTION = 74, F_GROUP_DIFFERENCE = 75, F_GROUP_INCL = 76, F_GROUP_EXCL = 77,
    F_GROUP_RANGE_INCL = 78, F_GROUP_RANGE_EXCL = 79, F_COMM_DUP = 84, F_COMM_CREATE = 85,
    F_COMM_SPLIT = 86, F_COMM_FREE = 87, F_INIT = 124, F_FINALIZE = 125, F_ALLTOALLW = 155,
    F_EXSCAN = 156, F_INIT_THREAD = 171,
};

/* Handles DUMPI numbers for itself. */
enum { COMM_NULL = 1, COMM_WORLD = 2, COMM_SELF = 3, GROUP_EMPTY = 2, REQUEST_NULL = 1 };

typedef struct {
    int nranks;
    char **files;
    sc_dumpi_clock_t clock; /* the rank files' times count from it */
} dumpi_t;

/* ---- The .meta file ---- */

static int dumpi_detect(const char *path, const unsigned char *head, size_t len)
{
    (void)path;
    static const char magic[] = SC_DUMPI_MAGIC;
    if (len >= 8 && !memcmp(head, magic, 8))
        return 1; /* a rank file given as the anchor: refused with a hint at open */
    char text[4097];
    size_t n = len < 4096 ? len : 4096;
    memcpy(text, head, n);
    text[n] = '\0';
    if (strlen(text) != n)
        return 0;
    return (strstr(text, "numprocs=") != NULL) + (strstr(text, "fileprefix=") != NULL) == 2;
}

static void dumpi_close(sc_trace_t *t)
{
    dumpi_t *d = t->format;
    if (!d)
        return;
    for (int r = 0; d->files && r < d->nranks; r++)
        free(d->files[r]);
    free(d->files);
    free(d);
    t->format = NULL;
}

static int file_exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

static sc_err_t dumpi_open(sc_trace_t *t)
{
    dumpi_t *d = calloc(1, sizeof *d);
    if (!d)
        return sc_error(SC_ERR_RUN, "out of memory");
    t->format = d;
    sc_tfile_t f;
    sc_err_t err = sc_tfile_open(&f, t->path, "DUMPI trace");
    if (err)
        return err;
    unsigned char magic[8];
    if (sc_tfile_read(&f, magic, 8) == 1 && !memcmp(magic, SC_DUMPI_MAGIC, 8)) {
        sc_tfile_close(&f);
        return sc_error(SC_ERR_INPUT, "'%s' is one rank's file of a DUMPI trace: give the "
                        "trace's .meta file, which names every rank's", t->path);
    }
    sc_tfile_seek(&f, 0);
    char prefix[1024] = "", *line;
    long numprocs = -1, lineno = 0;
    int failed = 0;
    while ((line = sc_tfile_line(&f, &failed))) {
        lineno++;
        if (!strncmp(line, "numprocs=", 9)) {
            char *end;
            numprocs = strtol(line + 9, &end, 10);
            if (end == line + 9 || *end || numprocs < 1 || numprocs > (1 << 24)) {
                err = sc_error(SC_ERR_INPUT, "%s:%ld: numprocs '%s' is not a number of ranks "
                               "(1 to %d)", t->path, lineno, line + 9, 1 << 24);
                break;
            }
        } else if (!strncmp(line, "fileprefix=", 11)) {
            snprintf(prefix, sizeof prefix, "%s", line + 11);
        }
    }
    sc_tfile_close(&f);
    if (err || failed)
        return err ? err : SC_ERR_INPUT;
    if (numprocs < 0 || !prefix[0])
        return sc_error(SC_ERR_INPUT, "DUMPI trace '%s' lacks %s", t->path,
                        numprocs < 0 ? "numprocs=" : "fileprefix=");
    /* The writer names the prefix from the folder it ran in: the files are
     * the prefix's base name beside the .meta file. */
    const char *base = strrchr(prefix, '/') ? strrchr(prefix, '/') + 1 : prefix;
    d->nranks = (int)numprocs;
    d->files = calloc((size_t)numprocs, sizeof *d->files);
    if (!d->files)
        return sc_error(SC_ERR_RUN, "out of memory");
    for (int r = 0; r < d->nranks; r++) {
        /* zero-padded to 4 digits by the writer; wider ones too */
        for (int width = 4; width <= 9 && !d->files[r]; width++) {
            char name[1100];
            snprintf(name, sizeof name, "%s-%0*d.bin", base, width, r);
            char *path = sc_trace_file(t, name);
            if (!path)
                return sc_error(SC_ERR_RUN, "out of memory");
            if (file_exists(path))
                d->files[r] = path;
            else
                free(path);
        }
        if (!d->files[r])
            return sc_error(SC_ERR_INPUT, "DUMPI trace '%s': rank %d's file %s-%04d.bin is "
                            "missing from its folder", t->path, r, base, r);
    }
    return sc_trace_set_ranks(t, d->nranks);
}

/* ---- One rank ---- */

typedef struct {
    int handle;
    int comm; /* ours; -2 for MPI_COMM_NULL */
} comm_map_t;

typedef struct {
    int handle;
    int *members; /* world ranks */
    int n;
} group_map_t;

typedef struct {
    int handle;
    uint64_t id;
} req_map_t;

typedef struct {
    int parent; /* ours */
    long made;  /* communicators the rank made from it */
} made_count_t;

#define QUEUE 4

typedef struct {
    sc_trace_t *t;
    sc_dumpi_file_t df; /* the rank's file, and its record last read */
    comm_map_t *comms;
    int ncomms, cap_comms;
    group_map_t *groups;
    int ngroups, cap_groups;
    req_map_t *reqs;
    int nreqs, cap_reqs;
    made_count_t *made;
    int nmade;
    uint64_t next_id;
    int started, ended_stream, persistent;
    double last_end;     /* wall time the last replayed call ended */
    uint64_t *ids;       /* a wait's requests */
    int cap_ids;
    uint64_t *counts;
    int cap_counts;
    sc_tev_t queue[QUEUE];
    int queued, taken;
} rank_t;

static void dumpi_where(void *state, char *out, size_t len)
{
    rank_t *s = state;
    const char *name = sc_dumpi_function_name(s->df.id);
    snprintf(out, len, "%s, record %ld (%s)", s->df.file, s->df.record, name ? name : "?");
}

static sc_err_t dumpi_rank_open(sc_trace_t *t, int rank, void **state)
{
    dumpi_t *d = t->format;
    rank_t *s = calloc(1, sizeof *s);
    if (!s)
        return sc_error(SC_ERR_RUN, "out of memory");
    s->t = t;
    s->last_end = NAN;
    sc_err_t err = sc_dumpi_file_open(&s->df, d->files[rank], rank, &d->clock);
    if (err) {
        free(s);
        return err;
    }
    *state = s;
    return SC_OK;
}

static void dumpi_rank_close(void *state)
{
    rank_t *s = state;
    sc_dumpi_file_close(&s->df);
    free(s->comms);
    for (int i = 0; i < s->ngroups; i++)
        free(s->groups[i].members);
    free(s->groups);
    free(s->reqs);
    free(s->made);
    free(s->ids);
    free(s->counts);
    free(s);
}

static int grow(void **array, int *cap, int need, size_t each)
{
    if (need <= *cap)
        return 1;
    int more = *cap ? *cap : 8;
    while (more < need)
        more *= 2;
    void *grown = realloc(*array, (size_t)more * each);
    if (!grown)
        return 0;
    *array = grown;
    *cap = more;
    return 1;
}

/* ---- Handles ---- */

static int comm_of(rank_t *s, int handle, int *comm)
{
    if (handle == COMM_WORLD) {
        *comm = 0;
        return 1;
    }
    for (int i = s->ncomms - 1; i >= 0; i--)
        if (s->comms[i].handle == handle) {
            *comm = s->comms[i].comm;
            return *comm >= 0;
        }
    if (handle == COMM_SELF) {
        /* made on first use: a communicator of the rank alone */
        int me = s->df.rank, c = sc_trace_add_comm(s->t, 1, &me);
        if (c < 0 || !grow((void **)&s->comms, &s->cap_comms, s->ncomms + 1, sizeof *s->comms))
            return 0;
        s->comms[s->ncomms++] = (comm_map_t){COMM_SELF, c};
        *comm = c;
        return 1;
    }
    return 0;
}

static sc_err_t need_comm(rank_t *s, int handle, int *comm)
{
    if (comm_of(s, handle, comm))
        return SC_OK;
    char what[96];
    snprintf(what, sizeof what, "communicator %d was never made (or is MPI_COMM_NULL)", handle);
    return sc_dumpi_corrupt(&s->df, what);
}

static sc_err_t set_comm(rank_t *s, int handle, int comm)
{
    for (int i = 0; i < s->ncomms; i++)
        if (s->comms[i].handle == handle) {
            s->comms[i].comm = comm;
            return SC_OK;
        }
    if (!grow((void **)&s->comms, &s->cap_comms, s->ncomms + 1, sizeof *s->comms))
        return sc_error(SC_ERR_RUN, "out of memory");
    s->comms[s->ncomms++] = (comm_map_t){handle, comm};
    return SC_OK;
}

static uint64_t type_bytes(rank_t *s, int64_t type, sc_err_t *err)
{
    if (type >= 0 && type < s->df.ntypes)
        return s->df.type_size[type];
    char what[128];
    snprintf(what, sizeof what, "datatype %lld has no size in the file's table of datatypes",
             (long long)type);
    *err = sc_dumpi_corrupt(&s->df, what);
    return 0;
}

static group_map_t *group_of(rank_t *s, int handle)
{
    for (int i = s->ngroups - 1; i >= 0; i--)
        if (s->groups[i].handle == handle)
            return &s->groups[i];
    return NULL;
}

/* Sets group `handle` to members (taken). */
static sc_err_t set_group(rank_t *s, int handle, int *members, int n)
{
    group_map_t *g = group_of(s, handle);
    if (!g) {
        if (!grow((void **)&s->groups, &s->cap_groups, s->ngroups + 1, sizeof *s->groups)) {
            free(members);
            return sc_error(SC_ERR_RUN, "out of memory");
        }
        g = &s->groups[s->ngroups++];
        g->handle = handle;
        g->members = NULL;
    }
    free(g->members);
    g->members = members;
    g->n = n;
    return SC_OK;
}

static sc_err_t need_group(rank_t *s, int handle, group_map_t **g)
{
    static group_map_t empty = {GROUP_EMPTY, NULL, 0};
    if (handle == GROUP_EMPTY) {
        *g = &empty;
        return SC_OK;
    }
    if ((*g = group_of(s, handle)))
        return SC_OK;
    char what[64];
    snprintf(what, sizeof what, "group %d was never made", handle);
    return sc_dumpi_corrupt(&s->df, what);
}

static sc_err_t new_request(rank_t *s, int handle, uint64_t *id)
{
    if (!grow((void **)&s->reqs, &s->cap_reqs, s->nreqs + 1, sizeof *s->reqs))
        return sc_error(SC_ERR_RUN, "out of memory");
    *id = s->next_id++;
    s->reqs[s->nreqs++] = (req_map_t){handle, *id};
    return SC_OK;
}

/* The request of handle `handle`, forgotten if `done`: 0 when the rank
 * has none (MPI_REQUEST_NULL, or a persistent request this reader skips). */
static int request_of(rank_t *s, int handle, int done, uint64_t *id)
{
    for (int i = 0; i < s->nreqs; i++)
        if (s->reqs[i].handle == handle) {
            *id = s->reqs[i].id;
            if (done)
                s->reqs[i] = s->reqs[--s->nreqs];
            return 1;
        }
    return 0;
}

/* ---- Records into events ---- */

static sc_tev_t *push(rank_t *s, sc_tev_kind_t kind)
{
    sc_tev_t *ev = &s->queue[s->queued++];
    *ev = (sc_tev_t){
        .kind = kind, .index = s->df.record, .began = s->df.began, .ended = s->df.ended};
    return ev;
}

/* A message on communicator handle `comm` to or from `peer`: 0 if the
 * peer is MPI_PROC_NULL (no message). */
static sc_err_t p2p(rank_t *s, sc_tev_kind_t kind, int64_t count, int64_t type, int64_t peer,
                    int64_t tag, int64_t comm_handle, int request)
{
    int recv = kind == SC_TEV_RECV || kind == SC_TEV_IRECV, comm;
    if (peer == -2 || (!recv && peer == -1))
        return SC_OK; /* MPI_PROC_NULL */
    sc_err_t err = need_comm(s, (int)comm_handle, &comm);
    uint64_t elem = err ? 0 : type_bytes(s, type, &err);
    if (err)
        return err;
    if (count < 0)
        return sc_dumpi_corrupt(&s->df, "a message of a negative count");
    sc_tev_t *ev = push(s, kind);
    ev->comm = comm;
    ev->peer = (int)peer;
    ev->tag = tag < 0 ? SC_TRACE_ANY : (int)tag;
    if (recv && peer == -1 && s->df.status_n && s->df.status_source >= 0)
        ev->peer = s->df.status_source; /* the source the receive took, as its status says */
    else if (recv && peer == -1)
        ev->peer = SC_TRACE_ANY;
    if (recv && tag < 0 && s->df.status_n && s->df.status_tag >= 0)
        ev->tag = s->df.status_tag;
    ev->bytes = (uint64_t)count * elem;
    if (kind == SC_TEV_ISEND || kind == SC_TEV_IRECV)
        return new_request(s, request, &ev->req);
    return SC_OK;
}

static sc_err_t wait_on(rank_t *s, sc_tev_kind_t kind, const int64_t *handles, int n)
{
    if (!grow((void **)&s->ids, &s->cap_ids, n, sizeof *s->ids))
        return sc_error(SC_ERR_RUN, "out of memory");
    int k = 0;
    for (int i = 0; i < n; i++) {
        uint64_t id;
        if (handles[i] != REQUEST_NULL && request_of(s, (int)handles[i], kind == SC_TEV_WAIT, &id))
            s->ids[k++] = id;
        else if (handles[i] != REQUEST_NULL && !s->persistent) {
            char what[96];
            snprintf(what, sizeof what, "a wait or test on request %lld, which no call made",
                     (long long)handles[i]);
            return sc_dumpi_corrupt(&s->df, what);
        }
    }
    if (k == 0)
        return SC_OK;
    sc_tev_t *ev = push(s, kind);
    ev->reqs = s->ids;
    ev->nreqs = k;
    return SC_OK;
}

/* Field f's array; NULL for an empty one before any array was read. */
static const int64_t *array(const rank_t *s, int f)
{
    return s->df.scratch ? s->df.scratch + s->df.fields[f].at : NULL;
}

static sc_tev_t *collective(rank_t *s, sc_tcoll_t coll, int64_t comm_handle, sc_err_t *err)
{
    int comm;
    if ((*err = need_comm(s, (int)comm_handle, &comm)))
        return NULL;
    sc_tev_t *ev = push(s, SC_TEV_COLL);
    ev->coll = coll;
    ev->comm = comm;
    return ev;
}

/* counts[i] = the array's entries times elem bytes. */
static sc_err_t counts_of(rank_t *s, int f, uint64_t elem, const uint64_t **out, uint64_t *sum)
{
    int n = s->df.fields[f].n;
    if (!grow((void **)&s->counts, &s->cap_counts, n, sizeof *s->counts))
        return sc_error(SC_ERR_RUN, "out of memory");
    *sum = 0;
    for (int i = 0; i < n; i++) {
        int64_t c = array(s, f)[i];
        if (c < 0)
            return sc_dumpi_corrupt(&s->df, "a negative count");
        s->counts[i] = (uint64_t)c * elem;
        *sum += s->counts[i];
    }
    *out = n ? s->counts : NULL;
    return SC_OK;
}

/* The fields of a rooted collective of vectors, by index: the rank's
 * count and datatype, the root, the communicator, and the counts of every
 * rank, of their own datatype, which the root alone writes (the first
 * field is the rank in the communicator). */
typedef struct {
    int count, type, root, comm, counts, counts_type;
} rooted_fields_t;

static sc_tev_t *rooted_vector(rank_t *s, sc_tcoll_t coll, rooted_fields_t at, sc_err_t *err)
{
    const sc_dumpi_field_t *F = s->df.fields;
    sc_tev_t *ev = collective(s, coll, F[at.comm].v, err);
    uint64_t sum;
    if (ev) {
        ev->bytes = (uint64_t)F[at.count].v * type_bytes(s, F[at.type].v, err);
        ev->root = (int)F[at.root].v;
        if (!*err && F[0].v == F[at.root].v)
            *err = counts_of(s, at.counts, type_bytes(s, F[at.counts_type].v, err), &ev->counts,
                             &sum);
    }
    return ev;
}

/* The record of a collective call into its event; *known 0 for another
 * function's. */
static sc_err_t collectives(rank_t *s, int *known)
{
    const sc_dumpi_field_t *F = s->df.fields;
    sc_err_t err = SC_OK;
    sc_tev_t *ev = NULL;
    uint64_t sum;
    *known = 1;
    switch (s->df.id) {
    case F_BARRIER:
        collective(s, SC_TCOLL_BARRIER, F[0].v, &err);
        break;
    case F_BCAST: /* count datatype root comm */
        if ((ev = collective(s, SC_TCOLL_BCAST, F[3].v, &err))) {
            ev->bytes = (uint64_t)F[0].v * type_bytes(s, F[1].v, &err);
            ev->root = (int)F[2].v;
        }
        break;
    case F_REDUCE: /* count datatype op root comm */
    case F_ALLREDUCE: /* count datatype op comm */
    case F_SCAN:
    case F_EXSCAN: {
        int rooted = s->df.id == F_REDUCE;
        sc_tcoll_t coll = rooted                    ? SC_TCOLL_REDUCE
                          : s->df.id == F_ALLREDUCE ? SC_TCOLL_ALLREDUCE
                          : s->df.id == F_SCAN      ? SC_TCOLL_SCAN
                                                    : SC_TCOLL_EXSCAN;
        if ((ev = collective(s, coll, F[rooted ? 4 : 3].v, &err))) {
            ev->elem = type_bytes(s, F[1].v, &err);
            ev->bytes = (uint64_t)F[0].v * ev->elem;
            ev->root = rooted ? (int)F[3].v : 0;
        }
        break;
    }
    case F_GATHER:  /* commrank sendcount sendtype root comm [recvcount recvtype] */
    case F_SCATTER: /* commrank recvcount recvtype root comm [sendcount sendtype] */
        if ((ev = collective(s, s->df.id == F_GATHER ? SC_TCOLL_GATHER : SC_TCOLL_SCATTER,
                             F[4].v, &err))) {
            ev->bytes = (uint64_t)F[1].v * type_bytes(s, F[2].v, &err);
            ev->root = (int)F[3].v;
        }
        break;
    case F_GATHERV: /* commrank commsize sendcount sendtype root comm [recvcounts displs] recvtype */
        ev = rooted_vector(s, SC_TCOLL_GATHERV,
                           (rooted_fields_t){.count = 2, .type = 3, .root = 4, .comm = 5,
                                             .counts = 6, .counts_type = 8},
                           &err);
        break;
    case F_SCATTERV: /* commrank commsize sendtype recvcount recvtype root comm [sendcounts displs] */
        ev = rooted_vector(s, SC_TCOLL_SCATTERV,
                           (rooted_fields_t){.count = 3, .type = 4, .root = 5, .comm = 6,
                                             .counts = 7, .counts_type = 2},
                           &err);
        break;
    case F_ALLGATHER: /* sendcount sendtype recvcount recvtype comm */
    case F_ALLTOALL:
        if ((ev = collective(s, s->df.id == F_ALLGATHER ? SC_TCOLL_ALLGATHER : SC_TCOLL_ALLTOALL,
                             F[4].v, &err)))
            ev->bytes = (uint64_t)F[0].v * type_bytes(s, F[1].v, &err);
        break;
    case F_ALLGATHERV: /* commsize sendcount sendtype recvcounts displs recvtype comm */
        if ((ev = collective(s, SC_TCOLL_ALLGATHERV, F[6].v, &err))) {
            ev->bytes = (uint64_t)F[1].v * type_bytes(s, F[2].v, &err);
            if (!err)
                err = counts_of(s, 3, type_bytes(s, F[5].v, &err), &ev->counts, &sum);
        }
        break;
    case F_ALLTOALLV: /* commsize sendcounts senddispls sendtype recvcounts recvdispls recvtype comm */
        if ((ev = collective(s, SC_TCOLL_ALLTOALLV, F[7].v, &err)) && !err) {
            err = counts_of(s, 1, type_bytes(s, F[3].v, &err), &ev->counts, &sum);
            ev->bytes = sum;
        }
        break;
    case F_ALLTOALLW: /* commsize sendcounts senddispls sendtypes recvcounts recvdispls recvtypes comm */
        if ((ev = collective(s, SC_TCOLL_ALLTOALLV, F[7].v, &err)) && !err) {
            int n = F[1].n < F[3].n ? F[1].n : F[3].n;
            if (!grow((void **)&s->counts, &s->cap_counts, n, sizeof *s->counts))
                return sc_error(SC_ERR_RUN, "out of memory");
            ev->bytes = 0;
            for (int i = 0; i < n && !err; i++) {
                s->counts[i] = (uint64_t)array(s, 1)[i] * type_bytes(s, array(s, 3)[i], &err);
                ev->bytes += s->counts[i];
            }
            ev->counts = n ? s->counts : NULL;
        }
        break;
    case F_REDUCE_SCATTER: /* commsize recvcounts datatype op comm */
        if ((ev = collective(s, SC_TCOLL_REDUCE_SCATTER, F[4].v, &err))) {
            ev->elem = type_bytes(s, F[2].v, &err);
            if (!err)
                err = counts_of(s, 1, ev->elem, &ev->counts, &ev->bytes);
        }
        break;
    default:
        *known = 0;
    }
    if (!err && ev && ev->elem == 0)
        ev->elem = 1;
    return err;
}

static sc_err_t group_from(rank_t *s, int handle, const int *members, int n)
{
    int *copy = malloc((size_t)(n ? n : 1) * sizeof *copy);
    if (!copy)
        return sc_error(SC_ERR_RUN, "out of memory");
    memcpy(copy, members, (size_t)n * sizeof *copy);
    return set_group(s, handle, copy, n);
}

static int in_list(const int *v, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x)
            return 1;
    return 0;
}

/* Groups and the communicators made of them. */
static sc_err_t groups_and_comms(rank_t *s, int *known)
{
    const sc_dumpi_field_t *F = s->df.fields;
    sc_err_t err = SC_OK;
    group_map_t *g = NULL, *h = NULL;
    *known = 1;
    switch (s->df.id) {
    case F_COMM_GROUP: { /* comm group */
        int comm;
        if (!(err = need_comm(s, (int)F[0].v, &comm))) {
            const sc_trace_comm_t *c = sc_trace_comm(s->t, comm);
            err = group_from(s, (int)F[1].v, c->members, c->size);
        }
        break;
    }
    case F_GROUP_INCL:  /* group count ranks newgroup */
    case F_GROUP_EXCL: {
        if ((err = need_group(s, (int)F[0].v, &g)))
            break;
        int n = s->df.fields[2].n, *members = malloc((size_t)(g->n ? g->n : 1) * sizeof *members),
            k = 0;
        if (!members)
            return sc_error(SC_ERR_RUN, "out of memory");
        for (int i = 0; i < n && !err; i++)
            if (array(s, 2)[i] < 0 || array(s, 2)[i] >= g->n)
                err = sc_dumpi_corrupt(&s->df, "a group of ranks out of its group");
        if (s->df.id == F_GROUP_INCL)
            for (int i = 0; i < n && !err && k < g->n; i++)
                members[k++] = g->members[array(s, 2)[i]];
        else
            for (int i = 0; i < g->n && !err; i++) {
                int out = 0;
                for (int j = 0; j < n && !out; j++)
                    out = array(s, 2)[j] == i;
                if (!out)
                    members[k++] = g->members[i];
            }
        if (err)
            free(members);
        else
            err = set_group(s, (int)F[3].v, members, k);
        break;
    }
    case F_GROUP_UNION:        /* group1 group2 newgroup */
    case F_GROUP_INTERSECTION:
    case F_GROUP_DIFFERENCE: {
        if ((err = need_group(s, (int)F[0].v, &g)) || (err = need_group(s, (int)F[1].v, &h)))
            break;
        int *members = malloc((size_t)(g->n + h->n + 1) * sizeof *members), k = 0;
        if (!members)
            return sc_error(SC_ERR_RUN, "out of memory");
        for (int i = 0; i < g->n; i++) {
            int both = in_list(h->members, h->n, g->members[i]);
            if (s->df.id == F_GROUP_UNION || (s->df.id == F_GROUP_INTERSECTION) == both)
                members[k++] = g->members[i];
        }
        for (int i = 0; s->df.id == F_GROUP_UNION && i < h->n; i++)
            if (!in_list(g->members, g->n, h->members[i]))
                members[k++] = h->members[i];
        err = set_group(s, (int)F[2].v, members, k);
        break;
    }
    case F_COMM_DUP:    /* oldcomm newcomm */
    case F_COMM_SPLIT:  /* oldcomm color key newcomm */
    case F_COMM_CREATE: { /* oldcomm group newcomm */
        int parent;
        if ((err = need_comm(s, (int)F[0].v, &parent)))
            break;
        sc_made_kind_t kind = s->df.id == F_COMM_DUP     ? SC_MADE_DUP
                              : s->df.id == F_COMM_SPLIT ? SC_MADE_SPLIT
                                                         : SC_MADE_CREATE;
        if (kind == SC_MADE_CREATE && (err = need_group(s, (int)F[1].v, &g)))
            break;
        long seq = 0;
        int i;
        for (i = 0; i < s->nmade && s->made[i].parent != parent; i++)
            ;
        if (i == s->nmade) {
            made_count_t *more = realloc(s->made, (size_t)(s->nmade + 1) * sizeof *more);
            if (!more)
                return sc_error(SC_ERR_RUN, "out of memory");
            s->made = more;
            s->made[s->nmade++] = (made_count_t){parent, 0};
        }
        seq = s->made[i].made++;
        int color = kind == SC_MADE_SPLIT ? (int)F[1].v : 0;
        int key = kind == SC_MADE_SPLIT ? (int)F[2].v : 0;
        int comm = sc_trace_comm_created(s->t, s->df.rank, parent, seq, kind, color, key,
                                         g ? g->members : NULL, g ? g->n : 0);
        if (comm == -1)
            return sc_dumpi_corrupt(&s->df, sc_error_message());
        err = set_comm(s, (int)F[kind == SC_MADE_SPLIT ? 3 : kind == SC_MADE_DUP ? 1 : 2].v,
                       comm);
        break;
    }
    case F_COMM_FREE:
        for (int i = 0; i < s->ncomms; i++)
            if (s->comms[i].handle == F[0].v)
                s->comms[i] = s->comms[--s->ncomms];
        break;
    default:
        *known = 0;
    }
    return err;
}

/* Calls whose time is kept as the rank's computing but which are not
 * replayed: I/O, one-sided communication, persistent requests. */
static int skipped_call(int id)
{
    const char *name = sc_dumpi_function_name(id);
    return !strncmp(name, "MPI_File_", 9) || !strncmp(name, "MPIO_", 5) ||
           !strncmp(name, "MPI_Win_", 8) || !strcmp(name, "MPI_Put") ||
           !strcmp(name, "MPI_Get") || !strcmp(name, "MPI_Accumulate") ||
           (id >= F_SEND_INIT && id <= F_STARTALL) || id == F_CANCEL;
}

/* The record into events; `replayed` set when it made some. */
static sc_err_t translate(rank_t *s)
{
    const sc_dumpi_field_t *F = s->df.fields;
    sc_err_t err = SC_OK;
    int known;
    uint64_t a;
    switch (s->df.id) {
    case F_SEND:
    case F_BSEND:
    case F_SSEND:
    case F_RSEND: /* count datatype dest tag comm */
        return p2p(s, SC_TEV_SEND, F[0].v, F[1].v, F[2].v, F[3].v, F[4].v, 0);
    case F_RECV: /* count datatype source tag comm status */
        return p2p(s, SC_TEV_RECV, F[0].v, F[1].v, F[2].v, F[3].v, F[4].v, 0);
    case F_ISEND:
    case F_IBSEND:
    case F_ISSEND:
    case F_IRSEND: /* count datatype dest tag comm request */
        return p2p(s, SC_TEV_ISEND, F[0].v, F[1].v, F[2].v, F[3].v, F[4].v, (int)F[5].v);
    case F_IRECV:
        return p2p(s, SC_TEV_IRECV, F[0].v, F[1].v, F[2].v, F[3].v, F[4].v, (int)F[5].v);
    case F_WAIT: /* request status */
        return wait_on(s, SC_TEV_WAIT, &F[0].v, 1);
    case F_TEST: /* request flag status */
        return wait_on(s, F[1].v ? SC_TEV_WAIT : SC_TEV_TEST, &F[0].v, 1);
    case F_REQUEST_FREE:
        request_of(s, (int)F[0].v, 1, &a); /* completes unseen */
        return SC_OK;
    case F_WAITANY: /* count requests index status */
    case F_TESTANY: { /* count requests index flag status */
        int done = s->df.id == F_WAITANY || F[3].v;
        int64_t index = F[2].v;
        if (done && index >= 0 && index < s->df.fields[1].n)
            return wait_on(s, SC_TEV_WAIT, &array(s, 1)[index], 1);
        return done ? SC_OK : wait_on(s, SC_TEV_TEST, array(s, 1), s->df.fields[1].n);
    }
    case F_WAITALL: /* count requests statuses */
        return wait_on(s, SC_TEV_WAIT, array(s, 1), s->df.fields[1].n);
    case F_TESTALL: /* count requests flag statuses */
        return wait_on(s, F[2].v ? SC_TEV_WAIT : SC_TEV_TEST, array(s, 1), s->df.fields[1].n);
    case F_WAITSOME: /* count requests outcount indices statuses */
    case F_TESTSOME: {
        int n = s->df.fields[3].n, k = 0;
        size_t at;
        if (n == 0)
            return s->df.id == F_TESTSOME ? wait_on(s, SC_TEV_TEST, array(s, 1), s->df.fields[1].n)
                                          : SC_OK;
        if ((err = sc_dumpi_scratch_take(&s->df, (size_t)n, &at)))
            return err;
        for (int i = 0; i < n; i++) {
            int64_t index = array(s, 3)[i];
            if (index >= 0 && index < s->df.fields[1].n)
                s->df.scratch[at + k++] = array(s, 1)[index];
        }
        return wait_on(s, SC_TEV_WAIT, s->df.scratch + at, k);
    }
    case F_SENDRECV: /* sendcount sendtype dest sendtag recvcount recvtype source recvtag comm status */
    case F_SENDRECV_REPLACE: { /* count datatype dest sendtag source recvtag comm status */
        int full = s->df.id == F_SENDRECV;
        int64_t rcount = full ? F[4].v : F[0].v, rtype = full ? F[5].v : F[1].v;
        int64_t src = full ? F[6].v : F[4].v, rtag = full ? F[7].v : F[5].v;
        int64_t comm = full ? F[8].v : F[6].v;
        /* the receive first, as MPI libraries post it */
        int before = s->queued;
        if ((err = p2p(s, SC_TEV_IRECV, rcount, rtype, src, rtag, comm, -100)) ||
            (err = p2p(s, SC_TEV_ISEND, F[0].v, F[1].v, F[2].v, F[3].v, comm, -101)))
            return err;
        int made = s->queued - before;
        if (!grow((void **)&s->ids, &s->cap_ids, 2, sizeof *s->ids))
            return sc_error(SC_ERR_RUN, "out of memory");
        for (int i = 0; i < made; i++) {
            s->ids[i] = s->queue[before + i].req;
            request_of(s, s->queue[before + i].kind == SC_TEV_IRECV ? -100 : -101, 1, &a);
        }
        if (made) {
            sc_tev_t *ev = push(s, SC_TEV_WAIT);
            ev->reqs = s->ids;
            ev->nreqs = made;
        }
        return SC_OK;
    }
    case F_INIT:
    case F_INIT_THREAD:
        s->started = 1;
        s->last_end = s->df.ended;
        return SC_OK;
    case F_FINALIZE:
        s->ended_stream = 1;
        return SC_OK;
    }
    if ((err = collectives(s, &known)) || known)
        return err;
    if ((err = groups_and_comms(s, &known)) || known)
        return err;
    if (skipped_call(s->df.id)) {
        if (s->df.id >= F_SEND_INIT && s->df.id <= F_STARTALL)
            s->persistent = 1;
        sc_trace_skip(s->t, sc_dumpi_function_name(s->df.id),
                      isnan(s->df.began) ? 0 : s->df.ended - s->df.began);
    }
    return SC_OK; /* a call of the rank alone: its time is computing */
}

static int dumpi_next(void *state, sc_tev_t *ev)
{
    rank_t *s = state;
    while (s->taken == s->queued) {
        s->taken = s->queued = 0;
        if (s->ended_stream)
            return 0;
        int end;
        if (sc_dumpi_read_record(&s->df, &end))
            return -1;
        if (end) {
            s->ended_stream = 1;
            return 0;
        }
        if (s->df.id == SC_DUMPI_FUNCTION_ENTER || s->df.id == SC_DUMPI_FUNCTION_EXIT)
            continue;
        if (translate(s))
            return -1;
        if (s->queued > 0) {
            /* the time since the last call that made events is computing */
            double gap = s->df.began - s->last_end;
            if (s->started && gap > 0) {
                memmove(&s->queue[1], &s->queue[0], (size_t)s->queued * sizeof *s->queue);
                s->queue[0] = (sc_tev_t){.kind = SC_TEV_COMPUTE, .seconds = gap,
                                         .index = s->df.record, .began = s->last_end,
                                         .ended = s->df.began};
                s->queued++;
            }
            if (!isnan(s->df.ended))
                s->last_end = s->df.ended;
        }
    }
    *ev = s->queue[s->taken++];
    return 1;
}

const sc_trace_reader_t sc_trace_dumpi_reader = {
    .name = "DUMPI",
    .detect = dumpi_detect,
    .open = dumpi_open,
    .rank_open = dumpi_rank_open,
    .next = dumpi_next,
    .where = dumpi_where,
    .rank_close = dumpi_rank_close,
    .close = dumpi_close,
};

