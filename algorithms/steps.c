/* The arithmetic of collective schedules (steps.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "steps.h"

int sc_pow2_below(int p)
{
    int n = 1;
    while (n <= p / 2)
        n *= 2;
    return n;
}

int sc_ceil_log2(int p)
{
    int k = 0;
    while ((1 << k) < p)
        k++;
    return k;
}

int sc_binomial_mask(int rel, int p)
{
    return rel ? rel & -rel : 1 << sc_ceil_log2(p);
}

size_t sc_chunk_span_bytes(size_t bytes, int nchunks, int first, int count)
{
    size_t chunk = (bytes + (size_t)nchunks - 1) / (size_t)nchunks;
    size_t lo = (size_t)first * chunk, hi = (size_t)(first + count) * chunk;
    if (lo > bytes)
        lo = bytes;
    if (hi > bytes)
        hi = bytes;
    return hi - lo;
}
