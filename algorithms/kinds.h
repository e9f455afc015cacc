/* Each collective described once: its name, message tag, whether it has a
 * root and reduces, the buffers one rank holds, and how a verified run
 * fills its inputs and checks its outputs.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_KINDS_H
#define SC_KINDS_H

#include <stddef.h>

#include "reduce/deciders.h"
#include "reduce/ops.h"

/* public: in simcoll.h, the plug-ins' API (algorithms/plugin/) */
typedef enum {
    SC_ALLGATHER,
    SC_BCAST,
    SC_BARRIER,
    SC_REDUCE,
    SC_ALLREDUCE,
    SC_SCATTER,
} sc_collective_t;

/* What a verified run knows of every rank's input (below). */
typedef struct sc_data sc_data_t;
/* end public */

/* Outside the enum, so that switches over collectives stay complete. */
#define SC_NCOLLECTIVES (SC_SCATTER + 1)

/* One call's data as a verified run sees it: `bytes` per rank (the
 * allgather or scatter block, the message, the vector), and `seed`, which makes the
 * inputs of different calls of one program differ. */
struct sc_data {
    size_t bytes;
    int p, root;
    sc_op_t op;
    sc_type_t type;
    unsigned long seed;
    /* Reductions by an op that can decide: which ranks hold the deciding
     * value (--data decider); NULL for sc_op_sample's pattern. */
    const sc_deciders_t *deciders;
    /* MAX and MIN: who holds the extreme of every element (--data extreme);
     * NULL for sc_op_sample's pattern. */
    const sc_extreme_t *extreme;
};

typedef struct {
    sc_collective_t collective;
    const char *name;    /* "allgather", as programs and --coll spell it */
    int has_root;        /* bcast, reduce, scatter */
    int is_reduction;    /* reduce, allreduce: vectors of op and type */
    int has_data;        /* all but barrier */
    int output_blocks_per_rank; /* allgather: its output holds p blocks */
    int in_place;        /* bcast: one buffer, the root's input is the output */
    int input_blocks_per_rank; /* scatter: the root's input holds p blocks,
                                  and rank r's output is block r of it */
    /* Writes rank `rank`'s input, sc_kind_input_bytes(d) bytes. */
    void (*fill)(const sc_data_t *d, int rank, void *in);
    /* What the ranks checked must hold (reduce: the root only), computed
     * once for all of them: sc_kind_expect_bytes(d) bytes, of which rank
     * r's output is the sc_kind_output_bytes(d) from
     * sc_kind_expect_offset(d, r). */
    void (*expect)(const sc_data_t *d, void *out);
} sc_kind_t;

/* The kind of a collective; every sc_collective_t has one. */
const sc_kind_t *sc_kind(sc_collective_t collective);

/* The kind spelled `name`, or NULL. */
const sc_kind_t *sc_kind_find(const char *name);

/* "allgather, bcast, barrier, reduce, allreduce, scatter", for messages. */
const char *sc_kind_names(void);

/* Bytes of one rank's output buffer for the call, and of its input
 * (d->bytes, p blocks of them for scatter; none for barrier). */
size_t sc_kind_output_bytes(const sc_kind_t *kind, const sc_data_t *d);
size_t sc_kind_input_bytes(const sc_kind_t *kind, const sc_data_t *d);

/* Bytes of what kind->expect writes, and where rank `rank`'s expected
 * output starts in it (scatter: its block; 0 for the others). */
size_t sc_kind_expect_bytes(const sc_kind_t *kind, const sc_data_t *d);
size_t sc_kind_expect_offset(const sc_kind_t *kind, const sc_data_t *d, int rank);

/* 1 if rank `rank` must hold the expected output after the call (reduce:
 * the root; barrier: nobody, its check is on times). */
int sc_kind_checks_rank(const sc_kind_t *kind, const sc_data_t *d, int rank);

/* Whether the `count` elements from element `first` of rank `rank`'s input
 * vector alone decide the reduction of d (every one deciding), as
 * size-only runs must know without data. */
int sc_kind_rank_decides(const sc_data_t *d, int rank, size_t first, size_t count);

/* MAX and MIN: the lowest rank whose element 0 is the extreme of element 0
 * (as MAXLOC and MINLOC report it), computed from the inputs. */
int sc_kind_extreme_winner(const sc_data_t *d);

/* Whether rank `rank`'s input is better than rank `other`'s in some
 * element (MAX: larger, MIN: smaller). */
int sc_kind_rank_beats(const sc_data_t *d, int rank, int other);

/* Whether any rank's input beats rank `other`'s (sc_kind_rank_beats). */
int sc_kind_anyone_beats(const sc_data_t *d, int other);

#endif
