/* --explain: why a run takes what it takes, from every message it sent.
 *
 * Steps: a message's step is one more than the highest step of the
 * messages its sender had completed (its wait for them returned) when it
 * posted it (1 for a message posted before any), so an algorithm's rounds
 * come out as steps without the algorithm naming them. Per step: the messages and bytes per
 * level, when the step's first message was posted and its last arrived,
 * what its slowest message would take alone (the cost model's point-to-point
 * time on idle links and NICs), how much longer its messages took than
 * that (waiting for links, NICs or a busy receiver), and the busiest NIC.
 * The critical path: from the rank that finished last, back through the
 * last message each rank completed before it posted the one that followed.
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
} sc_explain_step_t;

typedef struct {
    int *step_of_msg;         /* by message, from 1 */
    sc_explain_step_t *steps; /* steps[0] is step 1 */
    int nsteps;
    long *path; /* message indices, earliest first */
    int npath;
    int last_rank; /* the rank that finished last */
} sc_explain_t;

/* Needs res->msgs (a run with spec->messages) and res->node_of. */
sc_err_t sc_explain(const sc_platform_t *plat, int np, const sc_run_result_t *res,
                    sc_explain_t *out);
void sc_explain_destroy(sc_explain_t *e);

/* The report: the steps as a table, then the critical path. */
void sc_explain_print(FILE *f, const char *title, const sc_platform_t *plat, int np,
                      const sc_run_result_t *res, const sc_explain_t *e);

#endif
