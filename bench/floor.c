/* The engine's floor: Bruck allgather as bare SimGrid, for bench/scale.sh.
 *
 * One actor per rank, one mailbox per rank, and per message one put and one
 * get that the two ranks wait for: the least any simulator built on
 * SimGrid's actors has to do for the same schedule. It has none of MPI's
 * semantics (no eager or rendezvous protocol, no matching by tag, no
 * overheads), so its simulated time is close to simcoll's but not equal;
 * what it is for is the wall time per simulated message. Of simcoll it
 * uses only the order of the platform's hosts (sc_engine_hosts_in_order),
 * so that rank r sits where simcoll puts it.
 *
 * Usage: bench_floor PLATFORM NP BLOCK_BYTES [HEADER_BYTES]
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <malloc.h>
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <simgrid/version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/simgrid/engine.h"
#include "sim/simgrid/engine_hosts.h"

static int np;
static long block_bytes, header_bytes;
static sg_mailbox_t *inbox;

static void rank_main(int argc, char **argv)
{
    (void)argc;
    int me = atoi(argv[1]);
    static char token; /* size only: every message carries this address */
    for (int k = 1; k < np; k <<= 1) {
        long blocks = k < np - k ? k : np - k;
        long bytes = blocks * block_bytes + header_bytes;
        void *got;
        sg_comm_t comms[2] = {
            sg_mailbox_get_async(inbox[me], &got),
            sg_mailbox_put_async(inbox[(me - k + np) % np], &token, bytes),
        };
#if SIMGRID_VERSION >= 40100
        /* 4.1 removed sg_comm_wait_all; its activity sets wait for each
         * activity in turn, as this does. */
        sg_comm_wait(comms[0]);
        sg_comm_wait(comms[1]);
#else
        sg_comm_wait_all(comms, 2);
#endif
    }
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 5) {
        fprintf(stderr, "usage: bench_floor PLATFORM NP BLOCK_BYTES [HEADER_BYTES]\n");
        return 2;
    }
    np = atoi(argv[2]);
    block_bytes = atol(argv[3]);
    header_bytes = argc == 5 ? atol(argv[4]) : 0;
    if (np < 1 || block_bytes < 0 || header_bytes < 0) {
        fprintf(stderr, "bench_floor: NP must be at least 1 and sizes not negative\n");
        return 2;
    }
    /* simcoll's configuration (sim/simgrid/engine.c), with stack guard
     * pages off where simcoll turns them off: beyond 28,000 actors. */
    char *sg_argv[8] = {"bench_floor", "--log=root.thresh:error", "--cfg=network/model:CM02",
                        "--cfg=network/crosstraffic:0", "--cfg=surf/precision:1e-12",
                        "--cfg=contexts/stack-size:256"};
    int sg_argc = 6;
    if (2L * np + 8192 > 65530) {
        sg_argv[sg_argc++] = "--cfg=contexts/guard-size:0";
        mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    }
    simgrid_init(&sg_argc, sg_argv);
    simgrid_load_platform(argv[1]);

    size_t nhosts;
    sg_host_t *hosts = sc_engine_hosts_in_order(&nhosts);
    int cores = sg_host_core_count(hosts[0]);
    if ((long)np > (long)nhosts * cores) {
        fprintf(stderr, "bench_floor: %d ranks do not fit %zu hosts of %d cores\n", np, nhosts,
                cores);
        return 2;
    }
    inbox = malloc((size_t)np * sizeof *inbox);
    if (!inbox)
        return 1;
    for (int r = 0; r < np; r++) {
        char name[32], rank[16];
        snprintf(name, sizeof name, "inbox-%d", r);
        inbox[r] = sg_mailbox_by_name(name);
        snprintf(rank, sizeof rank, "%d", r);
        char *actor_argv[] = {"rank", rank, NULL};
        sg_actor_create("rank", hosts[r / cores], rank_main, 2, actor_argv);
    }
    simgrid_run();
    printf("np=%d simulated_s=%.9g\n", np, simgrid_get_clock());
    free(hosts);
    free(inbox);
    return 0;
}
