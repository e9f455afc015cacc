/* One simulated run of one collective algorithm, and its results.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "run.h"

#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algorithms/mapping/mapping.h"
#include "child.h"
#include "engine.h"
#include "transport.h"

unsigned char sc_pattern_byte(int rank, size_t offset)
{
    /* Knuth's multiplicative hash is a bijection on 32 bits, and its low
     * byte on the low byte (odd multiplier), so blocks of different ranks
     * differ in their first bytes; the offset term varies the rest. */
    uint32_t h = (uint32_t)(rank + 1) * 2654435761u;
    return (unsigned char)((h >> (8 * (offset % 4))) ^ (uint32_t)(offset / 4 * 131));
}

static void fill_pattern(unsigned char *buf, size_t bytes, int rank)
{
    for (size_t k = 0; k < bytes; k++)
        buf[k] = sc_pattern_byte(rank, k);
}

static int has_pattern(const unsigned char *buf, size_t bytes, int rank)
{
    for (size_t k = 0; k < bytes; k++)
        if (buf[k] != sc_pattern_byte(rank, k))
            return 0;
    return 1;
}

/* Writes rank r's input vector of n elements. */
static void fill_vector(const sc_run_spec_t *spec, int r, size_t n, char *buf)
{
    size_t elem = sc_type_size(spec->type);
    for (size_t k = 0; k < n; k++)
        sc_op_sample(spec->op, spec->type, r, spec->np, k, buf + k * elem);
}

/* The sequential reduction of every rank's input, in rank order; NULL if
 * out of memory. */
static char *reference_result(const sc_run_spec_t *spec)
{
    size_t n = spec->bytes / sc_type_size(spec->type);
    char *result = malloc(spec->bytes + 1), *input = malloc(spec->bytes + 1);
    if (result && input) {
        fill_vector(spec, 0, n, result);
        for (int r = 1; r < spec->np; r++) {
            fill_vector(spec, r, n, input);
            sc_op_apply(spec->op, spec->type, result, input, n);
        }
    } else {
        free(result);
        result = NULL;
    }
    free(input);
    return result;
}

/* Bytes one rank's buffers hold in a verified run: what sc_run allocates
 * per rank (setup_buffers), and the most any algorithm moves at once. */
static double buffer_bytes(const sc_run_spec_t *spec)
{
    double m = (double)spec->bytes, p = spec->np;
    switch (spec->algo->collective) {
    case SC_ALLGATHER:
        return m * (p + 1);
    case SC_REDUCE:
    case SC_ALLREDUCE:
        return 2 * m;
    case SC_BCAST:
        return m;
    case SC_BARRIER:
        return 0;
    }
    return 0;
}

/* Sizes are bounded so that every byte count of a run, np blocks of the
 * size included, is exact in a double and fits a size_t twice over. */
#define SC_MAX_RUN_BYTES 0x1p53

static sc_err_t check_size(const sc_run_spec_t *spec)
{
    double per_rank = buffer_bytes(spec), p = spec->np;
    if (2 * per_rank > SC_MAX_RUN_BYTES) {
        double most = spec->algo->collective == SC_ALLGATHER ? SC_MAX_RUN_BYTES / 2 / (p + 1)
                                                             : SC_MAX_RUN_BYTES / 4;
        return sc_error(SC_ERR_INPUT,
                        "--size %zu: %s on %d ranks would handle more than 2^53 bytes per "
                        "rank; use at most %.0f bytes at this process count",
                        spec->bytes, spec->algo->name, spec->np, floor(most));
    }
    if (spec->payload) {
        /* Every rank's buffers live in one process. */
        double memory = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
        if (memory > 0 && per_rank * p > memory / 2)
            return sc_error(SC_ERR_INPUT,
                            "--size %zu: the buffers of %d ranks of %s take %.3g GiB, more than "
                            "half of this machine's %.3g GiB; use --no-payload to simulate sizes "
                            "only, or a smaller --size or --np",
                            spec->bytes, spec->np, spec->algo->name, per_rank * p / 0x1p30,
                            memory / 0x1p30);
    }
    return SC_OK;
}

sc_err_t sc_run_check(const sc_run_spec_t *spec)
{
    const sc_platform_t *plat = spec->plat;
    if (spec->np < 1 || spec->np > plat->total_cores)
        return sc_error(SC_ERR_INPUT,
                        "--np %d: platform '%s' has %d cores on %d nodes; use --np 1..%d",
                        spec->np, plat->path, plat->total_cores, plat->nnodes,
                        plat->total_cores);
    sc_collective_t coll = spec->algo->collective;
    if ((coll == SC_BCAST || coll == SC_REDUCE) && (spec->root < 0 || spec->root >= spec->np))
        return sc_error(SC_ERR_INPUT, "--root %d: out of range; ranks are 0..%d",
                        spec->root, spec->np - 1);
    if (sc_algo_is_reduction(spec->algo)) {
        sc_err_t err = sc_op_check(spec->op, spec->type);
        size_t elem = sc_type_size(spec->type);
        if (err)
            return err;
        if (spec->bytes % elem)
            return sc_error(SC_ERR_INPUT,
                            "--size %zu: a vector of %s is a multiple of %zu bytes (use %zu or "
                            "%zu)",
                            spec->bytes, sc_type_name(spec->type), elem,
                            spec->bytes / elem * elem, (spec->bytes / elem + 1) * elem);
    }
    sc_err_t err = check_size(spec);
    return err ? err : sc_algo_check(spec->algo, spec->np);
}

/* Everything the child process needs for its one simulation. */
typedef struct {
    const sc_run_spec_t *spec;
    sc_model_t model;
    sc_scratch_t *scratch;   /* size-only runs */
    sc_world_t *world;
    sc_coll_args_t *args;    /* per rank */
    unsigned char **owned;   /* per rank, the buffers to free */
    double *start, *finish;
    int *finished;
    sc_err_t error;          /* first rank failure */
    char error_msg[512];
} session_t;

/* A child process runs exactly one simulation. */
static session_t *session;

static void rank_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    sc_comm_t *comm = sg_actor_self_get_data();
    int r = comm->rank;
    sc_transport_begin(comm);
    /* Every rank starts listening before any rank sends. */
    sg_actor_yield();
    if (session->spec->start_skew_s > 0) {
        sg_actor_sleep_for(session->spec->start_skew_s * r);
        sc_transport_sync(comm);
    }
    session->start[r] = simgrid_get_clock();
    sc_err_t err = session->spec->algo->run(comm, &session->args[r]);
    session->finish[r] = simgrid_get_clock();
    sc_err_t end = sc_transport_end(comm);
    if (!err)
        err = end;
    if (err && !session->error) {
        session->error = err;
        snprintf(session->error_msg, sizeof session->error_msg, "%s", sc_error_message());
    }
    session->finished[r] = 1;
}

static sc_err_t setup_buffers(session_t *s)
{
    const sc_run_spec_t *spec = s->spec;
    int p = spec->np;
    size_t m = spec->bytes;
    sc_collective_t coll = spec->algo->collective;
    const int *pi = s->model.pi, *pi_inv = s->model.pi_inv;
    sc_coll_args_t common = {.bytes = m, .root = spec->root, .op = spec->op,
                             .type = spec->type, .pi = pi, .pi_inv = pi_inv};
    if (!spec->payload) {
        s->scratch = sc_scratch_create();
        void *area = s->scratch ? sc_scratch_get(s->scratch, coll == SC_ALLGATHER ? (size_t)p * m : m)
                                : NULL;
        if (!area)
            return sc_error(SC_ERR_RUN, "out of memory for the scratch buffers");
        for (int r = 0; r < p; r++) {
            s->args[r] = common;
            s->args[r].sendbuf = s->args[r].recvbuf = area;
        }
        return SC_OK;
    }
    for (int r = 0; r < p; r++) {
        s->args[r] = common;
        unsigned char *buf = NULL;
        if (sc_algo_is_reduction(spec->algo)) {
            buf = calloc(1, 2 * m + 1);
            if (buf) {
                fill_vector(spec, r, m / sc_type_size(spec->type), (char *)buf);
                s->args[r].sendbuf = buf;
                s->args[r].recvbuf = buf + m;
            }
        } else if (coll == SC_ALLGATHER) {
            buf = calloc(1, m + (size_t)p * m + 1);
            if (buf) {
                fill_pattern(buf, m, r);
                s->args[r].sendbuf = buf;
                s->args[r].recvbuf = buf + m;
            }
        } else if (coll == SC_BCAST) {
            buf = calloc(1, m + 1);
            if (buf && r == spec->root)
                fill_pattern(buf, m, r);
            s->args[r].recvbuf = buf;
        } else {
            continue;
        }
        if (!buf)
            return sc_error(SC_ERR_RUN, "out of memory for the buffers of rank %d", r);
        s->owned[r] = buf;
    }
    return SC_OK;
}

/* 1 if every rank holds the right result, 0 if not, -1 if not checkable. */
static int verify(const session_t *s)
{
    const sc_run_spec_t *spec = s->spec;
    int p = spec->np;
    size_t m = spec->bytes;
    switch (spec->algo->collective) {
    case SC_BARRIER: {
        /* Nobody may leave before the last rank has entered. */
        double last_entry = sc_model_max(s->start, p);
        for (int r = 0; r < p; r++)
            if (s->finish[r] < last_entry)
                return 0;
        return 1;
    }
    case SC_ALLGATHER:
        if (!spec->payload)
            return -1;
        for (int r = 0; r < p; r++)
            for (int j = 0; j < p; j++)
                if (!has_pattern((const unsigned char *)s->args[r].recvbuf + (size_t)j * m, m, j))
                    return 0;
        return 1;
    case SC_BCAST:
        if (!spec->payload)
            return -1;
        for (int r = 0; r < p; r++)
            if (!has_pattern(s->args[r].recvbuf, m, spec->root))
                return 0;
        return 1;
    case SC_REDUCE:
    case SC_ALLREDUCE: {
        if (!spec->payload)
            return -1;
        char *want = reference_result(spec);
        if (!want)
            return -1;
        int ok = 1;
        for (int r = 0; r < p && ok; r++)
            if (spec->algo->collective == SC_ALLREDUCE || r == spec->root)
                ok = memcmp(s->args[r].recvbuf, want, m) == 0;
        free(want);
        return ok;
    }
    }
    return 0;
}

static void teardown(session_t *s)
{
    sc_world_destroy(s->world);
    sc_scratch_destroy(s->scratch);
    for (int r = 0; s->owned && r < s->spec->np; r++)
        free(s->owned[r]);
    free(s->owned);
    free(s->args);
    free(s->start);
    free(s->finish);
    free(s->finished);
    sc_model_destroy(&s->model);
}

/* What the parent worked out for the child: where each rank runs, and the
 * mapping the algorithm plays through (NULL unless SC_USES_MAPPING). */
typedef struct {
    const sc_run_spec_t *spec;
    const int *node_of;
    const int *pi, *pi_inv;
    int receives; /* posted per rank: see sc_world_receives_short */
} run_ctx_t;

/* Receives each rank posts at first; runs that need more are repeated. */
#define FIRST_RECEIVES 8

static sc_err_t simulate(void *arg, sc_wire_t *out)
{
    const run_ctx_t *ctx = arg;
    const sc_run_spec_t *spec = ctx->spec;
    int p = spec->np;
    session_t s = {.spec = spec,
                   .args = calloc((size_t)p, sizeof *s.args),
                   .owned = calloc((size_t)p, sizeof *s.owned),
                   .start = calloc((size_t)p, sizeof *s.start),
                   .finish = calloc((size_t)p, sizeof *s.finish),
                   .finished = calloc((size_t)p, sizeof *s.finished)};
    session = &s;
    /* The transport keeps the NICs' state (the gap) in the model. */
    sc_err_t err = sc_model_init(&s.model, spec->plat, p, ctx->node_of, ctx->pi, ctx->pi_inv,
                                 sc_type_size(spec->type));
    if (!err && (!s.args || !s.owned || !s.start || !s.finish || !s.finished))
        err = sc_error(SC_ERR_RUN, "out of memory for %d ranks", p);
    if (!err)
        err = setup_buffers(&s);
    if (!err) {
        sc_child_step("loading the platform");
        sc_engine_boot(spec->plat);
        err = sc_world_create(&s.model, s.scratch, ctx->receives, &s.world);
    }
    for (int r = 0; !err && r < p; r++) {
        char name[32];
        snprintf(name, sizeof name, "rank-%d", r);
        sg_host_t host = sg_host_by_name(spec->plat->nodes[ctx->node_of[r]].name);
        sg_actor_t actor = sg_actor_init(name, host);
        sg_actor_set_data(actor, sc_world_comm(s.world, r));
        sg_actor_start(actor, rank_main, 0, NULL);
    }
    if (!err) {
        sc_child_step("simulating %s on %d ranks", spec->algo->name, p);
        simgrid_run();
        int unfinished = 0;
        for (int r = 0; r < p; r++)
            unfinished += !s.finished[r];
        if (s.error)
            err = sc_error(s.error, "%s", s.error_msg);
        else if (unfinished)
            err = sc_error(SC_ERR_RUN, "%s deadlocked: %d of %d ranks never finished",
                           spec->algo->name, unfinished, p);
        else
            err = sc_world_check(s.world);
    }
    if (!err) {
        sc_traffic_t total = {{0}, {0}, 0};
        double max_rank_bytes = 0;
        for (int r = 0; r < p; r++) {
            const sc_traffic_t *tr = sc_world_traffic(s.world, r);
            double sent = 0;
            for (int l = 0; l < SC_NLEVELS; l++) {
                total.messages[l] += tr->messages[l];
                total.bytes[l] += tr->bytes[l];
                sent += tr->bytes[l];
            }
            if (sent > max_rank_bytes)
                max_rank_bytes = sent;
            if (tr->path_bytes > total.path_bytes)
                total.path_bytes = tr->path_bytes;
        }
        sc_wire_put_int(out, sc_world_receives_short(s.world));
        sc_wire_put(out, s.start, (size_t)p * sizeof *s.start);
        sc_wire_put(out, s.finish, (size_t)p * sizeof *s.finish);
        sc_wire_put(out, &total, sizeof total);
        sc_wire_put_double(out, max_rank_bytes);
        sc_wire_put_int(out, verify(&s));
    }
    teardown(&s);
    session = NULL;
    return err;
}

/* Where each rank and each algorithm position of a spec runs: see
 * sc_run_spec_t. pi_inv is NULL when the spec has no pi. */
typedef struct {
    int *node_of;          /* by rank */
    int *node_of_position; /* by algorithm position */
    int *pi_inv;
} layout_t;

static void layout_destroy(layout_t *lay)
{
    free(lay->node_of);
    free(lay->node_of_position);
    free(lay->pi_inv);
    *lay = (layout_t){0};
}

static sc_err_t layout_init(const sc_run_spec_t *spec, layout_t *lay)
{
    int p = spec->np;
    int *slot_node = malloc((size_t)p * sizeof *slot_node);
    *lay = (layout_t){malloc((size_t)p * sizeof *lay->node_of),
                      malloc((size_t)p * sizeof *lay->node_of_position),
                      spec->pi ? malloc((size_t)p * sizeof *lay->pi_inv) : NULL};
    sc_err_t err = SC_OK;
    if (!slot_node || !lay->node_of || !lay->node_of_position || (spec->pi && !lay->pi_inv))
        err = sc_error(SC_ERR_RUN, "out of memory for %d ranks", p);
    else if (!(err = sc_place(spec->plat, p, spec->placement, slot_node)) &&
             !(spec->pi && (err = sc_mapping_invert(p, spec->pi, lay->pi_inv)))) {
        for (int j = 0; j < p; j++)
            lay->node_of_position[j] = slot_node[lay->pi_inv ? lay->pi_inv[j] : j];
        const int *placed =
            spec->algo->needs & SC_USES_MAPPING ? slot_node : lay->node_of_position;
        memcpy(lay->node_of, placed, (size_t)p * sizeof *placed);
    }
    free(slot_node);
    if (err)
        layout_destroy(lay);
    return err;
}

sc_err_t sc_run(const sc_run_spec_t *spec, sc_run_result_t *res)
{
    memset(res, 0, sizeof *res);
    sc_err_t err = sc_run_check(spec);
    if (err)
        return err;
    int p = spec->np;
    layout_t lay = {0};
    double *t = malloc((size_t)p * sizeof *t);
    res->start = malloc((size_t)p * sizeof *res->start);
    res->finish = malloc((size_t)p * sizeof *res->finish);
    if (!t || !res->start || !res->finish) {
        err = sc_error(SC_ERR_RUN, "out of memory for %d ranks", p);
        goto cleanup;
    }
    if ((err = layout_init(spec, &lay)))
        goto cleanup;
    const int *node_of = lay.node_of;

    int mapped = (spec->algo->needs & SC_USES_MAPPING) && spec->pi;
    char what[256];
    snprintf(what, sizeof what, "the simulation of %s (np %d, %zu bytes) failed",
             spec->algo->name, p, spec->bytes);
    run_ctx_t ctx = {spec, node_of, mapped ? spec->pi : NULL, mapped ? lay.pi_inv : NULL,
                     FIRST_RECEIVES};
    sc_wire_t in;
    int short_of = 0;
    while (1) {
        if ((err = sc_child_run(simulate, &ctx, SC_ERR_RUN, what, &in)))
            goto cleanup;
        if (!sc_wire_get_int(&in, &short_of))
            short_of = -1; /* cut short */
        if (short_of <= ctx.receives)
            break;
        /* A message may have been seen late: run again with enough receives. */
        sc_wire_free(&in);
        ctx.receives = short_of > 2 * ctx.receives ? short_of : 2 * ctx.receives;
    }
    sc_traffic_t total;
    int ok = short_of >= 0 && sc_wire_get(&in, res->start, (size_t)p * sizeof *res->start) &&
             sc_wire_get(&in, res->finish, (size_t)p * sizeof *res->finish) &&
             sc_wire_get(&in, &total, sizeof total) &&
             sc_wire_get_double(&in, &res->max_rank_bytes) && sc_wire_get_int(&in, &res->valid);
    sc_wire_free(&in);
    if (!ok) {
        err = sc_error(SC_ERR_RUN, "%s: its results were cut short", what);
        goto cleanup;
    }
    memcpy(res->messages, total.messages, sizeof res->messages);
    memcpy(res->bytes, total.bytes, sizeof res->bytes);
    res->path_bytes = total.path_bytes;
    res->nodes = sc_place_nodes_used(spec->plat, p, node_of);

    double first_start = res->start[0];
    for (int r = 1; r < p; r++)
        if (res->start[r] < first_start)
            first_start = res->start[r];
    res->sim_time_s = sc_model_max(res->finish, p) - first_start;

    res->model_time_s = NAN;
    if (spec->plat->uniform) {
        sc_model_t model;
        memcpy(t, res->start, (size_t)p * sizeof *t);
        if (!(err = sc_model_init(&model, spec->plat, p, node_of, ctx.pi, ctx.pi_inv,
                                  sc_type_size(spec->type))))
            err = spec->algo->model(&model, spec->bytes, spec->root, t);
        sc_model_destroy(&model);
        if (err)
            goto cleanup;
        res->model_time_s = sc_model_max(t, p) - first_start;
    }
cleanup:
    layout_destroy(&lay);
    free(t);
    if (err)
        sc_run_result_destroy(res);
    return err;
}

sc_err_t sc_run_cut(const sc_run_spec_t *spec, double *cut, double *total)
{
    sc_err_t err = sc_run_check(spec);
    if (err)
        return err;
    layout_t lay = {0};
    sc_graph_t graph = {0};
    if (!(err = layout_init(spec, &lay)) &&
        !(err = sc_graph_record_placed(spec->algo, spec->np, spec->root, lay.node_of,
                                       &graph))) {
        *cut = sc_graph_cut(&graph, lay.node_of_position);
        *total = graph.total_weight;
    }
    sc_graph_destroy(&graph);
    layout_destroy(&lay);
    return err;
}

sc_err_t sc_run_partition(const sc_run_spec_t *spec, sc_partitioner_t how, int *pi,
                          double *seconds)
{
    int *slot_node = malloc((size_t)spec->np * sizeof *slot_node);
    sc_graph_t graph = {0};
    sc_err_t err = slot_node ? SC_OK : sc_error(SC_ERR_RUN, "out of memory");
    if (!err && !(err = sc_run_check(spec)) &&
        !(err = sc_place(spec->plat, spec->np, SC_PLACE_BLOCK, slot_node)) &&
        !(err = sc_graph_record(spec->algo, spec->np, spec->root, &graph)))
        err = sc_mapping_partition(&graph, spec->plat->nnodes, slot_node, how, pi, seconds);
    sc_graph_destroy(&graph);
    free(slot_node);
    return err;
}

void sc_run_result_destroy(sc_run_result_t *res)
{
    free(res->start);
    free(res->finish);
    res->start = res->finish = NULL;
}
