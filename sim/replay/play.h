/* A rank's recorded schedule played as a state machine, with the protocol
 * of sim/protocol/protocol.h: what the schedule's players share, the
 * actor per node (sim/simgrid/node_replay.c) and the driver from maestro
 * (sim/simgrid/driver.cpp), and the evaluator of the cost model (evaluate.c).
 * A player moves envelopes through SimGrid and says when time has come;
 * this module decides, op by op, what a rank does then. Plain C, no
 * SimGrid: the player passes the clock.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_PLAY_H
#define SC_PLAY_H

#include "sim/protocol/protocol.h"
#include "algorithms/schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

/* SC_RANK_CODE: a live source's rank (sim/simgrid/live.cpp) that played
 * every op its code gave so far; its code runs on until it gives more. */
typedef enum {
    SC_RANK_RUNNING,
    SC_RANK_BUSY,
    SC_RANK_WAITING,
    SC_RANK_DONE,
    SC_RANK_CODE
} sc_rank_state_t;

/* A request of a rank, from its SEND or RECV to its wait: what the wait's
 * cost needs of it (its peer is a receive's sender once matched, its bytes
 * what came for a receive of any size). */
typedef struct {
    uint8_t flags; /* REQ_DONE, REQ_AWAITED, REQ_USED (play.c) */
    uint8_t is_recv;
    int32_t peer;
    uint64_t bytes;
    double path; /* the path its sender had (sc_traffic_t) */
} sc_play_req_t;

typedef struct {
    sc_op_window_t window; /* the ops the source gave last */
    long pc;               /* the next of them */
    int ended;             /* the source has no more */
    sc_rank_state_t state;
    int phase;         /* how far the op at pc has gone (see sc_play_advance) */
    double busy_until; /* while SC_RANK_BUSY */
    long pending;      /* requests of the wait at pc not yet complete */
    double path_bytes, sent_bytes;
    sc_envelope_t *arrived, *arrived_tail; /* delivered while it was not waiting */
    sc_matcher_t match;                    /* the protocol's queues */
    /* Its requests not yet waited for: request id i at reqs[i - req_base]
     * (ids wrap round 2^32), the first nreqs used, room for cap_reqs. */
    sc_play_req_t *reqs;
    uint32_t req_base, nreqs, cap_reqs;
} sc_play_rank_t;

typedef struct sc_player sc_player_t;

/* What the player does for its ranks. */
typedef struct {
    /* Puts `env` (EAGER, RTS or CTS, numbered) in flight with `data` bytes
     * of data; its sender does not wait for it. Takes `env`. */
    void (*post)(sc_player_t *pl, sc_envelope_t *env, size_t data);
    /* Puts rendezvous DATA `env` in flight; the send env->sreq of rank
     * env->src completes when it has arrived (sc_play_complete). Takes
     * `env`. */
    void (*put_data)(sc_player_t *pl, sc_envelope_t *env);
    /* Rank r became SC_RANK_BUSY until ranks[r].busy_until, or NULL. */
    void (*busy)(sc_player_t *pl, int r);
    /* Rank r waits (SC_RANK_WAITING) and its wait is now over; NULL if
     * the player looks for such ranks itself. */
    void (*wait_over)(sc_player_t *pl, int r);
    /* Rank r has played its last op, or NULL. */
    void (*finished)(sc_player_t *pl, int r);
    /* Live sources only (NULL otherwise). Rank r is SC_RANK_CODE: its code
     * goes on, and gives more ops before the player advances it again. */
    void (*code_runs)(sc_player_t *pl, int r);
    /* Data, live sources with payloads only (NULL otherwise): an EAGER or
     * DATA envelope of rank r's send `req` leaves, and takes a copy of
     * its data in env->data; a receive `req` of rank r got `env`. */
    void (*carry)(sc_player_t *pl, int r, uint32_t req, sc_envelope_t *env);
    void (*received)(sc_player_t *pl, int r, uint32_t req, const sc_envelope_t *env);
} sc_play_ops_t;

struct sc_player {
    int np;
    sc_op_source_t *source;
    const sc_model_t *model;
    const sc_play_ops_t *ops;
    sc_play_rank_t *ranks;
    sc_traffic_t *total; /* counted as ranks send */
    double *finish;      /* per rank */
    sc_err_t failed;     /* SC_ERR_RUN from the first failure on, error_msg saying it */
    char error_msg[512];
};

/* Readies `pl` to play the ops of `source` on `model` with `ops`, counting
 * traffic in `total` and writing each rank's end in finish[]. SC_ERR_RUN
 * if out of memory. */
sc_err_t sc_play_init(sc_player_t *pl, sc_op_source_t *source, const sc_model_t *model,
                      const sc_play_ops_t *ops, sc_traffic_t *total, double *finish);

/* Runs rank r from its op at pc until it must wait or be busy, or ends;
 * `now` is the clock. */
void sc_play_advance(sc_player_t *pl, int r, double now);

/* Whether rank r can go on at `now`: its wait is over, or it is no longer
 * busy (an instant's times equal the clock up to rounding). */
int sc_play_can_resume(const sc_player_t *pl, int r, double now);

/* Hands an envelope that arrived to its rank: at once if the rank waits,
 * else at its next call, since a rank handles messages only inside its
 * calls. Takes `env`. */
void sc_play_deliver(sc_player_t *pl, sc_envelope_t *env);

/* Request `req` of rank r (a SEND or RECV's) is complete. */
void sc_play_complete(sc_player_t *pl, int r, uint32_t req);

/* Records the first failure; the player stops. */
void sc_play_fail(sc_player_t *pl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* After the run: the error (a failure, ranks that never finished, a rank
 * sent more than it received), else SC_OK with the longest path in
 * total->path_bytes and the most bytes one rank sent in *max_rank_bytes.
 * Ranks that never finished are a deadlock, or what unfinished_error
 * (NULL: none) says of them (sc_engine_unfinished: SimGrid lost an
 * event). */
sc_err_t sc_play_result(sc_player_t *pl, double *max_rank_bytes,
                        sc_err_t (*unfinished_error)(const char *what, int unfinished, int np));

/* Frees what the ranks hold. */
void sc_play_destroy(sc_player_t *pl);

#ifdef __cplusplus
}
#endif

#endif
