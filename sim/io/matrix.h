/* Traffic matrices: the bytes (and messages) a real application's ranks
 * sent each other, as profilers export them, for simcoll map --matrix.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_MATRIX_H
#define SC_MATRIX_H

#include <stddef.h>

#include "common/sc_error.h"

/* What rank src sent rank dst. */
typedef struct {
    int src, dst;
    double bytes;
    double messages; /* 0 when the file does not say */
} sc_traffic_entry_t;

typedef struct {
    int size; /* ranks 0..size-1 */
    sc_traffic_entry_t *entries;
    long nentries;
    int has_messages; /* the file gave message counts */
} sc_matrix_t;

/* Reads a traffic matrix from `path`, in one of two formats told apart by
 * the first line:
 *   Matrix Market: "%%MatrixMarket matrix coordinate real|integer
 *     general|symmetric", '%' comments, then "M N L" (M = N, the ranks)
 *     and L lines "I J BYTES", ranks from 1 (a symmetric file's entry I J
 *     stands for J I too);
 *   CSV: lines "SRC,DST,BYTES[,MESSAGES]", ranks from 0, an optional
 *     header "src,dst,bytes[,messages]", '#' comments.
 * np > 0 is the process count the matrix must have (Matrix Market: M;
 * CSV: every rank below it); np 0 takes the matrix's (CSV: the largest
 * rank + 1). Refused (SC_ERR_INPUT, "PATH:LINE: what, what is valid"):
 * ranks out of range, weights that are negative, not numbers or not
 * finite, or whose sum (of bytes, of messages) is not finite, an entry of
 * a symmetric file whose mirror is given too (either triangle is taken,
 * not both), a wrong size or count of entries, a line of another shape.
 * Free with sc_matrix_destroy. */
sc_err_t sc_matrix_read(const char *path, int np, sc_matrix_t *m);

/* The same on `len` bytes of text; `name` stands for the file. */
sc_err_t sc_matrix_parse(const char *name, const char *text, size_t len, int np, sc_matrix_t *m);

void sc_matrix_destroy(sc_matrix_t *m);

#endif
