/* The numbered message streams between a rank and each of its peers, by
 * which the transport and the replay take a peer's EAGER and RTS
 * envelopes in the order they were sent (sim/protocol/protocol.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_STREAMS_H
#define SC_STREAMS_H

typedef struct {
    int peer;
    unsigned next_out, next_in; /* numbers of the next envelope each way */
} sc_stream_t;

/* A rank's streams, sorted by peer: a rank talks to few peers. */
typedef struct {
    sc_stream_t *v;
    int n, cap;
} sc_streams_t;

/* The stream shared with `peer`, created on first use; NULL if out of
 * memory. The pointer is valid until the next call. */
sc_stream_t *sc_stream(sc_streams_t *streams, int peer);

void sc_streams_free(sc_streams_t *streams);

#endif
