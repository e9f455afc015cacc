/* Cost predictions of the reduce and allreduce algorithms (reference 000,
 * IBM patent): the schedules of algorithms/reduce/ replayed round by round,
 * each message costed by cost.h and each local combining by
 * sc_model_reduce_time.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdlib.h>

#include "collectives.h"

/* A schedule being costed: ranks are named by virtual rank v, numbered from
 * the root; messages and combining go into the current round. */
typedef struct {
    const sc_model_t *model;
    int root;
    sc_round_t round;
    double *t;
} plan_t;

static sc_err_t plan_init(plan_t *pl, const sc_model_t *model, int root, double *t)
{
    *pl = (plan_t){.model = model, .root = root, .t = t};
    return sc_round_init(&pl->round, model->size);
}

static int rank_of(const plan_t *pl, int v)
{
    return (v + pl->root) % pl->model->size;
}

static size_t span_bytes(const plan_t *pl, sc_span_t s)
{
    return sc_span_len(s) * pl->model->elem_size;
}

/* v sends span s of its vector to w. */
static void message(plan_t *pl, int v, int w, sc_span_t s)
{
    int a = rank_of(pl, v), b = rank_of(pl, w);
    pl->round.dst[a] = b;
    pl->round.src[b] = a;
    pl->round.bytes[a] = span_bytes(pl, s);
}

/* v combines what it received into span s. */
static void combine(plan_t *pl, int v, sc_span_t s)
{
    pl->round.reduce[rank_of(pl, v)] += span_bytes(pl, s);
}

/* Pair (a, b) trades halves H[0], H[1] of the vector; a ends up with the
 * first. Combining: each sends the half the other keeps and combines what
 * it gets (a pair's reduce-scatter). Otherwise each sends the complete half
 * it holds (handing the halves back). */
static void swap_halves(plan_t *pl, int a, int b, const sc_span_t H[2], int combining)
{
    message(pl, a, b, H[combining ? 1 : 0]);
    message(pl, b, a, H[combining ? 0 : 1]);
    if (combining) {
        combine(pl, a, H[0]);
        combine(pl, b, H[1]);
    }
}

static void end_round(plan_t *pl)
{
    sc_model_exchange(pl->model, &pl->round, pl->t);
    sc_round_clear(&pl->round, pl->model->size);
}

/* A power-of-two group of virtual ranks working on span `whole` with
 * recursive halving and doubling (algorithms/reduce/vector.c). */
typedef struct {
    int size;
    const int *v; /* member k is virtual rank v[k] */
    sc_span_t whole;
} group_t;

static int group_steps(const group_t *g)
{
    int steps = 0;
    while ((1 << steps) < g->size)
        steps++;
    return steps;
}

/* The span member k splits at step s of the halving. */
static sc_span_t parent_span(const group_t *g, int k, int s)
{
    sc_span_t x = g->whole;
    for (int i = 0; i < s; i++)
        x = sc_span_half(x, (k >> i) & 1);
    return x;
}

/* The groups (of equal size) run their steps side by side. */
static void halving(plan_t *pl, const group_t *groups, int ngroups)
{
    for (int s = 0; s < group_steps(&groups[0]); s++) {
        for (const group_t *g = groups; g < groups + ngroups; g++)
            for (int k = 0; k < g->size; k++) {
                int upper = (k >> s) & 1;
                sc_span_t P = parent_span(g, k, s);
                message(pl, g->v[k], g->v[k ^ (1 << s)], sc_span_half(P, !upper));
                combine(pl, g->v[k], sc_span_half(P, upper));
            }
        end_round(pl);
    }
}

static void doubling(plan_t *pl, const group_t *groups, int ngroups)
{
    for (int s = group_steps(&groups[0]) - 1; s >= 0; s--) {
        for (const group_t *g = groups; g < groups + ngroups; g++)
            for (int k = 0; k < g->size; k++)
                message(pl, g->v[k], g->v[k ^ (1 << s)],
                        sc_span_half(parent_span(g, k, s), (k >> s) & 1));
        end_round(pl);
    }
}

static void gather(plan_t *pl, const group_t *groups, int ngroups)
{
    for (int s = group_steps(&groups[0]) - 1; s >= 0; s--) {
        for (const group_t *g = groups; g < groups + ngroups; g++)
            for (int k = 1 << s; k < 2 << s && k < g->size; k++)
                message(pl, g->v[k], g->v[k ^ (1 << s)], sc_span_half(parent_span(g, k, s), 1));
        end_round(pl);
    }
}

/* Binomial tree to `root`, children taken in the order mask = 1, 2, 4, ...
 * Leaves t[r] = when rank r has sent to its parent (the root: when it has
 * combined its last child's vector). */
static sc_err_t binomial_reduce(const sc_model_t *model, size_t bytes, int root, double *t)
{
    int p = model->size;
    double *ready = malloc((size_t)p * sizeof *ready); /* by relative rank */
    if (!ready)
        return sc_error(SC_ERR_RUN, "out of memory in the cost model");
    for (int rel = p - 1; rel >= 0; rel--) {
        int rank = (rel + root) % p;
        double now = t[rank];
        for (int mask = 1; mask < p && !(rel & mask); mask <<= 1) {
            if (rel + mask >= p)
                continue;
            int child = (rank + mask) % p;
            double child_done = ready[rel + mask];
            now = sc_model_send(model, child, rank, bytes, &child_done, now) +
                  sc_model_reduce_time(model, rank, bytes);
            t[child] = child_done;
        }
        ready[rel] = now;
    }
    t[root] = ready[0];
    free(ready);
    return SC_OK;
}

sc_err_t sc_model_reduce_mst(const sc_model_t *model, size_t bytes, int root, double *t)
{
    if (model->size == 1 || bytes == 0)
        return SC_OK;
    return binomial_reduce(model, bytes, root, t);
}

sc_err_t sc_model_allreduce_mst(const sc_model_t *model, size_t bytes, int root, double *t)
{
    (void)root;
    if (model->size == 1 || bytes == 0)
        return SC_OK;
    sc_err_t err = binomial_reduce(model, bytes, 0, t);
    return err ? err : sc_model_bcast_binomial(model, bytes, 0, t);
}

static sc_err_t rhrd(const sc_model_t *model, size_t bytes, int root, double *t, int allreduce)
{
    int p = model->size;
    if (p == 1 || bytes == 0)
        return SC_OK;
    plan_t pl;
    int *v = malloc((size_t)p * sizeof *v);
    sc_err_t err = v ? plan_init(&pl, model, root, t)
                     : sc_error(SC_ERR_RUN, "out of memory in the cost model");
    if (!err) {
        for (int k = 0; k < p; k++)
            v[k] = k;
        group_t all = {p, v, {0, bytes / model->elem_size}};
        halving(&pl, &all, 1);
        (allreduce ? doubling : gather)(&pl, &all, 1);
        sc_round_destroy(&pl.round);
    }
    free(v);
    return err;
}

sc_err_t sc_model_reduce_rhrd(const sc_model_t *model, size_t bytes, int root, double *t)
{
    return rhrd(model, bytes, root, t, 0);
}

sc_err_t sc_model_allreduce_rhrd(const sc_model_t *model, size_t bytes, int root, double *t)
{
    (void)root;
    return rhrd(model, bytes, 0, t, 1);
}

int sc_pow2_below(int p)
{
    int n = 1;
    while (n <= p / 2)
        n *= 2;
    return n;
}

static sc_err_t prior_art(const sc_model_t *model, size_t bytes, int root, double *t,
                          int allreduce)
{
    int p = model->size, N = sc_pow2_below(p), r = p - N;
    if (p == 1 || bytes == 0)
        return SC_OK;
    plan_t pl;
    int *survivors = malloc((size_t)N * sizeof *survivors);
    sc_err_t err = survivors ? plan_init(&pl, model, root, t)
                             : sc_error(SC_ERR_RUN, "out of memory in the cost model");
    if (err) {
        free(survivors);
        return err;
    }
    sc_span_t whole = {0, bytes / model->elem_size};
    sc_span_t H[2] = {sc_span_half(whole, 0), sc_span_half(whole, 1)};
    if (r > 0) {
        for (int j = 0; j < r; j++)
            swap_halves(&pl, 2 * j, 2 * j + 1, H, 1);
        end_round(&pl);
        for (int j = 0; j < r; j++) /* the odd one hands over and drops out */
            message(&pl, 2 * j + 1, 2 * j, H[1]);
        end_round(&pl);
    }
    for (int k = 0; k < N; k++)
        survivors[k] = k < r ? 2 * k : k + r;
    group_t g = {N, survivors, whole};
    halving(&pl, &g, 1);
    (allreduce ? doubling : gather)(&pl, &g, 1);
    if (allreduce && r > 0) {
        for (int j = 0; j < r; j++)
            message(&pl, 2 * j, 2 * j + 1, whole);
        end_round(&pl);
    }
    sc_round_destroy(&pl.round);
    free(survivors);
    return SC_OK;
}

sc_err_t sc_model_reduce_mpich(const sc_model_t *model, size_t bytes, int root, double *t)
{
    return prior_art(model, bytes, root, t, 0);
}

sc_err_t sc_model_allreduce_mpich(const sc_model_t *model, size_t bytes, int root, double *t)
{
    (void)root;
    return prior_art(model, bytes, 0, t, 1);
}

/* MPICH's own folding (algorithms/reduce/rabenseifner.c): one of each of
 * the first r pairs sends its whole vector to the other and drops out; the
 * N survivors run `steps`; in allreduce the dropped ones get the result. */
typedef enum { STEPS_DOUBLING, STEPS_RHRD, STEPS_HALVING_GATHER } steps_t;

static sc_err_t mpich_fold(const sc_model_t *model, size_t bytes, int root, double *t,
                           int allreduce, steps_t steps)
{
    int p = model->size, N = sc_pow2_below(p), r = p - N, keep_odd = allreduce;
    if (p == 1 || bytes == 0)
        return SC_OK;
    plan_t pl;
    int *survivors = malloc((size_t)N * sizeof *survivors);
    sc_err_t err = survivors ? plan_init(&pl, model, root, t)
                             : sc_error(SC_ERR_RUN, "out of memory in the cost model");
    if (err) {
        free(survivors);
        return err;
    }
    sc_span_t whole = {0, bytes / model->elem_size};
    if (r > 0) {
        for (int j = 0; j < r; j++) {
            int keeper = 2 * j + keep_odd;
            message(&pl, keeper ^ 1, keeper, whole);
            combine(&pl, keeper, whole);
        }
        end_round(&pl);
    }
    for (int k = 0; k < N; k++)
        survivors[k] = k < r ? 2 * k + keep_odd : k + r;
    group_t g = {N, survivors, whole};
    if (steps == STEPS_DOUBLING) {
        for (int s = 0; (1 << s) < N; s++) {
            for (int k = 0; k < N; k++) {
                message(&pl, survivors[k], survivors[k ^ (1 << s)], whole);
                combine(&pl, survivors[k], whole);
            }
            end_round(&pl);
        }
    } else {
        halving(&pl, &g, 1);
        (steps == STEPS_RHRD ? doubling : gather)(&pl, &g, 1);
    }
    if (allreduce && r > 0) {
        for (int j = 0; j < r; j++)
            message(&pl, 2 * j + 1, 2 * j, whole);
        end_round(&pl);
    }
    sc_round_destroy(&pl.round);
    free(survivors);
    return SC_OK;
}

sc_err_t sc_model_allreduce_rd(const sc_model_t *model, size_t bytes, int root, double *t)
{
    (void)root;
    return mpich_fold(model, bytes, 0, t, 1, STEPS_DOUBLING);
}

sc_err_t sc_model_allreduce_rabenseifner(const sc_model_t *model, size_t bytes, int root,
                                         double *t)
{
    (void)root;
    return mpich_fold(model, bytes, 0, t, 1, STEPS_RHRD);
}

sc_err_t sc_model_reduce_rabenseifner(const sc_model_t *model, size_t bytes, int root, double *t)
{
    return mpich_fold(model, bytes, root, t, 0, STEPS_HALVING_GATHER);
}

/* The patent's method, steps as numbered in algorithms/reduce/nonpow2.c.
 * Pairs j < r' (r' = r, or r - 1 for r odd) of S0 are receivers (j even)
 * or senders (j odd); r odd adds X = 2r-1, Y = 2r-2, Z = 2r; S1's pairs
 * start at s1. */
static sc_err_t patent(const sc_model_t *model, size_t bytes, int root, double *t,
                       int allreduce)
{
    int p = model->size, N = sc_pow2_below(p), r = p - N;
    if (p == 1 || bytes == 0)
        return SC_OK;
    int odd = r & 1, regular = r - odd, s1 = 2 * r + odd;
    int X = 2 * r - 1, Y = 2 * r - 2, Z = 2 * r;
    plan_t pl;
    int *members = malloc((size_t)N * sizeof *members); /* G1 then G2 */
    sc_err_t err = members ? plan_init(&pl, model, root, t)
                           : sc_error(SC_ERR_RUN, "out of memory in the cost model");
    if (err) {
        free(members);
        return err;
    }
    sc_span_t whole = {0, bytes / model->elem_size};
    sc_span_t H[2] = {sc_span_half(whole, 0), sc_span_half(whole, 1)};

    /* step 2: S0 pairs exchange halves */
    if (r > 0) {
        for (int j = 0; j < r; j++)
            swap_halves(&pl, 2 * j, 2 * j + 1, H, 1);
        end_round(&pl);
    }
    /* step 3: merge into N ranks */
    for (int j = 1; j < regular; j += 2)
        for (int h = 0; h < 2; h++) {
            message(&pl, 2 * j + h, 2 * (j - 1) + h, H[h]);
            combine(&pl, 2 * (j - 1) + h, H[h]);
        }
    if (odd) {
        message(&pl, X, Z, H[1]);
        message(&pl, Z, Y, H[0]);
        combine(&pl, Z, H[1]);
        combine(&pl, Y, H[0]);
    }
    for (int v = s1; v < p; v += 2)
        swap_halves(&pl, v, v + 1, H, 1);
    end_round(&pl);
    /* step 4: G1 on H1 and G2 on H2, members in order of v */
    group_t g[2];
    for (int h = 0; h < 2; h++) {
        int *v = members + h * (N / 2), k = 0;
        for (int j = 0; j < regular; j += 2)
            v[k++] = 2 * j + h;
        if (odd)
            v[k++] = h ? Z : Y;
        for (int w = s1; w < p; w += 2)
            v[k++] = w + h;
        g[h] = (group_t){N / 2, v, H[h]};
    }
    halving(&pl, g, 2);
    if (!allreduce) {
        gather(&pl, g, 2);
        message(&pl, g[1].v[0], 0, H[1]);
        end_round(&pl);
    } else {
        doubling(&pl, g, 2);
        /* step 5: halves back to the ranks that gave theirs away */
        for (int j = 1; j < regular; j += 2)
            for (int h = 0; h < 2; h++)
                message(&pl, 2 * (j - 1) + h, 2 * j + h, H[h]);
        if (odd) {
            message(&pl, Y, Z, H[0]);
            message(&pl, Z, X, H[1]);
        }
        for (int v = s1; v < p; v += 2)
            swap_halves(&pl, v, v + 1, H, 0);
        end_round(&pl);
        if (r > 0) {
            for (int j = 0; j < r; j++)
                swap_halves(&pl, 2 * j, 2 * j + 1, H, 0);
            end_round(&pl);
        }
    }
    sc_round_destroy(&pl.round);
    free(members);
    return SC_OK;
}

sc_err_t sc_model_reduce_nonpow2(const sc_model_t *model, size_t bytes, int root, double *t)
{
    return patent(model, bytes, root, t, 0);
}

sc_err_t sc_model_allreduce_nonpow2(const sc_model_t *model, size_t bytes, int root, double *t)
{
    (void)root;
    return patent(model, bytes, 0, t, 1);
}

sc_err_t sc_model_allreduce_ring(const sc_model_t *model, size_t bytes, int root, double *t)
{
    (void)root;
    int p = model->size;
    if (p == 1 || bytes == 0)
        return SC_OK;
    plan_t pl;
    sc_err_t err = plan_init(&pl, model, 0, t);
    if (err)
        return err;
    size_t n = bytes / model->elem_size;
    for (int step = 0; step < p - 1; step++) {
        for (int i = 0; i < p; i++) {
            message(&pl, i, (i + 1) % p, sc_span_part(n, p, (i - step + p) % p));
            combine(&pl, i, sc_span_part(n, p, (i - step - 1 + 2 * p) % p));
        }
        end_round(&pl);
    }
    for (int step = 0; step < p - 1; step++) {
        for (int i = 0; i < p; i++)
            message(&pl, i, (i + 1) % p, sc_span_part(n, p, (i + 1 - step + p) % p));
        end_round(&pl);
    }
    sc_round_destroy(&pl.round);
    return SC_OK;
}
