/* --explain: why a run takes what it takes, from every message it sent.
 *
 * Steps: a message's step is one more than the highest step of the
 * messages its sender had completed (its wait for them returned) when it
 * posted it (1 for a message posted before any), so an algorithm's rounds
 * come out as steps without the algorithm naming them. Per step: the messages and bytes per
 * level, when the step's first message was posted and its last arrived,
 * what its slowest message would take alone (the cost model's point-to-point
 * time on idle links and NICs), how much longer its messages took than
 * that (waiting for links, NICs or a busy receiver), and where they waited:
 * the busiest NIC when a message between nodes waited most, else the
 * busiest memory bus (or link between a node's sockets, when the message
 * that waited most crossed one). The critical path: from the rank that
 * finished last, back through the last message each rank completed before
 * it posted the one that followed, with the time each rank spent between
 * them (combining a reduction's data, copies, overheads).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_EXPLAIN_H
#define SC_CLI_EXPLAIN_H

#include <stdio.h>

#include "sim/engine/run.h"

typedef struct {
    long messages[SC_NLEVELS];
    double bytes[SC_NLEVELS];
    double start, end;              /* first post, last arrival (absolute) */
    double alone;                   /* the step's slowest message, alone */
    double waited_mean, waited_max; /* beyond alone, over its messages */
    int busiest_node, busiest_in;   /* the NIC that carried most bytes */
    double busiest_bytes;
    long busiest_messages;
    /* Inside nodes: the memory bus and the link between sockets that
     * carried most bytes (-1: none), and the longest waits inside nodes
     * and between them, which say which of them the step waited at. */
    int bus_node, socket_node;
    double bus_bytes, socket_bytes;
    long bus_messages, socket_messages;
    double waited_intra, waited_inter;
    double waited_in_socket, waited_between_sockets; /* of waited_intra */
} sc_explain_step_t;

/* Where a step's messages waited most: what --explain names. */
typedef enum { SC_WAITED_NIC, SC_WAITED_BUS, SC_WAITED_SOCKETS } sc_waited_at_t;

sc_waited_at_t sc_explain_waited_at(const sc_explain_step_t *st);

typedef struct {
    int *step_of_msg;         /* by message, from 1 */
    sc_explain_step_t *steps; /* steps[0] is step 1 */
    int nsteps;
    long *path; /* message indices, earliest first */
    /* by path message: the time its sender spent after it completed the
     * path's message before (or started) and before it posted this one */
    double *path_on_rank;
    double path_tail; /* the last rank's, from its last path message to its end */
    int npath;
    int last_rank; /* the rank that finished last */
    int reduction; /* the caller's: the ranks combine what they receive */
    int computes;  /* the caller's: the ranks compute between calls (a trace) */
} sc_explain_t;

/* Needs res->msgs (a run with spec->messages) and res->node_of. */
sc_err_t sc_explain(const sc_platform_t *plat, int np, const sc_run_result_t *res,
                    sc_explain_t *out);
void sc_explain_destroy(sc_explain_t *e);

/* The report: the steps as a table, then the critical path. */
void sc_explain_print(FILE *f, const char *title, const sc_platform_t *plat, int np,
                      const sc_run_result_t *res, const sc_explain_t *e);

#endif
