/* The communication graph of an algorithm, recorded from its own code.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "graph.h"

#include <stdlib.h>
#include <string.h>

sc_err_t sc_igraph_check(igraph_error_t code, const char *what)
{
    if (code == IGRAPH_SUCCESS)
        return SC_OK;
    return sc_error(SC_ERR_RUN, "igraph failed %s: %s", what, igraph_strerror(code));
}

const char *sc_igraph_version(void)
{
    const char *text = "?";
    igraph_version(&text, NULL, NULL, NULL);
    return text;
}

/* igraph aborts the process on errors unless told otherwise; simcoll wants
 * error codes. The C attribute table lets contraction sum edge weights
 * (partition.c); it must be in place before the first graph is made. */
static void igraph_setup(void)
{
    static int done;
    if (!done) {
        igraph_set_error_handler(igraph_error_handler_ignore);
        igraph_set_warning_handler(igraph_warning_handler_ignore);
        igraph_set_attribute_table(&igraph_cattribute_table);
        done = 1;
    }
}

/* One recorded message: from src to dst, bytes long. */
typedef struct {
    int src, dst;
    size_t bytes;
} msg_t;

typedef struct {
    msg_t *v;
    size_t n, cap;
} msgs_t;

typedef struct {
    msgs_t sent, received;
    int failed; /* out of memory or a peer out of range */
} recorder_t;

static void push(recorder_t *rec, msgs_t *list, int src, int dst, size_t bytes, int size)
{
    if (src < 0 || src >= size || dst < 0 || dst >= size) {
        rec->failed = 1;
        return;
    }
    if (list->n == list->cap) {
        size_t cap = list->cap ? 2 * list->cap : 1024;
        msg_t *v = realloc(list->v, cap * sizeof *v);
        if (!v) {
            rec->failed = 1;
            return;
        }
        list->v = v;
        list->cap = cap;
    }
    list->v[list->n++] = (msg_t){src, dst, bytes};
}

static sc_err_t rec_isend(sc_comm_t *comm, const void *buf, size_t bytes, int dst, int tag,
                          sc_request_t **req)
{
    (void)buf;
    (void)tag;
    recorder_t *rec = comm->impl;
    push(rec, &rec->sent, comm->rank, dst, bytes, comm->size);
    *req = NULL; /* complete at once */
    return SC_OK;
}

static sc_err_t rec_irecv(sc_comm_t *comm, void *buf, size_t bytes, int src, int tag,
                          sc_request_t **req)
{
    (void)buf;
    (void)tag;
    recorder_t *rec = comm->impl;
    push(rec, &rec->received, src, comm->rank, bytes, comm->size);
    *req = NULL;
    return SC_OK;
}

static sc_err_t rec_waitall(sc_comm_t *comm, int count, sc_request_t **reqs)
{
    (void)comm;
    for (int i = 0; i < count; i++)
        reqs[i] = NULL;
    return SC_OK;
}

/* Local work takes no time and leaves no edge. */
static sc_err_t rec_reduce_time(sc_comm_t *comm, size_t bytes)
{
    (void)comm;
    (void)bytes;
    return SC_OK;
}

/* Every request is complete when posted (NULL): nothing to wait for,
 * nothing left to cancel, no message waiting to be probed. */
static sc_err_t rec_waitany(sc_comm_t *comm, int count, sc_request_t **reqs, int *index,
                            int *source, int complete)
{
    (void)comm;
    (void)complete;
    (void)count;
    (void)reqs;
    *index = -1;
    if (source)
        *source = -1;
    return SC_OK;
}

static sc_err_t rec_test(sc_comm_t *comm, sc_request_t **req, int *flag)
{
    (void)comm;
    *req = NULL;
    *flag = 1;
    return SC_OK;
}

static sc_err_t rec_cancel(sc_comm_t *comm, sc_request_t **req, int *cancelled)
{
    (void)comm;
    *req = NULL;
    *cancelled = 0;
    return SC_OK;
}

static sc_err_t rec_request_free(sc_comm_t *comm, sc_request_t **req)
{
    (void)comm;
    *req = NULL;
    return SC_OK;
}

static sc_err_t rec_iprobe(sc_comm_t *comm, int src, int tag, int *flag, int *source,
                           size_t *bytes)
{
    (void)comm;
    (void)src;
    (void)tag;
    (void)source;
    (void)bytes;
    *flag = 0;
    return SC_OK;
}

static const sc_transport_t recording_transport = {
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

static int by_pair(const void *x, const void *y);

/* qsort wants a valid array even for zero elements. */
static void sort_messages(msgs_t *list)
{
    if (list->n)
        qsort(list->v, list->n, sizeof *list->v, by_pair);
}

static int by_pair(const void *x, const void *y)
{
    const msg_t *a = x, *b = y;
    if (a->src != b->src)
        return a->src < b->src ? -1 : 1;
    if (a->dst != b->dst)
        return a->dst < b->dst ? -1 : 1;
    return a->bytes < b->bytes ? -1 : a->bytes > b->bytes;
}

/* Both lists sorted: the sends must be exactly the receives. */
static int same_messages(const msgs_t *a, const msgs_t *b)
{
    if (a->n != b->n)
        return 0;
    for (size_t i = 0; i < a->n; i++)
        if (by_pair(&a->v[i], &b->v[i]) != 0)
            return 0;
    return 1;
}

/* Folds the sent messages into undirected edges {min, max} in place
 * (reusing the array); returns the number of edges of nonzero weight. */
static size_t fold_edges(msgs_t *sent)
{
    for (size_t i = 0; i < sent->n; i++) {
        msg_t *m = &sent->v[i];
        if (m->src > m->dst) {
            int t = m->src;
            m->src = m->dst;
            m->dst = t;
        }
    }
    sort_messages(sent);
    size_t edges = 0;
    for (size_t i = 0; i < sent->n;) {
        msg_t e = sent->v[i];
        for (i++; i < sent->n && sent->v[i].src == e.src && sent->v[i].dst == e.dst; i++)
            e.bytes += sent->v[i].bytes;
        if (e.bytes > 0 && e.src != e.dst)
            sent->v[edges++] = e;
    }
    return edges;
}

sc_err_t sc_graph_recordable(const sc_algo_t *algo)
{
    if (algo->needs & SC_DATA_DEPENDENT)
        return sc_error(SC_ERR_INPUT,
                        "%s sends messages that depend on the data, so it has no fixed "
                        "communication graph to partition or cut; place its ranks with "
                        "--mapping block, cyclic or a mapping file",
                        algo->name);
    if (sc_algo_is_added(algo))
        return sc_error(SC_ERR_INPUT,
                        "%s is an algorithm of your own (--load): recording its graph would "
                        "run it in simcoll's own process, where a crash in it would take "
                        "simcoll down; place its ranks with --mapping block, cyclic or a "
                        "mapping file",
                        algo->name);
    return SC_OK;
}

sc_err_t sc_graph_record(const sc_algo_t *algo, int p, int root, sc_graph_t *graph)
{
    return sc_graph_record_placed(algo, p, root, NULL, graph);
}

sc_err_t sc_graph_record_placed(const sc_algo_t *algo, int p, int root, const int *node_of,
                                sc_graph_t *graph)
{
    memset(graph, 0, sizeof *graph);
    sc_err_t fixed = sc_graph_recordable(algo);
    if (fixed)
        return fixed;
    igraph_setup();
    recorder_t rec = {{NULL, 0, 0}, {NULL, 0, 0}, 0};
    sc_err_t err = SC_OK;
    sc_scratch_t *scratch = sc_scratch_create();
    int reduction = sc_algo_is_reduction(algo);
    size_t bytes = reduction ? (size_t)p * sc_type_size(SC_TYPE_INT) : 1;
    void *area = scratch ? sc_scratch_get(scratch, reduction ? bytes : (size_t)p) : NULL;
    if (!area) {
        err = sc_error(SC_ERR_RUN, "out of memory recording %s", algo->name);
        goto cleanup;
    }
    for (int r = 0; r < p && !err && !rec.failed; r++) {
        sc_comm_t comm = {.rank = r, .size = p, .transport = &recording_transport, .impl = &rec,
                          .scratch = scratch, .node_of = node_of};
        sc_coll_args_t args = {.sendbuf = area, .recvbuf = area, .bytes = bytes, .root = root,
                               .op = SC_OP_SUM, .type = SC_TYPE_INT};
        err = algo->run(&comm, &args);
    }
    if (!err && rec.failed)
        err = sc_error(SC_ERR_RUN, "recording %s on %d ranks: out of memory or a rank out of range",
                       algo->name, p);
    if (err)
        goto cleanup;
    sort_messages(&rec.sent);
    sort_messages(&rec.received);
    if (!same_messages(&rec.sent, &rec.received)) {
        err = sc_error(SC_ERR_RUN,
                       "%s on %d ranks: recorded sends and receives differ, so its messages "
                       "depend on data or timing and its graph cannot be recorded",
                       algo->name, p);
        goto cleanup;
    }

    size_t nedges = fold_edges(&rec.sent);
    igraph_vector_int_t ends;
    if ((err = sc_igraph_check(igraph_vector_int_init(&ends, (igraph_integer_t)(2 * nedges)),
                               "allocating the edge list")))
        goto cleanup;
    if ((err = sc_igraph_check(igraph_vector_init(&graph->weight, (igraph_integer_t)nedges),
                               "allocating the weights"))) {
        igraph_vector_int_destroy(&ends);
        goto cleanup;
    }
    for (size_t e = 0; e < nedges; e++) {
        VECTOR(ends)[2 * e] = rec.sent.v[e].src;
        VECTOR(ends)[2 * e + 1] = rec.sent.v[e].dst;
        VECTOR(graph->weight)[e] = (double)rec.sent.v[e].bytes;
        graph->total_weight += (double)rec.sent.v[e].bytes;
    }
    err = sc_igraph_check(igraph_create(&graph->graph, &ends, p, IGRAPH_UNDIRECTED),
                          "creating the communication graph");
    igraph_vector_int_destroy(&ends);
    if (err)
        igraph_vector_destroy(&graph->weight);
    else
        graph->size = p;
cleanup:
    free(rec.sent.v);
    free(rec.received.v);
    sc_scratch_destroy(scratch);
    return err;
}

void sc_graph_destroy(sc_graph_t *graph)
{
    if (graph->size) {
        igraph_destroy(&graph->graph);
        igraph_vector_destroy(&graph->weight);
    }
    memset(graph, 0, sizeof *graph);
}

double sc_graph_cut(const sc_graph_t *graph, const int *node_of_position)
{
    double cut = 0;
    igraph_integer_t m = igraph_ecount(&graph->graph);
    for (igraph_integer_t e = 0; e < m; e++)
        if (node_of_position[IGRAPH_FROM(&graph->graph, e)] !=
            node_of_position[IGRAPH_TO(&graph->graph, e)])
            cut += VECTOR(graph->weight)[e];
    return cut;
}
