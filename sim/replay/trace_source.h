/* A trace's events as ops for the players of sim/replay/play.h (the actor
 * per node, the driver from maestro), each rank's read as it goes: its
 * messages as they are, each collective as the ops the rank plays in it,
 * recorded from the algorithm's code for that rank alone (a rank's ops
 * follow from its own call), so that memory holds the ranks' state and a
 * window of ops each, whatever the trace's length.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_TRACE_SOURCE_H
#define SC_TRACE_SOURCE_H

#include "algorithms/schedule.h"
#include "sim/replay/trace_coll.h"

typedef struct sc_trace_source sc_trace_source_t;

/* A source of the scanned `trace`'s events on `model` (its ranks' nodes),
 * collectives chosen by `choice`, computing scaled by 1 / compute_scale.
 * Free with sc_trace_source_free. */
sc_err_t sc_trace_source_new(sc_trace_t *trace, const sc_model_t *model,
                             const sc_trace_choice_t *choice, double compute_scale,
                             sc_trace_source_t **out);
sc_op_source_t *sc_trace_source_ops(sc_trace_source_t *src);

/* After the run: each rank's seconds of computing; and the i-th (from 0)
 * algorithm the collectives ran, with its collective and its calls
 * (counted once a call): 1, or 0 past the last. */
const double *sc_trace_source_compute(const sc_trace_source_t *src);
int sc_trace_source_use(const sc_trace_source_t *src, int i, sc_tcoll_t *coll,
                        const char **name, long *calls);

void sc_trace_source_free(sc_trace_source_t *src);

#endif
