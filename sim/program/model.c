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
     * output: the patent copies it through a buffer. */
    return st->kind == SC_STMT_CALL && st->collective == SC_ALLGATHER && pc->bytes != pc->stride;
}

size_t sc_stmt_gather_bytes(const sc_stmt_t *st, int p, int rank)
{
    (void)p;
    if (st->npieces == 0 || !sc_stmt_needs_stage(st))
        return 0;
    switch (st->kind) {
    case SC_STMT_CALL:
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
            t[r] += st->flops > 0
                        ? st->flops / model->plat->nodes[model->node_of[r]].speed_flops
                        : st->seconds;
        break;
    default: break;
    }
    copies(model, st, 0, t);
    return err;
}

static sc_err_t model_range(const sc_program_t *prog, int first, int last,
                            const sc_model_t *model, double *t, int *complete)
{
    sc_err_t err = SC_OK;
    for (int i = first; !err && *complete && i < last; i++) {
        const sc_stmt_t *st = &prog->stmts[i];
        if (st->kind == SC_STMT_LOOP) {
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
