/* simcoll run TRACE and simcoll map TRACE: a recorded application
 * (sim/trace/) replayed on a platform, and the rank mapping of its
 * communication graph.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "trace_cmd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/irregular/irregular.h"
#include "algorithms/kinds.h"
#include "algorithms/mapping/search.h"
#include "common/sc_stats.h"
#include "common/sc_units.h"
#include "run_setup.h"
#include "sim/analysis/explain.h"
#include "sim/analysis/map_search.h"
#include "sim/analysis/sensitivity.h"
#include "sim/engine/trace_run.h"
#include "sim/io/files.h"
#include "sim/io/mapfile.h"
#include "sim/replay/trace_coll.h"
#include "sim/simgrid/engine.h"
#include "sim/trace/ti_write.h"
#include "trace.h"

int sc_cli_is_trace(const char *path)
{
    return sc_trace_detect(path, NULL);
}

sc_err_t sc_cli_trace_open(const char *path, sc_trace_t **trace, sc_trace_summary_t *summary)
{
    sc_err_t err = sc_trace_open(path, trace);
    if (!err && (err = sc_trace_scan(*trace, summary, NULL))) {
        sc_trace_close(*trace);
        *trace = NULL;
    }
    return err;
}

void sc_cli_trace_skipped(const sc_trace_t *trace, const sc_trace_summary_t *sum)
{
    for (int i = 0; i < sum->nskipped; i++) {
        const struct sc_trace_skip *k = &sum->skipped[i];
        char share[64] = "";
        if (k->seconds > 0 && sum->recorded_seconds > 0)
            snprintf(share, sizeof share, " (%.2g%% of the ranks' recorded time)",
                     100 * k->seconds / sum->recorded_seconds);
        fprintf(stderr,
                "simcoll: trace '%s': %ld %s%s not replayed%s; their time is kept as "
                "the ranks' computing\n",
                sc_trace_path(trace), k->count, k->name,
                strncmp(k->name, "events", 6) ? " calls" : "", share);
    }
}

/* ---- The communication graph of a trace ---- */

/* A collective call, and how many times it ran. */
typedef struct {
    int comm, root;
    sc_tcoll_t coll;
    uint64_t bytes;
    long count;
} call_t;

typedef struct {
    const sc_platform_t *plat;
    sc_trace_t *trace;
    const sc_profile_t *profile;
    const sc_algo_t *const *forced;
    const int *node_of; /* block placement's, by world rank */
    sc_graph_sum_t sum;
    /* point-to-point bytes by pair (a < b), summed before they are edges */
    struct pair {
        int a, b;
        double bytes;
    } * pairs;
    size_t cap_pairs, used_pairs;
    call_t *calls;
    size_t ncalls, cap_calls;
    sc_err_t err;
} tgraph_t;

static size_t pair_slot(const tgraph_t *g, int a, int b)
{
    uint64_t h = ((uint64_t)(uint32_t)a << 32 | (uint32_t)b) * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 17) & (g->cap_pairs - 1);
}

static void add_pair(tgraph_t *g, int a, int b, double bytes)
{
    if (a == b || bytes <= 0 || g->err)
        return;
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    if (g->used_pairs * 2 >= g->cap_pairs) {
        size_t cap = g->cap_pairs ? 2 * g->cap_pairs : 1024;
        struct pair *t = malloc(cap * sizeof *t);
        if (!t) {
            g->err = sc_error(SC_ERR_RUN, "out of memory for the trace's graph");
            return;
        }
        for (size_t i = 0; i < cap; i++)
            t[i].a = -1;
        struct pair *old = g->pairs;
        size_t old_cap = g->cap_pairs;
        g->pairs = t;
        g->cap_pairs = cap;
        for (size_t i = 0; i < old_cap; i++)
            if (old[i].a >= 0) {
                size_t k = pair_slot(g, old[i].a, old[i].b);
                while (t[k].a >= 0)
                    k = (k + 1) & (cap - 1);
                t[k] = old[i];
            }
        free(old);
    }
    size_t k = pair_slot(g, a, b);
    while (g->pairs[k].a >= 0 && (g->pairs[k].a != a || g->pairs[k].b != b))
        k = (k + 1) & (g->cap_pairs - 1);
    if (g->pairs[k].a < 0) {
        g->pairs[k] = (struct pair){a, b, 0};
        g->used_pairs++;
    }
    g->pairs[k].bytes += bytes;
}

static void on_message(void *ctx, int src, int dst, uint64_t bytes)
{
    add_pair(ctx, src, dst, (double)bytes);
}

/* A call of the kinds simcoll has algorithms of, counted to be recorded
 * once per kind of call. */
static void count_call(tgraph_t *g, const sc_tev_t *ev, uint64_t bytes)
{
    for (size_t i = 0; i < g->ncalls; i++) {
        call_t *c = &g->calls[i];
        if (c->comm == ev->comm && c->coll == ev->coll && c->bytes == bytes &&
            c->root == ev->root) {
            c->count++;
            return;
        }
    }
    if (g->ncalls == g->cap_calls) {
        size_t cap = g->cap_calls ? 2 * g->cap_calls : 64;
        call_t *more = realloc(g->calls, cap * sizeof *more);
        if (!more) {
            g->err = sc_error(SC_ERR_RUN, "out of memory for the trace's graph");
            return;
        }
        g->calls = more;
        g->cap_calls = cap;
    }
    g->calls[g->ncalls++] = (call_t){ev->comm, ev->root, ev->coll, bytes, 1};
}

/* The exchanges of algorithms/irregular/, as edges; a call with a kind of
 * simcoll's counted instead. Calls are counted once, by the communicator's
 * first rank; what a rank alone knows (its row of an alltoallv, its block
 * of a gatherv) by every rank. */
static void on_collective(void *ctx, int rank, const sc_tev_t *ev)
{
    tgraph_t *g = ctx;
    const sc_trace_comm_t *c = sc_trace_comm(g->trace, ev->comm);
    int n = c->size, me = -1, lead = c->members[0] == rank;
    for (int i = 0; i < n && me < 0; i++)
        if (c->members[i] == rank)
            me = i;
    const int *m = c->members;
    switch (ev->coll) {
    case SC_TCOLL_GATHERV:
        if (me != ev->root)
            add_pair(g, rank, m[ev->root], (double)ev->bytes);
        return;
    case SC_TCOLL_GATHER: { /* binomial: to the parent, the subtree's blocks */
        int rel = (me - ev->root + n) % n, mask = 1;
        while (mask < n && !(rel & mask))
            mask <<= 1;
        if (rel) {
            int subtree = mask < n - rel ? mask : n - rel;
            add_pair(g, rank, m[(rel - mask + ev->root) % n], (double)ev->bytes * subtree);
        }
        return;
    }
    case SC_TCOLL_SCATTERV:
        for (int j = 0; me == ev->root && j < n; j++)
            add_pair(g, rank, m[j], ev->counts ? (double)ev->counts[j] : (double)ev->bytes);
        return;
    case SC_TCOLL_ALLTOALL:
    case SC_TCOLL_ALLTOALLV:
        for (int j = 0; j < n; j++)
            add_pair(g, rank, m[j],
                     ev->coll == SC_TCOLL_ALLTOALL ? (double)ev->bytes
                     : ev->counts                  ? (double)ev->counts[j]
                                                   : (double)ev->bytes / n);
        return;
    case SC_TCOLL_SCAN:
    case SC_TCOLL_EXSCAN:
        for (int mask = 1; mask < n; mask <<= 1)
            if ((me ^ mask) < n && (me ^ mask) > me)
                add_pair(g, rank, m[me ^ mask], 2.0 * (double)ev->bytes);
        return;
    case SC_TCOLL_ALLGATHERV:
        if (ev->counts && n > 1) {
            int equal = 1;
            for (int j = 1; j < n; j++)
                equal &= ev->counts[j] == ev->counts[0];
            if (!equal) { /* the ring: r passes every block but r + 1's on to r + 1 */
                double all = 0;
                for (int j = 0; j < n; j++)
                    all += (double)ev->counts[j];
                add_pair(g, rank, m[(me + 1) % n], all - (double)ev->counts[(me + 1) % n]);
                return;
            }
        }
        if (lead)
            count_call(g, ev, ev->counts ? ev->counts[0] : ev->bytes);
        return;
    case SC_TCOLL_REDUCE_SCATTER:
        if (me != 0)
            add_pair(g, m[0], rank, ev->counts ? (double)ev->counts[me] : (double)ev->bytes / n);
        if (lead)
            count_call(g, ev, ev->bytes);
        return;
    default:
        if (lead)
            count_call(g, ev, ev->bytes);
    }
}

/* Each distinct call's graph, recorded once with the algorithm it runs on
 * block placement, added as many times as it ran. */
static sc_err_t add_calls(tgraph_t *g)
{
    sc_err_t err = SC_OK;
    for (size_t i = 0; i < g->ncalls && !err; i++) {
        const call_t *call = &g->calls[i];
        const sc_trace_comm_t *c = sc_trace_comm(g->trace, call->comm);
        int has; /* a call of no kind of simcoll's is counted as a barrier */
        sc_collective_t kind = sc_tcoll_kind(call->coll, &has);
        int *nodes = malloc((size_t)c->size * sizeof *nodes);
        if (!nodes)
            return sc_error(SC_ERR_RUN, "out of memory");
        for (int k = 0; k < c->size; k++)
            nodes[k] = g->node_of[c->members[k]];
        sc_type_t type = call->bytes % 8 ? SC_TYPE_INT : SC_TYPE_DOUBLE;
        size_t bytes = (size_t)call->bytes;
        if (sc_kind(kind)->is_reduction)
            bytes = (bytes + sc_type_size(type) - 1) / sc_type_size(type) * sc_type_size(type);
        const sc_algo_t *algo = g->forced[kind];
        if (!algo) {
            sc_call_t choice = {kind, bytes, c->size, nodes, type};
            algo = sc_profile_choose(g->profile, &choice);
            if (!algo)
                err = sc_profile_no_rule(g->profile, kind);
        }
        sc_graph_t one = {0};
        /* a barrier's messages are empty, and weigh nothing */
        if (!err && c->size > 1 && kind != SC_BARRIER &&
            !(err = sc_graph_record_sized(algo, c->size, call->root, nodes, bytes ? bytes : 1, type,
                                          &one))) {
            err = sc_graph_sum_add_mapped(&g->sum, &one, (double)call->count, c->members);
            sc_graph_destroy(&one);
        }
        free(nodes);
    }
    return err;
}

sc_err_t sc_cli_trace_graph(const sc_platform_t *plat, sc_trace_t *trace,
                            const sc_profile_t *profile, const sc_algo_t *const *forced,
                            sc_graph_t *graph)
{
    int p = sc_trace_ranks(trace);
    tgraph_t g = {.plat = plat, .trace = trace, .profile = profile, .forced = forced};
    int *node_of = malloc((size_t)p * sizeof *node_of);
    if (!node_of)
        return sc_error(SC_ERR_RUN, "out of memory");
    sc_err_t err = sc_place(plat, p, SC_PLACE_BLOCK, node_of);
    g.node_of = node_of;
    if (!err)
        err = sc_graph_sum_init(&g.sum, p);
    sc_trace_listener_t listener = {.ctx = &g, .message = on_message, .collective = on_collective};
    if (!err)
        err = sc_trace_scan(trace, NULL, &listener);
    if (!err)
        err = g.err;
    if (!err)
        err = add_calls(&g);
    for (size_t i = 0; !err && i < g.cap_pairs; i++)
        if (g.pairs[i].a >= 0)
            err = sc_graph_sum_edge(&g.sum, g.pairs[i].a, g.pairs[i].b, g.pairs[i].bytes);
    if (!err)
        err = sc_graph_sum_finish(&g.sum, graph);
    sc_graph_sum_destroy(&g.sum);
    free(g.pairs);
    free(g.calls);
    free(node_of);
    return err;
}

/* ---- simcoll run TRACE ---- */

/* What a trace's run takes of run's options, and what it refuses. */
static sc_err_t check_options(const sc_run_opts_t *o, int np)
{
    const char *refused = o->pack != SC_PACK_NONE               ? "--pack"
                          : o->trace_ops                        ? "--trace-ops"
                          : o->data.deciders || o->data.extreme ? "--data"
                          : o->sensitivity                      ? "--sensitivity"
                          : o->objective == SC_OBJECTIVE_TIME && o->objective_given
                              ? "--objective time"
                              : NULL;
    if (refused)
        return sc_error(SC_ERR_INPUT, "%s does not apply to a trace (%s): %s", refused, o->program,
                        !strcmp(refused, "--pack")        ? "packing rewrites a program's calls, "
                                                            "and a trace's are the application's"
                        : !strcmp(refused, "--data")      ? "a trace holds no data"
                        : !strcmp(refused, "--trace-ops") ? "use --timeline or --trace"
                        : !strcmp(refused, "--objective time") ? "use --objective cut or bottleneck"
                                                               : "it runs one replay");
    if (o->explain && o->format != SC_FORMAT_TABLE)
        return sc_error(SC_ERR_INPUT, "--explain writes text after the table: leave out "
                                      "--format csv or json");
    if (o->np_list) {
        int given;
        if (sc_parse_int(o->np_list, "--np", 1, 1 << 30, &given) || given != np)
            return sc_error(SC_ERR_INPUT,
                            "--np %s: trace '%s' was recorded with %d ranks, and "
                            "replays with that many (leave --np out)",
                            o->np_list, o->program, np);
    }
    return SC_OK;
}

typedef struct {
    sc_placement_t placement;
    int *pi;
    const char *name;
} trace_place_t;

static sc_err_t place_trace(const sc_run_opts_t *o, const sc_platform_t *plat, sc_trace_t *trace,
                            trace_place_t *pl)
{
    int p = sc_trace_ranks(trace);
    *pl = (trace_place_t){SC_PLACE_BLOCK, NULL, "block"};
    if (!o->mapping || !strcmp(o->mapping, "block"))
        return SC_OK;
    if (!strcmp(o->mapping, "cyclic")) {
        pl->placement = SC_PLACE_CYCLIC;
        pl->name = "cyclic";
        return SC_OK;
    }
    if (strcmp(o->mapping, "partition") && strcmp(o->mapping, "greedy")) {
        pl->name = o->mapping;
        return sc_mapfile_read(o->mapping, p, &pl->pi);
    }
    sc_partitioner_t how = !strcmp(o->mapping, "greedy") ? SC_PARTITIONER_GREEDY
                           : o->partitioner_given        ? o->map.partitioner
                                                         : SC_PARTITIONER_MULTILEVEL;
    sc_graph_t graph = {0};
    double seconds = 0, cut = 0, block = 0;
    pl->name = o->mapping;
    pl->pi = malloc((size_t)p * sizeof *pl->pi);
    sc_err_t err = pl->pi ? sc_cli_trace_graph(plat, trace, o->mpi, o->forced, &graph)
                          : sc_error(SC_ERR_RUN, "out of memory");
    if (!err)
        err = sc_mapping_search_graph(plat, &graph, how, pl->pi, &seconds);
    if (!err && o->objective == SC_OBJECTIVE_BOTTLENECK)
        err = sc_map_objective(plat, &graph, NULL, o->objective, &o->budget, pl->pi, NULL, 0);
    if (!err && !(err = sc_cli_graph_cut(plat, &graph, SC_PLACE_BLOCK, pl->pi, &cut, NULL, NULL)) &&
        !(err = sc_cli_graph_cut(plat, &graph, SC_PLACE_BLOCK, NULL, &block, NULL, NULL))) {
        /* in bytes, as simcoll map and a program's --mapping print them */
        fprintf(stderr,
                "# --mapping %s: cut weight %.0f of the trace's %.0f bytes (block "
                "placement %.0f); %.3g s to partition\n",
                o->mapping, cut, graph.total_weight, block, seconds);
    }
    sc_graph_destroy(&graph);
    return err;
}

/* min, median and max of v[0..n-1], and the rank of the max. */
typedef struct {
    double min, median, max;
    int argmax;
} spread_t;

static spread_t spread(const double *v, int n)
{
    spread_t s = {v[0], 0, v[0], 0};
    double *sorted = malloc((size_t)n * sizeof *sorted);
    for (int i = 0; i < n; i++) {
        if (v[i] < s.min)
            s.min = v[i];
        if (v[i] > s.max) {
            s.max = v[i];
            s.argmax = i;
        }
    }
    if (!sorted)
        return (spread_t){s.min, NAN, s.max, s.argmax};
    memcpy(sorted, v, (size_t)n * sizeof *sorted);
    s.median = sc_median_sorting(sorted, n);
    free(sorted);
    return s;
}

/* One row of the costliest calls. */
typedef struct {
    int kind, bucket;
    sc_tcost_t cost;
} cost_row_t;

static int by_cost(const void *a, const void *b)
{
    const cost_row_t *x = a, *y = b;
    return (x->cost.seconds < y->cost.seconds) - (x->cost.seconds > y->cost.seconds);
}

#define TOP_COSTS 10

static int costliest(const sc_trace_run_result_t *res, cost_row_t *rows)
{
    int n = 0;
    cost_row_t all[SC_TCOST_KINDS * SC_TCOST_BUCKETS];
    for (int k = 0; k < SC_TCOST_KINDS; k++)
        for (int b = 0; b < SC_TCOST_BUCKETS; b++)
            if (res->costs[k][b].calls)
                all[n++] = (cost_row_t){k, b, res->costs[k][b]};
    qsort(all, (size_t)n, sizeof *all, by_cost);
    int top = n < TOP_COSTS ? n : TOP_COSTS;
    memcpy(rows, all, (size_t)top * sizeof *rows);
    return top;
}

static void bucket_label(int bucket, char *out, size_t len)
{
    if (bucket == 0) {
        snprintf(out, len, "0 B");
        return;
    }
    char lo[24], hi[24];
    sc_format_bytes(ldexp(1, bucket - 1), lo, sizeof lo);
    sc_format_bytes(ldexp(1, bucket), hi, sizeof hi);
    snprintf(out, len, "%s-%s", lo, hi);
}

typedef struct {
    const sc_run_opts_t *o;
    const sc_platform_t *plat;
    const sc_trace_t *trace;
    const sc_trace_summary_t *sum;
    const trace_place_t *place;
    const sc_trace_run_result_t *res;
    const sc_provenance_t *prov;
    FILE *explained; /* --explain's report, printed after the table */
} trace_report_t;

static double total_of(const double *v, int n)
{
    double t = 0;
    for (int i = 0; i < n; i++)
        t += v[i];
    return t;
}

static void print_table(FILE *f, const trace_report_t *t)
{
    const sc_trace_run_result_t *res = t->res;
    int p = res->np;
    char a[32], b[32], c[32], d[80];
    double *span = malloc((size_t)p * sizeof *span);
    for (int r = 0; span && r < p; r++)
        span[r] = res->finish[r] - res->start[r];
    fprintf(f, "trace       %s (%s, %d ranks, %ld events)\n", sc_trace_path(t->trace),
            sc_trace_format(t->trace), p, t->sum->events);
    fprintf(f, "platform    %s, %d ranks on %d nodes, %s mapping, MPI profile %s", t->plat->name, p,
            res->nodes, t->place->name, t->o->mpi->name);
    if (t->o->compute_scale != 1)
        fprintf(f, ", computing %g times as fast", t->o->compute_scale);
    fprintf(f, "%s\n",
            t->o->replay == SC_REPLAY_MAESTRO ? ", played by the driver (--replay=maestro)"
            : t->o->replay                    ? ", played by an actor per node (--replay)"
                                              : "");
    sc_format_duration(res->sim_time_s, a, sizeof a);
    fprintf(f, "simulated   %s", a);
    if (!isnan(t->sum->elapsed)) {
        sc_format_duration(t->sum->elapsed, b, sizeof b);
        fprintf(f, " (the recorded run: %s)", b);
    }
    fprintf(f, "\n");
    if (span) {
        const struct {
            const char *name;
            const double *v;
        } lines[] = {{"rank time", span}, {"  in MPI", res->mpi}, {"  computing", res->compute}};
        for (int i = 0; i < 3; i++) {
            spread_t s = spread(lines[i].v, p);
            sc_format_duration(s.min, a, sizeof a);
            sc_format_duration(s.median, b, sizeof b);
            sc_format_duration(s.max, c, sizeof c);
            fprintf(f, "%-11s min %s, median %s, max %s (rank %d)", lines[i].name, a, b, c,
                    s.argmax);
            if (i > 0)
                fprintf(f, "; %.1f%% of all ranks' time",
                        100 * total_of(lines[i].v, p) / total_of(span, p));
            fprintf(f, "\n");
        }
    }
    sc_format_bytes(res->bytes[SC_LEVEL_INTRA], a, sizeof a);
    sc_format_bytes(res->bytes[SC_LEVEL_INTER], b, sizeof b);
    fprintf(f, "messages    inside nodes %ld (%s), between nodes %ld (%s)\n",
            res->messages[SC_LEVEL_INTRA], a, res->messages[SC_LEVEL_INTER], b);
    if (res->nuses) {
        fprintf(f, "algorithms ");
        for (int i = 0; i < res->nuses; i++)
            fprintf(f, "%s %s: %s (%ld)", i ? "," : "", sc_tcoll_name(res->uses[i].coll),
                    res->uses[i].name, res->uses[i].calls);
        fprintf(f, "\n");
    }
    cost_row_t rows[TOP_COSTS];
    int n = costliest(res, rows);
    double mpi = total_of(res->mpi, p);
    if (t->o->replay)
        fprintf(f, "\n(--replay does not time each call: leave it out to see the calls that "
                   "cost most)\n");
    if (n) {
        fprintf(f, "\nthe calls that cost most (time inside them, summed over ranks)\n");
        fprintf(f, "  %-14s  %-18s  %10s  %12s  %s\n", "call", "size", "rank-calls", "time",
                "share of MPI time");
        for (int i = 0; i < n; i++) {
            bucket_label(rows[i].bucket, d, sizeof d);
            sc_format_duration(rows[i].cost.seconds, a, sizeof a);
            fprintf(f, "  %-14s  %-18s  %10ld  %12s  %5.1f%%\n",
                    sc_tcost_name((sc_tcost_kind_t)rows[i].kind), d, rows[i].cost.calls, a,
                    mpi > 0 ? 100 * rows[i].cost.seconds / mpi : 0);
        }
    }
    if (p <= 32 && span) {
        fprintf(f, "\n  %4s  %4s  %12s  %12s  %12s  %12s\n", "rank", "node", "start", "end",
                "in MPI", "computing");
        for (int r = 0; r < p; r++) {
            sc_format_duration(res->start[r], a, sizeof a);
            sc_format_duration(res->finish[r], b, sizeof b);
            sc_format_duration(res->mpi[r], c, sizeof c);
            sc_format_duration(res->compute[r], d, sizeof d);
            fprintf(f, "  %4d  %4d  %12s  %12s  %12s  %12s\n", r, res->node_of[r], a, b, c, d);
        }
    }
    free(span);
    sc_provenance_line(f, t->prov);
}

const char *sc_trace_report_csv_header(void)
{
    return "trace,format,ranks,platform,nodes,mapping,mpi,compute_scale,sim_time_s,"
           "recorded_time_s,rank_time_min_s,rank_time_median_s,rank_time_max_s,mpi_time_min_s,"
           "mpi_time_median_s,mpi_time_max_s,compute_time_min_s,compute_time_median_s,"
           "compute_time_max_s,inter_node_bytes,intra_node_bytes,inter_node_messages,"
           "intra_node_messages,events,platform_nodes,simcoll_version,platform_file,command";
}

void sc_trace_report_csv_row(FILE *f, const sc_platform_t *plat, const sc_trace_t *trace,
                             const sc_trace_summary_t *sum, const char *mapping, const char *mpi,
                             double compute_scale, const sc_trace_run_result_t *res)
{
    int p = res->np;
    double *span = malloc((size_t)p * sizeof *span);
    for (int r = 0; span && r < p; r++)
        span[r] = res->finish[r] - res->start[r];
    spread_t s = span ? spread(span, p) : (spread_t){NAN, NAN, NAN, 0};
    spread_t m = spread(res->mpi, p), c = spread(res->compute, p);
    sc_csv_string(f, sc_trace_path(trace));
    fputc(',', f);
    sc_csv_string(f, sc_trace_format(trace));
    fprintf(f, ",%d,", p);
    sc_csv_string(f, plat->name);
    fprintf(f, ",%d,", res->nodes);
    sc_csv_string(f, mapping);
    fputc(',', f);
    sc_csv_string(f, mpi);
    fprintf(f, ",%g,%.9e,", compute_scale, res->sim_time_s);
    if (!isnan(sum->elapsed))
        fprintf(f, "%.9e", sum->elapsed);
    fprintf(f, ",%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,%.9e,%.0f,%.0f,%ld,%ld,%ld,%d", s.min,
            s.median, s.max, m.min, m.median, m.max, c.min, c.median, c.max,
            res->bytes[SC_LEVEL_INTER], res->bytes[SC_LEVEL_INTRA], res->messages[SC_LEVEL_INTER],
            res->messages[SC_LEVEL_INTRA], sum->events, plat->nnodes);
    free(span);
}

static void print_json(FILE *f, const trace_report_t *t)
{
    const sc_trace_run_result_t *res = t->res;
    int p = res->np;
    fprintf(f, "{\"trace\": ");
    sc_json_string(f, sc_trace_path(t->trace));
    fprintf(f, ", \"format\": ");
    sc_json_string(f, sc_trace_format(t->trace));
    fprintf(f, ", \"ranks\": %d, \"events\": %ld, \"platform\": ", p, t->sum->events);
    sc_json_string(f, t->plat->name);
    fprintf(f, ", \"nodes\": %d, \"platform_nodes\": %d, \"mapping\": ", res->nodes,
            t->plat->nnodes);
    sc_json_string(f, t->place->name);
    fprintf(f, ", \"mpi\": ");
    sc_json_string(f, t->o->mpi->name);
    fprintf(f, ", \"compute_scale\": %g, \"sim_time_s\": %.9e, \"recorded_time_s\": ",
            t->o->compute_scale, res->sim_time_s);
    if (isnan(t->sum->elapsed))
        fprintf(f, "null");
    else
        fprintf(f, "%.9e", t->sum->elapsed);
    fprintf(f,
            ",\n \"p2p_messages\": %ld, \"p2p_bytes\": %.0f, \"computes\": %ld, "
            "\"compute_s\": %.9e, \"compute_flops\": %.9e, \"collectives\": {",
            t->sum->p2p_messages, t->sum->p2p_bytes, t->sum->computes, t->sum->compute_seconds,
            t->sum->compute_flops);
    for (int k = 0, n = 0; k < SC_TCOLL_COUNT; k++)
        if (t->sum->collective_rank_calls[k])
            fprintf(f, "%s\"%s\": {\"calls\": %ld, \"rank_calls\": %ld}", n++ ? ", " : "",
                    sc_tcoll_name((sc_tcoll_t)k), t->sum->collectives[k],
                    t->sum->collective_rank_calls[k]);
    fprintf(f, "}");
    fprintf(f,
            ",\n \"inter_node_bytes\": %.0f, \"intra_node_bytes\": %.0f, "
            "\"inter_node_messages\": %ld, \"intra_node_messages\": %ld,\n \"ranks_detail\": [",
            res->bytes[SC_LEVEL_INTER], res->bytes[SC_LEVEL_INTRA], res->messages[SC_LEVEL_INTER],
            res->messages[SC_LEVEL_INTRA]);
    for (int r = 0; r < p; r++)
        fprintf(f,
                "%s\n  {\"rank\": %d, \"node\": %d, \"start_s\": %.9e, \"end_s\": %.9e, "
                "\"mpi_s\": %.9e, \"compute_s\": %.9e}",
                r ? "," : "", r, res->node_of[r], res->start[r], res->finish[r], res->mpi[r],
                res->compute[r]);
    fprintf(f, "],\n \"algorithms\": [");
    for (int i = 0; i < res->nuses; i++) {
        fprintf(f, "%s{\"collective\": \"%s\", \"algo\": ", i ? ", " : "",
                sc_tcoll_name(res->uses[i].coll));
        sc_json_string(f, res->uses[i].name);
        fprintf(f, ", \"calls\": %ld}", res->uses[i].calls);
    }
    fprintf(f, "],\n \"costs\": [");
    int n = 0;
    for (int k = 0; k < SC_TCOST_KINDS; k++)
        for (int b = 0; b < SC_TCOST_BUCKETS; b++)
            if (res->costs[k][b].calls)
                fprintf(f,
                        "%s\n  {\"call\": \"%s\", \"size_from_bytes\": %.0f, "
                        "\"rank_calls\": %ld, \"seconds\": %.9e}",
                        n++ ? "," : "", sc_tcost_name((sc_tcost_kind_t)k),
                        b ? ldexp(1, b - 1) : 0.0, res->costs[k][b].calls,
                        res->costs[k][b].seconds);
    fprintf(f, "],\n \"skipped\": [");
    for (int i = 0; i < t->sum->nskipped; i++) {
        fprintf(f, "%s{\"name\": ", i ? ", " : "");
        sc_json_string(f, t->sum->skipped[i].name);
        fprintf(f, ", \"count\": %ld, \"recorded_s\": %.9e}", t->sum->skipped[i].count,
                t->sum->skipped[i].seconds);
    }
    char command[4096];
    sc_provenance_command(t->prov, command, sizeof command);
    fprintf(f, "],\n \"simcoll_version\": \"%s\", \"platform_file\": ", SC_VERSION);
    sc_json_string(f, t->prov->platform_file);
    fprintf(f, ", \"command\": ");
    sc_json_string(f, command);
    fprintf(f, "}\n");
}

/* --timeline, --trace and --paje: every message of the replay; --explain
 * after the table. */
static sc_err_t write_messages(const trace_report_t *t)
{
    const sc_run_opts_t *o = t->o;
    if (!o->timeline && !o->trace && !o->paje && !o->explain)
        return SC_OK;
    const sc_trace_run_result_t *res = t->res;
    sc_run_result_t as_run = {.start = res->start,
                              .finish = res->finish,
                              .msgs = res->msgs,
                              .nmsgs = res->nmsgs,
                              .node_of = res->node_of,
                              .domain_of = res->domain_of,
                              .sim_time_s = res->sim_time_s};
    char title[1024], command[4096];
    snprintf(title, sizeof title, "%s, %d ranks, %s, %s mapping", o->program, res->np,
             t->plat->name, t->place->name);
    sc_provenance_command(t->prov, command, sizeof command);
    sc_trace_info_t info = {t->plat, res->node_of, res->np, title, command};
    sc_err_t err = sc_trace_write_all(o->timeline, o->trace, o->paje, &info, &as_run);
    sc_explain_t e;
    if (!err && o->explain && !(err = sc_explain(t->plat, res->np, &as_run, &e))) {
        e.computes = 1;
        sc_explain_print(t->explained, title, t->plat, res->np, &as_run, &e);
        sc_explain_destroy(&e);
    }
    return err;
}

/* A trace's run again on another platform (the check of the assumed
 * parameters). */
static sc_err_t rerun_trace(void *arg, const sc_platform_t *plat, double *seconds)
{
    sc_trace_run_spec_t spec = *(const sc_trace_run_spec_t *)arg;
    spec.plat = plat;
    spec.messages = 0;
    sc_trace_run_result_t res;
    sc_err_t err = sc_trace_run(&spec, &res);
    if (!err) {
        *seconds = res.sim_time_s;
        sc_trace_run_result_destroy(&res);
    }
    return err;
}

int sc_cli_run_trace(const sc_run_opts_t *o, int argc, char **argv)
{
    sc_platform_t plat = {0};
    sc_trace_t *trace = NULL;
    sc_trace_summary_t sum = {0};
    trace_place_t place = {0};
    sc_trace_run_result_t res;
    int ran = 0;
    sc_err_t err = sc_cli_load_all(o->loads, o->nloads);
    if (!err)
        err = sc_platform_load("--platform", o->platform, &plat);
    if (!err)
        err = sc_cli_trace_open(o->program, &trace, &sum);
    if (!err)
        err = check_options(o, sc_trace_ranks(trace));
    if (!err) {
        sc_cli_trace_skipped(trace, &sum);
        err = place_trace(o, &plat, trace, &place);
    }
    sc_trace_run_spec_t spec = {.plat = &plat,
                                .trace = trace,
                                .placement = place.placement,
                                .pi = place.pi,
                                .profile = o->mpi,
                                .compute_scale = o->compute_scale,
                                .messages = o->timeline || o->trace || o->paje || o->explain,
                                .replay = o->replay};
    memcpy(spec.forced, o->forced, sizeof spec.forced);
    if (!err)
        err = sc_trace_run_check(&spec);
    if (!err && o->export_ti && !(err = sc_trace_export_ti(trace, &sum, o->compute_scale, "--export-ti",
                                                           o->export_ti)))
        fprintf(stderr, "simcoll: wrote %d ranks' SMPI time-independent traces to %s/index.txt\n",
                sc_trace_ranks(trace), o->export_ti);
    if (!err && !(err = sc_trace_run(&spec, &res)))
        ran = 1;
    sc_provenance_t prov = {o->platform, argc, argv};
    char *explained = NULL;
    size_t explained_len = 0;
    trace_report_t report = {o,      &plat, trace, &sum,
                             &place, &res,  &prov, open_memstream(&explained, &explained_len)};
    if (!err && !report.explained)
        err = sc_error(SC_ERR_RUN, "out of memory");
    if (!err)
        err = write_messages(&report);
    if (report.explained)
        fclose(report.explained);
    if (!err) {
        if (o->format == SC_FORMAT_TABLE) {
            print_table(stdout, &report);
        } else if (o->format == SC_FORMAT_JSON) {
            print_json(stdout, &report);
        } else {
            printf("%s\n", sc_trace_report_csv_header());
            sc_trace_report_csv_row(stdout, &plat, trace, &sum, place.name, o->mpi->name,
                                    o->compute_scale, &res);
            sc_provenance_csv_fields(stdout, &prov);
            printf("\n");
        }
        if (explained_len)
            printf("\n%s", explained);
        sc_assumed_run_t run = {.plat = &plat, .path = o->platform,
                                .messages = {res.messages[SC_LEVEL_INTRA],
                                             res.messages[SC_LEVEL_INTER]},
                                .seconds = res.sim_time_s, .rerun = rerun_trace, .arg = &spec};
        sc_assumed_budget_t budget = {0};
        if (!(err = sc_assumed_check(stderr, &run, NULL, &budget)))
            sc_assumed_print_unchecked(stderr, &budget);
    }
    free(explained);
    if (ran)
        sc_trace_run_result_destroy(&res);
    free(place.pi);
    sc_trace_summary_destroy(&sum);
    sc_trace_close(trace);
    sc_platform_destroy(&plat);
    return err ? sc_cli_fail(err) : 0;
}
