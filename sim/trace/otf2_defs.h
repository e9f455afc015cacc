/* An OTF2 archive's global definitions (otf2_defs.c): its clock, regions,
 * ranks and communicators, as the reader of each rank's events (otf2.c)
 * takes them. Private to sim/trace/otf2*.c.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_OTF2_DEFS_H
#define SC_OTF2_DEFS_H

#include <otf2/otf2.h>

#include "reader.h"

/* What a region is to the replay. */
enum {
    SC_OTF2_REGION_USER,
    SC_OTF2_REGION_MPI,
    SC_OTF2_REGION_INIT,
    SC_OTF2_REGION_FINALIZE,
    SC_OTF2_REGION_SKIPPED
};

typedef struct {
    char *name;
    int kind;
} sc_otf2_region_t;

typedef struct {
    OTF2_GroupType type;
    int mpi;
    uint32_t n;
    uint64_t *members;
} sc_otf2_group_t;

typedef struct {
    OTF2_CommRef self;
    OTF2_StringRef name;
    OTF2_GroupRef group;
} sc_otf2_comm_def_t;

/* The archive, the trace's format (sc_trace_t's). */
typedef struct {
    uint64_t resolution, offset;
    char **strings;
    uint32_t nstrings;
    sc_otf2_region_t *regions;
    uint32_t nregions;
    sc_otf2_group_t *groups;
    uint32_t ngroups;
    sc_otf2_comm_def_t *comm_defs;
    uint32_t ncomm_defs;
    struct {
        OTF2_LocationRef ref;
        uint64_t events;
    } *locations;
    uint32_t nlocations;
    uint64_t *rank_location; /* by rank */
    uint64_t *rank_events;
    int *comm_index;         /* by OTF2 comm: ours; -3 for a rank's own (a SELF group) */
    uint32_t ncomm_index;
    int *self_comm;          /* by rank: its communicator of itself, -1 until made */
    char error[256];         /* libotf2's last complaint */
} sc_otf2_t;

/* The reader's detect, open and close (sc_trace_reader_t): open reads the
 * definitions into t->format, an sc_otf2_t, and sets the ranks and the
 * communicators. */
int sc_otf2_detect(const char *path, const unsigned char *head, size_t len);
sc_err_t sc_otf2_open(sc_trace_t *t);
void sc_otf2_close(sc_trace_t *t);

/* libotf2's complaints go to o->error from now on, cleared. */
void sc_otf2_errors_to(sc_otf2_t *o);

#endif
