/* Reading benchmark output: OSU micro-benchmarks, Intel MPI Benchmarks,
 * NetPIPE, SimGrid's platform-calibration CSVs, simcoll-probe's files.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_IO_MEASUREMENTS_H
#define SC_IO_MEASUREMENTS_H

#include "models/measurements.h"

/* The formats simcoll reads. SC_MEASURE_FORMAT_AUTO recognizes each from its
 * header lines (OSU's "# OSU MPI ... Test", IMB's "# Benchmarking",
 * NetPIPE's three numeric columns, SMPI's "MPI_Op,size,start,duration"
 * rows, simcoll-probe's "# simcoll-probe 1" first line). */
typedef enum {
    SC_MEASURE_FORMAT_AUTO,
    SC_MEASURE_FORMAT_OSU,     /* OSU micro-benchmarks 3.x to 7.x, any test */
    SC_MEASURE_FORMAT_IMB,     /* Intel MPI Benchmarks (IMB-MPI1), 3.x to 2021 */
    SC_MEASURE_FORMAT_NETPIPE, /* NetPIPE 3.x np.out */
    SC_MEASURE_FORMAT_SMPI,    /* SimGrid's platform-calibration CSV */
    SC_MEASURE_FORMAT_PROBE    /* simcoll-probe's file (sim/probe/) */
} sc_measure_format_t;

/* Reads every series in the file at `path` (named on the command line by
 * `option`, e.g. "--osu-latency") into *series (*nseries of them; an IMB
 * file may hold several benchmarks). A file it cannot read, or a line that
 * is not what its format expects, is SC_ERR_INPUT naming the file, the
 * line and what was expected; a file without a single point too, and a
 * time above SC_DURATION_MAX_S or a bandwidth above the fastest platform
 * link (1 PB/s), which no machine measures. FIFOs and
 * devices are refused, as every input is (sim/io/files.h). Free with
 * sc_series_destroy. */
sc_err_t sc_measurements_read(const char *option, const char *path, sc_measure_format_t format,
                              sc_series_t **series, int *nseries);

/* The same on `len` bytes of text; `name` stands for the file. */
sc_err_t sc_measurements_parse(const char *option, const char *name, const char *text,
                               size_t len, sc_measure_format_t format, sc_series_t **series,
                               int *nseries);

#endif
