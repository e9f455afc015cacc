/* Where an MPI library switches protocol, found from simcoll-probe's
 * ping-pong and overheads at doubling sizes; plain C, so that the tests
 * check it without MPI.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_PROBE_SWITCHES_H
#define SC_PROBE_SWITCHES_H

/* The series a switch shows in, by index. */
enum { PROBE_LATENCY, PROBE_SEND, PROBE_RECV, PROBE_NSERIES };

/* What showed a switch, strongest first: an overhead that jumps (the
 * call starts moving the data: the eager limit), the one-way time
 * falling (a faster protocol) or growing more than the size did. */
typedef enum { PROBE_RECV_JUMP, PROBE_SEND_JUMP, PROBE_TIME_FALL, PROBE_TIME_JUMP } probe_sign_t;

typedef struct {
    int at; /* between sizes[at - 1] and sizes[at] */
    probe_sign_t sign;
    int series;           /* the series of the sign: PROBE_LATENCY, ... */
    double before, after; /* that series at sizes[at - 1] and sizes[at] */
    long last;            /* the largest size measured still below the switch:
                             sizes[at - 1] until probe_switch_locate */
} probe_switch_t;

/* The switches between consecutive sizes (ascending; from 64 bytes, where
 * a step is more than timer noise; an overhead's jump must last to the
 * next size) of series[PROBE_LATENCY],
 * series[PROBE_SEND] and series[PROBE_RECV] (seconds, n values each), at
 * most `most`, in size order, one per interval (its strongest sign).
 * Returns how many. */
int probe_switches_find(const long *sizes, const double *const series[PROBE_NSERIES], int n,
                        probe_switch_t *out, int most);

/* Moves s->last to the largest of `more` (m sizes inside s's interval,
 * ascending, with the sign's series there in `values`) before the first
 * that is on the far side of the switch: past the geometric mean of
 * s->before and s->after. */
void probe_switch_locate(probe_switch_t *s, const long *more, const double *values, int m);

/* Whether s is the eager limit: an overhead jumped, so past it MPI_Recv
 * (MPI_Isend) moves the data itself. */
int probe_switch_is_eager(const probe_switch_t *s);

#endif
