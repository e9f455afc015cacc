/* The cluster simcoll-probe saw, from the comment lines that head its
 * file (sim/probe/simcoll_probe.c): where each rank ran, each host's cores
 * and sockets, and the protocol switches it found between each placement's
 * ranks. The measurements themselves are sim/io/measurements.h's.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_IO_PROBE_CLUSTER_H
#define SC_IO_PROBE_CLUSTER_H

#include <stddef.h>

#include "common/sc_error.h"

enum { SC_PROBE_NAME_MAX = 256 };

typedef struct {
    char host[SC_PROBE_NAME_MAX]; /* as the probe names it: "vm", or "vm#1"
                                     with --each-rank-a-node */
    int cpu;                      /* -1: the system did not say */
} sc_probe_rank_t;

typedef struct {
    char name[SC_PROBE_NAME_MAX];
    int cores, sockets;
} sc_probe_host_t;

typedef struct {
    char placement[8]; /* intra, ccx, numa, socket, inter */
    size_t bytes;      /* the largest size measured below the switch */
    int eager;         /* 1: the eager limit; 0: a breakpoint */
} sc_probe_switch_t;

typedef struct {
    sc_probe_rank_t *ranks;
    int nranks;
    sc_probe_host_t *hosts; /* '# host' lines, in the file's order; none
                               in files of probes before them */
    int nhosts;
    sc_probe_switch_t *switches; /* '# switch' lines */
    int nswitches;
} sc_probe_cluster_t;

/* Reads the header of the probe file at `path` (named on the command line
 * by `option`). A '# rank', '# host' or '# switch' line of another shape
 * is SC_ERR_INPUT naming the file and line. Free with
 * sc_probe_cluster_destroy. */
sc_err_t sc_probe_cluster_read(const char *option, const char *path, sc_probe_cluster_t *out);

/* The same on `len` bytes of text; `name` stands for the file. */
sc_err_t sc_probe_cluster_parse(const char *option, const char *name, const char *text, size_t len,
                                sc_probe_cluster_t *out);

void sc_probe_cluster_destroy(sc_probe_cluster_t *cluster);

/* Ranks that ran on one processor of a machine, or more ranks on a machine
 * than its cores: a sentence naming them and how to pin ranks, in out;
 * "" if none. */
void sc_probe_cluster_shared_cores(const sc_probe_cluster_t *cluster, char *out, size_t size);

/* The cluster's name for a platform: the hosts' longest common prefix
 * without the domain, the trailing digits and separators ("node" for
 * node-001 and node-002, "vm" for vm#0 and vm#1); "probed" if nothing is
 * left. */
void sc_probe_cluster_name(const sc_probe_cluster_t *cluster, char *out, size_t size);

#endif
