/* Live ranks (--replay=live): each rank's own code on an actor of its own,
 * its calls played from maestro by the driver (driver.h), as a recorded
 * schedule's are, payloads included; SimGrid 4.1 only.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_LIVE_H
#define SC_LIVE_H

#include "algorithms/p2p.h"
#include "sim/simgrid/driver.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A rank's code: runs on its communicator, whose calls are the live
 * transport's; what it returns fails the run (the first rank's). */
typedef sc_err_t (*sc_live_main_t)(void *ctx, sc_comm_t *comm);

/* Runs rank_main(ctx, comm) on an actor per rank of `model`, on its node's
 * host, inside a SimGrid session (sc_engine_boot), and the simulation.
 * `scratch` NULL: payloads are real, copied as messages go; else sizes
 * only. The transport makes sends and receives of a known peer, tag and
 * size, and waits for all; any other call fails the run, naming it.
 * Results as sc_driver_run's, each rank starting at 0. */
sc_err_t sc_live_run(const sc_model_t *model, sc_scratch_t *scratch, sc_live_main_t rank_main,
                     void *ctx, sc_replay_result_t *res);

/* From the calling rank's code: it is busy for `seconds` (a computation),
 * after what it gave before. */
void sc_live_compute(double seconds);

#ifdef __cplusplus
}
#endif

#endif
