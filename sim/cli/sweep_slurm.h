/* simcoll sweep --slurm: a study's missing points as a Slurm job array,
 * submitted with sbatch and waited for with squeue.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_CLI_SWEEP_SLURM_H
#define SC_CLI_SWEEP_SLURM_H

#include "common/sc_error.h"

/* Waits for the job a --slurm sweep into `out` submitted and did not see
 * end (its id in OUT.slurm/job-id: a run interrupted while waiting), so
 * that a rerun merges its rows instead of submitting its points again.
 * Nothing to do without such a file. */
sc_err_t sc_sweep_slurm_wait(const char *out);

/* Submits the points todo[0..ntodo) (0-based) as one job array and waits
 * for it to end. Each array task runs its share of them, as --jobs's
 * commands do: `command` (the shell-quoted "SIMCOLL sweep STUDY -o OUT")
 * with --point N, each writing its row into OUT.points/N.csv, which the
 * caller merges. OUT.slurm/ holds the job's script, its points, its tasks'
 * logs and, while it runs, its id. `sbatch_args`: more options for sbatch,
 * separated by blanks (a partition, a time limit), or NULL. sbatch or
 * squeue missing is SC_ERR_INPUT; sbatch refusing the job, SC_ERR_RUN with
 * what it said. */
sc_err_t sc_sweep_slurm_run(const char *out, const char *command, const long *todo, long ntodo,
                            const char *sbatch_args);

#endif
