/* Values per message size as platform files write them, SIZE:V[:V];...:
 * simcoll's properties (simcoll/LEVEL/send-overhead, ...) and SMPI's
 * settings in <config> (smpi/os, ...) share the syntax, each with its own
 * units and ranges.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_IO_PIECEWISE_H
#define SC_IO_PIECEWISE_H

#include <stdio.h>

#include "common/sc_error.h"
#include "models/platform.h"

/* The most fields of a segment handed to a sc_piecewise_segment_fn; a
 * segment may have more (SMPI ignores them). */
enum { SC_PIECEWISE_FIELDS = 3 };

/* Reads one segment into *seg: field[0] is its SIZE, field[1] and
 * field[2] its values (NULL beyond the nfield it has), `item` the segment
 * as written, for messages that start with `where`. */
typedef sc_err_t (*sc_piecewise_segment_fn)(const char *where, const char *item,
                                            char *const field[SC_PIECEWISE_FIELDS], int nfield,
                                            const void *arg, sc_segment_t *seg);

/* One dialect of the syntax. */
typedef struct {
    const char *syntax;              /* "SIZE:FACTOR;... (e.g. 0:0.6;65536:0.94)", for messages */
    const char *note;                /* what a message on a wrong count of fields adds, or "" */
    int min_fields, max_fields;      /* a segment's fields, SIZE included */
    sc_piecewise_segment_fn segment; /* the fields' values */
    const void *arg;                 /* for segment() */
} sc_piecewise_syntax_t;

/* Reads `text`, segments separated by ';' (empty ones skipped), fields by
 * ':', into *pw, sorted by size. SC_ERR_INPUT, each message starting with
 * `where`: a segment with too few or too many fields ("WHERE: segment
 * 'ITEM' is not SYNTAX NOTE"), more than SC_MAX_SEGMENTS, none at all
 * ("WHERE: no segment; use SYNTAX"), or what segment() refuses, in the
 * order written. Two segments of one size are the caller's to refuse
 * (sc_piecewise_repeated). */
sc_err_t sc_piecewise_parse(const char *where, const char *text,
                            const sc_piecewise_syntax_t *syntax, sc_piecewise_t *pw);

/* The first k > 0 whose segment starts where segment k - 1 does (pw
 * sorted), or 0 if none. */
int sc_piecewise_repeated(const sc_piecewise_t *pw);

/* Writes a piecewise function in the properties' syntax (SIZE:START:PER_BYTE
 * for overheads, SIZE:FACTOR for factors), exactly enough to read back. */
void sc_piecewise_write(FILE *f, const sc_piecewise_t *pw, int is_factor);

#endif
