/* One simulated run of a program: every rank runs it as an actor (the
 * interpreter of sim/program/interpret.h on SimGrid's clock), in a child
 * process; the parent gets the times, the traffic and the checks.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "run.h"
#include "ranks.h"

#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/exec.h>
#include <simgrid/host.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algorithms/collectives.h"
#include "algorithms/kinds.h"
#include "algorithms/mapping/mapping.h"
#include "algorithms/mapping/search.h"
#include "models/p2p.h"
#include "sim/program/interpret.h"
#include "sim/program/model.h"
#include "sim/simgrid/child.h"
#include "sim/simgrid/driver.h"
#include "sim/simgrid/engine.h"
#include "sim/simgrid/live.h"
#include "sim/simgrid/node_replay.h"
#include "sim/simgrid/s4u_calls.h"
#include "sim/simgrid/transport.h"

/* Sizes are bounded so that every byte count of a run, np blocks of the
 * size included, is exact in a double and fits a size_t twice over. */
#define SC_MAX_RUN_BYTES 0x1p53

/* ---- What the parent works out before simulating ---- */

/* Where each rank and each algorithm position of a spec runs (see
 * sc_run_spec_t), and the program resolved for it. */
typedef struct {
    sc_program_t prog;
    int *node_of;          /* by rank */
    int *node_of_position; /* by algorithm position */
    int *domain_of, *domain_of_position; /* the same for smallest domains */
    int *pi_inv;           /* NULL when the spec has no pi */
    const int *play_pi;    /* the mapping the algorithm plays through, */
    const int *play_pi_inv; /* NULL unless it is mapping-aware */
    size_t *buffer_bytes;  /* per buffer, on one rank */
    size_t stage_in, stage_out; /* the packing buffers, on one rank */
    long communications;   /* statements run that communicate, loops multiplied out */
} layout_t;

static void layout_destroy(layout_t *lay)
{
    sc_program_destroy(&lay->prog);
    free(lay->node_of);
    free(lay->node_of_position);
    free(lay->domain_of);
    free(lay->domain_of_position);
    free(lay->pi_inv);
    free(lay->buffer_bytes);
    *lay = (layout_t){0};
}

/* The algorithm of a program that is a single call, or NULL. */
static const sc_algo_t *sole_call(const sc_program_t *prog)
{
    if (prog->nstmts == 1 && prog->stmts[0].kind == SC_STMT_CALL)
        return prog->stmts[0].algo;
    return NULL;
}

/* Bytes one rank holds for a statement, per byte of the statement: its
 * input and output buffers. */
static double bytes_per_byte(const sc_stmt_t *st, int p)
{
    switch (st->kind) {
    case SC_STMT_CALL: {
        const sc_kind_t *kind = sc_kind(st->collective);
        if (!kind->has_data)
            return 0;
        return kind->in_place
                   ? 1
                   : (kind->input_blocks_per_rank ? p : 1) + (kind->output_blocks_per_rank ? p : 1);
    }
    case SC_STMT_HALO: return 4.0 * st->grid.ndims;
    case SC_STMT_SEND: return 1;
    default: return 0;
    }
}

/* What a statement is called in messages: the algorithm of a single call,
 * or its place in the program. */
static void stmt_name(const sc_program_t *prog, const sc_stmt_t *st, char *out, size_t len)
{
    const char *what = st->kind == SC_STMT_HALO   ? "halo"
                       : st->kind == SC_STMT_SEND ? "send"
                                                  : sc_kind(st->collective)->name;
    if (st->line > 0)
        snprintf(out, len, "%s:%d: %s", prog->path, st->line, what);
    else
        snprintf(out, len, "%s", st->algo ? st->algo->name : what);
}

/* Before any buffer size is computed in size_t: every byte count of a
 * statement exact in a double, twice over. */
static sc_err_t check_sizes(const sc_run_spec_t *spec, const layout_t *lay)
{
    for (int i = 0; i < lay->prog.nstmts; i++) {
        const sc_stmt_t *st = &lay->prog.stmts[i];
        double f = bytes_per_byte(st, spec->np);
        if (f > 0 && 2 * f * (double)st->bytes > SC_MAX_RUN_BYTES) {
            char name[256];
            stmt_name(&lay->prog, st, name, sizeof name);
            return sc_error(SC_ERR_INPUT,
                            "%s of %zu bytes on %d ranks would handle more than 2^53 bytes per "
                            "rank; use at most %.0f bytes at this process count",
                            name, st->bytes, spec->np, floor(SC_MAX_RUN_BYTES / 2 / f));
        }
    }
    return SC_OK;
}

static sc_err_t check_memory(const sc_run_spec_t *spec, const layout_t *lay)
{
    double per_rank = (double)lay->stage_in + (double)lay->stage_out, p = spec->np;
    for (int b = 0; b < lay->prog.nbuffers; b++)
        per_rank += (double)lay->buffer_bytes[b];
    if (spec->payload) {
        /* Every rank's buffers live in one process. */
        double memory = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
        const sc_algo_t *sole = sole_call(&lay->prog);
        if (memory > 0 && per_rank * p > memory / 2)
            return sc_error(SC_ERR_INPUT,
                            "the buffers of %d ranks of %s take %.3g GiB, more than half of "
                            "this machine's %.3g GiB; simulate sizes only (--no-payload), or "
                            "use smaller sizes or fewer processes",
                            spec->np, sole ? sole->name : lay->prog.path, per_rank * p / 0x1p30,
                            memory / 0x1p30);
    }
    return SC_OK;
}

/* Grows the packing buffers of one rank to what the statement needs. */
static void stage_bytes(const sc_stmt_t *st, int p, size_t *in, size_t *out)
{
    size_t need_in = 0, need_out = 0;
    if (st->kind == SC_STMT_HALO && st->npieces > 1) {
        need_in = need_out = 2 * (size_t)st->grid.ndims * st->bytes;
    } else if (sc_stmt_needs_stage(st)) {
        need_in = st->kind == SC_STMT_CALL && st->collective == SC_SCATTER ? (size_t)p * st->bytes
                                                                           : st->bytes;
        need_out = st->kind == SC_STMT_CALL && st->collective == SC_ALLGATHER
                       ? (size_t)p * st->bytes
                       : st->bytes;
    } else if (st->kind == SC_STMT_CALL && st->collective == SC_BARRIER) {
        need_in = need_out = st->bytes;
    } else if (st->kind == SC_STMT_CALL && st->npieces == 1 &&
               st->pieces[0].in == st->pieces[0].out && !sc_kind(st->collective)->in_place) {
        /* the input of an in-place call, kept */
        need_in =
            sc_kind(st->collective)->input_blocks_per_rank ? (size_t)p * st->bytes : st->bytes;
    }
    if (need_in > *in)
        *in = need_in;
    if (need_out > *out)
        *out = need_out;
}

static sc_err_t build_program(const sc_run_spec_t *spec, sc_program_t *prog)
{
    if (spec->program)
        return sc_program_copy(spec->program, prog);
    sc_err_t err = sc_program_one_call(spec->algo, spec->bytes, spec->root, spec->op, spec->type,
                                       prog);
    if (!err && (err = sc_program_check(prog)))
        sc_program_destroy(prog);
    return err;
}

/* Whether the program has a reduction by an op for which `fits` says 1. */
static int has_reduction(const sc_program_t *prog, int (*fits)(sc_op_t op))
{
    for (int i = 0; i < prog->nstmts; i++) {
        const sc_stmt_t *st = &prog->stmts[i];
        if (st->kind == SC_STMT_CALL && sc_kind(st->collective)->is_reduction && fits(st->op))
            return 1;
    }
    return 0;
}

static int is_extreme_op(sc_op_t op)
{
    return op == SC_OP_MAX || op == SC_OP_MIN;
}

/* --data names ranks that exist and applies to some reduction. */
static sc_err_t check_deciders(const sc_run_spec_t *spec, const sc_program_t *prog)
{
    sc_err_t err = SC_OK;
    if (spec->deciders && !(err = sc_deciders_check(spec->deciders, spec->np)) &&
        !has_reduction(prog, sc_op_can_decide))
        err = sc_error(SC_ERR_INPUT, "--data decider applies to reductions by land, lor, band "
                                     "or bor, and there are none here (use --op)");
    if (!err && spec->extreme && !(err = sc_extreme_check(spec->extreme, spec->np)) &&
        !has_reduction(prog, is_extreme_op))
        err = sc_error(SC_ERR_INPUT, "--data extreme applies to reductions by max or min, and "
                                     "there are none here (use --op)");
    return err;
}

/* Whether the program has an until loop that bets on going on (predict):
 * its computing runs in the background, which live ranks do not model. */
static int has_prediction(const sc_program_t *prog)
{
    for (int i = 0; i < prog->nstmts; i++)
        if (prog->stmts[i].kind == SC_STMT_LOOP && prog->stmts[i].until.on &&
            prog->stmts[i].until.predict)
            return 1;
    return 0;
}

/* What live ranks can run (SimGrid 4.1): any program, with data or not,
 * but nothing that looks at each rank's time or messages as they go, nor
 * background computing, nor a node's cores apart (its ranks are on one
 * host, as the driver's). What their code calls and they cannot make,
 * they say when they meet it (sim/simgrid/live.cpp). */
static sc_err_t check_live(const sc_run_spec_t *spec, const layout_t *lay)
{
    sc_err_t err = sc_driver_available();
    if (err) {
        char why[512]; /* sc_error writes where the message is */
        snprintf(why, sizeof why, "%s", sc_error_message());
        return sc_error(err, "--replay=live has the driver play its ranks' calls, and %s", why);
    }
    const char *why = spec->trace || spec->messages ? "a traced run"
                      : spec->measure.on            ? "a benchmark's timed statements"
                      : spec->start_skew_s > 0      ? "ranks that start at different times"
                      : has_prediction(&lay->prog)  ? "an until loop with predict (its bet "
                                                      "computes in the background)"
                      : sc_platform_node_levels(spec->plat)
                          ? "on nodes with sockets, NUMA domains or CCXs (it runs a node's "
                            "ranks on one host)"
                          : NULL;
    if (why)
        return sc_error(SC_ERR_INPUT, "--replay=live cannot run %s; leave --replay out", why);
    return SC_OK;
}

/* What the replay engine can play: one call, sizes only, nothing that
 * looks at each rank's time or messages as they go; from maestro, only
 * on a SimGrid that can. */
static sc_err_t check_replay(const sc_run_spec_t *spec, const layout_t *lay)
{
    if (spec->replay == SC_REPLAY_LIVE)
        return check_live(spec, lay);
    sc_err_t err = spec->replay == SC_REPLAY_MAESTRO ? sc_driver_available() : SC_OK;
    if (err)
        return err;
    const sc_algo_t *sole = sole_call(&lay->prog);
    const char *why = !sole                           ? "a program of more than one call"
                      : spec->payload                 ? "a run with data (add --no-payload)"
                      : spec->trace || spec->messages ? "a traced run"
                      : spec->start_skew_s > 0        ? "ranks that start at different times"
                      : sc_stmt_needs_stage(&lay->prog.stmts[0]) ? "a packed or split call"
                      : sc_platform_node_levels(spec->plat)
                          ? "on nodes with sockets, NUMA domains or CCXs (it runs a node's "
                            "ranks on one host)"
                          : NULL;
    if (why)
        return sc_error(SC_ERR_INPUT,
                        "--replay plays the schedule of one call of a collective, sizes only; "
                        "it cannot run %s",
                        why);
    return sc_schedule_replayable(sole);
}

static sc_err_t layout_init(const sc_run_spec_t *spec, layout_t *lay)
{
    const sc_platform_t *plat = spec->plat;
    int p = spec->np;
    *lay = (layout_t){0};
    if (p < 1 || p > plat->total_cores)
        return sc_error(SC_ERR_INPUT,
                        "%d processes do not fit platform '%s': it has %d cores on %d nodes; "
                        "use 1 to %d",
                        p, plat->path, plat->total_cores, plat->nnodes, plat->total_cores);
    sc_err_t err = build_program(spec, &lay->prog);
    if (err)
        return err;
    int *slot_node = malloc(2 * (size_t)p * sizeof *slot_node);
    lay->node_of = malloc((size_t)p * sizeof *lay->node_of);
    lay->node_of_position = malloc((size_t)p * sizeof *lay->node_of_position);
    lay->domain_of = malloc((size_t)p * sizeof *lay->domain_of);
    lay->domain_of_position = malloc((size_t)p * sizeof *lay->domain_of_position);
    lay->pi_inv = spec->pi ? malloc((size_t)p * sizeof *lay->pi_inv) : NULL;
    lay->buffer_bytes = calloc((size_t)lay->prog.nbuffers + 1, sizeof *lay->buffer_bytes);
    if (!slot_node || !lay->node_of || !lay->node_of_position || !lay->domain_of ||
        !lay->domain_of_position || (spec->pi && !lay->pi_inv) || !lay->buffer_bytes) {
        err = sc_error(SC_ERR_RUN, "out of memory for %d ranks", p);
        goto cleanup;
    }
    int *slot_domain = slot_node + p;
    if ((err = sc_place(plat, p, spec->placement, slot_node)) ||
        (err = sc_place_domains(plat, p, slot_node, slot_domain)) ||
        (spec->pi && (err = sc_mapping_invert(p, spec->pi, lay->pi_inv))))
        goto cleanup;
    for (int j = 0; j < p; j++) {
        int slot = lay->pi_inv ? lay->pi_inv[j] : j;
        lay->node_of_position[j] = slot_node[slot];
        lay->domain_of_position[j] = slot_domain[slot];
    }
    /* Profiles choose by where the ranks are: resolve on the ranks' nodes,
     * which depend on the chosen algorithm only for a mapping-aware one,
     * named, not chosen. */
    const sc_program_t *given = &lay->prog;
    const sc_algo_t *named = given->nstmts == 1 && given->stmts[0].kind == SC_STMT_CALL
                                 ? given->stmts[0].choice.algo
                                 : NULL;
    int plays = named && (named->needs & SC_USES_MAPPING) && spec->pi;
    memcpy(lay->node_of, plays ? slot_node : lay->node_of_position, (size_t)p * sizeof(int));
    memcpy(lay->domain_of, plays ? slot_domain : lay->domain_of_position, (size_t)p * sizeof(int));
    if ((err = sc_program_resolve(&lay->prog, p, lay->node_of, spec->profile)))
        goto cleanup;
    if ((err = check_sizes(spec, lay)) || (err = check_deciders(spec, &lay->prog)))
        goto cleanup;
    lay->play_pi = plays ? spec->pi : NULL;
    lay->play_pi_inv = plays ? lay->pi_inv : NULL;
    for (int b = 0; b < lay->prog.nbuffers; b++)
        lay->buffer_bytes[b] = sc_program_buffer_bytes(&lay->prog, b, p);
    for (int i = 0; i < lay->prog.nstmts; i++)
        stage_bytes(&lay->prog.stmts[i], p, &lay->stage_in, &lay->stage_out);
    long statements;
    sc_program_count(&lay->prog, &statements, &lay->communications);
    if (spec->trace && lay->communications > SC_RUN_MAX_TRACE)
        err = sc_error(SC_ERR_INPUT,
                       "tracing a program that runs %ld communication statements; at most %ld "
                       "can be traced",
                       lay->communications, SC_RUN_MAX_TRACE);
    if (!err)
        err = check_memory(spec, lay);
    if (!err && spec->replay)
        err = check_replay(spec, lay);
cleanup:
    free(slot_node);
    if (err)
        layout_destroy(lay);
    return err;
}

sc_err_t sc_run_check(const sc_run_spec_t *spec)
{
    layout_t lay;
    sc_err_t err = layout_init(spec, &lay);
    if (!err)
        layout_destroy(&lay);
    return err;
}

sc_err_t sc_run_resolved(const sc_run_spec_t *spec, sc_program_t *prog)
{
    layout_t lay;
    sc_err_t err = layout_init(spec, &lay);
    if (err)
        return err;
    *prog = lay.prog;
    lay.prog = (sc_program_t){0};
    layout_destroy(&lay);
    return SC_OK;
}

/* ---- The simulation, in the child ---- */

/* A traced statement as it began on one rank (see trace_begins). */
typedef struct {
    sc_traffic_t traffic;
    double clock;
} mark_t;

typedef struct {
    const sc_run_spec_t *spec;
    const layout_t *lay;
    int receives; /* in the parent's copy: receives posted per rank (see
                     sc_world_receives_short) */
    sc_model_t model;
    sc_scratch_t *scratch; /* size-only runs */
    sc_world_t *world;
    sc_interp_t interp;
    double *start, *finish;
    int *finished;
    sc_op_record_t *ops;   /* trace */
    mark_t *marks;         /* trace: by rank */
    /* measure, by rank: when the statement last began, when its first
     * timed execution began, the time counted, the executions seen */
    double *measure_began, *measure_first, *measured;
    long *measure_count;
    sc_err_t error;        /* first rank failure */
    char error_msg[512];
    /* live: rank 0's speculation counts, kept before its communicator goes */
    long speculated, mispredicted;
} session_t;

/* A child process runs exactly one simulation. */
static session_t *session;

/* The interpreter's host (sc_interp_host_t): the calling actor's. */
static void host_execute(void *ctx, double flops)
{
    (void)ctx;
    sg_actor_execute(flops);
}

static void host_sleep(void *ctx, double seconds)
{
    (void)ctx;
    sg_actor_sleep_for(seconds);
}

static double host_speed(void *ctx)
{
    (void)ctx;
    return sg_host_get_speed(sg_host_self());
}

static void *host_execute_async(void *ctx, double flops)
{
    (void)ctx;
    return sg_actor_exec_async(flops);
}

static void host_execute_end(void *ctx, void *activity, int wait)
{
    (void)ctx;
    sg_exec_t exec = activity;
    if (wait)
        sg_exec_wait(exec);
    else if (!sg_exec_test(exec))
        sg_exec_cancel(exec);
}

/* The trace: when each statement began and ended, and what it sent; and
 * the benchmark's timing of one statement (spec->measure). */
static void statement_begins(void *ctx, int rank)
{
    session_t *s = ctx;
    if (s->marks)
        s->marks[rank] = (mark_t){*sc_world_traffic(s->world, rank), simgrid_get_clock()};
    if (s->measured)
        s->measure_began[rank] = simgrid_get_clock();
}

static void measure_ends(session_t *s, int rank, int stmt)
{
    const sc_measure_t *m = &s->spec->measure;
    if (stmt < m->first || stmt > m->last || ++s->measure_count[rank] <= m->skip)
        return;
    double now = simgrid_get_clock();
    if (s->measure_count[rank] == m->skip + 1)
        s->measure_first[rank] = s->measure_began[rank];
    if (m->span)
        s->measured[rank] = now - s->measure_first[rank];
    else
        s->measured[rank] += now - s->measure_began[rank];
}

static void statement_ends(void *ctx, int rank, int stmt, long executed, int verdict)
{
    session_t *s = ctx;
    if (s->measured)
        measure_ends(s, rank, stmt);
    if (!s->ops)
        return;
    const sc_stmt_t *st = &s->lay->prog.stmts[stmt];
    sc_op_record_t *op = &s->ops[executed];
    const mark_t *before = &s->marks[rank];
    const sc_traffic_t *after = sc_world_traffic(s->world, rank);
    /* A send's time is its two ranks'; the others pass it by. */
    int takes_part = st->kind != SC_STMT_SEND || rank == st->from || rank == st->to;
    if (takes_part && before->clock < op->start)
        op->start = before->clock;
    if (takes_part && simgrid_get_clock() > op->end)
        op->end = simgrid_get_clock();
    sc_traffic_add(s->model.plat, after, 1, op->messages, op->bytes);
    sc_traffic_add(s->model.plat, &before->traffic, -1, op->messages, op->bytes);
    op->stmt = stmt;
    if (verdict >= 0)
        op->valid = op->valid == 0 ? 0 : verdict;
}

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
    sc_err_t err = sc_interp_run(&session->interp, comm);
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

/* The one scratch area of a size-only run, which every buffer of every
 * rank shares: as large as the largest buffer, and never empty. */
static size_t scratch_bytes(const layout_t *lay)
{
    size_t largest = lay->stage_in > lay->stage_out ? lay->stage_in : lay->stage_out;
    for (int b = 0; b < lay->prog.nbuffers; b++)
        if (lay->buffer_bytes[b] > largest)
            largest = lay->buffer_bytes[b];
    return largest + 1;
}

/* The interpreter of session s's program on `host`, its buffers made: a
 * size-only run's are all one scratch area, the same garbage. */
static sc_err_t interp_start(session_t *s, sc_interp_host_t host)
{
    const sc_run_spec_t *spec = s->spec;
    const layout_t *lay = s->lay;
    unsigned char *area = NULL;
    if (!spec->payload) {
        s->scratch = sc_scratch_create();
        area = s->scratch ? sc_scratch_get(s->scratch, scratch_bytes(lay)) : NULL;
        if (!area)
            return sc_error(SC_ERR_RUN, "out of memory for the scratch buffers");
    }
    s->interp = (sc_interp_t){.prog = &lay->prog,
                              .np = spec->np,
                              .payload = spec->payload,
                              .deciders = spec->deciders,
                              .extreme = spec->extreme,
                              .pi = lay->play_pi,
                              .pi_inv = lay->play_pi_inv,
                              .model = &s->model,
                              .host = host};
    return sc_interp_init(&s->interp, lay->buffer_bytes, lay->stage_in, lay->stage_out, area);
}

static void teardown(session_t *s)
{
    sc_world_destroy(s->world);
    sc_interp_destroy(&s->interp);
    sc_scratch_destroy(s->scratch);
    free(s->start);
    free(s->finish);
    free(s->finished);
    free(s->ops);
    free(s->marks);
    free(s->measure_began);
    free(s->measure_first);
    free(s->measured);
    free(s->measure_count);
    sc_model_destroy(&s->model);
}

static void put_results(session_t *s, sc_wire_t *out)
{
    int p = s->spec->np;
    sc_wire_put_int(out, sc_world_receives_short(s->world));
    sc_traffic_t total;
    double max_rank_bytes;
    sc_ranks_traffic(s->world, p, &total, &max_rank_bytes);
    sc_wire_put(out, s->start, (size_t)p * sizeof *s->start);
    sc_wire_put(out, s->finish, (size_t)p * sizeof *s->finish);
    sc_wire_put(out, &total, sizeof total);
    sc_wire_put_double(out, max_rank_bytes);
    sc_wire_put_int(out, s->interp.wrong ? 0 : s->interp.checked ? 1 : -1);
    if (s->interp.wrong) /* what was wrong: only then */
        sc_wire_put_str(out, s->interp.first_wrong);
    /* Speculation: every rank bets alike, rank 0 speaks for all. */
    long speculated, mispredicted;
    sc_allreduce_spec_counts(sc_world_comm(s->world, 0), &speculated, &mispredicted);
    sc_wire_put(out, &speculated, sizeof speculated);
    sc_wire_put(out, &mispredicted, sizeof mispredicted);
    if (s->ops)
        sc_wire_put(out, s->ops, (size_t)s->lay->communications * sizeof *s->ops);
    if (s->measured) {
        /* each rank's time per timed execution */
        const sc_measure_t *m = &s->spec->measure;
        for (int r = 0; r < p; r++) {
            long timed = s->measure_count[r] - m->skip;
            s->measured[r] = timed <= 0 ? NAN : s->measured[r] / timed;
        }
        sc_wire_put(out, s->measured, (size_t)p * sizeof *s->measured);
    }
    if (s->spec->messages)
        sc_ranks_put_messages(s->world, out);
}

/* Receives each rank posts at first; runs that need more are repeated.
 * A rank waits on all of them each time, so every one costs SimGrid work
 * per message, but a repeated run costs a whole run. Three: Bruck of 16 B
 * blocks at 4096 ranks (ib4x-like) needs three, and ran twice with two
 * (1.6 s against 0.87 s); of 2 KiB it takes 1.22-1.23 s with two,
 * 1.20-1.28 s with three and 1.41 s with four; 54 runs of nine algorithms
 * at 1024 ranks, 16 B to 64 KiB on ib4x- and gige-like platforms, took
 * 344.6 and 343.9 s with two, 331.2 and 338.7 s with three (this machine,
 * alternated). Simulated times are the same. */
#define FIRST_RECEIVES 3

static sc_err_t simulate(void *arg, sc_wire_t *out)
{
    const session_t *ctx = arg;
    const sc_run_spec_t *spec = ctx->spec;
    const layout_t *lay = ctx->lay;
    int p = spec->np;
    session_t s = {.spec = spec, .lay = lay,
                   .start = calloc((size_t)p, sizeof *s.start),
                   .finish = calloc((size_t)p, sizeof *s.finish),
                   .finished = calloc((size_t)p, sizeof *s.finished)};
    if (spec->trace) {
        s.ops = calloc((size_t)lay->communications + 1, sizeof *s.ops);
        s.marks = calloc((size_t)p, sizeof *s.marks);
    }
    if (spec->measure.on) {
        s.measure_began = calloc((size_t)p, sizeof *s.measure_began);
        s.measure_first = calloc((size_t)p, sizeof *s.measure_first);
        s.measured = calloc((size_t)p, sizeof *s.measured);
        s.measure_count = calloc((size_t)p, sizeof *s.measure_count);
    }
    session = &s;
    /* The transport keeps the NICs' state (the gap) in the model. */
    sc_err_t err = sc_model_init(&s.model, spec->plat, p, lay->node_of, lay->domain_of,
                                 lay->play_pi, lay->play_pi_inv, sizeof(double));
    if (!err && (!s.start || !s.finish || !s.finished || (spec->trace && (!s.ops || !s.marks)) ||
                 (spec->measure.on && (!s.measure_began || !s.measure_first || !s.measured ||
                                       !s.measure_count))))
        err = sc_error(SC_ERR_RUN, "out of memory for %d ranks", p);
    for (long k = 0; !err && s.ops && k < lay->communications; k++)
        s.ops[k] = (sc_op_record_t){.start = INFINITY, .end = -INFINITY, .valid = -1};
    if (!err)
        err = interp_start(
            &s,
            (sc_interp_host_t){.ctx = &s,
                               .execute = host_execute,
                               .sleep = host_sleep,
                               .speed = host_speed,
                               .execute_async = host_execute_async,
                               .execute_end = host_execute_end,
                               .statement_begins = s.ops || s.measured ? statement_begins : NULL,
                               .statement_ends = s.ops || s.measured ? statement_ends : NULL});
    if (!err)
        err = sc_ranks_start(spec->plat, p, lay->node_of, lay->domain_of, &s.model, s.scratch,
                             ctx->receives, spec->messages, rank_main, &s.world);
    if (!err) {
        const sc_algo_t *sole = sole_call(&lay->prog);
        sc_child_step("simulating %s on %d ranks", sole ? sole->name : lay->prog.path, p);
        int unfinished = sc_ranks_simulate(s.finished, p);
        if (s.error)
            err = sc_error(s.error, "%s", s.error_msg);
        else if (unfinished)
            err = sc_engine_unfinished(sole ? sole->name : lay->prog.path, unfinished, p);
        else
            err = sc_world_check(s.world);
    }
    if (!err)
        put_results(&s, out);
    teardown(&s);
    session = NULL;
    return err;
}

/* What a run the driver or the replay played sends back, in put_results'
 * order: their results, and the interpreter's checks and speculation
 * counts in `s` of live ranks (NULL: a replay, sizes only, none). */
static void put_played(sc_wire_t *out, int p, const sc_replay_result_t *res, const session_t *s)
{
    long none = 0;
    sc_wire_put_int(out, res->receives_short);
    sc_wire_put(out, res->start, (size_t)p * sizeof *res->start);
    sc_wire_put(out, res->finish, (size_t)p * sizeof *res->finish);
    sc_wire_put(out, &res->total, sizeof res->total);
    sc_wire_put_double(out, res->max_rank_bytes);
    sc_wire_put_int(out, !s ? -1 : s->interp.wrong ? 0 : s->interp.checked ? 1 : -1);
    if (s && s->interp.wrong)
        sc_wire_put_str(out, s->interp.first_wrong);
    sc_wire_put(out, s ? &s->speculated : &none, sizeof none);
    sc_wire_put(out, s ? &s->mispredicted : &none, sizeof none);
}

/* The replay (spec->replay): the call's schedule, recorded here in the
 * child, played by sim/replay/ (an actor per node, or maestro) with the
 * same results as simulate() gives. */
static sc_err_t simulate_replay(void *arg, sc_wire_t *out)
{
    const session_t *ctx = arg;
    const sc_run_spec_t *spec = ctx->spec;
    const layout_t *lay = ctx->lay;
    const sc_stmt_t *st = &lay->prog.stmts[0];
    int p = spec->np;
    sc_model_t model = {0};
    sc_schedule_t sched = {0};
    sc_replay_result_t res = {.start = calloc((size_t)p, sizeof(double)),
                              .finish = calloc((size_t)p, sizeof(double))};
    sc_scratch_t *scratch = sc_scratch_create();
    unsigned char *area = scratch ? sc_scratch_get(scratch, scratch_bytes(lay)) : NULL;
    sc_err_t err = sc_model_init(&model, spec->plat, p, lay->node_of, lay->domain_of, lay->play_pi,
                                 lay->play_pi_inv, sc_type_size(st->type));
    if (!err && (!area || !res.start || !res.finish))
        err = sc_error(SC_ERR_RUN, "out of memory for %d ranks", p);
    if (!err) {
        sc_coll_args_t args = {.sendbuf = area, .recvbuf = area, .bytes = st->bytes,
                               .root = st->root, .op = st->op, .type = st->type,
                               .pi = lay->play_pi, .pi_inv = lay->play_pi_inv};
        sc_child_step("recording the schedule of %s on %d ranks", st->algo->name, p);
        err = sc_schedule_record(st->algo, &args, &model, scratch, &sched);
    }
    sc_schedule_source_t source = {0};
    if (!err)
        err = sc_schedule_source_init(&source, &sched);
    if (!err) {
        sc_child_step("loading the platform");
        sc_engine_boot(spec->plat, sc_place_nodes_used(spec->plat, p, lay->node_of));
        sc_child_step("replaying %s on %d ranks", st->algo->name, p);
        err = spec->replay == SC_REPLAY_MAESTRO
                  ? sc_driver_run(&source.source, &model, &res)
                  : sc_replay_run(&source.source, &model, ctx->receives, &res);
    }
    sc_schedule_source_destroy(&source);
    if (!err)
        put_played(out, p, &res, NULL); /* sizes only: not checked */
    sc_schedule_destroy(&sched);
    sc_scratch_destroy(scratch);
    sc_model_destroy(&model);
    free(res.start);
    free(res.finish);
    return err;
}

/* Live ranks (spec->replay SC_REPLAY_LIVE): the interpreter on an actor a
 * rank as in simulate(), its calls played from maestro by the driver
 * (sim/simgrid/live.cpp): a computation is one of the rank's ops, after
 * those it gave before, on a core of its own (check_live: no background
 * computations, traces or timed statements). */
static void live_execute(void *ctx, double flops)
{
    (void)ctx;
    sc_live_compute(flops / sg_host_get_speed(sg_host_self()));
}

static void live_sleep(void *ctx, double seconds)
{
    (void)ctx;
    sc_live_compute(seconds);
}

static sc_err_t live_rank_main(void *ctx, sc_comm_t *comm)
{
    session_t *s = ctx;
    sc_err_t err = sc_interp_run(&s->interp, comm);
    if (comm->rank == 0) /* every rank bets alike (put_results) */
        sc_allreduce_spec_counts(comm, &s->speculated, &s->mispredicted);
    return err;
}

static sc_err_t simulate_live(void *arg, sc_wire_t *out)
{
    const session_t *ctx = arg;
    const sc_run_spec_t *spec = ctx->spec;
    const layout_t *lay = ctx->lay;
    int p = spec->np;
    session_t s = {.spec = spec, .lay = lay};
    sc_replay_result_t res = {.start = calloc((size_t)p, sizeof(double)),
                              .finish = calloc((size_t)p, sizeof(double))};
    sc_err_t err = sc_model_init(&s.model, spec->plat, p, lay->node_of, lay->domain_of,
                                 lay->play_pi, lay->play_pi_inv, sizeof(double));
    if (!err && (!res.start || !res.finish))
        err = sc_error(SC_ERR_RUN, "out of memory for %d ranks", p);
    if (!err)
        err = interp_start(
            &s, (sc_interp_host_t){
                    .ctx = &s, .execute = live_execute, .sleep = live_sleep, .speed = host_speed});
    if (!err) {
        sc_child_step("loading the platform");
        sc_engine_boot(spec->plat, p); /* an actor a rank */
        const sc_algo_t *sole = sole_call(&lay->prog);
        sc_child_step("running %s live on %d ranks", sole ? sole->name : lay->prog.path, p);
        err = sc_live_run(&s.model, s.scratch, live_rank_main, &s, &res);
    }
    if (!err)
        put_played(out, p, &res, &s);
    sc_interp_destroy(&s.interp);
    sc_scratch_destroy(s.scratch);
    sc_model_destroy(&s.model);
    free(res.start);
    free(res.finish);
    return err;
}

/* ---- Back in the parent ---- */

/* The cost model of the layout's program from the ranks' starts t, their
 * ends left in t; *complete 0 when some call's messages depend on the
 * data. */
static sc_err_t evaluate_program(const sc_run_spec_t *spec, const layout_t *lay, double *t,
                                 int *complete)
{
    sc_model_t model;
    sc_err_t err = sc_model_init(&model, spec->plat, spec->np, lay->node_of, lay->domain_of,
                                 lay->play_pi, lay->play_pi_inv, sizeof(double));
    if (!err)
        err = sc_program_model(&lay->prog, &model, t, complete);
    sc_model_destroy(&model);
    return err;
}

typedef struct {
    const sc_run_spec_t *spec;
    const layout_t *lay;
    double *t;
} model_child_t;

static sc_err_t model_in_child(void *arg, sc_wire_t *out)
{
    const model_child_t *c = arg;
    int complete = 0;
    sc_child_step("recording the schedules of the cost model");
    sc_err_t err = evaluate_program(c->spec, c->lay, c->t, &complete);
    if (!err) {
        sc_wire_put_int(out, complete);
        sc_wire_put(out, c->t, (size_t)c->spec->np * sizeof *c->t);
    }
    return err;
}

/* The model's time of the spec's program from the ranks' starts (NULL: 0),
 * or NaN: none on a platform of unlike nodes, nor for calls whose messages
 * depend on the data. The schedules are recorded from the algorithms' own
 * code: a user's algorithm (--load) runs in a child process, as in the
 * simulation, so that its faults stay there, and its model is then left
 * out with a note rather than failing the run. */
static sc_err_t program_model(const sc_run_spec_t *spec, const layout_t *lay, const double *start,
                              double *seconds)
{
    int p = spec->np;
    *seconds = NAN;
    if (!spec->plat->uniform)
        return SC_OK;
    double *t = calloc((size_t)p, sizeof *t);
    if (!t)
        return sc_error(SC_ERR_RUN, "out of memory for %d ranks", p);
    if (start)
        memcpy(t, start, (size_t)p * sizeof *t);
    const sc_algo_t *added = NULL; /* by the user (or a test) */
    for (int i = 0; i < lay->prog.nstmts && !added; i++)
        if (lay->prog.stmts[i].algo && !sc_algo_is_builtin(lay->prog.stmts[i].algo))
            added = lay->prog.stmts[i].algo;
    int complete = 0;
    sc_err_t err;
    if (!added) {
        err = evaluate_program(spec, lay, t, &complete);
    } else {
        model_child_t c = {spec, lay, t};
        sc_wire_t in = {0};
        err = sc_child_run(model_in_child, &c, SC_ERR_RUN, "the cost model", &in);
        if (!err && (!sc_wire_get_int(&in, &complete) ||
                     !sc_wire_get(&in, t, (size_t)p * sizeof *t)))
            err = sc_error(SC_ERR_RUN, "the cost model's results were cut short");
        sc_wire_free(&in);
        if (err) {
            fprintf(stderr, "simcoll: note: no model time: %s\n", sc_error_message());
            err = SC_OK;
            complete = 0;
        }
    }
    if (!err && complete)
        *seconds = sc_model_max(t, p);
    free(t);
    return err;
}

static sc_err_t model_time(const sc_run_spec_t *spec, const layout_t *lay, sc_run_result_t *res,
                           double first_start)
{
    sc_err_t err = program_model(spec, lay, res->start, &res->model_time_s);
    res->model_time_s -= first_start;
    return err;
}

/* Reads what was wrong into res->wrong; 0 when the results were cut short. */
/* spec->measure's times, by rank: their mean, least and most. */
static int get_measured(sc_wire_t *in, int p, sc_run_result_t *res)
{
    double *t = malloc((size_t)p * sizeof *t);
    int ok = t && sc_wire_get(in, t, (size_t)p * sizeof *t);
    double sum = 0, least = INFINITY, most = -INFINITY;
    for (int r = 0; ok && r < p; r++) {
        sum += t[r];
        least = fmin(least, t[r]);
        most = fmax(most, t[r]);
    }
    res->measured_mean_s = sum / p;
    res->measured_min_s = least;
    res->measured_max_s = most;
    free(t);
    return ok;
}

static int wrong_of(sc_wire_t *in, sc_run_result_t *res)
{
    char *said = sc_wire_get_str(in);
    if (!said)
        return 0;
    snprintf(res->wrong, sizeof res->wrong, "%s", said);
    free(said);
    return 1;
}

sc_err_t sc_run_model(const sc_run_spec_t *spec, double *seconds)
{
    *seconds = NAN;
    layout_t lay;
    sc_err_t err = layout_init(spec, &lay);
    if (err)
        return err;
    err = program_model(spec, &lay, NULL, seconds);
    layout_destroy(&lay);
    return err;
}

sc_err_t sc_run(const sc_run_spec_t *spec, sc_run_result_t *res)
{
    memset(res, 0, sizeof *res);
    layout_t lay;
    sc_err_t err = layout_init(spec, &lay);
    if (err)
        return err;
    int p = spec->np;
    res->start = malloc((size_t)p * sizeof *res->start);
    res->finish = malloc((size_t)p * sizeof *res->finish);
    if (spec->trace)
        res->ops = malloc((size_t)lay.communications * sizeof *res->ops + 1);
    if (!res->start || !res->finish || (spec->trace && !res->ops)) {
        err = sc_error(SC_ERR_RUN, "out of memory for %d ranks", p);
        goto cleanup;
    }
    const sc_algo_t *sole = sole_call(&lay.prog);
    char what[256];
    if (sole)
        snprintf(what, sizeof what, "the simulation of %s (np %d, %zu bytes) failed", sole->name,
                 p, lay.prog.stmts[0].bytes);
    else
        snprintf(what, sizeof what, "the simulation of %s (np %d) failed", lay.prog.path, p);
    /* A replay's node waits on all its ranks' receives at once: one each. */
    session_t ctx = {.spec = spec, .lay = &lay, .receives = spec->replay ? 1 : FIRST_RECEIVES};
    sc_wire_t in;
    int short_of;
    sc_child_fn simulation = spec->replay == SC_REPLAY_LIVE ? simulate_live
                             : spec->replay                 ? simulate_replay
                                                            : simulate;
    if ((err = sc_ranks_run_child(simulation, &ctx, &ctx.receives, what, &in, &short_of)))
        goto cleanup;
    sc_traffic_t total;
    int ok = short_of >= 0 && sc_wire_get(&in, res->start, (size_t)p * sizeof *res->start) &&
             sc_wire_get(&in, res->finish, (size_t)p * sizeof *res->finish) &&
             sc_wire_get(&in, &total, sizeof total) &&
             sc_wire_get_double(&in, &res->max_rank_bytes) && sc_wire_get_int(&in, &res->valid) &&
             (res->valid != 0 || wrong_of(&in, res)) &&
             sc_wire_get(&in, &res->speculated, sizeof res->speculated) &&
             sc_wire_get(&in, &res->mispredicted, sizeof res->mispredicted) &&
             (!spec->trace ||
              sc_wire_get(&in, res->ops, (size_t)lay.communications * sizeof *res->ops)) &&
             (!spec->measure.on || get_measured(&in, p, res));
    int overflow = 0;
    if (ok && spec->messages)
        ok = sc_ranks_get_messages(&in, &res->msgs, &res->nmsgs, &overflow, &err);
    sc_wire_free(&in);
    if (!err && overflow)
        err = sc_error(SC_ERR_INPUT,
                       "%s sends more than %ld messages, more than a trace records; trace "
                       "fewer processes or a smaller program",
                       sole ? sole->name : lay.prog.path, SC_RUN_MAX_MESSAGES);
    if (err)
        goto cleanup;
    if (!ok) {
        err = sc_error(SC_ERR_RUN, "%s: its results were cut short", what);
        goto cleanup;
    }
    memset(res->messages, 0, sizeof res->messages);
    memset(res->bytes, 0, sizeof res->bytes);
    sc_traffic_add(spec->plat, &total, 1, res->messages, res->bytes);
    memcpy(res->level_messages, total.level_messages, sizeof res->level_messages);
    memcpy(res->level_bytes, total.level_bytes, sizeof res->level_bytes);
    res->path_bytes = total.path_bytes;
    res->nodes = sc_place_nodes_used(spec->plat, p, lay.node_of);
    res->platform_nodes = spec->plat->nnodes;
    res->nlevels = spec->plat->nlevels > 2 ? spec->plat->nlevels : 2;
    res->statements = lay.communications;
    res->nops = spec->trace ? lay.communications : 0;
    res->node_of = malloc((size_t)p * sizeof *res->node_of);
    res->domain_of = malloc((size_t)p * sizeof *res->domain_of);
    if (!res->node_of || !res->domain_of) {
        err = sc_error(SC_ERR_RUN, "out of memory for %d ranks", p);
        goto cleanup;
    }
    memcpy(res->node_of, lay.node_of, (size_t)p * sizeof *res->node_of);
    memcpy(res->domain_of, lay.domain_of, (size_t)p * sizeof *res->domain_of);

    double first_start = res->start[0];
    for (int r = 1; r < p; r++)
        if (res->start[r] < first_start)
            first_start = res->start[r];
    res->sim_time_s = sc_model_max(res->finish, p) - first_start;
    double spent = 0;
    for (int r = 0; r < p; r++)
        spent += res->finish[r] - res->start[r];
    res->mean_rank_time_s = spent / p;
    if (!spec->measure.on)
        res->measured_mean_s = res->measured_min_s = res->measured_max_s = NAN;
    err = model_time(spec, &lay, res, first_start);
cleanup:
    layout_destroy(&lay);
    if (err)
        sc_run_result_destroy(res);
    return err;
}

sc_err_t sc_run_cut(const sc_run_spec_t *spec, sc_graph_t *memo, double *cut, double *total,
                    double *top_cut, double *domain_cut)
{
    layout_t lay;
    sc_err_t err = layout_init(spec, &lay);
    if (err)
        return err;
    err = sc_mapping_cut(spec->plat, spec->algo, spec->np, spec->root, lay.node_of,
                         lay.node_of_position, lay.domain_of_position, memo, cut, total, top_cut,
                         domain_cut);
    layout_destroy(&lay);
    return err;
}

sc_err_t sc_run_partition(const sc_run_spec_t *spec, sc_graph_t *memo, sc_partitioner_t how,
                          int *pi, double *seconds)
{
    /* That the algorithm has no graph to search comes before what else is
     * wrong with the spec. */
    sc_err_t err = sc_graph_recordable(spec->algo);
    if (!err)
        err = sc_run_check(spec);
    if (!err)
        err = sc_mapping_search(spec->plat, spec->algo, spec->np, spec->root, memo, how, pi,
                                seconds);
    return err;
}

void sc_run_result_destroy(sc_run_result_t *res)
{
    free(res->start);
    free(res->finish);
    free(res->ops);
    free(res->msgs);
    free(res->node_of);
    free(res->domain_of);
    res->start = res->finish = NULL;
    res->ops = NULL;
    res->msgs = NULL;
    res->node_of = res->domain_of = NULL;
}
