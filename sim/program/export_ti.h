/* A program's ranks as SMPI time-independent traces (sim/trace/ti_write.h),
 * for SMPI to replay the program side by side with simcoll.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_PROGRAM_EXPORT_TI_H
#define SC_PROGRAM_EXPORT_TI_H

#include "program.h"

/* Writes `prog` (resolved for np ranks) as np ranks' actions into folder
 * `dir` (given by `option`), statement by statement as the interpreter
 * runs them: a call is its collective (the algorithm is SMPI's to choose),
 * a halo exchange each neighbour's send and receive, a send its send and
 * receive, computing its flops or seconds with each rank's imbalance,
 * loops unrolled (an until loop for the iterations it runs, each ending
 * with its allreduce of one double). Refuses a loop that bets on its
 * result (until ... predict): the format has no way to undo computing. */
sc_err_t sc_program_export_ti(const sc_program_t *prog, int np, const char *option,
                              const char *dir);

#endif
