/* Writing SMPI time-independent traces (ti_write.h), as SimGrid's
 * smpi_replay.cpp parses each action (SimGrid 3.32 and 4.1 alike) and
 * ti.c reads them back.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "ti_write.h"

#include "common/sc_grow.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/sc_grow.h"

/* SimGrid's number of MPI_BYTE (smpi_datatype.cpp), one byte an element. */
#define TI_BYTE 6

typedef struct {
    uint64_t id;
    int src, dst, tag;
} open_request_t;

struct sc_ti_writer {
    const char *option;
    char *dir;     /* the folder asked for */
    char *partial; /* where the files are written until the commit */
    int nranks;
    int rank; /* being written, -1 before the first */
    FILE *f;
    char *written;        /* by rank: its file is complete */
    open_request_t *reqs; /* the rank's requests not yet waited for */
    int nreqs;
    size_t cap_reqs;
};

static sc_err_t write_failed(const sc_ti_writer_t *w, const char *path)
{
    return sc_error(SC_ERR_INPUT, "%s '%s': cannot write '%s': %s", w->option, w->dir, path,
                    strerror(errno));
}

/* 1 if `dir` is missing or an empty folder, 0 if it holds something, -1
 * (errno set) if it is not a folder or cannot be read. */
static int free_folder(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return errno == ENOENT ? 1 : -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int empty = 1;
    for (struct dirent *e; empty && (e = readdir(d));)
        empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    closedir(d);
    return empty;
}

sc_err_t sc_ti_writer_open(const char *option, const char *dir, int nranks, sc_ti_writer_t **out)
{
    *out = NULL;
    int free_ = free_folder(dir);
    if (free_ < 0)
        return sc_error(SC_ERR_INPUT, "%s '%s': %s; give a new folder for the traces", option, dir,
                        strerror(errno));
    if (!free_)
        return sc_error(SC_ERR_INPUT,
                        "%s '%s': the folder is not empty; give a new folder for "
                        "the traces (one file per rank and index.txt)",
                        option, dir);
    sc_ti_writer_t *w = calloc(1, sizeof *w);
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/')
        len--;
    if (w) {
        w->dir = strndup(dir, len);
        w->partial = malloc(len + 16);
        w->written = calloc((size_t)nranks, 1);
    }
    if (!w || !w->dir || !w->partial || !w->written) {
        sc_ti_writer_abort(w);
        return sc_error(SC_ERR_RUN, "out of memory");
    }
    w->option = option;
    w->nranks = nranks;
    w->rank = -1;
    snprintf(w->partial, len + 16, "%s.partXXXXXX", w->dir);
    if (!mkdtemp(w->partial)) {
        sc_err_t err =
            sc_error(SC_ERR_INPUT, "%s '%s': cannot make a folder beside it: %s%s", option, dir,
                     strerror(errno), errno == ENOENT ? " (its parent folder does not exist)" : "");
        w->partial[0] = '\0';
        sc_ti_writer_abort(w);
        return err;
    }
    *out = w;
    return SC_OK;
}

/* Rank `rank`'s action file in folder `dir`, as the index names it. */
static void rank_file(const char *dir, int rank, char *path, size_t len)
{
    snprintf(path, len, "%s/rank-%d.txt", dir, rank);
}

static sc_err_t end_rank(sc_ti_writer_t *w)
{
    if (!w->f)
        return SC_OK;
    /* Requests never waited for are SMPI's to end at finalize, as simcoll
     * ends them. */
    fprintf(w->f, "%d finalize\n", w->rank);
    int bad = ferror(w->f);
    bad |= fclose(w->f) != 0;
    w->f = NULL;
    if (bad) {
        char path[PATH_MAX];
        rank_file(w->partial, w->rank, path, sizeof path);
        return write_failed(w, path);
    }
    w->written[w->rank] = 1;
    return SC_OK;
}

sc_err_t sc_ti_writer_rank(sc_ti_writer_t *w, int rank)
{
    sc_err_t err = end_rank(w);
    if (err)
        return err;
    char path[PATH_MAX];
    rank_file(w->partial, rank, path, sizeof path);
    if (!(w->f = fopen(path, "w")))
        return write_failed(w, path);
    w->rank = rank;
    w->nreqs = 0;
    fprintf(w->f, "%d init\n", rank);
    return SC_OK;
}

/* ---- Events ---- */

/* SimGrid's datatype of `elem` bytes an element, -1 if none. */
static int datatype_of(uint64_t elem)
{
    switch (elem) {
    case 8: return 0; /* MPI_DOUBLE */
    case 4: return 1; /* MPI_INT */
    case 2: return 3; /* MPI_SHORT */
    case 1: return TI_BYTE;
    case 16: return 14; /* MPI_LONG_DOUBLE */
    default: return -1;
    }
}

/* A reduction's vector as COUNT and DATATYPE: elements of their own
 * datatype where SimGrid has one, else bytes. */
static void reduction_count(const sc_tev_t *ev, uint64_t *count, int *type)
{
    int t = datatype_of(ev->elem);
    if (t >= 0 && ev->elem && ev->bytes % ev->elem == 0) {
        *count = ev->bytes / ev->elem;
        *type = t;
    } else {
        *count = ev->bytes;
        *type = TI_BYTE;
    }
}

static sc_err_t refuse(const sc_ti_writer_t *w, const char *where, const char *why)
{
    return sc_error(SC_ERR_INPUT, "%s '%s': %s: %s", w->option, w->dir, where, why);
}

static sc_err_t remember(sc_ti_writer_t *w, uint64_t id, int src, int dst, int tag)
{
    open_request_t *reqs = sc_grow(w->reqs, (size_t)w->nreqs, &w->cap_reqs, 16, sizeof *w->reqs);
    if (!reqs)
        return sc_error(SC_ERR_RUN, "out of memory");
    w->reqs = reqs;
    w->reqs[w->nreqs++] = (open_request_t){id, src, dst, tag};
    return SC_OK;
}

/* "wait" or "test" of each request, named by (source, destination, tag);
 * a wait forgets them. */
static void name_requests(sc_ti_writer_t *w, const sc_tev_t *ev, const char *action)
{
    for (int i = 0; i < ev->nreqs; i++)
        for (int k = w->nreqs - 1; k >= 0; k--) {
            open_request_t *q = &w->reqs[k];
            if (q->id != ev->reqs[i])
                continue;
            fprintf(w->f, "%d %s %d %d %d\n", w->rank, action, q->src, q->dst, q->tag);
            if (!strcmp(action, "wait")) {
                memmove(q, q + 1, (size_t)(w->nreqs - k - 1) * sizeof *q);
                w->nreqs--;
            }
            break;
        }
}

static void put_counts(FILE *f, const uint64_t *counts, int n)
{
    for (int i = 0; i < n; i++)
        fprintf(f, " %" PRIu64, counts ? counts[i] : 0);
}

/* SMPI reads a collective's counts as int. */
static int counts_fit(const sc_tev_t *ev, int p)
{
    if (ev->bytes > INT_MAX)
        return 0;
    for (int i = 0; ev->counts && i < p; i++)
        if (ev->counts[i] > INT_MAX)
            return 0;
    return 1;
}

static sc_err_t write_collective(sc_ti_writer_t *w, const sc_tev_t *ev, const char *where)
{
    if (!counts_fit(ev, w->nranks))
        return refuse(w, where,
                      "a collective of more than 2147483647 bytes a block: SMPI's "
                      "format reads its counts as int");
    FILE *f = w->f;
    int p = w->nranks, type;
    uint64_t n;
    fprintf(f, "%d ", w->rank);
    switch (ev->coll) {
    case SC_TCOLL_BARRIER: fputs("barrier", f); break;
    case SC_TCOLL_BCAST: fprintf(f, "bcast %" PRIu64 " %d %d", ev->bytes, ev->root, TI_BYTE); break;
    case SC_TCOLL_REDUCE:
        reduction_count(ev, &n, &type);
        fprintf(f, "reduce %" PRIu64 " 0 %d %d", n, ev->root, type);
        break;
    case SC_TCOLL_ALLREDUCE:
    case SC_TCOLL_SCAN:
    case SC_TCOLL_EXSCAN:
        reduction_count(ev, &n, &type);
        fprintf(f, "%s %" PRIu64 " 0 %d", sc_tcoll_name(ev->coll), n, type);
        break;
    case SC_TCOLL_ALLGATHER:
    case SC_TCOLL_ALLTOALL:
        fprintf(f, "%s %" PRIu64 " %" PRIu64 " %d %d", sc_tcoll_name(ev->coll), ev->bytes,
                ev->bytes, TI_BYTE, TI_BYTE);
        break;
    case SC_TCOLL_GATHER:
    case SC_TCOLL_SCATTER:
        fprintf(f, "%s %" PRIu64 " %" PRIu64 " %d %d %d", sc_tcoll_name(ev->coll), ev->bytes,
                ev->bytes, ev->root, TI_BYTE, TI_BYTE);
        break;
    case SC_TCOLL_GATHERV:
    case SC_TCOLL_ALLGATHERV: {
        int all = ev->coll == SC_TCOLL_ALLGATHERV;
        if (!ev->counts && (all || w->rank == ev->root))
            return refuse(w, where,
                          "the trace does not say how much each rank gives to this "
                          "rank's gather, which SMPI's format needs");
        fprintf(f, "%s %" PRIu64, sc_tcoll_name(ev->coll), ev->bytes);
        put_counts(f, ev->counts, p);
        if (!all)
            fprintf(f, " %d", ev->root);
        fprintf(f, " %d %d", TI_BYTE, TI_BYTE);
        break;
    }
    case SC_TCOLL_SCATTERV:
        if (!ev->counts && w->rank == ev->root)
            return refuse(w, where,
                          "the trace does not say how much the root gives each rank, "
                          "which SMPI's format needs");
        fputs("scatterv", f);
        put_counts(f, ev->counts, p);
        fprintf(f, " %" PRIu64 " %d %d %d", ev->bytes, ev->root, TI_BYTE, TI_BYTE);
        break;
    case SC_TCOLL_REDUCE_SCATTER:
        if (!ev->counts)
            return refuse(w, where,
                          "the trace does not say each rank's block of the "
                          "reduce_scatter, which SMPI's format needs");
        fputs("reducescatter", f);
        put_counts(f, ev->counts, p);
        fprintf(f, " 0 %d", TI_BYTE);
        break;
    case SC_TCOLL_ALLTOALLV:
        return refuse(w, where,
                      "an alltoallv needs its receive counts (a simcoll bug: "
                      "sc_ti_writer_alltoallv writes it)");
    }
    fputc('\n', f);
    return SC_OK;
}

sc_err_t sc_ti_writer_event(sc_ti_writer_t *w, const sc_tev_t *ev, const char *where)
{
    FILE *f = w->f;
    int recv = ev->kind == SC_TEV_RECV || ev->kind == SC_TEV_IRECV;
    if (recv && (ev->peer == SC_TRACE_ANY || ev->tag == SC_TRACE_ANY))
        return refuse(w, where,
                      "a receive from any source or of any tag cannot be written: "
                      "SMPI's format names a request by its source, destination and tag");
    switch (ev->kind) {
    case SC_TEV_COMPUTE:
        if (ev->flops > 0)
            fprintf(f, "%d compute %.17g\n", w->rank, ev->flops);
        else if (ev->seconds > 0)
            fprintf(f, "%d sleep %.17g\n", w->rank, ev->seconds);
        return SC_OK;
    case SC_TEV_SEND:
    case SC_TEV_RECV:
    case SC_TEV_ISEND:
    case SC_TEV_IRECV: {
        static const char *const names[] = {[SC_TEV_SEND] = "send",
                                            [SC_TEV_RECV] = "recv",
                                            [SC_TEV_ISEND] = "isend",
                                            [SC_TEV_IRECV] = "irecv"};
        fprintf(f, "%d %s %d %d %" PRIu64 " %d\n", w->rank, names[ev->kind], ev->peer, ev->tag,
                ev->bytes, TI_BYTE);
        if (ev->kind == SC_TEV_ISEND)
            return remember(w, ev->req, w->rank, ev->peer, ev->tag);
        if (ev->kind == SC_TEV_IRECV)
            return remember(w, ev->req, ev->peer, w->rank, ev->tag);
        return SC_OK;
    }
    case SC_TEV_WAIT: name_requests(w, ev, "wait"); return SC_OK;
    case SC_TEV_TEST: name_requests(w, ev, "test"); return SC_OK;
    case SC_TEV_COLL: return write_collective(w, ev, where);
    }
    return SC_OK;
}

sc_err_t sc_ti_writer_alltoallv(sc_ti_writer_t *w, const sc_tev_t *ev, const uint64_t *recv,
                                const char *where)
{
    int p = w->nranks;
    uint64_t send_sum = 0, recv_sum = 0;
    for (int i = 0; i < p; i++) {
        send_sum += ev->counts[i];
        recv_sum += recv[i];
    }
    if (send_sum > INT_MAX || recv_sum > INT_MAX)
        return refuse(w, where,
                      "an alltoallv of more than 2147483647 bytes: SMPI's format "
                      "reads its counts as int");
    fprintf(w->f, "%d alltoallv %" PRIu64, w->rank, send_sum);
    put_counts(w->f, ev->counts, p);
    fprintf(w->f, " %" PRIu64, recv_sum);
    put_counts(w->f, recv, p);
    fprintf(w->f, " %d %d\n", TI_BYTE, TI_BYTE);
    return SC_OK;
}

/* ---- The folder ---- */

void sc_ti_folder_remove(const char *dir, int nranks)
{
    char path[PATH_MAX];
    for (int r = 0; r < nranks; r++) {
        rank_file(dir, r, path, sizeof path);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/index.txt", dir);
    unlink(path);
    rmdir(dir);
}

static void remove_partial(sc_ti_writer_t *w)
{
    if (w->partial && w->partial[0])
        sc_ti_folder_remove(w->partial, w->nranks);
}

static void writer_free(sc_ti_writer_t *w)
{
    if (!w)
        return;
    if (w->f)
        fclose(w->f);
    free(w->dir);
    free(w->partial);
    free(w->written);
    free(w->reqs);
    free(w);
}

void sc_ti_writer_abort(sc_ti_writer_t *w)
{
    if (!w)
        return;
    if (w->f) {
        fclose(w->f);
        w->f = NULL;
    }
    remove_partial(w);
    writer_free(w);
}

sc_err_t sc_ti_writer_commit(sc_ti_writer_t *w)
{
    sc_err_t err = end_rank(w);
    char path[PATH_MAX];
    for (int r = 0; r < w->nranks && !err; r++)
        if (!w->written[r])
            err = sc_error(SC_ERR_RUN, "%s '%s': rank %d was not written (a simcoll bug)",
                           w->option, w->dir, r);
    if (!err) {
        /* Paths relative to the index's folder, where smpirun is run. */
        snprintf(path, sizeof path, "%s/index.txt", w->partial);
        FILE *index = fopen(path, "w");
        if (!index)
            err = write_failed(w, path);
        for (int r = 0; index && r < w->nranks; r++)
            fprintf(index, "rank-%d.txt\n", r);
        if (index && (ferror(index) | (fclose(index) != 0)))
            err = write_failed(w, path);
    }
    /* An empty folder of that name (free_folder) is replaced. */
    if (!err && rename(w->partial, w->dir) != 0)
        err =
            sc_error(SC_ERR_INPUT, "%s '%s': cannot write: %s", w->option, w->dir, strerror(errno));
    if (err)
        remove_partial(w);
    writer_free(w);
    return err;
}

/* ---- A trace ---- */

/* Whether communicator `comm` is the world in the world's order: SMPI's
 * collectives are MPI_COMM_WORLD's. */
static int is_world(const sc_trace_t *trace, int comm)
{
    const sc_trace_comm_t *c = sc_trace_comm(trace, comm);
    if (c->size != sc_trace_ranks(trace))
        return 0;
    for (int i = 0; i < c->size; i++)
        if (c->members[i] != i)
            return 0;
    return 1;
}

/* Every alltoallv's counts, [call][sender][receiver]: a rank's event says
 * what it sends, SMPI's format also what it receives. */
typedef struct {
    uint64_t *counts;
    long calls;
} alltoallv_t;

/* At most this many counts are held (1 GiB). */
#define MAX_ALLTOALLV_COUNTS (1L << 27)

static sc_err_t read_alltoallvs(sc_trace_t *trace, long calls, alltoallv_t *a)
{
    long p = sc_trace_ranks(trace);
    a->calls = calls;
    if (calls > MAX_ALLTOALLV_COUNTS / p / p)
        return sc_error(SC_ERR_INPUT,
                        "--export-ti: %ld alltoallv calls of %ld ranks would hold "
                        "%ld counts, more than %ld: the trace is too large to write",
                        calls, p, calls * p * p, MAX_ALLTOALLV_COUNTS);
    if (!(a->counts = calloc((size_t)(calls * p * p), sizeof *a->counts)))
        return sc_error(SC_ERR_RUN, "out of memory");
    sc_err_t err = SC_OK;
    for (int r = 0; r < p && !err; r++) {
        sc_trace_cursor_t *cursor = NULL;
        if ((err = sc_trace_cursor_open(trace, r, &cursor)))
            break;
        sc_tev_t ev;
        long k = 0;
        int got;
        while ((got = sc_trace_next(cursor, &ev)) > 0)
            if (ev.kind == SC_TEV_COLL && ev.coll == SC_TCOLL_ALLTOALLV && ev.counts && k < calls)
                memcpy(&a->counts[(k++ * p + r) * p], ev.counts, (size_t)p * sizeof *ev.counts);
        if (got < 0)
            err = SC_ERR_INPUT;
        sc_trace_cursor_close(cursor);
    }
    return err;
}

/* What rank r receives in the k-th alltoallv, by sender. */
static void alltoallv_receives(const alltoallv_t *a, long k, int r, int p, uint64_t *recv)
{
    for (int s = 0; s < p; s++)
        recv[s] = k < a->calls ? a->counts[(k * p + s) * p + r] : 0;
}

static sc_err_t export_rank(sc_ti_writer_t *w, sc_trace_t *trace, int rank, double compute_scale,
                            const alltoallv_t *a, uint64_t *recv)
{
    sc_trace_cursor_t *cursor = NULL;
    sc_err_t err = sc_trace_cursor_open(trace, rank, &cursor);
    if (!err)
        err = sc_ti_writer_rank(w, rank);
    sc_tev_t ev;
    int got = 0;
    long alltoallvs = 0;
    while (!err && (got = sc_trace_next(cursor, &ev)) > 0) {
        const char *where = sc_trace_cursor_where(cursor);
        if (ev.kind == SC_TEV_COLL && !is_world(trace, ev.comm)) {
            err = refuse(w, where,
                         "a collective on a communicator other than MPI_COMM_WORLD "
                         "cannot be written: SMPI's format names no communicator");
            break;
        }
        if (ev.kind == SC_TEV_COLL && ev.coll == SC_TCOLL_ALLTOALLV) {
            if (!ev.counts) {
                err = refuse(w, where,
                             "the trace does not say what this rank's alltoallv sends "
                             "each rank, which SMPI's format needs");
                break;
            }
            alltoallv_receives(a, alltoallvs++, rank, sc_trace_ranks(trace), recv);
            err = sc_ti_writer_alltoallv(w, &ev, recv, where);
            continue;
        }
        if (ev.kind == SC_TEV_COMPUTE)
            ev.seconds /= compute_scale;
        if (ev.kind >= SC_TEV_SEND && ev.kind <= SC_TEV_IRECV && ev.peer != SC_TRACE_ANY)
            ev.peer = sc_trace_world_rank(trace, ev.comm, ev.peer);
        err = sc_ti_writer_event(w, &ev, where);
    }
    if (!err && got < 0)
        err = SC_ERR_INPUT; /* recorded by sc_trace_next */
    if (cursor)
        sc_trace_cursor_close(cursor);
    return err;
}

sc_err_t sc_trace_export_ti(sc_trace_t *trace, const sc_trace_summary_t *summary,
                            double compute_scale, const char *option, const char *dir)
{
    int p = sc_trace_ranks(trace);
    alltoallv_t a = {NULL, 0};
    uint64_t *recv = malloc((size_t)p * sizeof *recv);
    sc_ti_writer_t *w = NULL;
    sc_err_t err = recv ? SC_OK : sc_error(SC_ERR_RUN, "out of memory");
    long calls = summary->collectives[SC_TCOLL_ALLTOALLV];
    if (!err && calls)
        err = read_alltoallvs(trace, calls, &a);
    if (!err)
        err = sc_ti_writer_open(option, dir, p, &w);
    for (int r = 0; !err && r < p; r++)
        err = export_rank(w, trace, r, compute_scale, &a, recv);
    free(recv);
    free(a.counts);
    if (err) {
        sc_ti_writer_abort(w);
        return err;
    }
    return sc_ti_writer_commit(w);
}
