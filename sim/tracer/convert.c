/* The ranks' spools into an OTF2 archive, written as Score-P writes MPI
 * calls (what sim/trace/otf2.c reads): an Enter and a Leave per call, the
 * call's messages, completions and collective between them, Score-P's byte
 * counts, one location per rank, one communicator per one the ranks made.
 *
 * Two passes over each spool: the first checks every record, counts each
 * rank's whole calls and gathers the communicators; the second writes the
 * events. Where a rank's spool does not end with MPI_Finalize (the run was
 * killed), the first pass also keeps each message's and collective's
 * place, and the ranks are cut to the longest prefixes that pair up (cut()
 * below): simcoll refuses a trace whose sends and receives do not match.
 *
 * Times: MPI_Wtime is each process's own clock (Open MPI's starts at
 * MPI_Init), so ranks are put on rank 0's by the instant each left one
 * barrier at MPI_Init (the spool's HEADER): the skew is the barrier's
 * (microseconds); clocks of different hosts may drift apart over a long
 * run (not corrected).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../trace/otf2_error.h"
#include "convert.h"
#include "spool.h"

/* An item of a spool, decoded (spool.h gives each kind's fields). */
typedef struct {
    int kind, fn;
    uint32_t n;        /* CALL: items before it in its call; COLL: the OTF2 operation;
                          COMM: size; MEMBERS: how many */
    int32_t peer, tag; /* COLL: peer is the root; COMM: this rank's rank in it */
    uint64_t comm;     /* the communicator's id (COMM: the one made) */
    uint64_t a, b;     /* bytes and request; COLL: sent and received; COMM: a, the parent */
    double t0, t1;     /* CALL: MPI_Wtime at its start and end */
    int members[10];
    char text[48]; /* HOST */
} rec_t;

_Static_assert(SC_SPOOL_END == 15, "SC_SPOOL_END_FRAME spells the END kind");

typedef struct {
    uint64_t id, parent;
    int size;
    int *members; /* world ranks, from its first rank's spool; NULL until then */
    int nmembers;
    int definer;   /* its first rank (world), -1 until known */
    long def_call; /* the call that made it in the definer's spool */
    uint32_t ref;  /* OTF2's */
    int defined;   /* in the archive */
} comm_t;

/* A message's, collective's or communicator's place in a rank's calls,
 * for the cut. */
enum { I_SEND, I_RECV, I_COLL, I_USE };
typedef struct {
    uint64_t comm;
    int kind, rank, peer, tag; /* peer: the communicator's rank, then the world's */
    int src, dst;
    long call;
} item_t;

typedef struct {
    int rank;
    char path[4300];
    FILE *f;
    long index; /* frames read */
    unsigned char *frame;
    size_t flen, fcap, pos;
    uint32_t in_frame; /* items decoded of this frame */
    uint64_t *ids;     /* the ids of the communicators it made, by its numbers - 2 */
    size_t nids, cap_ids;
    int64_t last_end;   /* ns */
    const char *error;  /* why the last item could not be read */
    double sync, first; /* the barrier's instant; MPI_Init's start */
    char host[48];
    long calls; /* whole calls */
    int ended;  /* the spool reaches MPI_Finalize */
    long keep;  /* calls kept */
    char why[200];
    double shift; /* its clock minus rank 0's */
} rank_t;

typedef struct {
    const char *dir;
    rank_t *ranks;
    int n;
    comm_t *comms;
    size_t ncomms, cap_comms;
    size_t *comm_slots; /* hash of ids to comms[] index + 1 */
    size_t cap_slots;
    item_t *items;
    size_t nitems, cap_items;
    int cutting; /* some rank did not end: gather items */
    char *msg;
    size_t len;
    char otf2_error[300];
} conv_t;

static int fail(conv_t *c, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, c->len, fmt, ap);
    va_end(ap);
    return code;
}

/* ---- Communicators by id ---- */

static size_t id_hash(uint64_t id, size_t cap)
{
    id ^= id >> 31;
    id *= UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(id ^ (id >> 29)) & (cap - 1);
}

static comm_t *comm_get(conv_t *c, uint64_t id, int create)
{
    if (c->cap_slots) {
        for (size_t k = id_hash(id, c->cap_slots); c->comm_slots[k];
             k = (k + 1) & (c->cap_slots - 1))
            if (c->comms[c->comm_slots[k] - 1].id == id)
                return &c->comms[c->comm_slots[k] - 1];
    }
    if (!create)
        return NULL;
    if (2 * (c->ncomms + 1) > c->cap_slots) {
        size_t cap = c->cap_slots ? 2 * c->cap_slots : 64;
        size_t *slots = calloc(cap, sizeof *slots);
        if (!slots)
            return NULL;
        for (size_t i = 0; i < c->ncomms; i++) {
            size_t k = id_hash(c->comms[i].id, cap);
            while (slots[k])
                k = (k + 1) & (cap - 1);
            slots[k] = i + 1;
        }
        free(c->comm_slots);
        c->comm_slots = slots;
        c->cap_slots = cap;
    }
    if (c->ncomms == c->cap_comms) {
        size_t cap = c->cap_comms ? 2 * c->cap_comms : 16;
        comm_t *more = realloc(c->comms, cap * sizeof *more);
        if (!more)
            return NULL;
        c->comms = more;
        c->cap_comms = cap;
    }
    comm_t *m = &c->comms[c->ncomms++];
    *m = (comm_t){.id = id, .definer = -1, .def_call = -1};
    size_t k = id_hash(id, c->cap_slots);
    while (c->comm_slots[k])
        k = (k + 1) & (c->cap_slots - 1);
    c->comm_slots[k] = c->ncomms;
    return m;
}

/* A communicator's size and world rank of its rank `peer`, -1 if unknown. */
static int world_of(conv_t *c, int rank, uint64_t comm, int peer)
{
    if (comm == SC_SPOOL_WORLD)
        return peer >= 0 && peer < c->n ? peer : -1;
    if (comm == SC_SPOOL_SELF)
        return peer == 0 ? rank : -1;
    comm_t *m = comm_get(c, comm, 0);
    if (!m || !m->members || m->nmembers != m->size || peer < 0 || peer >= m->size)
        return -1;
    return m->members[peer];
}

/* ---- Reading spools ---- */

static int rank_open(conv_t *c, rank_t *r)
{
    r->f = fopen(r->path, "rb");
    if (!r->f)
        return fail(c, 2, "%s: %s", r->path, strerror(errno));
    char magic[8];
    if (fread(magic, 1, 8, r->f) != 8 || memcmp(magic, SC_SPOOL_MAGIC, 8) != 0) {
        fclose(r->f);
        r->f = NULL;
        return fail(c, 2,
                    "%s is not a spool of simcoll-trace's (rank %d's; its run may have "
                    "been killed before it wrote anything)",
                    r->path, r->rank);
    }
    r->index = 0;
    r->flen = r->pos = 0;
    r->nids = 0;
    r->last_end = 0;
    return 0;
}

static int get_u(rank_t *r, uint64_t *v)
{
    *v = 0;
    for (int shift = 0; shift < 64 && r->pos < r->flen; shift += 7) {
        unsigned char b = r->frame[r->pos++];
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return 1;
    }
    r->error = "a number that runs past its call";
    return 0;
}

static int get_s(rank_t *r, int64_t *v)
{
    uint64_t u;
    if (!get_u(r, &u))
        return 0;
    *v = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
    return 1;
}

static int get_i32(rank_t *r, int32_t *v)
{
    int64_t x;
    if (!get_s(r, &x))
        return 0;
    if (x < INT32_MIN || x > INT32_MAX) {
        r->error = "a rank or tag out of range";
        return 0;
    }
    *v = (int32_t)x;
    return 1;
}

/* A communicator by the rank's number of it: its id. */
static int get_comm(rank_t *r, uint64_t *id)
{
    uint64_t k;
    if (!get_u(r, &k))
        return 0;
    if (k < 2) {
        *id = k; /* SC_SPOOL_WORLD, SC_SPOOL_SELF */
        return 1;
    }
    if (k - 2 >= r->nids) {
        r->error = "a communicator the rank did not make";
        return 0;
    }
    *id = r->ids[k - 2];
    return 1;
}

static int get_bytes(rank_t *r, void *out, size_t n)
{
    if (r->flen - r->pos < n) {
        r->error = "a field that runs past its call";
        return 0;
    }
    memcpy(out, r->frame + r->pos, n);
    r->pos += n;
    return 1;
}

static double get_time(const rank_t *r, int64_t ns)
{
    return r->sync + 1e-9 * (double)ns;
}

/* One item of the frame under way. */
static int decode(rank_t *r, rec_t *rec)
{
    uint64_t u, v;
    int64_t x;
    memset(rec, 0, sizeof *rec);
    rec->kind = r->frame[r->pos++];
    rec->n = r->in_frame++;
    switch (rec->kind) {
    case SC_SPOOL_HEADER: {
        uint64_t bits = 0;
        unsigned char b[8];
        if (!get_u(r, &u) || !get_u(r, &v) || v > INT32_MAX)
            return r->error ? 0 : (r->error = "a rank out of range", 0);
        rec->n = (uint32_t)u;
        rec->peer = (int32_t)v;
        if (!get_u(r, &u) || u > INT32_MAX || !get_u(r, &rec->a) || !get_bytes(r, b, 8))
            return r->error ? 0 : (r->error = "a size out of range", 0);
        rec->tag = (int32_t)u;
        for (int i = 0; i < 8; i++)
            bits |= (uint64_t)b[i] << (8 * i);
        memcpy(&rec->t0, &bits, 8);
        return 1;
    }
    case SC_SPOOL_HOST:
        if (!get_u(r, &u) || u > 47 || !get_bytes(r, rec->text, (size_t)u))
            return r->error ? 0 : (r->error = "a host name too long", 0);
        rec->text[u] = '\0';
        return 1;
    case SC_SPOOL_CALL:
        if (!get_u(r, &u) || !get_s(r, &x) || !get_u(r, &v))
            return 0;
        if (u >= SC_FN_COUNT || r->pos != r->flen) {
            r->error = u >= SC_FN_COUNT ? "an unknown function" : "a call's end inside it";
            return 0;
        }
        rec->fn = (int)u;
        rec->n = r->in_frame - 1;
        rec->t0 = get_time(r, r->last_end + x);
        r->last_end += x + (int64_t)v;
        rec->t1 = get_time(r, r->last_end);
        return 1;
    case SC_SPOOL_SEND:
    case SC_SPOOL_RECV:
    case SC_SPOOL_ISEND:
    case SC_SPOOL_IRECV_DONE:
        if (!get_comm(r, &rec->comm) || !get_i32(r, &rec->peer) || !get_i32(r, &rec->tag) ||
            !get_u(r, &rec->a))
            return 0;
        return rec->kind == SC_SPOOL_SEND || rec->kind == SC_SPOOL_RECV || get_u(r, &rec->b);
    case SC_SPOOL_IRECV: return get_comm(r, &rec->comm) && get_u(r, &rec->b);
    case SC_SPOOL_ISEND_DONE:
    case SC_SPOOL_TEST:
    case SC_SPOOL_CANCELLED: return get_u(r, &rec->b);
    case SC_SPOOL_COLL:
        if (!get_u(r, &u) || !get_comm(r, &rec->comm) || !get_i32(r, &rec->peer) ||
            !get_u(r, &rec->a) || !get_u(r, &rec->b))
            return 0;
        rec->n = (uint32_t)u;
        return 1;
    case SC_SPOOL_COMM:
        if (!get_u(r, &rec->comm) || !get_u(r, &rec->a) || !get_u(r, &u) || !get_u(r, &v))
            return 0;
        if (u == 0 || u > INT32_MAX || v >= u) {
            r->error = "a communicator of a size or rank out of range";
            return 0;
        }
        rec->n = (uint32_t)u;
        rec->peer = (int32_t)v;
        if (r->nids == r->cap_ids) {
            size_t cap = r->cap_ids ? 2 * r->cap_ids : 16;
            uint64_t *more = realloc(r->ids, cap * sizeof *more);
            if (!more) {
                r->error = "out of memory";
                return 0;
            }
            r->ids = more;
            r->cap_ids = cap;
        }
        r->ids[r->nids++] = rec->comm;
        return 1;
    case SC_SPOOL_MEMBERS:
        if (!get_u(r, &u) || u > 10)
            return r->error ? 0 : (r->error = "too many members in one item", 0);
        rec->n = (uint32_t)u;
        for (uint32_t k = 0; k < rec->n; k++) {
            if (!get_u(r, &v) || v > INT32_MAX)
                return r->error ? 0 : (r->error = "a member out of range", 0);
            rec->members[k] = (int)v;
        }
        return 1;
    case SC_SPOOL_END: {
        char end[8];
        if (!get_bytes(r, end, 8) || memcmp(end, &SC_SPOOL_END_FRAME[3], 8) != 0)
            return r->error ? 0 : (r->error = "a damaged end", 0);
        return 1;
    }
    }
    r->error = "an unknown kind of item";
    return 0;
}

/* The next item: 1, 0 at the end (a frame cut short by the run's end is
 * no frame), -1 where the spool is damaged (r->error says how). */
static int next(rank_t *r, rec_t *rec)
{
    r->error = NULL;
    if (r->pos == r->flen) {
        unsigned char head[6];
        if (fread(head, 1, 2, r->f) != 2)
            return 0;
        size_t len = head[0] | (size_t)head[1] << 8;
        if (len == 0xffff) {
            if (fread(head + 2, 1, 4, r->f) != 4)
                return 0;
            len = head[2] | (size_t)head[3] << 8 | (size_t)head[4] << 16 | (size_t)head[5] << 24;
        }
        if (len == 0) {
            r->error = "an empty frame";
            return -1;
        }
        if (len > r->fcap) {
            unsigned char *more = realloc(r->frame, len);
            if (!more) {
                r->error = "out of memory";
                return -1;
            }
            r->frame = more;
            r->fcap = len;
        }
        if (fread(r->frame, 1, len, r->f) != len)
            return 0;
        r->flen = len;
        r->pos = 0;
        r->in_frame = 0;
        r->index++;
    }
    return decode(r, rec) ? 1 : -1;
}

/* Frames count from the header's: call k (0 is MPI_Init's) is frame k + 2. */
static int bad(conv_t *c, const rank_t *r, const char *what)
{
    char where[64];
    if (r->index <= 1)
        snprintf(where, sizeof where, "its header");
    else
        snprintf(where, sizeof where, "call %ld", r->index - 2);
    return fail(c, 2, "%s, %s: %s (not a spool simcoll-trace wrote, or damaged)", r->path, where,
                r->error ? r->error : what);
}

/* HEADER and HOST. */
static int read_head(conv_t *c, rank_t *r, int *size)
{
    rec_t rec;
    int got = next(r, &rec);
    if (got == 0)
        return fail(c, 2,
                    "%s is empty: rank %d recorded nothing (killed before its MPI_Init "
                    "returned?)",
                    r->path, r->rank);
    if (got < 0 || rec.kind != SC_SPOOL_HEADER)
        return bad(c, r, "no simcoll-trace header");
    if (rec.n != SC_SPOOL_VERSION)
        return fail(c, 2, "%s: spool version %u, this simcoll-trace reads version %d", r->path,
                    rec.n, SC_SPOOL_VERSION);
    if (rec.peer != r->rank)
        return bad(c, r, "its header names another rank than its file name");
    *size = rec.tag;
    r->sync = rec.t0;
    if (next(r, &rec) != 1 || rec.kind != SC_SPOOL_HOST)
        return bad(c, r, "no host record after the header");
    memcpy(r->host, rec.text, sizeof r->host);
    r->host[sizeof r->host - 1] = '\0';
    return 0;
}

static int add_item(conv_t *c, item_t it)
{
    if (c->nitems == c->cap_items) {
        size_t cap = c->cap_items ? 2 * c->cap_items : 4096;
        item_t *more = realloc(c->items, cap * sizeof *more);
        if (!more)
            return 0;
        c->items = more;
        c->cap_items = cap;
    }
    c->items[c->nitems++] = it;
    return 1;
}

/* Whether a spool ends with its END frame. */
static int spool_ended(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    int ended = 0;
    char tail[SC_SPOOL_END_FRAME_LEN];
    if (fseeko(f, -(off_t)SC_SPOOL_END_FRAME_LEN, SEEK_END) == 0 &&
        fread(tail, 1, sizeof tail, f) == sizeof tail)
        ended = !memcmp(tail, SC_SPOOL_END_FRAME, SC_SPOOL_END_FRAME_LEN);
    fclose(f);
    return ended;
}

/* Pass 1 over one rank: every record checked, its whole calls counted,
 * the communicators it made (and, cutting, its items) gathered. */
static int scan(conv_t *c, rank_t *r)
{
    int size, err = rank_open(c, r);
    if (err)
        return err;
    if ((err = read_head(c, r, &size)))
        goto done;
    if (size != c->n) {
        err = bad(c, r, "its header gives another number of ranks than rank 0's");
        goto done;
    }
    rec_t rec;
    uint32_t pending = 0;
    size_t staged = c->nitems; /* this call's items: nitems back to here */
    comm_t *making = NULL;     /* its members follow */
    comm_t *made = NULL;       /* by this call, of which the rank is first */
    int got;
    while ((got = next(r, &rec)) == 1) {
        if (r->ended) {
            err = bad(c, r, "a record after MPI_Finalize's end");
            goto done;
        }
        switch (rec.kind) {
        case SC_SPOOL_CALL:
            if (rec.n != pending) {
                err = bad(c, r, "a call that does not count the records before it");
                goto done;
            }
            if (rec.fn >= SC_FN_COUNT) {
                err = bad(c, r, "an unknown function");
                goto done;
            }
            if (r->calls == 0)
                r->first = rec.t0;
            if (made) {
                made->definer = r->rank;
                made->def_call = r->calls;
            }
            made = making = NULL;
            r->calls++;
            pending = 0;
            staged = c->nitems;
            continue;
        case SC_SPOOL_END:
            if (pending != 0) {
                err = bad(c, r, "MPI_Finalize's end inside a call");
                goto done;
            }
            r->ended = 1;
            continue;
        case SC_SPOOL_COMM: {
            comm_t *m = comm_get(c, rec.comm, 1);
            if (!m) {
                err = fail(c, 1, "out of memory");
                goto done;
            }
            if (m->size != 0 && m->size != (int)rec.n) {
                err = bad(c, r, "a communicator another rank made with another size");
                goto done;
            }
            if (rec.n == 0 || rec.n > (uint32_t)c->n || rec.peer < 0 || rec.peer >= (int)rec.n) {
                err = bad(c, r, "a communicator of a size or rank out of range");
                goto done;
            }
            m->size = (int)rec.n;
            m->parent = rec.a;
            making = rec.peer == 0 ? m : NULL;
            if (making) {
                free(m->members);
                m->members = malloc((size_t)m->size * sizeof *m->members);
                m->nmembers = 0;
                if (!m->members) {
                    err = fail(c, 1, "out of memory");
                    goto done;
                }
            }
            made = making;
            break;
        }
        case SC_SPOOL_MEMBERS:
            if (!making || making->nmembers + (int)rec.n > making->size) {
                err = bad(c, r, "members of no communicator, or too many");
                goto done;
            }
            for (uint32_t k = 0; k < rec.n; k++) {
                int w = rec.members[k];
                if (w < 0 || w >= c->n) {
                    err = bad(c, r, "a communicator's member out of the world");
                    goto done;
                }
                making->members[making->nmembers++] = w;
            }
            break;
        case SC_SPOOL_SEND:
        case SC_SPOOL_ISEND:
        case SC_SPOOL_RECV:
        case SC_SPOOL_IRECV_DONE:
        case SC_SPOOL_COLL:
        case SC_SPOOL_IRECV:
            if (c->cutting) {
                int kind = rec.kind == SC_SPOOL_SEND || rec.kind == SC_SPOOL_ISEND ? I_SEND
                           : rec.kind == SC_SPOOL_COLL                             ? I_COLL
                           : rec.kind == SC_SPOOL_IRECV                            ? I_USE
                                                                                   : I_RECV;
                if (!add_item(c, (item_t){.comm = rec.comm,
                                          .kind = kind,
                                          .rank = r->rank,
                                          .peer = rec.peer,
                                          .tag = rec.tag,
                                          .call = r->calls})) {
                    err = fail(c, 1, "out of memory");
                    goto done;
                }
            }
            break;
        case SC_SPOOL_ISEND_DONE:
        case SC_SPOOL_TEST:
        case SC_SPOOL_CANCELLED: break;
        default: err = bad(c, r, "an unknown kind of record"); goto done;
        }
        pending++;
    }
    if (got < 0) {
        err = bad(c, r, "");
        goto done;
    }
    /* a call the run's end cut short is no call */
    c->nitems = staged;
    if (making && making->nmembers != making->size && making->definer < 0) {
        free(making->members);
        making->members = NULL;
    }
    r->keep = r->calls;
    if (r->calls == 0)
        err = fail(c, 2,
                   "%s: rank %d recorded no whole call (killed before its MPI_Init "
                   "returned?)",
                   r->path, r->rank);
done:
    fclose(r->f);
    r->f = NULL;
    return err;
}

/* ---- The cut ---- */

static int cut_to(conv_t *c, int rank, long call, const char *why, long *changed)
{
    rank_t *r = &c->ranks[rank];
    if (call >= r->keep)
        return 0;
    r->keep = call;
    snprintf(r->why, sizeof r->why, "%s", why);
    (*changed)++;
    return 1;
}

static int usable(conv_t *c, uint64_t comm)
{
    if (comm == SC_SPOOL_WORLD || comm == SC_SPOOL_SELF)
        return 1;
    comm_t *m = comm_get(c, comm, 0);
    return m && m->members && m->nmembers == m->size && m->definer >= 0 &&
           m->def_call < c->ranks[m->definer].keep;
}

#define CMP(f)                                                                                     \
    if (x->f != y->f)                                                                              \
        return x->f < y->f ? -1 : 1;

/* Messages of one pair of ranks on one communicator with one tag. */
static int same_pair(const item_t *x, const item_t *y)
{
    CMP(comm) CMP(src) CMP(dst) CMP(tag) return 0;
}

static int by_p2p(const void *a, const void *b)
{
    const item_t *x = a, *y = b;
    CMP(kind) CMP(comm) CMP(src) CMP(dst) CMP(tag) CMP(call) return 0;
}

static int by_coll(const void *a, const void *b)
{
    const item_t *x = a, *y = b;
    CMP(kind) CMP(comm) CMP(rank) CMP(call) return 0;
#undef CMP
}

/* Each rank's calls kept: the longest prefixes, every constraint met at
 * once (cutting one rank may cut others: repeated until none moves):
 *   - a communicator is used only where its first rank's prefix made it;
 *   - a communicator's ranks all hold as many of its collectives;
 *   - between two ranks on a communicator with a tag, as many messages
 *     are sent as are received (MPI's order: the first k of each). */
static int cut(conv_t *c)
{
    for (int r = 0; r < c->n; r++)
        c->ranks[r].keep = c->ranks[r].calls;
    /* peers as world ranks; a peer of a communicator nobody defined is
     * a use of it (cut by the first rule) */
    for (size_t i = 0; i < c->nitems; i++) {
        item_t *it = &c->items[i];
        if (it->kind != I_SEND && it->kind != I_RECV)
            continue;
        int w = world_of(c, it->rank, it->comm, it->peer);
        if (w < 0) {
            it->kind = I_USE;
            continue;
        }
        it->src = it->kind == I_SEND ? it->rank : w;
        it->dst = it->kind == I_SEND ? w : it->rank;
    }
    /* sends and receives side by side by their pair and tag, then
     * collectives by communicator and rank */
    size_t nsend = 0, nrecv = 0, ncoll = 0;
    for (size_t i = 0; i < c->nitems; i++) {
        nsend += c->items[i].kind == I_SEND;
        nrecv += c->items[i].kind == I_RECV;
        ncoll += c->items[i].kind == I_COLL;
    }
    qsort(c->items, c->nitems, sizeof *c->items, by_p2p); /* I_SEND, I_RECV, I_COLL, I_USE */
    item_t *sends = c->items, *recvs = sends + nsend, *colls = recvs + nrecv;
    qsort(colls, ncoll, sizeof *colls, by_coll);
    int *count = calloc((size_t)c->n, sizeof *count);
    if (!count)
        return fail(c, 1, "out of memory");
    long changed;
    do {
        changed = 0;
        char why[200];
        for (size_t i = 0; i < c->nitems; i++) {
            item_t *it = &c->items[i];
            if (it->call < c->ranks[it->rank].keep && !usable(c, it->comm)) {
                snprintf(why, sizeof why,
                         "its call %ld uses a communicator whose making was "
                         "not recorded",
                         it->call);
                cut_to(c, it->rank, it->call, why, &changed);
            }
        }
        /* collectives: per communicator, the fewest any member holds */
        for (size_t i = 0; i < ncoll;) {
            size_t j = i;
            while (j < ncoll && colls[j].comm == colls[i].comm)
                j++;
            uint64_t id = colls[i].comm;
            if (id != SC_SPOOL_SELF) {
                comm_t *m = id == SC_SPOOL_WORLD ? NULL : comm_get(c, id, 0);
                int size = m ? m->size : c->n;
                if (id == SC_SPOOL_WORLD || (m && m->members && m->nmembers == m->size)) {
                    int fewest = -1;
                    for (int k = 0; k < size; k++)
                        count[m ? m->members[k] : k] = 0;
                    for (size_t k = i; k < j; k++)
                        if (colls[k].call < c->ranks[colls[k].rank].keep)
                            count[colls[k].rank]++;
                    for (int k = 0; k < size; k++) {
                        int w = m ? m->members[k] : k;
                        if (fewest < 0 || count[w] < fewest)
                            fewest = count[w];
                    }
                    /* each rank's (fewest+1)-th collective there goes */
                    for (size_t k = i; k < j;) {
                        size_t e = k;
                        while (e < j && colls[e].rank == colls[k].rank)
                            e++;
                        if (e - k > (size_t)fewest) {
                            snprintf(why, sizeof why,
                                     "its collective in call %ld is one other "
                                     "ranks of its communicator did not reach",
                                     colls[k + (size_t)fewest].call);
                            cut_to(c, colls[k].rank, colls[k + (size_t)fewest].call, why, &changed);
                        }
                        k = e;
                    }
                }
            }
            i = j;
        }
        /* messages: sends and receives of a pair and tag, in order */
        size_t s = 0, v = 0;
        while (s < nsend || v < nrecv) {
            int order = s == nsend ? 1 : v == nrecv ? -1 : same_pair(&sends[s], &recvs[v]);
            const item_t *key = order <= 0 ? &sends[s] : &recvs[v];
            size_t s_end = s, v_end = v, s_kept = 0, v_kept = 0;
            while (s_end < nsend && same_pair(&sends[s_end], key) == 0)
                s_kept += sends[s_end++].call < c->ranks[key->src].keep;
            while (v_end < nrecv && same_pair(&recvs[v_end], key) == 0)
                v_kept += recvs[v_end++].call < c->ranks[key->dst].keep;
            if (s_kept > v_kept) {
                snprintf(why, sizeof why,
                         "its send to rank %d (tag %d) in call %ld was not "
                         "received",
                         key->dst, key->tag, sends[s + v_kept].call);
                cut_to(c, key->src, sends[s + v_kept].call, why, &changed);
            } else if (v_kept > s_kept) {
                snprintf(why, sizeof why,
                         "its receive from rank %d (tag %d) in call %ld was "
                         "not sent",
                         key->src, key->tag, recvs[v + s_kept].call);
                cut_to(c, key->dst, recvs[v + s_kept].call, why, &changed);
            }
            s = s_end;
            v = v_end;
        }
    } while (changed);
    free(count);
    return 0;
}

/* ---- Writing ---- */

static const struct {
    const char *name;
    OTF2_RegionRole role;
} fns[SC_FN_COUNT] = {
#define SC_TRACER_FN_ROW(name, role) {#name, OTF2_REGION_ROLE_##role},
    SC_TRACER_FUNCTIONS(SC_TRACER_FN_ROW)
#undef SC_TRACER_FN_ROW
};

static OTF2_FlushType pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc, void *caller,
                                bool final)
{
    (void)user;
    (void)type;
    (void)loc;
    (void)caller;
    (void) final;
    return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc)
{
    (void)user;
    (void)type;
    (void)loc;
    return 0;
}

static const OTF2_FlushCallbacks flush_callbacks = {pre_flush, post_flush};

static uint32_t comm_ref(conv_t *c, uint64_t id)
{
    if (id == SC_SPOOL_WORLD)
        return 0;
    if (id == SC_SPOOL_SELF)
        return 1;
    comm_t *m = comm_get(c, id, 0);
    return m && m->defined ? m->ref : OTF2_UNDEFINED_COMM;
}

/* The rank's nanoseconds on rank 0's clock, from the run's start. */
static OTF2_TimeStamp ticks(const rank_t *r, double t, double zero)
{
    double ns = (t - r->shift - zero) * 1e9;
    return ns > 0 ? (OTF2_TimeStamp)llround(ns) : 0;
}

/* Pass 2 over one rank: its kept calls as events. */
static int write_rank(conv_t *c, rank_t *r, OTF2_EvtWriter *w, double zero, uint64_t *last)
{
    int size, err = rank_open(c, r);
    if (err)
        return err;
    if ((err = read_head(c, r, &size))) {
        fclose(r->f);
        return err;
    }
    rec_t *call = NULL, rec;
    size_t n = 0, cap = 0;
    long calls = 0;
    OTF2_TimeStamp held = 0;
    OTF2_ErrorCode e = OTF2_SUCCESS;
    while (calls < r->keep && e == OTF2_SUCCESS && next(r, &rec) == 1) {
        if (rec.kind != SC_SPOOL_CALL) {
            if (rec.kind == SC_SPOOL_COMM || rec.kind == SC_SPOOL_MEMBERS ||
                rec.kind == SC_SPOOL_END)
                continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 64;
                rec_t *more = realloc(call, cap * sizeof *more);
                if (!more) {
                    err = fail(c, 1, "out of memory");
                    break;
                }
                call = more;
            }
            call[n++] = rec;
            continue;
        }
        /* OTF2 takes a location's times in order: a clock that stepped back
         * (MPI_Wtime on a realtime clock), or a damaged spool, is held */
        OTF2_TimeStamp t0 = ticks(r, rec.t0, zero), t1 = ticks(r, rec.t1, zero);
        if (t0 < held)
            t0 = held;
        if (t1 < t0)
            t1 = t0;
        held = t1;
        *last = t1 > *last ? t1 : *last;
        e = OTF2_EvtWriter_Enter(w, NULL, t0, rec.fn);
        /* what began in the call at its start, what ended at its end */
        for (size_t i = 0; i < n && e == OTF2_SUCCESS; i++) {
            const rec_t *s = &call[i];
            uint32_t comm = comm_ref(c, s->comm), peer = (uint32_t)s->peer, tag = (uint32_t)s->tag;
            switch (s->kind) {
            case SC_SPOOL_SEND:
                e = OTF2_EvtWriter_MpiSend(w, NULL, t0, peer, comm, tag, s->a);
                break;
            case SC_SPOOL_ISEND:
                e = OTF2_EvtWriter_MpiIsend(w, NULL, t0, peer, comm, tag, s->a, s->b);
                break;
            case SC_SPOOL_IRECV: e = OTF2_EvtWriter_MpiIrecvRequest(w, NULL, t0, s->b); break;
            case SC_SPOOL_COLL: e = OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, t0); break;
            }
        }
        for (size_t i = 0; i < n && e == OTF2_SUCCESS; i++) {
            const rec_t *s = &call[i];
            uint32_t comm = comm_ref(c, s->comm), peer = (uint32_t)s->peer, tag = (uint32_t)s->tag;
            switch (s->kind) {
            case SC_SPOOL_RECV:
                e = OTF2_EvtWriter_MpiRecv(w, NULL, t1, peer, comm, tag, s->a);
                break;
            case SC_SPOOL_ISEND_DONE: e = OTF2_EvtWriter_MpiIsendComplete(w, NULL, t1, s->b); break;
            case SC_SPOOL_IRECV_DONE:
                e = OTF2_EvtWriter_MpiIrecv(w, NULL, t1, peer, comm, tag, s->a, s->b);
                break;
            case SC_SPOOL_TEST: e = OTF2_EvtWriter_MpiRequestTest(w, NULL, t1, s->b); break;
            case SC_SPOOL_CANCELLED:
                e = OTF2_EvtWriter_MpiRequestCancelled(w, NULL, t1, s->b);
                break;
            case SC_SPOOL_COLL:
                e = OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, t1, (OTF2_CollectiveOp)s->n, comm,
                                                    s->peer < 0 ? OTF2_COLLECTIVE_ROOT_NONE : peer,
                                                    s->a, s->b);
                break;
            }
        }
        if (e == OTF2_SUCCESS)
            e = OTF2_EvtWriter_Leave(w, NULL, t1, rec.fn);
        n = 0;
        calls++;
    }
    free(call);
    fclose(r->f);
    r->f = NULL;
    if (!err && e != OTF2_SUCCESS)
        err = fail(c, 1, "writing rank %d's events into %s/traces: %s", r->rank, c->dir,
                   c->otf2_error[0] ? c->otf2_error : OTF2_Error_GetName(e));
    return err;
}

typedef struct {
    char **s;
    uint32_t n, cap;
    int failed;
} strings_t;

static uint32_t string(strings_t *t, const char *fmt, ...)
{
    if (t->n == t->cap) {
        uint32_t cap = t->cap ? 2 * t->cap : 256;
        char **more = realloc(t->s, cap * sizeof *more);
        if (!more) {
            t->failed = 1;
            return 0;
        }
        t->s = more;
        t->cap = cap;
    }
    char text[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (!(t->s[t->n] = strdup(text))) {
        t->failed = 1;
        return 0;
    }
    return t->n++;
}

/* The global definitions: clock, strings, hosts, ranks, regions, groups
 * and communicators (the world 0, each rank's self 1, then the ones made,
 * named by their order). */
static OTF2_ErrorCode write_defs(conv_t *c, OTF2_GlobalDefWriter *g, const uint64_t *events,
                                 uint64_t length)
{
    strings_t t = {0};
    OTF2_ErrorCode e = OTF2_SUCCESS;
    uint32_t empty = string(&t, ""), world_name = string(&t, "MPI_COMM_WORLD"),
             self_name = string(&t, "MPI_COMM_SELF"), mpi = string(&t, "MPI"),
             machine = string(&t, "machine"), node = string(&t, "node"),
             thread = string(&t, "Master thread"), region0 = t.n;
    for (int f = 0; f < SC_FN_COUNT; f++)
        string(&t, "%s", fns[f].name);
    /* hosts in the order of their first rank */
    int *host_of = malloc((size_t)c->n * sizeof *host_of), nhosts = 0;
    uint32_t *host_name = malloc((size_t)c->n * sizeof *host_name), rank_name0 = 0, comm_name0 = 0;
    uint64_t *members = malloc(((size_t)c->n + 1) * sizeof *members);
    if (!host_of || !host_name || !members) {
        e = OTF2_ERROR_MEM_ALLOC_FAILED;
        goto done;
    }
    for (int r = 0; r < c->n; r++) {
        host_of[r] = -1;
        for (int q = 0; q < r && host_of[r] < 0; q++)
            if (!strcmp(c->ranks[q].host, c->ranks[r].host))
                host_of[r] = host_of[q];
        if (host_of[r] < 0) {
            host_of[r] = nhosts;
            host_name[nhosts++] = string(&t, "%s", c->ranks[r].host);
        }
    }
    rank_name0 = t.n;
    for (int r = 0; r < c->n; r++)
        string(&t, "MPI Rank %d", r);
    comm_name0 = t.n;
    for (size_t i = 0, k = 2; i < c->ncomms; i++)
        if (c->comms[i].defined)
            string(&t, "Comm %zu", k++);
    if (t.failed) {
        e = OTF2_ERROR_MEM_ALLOC_FAILED;
        goto done;
    }
    e = OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, length + 1,
                                                  OTF2_UNDEFINED_TIMESTAMP);
    for (uint32_t i = 0; i < t.n && e == OTF2_SUCCESS; i++)
        e = OTF2_GlobalDefWriter_WriteString(g, i, t.s[i]);
    if (e == OTF2_SUCCESS)
        e = OTF2_GlobalDefWriter_WriteParadigm(g, OTF2_PARADIGM_MPI, mpi,
                                               OTF2_PARADIGM_CLASS_PROCESS);
    if (e == OTF2_SUCCESS)
        e = OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, machine, machine,
                                                     OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (int h = 0; h < nhosts && e == OTF2_SUCCESS; h++)
        e = OTF2_GlobalDefWriter_WriteSystemTreeNode(g, (uint32_t)h + 1, host_name[h], node, 0);
    for (int r = 0; r < c->n && e == OTF2_SUCCESS; r++)
        e = OTF2_GlobalDefWriter_WriteLocationGroup(
            g, (uint32_t)r, rank_name0 + (uint32_t)r, OTF2_LOCATION_GROUP_TYPE_PROCESS,
            (uint32_t)host_of[r] + 1, OTF2_UNDEFINED_LOCATION_GROUP);
    for (int r = 0; r < c->n && e == OTF2_SUCCESS; r++)
        e = OTF2_GlobalDefWriter_WriteLocation(
            g, (uint64_t)r, thread, OTF2_LOCATION_TYPE_CPU_THREAD, events[r], (uint32_t)r);
    for (int f = 0; f < SC_FN_COUNT && e == OTF2_SUCCESS; f++)
        e = OTF2_GlobalDefWriter_WriteRegion(g, (uint32_t)f, region0 + (uint32_t)f,
                                             region0 + (uint32_t)f, empty, fns[f].role,
                                             OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, empty, 0, 0);
    /* groups: the ranks' locations, the world, self, then one per
     * communicator made */
    for (int r = 0; r < c->n; r++)
        members[r] = (uint64_t)r;
    if (e == OTF2_SUCCESS)
        e = OTF2_GlobalDefWriter_WriteGroup(g, 0, empty, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                            OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)c->n,
                                            members);
    if (e == OTF2_SUCCESS)
        e = OTF2_GlobalDefWriter_WriteGroup(g, 1, empty, OTF2_GROUP_TYPE_COMM_GROUP,
                                            OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)c->n,
                                            members);
    if (e == OTF2_SUCCESS)
        e = OTF2_GlobalDefWriter_WriteGroup(g, 2, empty, OTF2_GROUP_TYPE_COMM_SELF,
                                            OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 0, members);
    for (size_t i = 0; i < c->ncomms && e == OTF2_SUCCESS; i++) {
        const comm_t *m = &c->comms[i];
        if (!m->defined)
            continue;
        for (int k = 0; k < m->size; k++)
            members[k] = (uint64_t)m->members[k];
        e = OTF2_GlobalDefWriter_WriteGroup(g, m->ref + 1, empty, OTF2_GROUP_TYPE_COMM_GROUP,
                                            OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                            (uint32_t)m->size, members);
    }
    if (e == OTF2_SUCCESS)
        e = OTF2_GlobalDefWriter_WriteComm(g, 0, world_name, 1, OTF2_UNDEFINED_COMM,
                                           OTF2_COMM_FLAG_NONE);
    if (e == OTF2_SUCCESS)
        e = OTF2_GlobalDefWriter_WriteComm(g, 1, self_name, 2, OTF2_UNDEFINED_COMM,
                                           OTF2_COMM_FLAG_NONE);
    for (size_t i = 0, k = 0; i < c->ncomms && e == OTF2_SUCCESS; i++) {
        const comm_t *m = &c->comms[i];
        if (!m->defined)
            continue;
        e = OTF2_GlobalDefWriter_WriteComm(g, m->ref, comm_name0 + (uint32_t)k++, m->ref + 1,
                                           comm_ref(c, m->parent), OTF2_COMM_FLAG_NONE);
    }
done:
    for (uint32_t i = 0; i < t.n; i++)
        free(t.s[i]);
    free(t.s);
    free(host_of);
    free(host_name);
    free(members);
    return e;
}

/* Removes what an earlier, unfinished conversion left. */
static void remove_archive(const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/traces", dir);
    DIR *d = opendir(path);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d))) {
            size_t n = strlen(de->d_name);
            if (n > 4 &&
                (!strcmp(de->d_name + n - 4, ".evt") || !strcmp(de->d_name + n - 4, ".def"))) {
                char file[4500];
                snprintf(file, sizeof file, "%s/%s", path, de->d_name);
                unlink(file);
            }
        }
        closedir(d);
        rmdir(path);
    }
    snprintf(path, sizeof path, "%s/traces.def", dir);
    unlink(path);
}

int sc_tracer_write_stand_in(const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/traces.otf2", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f,
            SC_TRACER_STAND_IN
            "no trace yet: the run writing it has not reached MPI_Finalize "
            "(it is running, or it was killed); its ranks' calls are in %s/spool, which "
            "'simcoll-trace-recover %s' makes a trace of, up to the ranks' last whole calls\n",
            dir, dir);
    return fclose(f) == 0 ? 0 : -1;
}

/* The ranks' spools, by rank: DIR/spool/rank-N.spool for N = 0 .. n-1. */
static int find_spools(conv_t *c)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/spool", c->dir);
    DIR *d = opendir(path);
    if (!d)
        return fail(c, 2,
                    "%s holds no spool (%s: %s): not a folder simcoll-trace wrote, or its "
                    "trace was written already (%s/traces.otf2)",
                    c->dir, path, strerror(errno), c->dir);
    int top = -1;
    struct dirent *de;
    while ((de = readdir(d))) {
        int r;
        char tail[8];
        if (sscanf(de->d_name, "rank-%d.spoo%1s", &r, tail) == 2 && r >= 0 && r < (1 << 24) &&
            r > top)
            top = r;
    }
    closedir(d);
    if (top < 0)
        return fail(c, 2, "%s holds no rank's spool (rank-N.spool)", path);
    c->n = top + 1;
    c->ranks = calloc((size_t)c->n, sizeof *c->ranks);
    if (!c->ranks)
        return fail(c, 1, "out of memory");
    for (int r = 0; r < c->n; r++) {
        rank_t *k = &c->ranks[r];
        k->rank = r;
        snprintf(k->path, sizeof k->path, "%s/rank-%06d.spool", path, r);
        if (access(k->path, R_OK) != 0)
            return fail(c, 2, "%s: %s: the spool of rank %d of %d is missing", k->path,
                        strerror(errno), r, c->n);
    }
    return 0;
}

int sc_tracer_convert(const char *dir, int remove_spool, FILE *log, char *msg, size_t len)
{
    conv_t c = {.dir = dir, .msg = msg, .len = len};
    uint64_t *events = NULL;
    OTF2_Archive *archive = NULL;
    int err = find_spools(&c);
    if (err)
        goto done;
    /* each spool's header first: rank 0's says how many ranks there are */
    for (int r = 0; r < c.n && !c.cutting; r++)
        c.cutting = !spool_ended(c.ranks[r].path);
    for (int r = 0; r < c.n && !err; r++)
        err = scan(&c, &c.ranks[r]);
    if (err)
        goto done;
    if (c.cutting && (err = cut(&c)))
        goto done;
    /* the communicators the kept calls made, numbered in order */
    uint32_t ref = 2;
    for (size_t i = 0; i < c.ncomms; i++) {
        comm_t *m = &c.comms[i];
        m->defined = usable(&c, m->id);
        if (m->defined)
            m->ref = ref++;
    }
    /* a communicator used with no rank having said who is in it */
    for (size_t i = 0; !c.cutting && i < c.ncomms; i++)
        if (!c.comms[i].defined) {
            err = fail(&c, 2,
                       "%s: communicator %#llx was made but its first rank did not "
                       "record its members",
                       dir, (unsigned long long)c.comms[i].id);
            goto done;
        }
    double zero = INFINITY;
    for (int r = 0; r < c.n; r++) {
        rank_t *k = &c.ranks[r];
        k->shift = k->sync - c.ranks[0].sync;
        if (k->first - k->shift < zero)
            zero = k->first - k->shift;
    }
    remove_archive(dir);
    sc_otf2_errors_into(c.otf2_error, sizeof c.otf2_error);
    archive = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                                OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!archive) {
        err = fail(&c, 1, "cannot write an OTF2 archive in %s: %s", dir, c.otf2_error);
        goto done;
    }
    OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL);
    OTF2_Archive_SetSerialCollectiveCallbacks(archive);
    OTF2_Archive_SetCreator(archive, "simcoll-trace");
    events = calloc((size_t)c.n, sizeof *events);
    if (!events) {
        err = fail(&c, 1, "out of memory");
        goto done;
    }
    uint64_t last = 0, total = 0;
    if (OTF2_Archive_OpenEvtFiles(archive) != OTF2_SUCCESS) {
        err = fail(&c, 1, "cannot open event files in %s/traces: %s", dir, c.otf2_error);
        goto done;
    }
    for (int r = 0; r < c.n && !err; r++) {
        OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(archive, (uint64_t)r);
        if (!w) {
            err = fail(&c, 1, "cannot write rank %d's events: %s", r, c.otf2_error);
            break;
        }
        err = write_rank(&c, &c.ranks[r], w, zero, &last);
        OTF2_EvtWriter_GetNumberOfEvents(w, &events[r]);
        total += events[r];
        OTF2_Archive_CloseEvtWriter(archive, w);
    }
    OTF2_Archive_CloseEvtFiles(archive);
    if (err)
        goto done;
    /* each location's (empty) local definitions, as readers expect */
    OTF2_Archive_OpenDefFiles(archive);
    for (int r = 0; r < c.n; r++) {
        OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(archive, (uint64_t)r);
        if (dw)
            OTF2_Archive_CloseDefWriter(archive, dw);
    }
    OTF2_Archive_CloseDefFiles(archive);
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(archive);
    OTF2_ErrorCode e = g ? write_defs(&c, g, events, last) : OTF2_ERROR_INVALID;
    if (e != OTF2_SUCCESS) {
        err = fail(&c, 1, "writing %s/traces.def: %s", dir,
                   c.otf2_error[0] ? c.otf2_error : OTF2_Error_GetName(e));
        goto done;
    }
    e = OTF2_Archive_Close(archive);
    archive = NULL;
    if (e != OTF2_SUCCESS) {
        err = fail(&c, 1, "closing %s/traces.otf2: %s", dir,
                   c.otf2_error[0] ? c.otf2_error : OTF2_Error_GetName(e));
        goto done;
    }
    long kept = 0, recorded = 0;
    for (int r = 0; r < c.n; r++) {
        rank_t *k = &c.ranks[r];
        kept += k->keep;
        recorded += k->calls;
        if (log && c.cutting)
            fprintf(log, "simcoll-trace: rank %d: %ld whole calls recorded%s, %ld kept%s%s\n", r,
                    k->calls,
                    k->ended ? " (to MPI_Finalize)" : " (the run did not reach MPI_Finalize)",
                    k->keep, k->keep < k->calls ? ": " : "", k->keep < k->calls ? k->why : "");
    }
    if (remove_spool) {
        for (int r = 0; r < c.n; r++)
            unlink(c.ranks[r].path);
        char path[4200];
        snprintf(path, sizeof path, "%s/spool", dir);
        rmdir(path);
    }
    fail(&c, 0,
         "%s/traces.otf2: %d ranks, %ld calls%s, %llu OTF2 events (simcoll run --platform "
         "PLATFORM %s/traces.otf2)",
         dir, c.n, kept, c.cutting ? " kept" : "", (unsigned long long)total, dir);
    if (c.cutting && kept < recorded)
        snprintf(msg + strlen(msg), len - strlen(msg),
                 "; %ld of the %ld whole calls recorded "
                 "cut so that every message and collective kept pairs up",
                 recorded - kept, recorded);
done:
    if (archive)
        OTF2_Archive_Close(archive);
    sc_otf2_errors_into(NULL, 0);
    free(events);
    for (size_t i = 0; i < c.ncomms; i++)
        free(c.comms[i].members);
    free(c.comms);
    free(c.comm_slots);
    free(c.items);
    for (int r = 0; c.ranks && r < c.n; r++) {
        free(c.ranks[r].frame);
        free(c.ranks[r].ids);
    }
    free(c.ranks);
    return err;
}
