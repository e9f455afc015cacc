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
 *     receiver's (Comm::sendto_init), started at the end of the instant it
 *     was sent in (launch), which carries the envelope as its data and hands
 *     it to its rank when it completes (Comm::on_completion_cb, one callback
 *     for every communication), but a header alone is no communication: it
 *     is due at the protocol's time for it (sc_protocol_ready) and waits
 *     with what is held;
 *   - envelopes sent at one instant from one host to another with the same
 *     wire bytes, rate and latency share one communication, whose flow
 *     counts as that many (one_flow): SimGrid's max-min sharing gives it
 *     what it would give them, for the solver's work and memory of one
 *     flow (a Bruck step of 8-core nodes: one flow a node, not eight),
 *     where the route's links share their bandwidth and the bundled
 *     SimGrid lets a flow's weight be set (may_share);
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
 * Live ranks (live.cpp) run their own code on actors; their source gives
 * ops as the code makes them, and the driver plays them as a recording's.
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
#include <simgrid/simcall.hpp>

#include <algorithm>
#include <cstdint>
#include <queue>
#include <tuple>
#include <unordered_map>
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

/* An envelope sent at this instant, waiting for its communication (launch). */
struct Outgoing {
    s4u::Host *src, *dst;
    sc_wire_plan_t wire;
    sc_envelope_t *env;
};

/* What makes envelopes one flow: hosts, and the wire plan's bytes, rate and
 * latency beyond the route's. */
struct FlowKey {
    const s4u::Host *src, *dst;
    double wire_bytes, rate, extra_latency;
    bool operator==(const FlowKey &o) const
    {
        return std::tie(src, dst, wire_bytes, rate, extra_latency) ==
               std::tie(o.src, o.dst, o.wire_bytes, o.rate, o.extra_latency);
    }
};
struct FlowKeyHash {
    size_t operator()(const FlowKey &k) const
    {
        std::hash<const void *> ptr;
        std::hash<double> num;
        return ptr(k.src) * 31 ^ ptr(k.dst) * 17 ^ num(k.wire_bytes) * 7 ^ num(k.rate) ^
               num(k.extra_latency);
    }
};

/* One driver per process (a simulation runs in a child process of its
 * own): SimGrid's callbacks and the protocol's reach it here. */
struct Driver {
    sc_player_t pl;
    sc_play_ops_t ops;                     /* play_ops, and a live source's hooks */
    std::vector<s4u::Host *> host_of_node; /* by the platform's node */
    DueQueue held, busy;
    unsigned long seq = 0;
    Timer *alarm = nullptr; /* at the first date of the queues */
    double alarm_date = 0;
    std::vector<int> ready, resuming; /* ranks to go on at this instant */
    bool flush_armed = false;
    bool flush_after_arrivals = false; /* see flush */
    std::vector<Outgoing> outgoing;    /* sent at this instant, see launch */
    bool launch_armed = false;
    std::unordered_map<FlowKey, size_t, FlowKeyHash> flow_by_key; /* launch's */
    std::vector<s4u::Link *> route;                           /* may_share's */
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

/* The flow of communication `comm`, the network model's newest; the first
 * call finds that model, which flush asks what completes at an instant. */
simgrid::kernel::resource::Action *flow_of(const s4u::CommPtr &comm)
{
    if (!D->network) /* the model whose newest flow is this communication's */
        for (auto *candidate : s4u::Engine::get_instance()->get_all_models()) {
            auto *set = candidate->get_started_action_set();
            if (!set->empty() && set->back().get_activity() == comm->get_impl())
                D->network = candidate;
        }
    simgrid::kernel::resource::Action *flow = &D->network->get_started_action_set()->back();
    if (flow->get_activity() != comm->get_impl()) {
        sc_play_fail(&D->pl, "cannot reach a communication's flow in this SimGrid (%s)",
                     SIMGRID_VERSION_STRING);
        return nullptr;
    }
    return flow;
}

/* Whether n envelopes from src to dst may share one flow, and the route's
 * latency, which decides how that flow takes its weight (one_flow): only
 * where a flow's weight can be set, and max-min gives a flow of n times the
 * bytes, bound and weight what it gives n flows only on links that share
 * their bandwidth; a FATPIPE link gives each flow the whole of it (and
 * SimGrid's other policies are not max-min at all). */
bool may_share(const s4u::Host *src, const s4u::Host *dst, double *latency)
{
#ifndef SC_SIMGRID_FLOW_WEIGHT
    (void)src, (void)dst, (void)latency;
    return false; /* no weight to set (one_flow) */
#else
    D->route.clear();
    *latency = 0;
    src->route_to(dst, D->route, latency);
    return std::all_of(D->route.begin(), D->route.end(), [](const s4u::Link *link) {
        auto policy = link->get_sharing_policy();
        return policy == s4u::Link::SharingPolicy::SHARED ||
               policy == s4u::Link::SharingPolicy::SPLITDUPLEX;
    });
#endif
}

/* Makes `flow`, which carries n envelopes, count as n flows. SimGrid's CM02
 * shares a link's bandwidth among flows in inverse proportion to their
 * weights (its "sharing penalty": the route's latency; 1 for a route
 * without latency), and each flow's rate is at most its bound: a flow of n
 * times the bytes, with 1/n of the weight and n times the bound, gets n
 * times the rate of each of the n on every link, and ends when they would.
 * A flow with latency shares nothing until its latency has passed, and
 * then takes its weight, which the bundled SimGrid keeps where this can set
 * it (third_party/simgrid/patches/network-weight.patch). */
void one_flow(simgrid::kernel::resource::Action *flow, int n, double latency)
{
    if (latency > 0)
        flow->set_sharing_penalty_no_update(flow->get_sharing_penalty() / n);
    else
        flow->set_sharing_penalty(1.0 / n);
    auto times_n = [n](double bound) { return bound >= 0 ? bound * n : bound; };
    flow->set_user_bound(times_n(flow->get_user_bound()));
    flow->set_bound(times_n(flow->get_bound()));
}

/* A host-to-host communication ignores Comm::set_rate in SimGrid 4.1 (the
 * kernel's communication never gets it), so each envelope's flow gets its
 * bound here, as the network model would have set it: the least of the
 * route's bound and the rate (CM02's bandwidth factor is 1,
 * sim/simgrid/engine.c). A flow of n envelopes, n times that. */
void bound_flow(simgrid::kernel::resource::Action *flow, double rate, int n)
{
    auto least = [rate, n](double bound) {
        return bound >= 0 && bound < rate * n ? bound : rate * n;
    };
    flow->set_user_bound(least(flow->get_user_bound()));
    flow->set_bound(least(flow->get_bound()));
}

/* The n envelopes chained from `first` (by next) on their way, one
 * communication: SimGrid's communication owns them until it completes
 * (on_arrival). */
void start_flow(const Outgoing &out, sc_envelope_t *first, int n)
{
    double latency = 0;
    if (n > 1 && !may_share(out.src, out.dst, &latency)) {
        for (sc_envelope_t *env = first, *next; env; env = next) {
            next = env->next;
            env->next = nullptr;
            start_flow(out, env, 1);
        }
        return;
    }
    s4u::CommPtr comm = s4u::Comm::sendto_init(out.src, out.dst);
    /* the bytes the replay's mailbox communications take, a long each */
    comm->set_payload_size(static_cast<uint64_t>(static_cast<long>(out.wire.wire_bytes)) *
                           static_cast<uint64_t>(n));
    comm->set_data(first);
    comm->start();
    comm->add_ref(); /* ours until it completes: freed before, SimGrid aborts */
    simgrid::kernel::resource::Action *flow = flow_of(comm);
    if (!flow)
        return;
    if (n > 1)
        one_flow(flow, n, latency);
    if (out.wire.rate >= 0)
        bound_flow(flow, out.wire.rate, n);
}

/* Starts the communications of what was sent at this instant: one for
 * the envelopes of one key, in the order of each key's first envelope. */
void launch()
{
    D->launch_armed = false;
    std::vector<Outgoing> batch;
    batch.swap(D->outgoing);
    struct Flow {
        const Outgoing *first; /* its first envelope's, which heads the chain */
        sc_envelope_t *last;
        int n;
    };
    std::vector<Flow> flows;
    for (const Outgoing &o : batch) {
        FlowKey key{o.src, o.dst, o.wire.wire_bytes, o.wire.rate, o.wire.extra_latency};
        auto found = D->flow_by_key.emplace(key, flows.size());
        o.env->next = nullptr;
        if (found.second) {
            flows.push_back(Flow{&o, o.env, 1});
        } else {
            Flow &f = flows[found.first->second];
            f.last->next = o.env;
            f.last = o.env;
            f.n++;
        }
    }
    D->flow_by_key.clear();
    for (const Flow &f : flows)
        if (!D->pl.failed)
            start_flow(*f.first, f.first->env, f.n);
        else /* the run is over: what has not left is only freed */
            for (sc_envelope_t *env = f.first->env, *next; env; env = next) {
                next = env->next;
                sc_envelope_free(env);
            }
}

/* An envelope on its way at the end of this instant (launch). */
void send(sc_envelope_t *env, size_t data)
{
    sc_wire_plan_t wire = sc_protocol_wire(D->pl.model, env->src, env->dst, data);
    D->outgoing.push_back(Outgoing{host_of_rank(env->src), host_of_rank(env->dst), wire, env});
    if (!D->launch_armed) {
        D->launch_armed = true;
        Timer::set(now(), launch);
    }
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
    /* the envelopes its flow carried (launch), in the order they were sent */
    auto *first = comm.get_data<sc_envelope_t>();
    size_t data = sc_envelope_data_bytes(first);
    double extra = sc_protocol_wire(D->pl.model, first->src, first->dst, data).extra_latency;
    for (sc_envelope_t *env = first, *next; env; env = next) {
        next = env->next;
        env->next = nullptr;
        if (extra > 0)
            due(D->held, now() + extra, env, -1);
        else
            hand_on(env);
    }
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
const sc_play_ops_t play_ops = {post,    put_data, busy,    wait_over,
                                nullptr, nullptr,  nullptr, nullptr};

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

sc_err_t sc_driver_run_live(sc_op_source_t *source, const sc_model_t *model,
                            const sc_driver_live_t *live, sc_replay_result_t *res)
{
    Driver driver;
    D = &driver;
    driver.ops = play_ops;
    if (live) {
        driver.ops.code_runs = live->code_runs;
        driver.ops.carry = live->carry;
        driver.ops.received = live->received;
    }
    res->max_rank_bytes = 0;
    res->receives_short = 0; /* no receives posted in advance */
    sc_err_t err = sc_play_init(&driver.pl, source, model, &driver.ops, &res->total, res->finish);
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
    if (live) {
        std::fill(start, start + source->np, 0.0);
        live->start(live->ctx);
    } else {
        Timer::set(0, [start] { start_all(start); });
    }
    s4u::Engine::get_instance()->run();
    if (driver.retired)
        driver.retired->unref();
    err = sc_play_result(&driver.pl, &res->max_rank_bytes, sc_engine_unfinished);
    sc_play_destroy(&driver.pl);
    D = nullptr;
    return err;
}

sc_err_t sc_driver_run(sc_op_source_t *source, const sc_model_t *model, sc_replay_result_t *res)
{
    return sc_driver_run_live(source, model, nullptr, res);
}

sg_host_t sc_driver_host(int r)
{
    return host_of_rank(r);
}

void sc_driver_advance(int r)
{
    simgrid::kernel::actor::simcall_answered([r] {
        if (!D->pl.failed)
            sc_play_advance(&D->pl, r, now());
    });
}
#else
sc_err_t sc_driver_run(sc_op_source_t *source, const sc_model_t *model, sc_replay_result_t *res)
{
    return sc_driver_run_live(source, model, nullptr, res);
}

sc_err_t sc_driver_run_live(sc_op_source_t *, const sc_model_t *, const sc_driver_live_t *,
                            sc_replay_result_t *)
{
    return sc_driver_available();
}

sg_host_t sc_driver_host(int)
{
    return nullptr;
}

void sc_driver_advance(int)
{
}
#endif
