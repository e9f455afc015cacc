/* A wait for any of several communications, with a timeout.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_WAIT_ANY_H
#define SC_WAIT_ANY_H

#include <simgrid/comm.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* As sg_comm_wait_any_for: the index of a communication that completed
 * (released, as SimGrid's C calls release what they return), or -1 after
 * `timeout` seconds, when every communication stays the caller's. */
ssize_t sc_comm_wait_any_for(sg_comm_t *comms, size_t count, double timeout);

#ifdef __cplusplus
}
#endif

#endif
