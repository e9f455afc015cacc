/* The driver: ranks' schedules played from SimGrid's maestro.
 *
 * The replay's actor per node (node_replay.c) costs SimGrid a context switch
 * and a few simcalls per message. SimGrid 4.1 lets maestro itself start
 * communications, between hosts and without mailboxes, and calls back
 * when each completes; it runs timers too. So here no actor plays at all,
 * nor starts the run (a timer at 0 starts the ranks, start_all): every
 * rank is the state machine of play.c, the one the replay's actors
 * run, with the protocol of sim/protocol/protocol.h, and
 *   - an envelope is a communication from the sender's host to the
 *     receiver's, started at once (Comm::sendto_init), which carries the
 *     envelope as its data and hands it to its rank when it completes
 *     (Comm::on_completion_cb, one callback for every communication),
 *     but a header alone is no communication: it is due at the protocol's
 *     time for it (sc_protocol_ready) and waits with what is held;
 *   - a rank busy until a time (overheads, the NIC's gap, combining) goes
 *     on at that time, and what SimGrid delivers with a latency factor is
 *     held back for the latency beyond the route's (protocol.h): both wait
 *     in the driver's two queues, and one SimGrid timer
 *     (kernel::timer::Timer) fires at the first of them;
 *   - a rank whose wait is over goes on once every communication
 *     completing at that instant has been handed on, as the replay's and
 *     the actors' ranks take in all of them first (node_replay.c, wait_next).
 * The order of what happens at one instant is the replay's node actor's:
 * what is held and due, then the ranks whose wait is over or who
 * are no longer busy, by rank; SimGrid's own timers would run timers of
 * one date in any order, and a rank could then go on before an envelope
 * ready at that very instant reached it. So the messages, routes and
 * times are the replay's, and so are the simulated times
 * (tests/unit/test_replay.c compares both).
 *
 * SimGrid 3.32 can start communications from maestro too, but detaches
 * them, and each completion scans the list of all of maestro's
 * (bench/README.md): quadratic, so this file is for 4.1 only, and 3.32
 * builds refuse --replay=maestro (sc_driver_available).
 * SPDX-License-Identifier: GPL-2.0-or-later */
extern "C" {
#include "sim/protocol/protocol.h"
#include "algorithms/schedule.h"
}
#include "sim/simgrid/driver.h"
#include "sim/replay/play.h"
#include "sim/simgrid/s4u_calls.h"

#include <simgrid/version.h>

#if SC_SIMGRID_AT_LEAST(4, 1)
#include <simgrid/kernel/Timer.hpp>
#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>

#include <algorithm>
#include <cstdint>
#include <queue>
#include <vector>
#endif

sc_err_t sc_driver_available(void)
{
#if SC_SIMGRID_AT_LEAST(4, 1)
    return SC_OK;
#else
    return sc_error(SC_ERR_INPUT,
                    "--replay=maestro needs SimGrid 4.1 or later, and this simcoll is built with "
                    "SimGrid %d.%d: there, communications started without an actor are "
                    "detached and each completion scans all of them (bench/README.md); use "
                    "--replay, or build with -DSIMCOLL_SIMGRID=bundled",
                    SIMGRID_VERSION_MAJOR, SIMGRID_VERSION_MINOR);
#endif
}

#if SC_SIMGRID_AT_LEAST(4, 1)
namespace
{
namespace s4u = simgrid::s4u;
using simgrid::kernel::timer::Timer;

/* Something due at a date: a held envelope (a header alone, or one the
 * latency factor holds back), or the end of a rank's busy time. Those of
 * one date keep the order they came in (seq). */
struct Due {
    double date;
    unsigned long seq;
    sc_envelope_t *env; /* held */
    int rank;           /* busy */
    bool operator>(const Due &o) const
    {
        return date > o.date || (date == o.date && seq > o.seq);
    }
};
using DueQueue = std::priority_queue<Due, std::vector<Due>, std::greater<Due>>;

/* One driver per process (a simulation runs in a child process of its
 * own): SimGrid's callbacks and the protocol's reach it here. */
struct Driver {
    sc_player_t pl;
    std::vector<s4u::Host *> host_of_node; /* by the platform's node */
    DueQueue held, busy;
    unsigned long seq = 0;
    Timer *alarm = nullptr; /* at the first date of the queues */
    double alarm_date = 0;
    std::vector<int> ready, resuming; /* ranks to go on at this instant */
    bool flush_armed = false;
    bool flush_after_arrivals = false; /* see flush */
    /* The last communication completed: released at the next completion,
     * not in its own callback, which SimGrid still runs from it. */
    s4u::Comm *retired = nullptr;
    /* Where communications' flows are, found at the first (send). */
    simgrid::kernel::resource::Model *network = nullptr;
};
Driver *D;

double now()
{
    return s4u::Engine::get_clock();
}

s4u::Host *host_of_rank(int r)
{
    return D->host_of_node[(size_t)D->pl.model->node_of[r]];
}

/* A host-to-host communication ignores Comm::set_rate in SimGrid 4.1 (the
 * kernel's communication never gets it), so the flow of the envelope's
 * communication, the network model's newest, gets its bound here, as the
 * network model would have set it: the least of the route's bound and the
 * rate (CM02's bandwidth factor is 1, sim/simgrid/engine.c). */
void bound_flow(const s4u::CommPtr &comm, double rate)
{
    simgrid::kernel::resource::Action *flow = &D->network->get_started_action_set()->back();
    if (flow->get_activity() != comm->get_impl()) {
        sc_play_fail(&D->pl, "cannot bound a flow's rate in this SimGrid (%s)",
                     SIMGRID_VERSION_STRING);
        return;
    }
    auto least = [rate](double bound) { return bound >= 0 && bound < rate ? bound : rate; };
    flow->set_user_bound(least(flow->get_user_bound()));
    flow->set_bound(least(flow->get_bound()));
}

/* An envelope on its way: SimGrid's communication owns it until it
 * completes (on_arrival). */
void send(sc_envelope_t *env, size_t data)
{
    const sc_model_t *model = D->pl.model;
    sc_wire_plan_t w = sc_protocol_wire(model, env->src, env->dst, data);
    s4u::CommPtr comm = s4u::Comm::sendto_init(host_of_rank(env->src), host_of_rank(env->dst));
    /* the bytes the replay's mailbox communications take, a long */
    comm->set_payload_size(static_cast<uint64_t>(static_cast<long>(w.wire_bytes)));
    comm->set_data(env);
    comm->start();
    if (!D->network) /* the model whose newest flow is this communication's */
        for (auto *candidate : s4u::Engine::get_instance()->get_all_models()) {
            auto *set = candidate->get_started_action_set();
            if (!set->empty() && set->back().get_activity() == comm->get_impl())
                D->network = candidate;
        }
    if (w.rate >= 0)
        bound_flow(comm, w.rate);
    comm->add_ref(); /* ours until it completes: freed before, SimGrid aborts */
}

void due(DueQueue &q, double date, sc_envelope_t *env, int rank);

/* A header alone (RTS, CTS, an empty eager message) shares no link
 * (sim/protocol/protocol.h): no flow, only its time, the route's latency
 * and what the protocol adds, after which it is handed on as SimGrid's
 * would be from the queue of what is held. */
void post(sc_player_t *pl, sc_envelope_t *env, size_t data)
{
    if (data > 0) {
        send(env, data);
        return;
    }
    env->left = now();
    due(D->held, sc_protocol_ready(pl->model, env, now()), env, -1);
}

void put_data(sc_player_t *pl, sc_envelope_t *env)
{
    (void)pl;
    send(env, env->bytes);
}

/* Hands on what SimGrid delivered, or the latency factor held until now:
 * the envelope to its rank, and for rendezvous data the completion of the
 * send too, whose data SimGrid delivered to both ends at once. */
void hand_on(sc_envelope_t *env)
{
    if (D->pl.failed) {
        sc_envelope_free(env);
        return;
    }
    int src = env->src;
    bool data = env->kind == SC_ENV_DATA;
    auto send_req = static_cast<uint32_t>(env->sreq);
    sc_play_deliver(&D->pl, env);
    if (data)
        sc_play_complete(&D->pl, src, send_req);
}

void fire();

/* The latest date due at time t: SimGrid's clock may land an ulp short of
 * a date (sc_held_due, sc_play_can_resume). */
double due_by(double t)
{
    return t + 1e-12 * (t > 1 ? t : 1);
}

/* Hands on the held envelopes due by `by`, in their order. */
void hand_on_held(double by)
{
    while (!D->held.empty() && D->held.top().date <= by) {
        sc_envelope_t *env = D->held.top().env;
        D->held.pop();
        hand_on(env);
    }
}

/* Sets the alarm at the first date due, if it is not set by then. */
void wake_at(double date)
{
    if (D->alarm && D->alarm_date <= date)
        return;
    if (D->alarm)
        D->alarm->remove();
    D->alarm = Timer::set(date, fire);
    D->alarm_date = date;
}

void due(DueQueue &q, double date, sc_envelope_t *env, int rank)
{
    q.push(Due{date, D->seq++, env, rank});
    wake_at(date);
}

/* Resumes the ranks due to go on at this instant, by rank. A rank whose
 * wait is over goes on only after the communications completing at this
 * instant, which SimGrid hands on after its timers: while there are, the
 * flush waits for the first of them (on_arrival). */
void flush()
{
    D->flush_armed = false;
    bool wait_over = false;
    for (int r : D->ready)
        wait_over |= D->pl.ranks[r].state == SC_RANK_WAITING;
    if (wait_over && D->network && !D->network->get_finished_action_set()->empty()) {
        D->flush_after_arrivals = true;
        return;
    }
    /* As the replay's node actor: what is held and due within a rounding
     * of now first (a rank's wait may end at t, an envelope be due at t
     * plus an ulp), then the ranks. */
    double t = now();
    hand_on_held(due_by(t));
    D->resuming.swap(D->ready);
    std::sort(D->resuming.begin(), D->resuming.end());
    for (int r : D->resuming)
        if (!D->pl.failed && sc_play_can_resume(&D->pl, r, t))
            sc_play_advance(&D->pl, r, t);
    D->resuming.clear();
}

void flush_soon()
{
    if (!D->flush_armed) {
        D->flush_armed = true;
        Timer::set(now(), flush);
    }
}

void on_arrival(s4u::Comm const &comm)
{
    if (D->retired)
        D->retired->unref();
    D->retired = const_cast<s4u::Comm *>(&comm);
    if (D->flush_after_arrivals) {
        D->flush_after_arrivals = false;
        flush_soon();
    }
    auto *env = comm.get_data<sc_envelope_t>();
    size_t data = sc_envelope_data_bytes(env);
    double extra = sc_protocol_wire(D->pl.model, env->src, env->dst, data).extra_latency;
    if (extra > 0)
        due(D->held, now() + extra, env, -1);
    else
        hand_on(env);
}

/* The alarm: what is due by now, up to a rounding as the replay allows
 * (sc_held_due, sc_play_can_resume), held envelopes first. */
void fire()
{
    D->alarm = nullptr; /* SimGrid deletes it */
    double by = due_by(now());
    hand_on_held(by);
    while (!D->busy.empty() && D->busy.top().date <= by) {
        D->ready.push_back(D->busy.top().rank);
        D->busy.pop();
    }
    if (!D->ready.empty())
        flush_soon();
    double next = D->held.empty() ? -1 : D->held.top().date;
    if (!D->busy.empty() && (next < 0 || D->busy.top().date < next))
        next = D->busy.top().date;
    if (next >= 0)
        wake_at(next);
}

void wait_over(sc_player_t *pl, int r)
{
    (void)pl;
    D->ready.push_back(r);
    flush_soon();
}

void busy(sc_player_t *pl, int r)
{
    due(D->busy, pl->ranks[r].busy_until, nullptr, r);
}

/* post, put_data, busy, wait_over; nothing to do when a rank finishes */
const sc_play_ops_t play_ops = {post, put_data, busy, wait_over, nullptr};

/* Every rank starts at 0, from a timer: SimGrid seals the platform when
 * the run starts, and only then may communications start. */
void start_all(double *start)
{
    for (int r = 0; r < D->pl.np && !D->pl.failed; r++) {
        start[r] = now();
        sc_play_advance(&D->pl, r, now());
    }
}
} // namespace

sc_err_t sc_driver_run(sc_op_source_t *source, const sc_model_t *model, sc_replay_result_t *res)
{
    Driver driver;
    D = &driver;
    res->max_rank_bytes = 0;
    res->receives_short = 0; /* no receives posted in advance */
    sc_err_t err = sc_play_init(&driver.pl, source, model, &play_ops, &res->total, res->finish);
    if (err)
        return err;
    const sc_platform_t *plat = model->plat;
    driver.host_of_node.assign((size_t)plat->nnodes, nullptr);
    for (int r = 0; r < source->np; r++) {
        s4u::Host *&host = driver.host_of_node[(size_t)model->node_of[r]];
        if (!host)
            host = s4u::Host::by_name(plat->nodes[model->node_of[r]].name);
    }
    s4u::Comm::on_completion_cb(on_arrival);
    double *start = res->start;
    Timer::set(0, [start] { start_all(start); });
    s4u::Engine::get_instance()->run();
    if (driver.retired)
        driver.retired->unref();
    err = sc_play_result(&driver.pl, &res->max_rank_bytes, sc_engine_unfinished);
    sc_play_destroy(&driver.pl);
    D = nullptr;
    return err;
}
#else
sc_err_t sc_driver_run(sc_op_source_t *source, const sc_model_t *model, sc_replay_result_t *res)
{
    (void)source;
    (void)model;
    (void)res;
    return sc_driver_available();
}
#endif
