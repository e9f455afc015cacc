/* The cost model as an evaluator: ranks' ops played with the protocol of
 * sim/protocol/protocol.h (play.c's ranks, as the replay's engines play
 * them) with no contention, each envelope alone on its route.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_EVALUATE_H
#define SC_EVALUATE_H

#include "sim/replay/play.h"

/* Plays the ops of `source` on `model`: rank r starts at start[r] (NULL:
 * every rank at 0) and ends at finish[r]. Everything the engines charge is
 * charged (overheads, the NIC's gap with its state in model->nic_free,
 * eager and rendezvous envelopes matched in order, protocol work only
 * while a rank waits, combining), but an envelope carrying d data bytes
 * arrives sc_wire_time(d) of its level after it left, as on an idle route:
 * no link, NIC or memory bus is shared. This is the time the models of
 * models/cost.h describe, for any schedule. Plain C: no SimGrid. `total`
 * (NULL: not counted) gets the traffic. */
sc_err_t sc_evaluate(sc_op_source_t *source, const sc_model_t *model, const double *start,
                     double *finish, sc_traffic_t *total);

#endif
