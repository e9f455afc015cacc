/* The floor of a grouped replay: Bruck allgather on bare SimGrid with one
 * actor per node instead of one per rank, for bench/scale.sh.
 *
 * A replay mode for a million ranks cannot have an actor (and a stack) per
 * rank. Nor can it start host-to-host communications from one driver: in
 * SimGrid 3.32 those are detached, and each finished one is removed from a
 * list of all of them by a scan (CommImpl::finish), a cost per message
 * that grows with the messages in flight (SimGrid 3.34 made that list a
 * set). What remains is one actor per node that plays its ranks' schedules
 * with mailbox communications, whose per-actor lists stay short. This
 * program measures what such a design costs at least: the node's actor
 * posts each of its ranks' put and get, waits for any of them, and starts
 * a rank's next step when both of its current ones are done. Like
 * bench_floor it has none of MPI's semantics; it is there for the wall time
 * and memory per simulated message, next to bench_floor's.
 *
 * Usage: bench_floor_grouped PLATFORM NP BLOCK_BYTES [HEADER_BYTES]
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <malloc.h>
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <simgrid/version.h>
#if SIMGRID_VERSION >= 40100
#include <simgrid/activity_set.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/simgrid/engine.h"
#include "sim/simgrid/engine_hosts.h"

static int np, cores;
static long block_bytes, header_bytes;
static sg_mailbox_t *inbox;

/* One rank of a node: its step (distance k = 2^step) and what is pending. */
typedef struct {
    int rank, k;
    int pending; /* communications of the current step not done */
} rank_state_t;

/* As 3.32's sg_comm_wait_any, which 4.1 removed: the index of the one of
 * comms[0..m) that completed (released), the others still the caller's; -1
 * if a communication failed. 4.1's set of activities returns the activity,
 * not its index. */
static ssize_t wait_any(sg_comm_t *comms, size_t m)
{
#if SIMGRID_VERSION >= 40100
    sg_activity_set_t set = sg_activity_set_init();
    for (size_t j = 0; j < m; j++)
        sg_activity_set_push(set, (sg_activity_t)comms[j]);
    sg_activity_t done = sg_activity_set_wait_any(set);
    sg_activity_set_delete(set);
    for (size_t j = 0; j < m; j++)
        if ((sg_activity_t)comms[j] == done) {
            sg_activity_unref(done);
            return (ssize_t)j;
        }
    return -1;
#else
    return sg_comm_wait_any(comms, m);
#endif
}

/* Starts the step of distance rs->k of rank rs->rank: its get and its put,
 * written to comms[2i], comms[2i + 1]. */
static void start_step(rank_state_t *rs, sg_comm_t *comms, int i)
{
    static char token; /* size only: every message carries this address */
    static void *got;
    int me = rs->rank, k = rs->k;
    long blocks = k < np - k ? k : np - k;
    comms[2 * i] = sg_mailbox_get_async(inbox[me], &got);
    comms[2 * i + 1] = sg_mailbox_put_async(inbox[(me - k + np) % np], &token,
                                            blocks * block_bytes + header_bytes);
    rs->pending = 2;
}

static void node_main(int argc, char **argv)
{
    (void)argc;
    int first = atoi(argv[1]), n = atoi(argv[2]);
    rank_state_t *ranks = calloc((size_t)n, sizeof *ranks);
    sg_comm_t *comms = calloc(2 * (size_t)n, sizeof *comms);
    sg_comm_t *waitset = calloc(2 * (size_t)n, sizeof *waitset);
    int *slot = calloc(2 * (size_t)n, sizeof *slot); /* waitset index -> comms index */
    if (!ranks || !comms || !waitset || !slot) {
        fprintf(stderr, "bench_floor_grouped: out of memory\n");
        exit(1);
    }
    int running = 0;
    for (int i = 0; i < n; i++) {
        ranks[i] = (rank_state_t){.rank = first + i, .k = 1};
        if (np > 1) {
            start_step(&ranks[i], comms, i);
            running++;
        }
    }
    while (running > 0) {
        size_t m = 0;
        for (int c = 0; c < 2 * n; c++)
            if (comms[c]) {
                waitset[m] = comms[c];
                slot[m++] = c;
            }
        ssize_t done = wait_any(waitset, m);
        if (done < 0) {
            fprintf(stderr, "bench_floor_grouped: a communication failed\n");
            exit(1);
        }
        int c = slot[done], i = c / 2;
        comms[c] = NULL;
        if (--ranks[i].pending == 0) {
            ranks[i].k <<= 1;
            if (ranks[i].k < np)
                start_step(&ranks[i], comms, i);
            else
                running--;
        }
    }
    free(ranks);
    free(comms);
    free(waitset);
    free(slot);
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 5) {
        fprintf(stderr, "usage: bench_floor_grouped PLATFORM NP BLOCK_BYTES [HEADER_BYTES]\n");
        return 2;
    }
    np = atoi(argv[2]);
    block_bytes = atol(argv[3]);
    header_bytes = argc == 5 ? atol(argv[4]) : 0;
    if (np < 1 || block_bytes < 0 || header_bytes < 0) {
        fprintf(stderr, "bench_floor_grouped: NP must be at least 1 and sizes not negative\n");
        return 2;
    }
    /* bench_floor's configuration (simcoll's), with the stacks' guard
     * pages always off: the number of actors is known only once the
     * platform says how many cores a node has, and beyond about 28,000
     * actors their memory maps exceed Linux's default limit. */
    char *sg_argv[8] = {"bench_floor_grouped",        "--log=root.thresh:error",
                        "--cfg=network/model:CM02",   "--cfg=network/crosstraffic:0",
                        "--cfg=surf/precision:1e-12", "--cfg=contexts/stack-size:256",
                        "--cfg=contexts/guard-size:0"};
    int sg_argc = 7;
    mallopt(M_MMAP_THRESHOLD, 128 * 1024); /* untouched stacks: see bench/floor.c */
    simgrid_init(&sg_argc, sg_argv);
    simgrid_load_platform(argv[1]);

    size_t nhosts;
    sg_host_t *hosts = sc_engine_hosts_in_order(&nhosts);
    cores = sg_host_core_count(hosts[0]);
    if ((long)np > (long)nhosts * cores) {
        fprintf(stderr, "bench_floor_grouped: %d ranks do not fit %zu hosts of %d cores\n", np,
                nhosts, cores);
        return 2;
    }
    inbox = malloc((size_t)np * sizeof *inbox);
    if (!inbox)
        return 1;
    for (int r = 0; r < np; r++) {
        char name[32];
        snprintf(name, sizeof name, "inbox-%d", r);
        inbox[r] = sg_mailbox_by_name(name);
    }
    for (int first = 0; first < np; first += cores) {
        char from[16], count[16];
        snprintf(from, sizeof from, "%d", first);
        snprintf(count, sizeof count, "%d", np - first < cores ? np - first : cores);
        char *actor_argv[] = {"node", from, count, NULL};
        sg_actor_create("node", hosts[first / cores], node_main, 3, actor_argv);
    }
    simgrid_run();
    printf("np=%d simulated_s=%.9g\n", np, simgrid_get_clock());
    free(hosts);
    free(inbox);
    return 0;
}
