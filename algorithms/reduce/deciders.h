/* Which ranks hold a value that alone decides a reduction (`--data
 * decider=...`): none, given ranks, or a fraction of them; and which rank
 * holds the extreme of a MAX or MIN, from call to call (`--data
 * extreme=...`).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_DECIDERS_H
#define SC_DECIDERS_H

#include "../../common/sc_error.h"

/* Most ranks one spec names. */
#define SC_DECIDERS_MAX 16

/* Positions a spec may name before the process count is known. */
#define SC_DECIDER_LAST (-1)
#define SC_DECIDER_MIDDLE (-2)

typedef struct {
    enum { SC_DECIDERS_RANKS, SC_DECIDERS_FRACTION } kind;
    int nranks;                 /* SC_DECIDERS_RANKS: 0 for none */
    int ranks[SC_DECIDERS_MAX]; /* >= 0, or SC_DECIDER_LAST, SC_DECIDER_MIDDLE */
    double fraction;            /* SC_DECIDERS_FRACTION: in [0, 1] */
} sc_deciders_t;

/* "none", "first", "last", "middle", a rank ("5"), ranks joined by '+'
 * ("0+5+63"), or a fraction of the ranks with a decimal point ("0.01",
 * "1.0"). SC_ERR_INPUT naming `text` and the forms otherwise. */
sc_err_t sc_deciders_parse(const char *text, sc_deciders_t *out);

/* SC_ERR_INPUT if a rank named is not below p. */
sc_err_t sc_deciders_check(const sc_deciders_t *d, int p);

/* Whether rank `rank` of p decides in the call numbered `seed` of a
 * program. A fraction f picks each rank with probability f from a hash of
 * (rank, seed), so that calls differ but runs repeat. */
int sc_deciders_has(const sc_deciders_t *d, int rank, int p, unsigned long seed);

/* The rank holding the extreme of every element of a MAX or MIN: `rank`
 * in the first call of a statement, then, before each later call, moving
 * with probability `move` to a rank picked from a hash of the call. */
typedef struct {
    int rank; /* >= 0, or SC_DECIDER_LAST, SC_DECIDER_MIDDLE */
    double move;
} sc_extreme_t;

/* "R" or "R/Q": R as a decider rank (first, last, middle or a number), Q
 * the probability in [0, 1] that the extreme moves from one call to the
 * next (default 0). SC_ERR_INPUT naming `text` otherwise. */
sc_err_t sc_extreme_parse(const char *text, sc_extreme_t *out);

/* SC_ERR_INPUT if the rank named is not below p. */
sc_err_t sc_extreme_check(const sc_extreme_t *e, int p);

/* The holder in call `seed` (0, 1, ...) of p ranks. */
int sc_extreme_holder(const sc_extreme_t *e, int p, unsigned long seed);

#endif
