/* The measurements simcoll calibrate reads (calibrate_input.c): every
 * series of the files its options name, and the ones --processes and
 * --level keep. Private to sim/cli/calibrate*.c.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_CALIBRATE_INPUT_H
#define SC_CLI_CALIBRATE_INPUT_H

#include "models/measurements.h"
#include "sim/io/measurements.h"
#include "sim/io/probe_cluster.h"

/* A measurement option: its format and the kinds of series it must give. */
typedef struct {
    const char *option;
    sc_measure_format_t format;
    int kind; /* a sc_measure_kind_t, or -1: any point-to-point kind */
} sc_cal_source_t;

/* Every series of every file, with the option that named it, and the
 * clusters simcoll-probe's files describe. */
typedef struct {
    sc_series_t *series;
    int n, cap;
    sc_probe_cluster_t probes[8];
    const char *probe_paths[8];
    int nprobes;
} sc_cal_series_t;

/* What a series measures, as the residuals name it: "latency", ... */
const char *sc_cal_kind_name(sc_measure_kind_t kind);

/* Adds the series of `path`, read as src says, refusing those of other
 * kinds than src's; simcoll-probe's files also give their cluster. */
sc_err_t sc_cal_add_file(sc_cal_series_t *all, const sc_cal_source_t *src, const char *path);

/* Drops the series whose file gives a process count outside lo..hi. */
sc_err_t sc_cal_keep_processes(sc_cal_series_t *all, int lo, int hi);

/* Keeps, of the series whose file says between which ranks it measured,
 * those between ranks of --level `level`. */
sc_err_t sc_cal_keep_placement(sc_cal_series_t *all, const char *level);

#endif
