/* An algorithm's schedule: every rank's point-to-point calls in order,
 * recorded from the algorithm's own code: what the replay's engines play,
 * the cost model evaluates (sim/replay/evaluate.h) and the mapping's
 * communication graph sums (algorithms/mapping/graph.c). The model gives
 * the ranks' nodes and the platform, for the time of combining (a graph's
 * recording has no platform: plat NULL, no COMPUTE ops).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_SCHEDULE_H
#define SC_SCHEDULE_H

#include <stdint.h>

#include "algorithms/registry.h"
#include "models/cost.h"

typedef enum {
    SC_OP_SEND,    /* isend: peer, tag, bytes; request `req` */
    SC_OP_RECV,    /* irecv: peer (or SC_ANY_SOURCE), tag, bytes (or SC_ANY_SIZE);
                      request `req` */
    SC_OP_WAIT,    /* waitall: `count` requests listed from the ids' [first] */
    SC_OP_COMPUTE, /* reduce_time, or a trace's computing: `seconds` on the rank's core */
    SC_OP_TEST     /* MPI_Test of each request listed, in turn: those complete
                      are waited for, the others left (a trace's) */
} sc_op_kind_t;

/* One call of one rank. A request is named by `req`, unique among the
 * rank's requests not yet waited for: a recorded schedule's are the index
 * of their SEND or RECV op in the rank's list. */
typedef struct {
    uint8_t kind;
    uint32_t req;
    int32_t peer, tag;
    union {
        uint64_t bytes;   /* SEND, RECV */
        double seconds;   /* COMPUTE */
        struct {
            uint32_t count;
            uint32_t first; /* in the ids */
        } wait;
    } u;
} sc_sched_op_t;

/* Every rank's ops, rank after rank: rank r's are ops[op_start[r]] up to
 * ops[op_start[r + 1]], and the requests its waits name are ids relative
 * to op_start[r], listed from wait_ids[id_start[r]]. A rank whose ops are
 * an earlier rank's shifted by their distance (each of Bruck's or the
 * ring's ranks sends to the rank so far before it) keeps none of its own:
 * it plays rank like[r]'s, with every peer r - like[r] further on, mod np
 * (a million ranks' Bruck schedule is then one rank's). like is NULL in a
 * recording of one rank (sc_schedule_record_rank): each rank its own. */
typedef struct {
    int np;
    sc_sched_op_t *ops;
    long *op_start;
    uint32_t *wait_ids;
    long *id_start;
    int *like; /* by rank: whose ops it plays (itself if it keeps its own) */
    long cap_ops, cap_ids; /* room in ops and wait_ids (sc_schedule_record_rank) */
    int read_nodes;        /* 1: the code followed the ranks' nodes (SMP-aware), so the
                              ops hold for the model's node_of only */
} sc_schedule_t;

/* Where the players (sim/replay/play.h) take a rank's ops from: a window
 * of them at a time, which stays valid until the rank's next window is
 * asked for. */
typedef struct {
    const sc_sched_op_t *ops;
    long nops;
    const uint32_t *ids; /* the request ids WAIT and TEST ops list */
    int shift;           /* a SEND's or RECV's peer is (peer + shift) mod np: ops
                            shared with another rank (sc_schedule_t's like) */
} sc_op_window_t;

/* What a live source's next gives when the rank's code has given no more
 * ops yet (sim/simgrid/live.cpp). */
enum { SC_SOURCE_LATER = 2 };

typedef struct sc_op_source sc_op_source_t;
struct sc_op_source {
    int np;
    /* Rank r's next window: 1 and *w (at least one op), 0 after its last,
     * -1 with sc_error set, or SC_SOURCE_LATER. */
    int (*next)(sc_op_source_t *src, int r, sc_op_window_t *w);
};

/* A recorded schedule of every rank (sc_schedule_record, _fn) as a
 * source: each rank's ops in one window. */
typedef struct {
    sc_op_source_t source;
    const sc_schedule_t *sched;
    unsigned char *given; /* by rank */
} sc_schedule_source_t;

/* SC_ERR_RUN if out of memory; sc_schedule_source_destroy frees it. */
sc_err_t sc_schedule_source_init(sc_schedule_source_t *src, const sc_schedule_t *sched);
void sc_schedule_source_destroy(sc_schedule_source_t *src);

/* Records `algo` on every rank of `model` with `args` (size only: the
 * buffers are scratch). Fails with SC_ERR_INPUT, naming the call, for an
 * algorithm the replay cannot play: one whose messages depend on data or
 * timing (waitany, test, cancel, request_free, iprobe, a receive from any
 * source, of any tag or of any size), or one of the user's own (--load). */
sc_err_t sc_schedule_record(const sc_algo_t *algo, const sc_coll_args_t *args,
                            const sc_model_t *model, sc_scratch_t *scratch,
                            sc_schedule_t *sched);

/* The same for one rank of `model` alone (rank `rank` of its comm, row 0
 * of sched), receives of any size allowed: a trace's collective as one of
 * its ranks plays it, whose ops follow from that rank's call alone.
 * `sched` is filled again (zeroed the first time, then kept between
 * calls: its room is used again). */
sc_err_t sc_schedule_record_rank(sc_err_t (*run)(sc_comm_t *comm, void *ctx), void *ctx,
                                 const char *what, const sc_model_t *model, int rank,
                                 sc_scratch_t *scratch, sc_schedule_t *sched);

/* The same for any code of a rank: run(comm, ctx) on every rank of
 * `model`; `what` names it in messages. */
sc_err_t sc_schedule_record_fn(sc_err_t (*run)(sc_comm_t *comm, void *ctx), void *ctx,
                               const char *what, const sc_model_t *model,
                               sc_scratch_t *scratch, sc_schedule_t *sched);

/* An algorithm and its arguments as a rank's code for
 * sc_schedule_record_fn and sc_schedule_record_rank: pass
 * sc_schedule_run_algo as `run` and a pointer to this as `ctx`. */
typedef struct {
    const sc_algo_t *algo;
    const sc_coll_args_t *args;
} sc_algo_call_t;

sc_err_t sc_schedule_run_algo(sc_comm_t *comm, void *call);

/* Whether `algo` can be replayed at all, before recording: SC_ERR_INPUT
 * with the reason when it cannot. */
sc_err_t sc_schedule_replayable(const sc_algo_t *algo);

void sc_schedule_destroy(sc_schedule_t *sched);

#endif
