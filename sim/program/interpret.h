/* The program interpreter: runs a resolved program's statements on one
 * rank through the point-to-point interface (algorithms/p2p.h), fills
 * and checks the ranks' buffers. Plain C, no SimGrid: time and computing
 * come from whoever runs it (sc_interp_host_t).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_INTERPRET_H
#define SC_INTERPRET_H

#include "algorithms/p2p.h"
#include "models/cost.h"
#include "program.h"

/* What the interpreter needs of the simulator, on the host of the rank
 * that calls: simcoll's is SimGrid's (sim/engine/run.c). `ctx` is passed
 * to every call. */
typedef struct {
    void *ctx;
    /* Computes `flops` (sharing the host's cores with its other ranks). */
    void (*execute)(void *ctx, double flops);
    /* Lets `seconds` of simulated time pass. */
    void (*sleep)(void *ctx, double seconds);
    /* The host's flop rate. */
    double (*speed)(void *ctx);
    /* Starts computing `flops` in the background and returns the
     * activity, which execute_end ends: by waiting for it to complete
     * (wait = 1) or by stopping it where it is (wait = 0). */
    void *(*execute_async)(void *ctx, double flops);
    void (*execute_end)(void *ctx, void *activity, int wait);
    /* Called, unless NULL, around each communication statement `stmt`
     * that `rank` runs, the `executed`-th (from 0) it runs; `verdict` is 1
     * if the statements as written it ended were right, 0 if wrong, -1 if
     * it checked none. Nothing advances the simulated time in between
     * but the statement. */
    void (*statement_begins)(void *ctx, int rank);
    void (*statement_ends)(void *ctx, int rank, int stmt, long executed, int verdict);
} sc_interp_host_t;

/* One rank's memory and progress; the interpreter's. */
typedef struct sc_interp_rank sc_interp_rank_t;
/* What the ranks share to check one statement as written; the
 * interpreter's. */
typedef struct sc_interp_origin sc_interp_origin_t;

/* The run of one program on every rank of one simulation. The caller sets
 * the fields up to `host` and calls sc_interp_init; the rest is the
 * interpreter's. */
typedef struct {
    const sc_program_t *prog; /* resolved for np */
    int np;
    int payload; /* 1: real data, checked; 0: sizes only */
    /* --data decider and extreme; NULL for the standard pattern */
    const sc_deciders_t *deciders;
    const sc_extreme_t *extreme;
    const int *pi, *pi_inv;  /* the mapping a mapping-aware algorithm plays
                                through; NULL for others */
    const sc_model_t *model; /* the copies of packing cost what it says */
    sc_interp_host_t host;

    sc_interp_rank_t *ranks;
    sc_interp_origin_t *origins;
    int norigins;
    long *barrier_entries; /* by statement: entries of all ranks so far */
    int shared;            /* every buffer is the one scratch area */
    int checked, wrong;    /* verification counts, for the run's result */
    /* The wrong result of the lowest rank, said as a person debugging it
     * needs it ("rank 3, line 1: block 5 (rank 5's), byte 0: 0x00,
     * expected 0x2a"); empty while every result is right. */
    char first_wrong[256];
    int first_wrong_rank;
} sc_interp_t;

/* Allocates the ranks' buffers: buffer_bytes[b] for each of the program's
 * buffers and the packing buffers stage_in and stage_out, on each rank; or,
 * when `area` is not NULL (size-only runs), makes every buffer `area`,
 * which the caller owns and keeps as large as the largest. SC_ERR_RUN when
 * memory runs out; sc_interp_destroy is to be called either way. */
sc_err_t sc_interp_init(sc_interp_t *it, const size_t *buffer_bytes, size_t stage_in,
                        size_t stage_out, unsigned char *area);
void sc_interp_destroy(sc_interp_t *it);

/* Runs the whole program on rank comm->rank: called by that rank, every
 * rank at once (they talk to each other through `comm`). The first error
 * of the rank's calls; a wrong result is no error but counts in
 * it->wrong. */
sc_err_t sc_interp_run(sc_interp_t *it, sc_comm_t *comm);

#endif
