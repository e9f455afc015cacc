/* A trace opened, scanned and read rank by rank, whatever its format: the
 * formats' readers give events; this file keeps the communicators, checks
 * what the events say against each other and counts them.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "trace.h"

#include <assert.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/sc_grow.h"
#include "reader.h"

static const sc_trace_reader_t *const readers[] = {
#ifdef SC_HAVE_OTF2
    &sc_trace_otf2_reader,
#endif
    &sc_trace_dumpi_reader,
    &sc_trace_ti_reader,
    NULL,
};

static const char *const tcoll_names[SC_TCOLL_COUNT] = {
    [SC_TCOLL_BARRIER] = "barrier",       [SC_TCOLL_BCAST] = "bcast",
    [SC_TCOLL_REDUCE] = "reduce",         [SC_TCOLL_ALLREDUCE] = "allreduce",
    [SC_TCOLL_GATHER] = "gather",         [SC_TCOLL_GATHERV] = "gatherv",
    [SC_TCOLL_SCATTER] = "scatter",       [SC_TCOLL_SCATTERV] = "scatterv",
    [SC_TCOLL_ALLGATHER] = "allgather",   [SC_TCOLL_ALLGATHERV] = "allgatherv",
    [SC_TCOLL_ALLTOALL] = "alltoall",     [SC_TCOLL_ALLTOALLV] = "alltoallv",
    [SC_TCOLL_REDUCE_SCATTER] = "reduce_scatter", [SC_TCOLL_SCAN] = "scan",
    [SC_TCOLL_EXSCAN] = "exscan",
};

const char *sc_tcoll_name(sc_tcoll_t coll)
{
    return coll < SC_TCOLL_COUNT ? tcoll_names[coll] : "?";
}

/* Whether the collective has a root. */
static int rooted(sc_tcoll_t coll)
{
    return coll == SC_TCOLL_BCAST || coll == SC_TCOLL_REDUCE || coll == SC_TCOLL_GATHER ||
           coll == SC_TCOLL_GATHERV || coll == SC_TCOLL_SCATTER || coll == SC_TCOLL_SCATTERV;
}

/* ---- Opening ---- */

#define HEAD_BYTES 4096

static size_t read_head(const char *path, unsigned char *head)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, head, HEAD_BYTES);
    close(fd);
    return n > 0 ? (size_t)n : 0;
}

static const sc_trace_reader_t *reader_of(const char *path)
{
    unsigned char head[HEAD_BYTES];
    size_t len = read_head(path, head);
    for (int i = 0; len > 0 && readers[i]; i++)
        if (readers[i]->detect(path, head, len))
            return readers[i];
    return NULL;
}

/* What libsimcoll-trace.so leaves at its archive's anchor until the run
 * it traces ends (sim/tracer/convert.c): a line saying so, which is the
 * refusal's message (in `line`, without this start). */
#define STAND_IN "# simcoll-trace: "

static int stand_in(const char *path, char *line, size_t len)
{
    unsigned char head[HEAD_BYTES];
    size_t n = read_head(path, head), skip = strlen(STAND_IN);
    if (n < skip || memcmp(head, STAND_IN, skip) != 0)
        return 0;
    size_t end = skip;
    while (end < n && head[end] != '\n' && end - skip < len - 1)
        end++;
    memcpy(line, head + skip, end - skip);
    line[end - skip] = '\0';
    return 1;
}

int sc_trace_detect(const char *path, const char **format)
{
    const sc_trace_reader_t *reader = reader_of(path);
    if (reader && format)
        *format = reader->name;
    char line[8];
    if (!reader && stand_in(path, line, sizeof line)) {
        if (format)
            *format = "simcoll-trace's stand-in";
        return 1; /* a trace to be: sc_trace_open says why it is none yet */
    }
    return reader != NULL;
}

sc_err_t sc_trace_open(const char *path, sc_trace_t **trace)
{
    *trace = NULL;
    if (access(path, R_OK) != 0)
        return sc_error(SC_ERR_INPUT, "trace '%s' cannot be read: no such file, or not readable",
                        path);
    const sc_trace_reader_t *reader = reader_of(path);
    char line[1024];
    if (!reader && stand_in(path, line, sizeof line))
        return sc_error(SC_ERR_INPUT, "trace '%s': %s", path, line);
    if (!reader)
        return sc_error(SC_ERR_INPUT,
                        "'%s' is not a trace simcoll reads: give an OTF2 archive's anchor "
                        "(traces.otf2)%s, a DUMPI .meta file, or an SMPI time-independent index "
                        "or action file",
                        path,
#ifdef SC_HAVE_OTF2
                        ""
#else
                        " (this build has no OTF2 library)"
#endif
        );
    sc_trace_t *t = calloc(1, sizeof *t);
    if (!t)
        return sc_error(SC_ERR_RUN, "out of memory");
    t->reader = reader;
    t->path = strdup(path);
    t->dir = strdup(path);
    if (!t->path || !t->dir) {
        sc_trace_close(t);
        return sc_error(SC_ERR_RUN, "out of memory");
    }
    char *slash = strrchr(t->dir, '/');
    if (slash)
        slash[slash == t->dir] = '\0';
    else
        strcpy(t->dir, ".");
    sc_err_t err = reader->open(t);
    if (!err && t->nranks < 1)
        err = sc_error(SC_ERR_INPUT, "trace '%s' (%s) holds no rank", path, reader->name);
    if (err) {
        sc_trace_close(t);
        return err;
    }
    *trace = t;
    return SC_OK;
}

struct sc_trace_made {
    int parent;
    long seq;
    int color; /* split; 0 otherwise */
    int comm;  /* its index */
    sc_made_kind_t kind;
    /* while scanning: the members seen, (key, parent rank, world rank) */
    struct made_member {
        int key, parent_rank, world;
    } *seen;
    int nseen, cap_seen;
};

void sc_trace_close(sc_trace_t *t)
{
    if (!t)
        return;
    if (t->reader && t->reader->close)
        t->reader->close(t);
    for (int c = 0; c < t->ncomms; c++)
        free(t->comms[c].members);
    free(t->comms);
    for (int i = 0; i < t->nmade; i++)
        free(t->made[i].seen);
    free(t->made);
    free(t->skipped);
    free(t->uses);
    free(t->coll_seen);
    free(t->path);
    free(t->dir);
    free(t);
}

const char *sc_trace_format(const sc_trace_t *t)
{
    return t->reader->name;
}

const char *sc_trace_path(const sc_trace_t *t)
{
    return t->path;
}

int sc_trace_ranks(const sc_trace_t *t)
{
    return t->nranks;
}

int sc_trace_ncomms(const sc_trace_t *t)
{
    return t->ncomms;
}

const sc_trace_comm_t *sc_trace_comm(const sc_trace_t *t, int comm)
{
    return &t->comms[comm];
}

int sc_trace_add_comm(sc_trace_t *t, int size, const int *members)
{
    if (t->ncomms == t->cap_comms) {
        int cap = t->cap_comms ? 2 * t->cap_comms : 8;
        sc_trace_comm_t *more = realloc(t->comms, (size_t)cap * sizeof *more);
        if (!more) {
            sc_error(SC_ERR_RUN, "out of memory");
            return -1;
        }
        t->comms = more;
        t->cap_comms = cap;
    }
    sc_trace_comm_t *c = &t->comms[t->ncomms];
    c->size = size;
    c->members = malloc((size_t)(size > 0 ? size : 1) * sizeof *c->members);
    if (!c->members) {
        sc_error(SC_ERR_RUN, "out of memory");
        return -1;
    }
    if (members)
        memcpy(c->members, members, (size_t)size * sizeof *c->members);
    return t->ncomms++;
}

sc_err_t sc_trace_set_ranks(sc_trace_t *t, int nranks)
{
    if (nranks < 1)
        return sc_error(SC_ERR_INPUT, "trace '%s' holds no rank", t->path);
    t->nranks = nranks;
    int c = sc_trace_add_comm(t, nranks, NULL);
    if (c < 0)
        return SC_ERR_RUN;
    for (int r = 0; r < nranks; r++)
        t->comms[c].members[r] = r;
    return SC_OK;
}

char *sc_trace_file(const sc_trace_t *t, const char *name)
{
    if (name[0] == '/')
        return strdup(name);
    size_t len = strlen(t->dir) + strlen(name) + 2;
    char *path = malloc(len);
    if (path)
        snprintf(path, len, "%s/%s", t->dir, name);
    return path;
}

void sc_trace_skip(sc_trace_t *t, const char *name, double seconds)
{
    if (!t->scanning)
        return;
    for (int i = 0; i < t->nskipped; i++)
        if (!strcmp(t->skipped[i].name, name)) {
            t->skipped[i].count++;
            t->skipped[i].seconds += seconds;
            return;
        }
    struct sc_trace_skip *more = realloc(t->skipped, (size_t)(t->nskipped + 1) * sizeof *more);
    if (!more)
        return; /* only a count lost */
    t->skipped = more;
    struct sc_trace_skip *s = &t->skipped[t->nskipped++];
    snprintf(s->name, sizeof s->name, "%s", name);
    s->count = 1;
    s->seconds = seconds;
}

/* ---- Communicators made by the ranks' calls ---- */

static struct sc_trace_made *made_find(sc_trace_t *t, int parent, long seq, int color)
{
    for (int i = 0; i < t->nmade; i++) {
        struct sc_trace_made *m = &t->made[i];
        if (m->parent == parent && m->seq == seq && m->color == color)
            return m;
    }
    return NULL;
}

static const char *made_name(sc_made_kind_t kind)
{
    return kind == SC_MADE_SPLIT ? "split" : kind == SC_MADE_DUP ? "dup" : "create";
}

int sc_trace_comm_created(sc_trace_t *t, int world_rank, int parent, long seq,
                          sc_made_kind_t kind, int color, int key, const int *group, int ngroup)
{
    if (kind == SC_MADE_SPLIT && color < 0)
        return -2;
    if (kind == SC_MADE_DUP) {
        color = 0;
        key = 0; /* the order of the parent's ranks */
    }
    int in_group = kind != SC_MADE_CREATE;
    for (int i = 0; !in_group && i < ngroup; i++)
        in_group = group[i] == world_rank;
    if (!in_group)
        return -2;
    if (kind == SC_MADE_CREATE)
        color = 0;
    struct sc_trace_made *m = made_find(t, parent, seq, color);
    if (t->scanned) {
        if (!m) {
            sc_error(SC_ERR_INPUT, "rank %d's communicator %s number %ld was not seen when "
                     "the trace was scanned", world_rank, made_name(kind), seq);
            return -1;
        }
        return m->comm;
    }
    if (m && m->kind != kind) {
        sc_error(SC_ERR_INPUT,
                 "rank %d makes its communicator number %ld from communicator %d by comm_%s, "
                 "where another rank made it by comm_%s",
                 world_rank, seq, parent, made_name(kind), made_name(m->kind));
        return -1;
    }
    if (!m) {
        if (t->nmade == t->cap_made) {
            int cap = t->cap_made ? 2 * t->cap_made : 8;
            struct sc_trace_made *more = realloc(t->made, (size_t)cap * sizeof *more);
            if (!more) {
                sc_error(SC_ERR_RUN, "out of memory");
                return -1;
            }
            t->made = more;
            t->cap_made = cap;
        }
        int comm = sc_trace_add_comm(t, kind == SC_MADE_CREATE ? ngroup : 0, group);
        if (comm < 0)
            return -1;
        m = &t->made[t->nmade++];
        *m = (struct sc_trace_made){.parent = parent, .seq = seq, .color = color, .comm = comm,
                                    .kind = kind};
    }
    if (kind == SC_MADE_CREATE)
        return m->comm; /* its members are the group's */
    if (m->nseen == m->cap_seen) {
        int cap = m->cap_seen ? 2 * m->cap_seen : 8;
        struct made_member *more = realloc(m->seen, (size_t)cap * sizeof *more);
        if (!more) {
            sc_error(SC_ERR_RUN, "out of memory");
            return -1;
        }
        m->seen = more;
        m->cap_seen = cap;
    }
    m->seen[m->nseen++] = (struct made_member){key, -1, world_rank};
    return m->comm;
}

static int by_key_then_rank(const void *a, const void *b)
{
    const struct made_member *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->parent_rank > y->parent_rank) - (x->parent_rank < y->parent_rank);
}

/* After the scan: the members of split and dup communicators, ordered as
 * MPI orders them (by key, then by rank in the parent). A parent was made
 * before its children, so it is complete when they are ordered. */
static sc_err_t made_finish(sc_trace_t *t)
{
    for (int i = 0; i < t->nmade; i++) {
        struct sc_trace_made *m = &t->made[i];
        if (m->kind == SC_MADE_CREATE)
            continue;
        const sc_trace_comm_t *parent = &t->comms[m->parent];
        for (int k = 0; k < m->nseen; k++)
            for (int j = 0; j < parent->size; j++)
                if (parent->members[j] == m->seen[k].world) {
                    m->seen[k].parent_rank = j;
                    break;
                }
        qsort(m->seen, (size_t)m->nseen, sizeof *m->seen, by_key_then_rank);
        sc_trace_comm_t *c = &t->comms[m->comm];
        int *members = malloc((size_t)(m->nseen > 0 ? m->nseen : 1) * sizeof *members);
        if (!members)
            return sc_error(SC_ERR_RUN, "out of memory");
        for (int k = 0; k < m->nseen; k++)
            members[k] = m->seen[k].world;
        free(c->members);
        c->members = members;
        c->size = m->nseen;
        free(m->seen);
        m->seen = NULL;
        m->nseen = m->cap_seen = 0;
    }
    return SC_OK;
}

/* ---- Cursors ---- */

struct sc_trace_cursor {
    sc_trace_t *trace;
    int rank;
    void *state;
    int *comm_rank; /* by communicator: the rank's place in it, -1 none, -2 not yet seen */
    int ncomm_rank;
    /* sc_trace_cursor_where's text, made on first use: messages need it,
     * and a replay of 65,536 ranks would otherwise keep 38 MiB of it */
    char *where;
};

#define WHERE_LEN 600

int sc_trace_cursor_comm_rank(sc_trace_cursor_t *c, int comm)
{
    const sc_trace_t *t = c->trace;
    if (comm < 0 || comm >= t->ncomms)
        return -1;
    if (comm == 0)
        return c->rank;
    if (comm >= c->ncomm_rank) {
        int *more = realloc(c->comm_rank, (size_t)t->ncomms * sizeof *more);
        if (!more)
            return -1;
        for (int i = c->ncomm_rank; i < t->ncomms; i++)
            more[i] = -2;
        c->comm_rank = more;
        c->ncomm_rank = t->ncomms;
    }
    if (c->comm_rank[comm] == -2) {
        const sc_trace_comm_t *cm = &t->comms[comm];
        c->comm_rank[comm] = -1;
        for (int i = 0; i < cm->size; i++)
            if (cm->members[i] == c->rank) {
                c->comm_rank[comm] = i;
                break;
            }
    }
    return c->comm_rank[comm];
}

sc_err_t sc_trace_cursor_open(sc_trace_t *t, int rank, sc_trace_cursor_t **cursor)
{
    *cursor = calloc(1, sizeof **cursor);
    if (!*cursor)
        return sc_error(SC_ERR_RUN, "out of memory");
    (*cursor)->trace = t;
    (*cursor)->rank = rank;
    sc_err_t err = t->reader->rank_open(t, rank, &(*cursor)->state);
    if (err) {
        free(*cursor);
        *cursor = NULL;
    }
    return err;
}

void sc_trace_cursor_close(sc_trace_cursor_t *c)
{
    if (!c)
        return;
    if (c->state)
        c->trace->reader->rank_close(c->state);
    free(c->comm_rank);
    free(c->where);
    free(c);
}

const char *sc_trace_cursor_where(const sc_trace_cursor_t *c)
{
    sc_trace_cursor_t *mine = (sc_trace_cursor_t *)c;
    if (!mine->where && !(mine->where = malloc(WHERE_LEN)))
        return "(out of memory)";
    char place[512] = "";
    c->trace->reader->where(c->state, place, sizeof place);
    snprintf(mine->where, WHERE_LEN, "rank %d, %s", c->rank, place);
    return c->where;
}

/* The event's communicator ranks are in range (once communicators are
 * complete); SC_ERR_INPUT naming the event otherwise. */
static sc_err_t check_event(sc_trace_cursor_t *c, const sc_tev_t *ev)
{
    const sc_trace_t *t = c->trace;
    if (ev->kind == SC_TEV_COMPUTE) {
        if (!(ev->seconds >= 0) || !(ev->flops >= 0) || isinf(ev->seconds) || isinf(ev->flops))
            return sc_error(SC_ERR_INPUT, "%s: a computation of %g s and %g flops; times and "
                            "flops are finite and at least 0", sc_trace_cursor_where(c),
                            ev->seconds, ev->flops);
        return SC_OK;
    }
    if (ev->kind == SC_TEV_WAIT || ev->kind == SC_TEV_TEST)
        return SC_OK;
    if (ev->comm < 0 || ev->comm >= t->ncomms)
        return sc_error(SC_ERR_INPUT, "%s: communicator %d was never made",
                        sc_trace_cursor_where(c), ev->comm);
    const sc_trace_comm_t *comm = &t->comms[ev->comm];
    if (sc_trace_cursor_comm_rank(c, ev->comm) < 0)
        return sc_error(SC_ERR_INPUT, "%s: rank %d uses communicator %d, which it is not in",
                        sc_trace_cursor_where(c), c->rank, ev->comm);
    if (ev->kind == SC_TEV_COLL) {
        if (rooted(ev->coll) && (ev->root < 0 || ev->root >= comm->size))
            return sc_error(SC_ERR_INPUT, "%s: %s from root %d on a communicator of %d ranks",
                            sc_trace_cursor_where(c), sc_tcoll_name(ev->coll), ev->root,
                            comm->size);
        return SC_OK;
    }
    int any = ev->peer == SC_TRACE_ANY && (ev->kind == SC_TEV_RECV || ev->kind == SC_TEV_IRECV);
    if (!any && (ev->peer < 0 || ev->peer >= comm->size))
        return sc_error(SC_ERR_INPUT, "%s: a message %s rank %d of a communicator of %d ranks "
                        "(0 to %d)", sc_trace_cursor_where(c),
                        ev->kind == SC_TEV_SEND || ev->kind == SC_TEV_ISEND ? "to" : "from",
                        ev->peer, comm->size, comm->size - 1);
    return SC_OK;
}

int sc_trace_next(sc_trace_cursor_t *c, sc_tev_t *ev)
{
    /* The scan has checked every event. */
    return c->trace->reader->next(c->state, ev);
}

/* ---- Scanning ---- */

/* Messages between two ranks on one communicator, sent and received. */
typedef struct {
    int comm, src, dst; /* world ranks; src -1: receives from any source */
    long sends, recvs;
    long last_send, last_recv; /* the events' index */
} pair_t;

typedef struct {
    pair_t *slots;
    size_t cap, used;
} pairs_t;

static size_t pair_hash(int comm, int src, int dst, size_t cap)
{
    uint64_t h = (uint64_t)(uint32_t)comm * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)(uint32_t)src * 0xC2B2AE3D27D4EB4Full;
    h ^= (uint64_t)(uint32_t)dst * 0x165667B19E3779F9ull;
    h ^= h >> 29;
    return (size_t)(h & (cap - 1));
}

static pair_t *pair_get(pairs_t *ps, int comm, int src, int dst)
{
    if (ps->used * 2 >= ps->cap) {
        size_t cap = ps->cap ? 2 * ps->cap : 1024;
        pair_t *slots = malloc(cap * sizeof *slots);
        if (!slots)
            return NULL;
        for (size_t i = 0; i < cap; i++)
            slots[i].comm = -1;
        for (size_t i = 0; i < ps->cap; i++)
            if (ps->slots[i].comm >= 0) {
                size_t k = pair_hash(ps->slots[i].comm, ps->slots[i].src, ps->slots[i].dst, cap);
                while (slots[k].comm >= 0)
                    k = (k + 1) & (cap - 1);
                slots[k] = ps->slots[i];
            }
        free(ps->slots);
        ps->slots = slots;
        ps->cap = cap;
    }
    size_t k = pair_hash(comm, src, dst, ps->cap);
    while (ps->slots[k].comm >= 0) {
        pair_t *p = &ps->slots[k];
        if (p->comm == comm && p->src == src && p->dst == dst)
            return p;
        k = (k + 1) & (ps->cap - 1);
    }
    ps->slots[k] = (pair_t){comm, src, dst, 0, 0, -1, -1};
    ps->used++;
    return &ps->slots[k];
}

static int by_dst(const void *a, const void *b)
{
    const pair_t *x = a, *y = b;
    if (x->comm != y->comm)
        return x->comm < y->comm ? -1 : 1;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    return (x->src > y->src) - (x->src < y->src);
}

static const char *comm_label(int comm, char *out, size_t len)
{
    if (comm == 0)
        snprintf(out, len, "MPI_COMM_WORLD");
    else
        snprintf(out, len, "communicator %d", comm);
    return out;
}

/* Every send received and every receive sent, counted pair by pair: the
 * receives from any source of a rank take what the named ones leave. */
static sc_err_t pairs_check(const sc_trace_t *t, pairs_t *ps)
{
    size_t n = 0;
    for (size_t i = 0; i < ps->cap; i++)
        if (ps->slots[i].comm >= 0)
            ps->slots[n++] = ps->slots[i];
    if (n == 0)
        return SC_OK;
    qsort(ps->slots, n, sizeof *ps->slots, by_dst);
    char label[64];
    for (size_t i = 0; i < n;) {
        size_t j = i;
        long spare_sends = 0, any_recvs = 0;
        const pair_t *any = NULL, *unsent = NULL, *unreceived = NULL;
        for (; j < n && ps->slots[j].comm == ps->slots[i].comm && ps->slots[j].dst == ps->slots[i].dst;
             j++) {
            const pair_t *p = &ps->slots[j];
            if (p->src < 0) {
                any_recvs += p->recvs;
                any = p;
            } else if (p->recvs > p->sends) {
                unsent = unsent ? unsent : p;
            } else if (p->sends > p->recvs) {
                spare_sends += p->sends - p->recvs;
                unreceived = unreceived ? unreceived : p;
            }
        }
        const pair_t *first = &ps->slots[i];
        comm_label(first->comm, label, sizeof label);
        if (unsent)
            return sc_error(SC_ERR_INPUT,
                            "trace '%s': rank %d receives %ld message(s) from rank %d on %s "
                            "(its last such receive: event %ld) but rank %d sends it only %ld: "
                            "a receive is never sent",
                            t->path, unsent->dst, unsent->recvs, unsent->src, label,
                            unsent->last_recv, unsent->src, unsent->sends);
        if (spare_sends > any_recvs)
            return sc_error(SC_ERR_INPUT,
                            "trace '%s': rank %d sends %ld message(s) to rank %d on %s (its last "
                            "such send: event %ld) but rank %d receives only %ld of them%s: a "
                            "send is never received",
                            t->path, unreceived->src, unreceived->sends, unreceived->dst, label,
                            unreceived->last_send, unreceived->dst, unreceived->recvs,
                            any_recvs ? " besides its receives from any source" : "");
        if (any_recvs > spare_sends)
            return sc_error(SC_ERR_INPUT,
                            "trace '%s': rank %d receives %ld message(s) from any source on %s "
                            "(its last: event %ld) but only %ld are sent to it beyond its "
                            "named receives: a receive is never sent",
                            t->path, any->dst, any_recvs, label, any->last_recv, spare_sends);
        i = j;
    }
    return SC_OK;
}

_Static_assert(SC_TCOLL_COUNT <= 32, "coll_seen holds a bit by collective kind");

/* Keeps collective `coll` on communicator `comm` if it is the first call
 * of its kind there; 0 if out of memory. */
static int note_use(sc_trace_t *t, sc_tcoll_t coll, int comm)
{
    if (comm >= t->nseen) {
        uint32_t *seen = realloc(t->coll_seen, (size_t)t->ncomms * sizeof *seen);
        if (!seen)
            return 0;
        memset(seen + t->nseen, 0, (size_t)(t->ncomms - t->nseen) * sizeof *seen);
        t->coll_seen = seen;
        t->nseen = t->ncomms;
    }
    uint32_t bit = (uint32_t)1 << coll;
    if (t->coll_seen[comm] & bit)
        return 1;
    struct sc_trace_use *uses = sc_grow(t->uses, t->nuses, &t->cap_uses, 16, sizeof *uses);
    if (!uses)
        return 0;
    t->uses = uses;
    t->uses[t->nuses++] = (struct sc_trace_use){coll, comm};
    t->coll_seen[comm] |= bit;
    return 1;
}

/* Forgets the collectives noted, for a scan that starts its check again. */
static void forget_uses(sc_trace_t *t)
{
    t->nuses = 0;
    if (t->coll_seen)
        memset(t->coll_seen, 0, (size_t)t->nseen * sizeof *t->coll_seen);
}

int sc_trace_collective_use(const sc_trace_t *t, size_t i, sc_tcoll_t *coll, int *comm)
{
    /* before a scan (or after a failed one) there is no list: reading it
     * would pass every check that rests on it */
    assert(t->scanned);
    if (i >= t->nuses)
        return 0;
    *coll = t->uses[i].coll;
    *comm = t->uses[i].comm;
    return 1;
}

typedef struct {
    sc_trace_t *t;
    sc_trace_summary_t *sum;
    const sc_trace_listener_t *listener;
    pairs_t pairs;
    int count, check; /* this pass counts events; checks peers and pairs */
    /* The counting pass checks too while its checks are final: while the
     * trace has only the communicators it had before the scan (one a rank
     * makes is complete only once every rank is read) and every check
     * passes (a failure is left to the check pass, which reports it as it
     * always has: after every rank's reading errors). Not with a
     * listener, which would be told twice. */
    int early;
    int ncomms_before;
    double first, last; /* recorded times */
} scan_t;

/* Drops what the counting pass checked: the check pass does it all. */
static void no_early_check(scan_t *s)
{
    s->early = 0;
    free(s->pairs.slots);
    s->pairs = (pairs_t){0};
    if (s->sum)
        memset(s->sum->collectives, 0, sizeof s->sum->collectives);
    forget_uses(s->t);
}

static sc_err_t scan_event(scan_t *s, sc_trace_cursor_t *c, const sc_tev_t *ev, double *began,
                           double *ended)
{
    sc_trace_t *t = s->t;
    sc_trace_summary_t *sum = s->sum;
    if (!isnan(ev->began) && ev->began < *began)
        *began = ev->began;
    if (!isnan(ev->ended) && ev->ended > *ended)
        *ended = ev->ended;
    if (s->count && sum) {
        sum->events++;
        if (ev->kind == SC_TEV_COMPUTE) {
            sum->computes++;
            sum->compute_seconds += ev->seconds;
            sum->compute_flops += ev->flops;
        } else if (ev->kind == SC_TEV_SEND || ev->kind == SC_TEV_ISEND) {
            sum->p2p_messages++;
            sum->p2p_bytes += (double)ev->bytes;
        } else if (ev->kind == SC_TEV_COLL) {
            sum->collective_rank_calls[ev->coll]++;
        }
    }
    if (s->early && t->ncomms != s->ncomms_before)
        no_early_check(s);
    if (!s->check && !s->early)
        return SC_OK;
    sc_err_t err = check_event(c, ev);
    if (err && s->early) {
        no_early_check(s);
        return SC_OK;
    }
    if (err)
        return err;
    /* a collective once a call, by its communicator's first rank: known
     * now, the communicators the ranks made complete */
    if (sum && ev->kind == SC_TEV_COLL && t->comms[ev->comm].members[0] == c->rank)
        sum->collectives[ev->coll]++;
    if (ev->kind == SC_TEV_COLL && !note_use(t, ev->coll, ev->comm))
        return sc_error(SC_ERR_RUN, "out of memory scanning the trace");
    int send = ev->kind == SC_TEV_SEND || ev->kind == SC_TEV_ISEND;
    int recv = ev->kind == SC_TEV_RECV || ev->kind == SC_TEV_IRECV;
    if (send || recv) {
        const sc_trace_comm_t *comm = &t->comms[ev->comm];
        int peer = ev->peer == SC_TRACE_ANY ? -1 : comm->members[ev->peer];
        pair_t *p = send ? pair_get(&s->pairs, ev->comm, c->rank, peer)
                         : pair_get(&s->pairs, ev->comm, peer, c->rank);
        if (!p)
            return sc_error(SC_ERR_RUN, "out of memory scanning the trace");
        if (send) {
            p->sends++;
            p->last_send = ev->index;
            if (s->listener && s->listener->message)
                s->listener->message(s->listener->ctx, c->rank, peer, ev->bytes);
        } else {
            p->recvs++;
            p->last_recv = ev->index;
        }
    } else if (ev->kind == SC_TEV_COLL && s->listener && s->listener->collective) {
        s->listener->collective(s->listener->ctx, c->rank, ev);
    }
    return SC_OK;
}

static sc_err_t scan_pass(scan_t *s)
{
    sc_trace_t *t = s->t;
    for (int r = 0; r < t->nranks; r++) {
        sc_trace_cursor_t *c;
        sc_err_t err = sc_trace_cursor_open(t, r, &c);
        if (err)
            return err;
        double began = INFINITY, ended = -INFINITY;
        sc_tev_t ev;
        int got;
        while ((got = t->reader->next(c->state, &ev)) == 1)
            if ((err = scan_event(s, c, &ev, &began, &ended)))
                break;
        sc_trace_cursor_close(c);
        if (err)
            return err;
        if (got < 0)
            return SC_ERR_INPUT;
        if (s->count && s->sum && ended > began) {
            s->sum->recorded_seconds += ended - began;
            if (began < s->first)
                s->first = began;
            if (ended > s->last)
                s->last = ended;
        }
    }
    return SC_OK;
}

sc_err_t sc_trace_scan(sc_trace_t *t, sc_trace_summary_t *summary,
                       const sc_trace_listener_t *listener)
{
    if (summary)
        *summary = (sc_trace_summary_t){.elapsed = NAN};
    scan_t s = {.t = t,
                .sum = summary,
                .listener = listener,
                .count = 1,
                .early = !listener,
                .ncomms_before = t->ncomms,
                .first = INFINITY,
                .last = -INFINITY};
    forget_uses(t);
    t->scanning = 1;
    /* Communicators the ranks make are complete only once every rank has
     * been read: then a second pass checks what uses them, unless the
     * first could (scan_t's `early`). */
    sc_err_t err = scan_pass(&s);
    t->scanning = 0;
    if (!err)
        err = made_finish(t);
    if (!err) {
        t->scanned = 1;
        s.count = 0;
        s.check = !s.early;
        if (s.check)
            err = scan_pass(&s);
    }
    if (!err)
        err = pairs_check(t, &s.pairs);
    free(s.pairs.slots);
    if (!err && summary && summary->events == 0)
        err = sc_error(SC_ERR_INPUT, "trace '%s' (%s, %d ranks) holds no event to replay",
                       t->path, t->reader->name, t->nranks);
    if (!err && summary) {
        if (s.last > s.first)
            summary->elapsed = s.last - s.first;
        summary->skipped = t->skipped;
        summary->nskipped = t->nskipped;
        t->skipped = NULL;
        t->nskipped = 0;
    }
    if (err) {
        t->scanned = 0;
        if (summary)
            sc_trace_summary_destroy(summary);
    }
    return err;
}

void sc_trace_summary_destroy(sc_trace_summary_t *summary)
{
    free(summary->skipped);
    summary->skipped = NULL;
    summary->nskipped = 0;
}

/* ---- Printing ---- */

void sc_tev_format(const sc_tev_t *ev, char *out, size_t len)
{
    switch (ev->kind) {
    case SC_TEV_COMPUTE:
        if (ev->flops > 0)
            snprintf(out, len, "compute %g flops", ev->flops);
        else
            snprintf(out, len, "compute %.9g s", ev->seconds);
        return;
    case SC_TEV_SEND:
    case SC_TEV_ISEND:
    case SC_TEV_RECV:
    case SC_TEV_IRECV: {
        const char *what = ev->kind == SC_TEV_SEND    ? "send"
                           : ev->kind == SC_TEV_ISEND ? "isend"
                           : ev->kind == SC_TEV_RECV  ? "recv"
                                                      : "irecv";
        int n = snprintf(out, len, "%s comm %d peer %d tag %d bytes %llu", what, ev->comm,
                         ev->peer, ev->tag, (unsigned long long)ev->bytes);
        if ((ev->kind == SC_TEV_ISEND || ev->kind == SC_TEV_IRECV) && n > 0 && (size_t)n < len)
            snprintf(out + n, len - (size_t)n, " req %llu", (unsigned long long)ev->req);
        return;
    }
    case SC_TEV_WAIT:
    case SC_TEV_TEST: {
        int n = snprintf(out, len, "%s", ev->kind == SC_TEV_WAIT ? "wait" : "test");
        for (int i = 0; i < ev->nreqs && n > 0 && (size_t)n < len; i++)
            n += snprintf(out + n, len - (size_t)n, " %llu", (unsigned long long)ev->reqs[i]);
        return;
    }
    case SC_TEV_COLL: {
        int n = snprintf(out, len, "%s comm %d", sc_tcoll_name(ev->coll), ev->comm);
        if (rooted(ev->coll) && n > 0 && (size_t)n < len)
            n += snprintf(out + n, len - (size_t)n, " root %d", ev->root);
        if (n > 0 && (size_t)n < len && ev->coll != SC_TCOLL_BARRIER)
            n += snprintf(out + n, len - (size_t)n, " bytes %llu", (unsigned long long)ev->bytes);
        if (n > 0 && (size_t)n < len && ev->counts) {
            n += snprintf(out + n, len - (size_t)n, " counts");
            /* the communicator's size is not known here: counts are printed by the caller */
        }
        return;
    }
    }
    snprintf(out, len, "?");
}
