/* A program's ranks as SMPI time-independent traces (export_ti.h): each
 * rank's statements become the trace events the interpreter's calls make
 * (interpret.c, algorithms/p2p/halo.c), written by sim/trace/ti_write.c.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "export_ti.h"

#include <stdio.h>

#include "algorithms/collectives.h"
#include "models/p2p.h"
#include "sim/trace/ti_write.h"

typedef struct {
    sc_ti_writer_t *w;
    const sc_program_t *prog;
    int rank, np;
    uint64_t next_req;
    char where[64];
} rank_writer_t;

static sc_err_t put(rank_writer_t *rw, const sc_stmt_t *st, sc_tev_t ev)
{
    snprintf(rw->where, sizeof rw->where, "rank %d, %s:%d", rw->rank, rw->prog->path, st->line);
    return sc_ti_writer_event(rw->w, &ev, rw->where);
}

static sc_tcoll_t trace_collective(sc_collective_t c)
{
    switch (c) {
    case SC_ALLGATHER: return SC_TCOLL_ALLGATHER;
    case SC_BCAST: return SC_TCOLL_BCAST;
    case SC_BARRIER: return SC_TCOLL_BARRIER;
    case SC_REDUCE: return SC_TCOLL_REDUCE;
    case SC_ALLREDUCE: return SC_TCOLL_ALLREDUCE;
    case SC_SCATTER: return SC_TCOLL_SCATTER;
    }
    return SC_TCOLL_BARRIER;
}

static sc_err_t put_call(rank_writer_t *rw, const sc_stmt_t *st, sc_collective_t c, size_t bytes,
                         sc_type_t type)
{
    return put(rw, st,
               (sc_tev_t){.kind = SC_TEV_COLL,
                          .coll = trace_collective(c),
                          .bytes = bytes,
                          .root = st->root,
                          .elem = sc_type_size(type)});
}

/* The halo exchange of algorithms/p2p/halo.c: along each dimension and
 * direction, a receive from one neighbour and a send to the other, both
 * waited for (sc_sendrecv), or the one of them that exists. */
static sc_err_t put_halo(rank_writer_t *rw, const sc_stmt_t *st)
{
    const sc_grid_t *grid = &st->grid;
    sc_err_t err = SC_OK;
    for (int d = 0; d < grid->ndims && !err; d++)
        for (int dir = 1; dir >= -1 && !err; dir -= 2) {
            int out = 2 * d + (dir > 0), tag = SC_TAG_HALO + out;
            int to = sc_grid_neighbour(grid, rw->rank, d, dir);
            int from = sc_grid_neighbour(grid, rw->rank, d, -dir);
            if (to == rw->rank)
                continue; /* a copy in memory */
            uint64_t reqs[2];
            int n = 0;
            if (from >= 0) {
                reqs[n] = rw->next_req++;
                err = put(rw, st,
                          (sc_tev_t){.kind = SC_TEV_IRECV,
                                     .peer = from,
                                     .tag = tag,
                                     .bytes = st->bytes,
                                     .req = reqs[n]});
                n++;
            }
            if (to >= 0 && !err) {
                reqs[n] = rw->next_req++;
                err = put(rw, st,
                          (sc_tev_t){.kind = SC_TEV_ISEND,
                                     .peer = to,
                                     .tag = tag,
                                     .bytes = st->bytes,
                                     .req = reqs[n]});
                n++;
            }
            if (n && !err)
                err = put(rw, st, (sc_tev_t){.kind = SC_TEV_WAIT, .reqs = reqs, .nreqs = n});
        }
    return err;
}

static sc_err_t put_statement(rank_writer_t *rw, const sc_stmt_t *st)
{
    int r = rw->rank;
    switch (st->kind) {
    case SC_STMT_CALL: return put_call(rw, st, st->collective, st->bytes, st->type);
    case SC_STMT_HALO: return put_halo(rw, st);
    case SC_STMT_SEND:
        if (r == st->from)
            return put(
                rw, st,
                (sc_tev_t){
                    .kind = SC_TEV_SEND, .peer = st->to, .tag = SC_TAG_SEND, .bytes = st->bytes});
        if (r == st->to)
            return put(
                rw, st,
                (sc_tev_t){
                    .kind = SC_TEV_RECV, .peer = st->from, .tag = SC_TAG_SEND, .bytes = st->bytes});
        return SC_OK;
    case SC_STMT_COMPUTE: {
        double factor = sc_compute_factor(st, r, rw->np);
        return put(rw, st,
                   (sc_tev_t){.kind = SC_TEV_COMPUTE,
                              .flops = st->flops * factor,
                              .seconds = st->seconds * factor});
    }
    case SC_STMT_LOOP:
    case SC_STMT_END: break;
    }
    return SC_OK;
}

static sc_err_t put_range(rank_writer_t *rw, int first, int last)
{
    const sc_program_t *prog = rw->prog;
    sc_err_t err = SC_OK;
    for (int i = first; !err && i < last; i++) {
        const sc_stmt_t *st = &prog->stmts[i];
        if (st->kind != SC_STMT_LOOP) {
            err = put_statement(rw, st);
            continue;
        }
        if (st->until.on && st->until.predict)
            return sc_error_at(prog->path, st->line,
                               "an until loop with predict cannot be "
                               "written as SMPI's time-independent actions: they have no way "
                               "to undo a lost bet's computing; leave predict out to write it");
        long iterations = st->until.on ? sc_until_iterations(st) : st->count;
        for (long k = 0; !err && k < iterations; k++) {
            err = put_range(rw, i + 1, st->end);
            /* the loop's test: an allreduce of one double, the error */
            if (!err && st->until.on)
                err = put_call(rw, st, SC_ALLREDUCE, sizeof(double), SC_TYPE_DOUBLE);
        }
        i = st->end;
    }
    return err;
}

sc_err_t sc_program_export_ti(const sc_program_t *prog, int np, const char *option, const char *dir)
{
    sc_ti_writer_t *w;
    sc_err_t err = sc_ti_writer_open(option, dir, np, &w);
    for (int r = 0; !err && r < np; r++) {
        rank_writer_t rw = {.w = w, .prog = prog, .rank = r, .np = np};
        err = sc_ti_writer_rank(w, r);
        if (!err)
            err = put_range(&rw, 0, prog->nstmts);
    }
    if (err) {
        sc_ti_writer_abort(w);
        return err;
    }
    return sc_ti_writer_commit(w);
}
