/* A study file of simcoll sweep: its axes, their values, its points and
 * their keys, and the columns of its results.
 *
 * A study file has one axis per line, KEY = VALUE, VALUE, ... ('#' starts a
 * comment). KEY is a simcoll option without its dashes (platform, algo,
 * coll, mpi, np, size, mapping, op, type, root, data, set, nodes, cores,
 * sockets, net, topology, levels), payload (yes, the default, or no), program (a
 * program file: the points run simcoll run, and algo, coll, size, op, type and
 * root do not apply) or trace (a trace: the points run simcoll run, which
 * takes algos and compute-scale, not the call's keys, np or payload).
 * platform is required. A value of set holds ';'-separated --set settings,
 * several making one platform. levels is simcoll platform --levels's (the
 * cluster by levels, NUMA domains and CCXs too), in place of nodes, cores,
 * sockets and topology. With nodes, cores, sockets, net, topology, levels or set,
 * each platform is generated from the named one (simcoll platform --like)
 * into OUTPUT.platforms/. A value may be written between double quotes,
 * which it needs when it holds commas (topology = "torus:4,4,4"). A value
 * or a file that every point would refuse stops the study before anything
 * runs or is written.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_STUDY_H
#define SC_CLI_STUDY_H

#include <stddef.h>
#include <stdio.h>

#include "common/sc_error.h"

/* A point's key must fit KEY_MAX bytes whole: two points whose keys were
 * cut short alike would be taken for one by a rerun. MAX_POINTS is far
 * beyond any sweep one could run, and keeps the count from overflowing. */
enum { MAX_AXES = 16, MAX_VALUES = 256, KEY_MAX = 4096, MAX_SETS = 32 };
#define MAX_POINTS 10000000L

typedef struct {
    char *key;
    char *values[MAX_VALUES];
    int nvalues;
    int line; /* of the study file, for messages */
} axis_t;

/* The most columns a run's CSV row has (report.c's headers). */
enum { MAX_RUN_COLUMNS = 64 };

typedef struct {
    axis_t axis[MAX_AXES];
    int naxes;
    int programs; /* a program axis: points are simcoll run */
    int traces;   /* a trace axis: points are simcoll run too */
    int jobs;     /* a jobs axis (job files): points are simcoll run --jobs */
    char *text;   /* the file, split in place */
    /* the run's columns, and which a row keeps: not those an axis's
     * column holds already (sc_sweep_axis_column) */
    int run_columns, kept_columns;
    int keep[MAX_RUN_COLUMNS];
} study_t;

/* Reads and checks the study file at `path` into *st (its text split in
 * place, st->text to free). SC_ERR_INPUT naming the line at fault. */
sc_err_t sc_study_read(const char *path, study_t *st);

/* Checks the files the study names (platforms, programs, traces) before
 * any point runs: SC_ERR_INPUT naming the file and the line. */
sc_err_t sc_study_check_files(const char *path, const study_t *st);

/* Splits a value of the set axis at ';' into sets[] (at most MAX_SETS),
 * copying it into buf first. */
sc_err_t sc_study_split_sets(const char *set, char *buf, char **sets, int *nsets);

/* Point `index`'s value of each axis, in axis order, in value[]. */
void sc_study_point(const study_t *st, long index, const char **value);

/* The value of axis `key` among a point's values, or NULL if the study
 * has no such axis. */
const char *sc_study_value(const study_t *st, const char **value, const char *key);

/* Point `index`'s key: KEY=VALUE of each axis, joined by ';'. */
void sc_study_key(const study_t *st, long index, char *key, size_t size);

/* OUTPUT's header: key, status, the axes' columns, then the run's
 * columns (`body`) but those an axis's column holds; sets st->keep. */
void sc_study_header(study_t *st, const char *body, char *header, size_t size);

/* A run's CSV row `data` with the columns st->keep drops left out. */
void sc_study_put_kept(FILE *f, const study_t *st, const char *data);

#endif
