/* The table of every collective algorithm simcoll can run.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_REGISTRY_H
#define SC_REGISTRY_H

#include "../models/cost.h"
#include "kinds.h"
#include "p2p.h"
#include "reduce/ops.h"


/* public: in simcoll.h, the plug-ins' API (algorithms/plugin/) */
/* Arguments of every collective; each uses the fields it needs. */
typedef struct {
    const void *sendbuf; /* allgather: this rank's block of `bytes`;
                            reduce, allreduce: this rank's input vector;
                            scatter: the root's size * bytes, the block
                            of rank j at j * bytes (unused elsewhere) */
    void *recvbuf;       /* allgather: size * bytes, blocks in rank order;
                            bcast: the `bytes`-long message (root: source);
                            reduce, allreduce: `bytes` on every rank, the
                            result (reduce: at the root; the other ranks'
                            recvbuf is the algorithm's working space);
                            scatter: `bytes`, this rank's block */
    size_t bytes;        /* allgather, scatter: per rank block; bcast: message;
                            reduce, allreduce: the vector, a multiple of
                            the type's size */
    int root;            /* bcast, reduce, scatter */
    sc_op_t op;          /* reduce, allreduce */
    sc_type_t type;
    /* The mapping of the exch/reorder variants: pi[r] is the algorithm
     * position rank r plays, pi_inv[j] the rank playing position j.
     * NULL for the identity; other algorithms ignore it. */
    const int *pi, *pi_inv;
    /* Whether this rank's input alone decides the reduction
     * (sc_kind_rank_decides), for early-exit algorithms in size-only runs,
     * where there is no data to look at. */
    int decides;
    /* What the run knows of every rank's input (verified-run data), for
     * algorithms that must know what data would show in size-only runs;
     * NULL when the call is packed or split. */
    const sc_data_t *data;
    /* allreduce-if: the threshold the sum is compared with; a rank whose
     * input alone reaches it decides (`decides` in size-only runs). */
    double threshold;
} sc_coll_args_t;

/* One rank's part of a collective. Returns SC_OK or the transport's error. */
typedef sc_err_t (*sc_coll_fn)(sc_comm_t *comm, const sc_coll_args_t *args);

/* Preconditions an algorithm places on the process count, and whether it
 * plays its schedule through a rank mapping. */
#define SC_NEEDS_POW2 (1u << 0)   /* p must be a power of two */
#define SC_USES_MAPPING (1u << 1) /* ranks stay where MPI put them; the
                                     algorithm uses args.pi (exch, reorder) */
#define SC_EARLY_EXIT (1u << 2)   /* needs an op one value decides; which
                                     messages it sends depends on the data */
#define SC_SPECULATIVE (1u << 3)  /* needs max or min; its messages depend on
                                     the data and on earlier calls */
#define SC_UNTIL (1u << 4)        /* ends a solver's iterations: sum of
                                     errors against the threshold of an
                                     until loop (args.threshold) */
/* Algorithms whose messages depend on the data: no graph to record. */
#define SC_DATA_DEPENDENT (SC_EARLY_EXIT | SC_SPECULATIVE | SC_UNTIL)

/* One algorithm. Its cost model needs nothing of it: the model column is
 * its schedule, recorded from `run`, evaluated without contention. */
typedef struct {
    const char *name;           /* what --algo accepts */
    sc_collective_t collective;
    sc_coll_fn run;             /* one rank's part */
    unsigned needs;             /* SC_NEEDS_* flags */
    const char *doc;            /* one line for `simcoll list` */
} sc_algo_t;
/* end public */

/* One rank's collective call as an application makes it: the time of
 * entering it (sc_enter_call), then the algorithm. Whoever starts a call
 * calls this; an algorithm that runs another on its own or a sub-
 * communicator calls that one's function, inside its call. */
sc_err_t sc_algo_call(const sc_algo_t *algo, sc_comm_t *comm, const sc_coll_args_t *args);

/* The registry, terminated by an entry with a NULL name. */
extern const sc_algo_t sc_algos[];

/* The entry named `name` (built in, or added), or NULL. */
const sc_algo_t *sc_algo_find(const char *name);

/* Adds an algorithm of the user's (a plug-in's) under its name, which no
 * other algorithm may have; `algo` must outlive its use. */
#define SC_MAX_ADDED_ALGOS 64
sc_err_t sc_algo_add(const sc_algo_t *algo);

/* The i-th algorithm added (from 0), or NULL past the last. */
const sc_algo_t *sc_algo_added(int i);

/* 1 for an algorithm sc_algo_add added. */
int sc_algo_is_added(const sc_algo_t *algo);

/* Whether `algo` is a row of sc_algos[], simcoll's own (not added, nor a
 * test's). */
int sc_algo_is_builtin(const sc_algo_t *algo);

/* The one of `names` (NULL-terminated) closest to `name` by edit distance,
 * for "did you mean" hints of other names (a study's keys, a CSV's
 * columns); NULL if `names` is empty. */
const char *sc_name_nearest(const char *name, const char *const *names);

/* The nearest as sc_name_nearest's, if a slip of the fingers away (at most
 * 2 edits, or a third of the name's length); else NULL: "did you mean" is
 * then no help. */
const char *sc_name_close(const char *name, const char *const *names);

/* The entry whose name is closest to `name` (edit distance), for
 * "did you mean" hints, loaded algorithms among them (and preferred at
 * the same distance). Never NULL. */
const sc_algo_t *sc_algo_nearest(const char *name);

/* 1 for reduce and allreduce, which work on vectors of op and type. */
static inline int sc_algo_is_reduction(const sc_algo_t *algo)
{
    return sc_kind(algo->collective)->is_reduction;
}

/* "allgather", "bcast", "barrier", "reduce", "allreduce", "scatter". */
const char *sc_collective_name(sc_collective_t collective);

/* Checks the algorithm's preconditions for p ranks before anything runs;
 * SC_ERR_INPUT with a message naming the problem if they fail. */
sc_err_t sc_algo_check(const sc_algo_t *algo, int p);

#endif
