/* The cost model of a whole program, and the copies packing adds, which
 * the run loop charges alike.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_PROGRAM_MODEL_H
#define SC_PROGRAM_MODEL_H

#include "models/cost.h"
#include "program.h"

/* 1 if the statement's data goes through a packing buffer: several pieces
 * (packed statements), or part of an allgather block (split). */
int sc_stmt_needs_stage(const sc_stmt_t *st);

/* Bytes rank `rank` copies into the packing buffer before the statement
 * (what it sends) and out of it after (what it received), p ranks; 0
 * when the statement needs no buffer. */
size_t sc_stmt_gather_bytes(const sc_stmt_t *st, int p, int rank);
size_t sc_stmt_scatter_bytes(const sc_stmt_t *st, int p, int rank);

/* Predicts the resolved program: on entry t[r] is when rank r starts, on
 * return when it finishes. *complete is 0 (and t meaningless) when some
 * algorithm of the program has no cost model. */
sc_err_t sc_program_model(const sc_program_t *prog, const sc_model_t *model, double *t,
                          int *complete);

#endif
