/* simcoll sweep's results file (sweep_results.c): the points it holds,
 * the points' own files merged into it (--merge), its rows put in point
 * order. Private to sim/cli/sweep*.c.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_SWEEP_RESULTS_H
#define SC_CLI_SWEEP_RESULTS_H

#include <stddef.h>

#include "common/sc_error.h"
#include "study.h"

/* The keys OUTPUT (`path`) already holds into *done (sc_sweep_free_keys),
 * and how many of those points failed; drops a last line a kill cut short;
 * creates OUTPUT with its header if `create`, else takes a missing OUTPUT
 * as empty. */
sc_err_t sc_sweep_read_done(const char *path, const char *header, int create, char ***done,
                            long *ndone, long *nfailed);
void sc_sweep_free_keys(char **held, long n);
int sc_sweep_has_key(char *const *held, long n, const char *key);

/* --merge: the rows of OUTPUT.points/N.csv that OUTPUT lacks, appended in
 * point order and added to *done; *merged counts them. */
sc_err_t sc_sweep_merge_points(const study_t *st, long npoints, const char *out,
                               const char *header, char ***done, long *ndone, long *merged);

/* Rewrites OUTPUT with its rows in point order (hlen: its header's
 * length), written aside and renamed; nothing is written when they are in
 * order. */
sc_err_t sc_sweep_sort_rows(const study_t *st, const char *out, size_t hlen);

#endif
