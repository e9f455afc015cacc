/* What the allreduces of reference 003 keep on a rank from one call to the
 * next, behind the communicator's opaque slot (sc_comm_t's algo_state):
 * only they read it.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_ALLREDUCE_STATE_H
#define SC_ALLREDUCE_STATE_H

#include "../p2p.h"

struct sc_algo_state {
    /* Calls this rank has made of algorithms whose messages must not meet
     * another call's (early exit, early.c): the count, the same on every
     * rank since all call collectives in one order, goes into their tags. */
    unsigned long tagged_calls;
    /* Speculative MAX/MIN (speculate.c): the ranks that held the extreme
     * in the last calls, newest first, the same on every rank; and how
     * often this rank speculated, and wrongly. */
    int winners[8];
    int nwinners;
    long speculated, mispredicted;
};

/* The rank's state, zeroed at its first use; NULL if out of memory (the
 * error is recorded). sc_comm_release frees it. */
struct sc_algo_state *sc_algo_state(sc_comm_t *comm);

#endif
