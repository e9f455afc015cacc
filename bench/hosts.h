/* The benchmarks' floors place ranks on hosts as simcoll does.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_BENCH_HOSTS_H
#define SC_BENCH_HOSTS_H

#include <simgrid/host.h>
#include <stddef.h>

/* The platform's hosts in simcoll's order of nodes (node-2 before
 * node-10); *count of them. Free with free(). */
sg_host_t *bench_hosts_in_order(size_t *count);

#endif
