/* Speculative MAX and MIN with history, verified (reference 003, Huawei
 * patent; SPEC.md section 5).
 *
 * Every rank remembers which rank held the extreme (of element 0, as
 * MAXLOC and MINLOC report it) in the last calls; since all ranks see the
 * same results, all remember the same. When one rank held it in at least
 * half of the remembered calls, the ranks bet on it: it broadcasts its
 * vector (binomial tree), and each rank checks whether its own vector is
 * better in some element; an early-exit LOR of those checks (allreduce-
 * early: a rank that beats the bet decides at once) tells everyone whether
 * the bet held. If it did, the broadcast vector is the result; if not, the
 * full reduction runs. So the result is always exact, and a wrong bet
 * costs the broadcast and the check on top of the full reduction.
 *
 * The full reduction is MPICH's recursive doubling (allreduce-rd) followed
 * by a one-int MIN over the ranks that hold the extreme of element 0, to
 * learn the winner. An MPI program would use MAXLOC on (value, rank) pairs
 * instead; this costs one more short allreduce, which the comparisons
 * below charge against the speculation's baseline too.
 *
 * The patent lets the bet be on a subset of ranks that reduce among
 * themselves first; with a threshold of one half at most one rank
 * qualifies, so the subset here is that one rank.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <limits.h>
#include <string.h>

#include "state.h"
#include "../collectives.h"
#include "../reduce/vector.h"

/* Share of the remembered calls a rank must have won to be bet on. */
#define SHARE 0.5

/* The rank to bet on, or -1: the most frequent winner (the most recent on
 * ties) if it won at least SHARE of the remembered calls. */
static int prediction(const struct sc_algo_state *s)
{
    int best = -1, best_count = 0;
    for (int i = 0; i < s->nwinners; i++) {
        int count = 0;
        for (int j = 0; j < s->nwinners; j++)
            count += s->winners[j] == s->winners[i];
        if (count > best_count) {
            best = s->winners[i];
            best_count = count;
        }
    }
    return best_count > 0 && best_count >= SHARE * s->nwinners ? best : -1;
}

static void remember(struct sc_algo_state *s, int winner)
{
    int n = (int)(sizeof s->winners / sizeof s->winners[0]);
    memmove(&s->winners[1], &s->winners[0], (size_t)(n - 1) * sizeof s->winners[0]);
    s->winners[0] = winner;
    if (s->nwinners < n)
        s->nwinners++;
}

void sc_allreduce_spec_counts(const sc_comm_t *comm, long *speculated, long *mispredicted)
{
    *speculated = comm->algo_state ? comm->algo_state->speculated : 0;
    *mispredicted = comm->algo_state ? comm->algo_state->mispredicted : 0;
}

/* A one-int allreduce of `in` into *out with op, by `run`. */
static sc_err_t small_allreduce(sc_comm_t *comm, sc_coll_fn run, sc_op_t op, int in, int decides,
                                int *out)
{
    sc_coll_args_t small = {.sendbuf = &in,
                            .recvbuf = out,
                            .bytes = sizeof(int),
                            .op = op,
                            .type = SC_TYPE_INT,
                            .decides = decides};
    size_t elem = comm->elem_size;
    comm->elem_size = sizeof(int);
    sc_err_t err = run(comm, &small);
    comm->elem_size = elem;
    return err;
}

static sc_err_t no_data(const sc_comm_t *comm)
{
    return sc_error(SC_ERR_RUN,
                    "allreduce-spec, rank %d: a size-only run must know the inputs, which it "
                    "does not for a packed or split call; run it with data",
                    comm->rank);
}

/* The full reduction, and who held the extreme of element 0. */
static sc_err_t full(sc_comm_t *comm, const sc_coll_args_t *args, int *winner)
{
    sc_err_t err = sc_allreduce_rd(comm, args);
    if (err)
        return err;
    int data = sc_moves_data(comm), truth = args->data ? sc_kind_extreme_winner(args->data) : -1;
    if (!data && truth < 0)
        return no_data(comm);
    int holds = data ? !sc_op_better(args->op, args->type, args->recvbuf, args->sendbuf)
                     : comm->rank == truth;
    err =
        small_allreduce(comm, sc_allreduce_rd, SC_OP_MIN, holds ? comm->rank : INT_MAX, 0, winner);
    if (!err && !data)
        *winner = truth;
    else if (!err && truth >= 0 && *winner != truth)
        err = sc_error(SC_ERR_RUN,
                       "allreduce-spec, rank %d: the extreme's holder is rank %d, "
                       "but the reduction says %d",
                       comm->rank, truth, *winner);
    return err;
}

sc_err_t sc_allreduce_spec(sc_comm_t *comm, const sc_coll_args_t *args)
{
    size_t n = sc_vector_elems(args);
    if (n == 0)
        return SC_OK;
    struct sc_algo_state *state = sc_algo_state(comm);
    if (!state)
        return SC_ERR_RUN;
    int bet = comm->size > 1 ? prediction(state) : -1, winner = -1;
    sc_err_t err = SC_OK;
    if (bet < 0) {
        err = full(comm, args, &winner);
    } else {
        state->speculated++;
        sc_vector_start(comm, args);
        sc_coll_args_t bcast = {.recvbuf = args->recvbuf, .bytes = args->bytes, .root = bet};
        err = sc_bcast_binomial(comm, &bcast);
        int beats = 0, anyone = 0;
        if (!err && sc_moves_data(comm)) {
            size_t elem = sc_type_size(args->type);
            for (size_t k = 0; k < n && !beats; k++)
                beats = sc_op_better(args->op, args->type, (const char *)args->sendbuf + k * elem,
                                     (const char *)args->recvbuf + k * elem);
        } else if (!err && args->data) {
            beats = sc_kind_rank_beats(args->data, comm->rank, bet);
        } else if (!err) {
            err = no_data(comm);
        }
        if (!err)
            err = small_allreduce(comm, sc_allreduce_early, SC_OP_LOR, beats, beats, &anyone);
        /* In size-only runs the flag's value is not moved: the run knows it. */
        if (!err && !sc_moves_data(comm))
            anyone = sc_kind_anyone_beats(args->data, bet);
        if (!err && anyone) {
            state->mispredicted++;
            err = full(comm, args, &winner);
        } else {
            winner = bet;
        }
    }
    if (!err)
        remember(state, winner);
    return err;
}
