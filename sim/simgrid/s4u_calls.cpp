/* What SimGrid 3.32's C API lacks, in C++.
 *
 * A communication's own rate (Comm::set_rate) must be set before it
 * starts, which sg_mailbox_put_async does at once.
 *
 * SimGrid 3.32's sg_comm_wait_any_for releases every communication it was
 * given when it times out (it keeps a reference only for those other than
 * the one it returns, and returns -1), so a caller that waits again on
 * them uses freed memory. The replay waits with a timeout at every busy
 * rank's next free time, so this is the same call with the references
 * kept. It is C++ because SimGrid's C API cannot take a reference.
 *
 * SimGrid 4.1 has neither Comm::wait_any_for nor sg_comm_wait_any: a set
 * of activities (s4u::ActivitySet) waits for any of its own, and hands the
 * one that completed back rather than its index. Both waits below are the
 * same call as 3.32's on a set made for the call, with the same references
 * kept and released.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "sim/simgrid/s4u_calls.h"

#include <simgrid/kernel/resource/Model.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Mailbox.hpp>
#if SC_SIMGRID_AT_LEAST(4, 1)
#include <simgrid/Exception.hpp>
#include <simgrid/s4u/ActivitySet.hpp>
#endif

#include <vector>

sg_comm_t sc_mailbox_put_async(sg_mailbox_t mailbox, void *payload, long bytes, double rate)
{
    if (rate < 0)
        return sg_mailbox_put_async(mailbox, payload, bytes);
    simgrid::s4u::CommPtr comm = mailbox->put_init(payload, bytes);
    comm->set_rate(rate);
    comm->start();
    comm->add_ref(); /* the caller's, as sg_mailbox_put_async gives it */
    return comm.get();
}

#if SC_SIMGRID_AT_LEAST(4, 1)
ssize_t sc_comm_wait_any_for(sg_comm_t *comms, size_t count, double timeout)
{
    simgrid::s4u::ActivitySet set; /* holds references of its own */
    for (size_t i = 0; i < count; i++)
        set.push(comms[i]);
    simgrid::s4u::ActivityPtr done;
    try {
        done = set.wait_any_for(timeout);
    } catch (const simgrid::TimeoutException &) {
        return -1;
    }
    for (size_t i = 0; i < count; i++)
        if (comms[i] == done.get()) {
            comms[i]->unref(); /* the caller's, as 3.32's wait released it */
            return static_cast<ssize_t>(i);
        }
    return -1; /* not reached: the set holds only these */
}

ssize_t sc_comm_wait_any(sg_comm_t *comms, size_t count)
{
    return sc_comm_wait_any_for(comms, count, -1);
}
#else
ssize_t sc_comm_wait_any_for(sg_comm_t *comms, size_t count, double timeout)
{
    std::vector<simgrid::s4u::CommPtr> waited;
    waited.reserve(count);
    for (size_t i = 0; i < count; i++)
        waited.emplace_back(comms[i], false); /* adopts the caller's reference */
    ssize_t pos = simgrid::s4u::Comm::wait_any_for(waited, timeout);
    for (size_t i = 0; i < count; i++)
        if (static_cast<ssize_t>(i) != pos)
            waited[i]->add_ref(); /* given back to the caller */
    return pos;
}

ssize_t sc_comm_wait_any(sg_comm_t *comms, size_t count)
{
    return sg_comm_wait_any(comms, count);
}
#endif

/* sg_comm_test releases a completed communication at once, and with it
 * the time it completed: read first. */
int sc_comm_test_finish(sg_comm_t comm, double *finish)
{
    if (!comm->test())
        return 0;
    *finish = comm->get_finish_time();
    comm->unref();
    return 1;
}

/* A model's heap holds its actions by the date they end (lazy updates);
 * one dated before the clock was passed, never handled. */
static double passed_date(void)
{
    double now = simgrid::s4u::Engine::get_clock();
    for (auto *model : simgrid::s4u::Engine::get_instance()->get_all_models()) {
        auto &heap = model->get_action_heap();
        if (!heap.empty() && heap.top_date() < now)
            return heap.top_date();
    }
    return -1;
}

/* Seen when SimGrid found the actors deadlocked, before it killed them
 * (which cancels their activities and empties the heaps). */
static double lost_date = -1;

void sc_engine_watch_lost_events(void)
{
    simgrid::s4u::Engine::on_deadlock_cb([] { lost_date = passed_date(); });
}

double sc_engine_lost_event(void)
{
    return lost_date >= 0 ? lost_date : passed_date();
}

sc_err_t sc_engine_unfinished(const char *what, int unfinished, int np)
{
    double lost = sc_engine_lost_event();
    if (lost >= 0)
        return sc_error(SC_ERR_RUN,
                        "SimGrid %d.%d stopped the run at %.17g s with an activity that ended at "
                        "%.17g s still unfinished (%d of %d ranks never finished): its clock had "
                        "landed one rounding past that end, which it then never handles (a flaw of "
                        "its lazy updates once the clock passes 8192 s); the SimGrid 4.1 bundled "
                        "with simcoll is patched for it (-DSIMCOLL_SIMGRID=bundled, "
                        "third_party/simgrid/patches)",
                        SIMGRID_VERSION_MAJOR, SIMGRID_VERSION_MINOR,
                        simgrid::s4u::Engine::get_clock(), lost, unfinished, np);
    return sc_error(SC_ERR_RUN, "%s deadlocked: %d of %d ranks never finished", what, unfinished,
                    np);
}
