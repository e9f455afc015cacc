/* The cost model of a whole program: every statement in turn on the
 * ranks' clocks, with the copies that packing adds. A statement that sends
 * messages (a call, a halo exchange, a send) is its schedule, recorded
 * from the code the actors run, and evaluated without contention
 * (sim/replay/evaluate.h) from the ranks' clocks.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "algorithms/collectives.h"
#include "algorithms/kinds.h"
#include "algorithms/p2p/halo.h"
#include "sim/replay/evaluate.h"
#include "algorithms/schedule.h"

/* What a program's model keeps while it runs: each statement's schedule,
 * recorded the first time the statement is costed (loops cost it again),
 * and the area its calls' buffers point into (address space only: the
 * recording moves no data). */
typedef struct {
    const sc_program_t *prog;
    sc_schedule_t *sched;      /* by statement */
    unsigned char *recorded;   /* by statement */
    sc_scratch_t *scratch;
    void *area;
    double *finish;            /* by rank */
} model_run_t;

int sc_stmt_needs_stage(const sc_stmt_t *st)
{
    if (st->npieces != 1)
        return st->npieces > 1;
    const sc_piece_t *pc = &st->pieces[0];
    /* An allgather piece narrower than its block is strided in the
     * output, a scatter's in the root's input: the patent copies it
     * through a buffer. */
    return st->kind == SC_STMT_CALL &&
           (st->collective == SC_ALLGATHER || st->collective == SC_SCATTER) &&
           pc->bytes != pc->stride;
}

size_t sc_stmt_gather_bytes(const sc_stmt_t *st, int p, int rank)
{
    if (st->npieces == 0 || !sc_stmt_needs_stage(st))
        return 0;
    switch (st->kind) {
    case SC_STMT_CALL:
        if (st->collective == SC_SCATTER) /* the root's p blocks */
            return rank == st->root ? (size_t)p * st->bytes : 0;
        return st->collective == SC_BCAST && rank != st->root ? 0 : st->bytes;
    case SC_STMT_HALO: {
        int sent, received;
        sc_grid_messages(&st->grid, rank, &sent, &received);
        return (size_t)sent * st->bytes;
    }
    case SC_STMT_SEND: return rank == st->from ? st->bytes : 0;
    default: return 0;
    }
}

size_t sc_stmt_scatter_bytes(const sc_stmt_t *st, int p, int rank)
{
    if (st->npieces == 0 || !sc_stmt_needs_stage(st))
        return 0;
    switch (st->kind) {
    case SC_STMT_CALL:
        if (st->collective == SC_REDUCE && rank != st->root)
            return 0;
        return st->collective == SC_ALLGATHER ? (size_t)p * st->bytes : st->bytes;
    case SC_STMT_HALO: {
        int sent, received;
        sc_grid_messages(&st->grid, rank, &sent, &received);
        return (size_t)received * st->bytes;
    }
    case SC_STMT_SEND: return rank == st->to ? st->bytes : 0;
    default: return 0;
    }
}

static void copies(const sc_model_t *model, const sc_stmt_t *st, int gather, double *t)
{
    for (int r = 0; r < model->size; r++) {
        size_t bytes = gather ? sc_stmt_gather_bytes(st, model->size, r)
                              : sc_stmt_scatter_bytes(st, model->size, r);
        if (bytes)
            t[r] += sc_model_copy_time(model, r, bytes);
    }
}

/* Whether a call's messages follow from its sizes, so that its schedule
 * can be recorded: not those that depend on the data. */
static int has_model(const sc_algo_t *algo)
{
    return !(algo->needs & SC_DATA_DEPENDENT);
}

/* A statement's code on one rank, as sc_schedule_record_fn runs it. */
typedef struct {
    const sc_stmt_t *st;
    const sc_model_t *model;
    void *area;
} stmt_call_t;

static sc_err_t run_stmt(sc_comm_t *comm, void *ctx)
{
    const stmt_call_t *c = ctx;
    const sc_stmt_t *st = c->st;
    switch (st->kind) {
    case SC_STMT_CALL: {
        sc_coll_args_t args = {.sendbuf = c->area, .recvbuf = c->area, .bytes = st->bytes,
                               .root = st->root, .op = st->op, .type = st->type,
                               .pi = c->model->pi, .pi_inv = c->model->pi_inv};
        return sc_algo_call(st->algo, comm, &args);
    }
    case SC_STMT_HALO: {
        void *face[6], *ghost[6];
        for (int f = 0; f < 6; f++)
            face[f] = ghost[f] = c->area;
        return sc_halo_exchange(comm, &st->grid, face, ghost, st->bytes);
    }
    default: /* SC_STMT_SEND */
        if (comm->rank == st->from)
            return sc_send(comm, c->area, st->bytes, st->to, SC_TAG_SEND);
        if (comm->rank == st->to)
            return sc_recv(comm, c->area, st->bytes, st->from, SC_TAG_SEND);
        return SC_OK;
    }
}

/* The messages of statement st (statement i, or an until loop's test at
 * the loop's index) from the ranks' clocks t: its schedule evaluated,
 * recorded the first time. */
static sc_err_t evaluate_stmt(model_run_t *m, int i, const sc_stmt_t *st, const sc_model_t *model,
                              double *t)
{
    sc_model_t call = *model; /* the call's elements for combining */
    if (st->kind == SC_STMT_CALL)
        call.elem_size = sc_type_size(st->type);
    sc_err_t err = SC_OK;
    if (!m->recorded[i]) {
        stmt_call_t c = {st, &call, m->area};
        err = sc_schedule_record_fn(run_stmt, &c,
                                    st->kind == SC_STMT_CALL   ? st->algo->name
                                    : st->kind == SC_STMT_HALO ? "a halo exchange"
                                                               : "a send",
                                    &call, m->scratch, &m->sched[i]);
        if (err)
            return err;
        m->recorded[i] = 1;
    }
    sc_schedule_source_t source;
    err = sc_schedule_source_init(&source, &m->sched[i]);
    if (!err)
        err = sc_evaluate(&source.source, &call, t, m->finish, NULL);
    sc_schedule_source_destroy(&source);
    if (!err)
        memcpy(t, m->finish, (size_t)model->size * sizeof *t);
    return err;
}

static sc_err_t model_statement(model_run_t *m, int i, const sc_stmt_t *st,
                                const sc_model_t *model, double *t, int *complete)
{
    sc_err_t err = SC_OK;
    copies(model, st, 1, t);
    switch (st->kind) {
    case SC_STMT_CALL:
        if (!has_model(st->algo)) {
            *complete = 0;
            return SC_OK;
        }
        err = evaluate_stmt(m, i, st, model, t);
        break;
    case SC_STMT_HALO:
    case SC_STMT_SEND:
        err = evaluate_stmt(m, i, st, model, t);
        break;
    case SC_STMT_COMPUTE:
        for (int r = 0; r < model->size; r++)
            t[r] += sc_compute_factor(st, r, model->size) *
                    (st->flops > 0 ? st->flops / model->plat->nodes[model->node_of[r]].speed_flops
                                   : st->seconds);
        break;
    default: break;
    }
    copies(model, st, 0, t);
    return err;
}

static sc_err_t model_range(model_run_t *m, int first, int last, const sc_model_t *model,
                            double *t, int *complete);

/* An until loop, as sim/engine/run.c runs it: with predict, a bet runs the
 * next iteration's leading compute statements beside the allreduce, so a
 * rank goes on when both are done; a lost bet stops computing when the
 * allreduce ends. Exact when the computing and the allreduce's combining
 * do not share a core (see run_until). */
static sc_err_t model_until(model_run_t *m, int index, const sc_model_t *model, double *t,
                            int *complete)
{
    const sc_program_t *prog = m->prog;
    const sc_stmt_t *st = &prog->stmts[index];
    if (!has_model(st->algo)) {
        *complete = 0;
        return SC_OK;
    }
    int ahead = index + 1, p = model->size;
    while (ahead < st->end && prog->stmts[ahead].kind == SC_STMT_COMPUTE)
        ahead++;
    double *computed = malloc((size_t)p * sizeof *computed);
    if (!computed)
        return sc_error(SC_ERR_RUN, "out of memory");
    sc_stmt_t test = *st;
    test.kind = SC_STMT_CALL; /* the allreduce, without pieces */
    sc_err_t err = SC_OK;
    int bet = 0;
    for (long k = 0; !err && *complete; k++) {
        err = model_range(m, bet ? ahead : index + 1, st->end, model, t, complete);
        bet = st->until.predict && k + 1 < st->count;
        for (int r = 0; r < p; r++) {
            if (bet)
                t[r] += st->until.save_s;
            computed[r] = t[r];
        }
        if (!err && bet)
            err = model_range(m, index + 1, ahead, model, computed, complete);
        if (!err)
            err = model_statement(m, index, &test, model, t, complete);
        int goes_on = sc_until_goes_on(st, k);
        for (int r = 0; r < p; r++) {
            if (goes_on && computed[r] > t[r])
                t[r] = computed[r];
            else if (bet && !goes_on) /* the bet's computing stops at once */
                t[r] += st->until.rollback_s;
        }
        if (!goes_on)
            break;
    }
    free(computed);
    return err;
}

static sc_err_t model_range(model_run_t *m, int first, int last, const sc_model_t *model,
                            double *t, int *complete)
{
    sc_err_t err = SC_OK;
    for (int i = first; !err && *complete && i < last; i++) {
        const sc_stmt_t *st = &m->prog->stmts[i];
        if (st->kind == SC_STMT_LOOP && st->until.on) {
            err = model_until(m, i, model, t, complete);
            i = st->end;
        } else if (st->kind == SC_STMT_LOOP) {
            for (long k = 0; !err && *complete && k < st->count; k++)
                err = model_range(m, i + 1, st->end, model, t, complete);
            i = st->end;
        } else {
            err = model_statement(m, i, st, model, t, complete);
        }
    }
    return err;
}

sc_err_t sc_program_model(const sc_program_t *prog, const sc_model_t *model, double *t,
                          int *complete)
{
    int p = model->size, n = prog->nstmts;
    size_t largest = 1;
    for (int b = 0; b < prog->nbuffers; b++) {
        size_t bytes = sc_program_buffer_bytes(prog, b, p);
        largest = bytes > largest ? bytes : largest;
    }
    model_run_t m = {.prog = prog,
                     .sched = calloc((size_t)n + 1, sizeof *m.sched),
                     .recorded = calloc((size_t)n + 1, 1),
                     .scratch = sc_scratch_create(),
                     .finish = malloc((size_t)p * sizeof *m.finish)};
    m.area = m.scratch ? sc_scratch_get(m.scratch, largest) : NULL;
    sc_err_t err = SC_OK;
    *complete = 1;
    if (!m.sched || !m.recorded || !m.area || !m.finish)
        err = sc_error(SC_ERR_RUN, "out of memory for the cost model of %d ranks", p);
    else
        err = model_range(&m, 0, n, model, t, complete);
    for (int i = 0; m.sched && i < n; i++)
        sc_schedule_destroy(&m.sched[i]);
    free(m.sched);
    free(m.recorded);
    free(m.finish);
    sc_scratch_destroy(m.scratch);
    return err;
}
