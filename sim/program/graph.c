/* The communication graph of a whole program: its statements' graphs,
 * times their loops' iterations, added up.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "graph.h"

#include <stdio.h>
#include <stdlib.h>

#include "algorithms/kinds.h"

/* The graphs of the calls recorded so far: a program repeats the same
 * call (cg.prog's two allreduces of 8 bytes), and recording one takes a
 * run of every rank's code. */
typedef struct {
    struct call_graph {
        const sc_algo_t *algo;
        int root;
        size_t bytes;
        sc_type_t type;
        sc_graph_t graph;
    } *v;
    int n, cap;
} calls_t;

typedef struct {
    const sc_program_t *prog;
    int p;
    const int *node_of;
    sc_graph_sum_t sum;
    calls_t calls;
} walk_t;

static sc_err_t call_graph(walk_t *w, const sc_stmt_t *st, const sc_graph_t **out)
{
    calls_t *c = &w->calls;
    int root = sc_kind(st->algo->collective)->has_root ? st->root : 0;
    for (int i = 0; i < c->n; i++)
        if (c->v[i].algo == st->algo && c->v[i].root == root && c->v[i].bytes == st->bytes &&
            c->v[i].type == st->type) {
            *out = &c->v[i].graph;
            return SC_OK;
        }
    if (c->n == c->cap) {
        int cap = c->cap ? 2 * c->cap : 8;
        struct call_graph *more = realloc(c->v, (size_t)cap * sizeof *more);
        if (!more)
            return sc_error(SC_ERR_RUN, "out of memory");
        c->v = more;
        c->cap = cap;
    }
    struct call_graph *k = &c->v[c->n];
    *k = (struct call_graph){st->algo, root, st->bytes, st->type, {0}};
    if (sc_graph_recordable(st->algo)) {
        char why[512]; /* sc_error writes where sc_error_message reads */
        snprintf(why, sizeof why, "%s", sc_error_message());
        return sc_error(SC_ERR_INPUT, "%s:%d: %s", w->prog->path, st->line, why);
    }
    sc_err_t err =
        sc_graph_record_sized(st->algo, w->p, root, w->node_of, st->bytes, st->type, &k->graph);
    if (err)
        return err;
    c->n++;
    *out = &k->graph;
    return SC_OK;
}

/* Adds the graph of communication statement st, `times` over. */
static sc_err_t add_statement(walk_t *w, const sc_stmt_t *st, double times)
{
    double bytes = (double)st->bytes * times;
    sc_err_t err = SC_OK;
    switch (st->kind) {
    case SC_STMT_CALL: {
        const sc_graph_t *g;
        /* An algorithm that follows the nodes (SMP-aware) sends between
         * nodes what their counts of ranks dictate, wherever each rank
         * is: no mapping changes that, so it weighs nothing here. Its
         * graph with the nodes unknown (its flat fallback) would: it cut
         * broadcast.prog's bcast-mpich-smp apart and made the mapped run
         * 72% slower than block placement on gige.xml. */
        if (!(err = call_graph(w, st, &g)) && !g->placed)
            err = sc_graph_sum_add(&w->sum, g, times);
        break;
    }
    case SC_STMT_HALO:
        /* Each message once, by its sender: both directions of a
         * dimension, as sc_halo_exchange sends them. */
        for (int r = 0; r < w->p && !err; r++)
            for (int d = 0; d < st->grid.ndims && !err; d++)
                for (int dir = -1; dir <= 1 && !err; dir += 2) {
                    int to = sc_grid_neighbour(&st->grid, r, d, dir);
                    if (to >= 0)
                        err = sc_graph_sum_edge(&w->sum, r, to, bytes);
                }
        break;
    case SC_STMT_SEND: err = sc_graph_sum_edge(&w->sum, st->from, st->to, bytes); break;
    default: break;
    }
    return err;
}

/* Statements first..last-1, each `times` over. */
static sc_err_t add_range(walk_t *w, int first, int last, double times)
{
    sc_err_t err = SC_OK;
    for (int i = first; i < last && !err; i++) {
        const sc_stmt_t *st = &w->prog->stmts[i];
        if (st->kind != SC_STMT_LOOP) {
            err = add_statement(w, st, times);
            continue;
        }
        double iterations = times * (double)(st->until.on ? sc_until_iterations(st) : st->count);
        err = add_range(w, i + 1, st->end, iterations);
        if (!err && st->until.on) {
            sc_stmt_t test = *st; /* the allreduce ending each iteration */
            test.kind = SC_STMT_CALL;
            err = add_statement(w, &test, iterations);
        }
        i = st->end;
    }
    return err;
}

sc_err_t sc_program_graph(const sc_program_t *prog, int p, const int *node_of, sc_graph_t *graph)
{
    walk_t w = {prog, p, node_of, {0}, {0}};
    sc_err_t err = sc_graph_sum_init(&w.sum, p);
    if (!err)
        err = add_range(&w, 0, prog->nstmts, 1);
    if (!err)
        err = sc_graph_sum_finish(&w.sum, graph);
    sc_graph_sum_destroy(&w.sum);
    for (int i = 0; i < w.calls.n; i++)
        sc_graph_destroy(&w.calls.v[i].graph);
    free(w.calls.v);
    return err;
}
