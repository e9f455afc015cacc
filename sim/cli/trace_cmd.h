/* simcoll run TRACE and simcoll map TRACE: a recorded application
 * replayed on a platform, and the rank mapping of its communication graph.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_TRACE_CMD_H
#define SC_CLI_TRACE_CMD_H

#include <stdio.h>

#include "algorithms/mapping/graph.h"
#include "run_opts.h"
#include "sim/engine/trace_run.h"

/* Whether `path` is a trace simcoll reads (sim/trace/trace.h), by its
 * content. */
int sc_cli_is_trace(const char *path);

/* Opens and scans the trace at `path`; free with sc_trace_close and
 * sc_trace_summary_destroy. */
sc_err_t sc_cli_trace_open(const char *path, sc_trace_t **trace, sc_trace_summary_t *summary);

/* Names on stderr, once each, what the trace holds that is not replayed. */
void sc_cli_trace_skipped(const sc_trace_t *trace, const sc_trace_summary_t *summary);

/* The trace's communication graph, vertex r world rank r: its messages'
 * bytes, and its collectives' messages as the algorithms they run (the
 * forced one of their kind, else the profile's, with the ranks placed by
 * block) send them. */
sc_err_t sc_cli_trace_graph(const sc_platform_t *plat, sc_trace_t *trace,
                            const sc_profile_t *profile, const sc_algo_t *const *forced,
                            sc_graph_t *graph);

/* simcoll run's options given, `o->program` a trace: its replay, reported
 * as `o->format` says. Returns the exit code. */
int sc_cli_run_trace(const sc_run_opts_t *o, int argc, char **argv);

/* A trace's run as one CSV row (sweeps): the header (the provenance's
 * columns last), and the row's fields but the provenance's, without a
 * newline. */
const char *sc_trace_report_csv_header(void);
void sc_trace_report_csv_row(FILE *f, const sc_platform_t *plat, const sc_trace_t *trace,
                             const sc_trace_summary_t *summary, const char *mapping,
                             const char *mpi, double compute_scale,
                             const sc_trace_run_result_t *res);

#endif
