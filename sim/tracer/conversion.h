/* The conversion of a traced run's spools into an OTF2 archive
 * (convert.h) in the parts its files share: convert.c runs the passes over
 * the spools, spool_read.c reads a rank's spool item by item, cut.c cuts
 * the ranks of a killed run to the calls that pair up, otf2_write.c writes
 * the archive. Private to them.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_TRACER_CONVERSION_H
#define SC_TRACER_CONVERSION_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spool.h"

/* libsimcoll-trace.so is preloaded into applications, whose names its
 * own must not meet: what these files share stays inside it. */
#pragma GCC visibility push(hidden)

/* An item of a spool, decoded (spool.h gives each kind's fields). */
typedef struct {
    int kind, fn;
    uint32_t n;        /* CALL: items before it in its call; COLL: the OTF2 operation;
                          COMM: size; MEMBERS: how many */
    int32_t peer, tag; /* COLL: peer is the root; COMM: this rank's rank in it */
    uint64_t comm;     /* the communicator's id (COMM: the one made) */
    uint64_t a, b;     /* bytes and request; COLL: sent and received; COMM: a, the parent */
    double t0, t1;     /* CALL: MPI_Wtime at its start and end */
    int members[10];
    char text[48]; /* HOST */
} rec_t;

typedef struct {
    uint64_t id, parent;
    int size;
    int *members; /* world ranks, from its first rank's spool; NULL until then */
    int nmembers;
    int definer;   /* its first rank (world), -1 until known */
    long def_call; /* the call that made it in the definer's spool */
    uint32_t ref;  /* OTF2's */
    int defined;   /* in the archive */
} comm_t;

/* A message's, collective's or communicator's place in a rank's calls,
 * for the cut. */
enum { I_SEND, I_RECV, I_COLL, I_USE };
typedef struct {
    uint64_t comm;
    int kind, rank, peer, tag; /* peer: the communicator's rank, then the world's */
    int src, dst;
    long call;
} item_t;

typedef struct {
    int rank;
    char path[4300];
    FILE *f;
    long index; /* frames read */
    unsigned char *frame;
    size_t flen, fcap, pos;
    uint32_t in_frame; /* items decoded of this frame */
    uint64_t *ids;     /* the ids of the communicators it made, by its numbers - 2 */
    size_t nids, cap_ids;
    int64_t last_end;   /* ns */
    const char *error;  /* why the last item could not be read */
    double sync, first; /* the barrier's instant; MPI_Init's start */
    char host[48];
    long calls; /* whole calls */
    int ended;  /* the spool reaches MPI_Finalize */
    long keep;  /* calls kept */
    char why[200];
    double shift; /* its clock minus rank 0's */
} rank_t;

typedef struct {
    const char *dir;
    rank_t *ranks;
    int n;
    comm_t *comms;
    size_t ncomms, cap_comms;
    size_t *comm_slots; /* hash of ids to comms[] index + 1 */
    size_t cap_slots;
    item_t *items;
    size_t nitems, cap_items;
    int cutting; /* some rank did not end: gather items */
    char *msg;
    size_t len;
    char otf2_error[300];
} conv_t;

/* Writes fmt's message into c->msg; returns code. */
int sc_conv_fail(conv_t *c, int code, const char *fmt, ...);

/* The communicator of id `id`; made (zeroed, no definer) if `create`.
 * NULL if unknown, or out of memory. */
comm_t *sc_conv_comm_get(conv_t *c, uint64_t id, int create);

/* A communicator's size and world rank of its rank `peer`, -1 if unknown. */
int sc_conv_world_of(conv_t *c, int rank, uint64_t comm, int peer);

/* ---- spool_read.c: a rank's spool ---- */

/* Opens r->path and checks its magic; 0, or 2 with c->msg. */
int sc_spool_open(conv_t *c, rank_t *r);

/* The next item: 1, 0 at the end (a frame cut short by the run's end is
 * no frame), -1 where the spool is damaged (r->error says how). */
int sc_spool_next(rank_t *r, rec_t *rec);

/* 2, c->msg saying where r's spool is damaged and how (r->error, else
 * `what`). */
int sc_spool_bad(conv_t *c, const rank_t *r, const char *what);

/* The first frame, HEADER and HOST: r's clock and host, *size the
 * world's; 0, or 2 with c->msg. */
int sc_spool_read_head(conv_t *c, rank_t *r, int *size);

/* Whether a spool ends with its END frame. */
int sc_spool_ended(const char *path);

/* ---- cut.c: a killed run's ranks cut where they pair up ---- */

/* Whether a communicator's making is in the calls kept, with its
 * members (the world and self always). */
int sc_conv_usable(conv_t *c, uint64_t comm);

/* Each rank's calls kept (its keep and why), from the items pass 1
 * gathered; 0, or 1 out of memory. */
int sc_conv_cut(conv_t *c);

/* ---- otf2_write.c: the archive ---- */

/* Writes DIR/traces.otf2 of every rank's kept calls, what an earlier
 * unfinished conversion left removed first; `zero` is the run's start on
 * rank 0's clock, *total the events written. 0, or 1 with c->msg. */
int sc_conv_write_archive(conv_t *c, double zero, uint64_t *total);

#pragma GCC visibility pop

#endif
