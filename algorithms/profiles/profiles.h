/* MPI library profiles: the algorithm a library runs for a collective call,
 * by message size, process count and where the ranks are, as its own
 * source code decides.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_PROFILES_H
#define SC_PROFILES_H

#include "../registry.h"

/* A collective call as a library sees it when it chooses. */
typedef struct {
    sc_collective_t collective;
    size_t bytes;       /* as simcoll counts them (allgather: the block) */
    int p;
    const int *node_of; /* the node of every rank */
    sc_type_t type;     /* reductions */
} sc_call_t;

typedef struct {
    const char *name;    /* what --mpi accepts */
    const char *library; /* the library, version and configuration */
    const char *source;  /* where the choices are written */
    /* The registry name of the algorithm it runs for the call; NULL for a
     * collective simcoll has no rule of the library's for. */
    const char *(*choose)(const sc_call_t *call);
    /* One line per collective (indexed by sc_collective_t): the rule. */
    const char *rules[SC_NCOLLECTIVES];
} sc_profile_t;

/* Every profile, NULL-terminated. */
extern const sc_profile_t sc_profiles[];

/* The profile named `name`, or NULL. */
const sc_profile_t *sc_profile_find(const char *name);

/* The registered algorithm the profile runs for the call, or NULL where
 * the profile has no rule for its collective (rules[] says why). */
const sc_algo_t *sc_profile_choose(const sc_profile_t *profile, const sc_call_t *call);

/* SC_ERR_INPUT naming the profile and the collective it has no rule for,
 * for callers of sc_profile_choose that got NULL. */
sc_err_t sc_profile_no_rule(const sc_profile_t *profile, sc_collective_t collective);

/* 1 if MPICH would build its node hierarchy for these ranks: some node
 * holds two of them (algorithms/subcomm.h). */
int sc_call_node_aware(const sc_call_t *call);

/* The choosers, one file per library. */
const char *sc_profile_mpich_choose(const sc_call_t *call); /* mpich.c */
/* MPICH's choice where it builds no node hierarchy, which MVAPICH2 1.4
 * keeps for allgather, allreduce and reduce (mpich.c). */
const char *sc_profile_mpich_flat_choose(const sc_call_t *call);
const char *sc_profile_openmpi41_choose(const sc_call_t *call); /* openmpi.c */
const char *sc_profile_mvapich2_14_choose(const sc_call_t *call); /* mvapich2.c */
const char *sc_profile_openmpi40_choose(const sc_call_t *call); /* openmpi.c */

#endif
