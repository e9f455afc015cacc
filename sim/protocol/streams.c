/* The numbered message streams between a rank and its peers.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "streams.h"

#include <stdlib.h>
#include <string.h>

sc_stream_t *sc_stream(sc_streams_t *streams, int peer)
{
    int lo = 0, hi = streams->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (streams->v[mid].peer < peer)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < streams->n && streams->v[lo].peer == peer)
        return &streams->v[lo];
    if (streams->n == streams->cap) {
        /* Most algorithms' ranks have a few dozen peers (Bruck on a million
         * ranks: 40), a million ranks at once: room for 8 more wastes at
         * most 96 bytes a rank where doubling wasted up to half (room for
         * 64, 768 bytes, for Bruck's 40). Past 64 peers (an alltoall, a
         * trace's), doubling keeps the copies linear. */
        int cap = streams->cap < 64 ? streams->cap + 8 : 2 * streams->cap;
        sc_stream_t *v = realloc(streams->v, (size_t)cap * sizeof *v);
        if (!v)
            return NULL;
        streams->v = v;
        streams->cap = cap;
    }
    memmove(&streams->v[lo + 1], &streams->v[lo], (size_t)(streams->n - lo) * sizeof *streams->v);
    streams->v[lo] = (sc_stream_t){peer, 0, 0};
    streams->n++;
    return &streams->v[lo];
}

void sc_streams_free(sc_streams_t *streams)
{
    free(streams->v);
    *streams = (sc_streams_t){0};
}
