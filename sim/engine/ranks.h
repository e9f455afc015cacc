/* What the run of a program (run.c) and of a trace (trace_run.c) share,
 * both an actor per rank on the transport in a child process: starting the
 * ranks and simulating them, the traffic and messages they send back to
 * the parent, and the child run again until each rank posted receives
 * enough. Private to sim/engine.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_ENGINE_RANKS_H
#define SC_ENGINE_RANKS_H

#include <xbt/function_types.h>

#include "models/platform.h"
#include "sim/simgrid/child.h"
#include "sim/simgrid/transport.h"

/* In the child: boots SimGrid on `plat` for p ranks, creates the world
 * their messages go through (each rank posting `receives` receives at
 * first; recording every message, up to SC_RUN_MAX_MESSAGES, if
 * `messages`) and starts rank r's actor, "rank-R", on its core
 * (node_of[r], domain_of[r]) running rank_main, its communicator its data. */
sc_err_t sc_ranks_start(const sc_platform_t *plat, int p, const int *node_of, const int *domain_of,
                        const sc_model_t *model, sc_scratch_t *scratch, int receives, int messages,
                        xbt_main_func_t rank_main, sc_world_t **world);

/* In the child: runs the simulation of the started ranks; how many of them
 * did not finish (finished[r] still 0): a deadlock, or a rank that failed. */
int sc_ranks_simulate(const int *finished, int p);

/* In the child: the traffic of all p ranks, and the most bytes one rank
 * sent. */
void sc_ranks_traffic(const sc_world_t *world, int p, sc_traffic_t *total, double *max_rank_bytes);

/* The messages the world recorded, written in the child, read back in the
 * parent: *msgs malloc'ed (NULL when none), *overflow 1 if there were more
 * than were recorded. Reading returns 0 if they were cut short, with *err
 * set when memory ran out. */
void sc_ranks_put_messages(const sc_world_t *world, sc_wire_t *out);
int sc_ranks_get_messages(sc_wire_t *in, sc_msg_record_t **msgs, long *n, int *overflow,
                          sc_err_t *err);

/* In the parent: runs fn(arg) in a child (sc_child_run) and reads the
 * first thing it sent, how many receives a rank was short of; while a rank
 * was short (a message seen late), runs it again with *receives (which fn
 * reads from arg) doubled, or raised to what was short if that is more.
 * *short_of is -1 when the child's results were cut short. */
sc_err_t sc_ranks_run_child(sc_child_fn fn, void *arg, int *receives, const char *what,
                            sc_wire_t *in, int *short_of);

#endif
