/* An MPI application's recorded run (a trace), read as one stream of
 * simcoll's own events per rank, whatever the format it was written in:
 * SMPI's time-independent text (ti.c), OTF2 (otf2.c), DUMPI (dumpi.c).
 * Plain C, no SimGrid: readers stream their files, so a trace of many GB
 * is never loaded whole; what the engines keep is each rank's state.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_TRACE_H
#define SC_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/sc_error.h"

/* A source or tag a receive left open (MPI_ANY_SOURCE, MPI_ANY_TAG) that
 * the trace does not resolve to the message that came. */
#define SC_TRACE_ANY (-1)

typedef enum {
    SC_TEV_COMPUTE, /* the rank computes: `seconds`, or `flops` at its core's speed */
    SC_TEV_SEND,    /* blocking send of `bytes` to `peer` with `tag` on `comm` */
    SC_TEV_RECV,    /* blocking receive from `peer` with `tag` on `comm` */
    SC_TEV_ISEND,   /* as SEND, non-blocking: request `req` */
    SC_TEV_IRECV,   /* as RECV, non-blocking: request `req` */
    SC_TEV_WAIT,    /* blocks until requests reqs[0..nreqs) are complete */
    SC_TEV_TEST,    /* completes those of reqs[0..nreqs) that are; never blocks */
    SC_TEV_COLL,    /* a collective call on `comm` (below) */
} sc_tev_kind_t;

/* The collectives a trace may hold. Those simcoll has algorithms for
 * (algorithms/kinds.h) run as the user chooses; the others run as the
 * exchanges of algorithms/irregular/. */
typedef enum {
    SC_TCOLL_BARRIER,
    SC_TCOLL_BCAST,
    SC_TCOLL_REDUCE,
    SC_TCOLL_ALLREDUCE,
    SC_TCOLL_GATHER,
    SC_TCOLL_GATHERV,
    SC_TCOLL_SCATTER,
    SC_TCOLL_SCATTERV,
    SC_TCOLL_ALLGATHER,
    SC_TCOLL_ALLGATHERV,
    SC_TCOLL_ALLTOALL,
    SC_TCOLL_ALLTOALLV,
    SC_TCOLL_REDUCE_SCATTER,
    SC_TCOLL_SCAN,
    SC_TCOLL_EXSCAN,
} sc_tcoll_t;
#define SC_TCOLL_COUNT (SC_TCOLL_EXSCAN + 1)

/* Its name as MPI says it, lower case after "MPI_" ("allreduce"). */
const char *sc_tcoll_name(sc_tcoll_t coll);

/* One event of one rank. Ranks are the communicator's (0 .. size - 1),
 * sc_trace_world_rank gives the world's. Pointers stay valid until the
 * next event of the same cursor. Events a cursor gives have been checked
 * by the scan: communicators exist and hold the rank, peers and roots are
 * in them. */
typedef struct {
    sc_tev_kind_t kind;
    int comm;            /* index in the trace's communicators; 0 is MPI_COMM_WORLD */
    int peer, tag;       /* SEND, RECV, ISEND, IRECV; may be SC_TRACE_ANY in receives */
    uint64_t bytes;      /* SEND, ISEND: the message; RECV, IRECV: what came, or
                            the receive's buffer when the trace does not say */
    uint64_t req;        /* ISEND, IRECV: its id, never reused in the rank's stream */
    const uint64_t *reqs; /* WAIT, TEST */
    int nreqs;
    double seconds, flops; /* COMPUTE: one of them is 0 */
    /* COLL: sizes in bytes, as this rank gives and takes them:
     *   barrier            none;
     *   bcast              bytes, the message;
     *   reduce, allreduce, scan, exscan
     *                      bytes, the vector; `elem` bytes an element;
     *   gather, scatter, allgather, alltoall
     *                      bytes, one rank's block (alltoall: to each peer);
     *   gatherv, allgatherv
     *                      bytes, this rank's block; counts[] every rank's
     *                      when known (else NULL);
     *   scatterv           counts[], the root's block for each rank (the
     *                      root's event; NULL where unknown), bytes this
     *                      rank's;
     *   alltoallv          counts[], what this rank sends each rank (NULL
     *                      where unknown: then bytes is its total);
     *   reduce_scatter     counts[], the result block of each rank; elem. */
    sc_tcoll_t coll;
    int root;
    uint64_t elem;
    const uint64_t *counts;
    /* Where the event is, for messages: its file and its place there (a
     * line, a record, an event position) as the format counts. */
    long index;
    /* The recorded wall-clock times the call began and ended, in seconds
     * from the trace's start; NaN where the format has none (TI). */
    double began, ended;
} sc_tev_t;

/* A communicator: members[i] is the world rank of its rank i. */
typedef struct {
    int size;
    int *members;
} sc_trace_comm_t;

typedef struct sc_trace sc_trace_t;
typedef struct sc_trace_cursor sc_trace_cursor_t;

/* What a scan of the whole trace found (sc_trace_scan). */
typedef struct {
    long events;                     /* simcoll's events, every rank */
    long p2p_messages;
    double p2p_bytes;
    long collectives[SC_TCOLL_COUNT]; /* calls, counted once per communicator */
    long collective_rank_calls[SC_TCOLL_COUNT]; /* and once per rank in it */
    long computes;
    double compute_seconds, compute_flops; /* every rank's */
    /* What was recorded but cannot be replayed (one-sided, MPI-IO, threads'
     * events, calls unknown to the reader): by name, counted over ranks,
     * with the recorded time spent in them where the format has times.
     * Their time is kept as the rank's computing. */
    struct sc_trace_skip {
        char name[48];
        long count;
        double seconds;
    } *skipped;
    int nskipped;
    double recorded_seconds; /* sum over ranks of their recorded span; 0 if unknown */
    double elapsed;          /* the recorded run's span (first begin to last end), NaN if unknown */
} sc_trace_summary_t;

/* ---- Opening and scanning ---- */

/* Whether `path` is a trace simcoll reads (by its content, not its name):
 * 1 and the format's name in *format, or 0. Reads at most a few KiB. */
int sc_trace_detect(const char *path, const char **format);

/* Opens the trace whose anchor is `path`: an OTF2 archive's .otf2 file, a
 * DUMPI .meta file, or a TI index or action file. SC_ERR_INPUT naming the
 * file and what is wrong otherwise. Free with sc_trace_close. */
sc_err_t sc_trace_open(const char *path, sc_trace_t **trace);
void sc_trace_close(sc_trace_t *trace);

/* The trace's format ("SMPI time-independent", "OTF2", "DUMPI"), path,
 * ranks and communicators. Communicators are complete only after
 * sc_trace_scan. */
const char *sc_trace_format(const sc_trace_t *trace);
const char *sc_trace_path(const sc_trace_t *trace);
int sc_trace_ranks(const sc_trace_t *trace);
int sc_trace_ncomms(const sc_trace_t *trace);
const sc_trace_comm_t *sc_trace_comm(const sc_trace_t *trace, int comm);

/* The world rank of rank `rank` of communicator `comm`. */
static inline int sc_trace_world_rank(const sc_trace_t *trace, int comm, int rank)
{
    return sc_trace_comm(trace, comm)->members[rank];
}

/* What a scan tells its listener, if any, event by event (world ranks):
 * each point-to-point send and each collective call, to build the trace's
 * communication graph. */
typedef struct {
    void *ctx;
    void (*message)(void *ctx, int src, int dst, uint64_t bytes);
    void (*collective)(void *ctx, int rank, const sc_tev_t *ev);
} sc_trace_listener_t;

/* Reads the whole trace once: every event of every rank checked, its
 * communicators resolved, the counts of `summary` (unless NULL) filled,
 * and `listener` (unless NULL) told. Refuses with SC_ERR_INPUT naming the
 * file, the rank and the event: a truncated or corrupt file, an action or
 * field it cannot read, a communicator or request used before it is made,
 * a peer out of its communicator, a send never received or a receive
 * never sent (both sides named), an empty trace. Must be called once
 * before cursors are opened. */
sc_err_t sc_trace_scan(sc_trace_t *trace, sc_trace_summary_t *summary,
                       const sc_trace_listener_t *listener);

void sc_trace_summary_destroy(sc_trace_summary_t *summary);

/* The `i`-th (from 0) collective kind called on a communicator, as the
 * last scan first met each kind on each communicator (by rank, then by
 * event): 1 and *coll, *comm; 0 past the last. What depends only on a
 * call's kind and its communicator (a forced algorithm's preconditions)
 * is checked on these, without reading the trace again. Only after a
 * scan that succeeded. */
int sc_trace_collective_use(const sc_trace_t *trace, size_t i, sc_tcoll_t *coll, int *comm);

/* ---- Jobs side by side ---- */

/* One trace of several scanned traces run at once (simcoll run --job):
 * its ranks are job 0's, then job 1's, ...; each job's communicators are
 * its own (its world among them), so that no message or collective
 * crosses jobs. The jobs stay the caller's, open until `out` is closed;
 * `out` is to be scanned as any trace. sc_trace_job_first_rank: job j's
 * first rank in it. */
sc_err_t sc_trace_side_by_side(sc_trace_t *const *jobs, int njobs, sc_trace_t **out);
int sc_trace_job_first_rank(const sc_trace_t *trace, int job);

/* ---- Reading one rank ---- */

/* A cursor over rank `rank`'s events, from the first. Any number may be
 * open at once (one per rank when simulating): each holds a small buffer
 * of its own and its file open only while it reads. */
sc_err_t sc_trace_cursor_open(sc_trace_t *trace, int rank, sc_trace_cursor_t **cursor);

/* The rank's next event: 1 and *ev, 0 at its end, or -1 with the error
 * recorded (sc_error: the file, the rank and the event). */
int sc_trace_next(sc_trace_cursor_t *cursor, sc_tev_t *ev);

/* The cursor's rank's place in communicator `comm`, -1 if not in it. */
int sc_trace_cursor_comm_rank(sc_trace_cursor_t *cursor, int comm);

/* Where the cursor is, for messages: "rank 3, traces/rank-3.txt:17". */
const char *sc_trace_cursor_where(const sc_trace_cursor_t *cursor);

void sc_trace_cursor_close(sc_trace_cursor_t *cursor);

/* Writes one event as a line of text (for tests and messages). */
void sc_tev_format(const sc_tev_t *ev, char *out, size_t len);

#endif
