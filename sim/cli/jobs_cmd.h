/* simcoll run --job FILE@NODES ... : applications side by side.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_JOBS_CMD_H
#define SC_CLI_JOBS_CMD_H

#include "run_opts.h"

/* Runs the jobs of o->jobs and o->jobs_file, each alone and all together;
 * the exit code. */
int sc_cli_run_jobs(const sc_run_opts_t *o, int argc, char **argv);

/* The header of its CSV row: one row a run, the jobs' files, nodes, ranks,
 * times and slowdowns each a list in job order joined by ';', and the
 * largest slowdown. */
const char *sc_jobs_report_csv_header(void);

#endif
