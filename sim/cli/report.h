/* Printing run results as a table, CSV or JSON.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_REPORT_H
#define SC_REPORT_H

#include <stdio.h>

#include "sim/engine/run.h"

typedef enum { SC_FORMAT_TABLE, SC_FORMAT_CSV, SC_FORMAT_JSON } sc_format_t;

#define SC_VERSION "0.1.0"

/* Where results came from, printed with them in every format: CSV and JSON
 * rows end with simcoll_version, platform_file and command (the command
 * line, shell-quoted); a table is followed by a line saying the same. */
typedef struct {
    const char *platform_file; /* as the user gave it */
    int argc;
    char **argv;
} sc_provenance_t;

/* One line of output: what was run and what came out. */
typedef struct {
    const char *platform; /* the cluster zone's id */
    const sc_algo_t *algo;
    int np;
    size_t bytes;
    sc_op_t op; /* reductions only */
    sc_type_t type;
    const char *mapping;
    double cut_weight; /* of the layout, see sc_run_cut */
    double graph_weight;
    double partition_wall_time_s; /* wall-clock, not simulated; 0 unless partitioned */
    const char *mpi;         /* the --mpi profile that chose the algorithm, or NULL */
    sc_run_result_t result;
} sc_report_row_t;

/* All formats carry the same fields; CSV and JSON use the column names
 * platform, algo, collective, np, nodes, size_bytes, mapping, sim_time_s,
 * model_time_s, inter_node_bytes, intra_node_bytes, inter_node_messages,
 * intra_node_messages, messages, valid, cut_weight, graph_weight,
 * partition_wall_time_s, op, type, max_rank_bytes, critical_path_bytes, mpi,
 * speculated, mispredicted, mean_rank_time_s (op and type empty / null
 * unless the collective is a reduction; mpi unless a profile chose the
 * algorithm). */
void sc_report_print(FILE *out, sc_format_t format, const sc_report_row_t *rows, int nrows,
                     const sc_provenance_t *prov);

/* The command line of a provenance, shell-quoted, cut to size - 1. */
void sc_provenance_command(const sc_provenance_t *prov, char *text, size_t size);

/* Writes text as a JSON string literal (bytes that are not UTF-8 become
 * U+FFFD). */
void sc_json_string(FILE *out, const char *text);

/* Writes s as a CSV field, quoted only when it needs to be (RFC 4180). */
void sc_csv_string(FILE *out, const char *s);

/* The CSV header of sc_report_print, without the newline. */
const char *sc_report_csv_header(void);

/* The CSV header of simcoll run's rows (programs). */
const char *sc_program_report_csv_header(void);

/* For other outputs: the three CSV fields (each with its leading comma),
 * and the line that follows a table. */
void sc_provenance_csv_fields(FILE *out, const sc_provenance_t *prov);
void sc_provenance_line(FILE *out, const sc_provenance_t *prov);

/* One program run. */
typedef struct {
    const char *program;  /* the file */
    const char *platform;
    int np;
    const char *mapping;
    const char *pack;     /* "none" or "auto" */
    sc_run_result_t result;
} sc_program_report_row_t;

/* Columns program, platform, np, nodes, mapping, pack, sim_time_s,
 * model_time_s (empty / null when some algorithm has no model), statements,
 * inter_node_bytes, intra_node_bytes, inter_node_messages,
 * intra_node_messages, messages, valid. */
void sc_program_report_print(FILE *out, sc_format_t format, const sc_program_report_row_t *rows,
                             int nrows, const sc_provenance_t *prov);

#endif
