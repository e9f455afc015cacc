/* The arithmetic of collective schedules that several algorithms share:
 * powers of two, binomial trees, chunks and spans of vectors.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_STEPS_H
#define SC_STEPS_H

#include <stddef.h>

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
 * or empty): the scatter-allgather broadcasts' pieces. */
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
