/* What SimGrid 3.32's C API does not offer: a send with a rate of its own,
 * a wait for any of several communications with a timeout, and a test
 * that says when the communication completed; and the wait for any of
 * several communications that SimGrid 4.1 removed (its activity sets
 * replace it); and what tells a run SimGrid ended early from a deadlock
 * (sc_engine_lost_event). Both engines use them, on either SimGrid
 * (SIMCOLL_SIMGRID, cmake/simgrid.cmake).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_S4U_CALLS_H
#define SC_S4U_CALLS_H

#include <simgrid/comm.h>
#include <simgrid/mailbox.h>
#include <simgrid/version.h>
#include <sys/types.h>

/* Whether the SimGrid compiled against is MAJOR.MINOR or later: simcoll is
 * tested on 3.32 (Debian 12's) and 4.1 (the bundled one). */
#define SC_SIMGRID_AT_LEAST(major, minor) \
    (SIMGRID_VERSION >= 100UL * (100UL * (major) + (minor)))

#ifdef __cplusplus
extern "C" {
#endif

#include "common/sc_error.h" /* a C header, inside extern "C" */

/* As sg_mailbox_put_async, the communication moving at most `rate` bytes
 * a second however idle its links (SimGrid's Comm::set_rate, which the C
 * API lacks); rate < 0: as fast as its links let it. */
sg_comm_t sc_mailbox_put_async(sg_mailbox_t mailbox, void *payload, long bytes, double rate);

/* As sg_comm_wait_any_for: the index of a communication that completed
 * (released, as SimGrid's C calls release what they return), or -1 after
 * `timeout` seconds, when every communication stays the caller's. */
ssize_t sc_comm_wait_any_for(sg_comm_t *comms, size_t count, double timeout);

/* As sg_comm_wait_any (3.32): the index of a communication that completed,
 * released; the others stay the caller's. */
ssize_t sc_comm_wait_any(sg_comm_t *comms, size_t count);

/* As sg_comm_test: 1 if the communication has completed (and it is
 * released), then *finish is the simulated time it did, earlier than now
 * when the caller was busy meanwhile; else 0. */
int sc_comm_test_finish(sg_comm_t comm, double *finish);

/* After a run whose ranks did not all finish: the date of a transfer or
 * timer whose end SimGrid's clock passed without handling it, or -1.
 * SimGrid's lazy updates take an action when its date is within
 * precision/timing of the clock; the clock can land one rounding past the
 * date, which past 8192 s exceeds simcoll's 1e-12 s, and the action is
 * then never taken, so the run ends early. The bundled SimGrid is patched
 * (third_party/simgrid/patches); Debian's 3.32 is not. */
double sc_engine_lost_event(void);

/* Once SimGrid is initialised: keeps what sc_engine_lost_event needs when
 * SimGrid ends a run whose actors it finds deadlocked (it then kills them,
 * and their activities go). */
void sc_engine_watch_lost_events(void);

/* The error of a run, `what` ("bruck", "the replay"), whose ranks did not
 * all finish (`unfinished` of `np`): a deadlock, or SimGrid's lost event
 * (sc_engine_lost_event), which says so. */
sc_err_t sc_engine_unfinished(const char *what, int unfinished, int np);

#ifdef __cplusplus
}
#endif

#endif
