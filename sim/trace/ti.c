/* SMPI's time-independent traces, as `smpirun -trace-ti` writes them and
 * SimGrid's smpi_replay reads them (SimGrid 3.32 and 4.1 alike:
 * src/instr/instr_private.hpp writes, src/smpi/internals/smpi_replay.cpp
 * reads). A line is "RANK ACTION ARGS...", sizes are element counts of a
 * datatype given by SimGrid's number for it, computations are flops.
 * The anchor is an action file holding every rank's lines, or an index
 * naming one file per rank: ti_anchor.c opens it; this file reads each
 * rank's lines into events.
 *
 * What SMPI's format does not say, and how it is read here as SMPI's
 * replay reads it:
 *   - collectives name no communicator: they are MPI_COMM_WORLD's, and
 *     comm_size, comm_split and comm_dup lines say nothing to replay;
 *   - a wait names its request by (source, destination, tag), and takes
 *     the oldest request so named; a test does the same without waiting;
 *     waitall takes every request the rank still has; requests left at the
 *     end are waited for;
 *   - a receive from any source is written -333 and of any tag -444;
 *   - sendRecv has no tags: 0, as SMPI replays it.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ti_anchor.h"

#define ANY_SOURCE_TI (-333)
#define ANY_TAG_TI (-444)

/* Bytes of SimGrid's datatype numbers (smpi_datatype.cpp, on x86-64),
 * -1 for derived datatypes: SMPI writes them all -1 and replays them as 0
 * bytes, the size being lost. */
static const int type_bytes[] = {
    8, 4, 1, 2, 8, 4, 1, 8, 1, 1, 2, 4, 8, 8, 16, 4, 1, 1, 2, 4, 8, 1, 2, 4, 8, 8, 16, 32, 8, 8,
    8, 16, 16, 8, 8, 8, 16, 16, 4, 4, 8, 16, 8, 16, 16, 4, 2, 4, 8, 16, 32, 1, 8, 16, 32, 0, 0,
    1, 8, 8,
};
#define NTYPES ((int)(sizeof type_bytes / sizeof *type_bytes))

/* ---- One rank ---- */

typedef struct {
    int src, dst, tag;
    uint64_t id;
} request_t;

/* What one line gives (a sendRecv gives three events). */
#define QUEUE 3

typedef struct {
    sc_trace_t *t;
    int rank;
    const char *file;
    sc_tfile_t f;
    long line;
    int elem;          /* bytes of the default datatype (init's argument) */
    request_t *reqs;   /* the rank's requests not yet waited for, oldest first */
    int nreqs, cap_reqs;
    uint64_t next_id;
    uint64_t *ids;     /* a wait's */
    int cap_ids;
    uint64_t *counts;  /* a v-collective's */
    int cap_counts;
    sc_tev_t queue[QUEUE];
    int queued, taken;
    int ended;         /* past the last line: what is left was waited for */
    long next_line;    /* of a shared file: the rank's next line kept, -1 past its last */
    char *copy;        /* of a shared file: that line, to split into fields */
    size_t copy_cap;
} ti_rank_t;

static sc_err_t ti_rank_open(sc_trace_t *t, int rank, void **state)
{
    sc_ti_anchor_t *ti = t->format;
    ti_rank_t *s = calloc(1, sizeof *s);
    if (!s)
        return sc_error(SC_ERR_RUN, "out of memory");
    s->t = t;
    s->rank = rank;
    s->file = ti->files[rank];
    s->elem = 1;
    if (ti->shared) { /* its lines are kept (open_shared, ti_anchor.c) */
        s->f = (sc_tfile_t){.fd = -1};
        s->next_line = ti->first[rank];
        *state = s;
        return SC_OK;
    }
    sc_err_t err = sc_tfile_open(&s->f, s->file, "TI trace file");
    if (err) {
        free(s);
        return err;
    }
    *state = s;
    return SC_OK;
}

static void ti_rank_close(void *state)
{
    ti_rank_t *s = state;
    sc_tfile_close(&s->f);
    free(s->copy);
    free(s->reqs);
    free(s->ids);
    free(s->counts);
    free(s);
}

static void ti_where(void *state, char *out, size_t len)
{
    ti_rank_t *s = state;
    snprintf(out, len, "%s:%ld", s->file, s->line);
}

/* The fields of one line, after the rank. */
#define MAX_FIELDS 4096
typedef struct {
    char *v[MAX_FIELDS];
    int n; /* v[0] is the action */
} fields_t;

static sc_err_t bad(ti_rank_t *s, const char *fmt, const char *what, const char *value)
{
    char message[256];
    snprintf(message, sizeof message, fmt, what, value);
    return sc_error(SC_ERR_INPUT, "%s:%ld: %s", s->file, s->line, message);
}

/* A count or size: a number SMPI reads with strtod and truncates. */
static sc_err_t number(ti_rank_t *s, const fields_t *fl, int i, const char *what, double *out)
{
    if (i >= fl->n)
        return sc_error(SC_ERR_INPUT, "%s:%ld: '%s' lacks its %s", s->file, s->line, fl->v[0],
                        what);
    char *end;
    errno = 0;
    double x = strtod(fl->v[i], &end);
    if (end == fl->v[i] || *end || !isfinite(x) || x < 0)
        return bad(s, "%s '%s' is not a number of at least 0", what, fl->v[i]);
    *out = x;
    return SC_OK;
}

static sc_err_t count(ti_rank_t *s, const fields_t *fl, int i, const char *what, uint64_t *out)
{
    double x;
    sc_err_t err = number(s, fl, i, what, &x);
    if (!err && x >= 0x1p53)
        return bad(s, "%s '%s' is beyond 2^53", what, fl->v[i]);
    if (!err)
        *out = (uint64_t)trunc(x);
    return err;
}

/* A rank or tag: an integer, -333 and -444 standing for any. */
static sc_err_t integer(ti_rank_t *s, const fields_t *fl, int i, const char *what, int *out)
{
    if (i >= fl->n)
        return sc_error(SC_ERR_INPUT, "%s:%ld: '%s' lacks its %s", s->file, s->line, fl->v[0],
                        what);
    char *end;
    errno = 0;
    long x = strtol(fl->v[i], &end, 10);
    if (end == fl->v[i] || *end || errno || x < -(1L << 30) || x > (1L << 30))
        return bad(s, "%s '%s' is not an integer", what, fl->v[i]);
    *out = (int)x;
    return SC_OK;
}

/* Bytes of an element of the datatype in field i, or the default's when
 * the line ends before it. */
static sc_err_t datatype(ti_rank_t *s, const fields_t *fl, int i, uint64_t *bytes)
{
    if (i >= fl->n) {
        *bytes = (uint64_t)s->elem;
        return SC_OK;
    }
    int id;
    if (integer(s, fl, i, "datatype", &id) || id < -1 || id >= NTYPES)
        return sc_error(SC_ERR_INPUT, "%s:%ld: datatype '%s' is not one of SimGrid's (0 to %d, "
                        "or -1 for a derived one)", s->file, s->line, fl->v[i], NTYPES - 1);
    *bytes = id < 0 ? 0 : (uint64_t)type_bytes[id];
    return SC_OK;
}

static sc_tev_t *push(ti_rank_t *s, sc_tev_kind_t kind)
{
    sc_tev_t *ev = &s->queue[s->queued++];
    *ev = (sc_tev_t){.kind = kind, .index = s->line, .began = NAN, .ended = NAN};
    return ev;
}

static int ensure(void **array, int *cap, int need, size_t each)
{
    if (need <= *cap)
        return 1;
    int grown = *cap ? *cap : 16;
    while (grown < need)
        grown *= 2;
    void *more = realloc(*array, (size_t)grown * each);
    if (!more)
        return 0;
    *array = more;
    *cap = grown;
    return 1;
}

static sc_err_t new_request(ti_rank_t *s, int src, int dst, int tag, uint64_t *id)
{
    if (!ensure((void **)&s->reqs, &s->cap_reqs, s->nreqs + 1, sizeof *s->reqs))
        return sc_error(SC_ERR_RUN, "out of memory");
    *id = s->next_id++;
    s->reqs[s->nreqs++] = (request_t){src, dst, tag, *id};
    return SC_OK;
}

static int any(int value, int wildcard)
{
    return value == wildcard ? SC_TRACE_ANY : value;
}

static sc_err_t p2p(ti_rank_t *s, const fields_t *fl, sc_tev_kind_t kind)
{
    int peer, tag = 0;
    uint64_t n = 0, elem = 0;
    sc_err_t err = integer(s, fl, 1, "peer", &peer);
    /* SimGrid 3.19 and older wrote no tag: "send PEER COUNT [TYPE]". */
    int old = fl->n <= 3;
    if (!err && !old)
        err = integer(s, fl, 2, "tag", &tag);
    if (!err)
        err = count(s, fl, old ? 2 : 3, "count", &n);
    if (!err)
        err = datatype(s, fl, old ? 3 : 4, &elem);
    if (err)
        return err;
    int recv = kind == SC_TEV_RECV || kind == SC_TEV_IRECV;
    if (peer == ANY_SOURCE_TI && !recv)
        return bad(s, "a %s to rank %s: only receives take any source", fl->v[0], fl->v[1]);
    if (tag == ANY_TAG_TI && !recv)
        return bad(s, "a %s with tag %s: only receives take any tag", fl->v[0], fl->v[2]);
    sc_tev_t *ev = push(s, kind);
    ev->peer = any(peer, ANY_SOURCE_TI);
    ev->tag = any(tag, ANY_TAG_TI);
    ev->bytes = n * elem;
    if (kind == SC_TEV_ISEND)
        return new_request(s, s->rank, peer, tag, &ev->req);
    if (kind == SC_TEV_IRECV)
        return new_request(s, peer, s->rank, tag, &ev->req);
    return SC_OK;
}

/* wait and test: the oldest request named (src, dst, tag), if any. */
static sc_err_t wait_test(ti_rank_t *s, const fields_t *fl, sc_tev_kind_t kind)
{
    int src, dst, tag;
    sc_err_t err = integer(s, fl, 1, "source", &src);
    if (!err)
        err = integer(s, fl, 2, "destination", &dst);
    if (!err)
        err = integer(s, fl, 3, "tag", &tag);
    if (err)
        return err;
    for (int i = 0; i < s->nreqs; i++) {
        request_t *q = &s->reqs[i];
        if (q->src != src || q->dst != dst || q->tag != tag)
            continue;
        if (!ensure((void **)&s->ids, &s->cap_ids, 1, sizeof *s->ids))
            return sc_error(SC_ERR_RUN, "out of memory");
        s->ids[0] = q->id;
        sc_tev_t *ev = push(s, kind);
        ev->reqs = s->ids;
        ev->nreqs = 1;
        /* A test leaves the request for a later wait, which the engine
         * finds done if the test completed it. */
        if (kind == SC_TEV_WAIT)
            memmove(q, q + 1, (size_t)(--s->nreqs - i) * sizeof *q);
        return SC_OK;
    }
    return SC_OK; /* as SMPI: a test already completed it */
}

/* Every request left. */
static sc_err_t wait_all(ti_rank_t *s)
{
    if (s->nreqs == 0)
        return SC_OK;
    if (!ensure((void **)&s->ids, &s->cap_ids, s->nreqs, sizeof *s->ids))
        return sc_error(SC_ERR_RUN, "out of memory");
    for (int i = 0; i < s->nreqs; i++)
        s->ids[i] = s->reqs[i].id;
    sc_tev_t *ev = push(s, SC_TEV_WAIT);
    ev->reqs = s->ids;
    ev->nreqs = s->nreqs;
    s->nreqs = 0;
    return SC_OK;
}

static sc_tev_t *collective(ti_rank_t *s, sc_tcoll_t coll)
{
    sc_tev_t *ev = push(s, SC_TEV_COLL);
    ev->coll = coll;
    return ev;
}

/* `n` counts from field `from` times `elem` bytes, in s->counts. */
static sc_err_t counts(ti_rank_t *s, const fields_t *fl, int from, int n, uint64_t elem,
                       const char *what, uint64_t *sum)
{
    if (!ensure((void **)&s->counts, &s->cap_counts, n, sizeof *s->counts))
        return sc_error(SC_ERR_RUN, "out of memory");
    *sum = 0;
    for (int i = 0; i < n; i++) {
        uint64_t c = 0;
        sc_err_t err = count(s, fl, from + i, what, &c);
        if (err)
            return err;
        s->counts[i] = c * elem;
        *sum += s->counts[i];
    }
    return SC_OK;
}

static int all_zero(const uint64_t *v, int n)
{
    for (int i = 0; i < n; i++)
        if (v[i])
            return 0;
    return 1;
}

static sc_err_t rooted(ti_rank_t *s, const fields_t *fl, int i, int *root)
{
    *root = 0;
    return i < fl->n ? integer(s, fl, i, "root", root) : SC_OK;
}

/* The collectives, fields as smpi_replay.cpp's parsers read them. */
static sc_err_t ti_collective(ti_rank_t *s, const fields_t *fl, const char *a, int *known)
{
    int p = s->t->nranks, root = 0;
    uint64_t n = 0, m = 0, e1 = 0, e2 = 0, sum = 0;
    sc_err_t err = SC_OK;
    sc_tev_t *ev;
    *known = 1;
    if (!strcmp(a, "barrier")) {
        collective(s, SC_TCOLL_BARRIER);
    } else if (!strcmp(a, "bcast")) {
        if (!(err = count(s, fl, 1, "count", &n)) && !(err = rooted(s, fl, 2, &root)) &&
            !(err = datatype(s, fl, 3, &e1))) {
            ev = collective(s, SC_TCOLL_BCAST);
            ev->bytes = n * e1;
            ev->root = root;
        }
    } else if (!strcmp(a, "reduce") || !strcmp(a, "allreduce") || !strcmp(a, "scan") ||
               !strcmp(a, "exscan")) {
        /* COUNT FLOPS [ROOT] [TYPE]: the flops are SMPI's reduction time,
         * which simcoll prices itself (--reduce-speed of the platform) */
        double flops;
        int has_root = !strcmp(a, "reduce");
        if (!(err = count(s, fl, 1, "count", &n)) && !(err = number(s, fl, 2, "flops", &flops)) &&
            !(err = has_root ? rooted(s, fl, 3, &root) : SC_OK) &&
            !(err = datatype(s, fl, has_root ? 4 : 3, &e1))) {
            ev = collective(s, has_root                     ? SC_TCOLL_REDUCE
                               : !strcmp(a, "allreduce")    ? SC_TCOLL_ALLREDUCE
                               : !strcmp(a, "scan")         ? SC_TCOLL_SCAN
                                                            : SC_TCOLL_EXSCAN);
            ev->bytes = n * e1;
            ev->elem = e1 ? e1 : 1;
            ev->root = root;
        }
    } else if (!strcmp(a, "allgather") || !strcmp(a, "alltoall")) {
        if (!(err = count(s, fl, 1, "send count", &n)) &&
            !(err = count(s, fl, 2, "receive count", &m)) && !(err = datatype(s, fl, 3, &e1))) {
            ev = collective(s, a[3] == 'g' ? SC_TCOLL_ALLGATHER : SC_TCOLL_ALLTOALL);
            ev->bytes = n * e1;
        }
    } else if (!strcmp(a, "gather") || !strcmp(a, "scatter")) {
        /* SC RC ROOT ST RT; smpirun leaves RC out of a gather when it is 0
         * (on every rank but the root): four fields then are SC ROOT ST RT. */
        int gather = a[0] == 'g', writer_form = gather && fl->n == 5;
        if (!(err = count(s, fl, 1, "send count", &n)) &&
            !(err = writer_form ? SC_OK : count(s, fl, 2, "receive count", &m)) &&
            !(err = rooted(s, fl, writer_form ? 2 : 3, &root)) &&
            !(err = datatype(s, fl, writer_form ? 3 : 4, &e1)) &&
            !(err = datatype(s, fl, writer_form ? 4 : 5, &e2))) {
            ev = collective(s, gather ? SC_TCOLL_GATHER : SC_TCOLL_SCATTER);
            ev->bytes = gather ? n * e1 : m * e2;
            ev->root = root;
        }
    } else if (!strcmp(a, "gatherv") || !strcmp(a, "allgatherv")) {
        int all = a[0] == 'a';
        if (!(err = count(s, fl, 1, "send count", &n)) &&
            !(err = all ? SC_OK : rooted(s, fl, 2 + p, &root)) &&
            !(err = datatype(s, fl, all ? 2 + p : 3 + p, &e1)) &&
            !(err = datatype(s, fl, all ? 3 + p : 4 + p, &e2)) &&
            !(err = counts(s, fl, 2, p, e2, "receive count", &sum))) {
            ev = collective(s, all ? SC_TCOLL_ALLGATHERV : SC_TCOLL_GATHERV);
            ev->bytes = n * e1;
            ev->root = root;
            /* the counts are the root's; other ranks write zeros */
            ev->counts = all || !all_zero(s->counts, p) ? s->counts : NULL;
        }
    } else if (!strcmp(a, "scatterv")) {
        if (!(err = count(s, fl, 1 + p, "receive count", &m)) &&
            !(err = rooted(s, fl, 2 + p, &root)) && !(err = datatype(s, fl, 3 + p, &e1)) &&
            !(err = datatype(s, fl, 4 + p, &e2)) &&
            !(err = counts(s, fl, 1, p, e1, "send count", &sum))) {
            ev = collective(s, SC_TCOLL_SCATTERV);
            ev->bytes = m * e2;
            ev->root = root;
            ev->counts = all_zero(s->counts, p) ? NULL : s->counts;
        }
    } else if (!strcmp(a, "alltoallv")) {
        /* SENDSUM SC0..SCp-1 RECVSUM RC0..RCp-1 [ST RT] */
        if (!(err = count(s, fl, 1, "send buffer", &n)) &&
            !(err = count(s, fl, 2 + p, "receive buffer", &m)) &&
            !(err = datatype(s, fl, 3 + 2 * p, &e1)) &&
            !(err = counts(s, fl, 2, p, e1, "send count", &sum))) {
            ev = collective(s, SC_TCOLL_ALLTOALLV);
            ev->bytes = sum;
            ev->counts = s->counts;
        }
    } else if (!strcmp(a, "reducescatter")) {
        /* RC0..RCp-1 FLOPS [TYPE] */
        double flops;
        if (!(err = number(s, fl, 1 + p, "flops", &flops)) &&
            !(err = datatype(s, fl, 2 + p, &e1)) &&
            !(err = counts(s, fl, 1, p, e1, "receive count", &sum))) {
            ev = collective(s, SC_TCOLL_REDUCE_SCATTER);
            ev->bytes = sum;
            ev->elem = e1 ? e1 : 1;
            ev->counts = s->counts;
        }
    } else {
        *known = 0;
    }
    return err;
}

/* Actions SMPI writes that say nothing to replay here. */
static int no_op(const char *a)
{
    return !strcmp(a, "init") || !strcmp(a, "finalize") || !strcmp(a, "comm_size") ||
           !strcmp(a, "comm_split") || !strcmp(a, "comm_dup") || !strcmp(a, "location");
}

/* Actions SMPI writes that neither it nor simcoll can replay: their
 * requests are not named (waitAny, testsome...), or they are non-blocking
 * collectives and persistent requests, whose completion is not written. */
static int unreplayable(const char *a)
{
    static const char *const names[] = {
        "waitAny", "waitany", "testany", "testall", "testsome", "waitsome", "Start",
        "Startall", "ibarrier", "ibcast", "ireduce", "iallreduce", "iscan", "iexscan",
        "igather", "igatherv", "iscatter", "iscatterv", "iallgather", "iallgatherv",
        "ialltoall", "ialltoallv", "ireducescatter", "isendRecv", "migrate", NULL};
    for (int i = 0; names[i]; i++)
        if (!strcmp(a, names[i]))
            return 1;
    return 0;
}

/* The fields of the rank's line after its rank number (the line is cut
 * up in place). */
static sc_err_t split_fields(ti_rank_t *s, char *line, fields_t *fl)
{
    fl->n = 0;
    char *tok = strtok(line, " \t");
    while ((tok = strtok(NULL, " \t")))
        if (fl->n < MAX_FIELDS)
            fl->v[fl->n++] = tok;
        else
            return sc_error(SC_ERR_INPUT, "%s:%ld: more than %d fields", s->file, s->line,
                            MAX_FIELDS);
    if (fl->n == 0)
        return sc_error(SC_ERR_INPUT, "%s:%ld: a rank and no action", s->file, s->line);
    return SC_OK;
}

/* The rank's next line of a shared file, from the lines kept. */
static sc_err_t read_kept_line(ti_rank_t *s, fields_t *fl, int *end)
{
    const sc_ti_anchor_t *ti = s->t->format;
    *end = s->next_line < 0;
    if (*end)
        return SC_OK;
    const sc_ti_kept_line_t *kept = &ti->lines[s->next_line];
    s->next_line = kept->next;
    s->line = kept->lineno;
    size_t n = strlen(ti->text + kept->at) + 1;
    if (n > s->copy_cap) {
        char *copy = realloc(s->copy, n);
        if (!copy)
            return sc_error(SC_ERR_RUN, "out of memory");
        s->copy = copy;
        s->copy_cap = n;
    }
    memcpy(s->copy, ti->text + kept->at, n);
    return split_fields(s, s->copy, fl);
}

/* Reads the next line of the rank into events on the queue. */
static sc_err_t read_line(ti_rank_t *s, fields_t *fl, int *end)
{
    const sc_ti_anchor_t *ti = s->t->format;
    if (ti->shared)
        return read_kept_line(s, fl, end);
    *end = 0;
    char *line;
    int failed = 0;
    while ((line = sc_tfile_line(&s->f, &failed))) {
        s->line++;
        if (sc_ti_says_nothing(line))
            continue;
        int r = sc_ti_rank_token(line);
        if (r < 0)
            return sc_error(SC_ERR_INPUT, "%s:%ld: '%.60s' does not start with a rank number",
                            s->file, s->line, line);
        if (r != s->rank)
            return sc_error(SC_ERR_INPUT, "%s:%ld: a line of rank %d in rank %d's file",
                            s->file, s->line, r, s->rank);
        return split_fields(s, line, fl);
    }
    if (failed)
        return SC_ERR_INPUT;
    *end = 1;
    return SC_OK;
}

static sc_err_t ti_parse(ti_rank_t *s, const fields_t *fl)
{
    const char *a = fl->v[0];
    sc_err_t err = SC_OK;
    int known;
    if (!strcmp(a, "init")) {
        /* an argument makes MPI_DOUBLE the default datatype, as in SMPI */
        s->elem = fl->n > 1 ? 8 : 1;
    } else if (no_op(a)) {
    } else if (!strcmp(a, "compute") || !strcmp(a, "sleep")) {
        double x;
        if (!(err = number(s, fl, 1, a[0] == 'c' ? "flops" : "seconds", &x))) {
            sc_tev_t *ev = push(s, SC_TEV_COMPUTE);
            if (a[0] == 'c')
                ev->flops = x;
            else
                ev->seconds = x;
        }
    } else if (!strcmp(a, "send") || !strcmp(a, "Ssend") || !strcmp(a, "ssend") ||
               !strcmp(a, "bsend")) {
        err = p2p(s, fl, SC_TEV_SEND);
    } else if (!strcmp(a, "isend") || !strcmp(a, "ISsend") || !strcmp(a, "issend") ||
               !strcmp(a, "ibsend")) {
        err = p2p(s, fl, SC_TEV_ISEND);
    } else if (!strcmp(a, "recv")) {
        err = p2p(s, fl, SC_TEV_RECV);
    } else if (!strcmp(a, "irecv")) {
        err = p2p(s, fl, SC_TEV_IRECV);
    } else if (!strcmp(a, "wait")) {
        err = fl->n == 1 ? sc_error(SC_ERR_INPUT, "%s:%ld: a wait without (source, destination, "
                                    "tag) is SimGrid 3.19's format; convert the trace with "
                                    "SimGrid's tools/simgrid_convert_TI_traces.py",
                                    s->file, s->line)
                         : wait_test(s, fl, SC_TEV_WAIT);
    } else if (!strcmp(a, "test")) {
        err = wait_test(s, fl, SC_TEV_TEST);
    } else if (!strcmp(a, "waitall")) {
        err = wait_all(s);
    } else if (!strcmp(a, "sendRecv")) {
        /* SC DST RC SRC [ST RT] */
        uint64_t sc, rc, e1, e2, a_id, b_id;
        int dst, src;
        if (!(err = count(s, fl, 1, "send count", &sc)) &&
            !(err = integer(s, fl, 2, "destination", &dst)) &&
            !(err = count(s, fl, 3, "receive count", &rc)) &&
            !(err = integer(s, fl, 4, "source", &src)) && !(err = datatype(s, fl, 5, &e1)) &&
            !(err = datatype(s, fl, 6, &e2)) &&
            !(err = new_request(s, src, s->rank, 0, &a_id)) &&
            !(err = new_request(s, s->rank, dst, 0, &b_id))) {
            sc_tev_t *ev = push(s, SC_TEV_IRECV);
            ev->peer = any(src, ANY_SOURCE_TI);
            ev->bytes = rc * e2;
            ev->req = a_id;
            ev = push(s, SC_TEV_ISEND);
            ev->peer = dst;
            ev->bytes = sc * e1;
            ev->req = b_id;
            s->nreqs -= 2;
            if (!ensure((void **)&s->ids, &s->cap_ids, 2, sizeof *s->ids))
                return sc_error(SC_ERR_RUN, "out of memory");
            s->ids[0] = a_id;
            s->ids[1] = b_id;
            ev = push(s, SC_TEV_WAIT);
            ev->reqs = s->ids;
            ev->nreqs = 2;
        }
    } else if ((err = ti_collective(s, fl, a, &known)) || known) {
    } else if (unreplayable(a)) {
        sc_trace_skip(s->t, a, 0);
    } else {
        err = sc_error(SC_ERR_INPUT, "%s:%ld: unknown action '%s' (SMPI's time-independent "
                       "actions: init, finalize, compute, sleep, send, isend, recv, irecv, "
                       "test, wait, waitall, sendRecv, barrier, bcast, reduce, allreduce, "
                       "scan, exscan, gather(v), scatter(v), allgather(v), alltoall(v), "
                       "reducescatter, comm_size, comm_split, comm_dup)",
                       s->file, s->line, a);
    }
    return err;
}

static int ti_next(void *state, sc_tev_t *ev)
{
    ti_rank_t *s = state;
    static fields_t fields; /* large: one for all ranks, used line by line */
    while (s->taken == s->queued) {
        s->taken = s->queued = 0;
        if (s->ended)
            return 0;
        int end;
        sc_err_t err = read_line(s, &fields, &end);
        if (err)
            return -1;
        if (end) {
            s->ended = 1;
            if (wait_all(s))
                return -1;
            continue;
        }
        if (ti_parse(s, &fields))
            return -1;
    }
    *ev = s->queue[s->taken++];
    if (ev->kind != SC_TEV_COMPUTE && ev->kind != SC_TEV_WAIT && ev->kind != SC_TEV_TEST)
        ev->comm = 0;
    return 1;
}

const sc_trace_reader_t sc_trace_ti_reader = {
    .name = "SMPI time-independent",
    .detect = sc_ti_anchor_detect,
    .open = sc_ti_anchor_open,
    .rank_open = ti_rank_open,
    .next = ti_next,
    .where = ti_where,
    .rank_close = ti_rank_close,
    .close = sc_ti_anchor_close,
};
