/* Automatic packing and splitting of messages (reference 002: Shandong
 * Computer Science Center, "an automatically optimized MPI communication
 * transmission method"): find, for each type of communication at the
 * run's process count, the interval [min, max] of sizes it moves best,
 * then rewrite the program so that its messages fall in it.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_PACK_H
#define SC_PACK_H

#include "program.h"

typedef struct {
    size_t min, max;
} sc_interval_t;

/* The turning point of steps 3.1 to 3.4: on a curve of n sizes (strictly
 * increasing) and the time each took, the bandwidth size/time; the first
 * size after which it falls, by more than 1%, to a size above `from`, and
 * later climbs again, is max, and min = max / 2. The patent looks above 1
 * MiB (step 3.2); protocol switches make such falls at smaller sizes too.
 * *found is 0 when the bandwidth never turns so: max is then the largest
 * size measured. SC_ERR_INPUT when the curve has fewer than three points
 * or a time that is not positive. */
sc_err_t sc_interval_find(const double *bytes, const double *seconds, int n, double from,
                          sc_interval_t *interval, int *found);

/* Where the patent looks for the turning point: above 1 MiB. */
#define SC_TURNING_FROM_PATENT 1048576.0

/* 1 if two statements are the same type of communication, which one
 * message can carry together: the same collective with the same algorithm
 * choice, root, operation and type; halos on the same grid; sends between
 * the same ranks. */
int sc_stmt_same_type(const sc_stmt_t *a, const sc_stmt_t *b);

/* How a message of `bytes` is split (steps 4.7 to 4.9 and 4.14): chunks of
 * max if max divides it; else chunks of max and the remainder if the
 * remainder is at least min; else max becomes (max + min) / 2 and the test
 * is made again. The patent's narrowing need not end (the remainder of a
 * division by min is below min), so when max can no longer shrink, the
 * remainder is the last chunk as it is. `align` divides every chunk but
 * the last (the element of a reduction). Writes at most `cap` chunk sizes
 * to chunks and their number to *n; SC_ERR_INPUT if more are needed. */
sc_err_t sc_split_sizes(size_t bytes, sc_interval_t interval, size_t align, size_t *chunks,
                        int cap, int *n);

/* Gives the interval of the type of communication of statement st. */
typedef sc_err_t (*sc_interval_fn)(void *ctx, const sc_stmt_t *st, sc_interval_t *interval);

/* Rewrites `in` into `out` (steps 4.4 to 4.6): a statement larger than its
 * type's max is split (sc_split_sizes) into statements of one piece each;
 * a run of consecutive statements of one type, each smaller than min and
 * none depending on another (sc_stmt_depends), is packed into one
 * statement until the total reaches min; the rest stay as they are. A
 * statement alone in its run stays as it is (step 4.10, P = 0). Empty
 * messages (0 bytes, no data to depend on) inside a run do not end it:
 * they follow the packed statement, as they are. Barriers, compute
 * phases, loops and empty messages are never changed; statements are only
 * packed within one loop body. */
sc_err_t sc_program_pack(const sc_program_t *in, sc_interval_fn interval, void *ctx,
                         sc_program_t *out);

/* sc_program_pack making only some of the rewrites: the rewrite that
 * begins at statement i of `in` (a statement split, or a run of statements
 * packed) is left out, its statements as written, when skip[i] (skip NULL:
 * every rewrite is made). starts (unless NULL; in->nstmts flags) gets 1
 * where a rewrite begins, made or not. Leaving one out moves no other. */
sc_err_t sc_program_pack_some(const sc_program_t *in, sc_interval_fn interval, void *ctx,
                              const unsigned char *skip, unsigned char *starts,
                              sc_program_t *out);

#endif
