/* Automatic packing and splitting of messages (reference 002).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "pack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/kinds.h"

/* A fall of more than this share of the bandwidth from one size to the
 * next is the "sudden drop" of step 3.2. Simulated curves have no noise;
 * the threshold only ignores the wiggles of flows sharing links. */
#define SUDDEN_DROP 0.01

sc_err_t sc_interval_find(const double *bytes, const double *seconds, int n, double from,
                          sc_interval_t *interval, int *found)
{
    if (n < 3)
        return sc_error(SC_ERR_INPUT, "a bandwidth curve needs three sizes at least, got %d", n);
    for (int i = 0; i < n; i++)
        if (!(seconds[i] > 0) || !(bytes[i] > 0) || (i && !(bytes[i] > bytes[i - 1])))
            return sc_error(SC_ERR_INPUT,
                            "a bandwidth curve needs increasing sizes and positive times; point "
                            "%d is %g bytes in %g s",
                            i + 1, bytes[i], seconds[i]);
    *found = 0;
    size_t max = (size_t)bytes[n - 1];
    for (int i = 0; i + 1 < n && !*found; i++) {
        double here = bytes[i] / seconds[i], next = bytes[i + 1] / seconds[i + 1];
        if (bytes[i + 1] <= from || next >= (1 - SUDDEN_DROP) * here)
            continue;
        for (int j = i + 2; j < n && !*found; j++)
            if (bytes[j] / seconds[j] > next) {
                *found = 1;
                max = (size_t)bytes[i];
            }
    }
    *interval = (sc_interval_t){max / 2, max};
    return SC_OK;
}

int sc_stmt_same_type(const sc_stmt_t *a, const sc_stmt_t *b)
{
    if (a->kind != b->kind)
        return 0;
    switch (a->kind) {
    case SC_STMT_CALL:
        return a->collective == b->collective && a->choice.algo == b->choice.algo &&
               a->choice.profile == b->choice.profile && a->root == b->root &&
               a->op == b->op && a->type == b->type;
    case SC_STMT_HALO:
        return a->grid.ndims == b->grid.ndims && a->grid.periodic == b->grid.periodic &&
               memcmp(a->grid.dims, b->grid.dims, sizeof a->grid.dims) == 0;
    case SC_STMT_SEND: return a->from == b->from && a->to == b->to;
    default: return 0;
    }
}

sc_err_t sc_split_sizes(size_t bytes, sc_interval_t interval, size_t align, size_t *chunks,
                        int cap, int *n)
{
    size_t lo = interval.min / align * align, hi = interval.max / align * align;
    if (hi < align)
        hi = align;
    if (lo > hi)
        lo = hi;
    for (;;) {
        size_t rest = bytes % hi;
        if (rest == 0 || rest >= lo)
            break;
        size_t narrower = (hi + lo) / 2 / align * align;
        if (narrower >= hi || narrower < lo || narrower == 0)
            break; /* max cannot shrink further: keep the remainder as it is */
        hi = narrower;
    }
    size_t whole = bytes / hi, rest = bytes % hi;
    if (whole + (rest > 0) > (size_t)cap)
        return sc_error(SC_ERR_INPUT,
                        "splitting %zu bytes into chunks of %zu would make %zu messages; at most "
                        "%d",
                        bytes, hi, whole + (rest > 0), cap);
    *n = 0;
    for (size_t k = 0; k < whole; k++)
        chunks[(*n)++] = hi;
    if (rest)
        chunks[(*n)++] = rest;
    return SC_OK;
}

/* ---- The rewriting ---- */

typedef struct {
    sc_program_t *out;
    int cap;
} writer_t;

static sc_err_t emit(writer_t *w, const sc_stmt_t *st, const sc_piece_t *pieces, int npieces,
                     size_t bytes)
{
    sc_program_t *out = w->out;
    if (out->nstmts == w->cap) {
        int cap = w->cap ? 2 * w->cap : 16;
        sc_stmt_t *more = realloc(out->stmts, (size_t)cap * sizeof *more);
        if (!more)
            return sc_error(SC_ERR_RUN, "out of memory packing a program");
        out->stmts = more;
        w->cap = cap;
    }
    sc_stmt_t *copy = &out->stmts[out->nstmts];
    *copy = *st;
    copy->pieces = NULL;
    copy->npieces = 0;
    copy->bytes = bytes;
    if (npieces) {
        copy->pieces = malloc((size_t)npieces * sizeof *pieces);
        if (!copy->pieces)
            return sc_error(SC_ERR_RUN, "out of memory packing a program");
        memcpy(copy->pieces, pieces, (size_t)npieces * sizeof *pieces);
        copy->npieces = npieces;
    }
    out->nstmts++;
    return SC_OK;
}

/* Elements may not be cut in two. */
static size_t alignment(const sc_stmt_t *st)
{
    if (st->kind == SC_STMT_CALL && sc_kind(st->collective)->is_reduction)
        return sc_type_size(st->type);
    return 1;
}

static int rewritable(const sc_stmt_t *st)
{
    return (st->kind == SC_STMT_CALL || st->kind == SC_STMT_HALO || st->kind == SC_STMT_SEND) &&
           st->npieces == 1 && st->bytes > 0;
}

static sc_err_t split(writer_t *w, const sc_stmt_t *st, sc_interval_t iv)
{
    enum { MOST_CHUNKS = 1 << 16 };
    size_t *chunks = malloc(MOST_CHUNKS * sizeof *chunks);
    int n = 0;
    sc_err_t err = chunks ? sc_split_sizes(st->bytes, iv, alignment(st), chunks, MOST_CHUNKS, &n)
                          : sc_error(SC_ERR_RUN, "out of memory packing a program");
    if (err == SC_ERR_INPUT && st->line > 0) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", sc_error_message());
        err = sc_error(SC_ERR_INPUT, "%s:%d: %s", w->out->path, st->line, msg);
    }
    size_t offset = st->pieces[0].offset;
    for (int k = 0; !err && k < n; k++) {
        sc_piece_t piece = st->pieces[0];
        piece.offset = offset;
        piece.bytes = chunks[k];
        offset += chunks[k];
        err = emit(w, st, &piece, 1, chunks[k]);
    }
    free(chunks);
    return err;
}

/* A communication of no bytes (allreduce 0): it carries no data and
 * depends on nothing, so a run of packed statements passes over it and it
 * runs after the packed one. A barrier carries none either, but it orders
 * the ranks: never passed over. */
static int empty_message(const sc_stmt_t *st)
{
    return (st->kind == SC_STMT_HALO || st->kind == SC_STMT_SEND ||
            (st->kind == SC_STMT_CALL && sc_kind(st->collective)->has_data)) &&
           st->bytes == 0;
}

/* The statements i.. that pack with statement i: consecutive but for empty
 * messages, the same type, each below min, none depending on another,
 * until the total reaches min. Returns how many statements the run spans,
 * empty ones inside it counted (1: none packs with it). */
static int pack_run(const sc_program_t *in, int i, sc_interval_t iv, size_t *total)
{
    const sc_stmt_t *first = &in->stmts[i];
    int n = 1, span = 1;
    *total = first->bytes;
    while (*total < iv.min && i + n < in->nstmts) {
        const sc_stmt_t *next = &in->stmts[i + n];
        if (empty_message(next)) {
            n++;
            continue;
        }
        if (!rewritable(next) || !sc_stmt_same_type(first, next) || next->bytes >= iv.min)
            break;
        int depends = 0;
        for (int k = 0; k < n && !depends; k++)
            depends = !empty_message(&in->stmts[i + k]) && sc_stmt_depends(&in->stmts[i + k], next);
        if (depends)
            break;
        *total += next->bytes;
        span = ++n;
    }
    return span;
}

/* The n statements from i packed into one, then the empty messages among
 * them as they are. */
static sc_err_t pack(writer_t *w, const sc_program_t *in, int i, int n, size_t total)
{
    sc_piece_t *pieces = malloc((size_t)n * sizeof *pieces);
    if (!pieces)
        return sc_error(SC_ERR_RUN, "out of memory packing a program");
    int npieces = 0;
    for (int k = 0; k < n; k++)
        if (!empty_message(&in->stmts[i + k]))
            pieces[npieces++] = in->stmts[i + k].pieces[0];
    sc_err_t err = emit(w, &in->stmts[i], pieces, npieces, total);
    free(pieces);
    for (int k = 0; k < n && !err; k++) {
        const sc_stmt_t *st = &in->stmts[i + k];
        if (empty_message(st))
            err = emit(w, st, st->pieces, st->npieces, st->bytes);
    }
    return err;
}

sc_err_t sc_program_pack(const sc_program_t *in, sc_interval_fn interval, void *ctx,
                         sc_program_t *out)
{
    return sc_program_pack_some(in, interval, ctx, NULL, NULL, out);
}

sc_err_t sc_program_pack_some(const sc_program_t *in, sc_interval_fn interval, void *ctx,
                              const unsigned char *skip, unsigned char *starts,
                              sc_program_t *out)
{
    sc_program_t buffers_only = *in;
    buffers_only.stmts = NULL;
    buffers_only.nstmts = 0;
    sc_err_t err = sc_program_copy(&buffers_only, out);
    if (err)
        return err;
    free(out->stmts);
    out->stmts = NULL;
    writer_t w = {out, 0};
    int open[SC_PROGRAM_MAX_DEPTH], depth = 0;
    if (starts)
        memset(starts, 0, (size_t)in->nstmts);
    for (int i = 0; !err && i < in->nstmts; i++) {
        const sc_stmt_t *st = &in->stmts[i];
        sc_interval_t iv;
        if (!rewritable(st)) {
            if (st->kind == SC_STMT_LOOP)
                open[depth++] = out->nstmts;
            if (st->kind == SC_STMT_END) {
                int loop = open[--depth];
                out->stmts[loop].end = out->nstmts;
            }
            err = emit(&w, st, st->pieces, st->npieces, st->bytes);
            if (!err && st->kind == SC_STMT_END)
                out->stmts[out->nstmts - 1].end = open[depth];
            continue;
        }
        if ((err = interval(ctx, st, &iv)))
            break;
        size_t total = st->bytes;
        int n = st->bytes < iv.min ? pack_run(in, i, iv, &total) : 1;
        int rewrites = st->bytes > iv.max || n > 1;
        /* A rewrite left out leaves all its statements as they are, so
         * that the rewrites after it begin where they did. */
        int made = rewrites && !(skip && skip[i]);
        if (starts)
            starts[i] = (unsigned char)rewrites;
        if (made && st->bytes > iv.max)
            err = split(&w, st, iv);
        else if (made)
            err = pack(&w, in, i, n, total);
        for (int k = 0; !made && !err && k < n; k++)
            err = emit(&w, &in->stmts[i + k], in->stmts[i + k].pieces, in->stmts[i + k].npieces,
                       in->stmts[i + k].bytes);
        i += n - 1;
    }

    long statements, communications;
    if (!err) {
        sc_program_count(out, &statements, &communications);
        if (statements > SC_PROGRAM_MAX_CALLS)
            err = sc_error(SC_ERR_INPUT,
                           "%s: packed and split, the program would run %ld statements, loops "
                           "multiplied out; at most %ld",
                           in->path, statements, SC_PROGRAM_MAX_CALLS);
    }
    if (err)
        sc_program_destroy(out);
    return err;
}
