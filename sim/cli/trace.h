/* Every message of one run, drawn or written for other tools: a timeline
 * picture (gnuplot), a Chrome trace-event JSON file (Perfetto,
 * chrome://tracing) and a Paje trace (ViTE, pajeng).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_TRACE_H
#define SC_CLI_TRACE_H

#include "sim/engine/run.h"

/* What the files say about the run, and where its ranks ran. */
typedef struct {
    const sc_platform_t *plat;
    const int *node_of; /* by rank */
    int np;
    const char *title;   /* e.g. "bruck, np 16, 2 KiB blocks, gige" */
    const char *command; /* the command line, for the files' comments */
} sc_trace_info_t;

/* Each writes `path` whole or not at all (SC_ERR_RUN naming `option`
 * otherwise). Times are from the earliest rank start of `res`. */
sc_err_t sc_trace_write_json(const char *option, const char *path, const sc_trace_info_t *info,
                             const sc_run_result_t *res);
sc_err_t sc_trace_write_paje(const char *option, const char *path, const sc_trace_info_t *info,
                             const sc_run_result_t *res);
/* .svg or .png: one lane per rank up to SC_TIMELINE_MAX_LANES ranks, one
 * per node above (inter-node messages only); messages numbered by step up
 * to SC_TIMELINE_MAX_STEP_LABELS messages. */
sc_err_t sc_trace_write_timeline(const char *option, const char *path, const sc_trace_info_t *info,
                                 const sc_run_result_t *res);

#define SC_TIMELINE_MAX_LANES 64
/* Most messages whose steps the timeline numbers. */
#define SC_TIMELINE_MAX_STEP_LABELS 512

/* The files of --timeline, --trace and --paje (each NULL when not asked
 * for), in that order, stopping at the first error. */
sc_err_t sc_trace_write_all(const char *timeline, const char *trace, const char *paje,
                            const sc_trace_info_t *info, const sc_run_result_t *res);

#endif
