/* The state the allreduces of reference 003 keep across calls.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "state.h"

#include <stdlib.h>

struct sc_algo_state *sc_algo_state(sc_comm_t *comm)
{
    if (!comm->algo_state && !(comm->algo_state = calloc(1, sizeof *comm->algo_state)))
        sc_error(SC_ERR_RUN, "rank %d: out of memory for the state of its calls", comm->rank);
    return comm->algo_state;
}
