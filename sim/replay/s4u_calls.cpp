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
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "s4u_calls.h"

#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Mailbox.hpp>

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
