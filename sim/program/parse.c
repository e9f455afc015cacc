/* The program file format: one statement per line.
 *
 *   program    = { line } ;
 *   line       = [ statement ] [ "#" comment ] newline ;
 *   statement  = "loop" COUNT | "end"
 *              | "until" TOL "max=" COUNT { "error=" NUMBER | "rate=" NUMBER
 *                | choice | "predict" | "save=" DURATION | "rollback=" DURATION }
 *              | "compute" ( DURATION | FLOPS ) [ "spread=" NUMBER ]
 *              | "barrier" { choice }
 *              | "allreduce" SIZE { choice | op | buffers }
 *              | "reduce" SIZE { choice | "root=" RANK | op | buffers }
 *              | "allgather" SIZE { choice | buffers }
 *              | "bcast" SIZE { choice | "root=" RANK | "buf=" NAME }
 *              | "scatter" SIZE { choice | "root=" RANK | buffers }
 *              | "halo" SIZE { "dims=" GRID | "periodic" | "buf=" NAME }
 *              | "send" SIZE "from=" RANK "to=" RANK [ "buf=" NAME ] ;
 *   choice     = "algo=" ALGORITHM | "mpi=" PROFILE ;
 *   op         = "op=" OP | "type=" TYPE ;
 *   buffers    = "in=" NAME | "out=" NAME | "buf=" NAME ;
 *   GRID       = "1" | "2" | "3" | INT "x" INT | INT "x" INT "x" INT ;
 *
 * Options come in any order, each at most once (one of algo= and mpi=;
 * buf= or in= and out=).
 * SIZE is bytes with K, M, G (powers of 1024): the allgather or scatter
 * block (the root's in= holds p of them), the broadcast message, the
 * reduction vector (whole elements), one face of a halo, one message.
 * COUNT is 1 to 10^9. DURATION is a number with s, ms, us, ns or ps; FLOPS
 * a number with f, kf, Mf, Gf or Tf (on the rank's core); spread= (0 to
 * 1000, default 0) makes rank r of p compute 1 + spread * r / (p - 1)
 * times that, an imbalance. OP and TYPE are MPI's (sum ... bxor; int,
 * double). in= is what a call reads, out= what it writes, buf= both; in=
 * or out= alone is both; a call that names no buffer has its own. NAME is
 * letters, digits, '_', '-' and '.'.
 * until is a solver's loop (sc_until_t in program.h): it repeats its body,
 * then sums the ranks' errors with an allreduce of one double (choice),
 * until the global error, error= (default 1) times rate= (0 < rate < 1,
 * default 0.5) per iteration, falls below TOL, at most max= times; with
 * predict the next iteration's computing overlaps the allreduce, save= and
 * rollback= (default 0) the cost of the bet.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sc_grow.h"
#include "common/sc_units.h"
#include "program.h"

#define MAX_WORDS 16

typedef struct {
    const char *path;
    int line;
    sc_program_t *prog;
    size_t cap_stmts, cap_buffers;
    int open_loops[SC_PROGRAM_MAX_DEPTH];
    int depth;
} parser_t;

/* Lower layers name the value ("'x' is not a size; ..."): the program's
 * message puts the file and line in front of theirs. */
static sc_err_t fail_with_last(const parser_t *ps)
{
    char msg[768];
    snprintf(msg, sizeof msg, "%s", sc_error_message());
    return sc_error_at(ps->path, ps->line, "%s", msg);
}

static int valid_name(const char *name)
{
    if (!*name || strlen(name) > 64)
        return 0;
    for (const char *c = name; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-' && *c != '.')
            return 0;
    return 1;
}

static sc_err_t buffer_index(parser_t *ps, const char *name, int *index)
{
    sc_program_t *prog = ps->prog;
    for (int b = 0; b < prog->nbuffers; b++)
        if (strcmp(prog->buffers[b].name, name) == 0) {
            *index = b;
            return SC_OK;
        }
    sc_buffer_t *more =
        sc_grow(prog->buffers, (size_t)prog->nbuffers, &ps->cap_buffers, 8, sizeof *more);
    if (!more)
        return sc_error(SC_ERR_RUN, "out of memory reading %s", ps->path);
    prog->buffers = more;
    char *copy = strdup(name);
    if (!copy)
        return sc_error(SC_ERR_RUN, "out of memory reading %s", ps->path);
    prog->buffers[prog->nbuffers] = (sc_buffer_t){copy};
    *index = prog->nbuffers++;
    return SC_OK;
}

static sc_err_t named_buffer(parser_t *ps, const char *key, const char *name, int *index)
{
    if (!valid_name(name))
        return sc_error_at(ps->path, ps->line,
                           "%s=%s: a buffer name is 1 to 64 letters, digits, '_', '-' or '.'", key,
                           name);
    return buffer_index(ps, name, index);
}

/* The buffer of a statement that names none: its own, under a name no
 * program can write. */
static sc_err_t own_buffer(parser_t *ps, int *index)
{
    char name[32];
    snprintf(name, sizeof name, "(line %d)", ps->line);
    return buffer_index(ps, name, index);
}

static sc_err_t parse_rank(const parser_t *ps, const char *key, const char *text, int *rank)
{
    char what[64];
    snprintf(what, sizeof what, "%s", key);
    if (sc_parse_int(text, what, 0, 1 << 30, rank))
        return fail_with_last(ps);
    return SC_OK;
}

static sc_err_t parse_flops(const parser_t *ps, const char *text, double *flops)
{
    static const struct {
        const char *suffix;
        double scale;
    } units[] = {{"f", 1}, {"kf", 1e3}, {"Mf", 1e6}, {"Gf", 1e9}, {"Tf", 1e12}};
    errno = 0;
    char *end;
    double value = strtod(text, &end);
    if (end != text && errno != ERANGE && isfinite(value) && value >= 0)
        for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
            if (strcmp(end, units[i].suffix) == 0 && isfinite(value * units[i].scale)) {
                *flops = value * units[i].scale;
                return SC_OK;
            }
    return sc_error_at(
        ps->path, ps->line,
        "compute %s: give a duration (a number and s, ms, us, ns or ps, e.g. 20us) or "
        "floating-point operations (a number and f, kf, Mf, Gf or Tf, e.g. 2Gf)",
        text);
}

static sc_err_t parse_grid(const parser_t *ps, const char *text, sc_stmt_t *st)
{
    if (strcmp(text, "1") == 0 || strcmp(text, "2") == 0 || strcmp(text, "3") == 0) {
        st->grid.ndims = text[0] - '0';
        return SC_OK;
    }
    int n = 0;
    const char *c = text;
    while (*c && n < 3) {
        char *end;
        errno = 0;
        long d = strtol(c, &end, 10);
        if (end == c || errno || d < 1 || d > 1 << 24)
            break;
        st->grid.dims[n++] = (int)d;
        c = end;
        if (*c != 'x')
            break;
        if (!*++c) { /* "4x4x" */
            c--;
            break;
        }
    }
    if (*c || n < 2)
        return sc_error_at(ps->path, ps->line,
                           "dims=%s: use 1, 2 or 3 (a grid of that many dimensions, as balanced as "
                           "MPI_Dims_create makes it) or the sizes, e.g. 8x8 or 4x4x4",
                           text);
    st->grid.ndims = n;
    return SC_OK;
}

static sc_err_t parse_choice(const parser_t *ps, const char *key, const char *value,
                             sc_stmt_t *st)
{
    if (strcmp(key, "algo") == 0) {
        const sc_algo_t *algo = sc_algo_find(value);
        if (!algo)
            return sc_error_at(
                ps->path, ps->line,
                "algo=%s: unknown algorithm; did you mean '%s'? (simcoll list shows all)", value,
                sc_algo_nearest(value)->name);
        if (algo->collective != st->collective)
            return sc_error_at(
                ps->path, ps->line, "algo=%s is for %s, not %s (simcoll list shows all)", value,
                sc_collective_name(algo->collective), sc_collective_name(st->collective));
        st->choice.algo = algo;
        return SC_OK;
    }
    const sc_profile_t *profile = sc_profile_find(value);
    if (!profile) {
        char names[256] = "";
        for (const sc_profile_t *pr = sc_profiles; pr->name; pr++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                     pr == sc_profiles ? "" : ", ", pr->name);
        return sc_error_at(ps->path, ps->line, "mpi=%s: unknown profile; use one of %s", value,
                           names);
    }
    st->choice.profile = profile;
    return SC_OK;
}

static const struct {
    const char *word;
    sc_collective_t collective;
} call_words[] = {{"allgather", SC_ALLGATHER}, {"bcast", SC_BCAST},
                  {"barrier", SC_BARRIER},     {"reduce", SC_REDUCE},
                  {"allreduce", SC_ALLREDUCE}, {"scatter", SC_SCATTER}};

static sc_err_t parse_size(const parser_t *ps, const char *word, const char *text, size_t *bytes)
{
    if (!text)
        return sc_error_at(ps->path, ps->line,
                           "%s needs a size in bytes (K, M, G: powers of 1024), e.g. %s 4K", word,
                           word);
    char what[64];
    snprintf(what, sizeof what, "%s size", word);
    if (sc_parse_size(text, what, bytes))
        return fail_with_last(ps);
    /* Byte counts of a run stay exact in doubles (sim/engine/run.c). */
    if (*bytes > (size_t)1 << 40)
        return sc_error_at(ps->path, ps->line, "%s size %s: at most 1 TiB per statement", word,
                           text);
    return SC_OK;
}

/* Splits KEY=VALUE; NULL value for a bare word. */
static const char *split_option(char *word)
{
    char *eq = strchr(word, '=');
    if (!eq)
        return NULL;
    *eq = '\0';
    return eq + 1;
}

static sc_err_t parse_call(parser_t *ps, char **words, int nwords, sc_collective_t coll,
                           sc_stmt_t *st)
{
    st->kind = SC_STMT_CALL;
    st->collective = coll;
    st->op = SC_OP_SUM;
    st->type = SC_TYPE_DOUBLE;
    int first = 1, in = -1, out = -1, buf = -1, seen[3] = {0}; /* root, op, type */
    sc_err_t err;
    if (coll != SC_BARRIER) {
        if ((err = parse_size(ps, words[0], nwords > 1 ? words[1] : NULL, &st->bytes)))
            return err;
        first = 2;
    }
    for (int w = first; w < nwords; w++) {
        const char *value = split_option(words[w]);
        const char *key = words[w];
        int is_choice = strcmp(key, "algo") == 0 || strcmp(key, "mpi") == 0;
        int is_data = strcmp(key, "in") == 0 || strcmp(key, "out") == 0 || strcmp(key, "buf") == 0;
        int is_reduction = sc_kind(coll)->is_reduction;
        int has_root = sc_kind(coll)->has_root;
        if (!value || !*value) {
            if (coll == SC_BARRIER && !value)
                return sc_error_at(ps->path, ps->line,
                                   "barrier takes no size, only algo= or mpi=; got '%s'", key);
            return sc_error_at(ps->path, ps->line, "'%s': options are KEY=VALUE, e.g. op=sum",
                               words[w]);
        }
        if (is_choice) {
            if (st->choice.algo || st->choice.profile)
                return sc_error_at(ps->path, ps->line, "give one algo= or one mpi= per call");
            err = parse_choice(ps, key, value, st);
        } else if ((strcmp(key, "root") == 0 || strcmp(key, "op") == 0 ||
                    strcmp(key, "type") == 0) &&
                   (seen[key[0] == 'r' ? 0 : key[0] == 'o' ? 1 : 2]++)) {
            return sc_error_at(ps->path, ps->line, "%s= given twice", key);
        } else if (strcmp(key, "root") == 0 && has_root) {
            err = parse_rank(ps, "root", value, &st->root);
        } else if (strcmp(key, "op") == 0 && is_reduction) {
            err = sc_op_parse(value, "op", &st->op) ? fail_with_last(ps) : SC_OK;
        } else if (strcmp(key, "type") == 0 && is_reduction) {
            err = sc_type_parse(value, "type", &st->type) ? fail_with_last(ps) : SC_OK;
        } else if (is_data && coll != SC_BARRIER && (strcmp(key, "buf") == 0 || coll != SC_BCAST)) {
            int *slot = key[0] == 'i' ? &in : key[0] == 'o' ? &out : &buf;
            if (*slot >= 0)
                return sc_error_at(ps->path, ps->line, "%s= given twice", key);
            err = named_buffer(ps, key, value, slot);
        } else {
            const char *takes = coll == SC_BARRIER ? "algo=, mpi="
                                : coll == SC_BCAST ? "algo=, mpi=, root=, buf="
                                : coll == SC_REDUCE
                                    ? "algo=, mpi=, root=, op=, type=, in=, out=, buf="
                                : coll == SC_SCATTER ? "algo=, mpi=, root=, in=, out=, buf="
                                : is_reduction       ? "algo=, mpi=, op=, type=, in=, out=, buf="
                                                     : "algo=, mpi=, in=, out=, buf=";
            return sc_error_at(ps->path, ps->line, "%s does not take %s=; it takes %s", words[0],
                               key, takes);
        }
        if (err)
            return err;
    }
    if (buf >= 0 && (in >= 0 || out >= 0))
        return sc_error_at(ps->path, ps->line,
                           "buf= is in= and out= at once; give buf= alone or in= and out=");
    if (coll == SC_BARRIER)
        return SC_OK;
    if (buf < 0 && in < 0 && out < 0 && (err = own_buffer(ps, &buf)))
        return err;
    if (buf >= 0)
        in = out = buf;
    else if (in < 0)
        in = out;
    else if (out < 0)
        out = in;
    sc_piece_t piece = {in, out, 0, st->bytes, st->bytes, ps->prog->nstmts, ps->line};
    st->pieces = malloc(sizeof piece);
    if (!st->pieces)
        return sc_error(SC_ERR_RUN, "out of memory reading %s", ps->path);
    st->pieces[0] = piece;
    st->npieces = 1;
    return SC_OK;
}

static sc_err_t one_piece(parser_t *ps, int buf, sc_stmt_t *st)
{
    sc_err_t err = buf < 0 ? own_buffer(ps, &buf) : SC_OK;
    if (err)
        return err;
    st->pieces = malloc(sizeof *st->pieces);
    if (!st->pieces)
        return sc_error(SC_ERR_RUN, "out of memory reading %s", ps->path);
    st->pieces[0] = (sc_piece_t){buf, buf, 0, st->bytes, st->bytes, ps->prog->nstmts, ps->line};
    st->npieces = 1;
    return SC_OK;
}

static sc_err_t parse_halo(parser_t *ps, char **words, int nwords, sc_stmt_t *st)
{
    st->kind = SC_STMT_HALO;
    st->grid.ndims = 1;
    int buf = -1, dims_given = 0;
    sc_err_t err = parse_size(ps, "halo", nwords > 1 ? words[1] : NULL, &st->bytes);
    for (int w = 2; !err && w < nwords; w++) {
        if (strcmp(words[w], "periodic") == 0) {
            if (st->grid.periodic++)
                return sc_error_at(ps->path, ps->line, "halo: periodic is given twice");
            continue;
        }
        const char *value = split_option(words[w]);
        if (value && strcmp(words[w], "dims") == 0 && dims_given++)
            return sc_error_at(ps->path, ps->line, "halo: dims= is given twice");
        if (value && strcmp(words[w], "dims") == 0)
            err = parse_grid(ps, value, st);
        else if (value && strcmp(words[w], "buf") == 0 && buf < 0)
            err = named_buffer(ps, "buf", value, &buf);
        else
            return sc_error_at(ps->path, ps->line,
                               "halo does not take '%s%s%s'; it takes dims=, periodic and buf=",
                               words[w], value ? "=" : "", value ? value : "");
    }
    return err ? err : one_piece(ps, buf, st);
}

static sc_err_t parse_send(parser_t *ps, char **words, int nwords, sc_stmt_t *st)
{
    st->kind = SC_STMT_SEND;
    st->from = st->to = -1;
    int buf = -1;
    sc_err_t err = parse_size(ps, "send", nwords > 1 ? words[1] : NULL, &st->bytes);
    for (int w = 2; !err && w < nwords; w++) {
        const char *value = split_option(words[w]);
        if (value && strcmp(words[w], "from") == 0 && st->from < 0)
            err = parse_rank(ps, "from", value, &st->from);
        else if (value && strcmp(words[w], "to") == 0 && st->to < 0)
            err = parse_rank(ps, "to", value, &st->to);
        else if (value && strcmp(words[w], "buf") == 0 && buf < 0)
            err = named_buffer(ps, "buf", value, &buf);
        else
            return sc_error_at(
                ps->path, ps->line,
                "send does not take '%s%s%s'; it takes from=, to= and buf=, once each", words[w],
                value ? "=" : "", value ? value : "");
    }
    if (!err && (st->from < 0 || st->to < 0))
        return sc_error_at(ps->path, ps->line,
                           "send needs from=RANK and to=RANK, e.g. send 1M from=0 to=1");
    if (!err && st->from == st->to)
        return sc_error_at(ps->path, ps->line, "send from=%d to=%d: a rank does not send to itself",
                           st->from, st->to);
    return err ? err : one_piece(ps, buf, st);
}

static sc_err_t parse_compute(const parser_t *ps, char **words, int nwords, sc_stmt_t *st)
{
    st->kind = SC_STMT_COMPUTE;
    const char *spread = nwords == 3 ? split_option(words[2]) : NULL;
    if (nwords < 2 || nwords > 3 || (nwords == 3 && (!spread || strcmp(words[2], "spread"))))
        return sc_error_at(ps->path, ps->line,
                           "compute takes one duration (e.g. compute 20us) or flop count (e.g. "
                           "compute 2Gf), and may take spread=F");
    if (spread) {
        errno = 0;
        char *end;
        st->spread = strtod(spread, &end);
        if (end == spread || *end || errno || !(st->spread >= 0 && st->spread <= 1000))
            return sc_error_at(ps->path, ps->line,
                               "compute spread=%s: give a number from 0 to 1000 (the last rank "
                               "computes 1 + spread times what rank 0 does)",
                               spread);
    }
    const char *text = words[1];
    size_t len = strlen(text);
    /* A bare number would be seconds to sc_parse_duration: ask for a unit. */
    if ((len > 1 && text[len - 1] == 'f') || !isalpha((unsigned char)text[len - 1]))
        return parse_flops(ps, text, &st->flops);
    if (text[len - 1] != 's') /* not s, ms, us, ns or ps: flop with a prefix */
        return parse_flops(ps, text, &st->flops);
    if (sc_parse_duration(text, "compute", &st->seconds))
        return fail_with_last(ps);
    return SC_OK;
}

static sc_err_t parse_loop(parser_t *ps, char **words, int nwords, sc_stmt_t *st)
{
    st->kind = SC_STMT_LOOP;
    int count;
    if (nwords != 2)
        return sc_error_at(ps->path, ps->line,
                           "loop takes one count, e.g. loop 100, and ends with a line 'end'");
    if (sc_parse_int(words[1], "loop", 1, 1000000000, &count))
        return fail_with_last(ps);
    if (ps->depth == SC_PROGRAM_MAX_DEPTH)
        return sc_error_at(ps->path, ps->line, "loops nest at most %d deep", SC_PROGRAM_MAX_DEPTH);
    st->count = count;
    ps->open_loops[ps->depth++] = ps->prog->nstmts;
    return SC_OK;
}

static sc_err_t parse_number(const parser_t *ps, const char *key, const char *text, double lo,
                             double hi, double *value)
{
    errno = 0;
    char *end;
    *value = strtod(text, &end);
    if (end == text || *end || errno || !isfinite(*value) || *value <= lo || *value >= hi) {
        if (errno == ERANGE)
            return sc_error_at(ps->path, ps->line,
                               "until %s%s: beyond what a double holds (about 1e-308 to 1e308)",
                               key, text);
        if (isinf(hi))
            return sc_error_at(ps->path, ps->line, "until %s%s: give a number above %g, e.g. 1e-6",
                               key, text, lo);
        return sc_error_at(ps->path, ps->line,
                           "until %s%s: give a number between %g and %g, both excluded", key, text,
                           lo, hi);
    }
    return SC_OK;
}

static sc_err_t parse_until(parser_t *ps, char **words, int nwords, sc_stmt_t *st)
{
    st->kind = SC_STMT_LOOP;
    st->collective = SC_ALLREDUCE; /* of one double, the errors' sum */
    st->op = SC_OP_SUM;
    st->type = SC_TYPE_DOUBLE;
    st->bytes = sizeof(double);
    sc_until_t *u = &st->until;
    *u = (sc_until_t){.on = 1, .error0 = 1, .rate = 0.5};
    if (nwords < 2 || strchr(words[1], '='))
        return sc_error_at(ps->path, ps->line,
                           "until takes a tolerance first, e.g. until 1e-6 max=100, and ends with "
                           "a line 'end'");
    sc_err_t err = parse_number(ps, "", words[1], 0, INFINITY, &u->tol);
    int max = 0, seen[5] = {0}; /* error, rate, save, rollback, predict */
    static const char *const once[] = {"error", "rate", "save", "rollback", "predict"};
    for (int w = 2; !err && w < nwords; w++) {
        const char *value = split_option(words[w]);
        const char *key = words[w];
        for (int k = 0; k < 5; k++)
            if (strcmp(key, once[k]) == 0 && seen[k]++)
                return sc_error_at(ps->path, ps->line, "until: %s given twice", key);
        if (strcmp(key, "predict") == 0 && !value) {
            u->predict = 1;
        } else if (!value || !*value) {
            return sc_error_at(ps->path, ps->line,
                               "until: '%s': options are KEY=VALUE (max=, error=, rate=, algo=, "
                               "mpi=, save=, rollback=) or predict",
                               key);
        } else if (strcmp(key, "max") == 0 && !max) {
            if (sc_parse_int(value, "until max", 1, 1000000000, &max))
                return fail_with_last(ps);
        } else if (strcmp(key, "error") == 0) {
            err = parse_number(ps, "error=", value, 0, INFINITY, &u->error0);
        } else if (strcmp(key, "rate") == 0) {
            err = parse_number(ps, "rate=", value, 0, 1, &u->rate);
        } else if (strcmp(key, "save") == 0 || strcmp(key, "rollback") == 0) {
            char what[32];
            snprintf(what, sizeof what, "until %s", key);
            if (sc_parse_duration(value, what, key[0] == 's' ? &u->save_s : &u->rollback_s))
                return fail_with_last(ps);
        } else if ((strcmp(key, "algo") == 0 || strcmp(key, "mpi") == 0) && !st->choice.algo &&
                   !st->choice.profile) {
            err = parse_choice(ps, key, value, st);
        } else {
            return sc_error_at(ps->path, ps->line,
                               "until does not take %s= (or takes it once); it takes max=, error=, "
                               "rate=, one algo= or mpi=, predict, save= and rollback=",
                               key);
        }
    }
    if (err)
        return err;
    if (!max)
        return sc_error_at(ps->path, ps->line,
                           "until needs max=COUNT, the most iterations, e.g. until 1e-6 max=100");
    if (!u->predict && (seen[2] || seen[3]))
        return sc_error_at(ps->path, ps->line,
                           "until: save= and rollback= are the costs of predict; add predict or "
                           "drop them");
    st->count = max;
    if (ps->depth == SC_PROGRAM_MAX_DEPTH)
        return sc_error_at(ps->path, ps->line, "loops nest at most %d deep", SC_PROGRAM_MAX_DEPTH);
    ps->open_loops[ps->depth++] = ps->prog->nstmts;
    return SC_OK;
}

static sc_err_t parse_end(parser_t *ps, int nwords, sc_stmt_t *st)
{
    st->kind = SC_STMT_END;
    if (nwords != 1)
        return sc_error_at(ps->path, ps->line, "end takes nothing after it");
    if (ps->depth == 0)
        return sc_error_at(ps->path, ps->line, "end without a loop");
    int loop = ps->open_loops[--ps->depth];
    ps->prog->stmts[loop].end = ps->prog->nstmts;
    st->end = loop;
    if (loop == ps->prog->nstmts - 1)
        return sc_error_at(ps->path, ps->line, "the loop of line %d is empty",
                           ps->prog->stmts[loop].line);
    return SC_OK;
}

static sc_err_t parse_statement(parser_t *ps, char **words, int nwords, sc_stmt_t *st)
{
    st->line = ps->line;
    for (size_t i = 0; i < sizeof call_words / sizeof call_words[0]; i++)
        if (strcmp(words[0], call_words[i].word) == 0)
            return parse_call(ps, words, nwords, call_words[i].collective, st);
    if (strcmp(words[0], "halo") == 0)
        return parse_halo(ps, words, nwords, st);
    if (strcmp(words[0], "send") == 0)
        return parse_send(ps, words, nwords, st);
    if (strcmp(words[0], "compute") == 0)
        return parse_compute(ps, words, nwords, st);
    if (strcmp(words[0], "loop") == 0)
        return parse_loop(ps, words, nwords, st);
    if (strcmp(words[0], "until") == 0)
        return parse_until(ps, words, nwords, st);
    if (strcmp(words[0], "end") == 0)
        return parse_end(ps, nwords, st);
    return sc_error_at(
        ps->path, ps->line,
        "unknown statement '%s'; use allgather, bcast, barrier, reduce, allreduce, scatter, halo, "
        "send, compute, loop, until or end",
        words[0]);
}

static sc_err_t add_statement(parser_t *ps, sc_stmt_t **st)
{
    sc_program_t *prog = ps->prog;
    sc_stmt_t *more = sc_grow(prog->stmts, (size_t)prog->nstmts, &ps->cap_stmts, 16, sizeof *more);
    if (!more)
        return sc_error(SC_ERR_RUN, "out of memory reading %s", ps->path);
    prog->stmts = more;
    *st = &prog->stmts[prog->nstmts];
    **st = (sc_stmt_t){0};
    return SC_OK;
}

/* Words of one line, comment cut off; NUL-terminated in place. */
static sc_err_t split_words(const parser_t *ps, char *line, char **words, int *nwords)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    *nwords = 0;
    for (char *w = strtok(line, " \t\r"); w; w = strtok(NULL, " \t\r")) {
        if (*nwords == MAX_WORDS)
            return sc_error_at(ps->path, ps->line, "more than %d words on a line", MAX_WORDS);
        words[(*nwords)++] = w;
    }
    return SC_OK;
}

sc_err_t sc_program_parse(const char *path, const char *text, size_t len, sc_program_t *prog)
{
    *prog = (sc_program_t){0};
    parser_t ps = {.path = path, .prog = prog};
    sc_err_t err = SC_OK;
    char *copy = malloc(len + 1);
    prog->path = strdup(path);
    if (!copy || !prog->path) {
        err = sc_error(SC_ERR_RUN, "out of memory reading %s", path);
        goto cleanup;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    if (memchr(text, '\0', len)) {
        ps.line = 1;
        for (const char *c = text; *c; c++)
            ps.line += *c == '\n';
        err = sc_error_at(ps.path, ps.line, "a NUL byte: a program is a text file");
        goto cleanup;
    }
    char *next = copy;
    while (!err && next) {
        char *line = next;
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        ps.line++;
        char *words[MAX_WORDS];
        int nwords;
        sc_stmt_t *st = NULL;
        if ((err = split_words(&ps, line, words, &nwords)) || nwords == 0)
            continue;
        if ((err = add_statement(&ps, &st)))
            break;
        err = parse_statement(&ps, words, nwords, st);
        prog->nstmts++; /* the statement is the program's to free, whole or not */
    }
    if (!err && ps.depth > 0) {
        ps.line = prog->stmts[ps.open_loops[ps.depth - 1]].line;
        err = sc_error_at(ps.path, ps.line, "this loop has no 'end'");
    }
    if (!err && prog->nstmts == 0) {
        ps.line = 1;
        err = sc_error_at(ps.path, ps.line, "the program has no statement");
    }
    if (!err)
        err = sc_program_check(prog);
    long statements, comms;
    if (!err) {
        sc_program_count(prog, &statements, &comms);
        if (statements > SC_PROGRAM_MAX_CALLS) {
            ps.line = 1;
            err = sc_error_at(ps.path, ps.line,
                              "the program runs %ld statements, loops multiplied out; at most %ld",
                              statements, SC_PROGRAM_MAX_CALLS);
        }
    }
cleanup:
    free(copy);
    if (err)
        sc_program_destroy(prog);
    return err;
}
