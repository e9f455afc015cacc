/* The driver: an algorithm's recorded schedule played from SimGrid's
 * maestro, with no actor at all (--replay=maestro); SimGrid 4.1 only.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_DRIVER_H
#define SC_DRIVER_H

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

#ifdef __cplusplus
}
#endif

#endif
