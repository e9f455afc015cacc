/* What is due at a date, by date (due_queue.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "due_queue.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    sc_envelope_t *env;
    int rank;
} item_t;

/* Indices into the pool of dates are kept plus one, so that 0 is "none"
 * and a zeroed queue is empty. */
struct sc_due_date {
    double date;
    unsigned long order; /* when it was opened: of two open dates equal, the older first */
    item_t *items;       /* items[first..n) still due, in the order queued */
    long first, n, cap;
    long next_free; /* while free: the next free date */
};

/* The slot of `recent` for a date. -0.0 and 0.0 are one date, as == has
 * them, so they share a slot. */
static size_t recent_slot(double date)
{
    double d = date + 0.0;
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return (size_t)((bits * 0x9e3779b97f4a7c15u) >> 56);
}

static int before(const sc_due_queue_t *q, long a, long b)
{
    const sc_due_date_t *x = &q->dates[a], *y = &q->dates[b];
    return x->date < y->date || (x->date == y->date && x->order < y->order);
}

static void heap_up(sc_due_queue_t *q, long i)
{
    long d = q->heap[i];
    while (i > 0 && before(q, d, q->heap[(i - 1) / 2])) {
        q->heap[i] = q->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    q->heap[i] = d;
}

static void heap_down(sc_due_queue_t *q, long i)
{
    long d = q->heap[i];
    for (;;) {
        long c = 2 * i + 1;
        if (c >= q->nheap)
            break;
        if (c + 1 < q->nheap && before(q, q->heap[c + 1], q->heap[c]))
            c++;
        if (!before(q, q->heap[c], d))
            break;
        q->heap[i] = q->heap[c];
        i = c;
    }
    q->heap[i] = d;
}

/* Room for `cap` items at the date; 0 if out of memory. */
static int date_grow(sc_due_date_t *at, long cap)
{
    item_t *items = realloc(at->items, (size_t)cap * sizeof *items);
    if (!items)
        return 0;
    at->items = items;
    at->cap = cap;
    return 1;
}

/* A new open date, in the heap, with no items yet but room for one: its
 * index, or -1 if out of memory. The heap has room for every date of the
 * pool. */
static long date_open(sc_due_queue_t *q, double date)
{
    long d = q->free_date - 1;
    if (d >= 0) {
        q->free_date = q->dates[d].next_free;
    } else {
        if (q->used_dates == q->cap_dates) { /* the heap grows first: never smaller */
            long more = q->cap_dates ? 2 * q->cap_dates : 256;
            long *heap = realloc(q->heap, (size_t)more * sizeof *heap);
            if (!heap)
                return -1;
            q->heap = heap;
            sc_due_date_t *dates = realloc(q->dates, (size_t)more * sizeof *dates);
            if (!dates)
                return -1;
            q->dates = dates;
            q->cap_dates = more;
        }
        d = q->used_dates++;
        q->dates[d] = (sc_due_date_t){0};
    }
    sc_due_date_t *at = &q->dates[d];
    /* A date may hold one rank's item (ranks busy until dates of their
     * own) or every rank's (a step of ranks alike): its array doubles. */
    if (at->cap == 0 && !date_grow(at, 1)) {
        at->next_free = q->free_date;
        q->free_date = d + 1;
        return -1;
    }
    at->date = date;
    at->order = q->opened++;
    at->first = at->n = 0;
    q->heap[q->nheap++] = d;
    heap_up(q, q->nheap - 1);
    return d;
}

/* The date is over: out of the heap and of recent, back in the pool with
 * its array, which the next date opened uses again. */
static void date_close(sc_due_queue_t *q, long d)
{
    size_t slot = recent_slot(q->dates[d].date);
    if (q->recent[slot] == d + 1)
        q->recent[slot] = 0;
    q->dates[d].next_free = q->free_date;
    q->free_date = d + 1;
    q->heap[0] = q->heap[--q->nheap];
    if (q->nheap > 0)
        heap_down(q, 0);
}

int sc_due_push(sc_due_queue_t *q, double date, sc_envelope_t *env, int rank)
{
    /* The newest open date equal to `date`, if `recent` still names it:
     * items appended there come after every item of that date queued
     * before (older open dates equal to it are taken first). */
    size_t slot = recent_slot(date);
    long d = q->recent[slot] - 1;
    if (d < 0 || !(q->dates[d].date == date)) {
        d = date_open(q, date);
        if (d < 0)
            return 0;
        q->recent[slot] = d + 1;
    }
    sc_due_date_t *at = &q->dates[d];
    if (at->n == at->cap && !date_grow(at, 2 * at->cap))
        return 0;
    at->items[at->n++] = (item_t){env, rank};
    return 1;
}

int sc_due_empty(const sc_due_queue_t *q)
{
    return q->nheap == 0;
}

double sc_due_first(const sc_due_queue_t *q)
{
    return q->dates[q->heap[0]].date;
}

sc_due_t sc_due_pop(sc_due_queue_t *q)
{
    long d = q->heap[0];
    sc_due_date_t *at = &q->dates[d];
    item_t it = at->items[at->first++];
    sc_due_t out = {at->date, it.env, it.rank};
    if (at->first == at->n)
        date_close(q, d);
    return out;
}

void sc_due_free(sc_due_queue_t *q)
{
    for (long d = 0; d < q->used_dates; d++)
        free(q->dates[d].items);
    free(q->dates);
    free(q->heap);
    memset(q, 0, sizeof *q);
}
