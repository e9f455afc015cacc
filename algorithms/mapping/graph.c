/* The communication graph of an algorithm: its schedule, recorded from its
 * own code one rank at a time (algorithms/schedule.h), summed by pair.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "graph.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/schedule.h"

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

/* The messages from src to dst, tallied: how many, their bytes, and the
 * sum of their squared sizes (modulo 2^64). Equal tallies on both sides
 * stand for equal messages: a different set of sizes with the same count,
 * sum and sum of squares is not what a data-dependent algorithm produces
 * by accident. Tallying instead of keeping every message keeps the memory
 * to the pairs that talk: ring allgather at 65,536 ranks sends 4.3e9
 * messages over 65,536 pairs. */
typedef struct {
    int src, dst;
    uint64_t messages, bytes, squares;
} pair_t;

typedef struct {
    pair_t *v;
    size_t n, cap;
} pairs_t;

/* The peers of the rank recorded last, one tally per peer: an
 * open-addressing table keyed by peer, emptied when the rank is done. */
typedef struct {
    pair_t *slot; /* src < 0: empty */
    size_t cap;   /* a power of two */
    size_t used;
    size_t last; /* the slot of the latest peer: most steps reuse it */
} tally_t;

/* Of the ranks done: every pair sent, and a digest of the pairs of each
 * side (pair_digest) to check that the sends are exactly the receives.
 * A digest, not a second list: the receives' list and its sort doubled the
 * recording's memory (2.8 GB at a million ranks of Bruck, the peak of the
 * whole run), only to be compared. */
typedef struct {
    uint64_t sum; /* of pair_digest, modulo 2^64: the same in any order */
    size_t pairs;
} digest_t;

/* When only cuts are wanted (sc_graph_count_cuts): the bytes sent
 * between positions of different units, for each of n assignments of
 * positions to units, and in all, added up as the ranks are recorded. */
typedef struct {
    const int *const *unit_of;
    int n;
    uint64_t *cut;
    uint64_t total;
} counts_t;

typedef struct {
    tally_t sends, receives; /* of the rank recorded last */
    pairs_t sent;            /* unless counts */
    counts_t *counts;        /* NULL: keep every pair sent in `sent` */
    digest_t sent_digest, received_digest;
    int failed; /* out of memory or a peer out of range */
} recorder_t;

/* SplitMix64's finalizer (Steele, Lea, Flood, OOPSLA 2014): every bit of
 * x moves about half of the result's. */
static uint64_t mix64(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

/* A pair's tally hashed whole. Summed over a side's pairs, two sides that
 * differ in any pair's ends or tally agree with probability about 2^-64. */
static uint64_t pair_digest(const pair_t *m)
{
    uint64_t h = mix64((uint64_t)(uint32_t)m->src << 32 | (uint32_t)m->dst);
    h = mix64(h ^ m->messages);
    h = mix64(h ^ m->bytes);
    return mix64(h ^ m->squares);
}

static int tally_grow(tally_t *t)
{
    size_t cap = t->cap ? 2 * t->cap : 16;
    pair_t *slot = malloc(cap * sizeof *slot);
    if (!slot)
        return 0;
    for (size_t i = 0; i < cap; i++)
        slot[i].src = -1;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slot[i].src >= 0) {
            size_t k = (size_t)(t->slot[i].src ^ t->slot[i].dst) & (cap - 1);
            while (slot[k].src >= 0)
                k = (k + 1) & (cap - 1);
            slot[k] = t->slot[i];
        }
    free(t->slot);
    t->slot = slot;
    t->cap = cap;
    t->last = 0;
    return 1;
}

static void tally(recorder_t *rec, tally_t *t, int src, int dst, size_t bytes, int size)
{
    if (src < 0 || src >= size || dst < 0 || dst >= size) {
        rec->failed = 1;
        return;
    }
    if (2 * (t->used + 1) > t->cap && !tally_grow(t)) {
        rec->failed = 1;
        return;
    }
    size_t k = t->last;
    if (t->slot[k].src != src || t->slot[k].dst != dst) {
        /* One end is the rank running: hashing both spreads the other. */
        k = (size_t)(src ^ dst) & (t->cap - 1);
        while (t->slot[k].src >= 0 && (t->slot[k].src != src || t->slot[k].dst != dst))
            k = (k + 1) & (t->cap - 1);
        if (t->slot[k].src < 0) {
            t->slot[k] = (pair_t){src, dst, 0, 0, 0};
            t->used++;
        }
        t->last = k;
    }
    t->slot[k].messages++;
    t->slot[k].bytes += bytes;
    t->slot[k].squares += (uint64_t)bytes * bytes;
}

static int by_pair(const void *x, const void *y)
{
    const pair_t *a = x, *b = y;
    if (a->src != b->src)
        return a->src < b->src ? -1 : 1;
    return (a->dst > b->dst) - (a->dst < b->dst);
}

/* qsort wants a valid array even for zero elements. */
static void sort_pairs(pair_t *v, size_t n)
{
    if (n)
        qsort(v, n, sizeof *v, by_pair);
}

/* Sorts the list by src, keeping the order of equal ones: a counting sort
 * over the p ranks, since the lists hold millions of pairs (a comparison
 * sort of them took most of the recording time). 0 if out of memory. */
static int sort_by_src(pairs_t *list, int p)
{
    size_t *start = calloc((size_t)p + 1, sizeof *start);
    pair_t *sorted = malloc((list->n ? list->n : 1) * sizeof *sorted);
    if (!start || !sorted) {
        free(start);
        free(sorted);
        return 0;
    }
    for (size_t i = 0; i < list->n; i++)
        start[list->v[i].src + 1]++;
    for (int r = 0; r < p; r++)
        start[r + 1] += start[r];
    for (size_t i = 0; i < list->n; i++)
        sorted[start[list->v[i].src]++] = list->v[i];
    free(start);
    free(list->v);
    list->v = sorted;
    list->cap = list->n ? list->n : 1;
    return 1;
}

/* Adds a pair sent to the counts: its bytes to the total and to the cut of
 * every assignment that puts its ends in different units (a rank's
 * messages to itself are no edge of the graph). */
static void count_pair(counts_t *counts, const pair_t *m)
{
    if (m->src == m->dst)
        return;
    counts->total += m->bytes;
    for (int k = 0; k < counts->n; k++)
        if (counts->unit_of[k][m->src] != counts->unit_of[k][m->dst])
            counts->cut[k] += m->bytes;
}

/* Adds the rank's tallies of one side (its sends, or its receives) to
 * that side's digest and, for the sends, to the list of all pairs or to
 * the counts, and empties the table. */
static void tally_flush(recorder_t *rec, int sends)
{
    tally_t *t = sends ? &rec->sends : &rec->receives;
    digest_t *digest = sends ? &rec->sent_digest : &rec->received_digest;
    counts_t *counts = sends ? rec->counts : NULL;
    pairs_t *all = sends && !counts ? &rec->sent : NULL;
    if (t->used == 0) /* nothing to move; all->v may still be NULL */
        return;
    if (all && all->n + t->used > all->cap) {
        size_t cap = all->cap ? 2 * all->cap : 1024;
        while (cap < all->n + t->used)
            cap *= 2;
        pair_t *v = realloc(all->v, cap * sizeof *v);
        if (!v) {
            rec->failed = 1;
            return;
        }
        all->v = v;
        all->cap = cap;
    }
    for (size_t i = 0; i < t->cap && t->used; i++)
        if (t->slot[i].src >= 0) {
            digest->sum += pair_digest(&t->slot[i]);
            digest->pairs++;
            if (all)
                all->v[all->n++] = t->slot[i];
            if (counts)
                count_pair(counts, &t->slot[i]);
            t->slot[i].src = -1;
            t->used--;
        }
}

/* Tallies rank r's recorded ops: what it sends and what it receives. */
static void tally_ops(recorder_t *rec, const sc_schedule_t *sched, int r, int p)
{
    for (long i = sched->op_start[0]; i < sched->op_start[1]; i++) {
        const sc_sched_op_t *op = &sched->ops[i];
        if (op->kind == SC_OP_SEND)
            tally(rec, &rec->sends, r, op->peer, (size_t)op->u.bytes, p);
        else if (op->kind == SC_OP_RECV)
            tally(rec, &rec->receives, op->peer, r, (size_t)op->u.bytes, p);
    }
}

/* Folds the sent pairs, in any order, into undirected edges {min, max},
 * sorted, in place (reusing the array); returns the number of edges of
 * nonzero weight, or -1 if out of memory. */
static long fold_edges(pairs_t *sent, int p)
{
    for (size_t i = 0; i < sent->n; i++) {
        pair_t *m = &sent->v[i];
        if (m->src > m->dst) {
            int t = m->src;
            m->src = m->dst;
            m->dst = t;
        }
    }
    if (!sort_by_src(sent, p))
        return -1;
    /* Each rank's edges: those it sent, then those sent to it. */
    for (size_t i = 0, j; i < sent->n; i = j) {
        for (j = i + 1; j < sent->n && sent->v[j].src == sent->v[i].src; j++)
            ;
        sort_pairs(sent->v + i, j - i);
    }
    size_t edges = 0;
    for (size_t i = 0; i < sent->n;) {
        pair_t e = sent->v[i];
        for (i++; i < sent->n && sent->v[i].src == e.src && sent->v[i].dst == e.dst; i++)
            e.bytes += sent->v[i].bytes;
        if (e.bytes > 0 && e.src != e.dst)
            sent->v[edges++] = e;
    }
    return (long)edges;
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

static sc_err_t record(const sc_algo_t *algo, int p, int root, const int *node_of, size_t bytes,
                       sc_type_t type, sc_graph_t *graph);

sc_err_t sc_graph_record(const sc_algo_t *algo, int p, int root, sc_graph_t *graph)
{
    return sc_graph_record_placed(algo, p, root, NULL, graph);
}

/* The call the graph is recorded with (graph.h): 1 byte a block, or a
 * reduction's vector of p ints, so that no part of a split vector is
 * empty. */
static size_t unit_bytes(const sc_algo_t *algo, int p)
{
    return sc_algo_is_reduction(algo) ? (size_t)p * sc_type_size(SC_TYPE_INT) : 1;
}

sc_err_t sc_graph_record_placed(const sc_algo_t *algo, int p, int root, const int *node_of,
                                sc_graph_t *graph)
{
    return record(algo, p, root, node_of, unit_bytes(algo, p), SC_TYPE_INT, graph);
}

/* The area the ranks of a recording share: a reduction's vector, or p
 * blocks (an allgather's output; the broadcast as long). */
static size_t area_bytes(const sc_algo_t *algo, int p, size_t bytes)
{
    return sc_algo_is_reduction(algo) ? bytes : (size_t)p * bytes;
}

sc_err_t sc_graph_record_sized(const sc_algo_t *algo, int p, int root, const int *node_of,
                               size_t bytes, sc_type_t type, sc_graph_t *graph)
{
    size_t elem = sc_algo_is_reduction(algo) ? sc_type_size(type) : 1;
    size_t recorded = bytes;
    if (area_bytes(algo, p, bytes) > SC_GRAPH_RECORD_MAX_BYTES) {
        recorded = (size_t)((double)bytes * SC_GRAPH_RECORD_MAX_BYTES /
                            (double)area_bytes(algo, p, bytes));
        recorded = recorded / elem * elem;
        if (recorded < elem)
            recorded = elem;
    }
    sc_err_t err = record(algo, p, root, node_of, recorded, type, graph);
    if (!err && recorded != bytes) {
        double scale = (double)bytes / (double)recorded;
        igraph_vector_scale(&graph->weight, scale);
        graph->total_weight *= scale;
    }
    return err;
}

/* Records algo on p ranks with a call of `bytes` (the allgather block, the
 * broadcast message, the reduction vector of `type`), all ranks sharing
 * one area (area_bytes): the recorder moves no data, so what the ranks
 * compute in it does not matter, only the sizes. Each rank's ops are
 * tallied into rec, then dropped, and the sends are checked to be
 * exactly the receives; *placed is 1 if the algorithm read the ranks'
 * nodes. */
static sc_err_t record_ranks(const sc_algo_t *algo, int p, int root, const int *node_of,
                             size_t bytes, sc_type_t type, recorder_t *rec, int *placed)
{
    sc_err_t err = sc_graph_recordable(algo);
    if (err)
        return err;
    *placed = 0;
    sc_schedule_t sched = {0};
    sc_scratch_t *scratch = sc_scratch_create();
    size_t need = area_bytes(algo, p, bytes);
    void *area = scratch ? sc_scratch_get(scratch, need ? need : 1) : NULL;
    if (!area) {
        err = sc_error(SC_ERR_RUN, "out of memory recording %s", algo->name);
        goto cleanup;
    }
    /* no platform: no times, only the messages */
    sc_model_t ranks = {.size = p, .node_of = node_of, .elem_size = sc_type_size(type)};
    sc_coll_args_t args = {.sendbuf = area, .recvbuf = area, .bytes = bytes, .root = root,
                           .op = SC_OP_SUM, .type = type};
    sc_algo_call_t call = {algo, &args};
    /* One rank at a time, its ops tallied and dropped: ring at 65,536 ranks
     * sends 4.3e9 messages over 65,536 pairs. */
    for (int r = 0; r < p && !err && !rec->failed; r++) {
        err = sc_schedule_record_rank(sc_schedule_run_algo, &call, algo->name, &ranks, r, scratch,
                                      &sched);
        if (err)
            break;
        *placed |= sched.read_nodes;
        tally_ops(rec, &sched, r, p);
        tally_flush(rec, 1);
        tally_flush(rec, 0);
    }
    if (!err && rec->failed)
        err = sc_error(SC_ERR_RUN, "recording %s on %d ranks: out of memory or a rank out of range",
                       algo->name, p);
    /* The sends must be exactly the receives. */
    if (!err && (rec->sent_digest.pairs != rec->received_digest.pairs ||
                 rec->sent_digest.sum != rec->received_digest.sum))
        err = sc_error(SC_ERR_RUN,
                       "%s on %d ranks: recorded sends and receives differ, so its messages "
                       "depend on data or timing and its graph cannot be recorded",
                       algo->name, p);
cleanup:
    sc_schedule_destroy(&sched);
    free(rec->sends.slot);
    free(rec->receives.slot);
    rec->sends = rec->receives = (tally_t){0};
    sc_scratch_destroy(scratch);
    return err;
}

static sc_err_t record(const sc_algo_t *algo, int p, int root, const int *node_of, size_t bytes,
                       sc_type_t type, sc_graph_t *graph)
{
    memset(graph, 0, sizeof *graph);
    igraph_setup();
    recorder_t rec = {0};
    int placed;
    sc_err_t err = record_ranks(algo, p, root, node_of, bytes, type, &rec, &placed);
    if (err)
        goto cleanup;
    long folded = fold_edges(&rec.sent, p);
    if (folded < 0) {
        err = sc_error(SC_ERR_RUN, "out of memory recording %s", algo->name);
        goto cleanup;
    }
    size_t nedges = (size_t)folded;
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
    else {
        graph->size = p;
        graph->placed = placed;
    }
cleanup:
    free(rec.sent.v);
    return err;
}

sc_err_t sc_graph_count_cuts(const sc_algo_t *algo, int p, int root, const int *node_of,
                             const int *const *unit_of, int n, double *cut, double *total)
{
    uint64_t *sums = calloc(n > 0 ? (size_t)n : 1, sizeof *sums);
    if (!sums)
        return sc_error(SC_ERR_RUN, "out of memory recording %s", algo->name);
    counts_t counts = {.unit_of = unit_of, .n = n, .cut = sums};
    recorder_t rec = {.counts = &counts};
    int placed;
    sc_err_t err =
        record_ranks(algo, p, root, node_of, unit_bytes(algo, p), SC_TYPE_INT, &rec, &placed);
    if (!err) {
        for (int k = 0; k < n; k++)
            cut[k] = (double)sums[k];
        *total = (double)counts.total;
    }
    free(sums);
    return err;
}

sc_err_t sc_graph_induced(const sc_graph_t *graph, const int *in, int n, sc_graph_t *out)
{
    memset(out, 0, sizeof *out);
    int *local = malloc((size_t)(graph->size > 0 ? graph->size : 1) * sizeof *local);
    if (!local)
        return sc_error(SC_ERR_RUN, "out of memory splitting the communication graph");
    for (int v = 0; v < graph->size; v++)
        local[v] = -1;
    for (int i = 0; i < n; i++)
        local[in[i]] = i;
    igraph_vector_int_t ends;
    sc_err_t err = sc_igraph_check(igraph_vector_int_init(&ends, 0), "allocating the edge list");
    if (err) {
        free(local);
        return err;
    }
    if ((err = sc_igraph_check(igraph_vector_init(&out->weight, 0), "allocating the weights"))) {
        igraph_vector_int_destroy(&ends);
        free(local);
        return err;
    }
    igraph_integer_t m = igraph_ecount(&graph->graph);
    for (igraph_integer_t e = 0; e < m && !err; e++) {
        igraph_integer_t a, b;
        igraph_edge(&graph->graph, e, &a, &b);
        if (local[a] < 0 || local[b] < 0)
            continue;
        double w = VECTOR(graph->weight)[e];
        if ((err = sc_igraph_check(igraph_vector_int_push_back(&ends, local[a]), "an edge")) ||
            (err = sc_igraph_check(igraph_vector_int_push_back(&ends, local[b]), "an edge")) ||
            (err = sc_igraph_check(igraph_vector_push_back(&out->weight, w), "a weight")))
            break;
        out->total_weight += w;
    }
    if (!err)
        err = sc_igraph_check(igraph_create(&out->graph, &ends, n, IGRAPH_UNDIRECTED),
                              "creating a subgraph");
    igraph_vector_int_destroy(&ends);
    free(local);
    if (err) {
        igraph_vector_destroy(&out->weight);
        memset(out, 0, sizeof *out);
        return err;
    }
    out->size = n;
    out->placed = graph->placed;
    return SC_OK;
}

long sc_graph_nedges(const sc_graph_t *graph)
{
    return graph->size ? (long)igraph_ecount(&graph->graph) : 0;
}

double sc_graph_edge(const sc_graph_t *graph, long e, int *a, int *b)
{
    igraph_integer_t from, to;
    igraph_edge(&graph->graph, (igraph_integer_t)e, &from, &to);
    *a = (int)from;
    *b = (int)to;
    return VECTOR(graph->weight)[e];
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

sc_err_t sc_graph_sum_init(sc_graph_sum_t *sum, int size)
{
    igraph_setup();
    memset(sum, 0, sizeof *sum);
    sc_err_t err = sc_igraph_check(igraph_vector_int_init(&sum->ends, 0), "allocating a sum");
    if (err)
        return err;
    if ((err = sc_igraph_check(igraph_vector_init(&sum->weight, 0), "allocating a sum"))) {
        igraph_vector_int_destroy(&sum->ends);
        return err;
    }
    sum->size = size;
    return SC_OK;
}

sc_err_t sc_graph_sum_edge(sc_graph_sum_t *sum, int a, int b, double weight)
{
    if (a == b || weight == 0)
        return SC_OK;
    sc_err_t err;
    if ((err = sc_igraph_check(igraph_vector_int_push_back(&sum->ends, a), "adding an edge")) ||
        (err = sc_igraph_check(igraph_vector_int_push_back(&sum->ends, b), "adding an edge")) ||
        (err = sc_igraph_check(igraph_vector_push_back(&sum->weight, weight), "adding an edge")))
        return err;
    return SC_OK;
}

sc_err_t sc_graph_sum_add(sc_graph_sum_t *sum, const sc_graph_t *graph, double factor)
{
    igraph_integer_t m = igraph_ecount(&graph->graph);
    sc_err_t err = SC_OK;
    for (igraph_integer_t e = 0; e < m && !err; e++)
        err = sc_graph_sum_edge(sum, (int)IGRAPH_FROM(&graph->graph, e),
                                (int)IGRAPH_TO(&graph->graph, e),
                                factor * VECTOR(graph->weight)[e]);
    return err;
}

sc_err_t sc_graph_sum_add_mapped(sc_graph_sum_t *sum, const sc_graph_t *graph, double factor,
                                 const int *vertex)
{
    igraph_integer_t m = igraph_ecount(&graph->graph);
    sc_err_t err = SC_OK;
    for (igraph_integer_t e = 0; e < m && !err; e++)
        err = sc_graph_sum_edge(sum, vertex[IGRAPH_FROM(&graph->graph, e)],
                                vertex[IGRAPH_TO(&graph->graph, e)],
                                factor * VECTOR(graph->weight)[e]);
    return err;
}

sc_err_t sc_graph_sum_finish(sc_graph_sum_t *sum, sc_graph_t *out)
{
    memset(out, 0, sizeof *out);
    igraph_attribute_combination_t comb;
    sc_err_t err = sc_igraph_check(igraph_attribute_combination(&comb, "weight",
                                                                IGRAPH_ATTRIBUTE_COMBINE_SUM, "",
                                                                IGRAPH_ATTRIBUTE_COMBINE_IGNORE,
                                                                IGRAPH_NO_MORE_ATTRIBUTES),
                                   "summing graphs");
    if (err)
        return err;
    if ((err = sc_igraph_check(igraph_create(&out->graph, &sum->ends, sum->size,
                                             IGRAPH_UNDIRECTED),
                               "creating the summed graph"))) {
        igraph_attribute_combination_destroy(&comb);
        return err;
    }
    /* igraph merges the parallel edges, adding their weights. */
    if (!(err = sc_igraph_check(igraph_cattribute_EAN_setv(&out->graph, "weight", &sum->weight),
                                "summing graphs")) &&
        !(err = sc_igraph_check(igraph_simplify(&out->graph, 1, 1, &comb), "summing graphs")) &&
        !(err = sc_igraph_check(igraph_vector_init(&out->weight, 0), "summing graphs"))) {
        err = sc_igraph_check(igraph_cattribute_EANV(&out->graph, "weight",
                                                     igraph_ess_all(IGRAPH_EDGEORDER_ID),
                                                     &out->weight),
                              "summing graphs");
        if (err)
            igraph_vector_destroy(&out->weight);
    }
    igraph_attribute_combination_destroy(&comb);
    if (err) {
        igraph_destroy(&out->graph);
        memset(out, 0, sizeof *out);
        return err;
    }
    /* The weights live in out->weight; the attribute would only be copied
     * along by every igraph call on the graph. */
    igraph_cattribute_remove_e(&out->graph, "weight");
    out->size = sum->size;
    out->total_weight = igraph_vector_sum(&out->weight);
    return SC_OK;
}

void sc_graph_sum_destroy(sc_graph_sum_t *sum)
{
    if (sum->size) {
        igraph_vector_int_destroy(&sum->ends);
        igraph_vector_destroy(&sum->weight);
    }
    memset(sum, 0, sizeof *sum);
}
