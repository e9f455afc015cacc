/* What is due at a date in the cost model's evaluator (evaluate.c):
 * envelopes arriving and ranks whose busy time ends, taken by date, those
 * of one date in the order they were queued, as a heap by (date, order
 * queued) would give them.
 *
 * Without contention, ranks that do the same at the same instant are due
 * at the same date (every rank of Bruck's step pays the same overhead
 * from the same instant, its envelopes take the same time), so a heap of
 * every item holds some of each rank and pays its depth in cache misses
 * for each. Here each date has one array of its items, in order, and the
 * heap holds the dates alone. An array rather than a list: items linked
 * from a pool of free ones lay a date's items all over the pool, and at
 * 262,144 ranks the load of each next item was 85% of the pop's time.
 * The driver (sim/simgrid/driver.cpp) keeps a heap of items: under
 * contention its dates differ from rank to rank, and this queue (with its
 * items in lists) gained it 1.6% of CPU time at 262,144 ranks for 1.5%
 * more peak memory (one date's entry for each item).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_REPLAY_DUE_QUEUE_H
#define SC_REPLAY_DUE_QUEUE_H

#include "sim/protocol/protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One thing due: an envelope, or a rank (env NULL). */
typedef struct {
    double date;
    sc_envelope_t *env;
    int rank;
} sc_due_t;

typedef struct sc_due_date sc_due_date_t;

/* All zero: empty. */
typedef struct {
    sc_due_date_t *dates; /* a pool: free ones listed from free_date, each
                             keeping its items' array for the next date */
    long cap_dates, free_date, used_dates;
    long *heap; /* the dates in use, by (date, when the date was opened) */
    long nheap;
    unsigned long opened;  /* dates opened so far */
    long recent[256];      /* by a hash of the date: its newest open date's index
                              plus one, or 0 */
} sc_due_queue_t;

/* Queues `env` (or rank `rank`, env NULL) at `date`; 0 if out of memory
 * (nothing queued). */
int sc_due_push(sc_due_queue_t *q, double date, sc_envelope_t *env, int rank);

/* Whether nothing is queued. */
int sc_due_empty(const sc_due_queue_t *q);

/* The date of the first thing due; the queue must not be empty. */
double sc_due_first(const sc_due_queue_t *q);

/* Takes the first thing due off the queue; it must not be empty. */
sc_due_t sc_due_pop(sc_due_queue_t *q);

/* Frees the queue's memory (not the envelopes still in it). */
void sc_due_free(sc_due_queue_t *q);

#ifdef __cplusplus
}
#endif

#endif
