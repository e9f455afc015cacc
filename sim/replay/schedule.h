/* An algorithm's schedule: every rank's point-to-point calls in order,
 * recorded once from the algorithm's own code, for the replay engine.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_SCHEDULE_H
#define SC_SCHEDULE_H

#include <stdint.h>

#include "algorithms/registry.h"
#include "models/cost.h"

typedef enum {
    SC_OP_SEND,    /* isend: peer, tag, bytes */
    SC_OP_RECV,    /* irecv: peer, tag, bytes */
    SC_OP_WAIT,    /* waitall: `count` requests listed from wait_ids[first] */
    SC_OP_COMPUTE  /* reduce_time: `seconds` on the rank's core */
} sc_op_kind_t;

/* One call of one rank. A request is named by the index of its SEND or
 * RECV op in the rank's list. */
typedef struct {
    uint8_t kind;
    int32_t peer, tag;
    union {
        uint64_t bytes;   /* SEND, RECV */
        double seconds;   /* COMPUTE */
        struct {
            uint32_t count;
            uint32_t first; /* in the rank's wait ids */
        } wait;
    } u;
} sc_sched_op_t;

/* Every rank's ops, rank after rank: rank r's are ops[op_start[r]] up to
 * ops[op_start[r + 1]], and the requests its waits name are ids relative
 * to op_start[r], listed from wait_ids[id_start[r]]. */
typedef struct {
    int np;
    sc_sched_op_t *ops;
    long *op_start;
    uint32_t *wait_ids;
    long *id_start;
} sc_schedule_t;

/* Records `algo` on every rank of `model` with `args` (size only: the
 * buffers are scratch). Fails with SC_ERR_INPUT, naming the call, for an
 * algorithm the replay cannot play: one whose messages depend on data or
 * timing (waitany, test, cancel, request_free, iprobe, a receive from any
 * source, of any tag or of any size), or one of the user's own (--load). */
sc_err_t sc_schedule_record(const sc_algo_t *algo, const sc_coll_args_t *args,
                            const sc_model_t *model, sc_scratch_t *scratch,
                            sc_schedule_t *sched);

/* Whether `algo` can be replayed at all, before recording: SC_ERR_INPUT
 * with the reason when it cannot. */
sc_err_t sc_schedule_replayable(const sc_algo_t *algo);

void sc_schedule_destroy(sc_schedule_t *sched);

#endif
