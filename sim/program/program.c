/* Programs: building, copying, resolving against a process count, and
 * the questions the run loop and the packing transform ask of them.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "program.h"

#include "algorithms/kinds.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Messages about a statement of a file carry its "PATH:LINE: " (sc_error_at);
 * a program built from the command line has no path, and its messages name
 * the value alone. */
static const char *where(const sc_program_t *prog, const sc_stmt_t *st)
{
    return st->line > 0 ? prog->path : NULL;
}

sc_err_t sc_program_check(const sc_program_t *prog)
{
    for (int i = 0; i < prog->nstmts; i++) {
        const sc_stmt_t *st = &prog->stmts[i];
        if (st->kind != SC_STMT_CALL || !sc_kind(st->collective)->is_reduction)
            continue;
        size_t elem = sc_type_size(st->type);
        if (sc_op_check(st->op, st->type))
            return sc_error_at(where(prog, st), st->line, "%s", sc_error_message());
        if (st->bytes % elem)
            return sc_error_at(where(prog, st), st->line,
                               "%s of %zu bytes: a vector of %s is a multiple of %zu bytes (use "
                               "%zu or %zu)",
                               sc_kind(st->collective)->name, st->bytes, sc_type_name(st->type),
                               elem, st->bytes / elem * elem, (st->bytes / elem + 1) * elem);
    }
    return SC_OK;
}

void sc_program_destroy(sc_program_t *prog)
{
    for (int i = 0; i < prog->nstmts; i++)
        free(prog->stmts[i].pieces);
    for (int b = 0; b < prog->nbuffers; b++)
        free(prog->buffers[b].name);
    free(prog->stmts);
    free(prog->buffers);
    free(prog->path);
    *prog = (sc_program_t){0};
}

sc_err_t sc_program_copy(const sc_program_t *from, sc_program_t *to)
{
    *to = (sc_program_t){0};
    to->path = from->path ? strdup(from->path) : NULL;
    to->stmts = calloc((size_t)from->nstmts + 1, sizeof *to->stmts);
    to->buffers = calloc((size_t)from->nbuffers + 1, sizeof *to->buffers);
    int ok = (!from->path || to->path) && to->stmts && to->buffers;
    for (int i = 0; ok && i < from->nstmts; i++) {
        const sc_stmt_t *st = &from->stmts[i];
        to->stmts[i] = *st;
        to->stmts[i].pieces = NULL;
        to->nstmts++;
        if (st->npieces) {
            to->stmts[i].pieces = malloc((size_t)st->npieces * sizeof *st->pieces);
            ok = to->stmts[i].pieces != NULL;
            if (ok)
                memcpy(to->stmts[i].pieces, st->pieces, (size_t)st->npieces * sizeof *st->pieces);
        }
    }
    for (int b = 0; ok && b < from->nbuffers; b++) {
        to->buffers[b].name = strdup(from->buffers[b].name);
        ok = to->buffers[b].name != NULL;
        to->nbuffers += ok;
    }
    if (!ok) {
        sc_program_destroy(to);
        return sc_error(SC_ERR_RUN, "out of memory copying a program");
    }
    return SC_OK;
}

sc_err_t sc_program_one_call(const sc_algo_t *algo, size_t bytes, int root, sc_op_t op,
                             sc_type_t type, sc_program_t *prog)
{
    *prog = (sc_program_t){0};
    prog->stmts = calloc(1, sizeof *prog->stmts);
    prog->buffers = calloc(2, sizeof *prog->buffers);
    int data = algo->collective != SC_BARRIER;
    sc_piece_t *piece = data ? malloc(sizeof *piece) : NULL;
    if (prog->stmts && prog->buffers && (piece || !data)) {
        prog->buffers[0].name = strdup("in");
        prog->buffers[1].name = strdup("out");
    }
    if (!prog->stmts || !prog->buffers || (data && !piece) || !prog->buffers[0].name ||
        !prog->buffers[1].name) {
        free(piece);
        if (prog->buffers) {
            free(prog->buffers[0].name);
            free(prog->buffers[1].name);
        }
        free(prog->buffers);
        free(prog->stmts);
        *prog = (sc_program_t){0};
        return sc_error(SC_ERR_RUN, "out of memory");
    }
    prog->nbuffers = 2;
    /* In place for the broadcast, which has one buffer. */
    int out = algo->collective == SC_BCAST ? 0 : 1;
    if (piece)
        *piece = (sc_piece_t){0, out, 0, bytes, bytes, 0, 0};
    prog->stmts[0] = (sc_stmt_t){.kind = SC_STMT_CALL, .collective = algo->collective,
                                 .choice = {.algo = algo}, .bytes = bytes, .root = root,
                                 .op = op, .type = type, .pieces = piece, .npieces = data};
    prog->nstmts = 1;
    return SC_OK;
}

/* Factors p into n dimensions as balanced as possible, largest first, as
 * MPI_Dims_create does. */
static void balanced_dims(int p, int n, int *dims)
{
    for (int k = 0; k < n; k++)
        dims[k] = 1;
    /* Deal p's prime factors, largest first, to the smallest dimension. */
    int factors[32], nf = 0;
    for (int f = 2, rest = p; rest > 1; f++) {
        if ((long)f * f > rest)
            f = rest;
        while (rest % f == 0) {
            factors[nf++] = f;
            rest /= f;
        }
    }
    for (int i = nf - 1; i >= 0; i--) {
        int smallest = 0;
        for (int k = 1; k < n; k++)
            if (dims[k] < dims[smallest])
                smallest = k;
        dims[smallest] *= factors[i];
    }
    for (int i = 0; i < n; i++)
        for (int k = i + 1; k < n; k++)
            if (dims[k] > dims[i]) {
                int t = dims[i];
                dims[i] = dims[k];
                dims[k] = t;
            }
}

static sc_err_t resolve_halo(const sc_program_t *prog, sc_stmt_t *st, int p)
{
    if (st->grid.dims[0] == 0) {
        balanced_dims(p, st->grid.ndims, st->grid.dims);
        return SC_OK;
    }
    double ranks = 1; /* up to 2^72: exact while it can equal p */
    char grid[64] = "";
    for (int k = 0; k < st->grid.ndims; k++) {
        ranks *= st->grid.dims[k];
        snprintf(grid + strlen(grid), sizeof grid - strlen(grid), "%s%d", k ? "x" : "",
                 st->grid.dims[k]);
    }
    if (ranks != p)
        return sc_error_at(where(prog, st), st->line,
                           "halo dims=%s is a grid of %.0f ranks, but the run has %d; give a grid "
                           "of %d ranks or dims=%d to let simcoll choose one",
                           grid, ranks, p, p, st->grid.ndims);
    return SC_OK;
}

/* The algorithm of a call or of an until loop's allreduce: its own, its
 * profile's choice or the fallback profile's; checked against p. */
static sc_err_t choose_algo(const sc_program_t *prog, sc_stmt_t *st, int p, const int *node_of,
                            const sc_profile_t *fallback)
{
    const sc_profile_t *profile = st->choice.profile ? st->choice.profile : fallback;
    if (st->choice.algo) {
        st->algo = st->choice.algo;
    } else if (profile) {
        sc_call_t call = {st->collective, st->bytes, p, node_of, st->type};
        st->algo = sc_profile_choose(profile, &call);
        if (!st->algo) {
            sc_profile_no_rule(profile, st->collective);
            return sc_error_at(where(prog, st), st->line, "%s", sc_error_message());
        }
    } else {
        return sc_error_at(where(prog, st), st->line,
                           "%s names no algorithm: give algo=NAME or mpi=PROFILE, or run "
                           "the program with --mpi PROFILE",
                           st->kind == SC_STMT_LOOP ? "until" : sc_collective_name(st->collective));
    }
    if (sc_algo_check(st->algo, p))
        return sc_error_at(where(prog, st), st->line, "%s", sc_error_message());
    return SC_OK;
}

sc_err_t sc_program_resolve(sc_program_t *prog, int p, const int *node_of,
                            const sc_profile_t *fallback)
{
    for (int i = 0; i < prog->nstmts; i++) {
        sc_stmt_t *st = &prog->stmts[i];
        sc_err_t err = SC_OK;
        switch (st->kind) {
        case SC_STMT_LOOP:
            if (st->until.on && !(err = choose_algo(prog, st, p, node_of, fallback)) &&
                (st->algo->needs & SC_DATA_DEPENDENT) && !(st->algo->needs & SC_UNTIL))
                err = sc_error_at(where(prog, st), st->line,
                                  "until: %s does not sum errors; use allreduce-if (early exit) "
                                  "or an allreduce for sum",
                                  st->algo->name);
            break;
        case SC_STMT_CALL: {
            if (sc_kind(st->collective)->has_root && st->root >= p)
                return sc_error_at(where(prog, st), st->line,
                                   "root %d is out of range: ranks are 0..%d", st->root, p - 1);
            if ((err = choose_algo(prog, st, p, node_of, fallback)))
                return err;
            if (st->algo->needs & SC_UNTIL)
                err = sc_error_at(where(prog, st), st->line,
                                  "%s ends the iterations of a solver: use it in an until loop "
                                  "(until TOL max=N algo=%s ...), not as a call",
                                  st->algo->name, st->algo->name);
            else if ((st->algo->needs & SC_EARLY_EXIT) && !sc_op_can_decide(st->op))
                err = sc_error_at(where(prog, st), st->line,
                                  "%s needs an operation one value can decide: land, lor, band "
                                  "or bor, not %s",
                                  st->algo->name, sc_op_name(st->op));
            else if ((st->algo->needs & SC_SPECULATIVE) && st->op != SC_OP_MAX &&
                     st->op != SC_OP_MIN)
                err = sc_error_at(where(prog, st), st->line,
                                  "%s speculates on who holds the extreme: it needs max "
                                  "or min, not %s",
                                  st->algo->name, sc_op_name(st->op));
            break;
        }
        case SC_STMT_HALO:
            err = resolve_halo(prog, st, p);
            break;
        case SC_STMT_SEND:
            if (st->from >= p || st->to >= p)
                return sc_error_at(where(prog, st), st->line, "send from %d to %d: ranks are 0..%d",
                                   st->from, st->to, p - 1);
            break;
        default: break;
        }
        if (err)
            return err;
    }
    return SC_OK;
}

static long saturating_mul(long a, long b)
{
    return a > 0 && b > LONG_MAX / a ? LONG_MAX : a * b;
}

static long saturating_add(long a, long b)
{
    return a > LONG_MAX - b ? LONG_MAX : a + b;
}

/* Counts statements first..last-1, loops multiplied out. */
static void count_range(const sc_program_t *prog, int first, int last, long *all, long *comms)
{
    *all = *comms = 0;
    for (int i = first; i < last; i++) {
        const sc_stmt_t *st = &prog->stmts[i];
        if (st->kind == SC_STMT_LOOP) {
            long body_all, body_comms;
            count_range(prog, i + 1, st->end, &body_all, &body_comms);
            if (st->until.on) { /* and the allreduce ending each iteration */
                body_all = saturating_add(body_all, 1);
                body_comms = saturating_add(body_comms, 1);
            }
            long times = st->until.on ? sc_until_iterations(st) : st->count;
            *all = saturating_add(*all, saturating_mul(times, body_all));
            *comms = saturating_add(*comms, saturating_mul(times, body_comms));
            i = st->end;
        } else {
            *all = saturating_add(*all, 1);
            if (st->kind != SC_STMT_COMPUTE)
                *comms = saturating_add(*comms, 1);
        }
    }
}

double sc_compute_factor(const sc_stmt_t *compute, int rank, int p)
{
    return p > 1 ? 1 + compute->spread * rank / (p - 1) : 1;
}

double sc_until_error(const sc_stmt_t *loop, long k)
{
    return loop->until.error0 * pow(loop->until.rate, (double)k);
}

double sc_until_local_error(const sc_stmt_t *loop, long k, int rank, int p)
{
    /* the share first: error * 2 overflows for an error near DBL_MAX */
    return sc_until_error(loop, k) * (2.0 * (rank + 1) / ((double)p * (p + 1)));
}

int sc_until_goes_on(const sc_stmt_t *loop, long k)
{
    return k + 1 < loop->count && sc_until_error(loop, k) >= loop->until.tol;
}

long sc_until_iterations(const sc_stmt_t *loop)
{
    /* The first k whose error is below tol, from the logarithms, then
     * made exact against sc_until_error's rounding: max= may be 10^9. */
    const sc_until_t *u = &loop->until;
    double guess = ceil(log(u->tol / u->error0) / log(u->rate));
    long k = guess <= 0 ? 0 : guess >= (double)loop->count ? loop->count - 1 : (long)guess;
    while (k > 0 && sc_until_error(loop, k - 1) < u->tol)
        k--;
    while (sc_until_goes_on(loop, k))
        k++;
    return k + 1;
}

void sc_program_count(const sc_program_t *prog, long *statements, long *communications)
{
    count_range(prog, 0, prog->nstmts, statements, communications);
}

/* How many strides of data a statement keeps in a buffer: its input
 * (`in` 1) or its output (`in` 0). */
static double strides(const sc_stmt_t *st, int in, int p)
{
    switch (st->kind) {
    case SC_STMT_CALL:
        return (in ? sc_kind(st->collective)->input_blocks_per_rank
                   : sc_kind(st->collective)->output_blocks_per_rank)
                   ? p
                   : 1;
    case SC_STMT_HALO: return 4.0 * st->grid.ndims; /* 2 ndims faces out, as many ghosts in */
    default: return 1;
    }
}

size_t sc_program_buffer_bytes(const sc_program_t *prog, int b, int p)
{
    double most = 0;
    for (int i = 0; i < prog->nstmts; i++) {
        const sc_stmt_t *st = &prog->stmts[i];
        for (int k = 0; k < st->npieces; k++) {
            const sc_piece_t *pc = &st->pieces[k];
            double need = 0;
            if (pc->in == b)
                need = strides(st, 1, p) * (double)pc->stride;
            if (pc->out == b && strides(st, 0, p) * (double)pc->stride > need)
                need = strides(st, 0, p) * (double)pc->stride;
            if (need > most)
                most = need;
        }
    }
    return (size_t)most;
}

int sc_stmt_depends(const sc_stmt_t *a, const sc_stmt_t *b)
{
    for (int i = 0; i < a->npieces; i++)
        for (int k = 0; k < b->npieces; k++) {
            const sc_piece_t *x = &a->pieces[i], *y = &b->pieces[k];
            if (x->out == y->in || x->out == y->out || x->in == y->out)
                return 1;
        }
    return 0;
}

/* A statement's own buffer, which the program did not name. */
static int own_buffer(const sc_program_t *prog, int b)
{
    return prog->buffers[b].name[0] == '(';
}

/* Appends to out[len], of which *n characters are written (more than len
 * once cut). */
static void append(char *out, size_t len, size_t *n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void append(char *out, size_t len, size_t *n, const char *fmt, ...)
{
    size_t at = *n < len ? *n : len;
    va_list ap;
    va_start(ap, fmt);
    int wrote = vsnprintf(out + at, len - at, fmt, ap);
    va_end(ap);
    if (wrote > 0)
        *n += (size_t)wrote;
}

void sc_stmt_format(const sc_stmt_t *st, int with_size, char *out, size_t len)
{
    size_t n = 0;
    out[0] = '\0';
    const char *name = st->kind == SC_STMT_HALO   ? "halo"
                       : st->kind == SC_STMT_SEND ? "send"
                                                  : sc_kind(st->collective)->name;
    append(out, len, &n, "%s", name);
    if (with_size && !(st->kind == SC_STMT_CALL && st->collective == SC_BARRIER))
        append(out, len, &n, " %zu", st->bytes);
    if (st->kind == SC_STMT_HALO) {
        append(out, len, &n, " dims=");
        for (int k = 0; k < st->grid.ndims; k++)
            if (st->grid.dims[0])
                append(out, len, &n, "%s%d", k ? "x" : "", st->grid.dims[k]);
        if (!st->grid.dims[0])
            append(out, len, &n, "%d", st->grid.ndims);
        if (st->grid.periodic)
            append(out, len, &n, " periodic");
    } else if (st->kind == SC_STMT_SEND) {
        append(out, len, &n, " from=%d to=%d", st->from, st->to);
    } else {
        const sc_kind_t *kind = sc_kind(st->collective);
        if (st->algo)
            append(out, len, &n, " algo=%s", st->algo->name);
        else if (st->choice.algo)
            append(out, len, &n, " algo=%s", st->choice.algo->name);
        else if (st->choice.profile)
            append(out, len, &n, " mpi=%s", st->choice.profile->name);
        if (kind->has_root)
            append(out, len, &n, " root=%d", st->root);
        if (kind->is_reduction)
            append(out, len, &n, " op=%s type=%s", sc_op_name(st->op), sc_type_name(st->type));
    }
}

static void print_statement(const sc_program_t *prog, const sc_stmt_t *st, int indent, FILE *out)
{
    fprintf(out, "%*s", 2 * indent, "");
    char line[512];
    switch (st->kind) {
    case SC_STMT_LOOP:
        if (!st->until.on) {
            fprintf(out, "loop %ld\n", st->count);
            return;
        }
        fprintf(out, "until %.15g max=%ld error=%.15g rate=%.15g", st->until.tol, st->count,
                st->until.error0, st->until.rate);
        if (st->choice.algo)
            fprintf(out, " algo=%s", st->choice.algo->name);
        else if (st->choice.profile)
            fprintf(out, " mpi=%s", st->choice.profile->name);
        if (st->until.predict)
            fprintf(out, " predict save=%.15gs rollback=%.15gs", st->until.save_s,
                    st->until.rollback_s);
        fprintf(out, "\n");
        return;
    case SC_STMT_END: fprintf(out, "end\n"); return;
    case SC_STMT_COMPUTE:
        if (st->flops > 0)
            fprintf(out, "compute %.15gf", st->flops);
        else
            fprintf(out, "compute %.15gs", st->seconds);
        if (st->spread > 0)
            fprintf(out, " spread=%.15g", st->spread);
        fprintf(out, "\n");
        return;
    default:
        sc_stmt_format(st, 1, line, sizeof line);
        fputs(line, out);
        break;
    }
    if (st->npieces == 0) {
        fprintf(out, "\n");
        return;
    }
    if (st->npieces == 1 && st->pieces[0].bytes == st->pieces[0].stride) {
        const sc_piece_t *pc = &st->pieces[0];
        if (own_buffer(prog, pc->in) && pc->in == pc->out)
            fprintf(out, "\n");
        else if (pc->in == pc->out)
            fprintf(out, " buf=%s\n", prog->buffers[pc->in].name);
        else
            fprintf(out, " in=%s out=%s\n", prog->buffers[pc->in].name,
                    prog->buffers[pc->out].name);
        return;
    }
    /* Packed or split: the pieces, which the syntax has no words for. */
    fprintf(out, "   #");
    for (int k = 0; k < st->npieces; k++) {
        const sc_piece_t *pc = &st->pieces[k];
        fprintf(out, "%s %s", k ? "," : "", prog->buffers[pc->in].name);
        if (pc->out != pc->in)
            fprintf(out, "->%s", prog->buffers[pc->out].name);
        if (pc->bytes != pc->stride)
            fprintf(out, "[%zu+%zu]", pc->offset, pc->bytes);
        if (pc->line > 0)
            fprintf(out, " (line %d)", pc->line);
    }
    fprintf(out, "\n");
}

void sc_program_print(const sc_program_t *prog, FILE *out)
{
    int depth = 0;
    for (int i = 0; i < prog->nstmts; i++) {
        const sc_stmt_t *st = &prog->stmts[i];
        if (st->kind == SC_STMT_END)
            depth--;
        print_statement(prog, st, depth, out);
        if (st->kind == SC_STMT_LOOP)
            depth++;
    }
}
