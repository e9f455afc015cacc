/* The OTF2 archive of the ranks' kept calls (conversion.h), written as
 * Score-P writes MPI calls (what sim/trace/otf2.c reads): an Enter and a
 * Leave per call, the call's messages, completions and collective between
 * them, Score-P's byte counts, one location per rank, one communicator per
 * one the ranks made. The second pass over each spool writes its rank's
 * events.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <math.h>
#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../trace/otf2_error.h"
#include "conversion.h"

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
    comm_t *m = sc_conv_comm_get(c, id, 0);
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
    int size, err = sc_spool_open(c, r);
    if (err)
        return err;
    if ((err = sc_spool_read_head(c, r, &size))) {
        fclose(r->f);
        return err;
    }
    rec_t *call = NULL, rec;
    size_t n = 0, cap = 0;
    long calls = 0;
    OTF2_TimeStamp held = 0;
    OTF2_ErrorCode e = OTF2_SUCCESS;
    while (calls < r->keep && e == OTF2_SUCCESS && sc_spool_next(r, &rec) == 1) {
        if (rec.kind != SC_SPOOL_CALL) {
            if (rec.kind == SC_SPOOL_COMM || rec.kind == SC_SPOOL_MEMBERS ||
                rec.kind == SC_SPOOL_END)
                continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 64;
                rec_t *more = realloc(call, cap * sizeof *more);
                if (!more) {
                    err = sc_conv_fail(c, 1, "out of memory");
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
        err = sc_conv_fail(c, 1, "writing rank %d's events into %s/traces: %s", r->rank, c->dir,
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

/* Every rank's events, a location each; events[r] how many rank r's are,
 * *last the latest instant written. */
static int write_events(conv_t *c, OTF2_Archive *archive, double zero, uint64_t *events,
                        uint64_t *last, uint64_t *total)
{
    if (OTF2_Archive_OpenEvtFiles(archive) != OTF2_SUCCESS)
        return sc_conv_fail(c, 1, "cannot open event files in %s/traces: %s", c->dir,
                            c->otf2_error);
    int err = 0;
    for (int r = 0; r < c->n && !err; r++) {
        OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(archive, (uint64_t)r);
        if (!w) {
            err = sc_conv_fail(c, 1, "cannot write rank %d's events: %s", r, c->otf2_error);
            break;
        }
        err = write_rank(c, &c->ranks[r], w, zero, last);
        OTF2_EvtWriter_GetNumberOfEvents(w, &events[r]);
        *total += events[r];
        OTF2_Archive_CloseEvtWriter(archive, w);
    }
    OTF2_Archive_CloseEvtFiles(archive);
    return err;
}

/* Each location's (empty) local definitions, as readers expect, then the
 * global ones. */
static int write_definitions(conv_t *c, OTF2_Archive *archive, const uint64_t *events,
                             uint64_t last)
{
    OTF2_Archive_OpenDefFiles(archive);
    for (int r = 0; r < c->n; r++) {
        OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(archive, (uint64_t)r);
        if (dw)
            OTF2_Archive_CloseDefWriter(archive, dw);
    }
    OTF2_Archive_CloseDefFiles(archive);
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(archive);
    OTF2_ErrorCode e = g ? write_defs(c, g, events, last) : OTF2_ERROR_INVALID;
    if (e != OTF2_SUCCESS)
        return sc_conv_fail(c, 1, "writing %s/traces.def: %s", c->dir,
                            c->otf2_error[0] ? c->otf2_error : OTF2_Error_GetName(e));
    return 0;
}

int sc_conv_write_archive(conv_t *c, double zero, uint64_t *total)
{
    uint64_t *events = NULL, last = 0;
    int err = 0;
    remove_archive(c->dir);
    sc_otf2_errors_into(c->otf2_error, sizeof c->otf2_error);
    OTF2_Archive *archive =
        OTF2_Archive_Open(c->dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                          OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!archive) {
        err = sc_conv_fail(c, 1, "cannot write an OTF2 archive in %s: %s", c->dir, c->otf2_error);
        goto done;
    }
    OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL);
    OTF2_Archive_SetSerialCollectiveCallbacks(archive);
    OTF2_Archive_SetCreator(archive, "simcoll-trace");
    events = calloc((size_t)c->n, sizeof *events);
    if (!events) {
        err = sc_conv_fail(c, 1, "out of memory");
        goto done;
    }
    if ((err = write_events(c, archive, zero, events, &last, total)) ||
        (err = write_definitions(c, archive, events, last)))
        goto done;
    OTF2_ErrorCode e = OTF2_Archive_Close(archive);
    archive = NULL;
    if (e != OTF2_SUCCESS)
        err = sc_conv_fail(c, 1, "closing %s/traces.otf2: %s", c->dir,
                           c->otf2_error[0] ? c->otf2_error : OTF2_Error_GetName(e));
done:
    if (archive)
        OTF2_Archive_Close(archive);
    sc_otf2_errors_into(NULL, 0);
    free(events);
    return err;
}
