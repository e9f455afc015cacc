/* Benchmarks as programs: a collective run the way a benchmark runs and
 * times it, so that a prediction is of what the benchmark prints.
 *   - osu: the OSU micro-benchmarks (osu_bcast, osu_allreduce, ...): each
 *     iteration times one call on every rank, then MPI_Barrier, warm-up
 *     iterations first; each rank's mean, then their average (Avg
 *     Latency), least and most. osu_barrier times barriers back to back.
 *   - imb: the Intel MPI Benchmarks: one barrier, then calls back to back,
 *     the root rotated by one each call for rooted collectives; each
 *     rank's time over the calls (t_avg the average over ranks, t_max).
 *   - mpiperf: one call from a start synchronized by a global clock; the
 *     slowest rank's time.
 *   - call: one call, all ranks starting at once; the mean over ranks of
 *     each rank's time.
 * A simulation is deterministic: each iteration of OSU's loop repeats the
 * one before it once the barrier's exit pattern has set in, so a few
 * iterations give what thousands would (OSU_SKIP and OSU_ITERATIONS).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_PROGRAM_BENCH_H
#define SC_PROGRAM_BENCH_H

#include "program.h"

typedef enum { SC_BENCH_CALL, SC_BENCH_OSU, SC_BENCH_IMB, SC_BENCH_MPIPERF } sc_bench_t;

/* "call", "osu", "imb", "mpiperf"; and back (SC_ERR_INPUT naming `option`
 * and the valid names). */
const char *sc_bench_name(sc_bench_t bench);
sc_err_t sc_bench_parse(const char *text, const char *option, sc_bench_t *out);

/* A benchmark's timing of the statements first..last of its program: each
 * rank's time per timed execution, the first `skip` executions on the rank
 * being warm-up; with `span`, from the first timed execution's start to
 * the last one's end (calls back to back), else the sum of each
 * execution's own time. */
typedef struct {
    int on, first, last, span;
    long skip;
} sc_measure_t;

/* What figure of the ranks' times the benchmark prints. */
typedef enum { SC_BENCH_MEAN, SC_BENCH_MAX } sc_bench_figure_t;

/* The program `bench` runs to time one call of `algo` (bytes, root, op,
 * type as a program's call; np ranks), its barriers as `profile` chooses
 * them (NULL: the dissemination barrier), the statements it times and the
 * figure it prints. Free prog with sc_program_destroy. */
sc_err_t sc_bench_program(sc_bench_t bench, const sc_algo_t *algo, size_t bytes, int root,
                          sc_op_t op, sc_type_t type, int np, const sc_profile_t *profile,
                          sc_program_t *prog, sc_measure_t *measure, sc_bench_figure_t *figure);

#endif
