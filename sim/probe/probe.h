/* What the parts of simcoll-probe share (simcoll_probe.c: main, options,
 * placements, point to point; collectives.c; call_costs.c).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_PROBE_PROBE_H
#define SC_PROBE_PROBE_H

#include <mpi.h>
#include <stdio.h>

/* The tag of every measured message (TAG + 1: the empty replies). */
enum { TAG = 7 };

typedef struct {
    int reps, warmup;
    long max_size;
    const char *out;
    int each_rank_a_node; /* --each-rank-a-node */
    int skip_p2p;         /* --skip-point-to-point */
    int call_costs;       /* --call-costs */
    /* --collectives, --np, --sizes */
    int ncolls, nnps, nsizes;
    const char *colls[8];
    long nps[64], sizes[64];
    int sizes_given;
} options_t;

/* The placements, in the order of simcoll's levels. */
enum { INTRA, CCX, NUMA, SOCKET, INTER, NPLACEMENTS };
extern const char *const probe_placement_name[NPLACEMENTS];

/* Rank 0 prints "simcoll-probe: " and the message to stderr and removes
 * the -o file's part written; every rank aborts the run with exit code 2. */
void probe_die(const char *fmt, ...);

/* The median of v's n values; sorts v. */
double probe_median(double *v, int n);

/* Rank 0's partner of placement p (the first rank of it), or -1. */
int probe_partner(int p);

/* 1 if ranks a and b run on one host (with --each-rank-a-node, no two do). */
int probe_same_host(int a, int b);

/* --collectives, as OSU times them, on the first n ranks for each --np n
 * (collectives.c); me and nranks: MPI_COMM_WORLD's rank and size. Rank 0
 * prints the rows to f. */
void probe_measure_collectives(FILE *f, const options_t *o, int me, int nranks);

/* --call-costs (call_costs.c): buffer holds --max-size bytes and t --reps
 * samples. Rank 0 prints the rows to f. */
void probe_measure_call_costs(FILE *f, const options_t *o, int me, int nranks, char *buffer,
                              double *t);

#endif
