/* Writing ranks' events as SMPI time-independent traces, one action file
 * per rank and the index naming them, which SimGrid's SMPI replays
 * (smpirun -replay DIR/index.txt ... smpireplaymain) and simcoll reads
 * back (ti.c): a trace or a program run by simcoll can then be run by SMPI
 * on the same platform, side by side.
 *
 * What the format cannot say, and how it is written:
 *   - collectives name no communicator: SMPI runs them on MPI_COMM_WORLD,
 *     so a collective on any other communicator is refused;
 *   - a wait or test names a request by (source, destination, tag), and
 *     SMPI takes the oldest so named: a wait of several requests is a wait
 *     for each, in order; a receive from any source or of any tag cannot
 *     be named, so it is refused;
 *   - counts of collectives are int in SMPI: larger ones are refused;
 *   - sizes are counts of a datatype: bytes of MPI_BYTE, or reductions'
 *     elements of the datatype of their size (MPI_DOUBLE for 8 bytes);
 *     a reduction's own arithmetic is written as 0 flops, its time being
 *     each simulator's own;
 *   - computing is flops ("compute") at the host's speed, or seconds
 *     ("sleep").
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_TI_WRITE_H
#define SC_TI_WRITE_H

#include "sim/trace/trace.h"

typedef struct sc_ti_writer sc_ti_writer_t;

/* A writer of `nranks` ranks into folder `dir` (given by `option`, for
 * messages), which must not exist or be empty: the files are written in
 * a new folder beside it, which takes its name when sc_ti_writer_commit
 * succeeds, so that a failure leaves nothing half-written. */
sc_err_t sc_ti_writer_open(const char *option, const char *dir, int nranks, sc_ti_writer_t **out);

/* Starts rank `rank`'s file (ranks in any order, each once); the last
 * rank's file is ended. */
sc_err_t sc_ti_writer_rank(sc_ti_writer_t *w, int rank);

/* Writes the current rank's next event, whose ranks (peers, roots,
 * counts) are the world's and whose communicator is 0; `where` names it
 * in messages ("rank 3, trace.otf2 event 17"). */
sc_err_t sc_ti_writer_event(sc_ti_writer_t *w, const sc_tev_t *ev, const char *where);

/* Writes the current rank's alltoallv `ev` (its counts known) receiving
 * recv[s] bytes from each rank s. */
sc_err_t sc_ti_writer_alltoallv(sc_ti_writer_t *w, const sc_tev_t *ev, const uint64_t *recv,
                                const char *where);

/* Ends the last rank, writes the index and gives the folder its name;
 * frees w either way. */
sc_err_t sc_ti_writer_commit(sc_ti_writer_t *w);

/* Removes a folder the writer made for `nranks` ranks, its files first
 * (what a caller wrote for its own use, then read). */
void sc_ti_folder_remove(const char *dir, int nranks);

/* Removes what was written; frees w. */
void sc_ti_writer_abort(sc_ti_writer_t *w);

/* The scanned `trace` (its scan's `summary`) as SMPI time-independent
 * traces in `dir`, computing in seconds divided by compute_scale as
 * simcoll replays it. An alltoallv's receive counts are the other ranks'
 * send counts, read in a first pass (refused beyond 2^27 counts). */
sc_err_t sc_trace_export_ti(sc_trace_t *trace, const sc_trace_summary_t *summary,
                            double compute_scale, const char *option, const char *dir);

#endif
