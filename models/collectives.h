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
 * Closed forms below are for a single level without a header and with a
 * bandwidth factor of 1 (alpha = o_s + L + o_r eager or o_s + 3L + o_r
 * rendezvous, beta = 1/B), p ranks, m bytes per block/message; zero-byte
 * allgather and bcast return at once, as in MPICH. The gap g shows where a
 * node sends or receives messages faster than one per g; with one rank per
 * node, a round of one message each takes max(alpha, g) instead of alpha
 * (tests/unit/test_models.c checks ring and the barrier). */

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
 * the whole transfer (rendezvous) and p a power of two:
 * T = log2(p)(alpha + m beta); for other p, the latest leaf is reached in
 * fewer hops and T = ceil(log2 p)(alpha - o_r + m beta) + d o_r, d its depth. */
sc_err_t sc_model_bcast_binomial(const sc_model_t *model, size_t bytes,
                                 int root, double *t);

/* Binomial scatter of ceil(m/p)-byte chunks, then a ring allgather of the
 * chunks (van de Geijn). For m divisible by p, p a power of two and
 * rendezvous messages: T = (log2 p + p - 1) alpha + 2 (p-1)/p m beta. */
sc_err_t sc_model_bcast_scatter_allgather(const sc_model_t *model,
                                          size_t bytes, int root, double *t);

/* The same scatter, then a recursive-doubling allgather of the chunks
 * (MPICH's medium-message broadcast; p a power of two). For m divisible by
 * p and rendezvous messages: T = 2 log2(p) alpha + 2 (p-1)/p m beta. */
sc_err_t sc_model_bcast_scatter_rd(const sc_model_t *model, size_t bytes, int root,
                                   double *t);

/* Dissemination barrier: ceil(log2 p) rounds of zero-byte messages.
 * T = ceil(log2 p) (o_s + L + o_r). */
sc_err_t sc_model_barrier_dissemination(const sc_model_t *model, size_t bytes,
                                        int root, double *t);

/* Reductions (reference 000). L is the vector in bytes, gamma the time of
 * combining one byte (sc_model_reduce_time), N the largest power of two
 * <= p, r = p - N. Zero-length vectors return at once. The closed forms are
 * for one level with messages that hold both sides until delivered
 * (rendezvous), L divisible by the number of parts; tests/unit/
 * test_models.c checks each against the schedule replay.
 *
 * MST, p a power of two: T = log2 p (alpha + L beta + L gamma); allreduce
 * adds the binomial broadcast: log2 p (alpha + L beta). */
sc_err_t sc_model_reduce_mst(const sc_model_t *model, size_t bytes, int root, double *t);
sc_err_t sc_model_allreduce_mst(const sc_model_t *model, size_t bytes, int root, double *t);

/* RHRD, p a power of two, reduce and allreduce alike:
 *   T = 2 log2 p alpha + 2 (p-1)/p L beta + (p-1)/p L gamma. */
sc_err_t sc_model_reduce_rhrd(const sc_model_t *model, size_t bytes, int root, double *t);
sc_err_t sc_model_allreduce_rhrd(const sc_model_t *model, size_t bytes, int root, double *t);

/* The prior art (patent formulas (1) and (2)), r > 0:
 *   reduce    T = (2 + 2 log2 N) alpha + (3 - 2/N) L beta + (3/2 - 1/N) L gamma
 *   allreduce T = (3 + 2 log2 N) alpha + (4 - 2/N) L beta + (3/2 - 1/N) L gamma
 * r = 0 is RHRD. */
sc_err_t sc_model_reduce_mpich(const sc_model_t *model, size_t bytes, int root, double *t);
sc_err_t sc_model_allreduce_mpich(const sc_model_t *model, size_t bytes, int root, double *t);

/* The patent's method, r > 0, r even or odd alike. Along the critical path
 * (an S0 receiver, or Y for r = 1): its pair exchange (alpha + L/2 beta +
 * L/2 gamma), the merge (the same), RHRD on L/2 among N/2 (2 (log2 N - 1)
 * alpha + (1 - 2/N) L beta + (1/2 - 1/N) L gamma), the half sent back
 * (alpha + L/2 beta) and the final pair exchange (alpha + L/2 beta):
 *   allreduce T = (2 + 2 log2 N) alpha + (3 - 2/N) L beta + (3/2 - 1/N) L gamma
 * For reduce, the doubling is a gather (the same terms without gamma) and
 * step 5 is one message of L/2 from G2's first member to the root:
 *   reduce    T = (1 + 2 log2 N) alpha + (5/2 - 2/N) L beta + (3/2 - 1/N) L gamma
 * Against the prior art the method saves alpha + L beta (allreduce) and
 * alpha + L/2 beta (reduce). r = 0 is RHRD. */
sc_err_t sc_model_reduce_nonpow2(const sc_model_t *model, size_t bytes, int root, double *t);
sc_err_t sc_model_allreduce_nonpow2(const sc_model_t *model, size_t bytes, int root, double *t);

/* Ring reduce-scatter + ring allgather:
 *   T = 2 (p-1) alpha + 2 (p-1)/p L beta + (p-1)/p L gamma. */
sc_err_t sc_model_allreduce_ring(const sc_model_t *model, size_t bytes, int root, double *t);

/* MPICH's own reductions (algorithms/reduce/rabenseifner.c): whole vectors
 * folded from the first 2r ranks into r, then, r > 0, on one level:
 *   allreduce-rd             (2 + log2 N) alpha + (2 + log2 N) L beta
 *                            + (1 + log2 N) L gamma
 *   allreduce-rabenseifner   (2 + 2 log2 N) alpha + (2 + 2(N-1)/N) L beta
 *                            + (1 + (N-1)/N) L gamma
 *   reduce-rabenseifner      (1 + 2 log2 N) alpha + (1 + 2(N-1)/N) L beta
 *                            + (1 + (N-1)/N) L gamma
 * r = 0: log2 N (alpha + L beta + L gamma), and RHRD for the other two. */
sc_err_t sc_model_allreduce_rd(const sc_model_t *model, size_t bytes, int root, double *t);
sc_err_t sc_model_allreduce_rabenseifner(const sc_model_t *model, size_t bytes, int root,
                                         double *t);
sc_err_t sc_model_reduce_rabenseifner(const sc_model_t *model, size_t bytes, int root,
                                      double *t);

/* The largest power of two <= p (p >= 1): N of the reductions. */
int sc_pow2_below(int p);

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

/* public: in simcoll.h, the plug-ins' API (algorithms/plugin/) */
/* Elements lo..hi-1 of a vector, in reductions. */
typedef struct {
    size_t lo, hi;
} sc_span_t;
/* end public */

static inline size_t sc_span_len(sc_span_t s)
{
    return s.hi - s.lo;
}

/* The halves of a span: the lower one is floor(len/2) elements. Every
 * reduction algorithm splits vectors this way, so that partners agree on
 * sizes. */
static inline sc_span_t sc_span_half(sc_span_t s, int upper)
{
    size_t mid = s.lo + (s.hi - s.lo) / 2;
    return upper ? (sc_span_t){mid, s.hi} : (sc_span_t){s.lo, mid};
}

/* Part c of `count` nearly equal parts of n elements (ring allreduce). */
static inline sc_span_t sc_span_part(size_t n, int count, int c)
{
    return (sc_span_t){n * (size_t)c / (size_t)count, n * (size_t)(c + 1) / (size_t)count};
}

#endif
