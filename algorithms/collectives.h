/* Every collective algorithm, one file each under algorithms/<collective>/.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_COLLECTIVES_H
#define SC_COLLECTIVES_H

#include "registry.h"

/* Message tags, one per collective, so that two collectives run back to
 * back cannot match each other's messages. */
enum { SC_TAG_ALLGATHER = 1, SC_TAG_BCAST, SC_TAG_BARRIER };

sc_err_t sc_allgather_ring(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_allgather_rd(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_allgather_bruck(sc_comm_t *comm, const sc_coll_args_t *args);

sc_err_t sc_bcast_binomial(sc_comm_t *comm, const sc_coll_args_t *args);
sc_err_t sc_bcast_scatter_allgather(sc_comm_t *comm,
                                    const sc_coll_args_t *args);

sc_err_t sc_barrier_dissemination(sc_comm_t *comm, const sc_coll_args_t *args);

#endif
