/* Live ranks: each rank's code on an actor, its calls played from maestro.
 *
 * The actors' transport (transport.c) costs SimGrid a dozen simcalls and
 * context switches per message; the driver (driver.cpp) plays recorded
 * schedules with none, but a recording has no data, so nothing that
 * checks or decides by payloads. Here each rank's code runs on an actor,
 * and its transport only notes what it is asked: a send, a receive and a
 * computation become an op (sc_sched_op_t) of the rank's live source, and
 * a wait hands them over to maestro in one simcall (sc_driver_advance)
 * and blocks the actor on its semaphore. The driver plays them as it
 * plays a recorded rank's, with play.c and the same protocol, and when
 * the rank has played all its code gave (SC_SOURCE_LATER), code_runs
 * releases the actor: it goes on at the simulated time its wait ended.
 * So the messages, routes and times are the driver's, and a rank's data
 * travels with its envelopes: an EAGER or DATA envelope takes a copy of
 * the send's buffer as it leaves (carry) and fills the receive's buffer
 * when it is received, before the receive completes.
 *
 * A wait that returns at once (waitany, test, probe) would need the
 * rank's state at its own time, which maestro has only after playing it:
 * those calls are refused, and so are receives from any source, tag or
 * size.
 * SPDX-License-Identifier: GPL-2.0-or-later */
extern "C" {
#include "algorithms/schedule.h"
#include "sim/protocol/protocol.h"
}
#include "sim/simgrid/live.h"
#include "sim/simgrid/s4u_calls.h"

#include <simgrid/version.h>

#if SC_SIMGRID_AT_LEAST(4, 1)
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

namespace
{
namespace s4u = simgrid::s4u;

/* A rank: the ops its code gave since its last wait (pending) and those
 * play.c plays now (given), with the request ids their WAITs list. */
struct LiveRank {
    int rank;
    sc_comm_t comm{};
    std::vector<sc_sched_op_t> pending, given;
    std::vector<uint32_t> pending_ids, given_ids;
    uint32_t next_req = 0;
    bool ended = false;
    s4u::SemaphorePtr go;
    /* payloads: the buffer of each request not yet waited for */
    std::unordered_map<uint32_t, void *> buffers;
};

/* One run per process (a simulation runs in a child process of its own). */
struct Live {
    std::vector<LiveRank> ranks;
    const sc_model_t *model;
    sc_scratch_t *scratch;
    sc_live_main_t rank_main;
    void *ctx;
    sc_err_t err = SC_OK; /* the first rank's failure */
    std::string msg;
};
Live *L;

void fail(sc_err_t err, const char *msg)
{
    if (!L->err) {
        L->err = err;
        L->msg = msg;
    }
}

LiveRank &rank_of(sc_comm_t *comm)
{
    return *static_cast<LiveRank *>(comm->impl);
}

/* The live source: what the rank's code gave since play.c last asked. */
int next_window(sc_op_source_t *, int r, sc_op_window_t *w)
{
    LiveRank &lr = L->ranks[(size_t)r];
    if (lr.pending.empty())
        return lr.ended ? 0 : SC_SOURCE_LATER;
    lr.given.swap(lr.pending);
    lr.pending.clear();
    lr.given_ids.swap(lr.pending_ids);
    lr.pending_ids.clear();
    *w = sc_op_window_t{lr.given.data(), (long)lr.given.size(), lr.given_ids.data(), 0};
    return 1;
}

sc_err_t refuse(const char *what)
{
    return sc_error(SC_ERR_INPUT,
                    "--replay=live runs sends, receives and waits for all, and this code "
                    "made %s; run it without --replay",
                    what);
}

sc_err_t add_p2p(sc_comm_t *comm, sc_op_kind_t kind, void *buf, size_t bytes, int peer, int tag,
                 sc_request_t **req)
{
    *req = nullptr;
    if (peer == SC_ANY_SOURCE)
        return refuse("a receive from any source");
    if (tag < 0)
        return refuse("a receive of any tag");
    if (bytes == SC_ANY_SIZE)
        return refuse("a receive of any size");
    LiveRank &lr = rank_of(comm);
    sc_sched_op_t op{};
    op.kind = (uint8_t)kind;
    op.req = lr.next_req++;
    op.peer = peer;
    op.tag = tag;
    op.u.bytes = bytes;
    lr.pending.push_back(op);
    if (!comm->scratch)
        lr.buffers[op.req] = buf;
    /* a request is its id plus one: never NULL */
    *req = reinterpret_cast<sc_request_t *>(static_cast<uintptr_t>(op.req) + 1);
    return SC_OK;
}

uint32_t req_id(const sc_request_t *req)
{
    return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(req) - 1);
}

sc_err_t live_isend(sc_comm_t *comm, const void *buf, size_t bytes, int dst, int tag,
                    sc_request_t **req)
{
    /* the buffer is only read (carry) */
    return add_p2p(comm, SC_OP_SEND, const_cast<void *>(buf), bytes, dst, tag, req);
}

sc_err_t live_irecv(sc_comm_t *comm, void *buf, size_t bytes, int src, int tag, sc_request_t **req)
{
    return add_p2p(comm, SC_OP_RECV, buf, bytes, src, tag, req);
}

/* Hands the rank's ops to maestro, which plays them, and blocks until it
 * has played them all (code_runs). */
void sync_rank(LiveRank &lr)
{
    sc_driver_advance(lr.rank);
    lr.go->acquire();
}

sc_err_t live_waitall(sc_comm_t *comm, int count, sc_request_t **reqs)
{
    LiveRank &lr = rank_of(comm);
    sc_sched_op_t op{};
    op.kind = SC_OP_WAIT;
    op.u.wait.first = (uint32_t)lr.pending_ids.size();
    for (int i = 0; i < count; i++)
        if (reqs[i]) {
            lr.pending_ids.push_back(req_id(reqs[i]));
            op.u.wait.count++;
        }
    lr.pending.push_back(op);
    sync_rank(lr);
    for (int i = 0; i < count; i++) { /* complete: their buffers are the code's again */
        if (reqs[i] && !comm->scratch)
            lr.buffers.erase(req_id(reqs[i]));
        reqs[i] = nullptr;
    }
    return L->err;
}

void add_compute(LiveRank &lr, double seconds)
{
    sc_sched_op_t op{};
    op.kind = SC_OP_COMPUTE;
    op.u.seconds = seconds;
    lr.pending.push_back(op);
}

sc_err_t live_reduce_time(sc_comm_t *comm, size_t bytes)
{
    if (!bytes)
        return SC_OK;
    add_compute(rank_of(comm), sc_model_reduce_time(L->model, comm->rank, comm->elem_size, bytes));
    return SC_OK;
}

sc_err_t live_enter_call(sc_comm_t *comm)
{
    double seconds = sc_model_call_time(L->model);
    if (seconds > 0)
        add_compute(rank_of(comm), seconds);
    return SC_OK;
}

sc_err_t live_waitany(sc_comm_t *, int, sc_request_t **, int *index, int *, int)
{
    *index = -1;
    return refuse("a wait for any request");
}

sc_err_t live_test(sc_comm_t *, sc_request_t **, int *flag)
{
    *flag = 0;
    return refuse("a test");
}

sc_err_t live_cancel(sc_comm_t *, sc_request_t **, int *cancelled)
{
    *cancelled = 0;
    return refuse("a cancel");
}

sc_err_t live_request_free(sc_comm_t *, sc_request_t **)
{
    return refuse("a request freed without a wait");
}

sc_err_t live_iprobe(sc_comm_t *, int, int, int *flag, int *, size_t *)
{
    *flag = 0;
    return refuse("a probe");
}

const sc_transport_t live_transport = {
    live_isend,   live_irecv, live_waitall, live_reduce_time,  live_enter_call,
    live_waitany, live_test,  live_cancel,  live_request_free, live_iprobe};

/* The hooks play.c calls for a live source. */
void code_runs(sc_player_t *, int r)
{
    L->ranks[(size_t)r].go->release();
}

void carry(sc_player_t *pl, int r, uint32_t req, sc_envelope_t *env)
{
    LiveRank &lr = L->ranks[(size_t)r];
    auto found = lr.buffers.find(req);
    if (found == lr.buffers.end() || !found->second || !env->bytes)
        return;
    env->data = malloc(env->bytes);
    if (!env->data) {
        sc_play_fail(pl, "out of memory for a message of %zu bytes", env->bytes);
        return;
    }
    memcpy(env->data, found->second, env->bytes);
}

void received(sc_player_t *, int r, uint32_t req, const sc_envelope_t *env)
{
    LiveRank &lr = L->ranks[(size_t)r];
    auto found = lr.buffers.find(req);
    if (env->data && found != lr.buffers.end() && found->second)
        memcpy(found->second, env->data, env->bytes);
}

void rank_actor(LiveRank *lr)
{
    sc_err_t err = L->rank_main(L->ctx, &lr->comm);
    if (err)
        fail(err, sc_error_message());
    sc_comm_release(&lr->comm);
    lr->ended = true;
    sc_driver_advance(lr->rank); /* what it gave last, then its end */
}

void start_actors(void *)
{
    for (LiveRank &lr : L->ranks) /* each runs once maestro has started them all */
        sc_driver_host(lr.rank)->add_actor("rank", rank_actor, &lr)->set_data(&lr);
}
} // namespace

sc_err_t sc_live_run(const sc_model_t *model, sc_scratch_t *scratch, sc_live_main_t rank_main,
                     void *ctx, sc_replay_result_t *res)
{
    Live live;
    L = &live;
    live.model = model;
    live.scratch = scratch;
    live.rank_main = rank_main;
    live.ctx = ctx;
    int np = model->size;
    live.ranks.resize((size_t)np);
    for (int r = 0; r < np; r++) {
        LiveRank &lr = live.ranks[(size_t)r];
        lr.rank = r;
        lr.go = s4u::Semaphore::create(0);
        lr.comm.rank = r;
        lr.comm.size = np;
        lr.comm.transport = &live_transport;
        lr.comm.impl = &lr;
        lr.comm.scratch = scratch;
        lr.comm.node_of = model->node_of;
        lr.comm.elem_size = model->elem_size;
    }
    sc_op_source_t source{np, next_window};
    sc_driver_live_t hooks{code_runs, scratch ? nullptr : carry, scratch ? nullptr : received,
                           start_actors, nullptr};
    sc_err_t err = sc_driver_run_live(&source, model, &hooks, res);
    if (live.err) /* a rank's own failure says more than what followed */
        err = sc_error(live.err, "%s", live.msg.c_str());
    L = nullptr;
    return err;
}

void sc_live_compute(double seconds)
{
    if (seconds > 0)
        add_compute(*s4u::Actor::self()->get_data<LiveRank>(), seconds);
}
#else
sc_err_t sc_live_run(const sc_model_t *, sc_scratch_t *, sc_live_main_t, void *,
                     sc_replay_result_t *)
{
    return sc_driver_available();
}

void sc_live_compute(double)
{
}
#endif
