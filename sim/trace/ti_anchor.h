/* An SMPI time-independent trace's anchor, as ti_anchor.c detects and
 * opens it: an action file holding every rank's lines, kept, or an index
 * naming a file per rank. What each rank's reader (ti.c) takes from it.
 * Private to sim/trace/ti.c and ti_anchor.c.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SC_TI_ANCHOR_H
#define SC_TI_ANCHOR_H

#include "reader.h"

/* An action line of a file of every rank's lines: where its text is in
 * the copy kept, its line number, and the next line of its rank. */
typedef struct {
    size_t at;
    long lineno;
    long next; /* -1: the rank's last */
} sc_ti_kept_line_t;

/* The trace's format (sc_trace_t's `format`). */
typedef struct {
    char **files; /* by rank; all the same for an action file of every rank */
    int shared;   /* one file holds every rank's lines */
    /* That file, read once at opening and kept: each rank reads its own
     * lines from here, rather than every rank the whole file (quadratic in
     * the ranks). */
    char *text; /* its action lines, each NUL-ended */
    size_t text_len, text_cap;
    sc_ti_kept_line_t *lines;
    size_t nlines, cap_lines;
    long *first; /* by rank: its first line, -1 if none */
} sc_ti_anchor_t;

/* The reader's detect, open and close (sc_trace_reader_t): open sets
 * t->format to an sc_ti_anchor_t, which close frees. */
int sc_ti_anchor_detect(const char *path, const unsigned char *head, size_t len);
sc_err_t sc_ti_anchor_open(sc_trace_t *t);
void sc_ti_anchor_close(sc_trace_t *t);

/* The first token of a line as a rank number, or -1. */
int sc_ti_rank_token(const char *line);

/* Whether a line is blank or a comment, saying nothing. */
int sc_ti_says_nothing(const char *line);

#endif
