/* The replay engine: an algorithm's recorded schedule played with one
 * SimGrid actor per node instead of one per rank.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_REPLAY_H
#define SC_REPLAY_H

#include "sim/protocol/protocol.h"
#include "algorithms/schedule.h"

typedef struct {
    double *start, *finish;  /* per rank, filled by the caller's arrays */
    sc_traffic_t total;      /* summed over ranks; path_bytes the largest */
    double max_rank_bytes;   /* the most bytes one rank sent */
    /* As sc_world_receives_short: 0, or the receives per rank to post at
     * first when the simulation is run again. */
    int receives_short;
} sc_replay_result_t;

/* Plays the ops of `source` (a recorded schedule, a trace) on the placement of `model` with the protocol of
 * sim/protocol/protocol.h, as the actor per rank does: overheads, the NIC's gap, eager and rendezvous
 * envelopes matched in order, protocol work only while a rank waits. Each
 * node's actor posts `receives` receives per rank at first. Must run
 * inside a SimGrid session (sc_engine_boot) and runs the simulation. */
sc_err_t sc_replay_run(sc_op_source_t *source, const sc_model_t *model, int receives,
                       sc_replay_result_t *res);

#endif
