/* What a trace format's reader implements, and what trace.c gives every
 * reader: communicators, names of what is skipped, file buffers. Private
 * to sim/trace/.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_TRACE_READER_H
#define SC_TRACE_READER_H

#include "trace.h"

/* One format. A reader's rank state reads one rank's events in order. */
typedef struct {
    const char *name;
    /* Whether the first bytes of a file (`head`, `len` of them) are this
     * format's anchor. */
    int (*detect)(const char *path, const unsigned char *head, size_t len);
    /* Reads the anchor: sets the trace's ranks (sc_trace_set_ranks) and any
     * communicator the format defines up front. */
    sc_err_t (*open)(sc_trace_t *t);
    sc_err_t (*rank_open)(sc_trace_t *t, int rank, void **state);
    /* 1 and *ev, 0 at the rank's end, -1 with sc_error set. Communicator
     * ranks in ev may be those of a communicator created by the rank's own
     * events (sc_trace_comm_created). */
    int (*next)(void *state, sc_tev_t *ev);
    /* "FILE:LINE" or "FILE, record N": where the rank's last event was. */
    void (*where)(void *state, char *out, size_t len);
    void (*rank_close)(void *state);
    void (*close)(sc_trace_t *t);
} sc_trace_reader_t;

extern const sc_trace_reader_t sc_trace_ti_reader;
extern const sc_trace_reader_t sc_trace_dumpi_reader;
#ifdef SC_HAVE_OTF2
extern const sc_trace_reader_t sc_trace_otf2_reader;
#endif

/* The trace a reader fills. */
struct sc_trace {
    const sc_trace_reader_t *reader;
    char *path;   /* the anchor as given */
    char *dir;    /* its folder, for the files it names */
    int nranks;
    sc_trace_comm_t *comms;
    int ncomms, cap_comms;
    void *format; /* the reader's own */
    /* Communicators made by the ranks' own calls (split, dup, create),
     * known by the call that made them: see sc_trace_comm_created. */
    struct sc_trace_made *made;
    int nmade, cap_made;
    int scanned;  /* sc_trace_scan has run: communicators are complete */
    /* What the scan skipped, by name (the summary's). */
    struct sc_trace_skip *skipped;
    int nskipped;
    int scanning; /* inside sc_trace_scan: skips are counted */
    /* The collective kinds each communicator is called with, in the order
     * the scan's check first met them (sc_trace_collective_use). */
    struct sc_trace_use {
        sc_tcoll_t coll;
        int comm;
    } * uses;
    size_t nuses, cap_uses;
    uint32_t *coll_seen; /* by communicator: a bit by sc_tcoll_t */
    int nseen;           /* communicators coll_seen covers */
};

/* Sets the number of ranks (at least 1) and makes communicator 0, the
 * world. */
sc_err_t sc_trace_set_ranks(sc_trace_t *t, int nranks);

/* Adds a communicator of `size` ranks, members[i] the world rank of rank
 * i (copied); its index, or -1 with sc_error set if out of memory. */
int sc_trace_add_comm(sc_trace_t *t, int size, const int *members);

/* The ranks of a communicator a rank's call creates, as the call says:
 * split: `color` (negative: MPI_UNDEFINED, no communicator) and `key`;
 * dup: color 0, key the rank in the parent; create: the new group's world
 * ranks `group` (`ngroup` of them, in the new ranks' order). */
typedef enum { SC_MADE_SPLIT, SC_MADE_DUP, SC_MADE_CREATE } sc_made_kind_t;

/* A rank's call made a communicator from `parent`: the `seq`-th (from 0)
 * call of the rank that made one from this parent (MPI requires every
 * member of the parent to make them in the same order). The same index
 * for every rank the call puts in the same communicator. During the scan
 * its members are collected, and complete when the scan ends (ordered by
 * key, then by rank in the parent, as MPI orders them); after it, the
 * communicator is looked up. -1 with sc_error set if it cannot be (the
 * call does not agree with the others'), -2 for "no communicator"
 * (MPI_COMM_NULL: a negative color, or a group without the rank). */
int sc_trace_comm_created(sc_trace_t *t, int world_rank, int parent, long seq,
                          sc_made_kind_t kind, int color, int key, const int *group, int ngroup);

/* Counts something a rank recorded that cannot be replayed (during the
 * scan; nothing otherwise): `name` ("MPI_File_write", "RMA put") and the
 * recorded seconds inside it (0 if unknown). */
void sc_trace_skip(sc_trace_t *t, const char *name, double seconds);

/* The file a trace names, relative to the anchor's folder unless absolute
 * (malloc'd; NULL if out of memory). */
char *sc_trace_file(const sc_trace_t *t, const char *name);

/* ---- Buffered reading of many files at once ---- */

/* A file read in order through a buffer of its own; the descriptor is
 * open only while a bounded number of files are (a pool shared by every
 * sc_tfile_t), so that a cursor per rank of thousands of ranks does not
 * hold a descriptor each. */
typedef struct sc_tfile {
    char *path;
    int fd;                  /* -1 while closed */
    long long pos;           /* the file offset of buf[len] */
    long long size;          /* when opened: where reading ends */
    unsigned char *buf;
    size_t start, len, cap;  /* unread bytes are buf[start .. len) */
    int eof;
    struct sc_tfile *older, *newer; /* in the pool of open files */
} sc_tfile_t;

/* Opens `path` for reading: SC_ERR_INPUT "WHAT 'PATH': why" if it cannot
 * be read. The file is read as it was then, up to the size it had: what
 * is written to it later is not read. One its buffer holds whole is read
 * at once and closed. */
sc_err_t sc_tfile_open(sc_tfile_t *f, const char *path, const char *what);
void sc_tfile_close(sc_tfile_t *f);

/* The next line without its end (\n or \r\n), NUL-terminated in the
 * buffer, valid until the next call; NULL at the end or on error
 * (*failed set, sc_error set). A last line without its end counts. Lines
 * longer than the buffer's 1 MiB limit are an error. */
char *sc_tfile_line(sc_tfile_t *f, int *failed);

/* Copies the next n bytes into out: 1; 0 when the file has ended before
 * them (none left); -1 when it ends part way through them (the caller
 * says the file is truncated); -2 on a read error (sc_error set). */
int sc_tfile_read(sc_tfile_t *f, void *out, size_t n);

/* Moves to absolute offset `pos`. */
sc_err_t sc_tfile_seek(sc_tfile_t *f, long long pos);

/* The file offset of the next unread byte. */
long long sc_tfile_tell(const sc_tfile_t *f);

#endif
