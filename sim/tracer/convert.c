/* The ranks' spools into an OTF2 archive, written as Score-P writes MPI
 * calls (what sim/trace/otf2.c reads): an Enter and a Leave per call, the
 * call's messages, completions and collective between them, Score-P's byte
 * counts, one location per rank, one communicator per one the ranks made.
 *
 * Two passes over each spool: the first checks every record, counts each
 * rank's whole calls and gathers the communicators; the second writes the
 * events. Where a rank's spool does not end with MPI_Finalize (the run was
 * killed), the first pass also keeps each message's and collective's
 * place, and the ranks are cut to the longest prefixes that pair up
 * (cut.c): simcoll refuses a trace whose sends and receives do not match.
 * Here the passes, pass 1 and the communicators; the spools are read by
 * spool_read.c, the archive written by otf2_write.c.
 *
 * Times: MPI_Wtime is each process's own clock (Open MPI's starts at
 * MPI_Init), so ranks are put on rank 0's by one instant at MPI_Init that
 * each read on its own (the spool's HEADER, spool_write.c): exactly on
 * rank 0's host, to a barrier's skew across hosts (microseconds); clocks
 * of different hosts may drift apart over a long run (not corrected).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conversion.h"
#include "convert.h"

int sc_conv_fail(conv_t *c, int code, const char *fmt, ...)
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

comm_t *sc_conv_comm_get(conv_t *c, uint64_t id, int create)
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
int sc_conv_world_of(conv_t *c, int rank, uint64_t comm, int peer)
{
    if (comm == SC_SPOOL_WORLD)
        return peer >= 0 && peer < c->n ? peer : -1;
    if (comm == SC_SPOOL_SELF)
        return peer == 0 ? rank : -1;
    comm_t *m = sc_conv_comm_get(c, comm, 0);
    if (!m || !m->members || m->nmembers != m->size || peer < 0 || peer >= m->size)
        return -1;
    return m->members[peer];
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

/* What pass 1 holds of a rank's call under way. */
typedef struct {
    uint32_t pending; /* its records so far */
    size_t staged;    /* its items: c->nitems back to here */
    comm_t *making;   /* a communicator whose members follow */
    comm_t *made;     /* by this call, of which the rank is first */
} call_scan_t;

/* CALL: the call is whole, and so is its communicator made. */
static int scan_call(conv_t *c, rank_t *r, call_scan_t *s, const rec_t *rec)
{
    if (rec->n != s->pending)
        return sc_spool_bad(c, r, "a call that does not count the records before it");
    if (rec->fn >= SC_FN_COUNT)
        return sc_spool_bad(c, r, "an unknown function");
    if (r->calls == 0)
        r->first = rec->t0;
    if (s->made) {
        s->made->definer = r->rank;
        s->made->def_call = r->calls;
    }
    s->made = s->making = NULL;
    r->calls++;
    s->pending = 0;
    s->staged = c->nitems;
    return 0;
}

/* COMM: a communicator the call made; where the rank is its first, its
 * members follow. */
static int scan_comm(conv_t *c, rank_t *r, call_scan_t *s, const rec_t *rec)
{
    comm_t *m = sc_conv_comm_get(c, rec->comm, 1);
    if (!m)
        return sc_conv_fail(c, 1, "out of memory");
    if (m->size != 0 && m->size != (int)rec->n)
        return sc_spool_bad(c, r, "a communicator another rank made with another size");
    if (rec->n == 0 || rec->n > (uint32_t)c->n || rec->peer < 0 || rec->peer >= (int)rec->n)
        return sc_spool_bad(c, r, "a communicator of a size or rank out of range");
    m->size = (int)rec->n;
    m->parent = rec->a;
    s->making = rec->peer == 0 ? m : NULL;
    if (s->making) {
        free(m->members);
        m->members = malloc((size_t)m->size * sizeof *m->members);
        m->nmembers = 0;
        if (!m->members)
            return sc_conv_fail(c, 1, "out of memory");
    }
    s->made = s->making;
    return 0;
}

static int scan_members(conv_t *c, rank_t *r, call_scan_t *s, const rec_t *rec)
{
    comm_t *making = s->making;
    if (!making || making->nmembers + (int)rec->n > making->size)
        return sc_spool_bad(c, r, "members of no communicator, or too many");
    for (uint32_t k = 0; k < rec->n; k++) {
        int w = rec->members[k];
        if (w < 0 || w >= c->n)
            return sc_spool_bad(c, r, "a communicator's member out of the world");
        making->members[making->nmembers++] = w;
    }
    return 0;
}

/* A message, a collective or a receive posted: its place, for the cut. */
static int scan_item(conv_t *c, const rank_t *r, const rec_t *rec)
{
    if (!c->cutting)
        return 0;
    int kind = rec->kind == SC_SPOOL_SEND || rec->kind == SC_SPOOL_ISEND ? I_SEND
               : rec->kind == SC_SPOOL_COLL                              ? I_COLL
               : rec->kind == SC_SPOOL_IRECV                             ? I_USE
                                                                         : I_RECV;
    if (!add_item(c, (item_t){.comm = rec->comm,
                              .kind = kind,
                              .rank = r->rank,
                              .peer = rec->peer,
                              .tag = rec->tag,
                              .call = r->calls}))
        return sc_conv_fail(c, 1, "out of memory");
    return 0;
}

/* One record of a rank's spool in pass 1. */
static int scan_record(conv_t *c, rank_t *r, call_scan_t *s, const rec_t *rec)
{
    if (r->ended)
        return sc_spool_bad(c, r, "a record after MPI_Finalize's end");
    int err = 0;
    switch (rec->kind) {
    case SC_SPOOL_CALL: return scan_call(c, r, s, rec);
    case SC_SPOOL_END:
        if (s->pending != 0)
            return sc_spool_bad(c, r, "MPI_Finalize's end inside a call");
        r->ended = 1;
        return 0;
    case SC_SPOOL_COMM: err = scan_comm(c, r, s, rec); break;
    case SC_SPOOL_MEMBERS: err = scan_members(c, r, s, rec); break;
    case SC_SPOOL_SEND:
    case SC_SPOOL_ISEND:
    case SC_SPOOL_RECV:
    case SC_SPOOL_IRECV_DONE:
    case SC_SPOOL_COLL:
    case SC_SPOOL_IRECV: err = scan_item(c, r, rec); break;
    case SC_SPOOL_ISEND_DONE:
    case SC_SPOOL_TEST:
    case SC_SPOOL_CANCELLED: break;
    default: return sc_spool_bad(c, r, "an unknown kind of record");
    }
    s->pending++;
    return err;
}

/* Pass 1 over one rank: every record checked, its whole calls counted,
 * the communicators it made (and, cutting, its items) gathered. */
static int scan(conv_t *c, rank_t *r)
{
    int size, err = sc_spool_open(c, r);
    if (err)
        return err;
    if ((err = sc_spool_read_head(c, r, &size)))
        goto done;
    if (size != c->n) {
        err = sc_spool_bad(c, r, "its header gives another number of ranks than rank 0's");
        goto done;
    }
    rec_t rec;
    call_scan_t s = {.staged = c->nitems};
    int got;
    while ((got = sc_spool_next(r, &rec)) == 1)
        if ((err = scan_record(c, r, &s, &rec)))
            goto done;
    if (got < 0) {
        err = sc_spool_bad(c, r, "");
        goto done;
    }
    /* a call the run's end cut short is no call */
    c->nitems = s.staged;
    if (s.making && s.making->nmembers != s.making->size && s.making->definer < 0) {
        free(s.making->members);
        s.making->members = NULL;
    }
    r->keep = r->calls;
    if (r->calls == 0)
        err = sc_conv_fail(c, 2,
                           "%s: rank %d recorded no whole call (killed before its MPI_Init "
                           "returned?)",
                           r->path, r->rank);
done:
    fclose(r->f);
    r->f = NULL;
    return err;
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
        return sc_conv_fail(c, 2,
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
        return sc_conv_fail(c, 2, "%s holds no rank's spool (rank-N.spool)", path);
    c->n = top + 1;
    c->ranks = calloc((size_t)c->n, sizeof *c->ranks);
    if (!c->ranks)
        return sc_conv_fail(c, 1, "out of memory");
    for (int r = 0; r < c->n; r++) {
        rank_t *k = &c->ranks[r];
        k->rank = r;
        snprintf(k->path, sizeof k->path, "%s/rank-%06d.spool", path, r);
        if (access(k->path, R_OK) != 0)
            return sc_conv_fail(c, 2, "%s: %s: the spool of rank %d of %d is missing", k->path,
                                strerror(errno), r, c->n);
    }
    return 0;
}

/* Pass 1 over every rank, and the cut where some rank did not end. */
static int read_spools(conv_t *c)
{
    /* each spool's header first: rank 0's says how many ranks there are */
    for (int r = 0; r < c->n && !c->cutting; r++)
        c->cutting = !sc_spool_ended(c->ranks[r].path);
    int err = 0;
    for (int r = 0; r < c->n && !err; r++)
        err = scan(c, &c->ranks[r]);
    if (!err && c->cutting)
        err = sc_conv_cut(c);
    return err;
}

/* The communicators the kept calls made, numbered in order; an error
 * where one is used with no rank having said who is in it. */
static int number_comms(conv_t *c)
{
    uint32_t ref = 2;
    for (size_t i = 0; i < c->ncomms; i++) {
        comm_t *m = &c->comms[i];
        m->defined = sc_conv_usable(c, m->id);
        if (m->defined)
            m->ref = ref++;
    }
    for (size_t i = 0; !c->cutting && i < c->ncomms; i++)
        if (!c->comms[i].defined)
            return sc_conv_fail(c, 2,
                                "%s: communicator %#llx was made but its first rank did not "
                                "record its members",
                                c->dir, (unsigned long long)c->comms[i].id);
    return 0;
}

/* Each rank's clock put on rank 0's (its shift); the run's start on it,
 * the earliest MPI_Init. */
static double align_clocks(conv_t *c)
{
    double zero = INFINITY;
    for (int r = 0; r < c->n; r++) {
        rank_t *k = &c->ranks[r];
        k->shift = k->sync - c->ranks[0].sync;
        if (k->first - k->shift < zero)
            zero = k->first - k->shift;
    }
    return zero;
}

/* What was kept of each rank (on `log`, where cut), the spools removed if
 * asked, and what was written in c->msg. */
static void report(conv_t *c, int remove_spool, FILE *log, uint64_t total)
{
    long kept = 0, recorded = 0;
    for (int r = 0; r < c->n; r++) {
        rank_t *k = &c->ranks[r];
        kept += k->keep;
        recorded += k->calls;
        if (log && c->cutting)
            fprintf(log, "simcoll-trace: rank %d: %ld whole calls recorded%s, %ld kept%s%s\n", r,
                    k->calls,
                    k->ended ? " (to MPI_Finalize)" : " (the run did not reach MPI_Finalize)",
                    k->keep, k->keep < k->calls ? ": " : "", k->keep < k->calls ? k->why : "");
    }
    if (remove_spool) {
        for (int r = 0; r < c->n; r++)
            unlink(c->ranks[r].path);
        char path[4200];
        snprintf(path, sizeof path, "%s/spool", c->dir);
        rmdir(path);
    }
    sc_conv_fail(c, 0,
                 "%s/traces.otf2: %d ranks, %ld calls%s, %llu OTF2 events (simcoll run --platform "
                 "PLATFORM %s/traces.otf2)",
                 c->dir, c->n, kept, c->cutting ? " kept" : "", (unsigned long long)total, c->dir);
    if (c->cutting && kept < recorded)
        snprintf(c->msg + strlen(c->msg), c->len - strlen(c->msg),
                 "; %ld of the %ld whole calls recorded "
                 "cut so that every message and collective kept pairs up",
                 recorded - kept, recorded);
}

static void conv_free(conv_t *c)
{
    for (size_t i = 0; i < c->ncomms; i++)
        free(c->comms[i].members);
    free(c->comms);
    free(c->comm_slots);
    free(c->items);
    for (int r = 0; c->ranks && r < c->n; r++) {
        free(c->ranks[r].frame);
        free(c->ranks[r].ids);
    }
    free(c->ranks);
}

int sc_tracer_convert(const char *dir, int remove_spool, FILE *log, char *msg, size_t len)
{
    conv_t c = {.dir = dir, .msg = msg, .len = len};
    uint64_t total = 0;
    int err = find_spools(&c);
    if (!err)
        err = read_spools(&c);
    if (!err)
        err = number_comms(&c);
    if (!err)
        err = sc_conv_write_archive(&c, align_clocks(&c), &total);
    if (!err)
        report(&c, remove_spool, log, total);
    conv_free(&c);
    return err;
}
