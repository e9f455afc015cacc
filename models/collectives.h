/* Cost predictions of each collective algorithm, schedule by schedule.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_COLLECTIVES_MODEL_H
#define SC_COLLECTIVES_MODEL_H

#include "cost.h"

/* Each function follows sc_model_fn: it replays the algorithm's schedule
 * (who sends how much to whom, in which order) as published, costs every
 * message with cost.h, and so predicts every rank's finish time exactly
 * when no two messages share a link. It does not call the algorithm's code,
 * so comparing the two checks the implementation.
 *
 * Closed forms below are for a single level (alpha = o + L eager or o + 3L
 * rendezvous, beta = 1/B), p ranks, m bytes per block/message; zero-byte
 * allgather and bcast return at once, as in MPICH. */

/* Ring: p-1 rounds of one block. T = (p-1)(alpha + m beta). */
sc_err_t sc_model_allgather_ring(const sc_model_t *model, size_t bytes,
                                 int root, double *t);

/* Recursive doubling (p a power of two): round k exchanges 2^k blocks.
 * T = log2(p) alpha + (p-1) m beta. */
sc_err_t sc_model_allgather_rd(const sc_model_t *model, size_t bytes, int root,
                               double *t);

/* Bruck: ceil(log2 p) rounds, round k sends min(2^k, p-2^k) blocks.
 * T = ceil(log2 p) alpha + (p-1) m beta. */
sc_err_t sc_model_allgather_bruck(const sc_model_t *model, size_t bytes,
                                  int root, double *t);

/* The exch variants (Kurnosov, Paznikov; lecture 13): one exchange of the
 * own block with the ranks given by the mapping, then the base schedule
 * played through it. The reorder variants cost what their base algorithm
 * costs played through the mapping: sc_model_allgather_rd, _bruck, _ring
 * with model->pi set. */
sc_err_t sc_model_allgather_rd_exch(const sc_model_t *model, size_t bytes, int root,
                                    double *t);
sc_err_t sc_model_allgather_bruck_exch(const sc_model_t *model, size_t bytes, int root,
                                       double *t);

/* Binomial tree with blocking sends. With sends that hold the sender for
 * the whole transfer (rendezvous): T = ceil(log2 p)(alpha + m beta). */
sc_err_t sc_model_bcast_binomial(const sc_model_t *model, size_t bytes,
                                 int root, double *t);

/* Binomial scatter of ceil(m/p)-byte chunks, then a ring allgather of the
 * chunks (van de Geijn). For m divisible by p, p a power of two and
 * rendezvous messages: T = (log2 p + p - 1) alpha + 2 (p-1)/p m beta. */
sc_err_t sc_model_bcast_scatter_allgather(const sc_model_t *model,
                                          size_t bytes, int root, double *t);

/* Dissemination barrier: ceil(log2 p) rounds of zero-byte messages.
 * T = ceil(log2 p) (o + L). */
sc_err_t sc_model_barrier_dissemination(const sc_model_t *model, size_t bytes,
                                        int root, double *t);

/* ceil(log2 p): the rounds of Bruck, recursive doubling, dissemination. */
int sc_ceil_log2(int p);

/* The binomial tree rooted at relative rank 0 over p ranks: relative rank
 * rel > 0 receives from rel - mask, where mask is its lowest set bit; every
 * rank sends to rel + m for the powers of two m below its mask, largest
 * first (the root's mask is the smallest power of two >= p). */
int sc_binomial_mask(int rel, int p);

/* Bytes held by chunks first..first+count-1 when `bytes` are cut into
 * `nchunks` chunks of ceil(bytes/nchunks) bytes (the last ones may be short
 * or empty). Shared by the scatter-allgather broadcast and its model. */
size_t sc_chunk_span_bytes(size_t bytes, int nchunks, int first, int count);

#endif
