/* The cost model of a whole program: every statement's model in turn on
 * the ranks' clocks, with the copies that packing adds.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "model.h"

#include <stdlib.h>

#include "algorithms/kinds.h"

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

static sc_err_t model_statement(const sc_model_t *model, const sc_stmt_t *st, double *t,
                                int *complete)
{
    sc_err_t err = SC_OK;
    copies(model, st, 1, t);
    switch (st->kind) {
    case SC_STMT_CALL:
        if (!st->algo->model) {
            *complete = 0;
            return SC_OK;
        }
        sc_model_t call = *model; /* the call's elements for combining */
        call.elem_size = sc_type_size(st->type);
        err = st->algo->model(&call, st->bytes, st->root, t);
        break;
    case SC_STMT_HALO:
        err = sc_model_halo(model, &st->grid, st->bytes, t);
        break;
    case SC_STMT_SEND:
        t[st->to] = sc_model_send(model, st->from, st->to, st->bytes, &t[st->from], t[st->to]);
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

static sc_err_t model_range(const sc_program_t *prog, int first, int last,
                            const sc_model_t *model, double *t, int *complete);

/* An until loop, as sim/engine/run.c runs it: with predict, a bet runs the
 * next iteration's leading compute statements beside the allreduce, so a
 * rank goes on when both are done; a lost bet stops computing when the
 * allreduce ends. Exact when the computing and the allreduce's combining
 * do not share a core (see run_until). */
static sc_err_t model_until(const sc_program_t *prog, int index, const sc_model_t *model,
                            double *t, int *complete)
{
    const sc_stmt_t *st = &prog->stmts[index];
    if (!st->algo->model) {
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
        err = model_range(prog, bet ? ahead : index + 1, st->end, model, t, complete);
        bet = st->until.predict && k + 1 < st->count;
        for (int r = 0; r < p; r++) {
            if (bet)
                t[r] += st->until.save_s;
            computed[r] = t[r];
        }
        if (!err && bet)
            err = model_range(prog, index + 1, ahead, model, computed, complete);
        if (!err)
            err = model_statement(model, &test, t, complete);
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

static sc_err_t model_range(const sc_program_t *prog, int first, int last,
                            const sc_model_t *model, double *t, int *complete)
{
    sc_err_t err = SC_OK;
    for (int i = first; !err && *complete && i < last; i++) {
        const sc_stmt_t *st = &prog->stmts[i];
        if (st->kind == SC_STMT_LOOP && st->until.on) {
            err = model_until(prog, i, model, t, complete);
            i = st->end;
        } else if (st->kind == SC_STMT_LOOP) {
            for (long k = 0; !err && *complete && k < st->count; k++)
                err = model_range(prog, i + 1, st->end, model, t, complete);
            i = st->end;
        } else {
            err = model_statement(model, st, t, complete);
        }
    }
    return err;
}

sc_err_t sc_program_model(const sc_program_t *prog, const sc_model_t *model, double *t,
                          int *complete)
{
    *complete = 1;
    return model_range(prog, 0, prog->nstmts, model, t, complete);
}
