/* The driver: an algorithm's recorded schedule played from SimGrid's
 * maestro, with no actor at all (--replay=maestro); SimGrid 4.1 only.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_DRIVER_H
#define SC_DRIVER_H

#include <simgrid/forward.h>

#include "sim/replay/play.h"
#include "sim/simgrid/node_replay.h"

#ifdef __cplusplus
extern "C" {
#endif

/* SC_OK if this build can drive, else SC_ERR_INPUT saying why not: it
 * needs SimGrid 4.1 or later. */
sc_err_t sc_driver_available(void);

/* As sc_replay_run, with the same protocol and the same simulated times,
 * from maestro: every message a communication started by SimGrid's
 * kernel, every wait a callback, every overhead a timer. */
sc_err_t sc_driver_run(sc_op_source_t *source, const sc_model_t *model,
                       sc_replay_result_t *res);

/* What live ranks (sim/simgrid/live.cpp) add to the driver: their source
 * is live (SC_SOURCE_LATER), play.c's hooks for it (code_runs, and carry
 * and received for payloads, or NULL), and start(ctx), called once before
 * the simulation runs, which starts their actors (on sc_driver_host). */
typedef struct {
    void (*code_runs)(sc_player_t *pl, int r);
    void (*carry)(sc_player_t *pl, int r, uint32_t req, sc_envelope_t *env);
    void (*received)(sc_player_t *pl, int r, uint32_t req, const sc_envelope_t *env);
    void (*start)(void *ctx);
    void *ctx;
} sc_driver_live_t;

/* As sc_driver_run, the ranks live: each starts at 0 when its actor first
 * calls sc_driver_advance, not at a timer. */
sc_err_t sc_driver_run_live(sc_op_source_t *source, const sc_model_t *model,
                            const sc_driver_live_t *live, sc_replay_result_t *res);

/* During sc_driver_run_live: rank r's host; and, from rank r's actor,
 * maestro plays what rank r's source gave, at once (a simcall). */
sg_host_t sc_driver_host(int r);
void sc_driver_advance(int r);

#ifdef __cplusplus
}
#endif

#endif
