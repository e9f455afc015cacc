/* The floor of actors that block once a wait: Bruck allgather on SimGrid
 * 4.1 with an actor per rank whose messages are started from maestro, for
 * bench/scale.sh (BLOCKING=1).
 *
 * simcoll's actors run an algorithm's own code, and each of their
 * messages costs SimGrid simcalls: a put and a get for each envelope, a
 * wait, sleeps for the overheads (bench/README.md, simcalls.sh: 14.8 a
 * message for Bruck's 2 KiB blocks on ib4x, against bench_floor's 4). The
 * driver (--replay=maestro) costs none: it plays a recorded schedule from
 * maestro, starting host-to-host communications there and handing each
 * to its rank when it completes. A design between the two keeps the
 * actors and their code but lets maestro move the messages: an actor
 * hands what it sends to maestro in one simcall and blocks once a wait,
 * until maestro, when the wait's messages have completed, releases it.
 * This program measures the least such a design costs: a step of a rank
 * starts its message from maestro (simcall_answered, one simcall) and
 * blocks on the rank's semaphore (a second) until its send has completed
 * and its step's message has come; the completion callback releases it.
 * Like bench_floor it has none of MPI's semantics (no protocol, no
 * overheads): it is there for the wall time and memory per simulated
 * message, beside bench_floor's and the driver's.
 *
 * Usage: bench_floor_blocking PLATFORM NP BLOCK_BYTES [HEADER_BYTES]
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <malloc.h>
#include <simgrid/s4u.hpp>
#include <simgrid/simcall.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

extern "C" {
#include "sim/simgrid/engine_hosts.h"
}

namespace
{
namespace s4u = simgrid::s4u;

int np;
long block_bytes, header_bytes;

/* A rank: the step it is in, the steps whose message has come (one bit
 * each: a later step's may come first), and whether it is blocked. */
struct Rank {
    s4u::Host *host;
    s4u::SemaphorePtr step_over;
    int step;
    bool sent, blocked;
    uint32_t arrived;
};
std::vector<Rank> ranks;
s4u::Comm *retired; /* the last completed: freed at the next completion */

/* A message's data: its sender and step, packed (no allocation). */
void *message(int src, int step)
{
    return reinterpret_cast<void *>(static_cast<uintptr_t>(src) << 6 |
                                    static_cast<uintptr_t>(step));
}

bool over(const Rank &r)
{
    return r.sent && (r.arrived >> r.step & 1);
}

void release_if_over(Rank &r)
{
    if (r.blocked && over(r)) {
        r.blocked = false;
        r.step_over->release();
    }
}

/* In maestro: a message has come, and its sender's send is done. */
void on_completion(s4u::Comm const &comm)
{
    if (retired)
        retired->unref();
    retired = const_cast<s4u::Comm *>(&comm);
    auto packed = reinterpret_cast<uintptr_t>(comm.get_data<void>());
    int src = static_cast<int>(packed >> 6), step = static_cast<int>(packed & 63);
    int dst = (src - (1 << step) + np) % np;
    ranks[(size_t)src].sent = true;
    ranks[(size_t)dst].arrived |= 1u << step;
    release_if_over(ranks[(size_t)src]);
    release_if_over(ranks[(size_t)dst]);
}

void rank_main(int me)
{
    Rank &r = ranks[(size_t)me];
    for (int step = 0, k = 1; k < np; k <<= 1, step++) {
        long blocks = k < np - k ? k : np - k;
        auto bytes = static_cast<uint64_t>(blocks * block_bytes + header_bytes);
        int dst = (me - k + np) % np;
        bool done = simgrid::kernel::actor::simcall_answered([&r, me, dst, step, bytes] {
            r.step = step;
            r.sent = false;
            s4u::CommPtr comm = s4u::Comm::sendto_init(r.host, ranks[(size_t)dst].host);
            comm->set_payload_size(bytes);
            comm->set_data(message(me, step));
            comm->start();
            comm->add_ref(); /* ours until it completes (on_completion) */
            r.blocked = !over(r);
            return !r.blocked;
        });
        if (!done)
            r.step_over->acquire();
    }
}
} // namespace

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 5) {
        fprintf(stderr, "usage: bench_floor_blocking PLATFORM NP BLOCK_BYTES [HEADER_BYTES]\n");
        return 2;
    }
    np = atoi(argv[2]);
    block_bytes = atol(argv[3]);
    header_bytes = argc == 5 ? atol(argv[4]) : 0;
    if (np < 1 || np >= 1 << 25 || block_bytes < 0 || header_bytes < 0) {
        fprintf(stderr, "bench_floor_blocking: NP must be from 1 to 2^25 - 1 and sizes not "
                        "negative\n");
        return 2;
    }
    /* bench_floor's configuration, simcoll's (sim/simgrid/engine.c) */
    const char *sg_argv[] = {"bench_floor_blocking",        "--log=root.thresh:error",
                             "--cfg=network/model:CM02",    "--cfg=network/crosstraffic:0",
                             "--cfg=surf/precision:1e-12",  "--cfg=contexts/stack-size:256",
                             "--cfg=contexts/guard-size:0", nullptr};
    int sg_argc = 6;
    if (2L * np + 8192 > 65530) {
        sg_argc++;
        mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    }
    s4u::Engine engine(&sg_argc, const_cast<char **>(sg_argv));
    engine.load_platform(argv[1]);

    size_t nhosts;
    sg_host_t *hosts = sc_engine_hosts_in_order(&nhosts);
    int cores = hosts[0]->get_core_count();
    if ((long)np > (long)nhosts * cores) {
        fprintf(stderr, "bench_floor_blocking: %d ranks do not fit %zu hosts of %d cores\n", np,
                nhosts, cores);
        return 2;
    }
    ranks.resize((size_t)np);
    for (int r = 0; r < np; r++) {
        ranks[(size_t)r] = Rank{hosts[r / cores], s4u::Semaphore::create(0), 0, false, false, 0};
        ranks[(size_t)r].host->add_actor("rank", rank_main, r);
    }
    s4u::Comm::on_completion_cb(on_completion);
    engine.run();
    if (retired)
        retired->unref();
    printf("np=%d simulated_s=%.9g\n", np, s4u::Engine::get_clock());
    free(hosts);
    return 0;
}
