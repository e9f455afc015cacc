/* A trace's collective calls, as both engines run them (the actor per rank,
 * sim/engine/trace_run.c, and the players of recorded ops, trace_source.c):
 * the algorithm forced for the kind or the profile's choice for the kinds
 * simcoll has algorithms of, the exchanges of algorithms/irregular/ for the
 * others; and the tags a trace's messages have on the world's transport.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_TRACE_COLL_H
#define SC_TRACE_COLL_H

#include "algorithms/profiles/profiles.h"
#include "sim/trace/trace.h"

/* How a trace's collectives choose their algorithms. */
typedef struct {
    const sc_profile_t *profile;
    const sc_algo_t *forced[SC_NCOLLECTIVES]; /* NULL: the profile's choice */
} sc_trace_choice_t;

/* The kind of simcoll's a trace's collective runs as (*has 0: none). */
sc_collective_t sc_tcoll_kind(sc_tcoll_t coll, int *has);

/* Runs the rank's part of collective `ev` on `comm` (the communicator's
 * ranks, `comm->node_of` their nodes), entering the call first
 * (sc_enter_call), sizes only, buffers from
 * `scratch`. *algo gets the name of what ran. SC_ERR_INPUT when the
 * profile has no rule for it or chose an algorithm the communicator's
 * size does not allow (the message says which). */
sc_err_t sc_trace_coll_run(sc_comm_t *comm, const sc_tev_t *ev, const sc_trace_choice_t *choice,
                           sc_scratch_t *scratch, const char **algo);

/* A communicator's point-to-point tags on the world's transport: tag t of
 * communicator c is (SC_TRACE_BAND_FIRST + c) * SC_TAG_BAND + its number
 * among c's distinct tags, above every collective's tags; any tag of c is
 * SC_ANY_TAG_OF_BAND of its band. */
#define SC_TRACE_BAND_FIRST 0x4000
#define SC_TRACE_MAX_COMMS (0x7fff - SC_TRACE_BAND_FIRST)

/* Collectives on communicator c run in context
 * sc_trace_coll_context(c) (algorithms/subcomm.h: tags + context *
 * SC_SUBCOMM_TAGS): the world's 0, others' (c + 1) * 16, which leaves the
 * contexts the SMP-aware algorithms open inside (up to 7) below the next
 * communicator's. */
static inline int sc_trace_coll_context(int comm)
{
    return comm == 0 ? 0 : (comm + 1) * 16;
}

typedef struct sc_trace_tags sc_trace_tags_t;

/* The tags of `ncomms` communicators; NULL if out of memory. */
sc_trace_tags_t *sc_trace_tags_new(int ncomms);
void sc_trace_tags_free(sc_trace_tags_t *tags);

/* Tag `tag` (or SC_TRACE_ANY) of communicator `comm` on the world's
 * transport; SC_ERR_INPUT if the communicator has more than SC_TAG_BAND
 * distinct tags, SC_ERR_RUN if out of memory. */
sc_err_t sc_trace_world_tag(sc_trace_tags_t *tags, int comm, int tag, int *out);

#endif
