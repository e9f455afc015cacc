/* The program interpreter: a program's statements run on one rank.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "interpret.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/collectives.h"
#include "algorithms/kinds.h"
#include "algorithms/p2p/halo.h"
#include "model.h"

/* One rank's memory: its named buffers and the packing buffers. */
struct sc_interp_rank {
    unsigned char **buf;
    unsigned char *stage_in, *stage_out;
    long *occurrence;    /* by origin: how many times it has started */
    long *barriers_done; /* by statement: barriers this rank completed */
    long executed;       /* communication statements so far */
    long iteration;      /* of the until loop whose allreduce runs */
};

/* What verification shares between ranks for one statement as written. */
struct sc_interp_origin {
    long seed; /* of the cached expected output; -1 none */
    unsigned char *expect;
};

static void spend(const sc_interp_t *s, double seconds)
{
    if (seconds > 0)
        s->host.execute(s->host.ctx, seconds * s->host.speed(s->host.ctx));
}

static sc_data_t piece_data(const sc_interp_t *s, const sc_stmt_t *st, const sc_piece_t *pc,
                            long seed)
{
    return (sc_data_t){pc->stride,          s->np,       st->root,  st->op, st->type,
                       (unsigned long)seed, s->deciders, s->extreme};
}

/* Verification data of halo face f: a pattern of its own. */
static sc_data_t face_data(const sc_interp_t *s, const sc_piece_t *pc, long seed, int face)
{
    return (sc_data_t){
        pc->stride, s->np, 0, SC_OP_SUM, SC_TYPE_INT, (unsigned long)(seed * 8 + face), NULL, NULL};
}

static void fill_pattern(const sc_data_t *d, int rank, unsigned char *out)
{
    sc_kind(SC_ALLGATHER)->fill(d, rank, out);
}

/* Inputs of the pieces that start their statement as written. */
static void begin_pieces(sc_interp_t *s, int r, const sc_stmt_t *st)
{
    sc_interp_rank_t *rd = &s->ranks[r];
    for (int k = 0; k < st->npieces; k++) {
        const sc_piece_t *pc = &st->pieces[k];
        if (pc->offset != 0)
            continue;
        long seed = rd->occurrence[pc->origin]++;
        if (!s->payload)
            continue;
        unsigned char *in = rd->buf[pc->in];
        if (st->kind == SC_STMT_CALL) {
            sc_data_t d = piece_data(s, st, pc, seed);
            sc_kind(st->collective)->fill(&d, r, in);
        } else if (st->kind == SC_STMT_HALO) {
            for (int f = 0; f < 2 * st->grid.ndims; f++) {
                sc_data_t d = face_data(s, pc, seed, f);
                fill_pattern(&d, r, in + (size_t)f * pc->stride);
            }
        } else if (st->kind == SC_STMT_SEND && r == st->from) {
            sc_data_t d = piece_data(s, st, pc, seed);
            fill_pattern(&d, r, in);
        }
    }
}

/* Records rank r's wrong output `got` against `want` (n bytes) if no lower
 * rank's was: the first byte that differs, as the block of the rank it
 * came from (allgather: blocks of `block` bytes) or the element of a
 * reduction, with both values. */
static void note_wrong(sc_interp_t *s, int r, const sc_stmt_t *st, const sc_piece_t *pc,
                       const unsigned char *got, const unsigned char *want, size_t n,
                       size_t block)
{
    if (s->first_wrong[0] && r >= s->first_wrong_rank)
        return;
    size_t at = 0;
    while (at < n && got[at] == want[at])
        at++;
    char where[64] = "", what[160];
    if (block)
        snprintf(where, sizeof where, "block %zu (rank %zu's), ", at / block, at / block);
    size_t in_block = block ? at % block : at;
    int reduction = st->kind == SC_STMT_CALL && sc_kind(st->collective)->is_reduction;
    size_t elem = reduction ? sc_type_size(st->type) : 1;
    size_t first = at / elem * elem;
    if (reduction && first + elem <= n && st->type == SC_TYPE_INT) {
        int g, w;
        memcpy(&g, got + first, sizeof g);
        memcpy(&w, want + first, sizeof w);
        snprintf(what, sizeof what, "element %zu: %d, expected %d", in_block / elem, g, w);
    } else if (reduction && first + elem <= n) {
        double g, w;
        memcpy(&g, got + first, sizeof g);
        memcpy(&w, want + first, sizeof w);
        snprintf(what, sizeof what, "element %zu: %.17g, expected %.17g", in_block / elem, g, w);
    } else {
        snprintf(what, sizeof what, "byte %zu: 0x%02x, expected 0x%02x", in_block, got[at],
                 want[at]);
    }
    char line[32] = "";
    if (pc->line > 0) /* a program's; a single call has none */
        snprintf(line, sizeof line, ", line %d", pc->line);
    snprintf(s->first_wrong, sizeof s->first_wrong, "rank %d%s: %s%s", r, line, where, what);
    s->first_wrong_rank = r;
}

static int check_call(sc_interp_t *s, int r, const sc_stmt_t *st, const sc_piece_t *pc, long seed)
{
    const sc_kind_t *kind = sc_kind(st->collective);
    sc_data_t d = piece_data(s, st, pc, seed);
    if (!sc_kind_checks_rank(kind, &d, r))
        return -1;
    sc_interp_origin_t *o = &s->origins[pc->origin];
    size_t bytes = sc_kind_output_bytes(kind, &d);
    if (o->seed != seed) {
        free(o->expect);
        o->expect = malloc(sc_kind_expect_bytes(kind, &d) + 1);
        o->seed = o->expect ? seed : -1;
        if (!o->expect)
            return 0;
        kind->expect(&d, o->expect);
    }
    const unsigned char *got = s->ranks[r].buf[pc->out];
    const unsigned char *want = o->expect + sc_kind_expect_offset(kind, &d, r);
    if (memcmp(got, want, bytes) == 0)
        return 1;
    note_wrong(s, r, st, pc, got, want, bytes, kind->output_blocks_per_rank ? d.bytes : 0);
    return 0;
}

static int check_halo(sc_interp_t *s, int r, const sc_stmt_t *st, const sc_piece_t *pc, long seed)
{
    const unsigned char *ghosts =
        s->ranks[r].buf[pc->out] + 2 * (size_t)st->grid.ndims * pc->stride;
    unsigned char *want = malloc(pc->stride + 1);
    int ok = want != NULL;
    for (int d = 0; ok && d < st->grid.ndims; d++)
        for (int dir = 1; ok && dir >= -1; dir -= 2) {
            /* Ghost 2d + (dir < 0) holds the face 2d + (dir > 0) of the
             * neighbour on the -dir side. */
            int from = sc_grid_neighbour(&st->grid, r, d, -dir);
            int ghost = 2 * d + (dir < 0), face = 2 * d + (dir > 0);
            if (from < 0)
                continue;
            sc_data_t data = face_data(s, pc, seed, face);
            fill_pattern(&data, from, want);
            ok = memcmp(ghosts + (size_t)ghost * pc->stride, want, pc->stride) == 0;
            if (!ok)
                note_wrong(s, r, st, pc, ghosts + (size_t)ghost * pc->stride, want, pc->stride,
                           0);
        }
    free(want);
    return ok;
}

/* Checks the statements as written whose last piece this statement was;
 * returns -1 if it checked none, else 1 if all were right. */
static int end_pieces(sc_interp_t *s, int r, const sc_stmt_t *st)
{
    if (!s->payload)
        return -1;
    int verdict = -1;
    for (int k = 0; k < st->npieces; k++) {
        const sc_piece_t *pc = &st->pieces[k];
        if (pc->offset + pc->bytes != pc->stride)
            continue;
        long seed = s->ranks[r].occurrence[pc->origin] - 1;
        int ok = -1;
        if (st->kind == SC_STMT_CALL)
            ok = check_call(s, r, st, pc, seed);
        else if (st->kind == SC_STMT_HALO)
            ok = check_halo(s, r, st, pc, seed);
        else if (st->kind == SC_STMT_SEND && r == st->to) {
            unsigned char *want = malloc(pc->stride + 1);
            sc_data_t d = piece_data(s, st, pc, seed);
            if (want)
                fill_pattern(&d, st->from, want);
            ok = want && memcmp(s->ranks[r].buf[pc->out], want, pc->stride) == 0;
            if (want && !ok)
                note_wrong(s, r, st, pc, s->ranks[r].buf[pc->out], want, pc->stride, 0);
            free(want);
        }
        if (ok >= 0) {
            s->checked++;
            s->wrong += !ok;
            verdict = verdict == 0 ? 0 : ok;
        }
    }
    return verdict;
}

static void copy_if_real(const sc_interp_t *s, void *dst, const void *src, size_t bytes)
{
    if (s->payload && bytes)
        memcpy(dst, src, bytes);
}

/* Into the packing buffer: each piece's input, one after the other (a
 * scatter's root: block j of every piece into block j of the call). */
static void gather_call(sc_interp_t *s, int r, const sc_stmt_t *st, unsigned char *stage)
{
    int blocks = st->kind == SC_STMT_CALL && st->collective == SC_SCATTER ? s->np : 1;
    size_t pos = 0;
    for (int k = 0; k < st->npieces; k++) {
        const sc_piece_t *pc = &st->pieces[k];
        for (int j = 0; j < blocks; j++)
            copy_if_real(s, stage + (size_t)j * st->bytes + pos,
                         s->ranks[r].buf[pc->in] + (size_t)j * pc->stride + pc->offset, pc->bytes);
        pos += pc->bytes;
    }
}

/* Out of it: each piece's share of the result where the piece says. */
static void scatter_call(sc_interp_t *s, int r, const sc_stmt_t *st, const unsigned char *stage)
{
    int p = s->np;
    int blocks = st->kind == SC_STMT_CALL && st->collective == SC_ALLGATHER ? p : 1;
    size_t pos = 0;
    for (int k = 0; k < st->npieces; k++) {
        const sc_piece_t *pc = &st->pieces[k];
        unsigned char *out = s->ranks[r].buf[pc->out];
        for (int j = 0; j < blocks; j++)
            copy_if_real(s, out + (size_t)j * pc->stride + pc->offset,
                         stage + (size_t)j * st->bytes + pos, pc->bytes);
        pos += pc->bytes;
    }
}

static sc_err_t run_barrier(sc_interp_t *s, sc_comm_t *comm, const sc_stmt_t *st, int index,
                            int *verdict)
{
    int r = comm->rank, p = s->np;
    long round = s->ranks[r].barriers_done[index]++;
    s->barrier_entries[index]++;
    /* A barrier has no data; a test may still give its algorithm bytes. */
    sc_coll_args_t args = {.sendbuf = s->ranks[r].stage_in,
                           .recvbuf = s->ranks[r].stage_out,
                           .bytes = st->bytes,
                           .pi = s->pi,
                           .pi_inv = s->pi_inv};
    sc_err_t err = sc_algo_call(st->algo, comm, &args);
    /* Nobody may leave before every rank has entered. */
    *verdict = s->barrier_entries[index] >= (round + 1) * p;
    s->checked++;
    s->wrong += !*verdict;
    return err;
}

static sc_err_t run_call(sc_interp_t *s, sc_comm_t *comm, const sc_stmt_t *st)
{
    int r = comm->rank;
    sc_interp_rank_t *rd = &s->ranks[r];
    const sc_kind_t *kind = sc_kind(st->collective);
    sc_coll_args_t args = {.bytes = st->bytes,
                           .root = st->root,
                           .op = st->op,
                           .type = st->type,
                           .pi = s->pi,
                           .pi_inv = s->pi_inv};
    comm->elem_size = sc_type_size(st->type);
    /* Early exit in size-only runs: whether every piece of this rank's
     * input decides. */
    args.decides = kind->is_reduction && st->npieces > 0;
    for (int k = 0; k < st->npieces && args.decides; k++) {
        const sc_piece_t *pc = &st->pieces[k];
        sc_data_t d = piece_data(s, st, pc, rd->occurrence[pc->origin] - 1);
        args.decides =
            sc_kind_rank_decides(&d, r, pc->offset / comm->elem_size, pc->bytes / comm->elem_size);
    }
    int staged = sc_stmt_needs_stage(st);
    sc_data_t whole;
    if (!staged && st->pieces[0].offset == 0 && st->pieces[0].bytes == st->pieces[0].stride) {
        const sc_piece_t *pc = &st->pieces[0];
        whole = piece_data(s, st, pc, rd->occurrence[pc->origin] - 1);
        args.data = &whole;
    }
    if (!staged) {
        const sc_piece_t *pc = &st->pieces[0];
        unsigned char *in = rd->buf[pc->in] + pc->offset, *out = rd->buf[pc->out] + pc->offset;
        if (pc->in == pc->out && !kind->in_place) {
            /* In place: the algorithms read their input to the end. */
            copy_if_real(s, rd->stage_in, in,
                         kind->input_blocks_per_rank ? (size_t)s->np * st->bytes : st->bytes);
            in = rd->stage_in;
        }
        args.sendbuf = in;
        args.recvbuf = out;
        return sc_algo_call(st->algo, comm, &args);
    }
    spend(s, sc_model_copy_time(s->model, r, sc_stmt_gather_bytes(st, s->np, r)));
    if (sc_stmt_gather_bytes(st, s->np, r))
        gather_call(s, r, st, rd->stage_in);
    args.sendbuf = rd->stage_in;
    args.recvbuf = kind->in_place ? rd->stage_in : rd->stage_out;
    sc_err_t err = sc_algo_call(st->algo, comm, &args);
    size_t out = sc_stmt_scatter_bytes(st, s->np, r);
    if (!err && out) {
        scatter_call(s, r, st, args.recvbuf);
        spend(s, sc_model_copy_time(s->model, r, out));
    }
    return err;
}

static sc_err_t run_halo(sc_interp_t *s, sc_comm_t *comm, const sc_stmt_t *st)
{
    int r = comm->rank, faces = 2 * st->grid.ndims;
    sc_interp_rank_t *rd = &s->ranks[r];
    void *face[6], *ghost[6];
    if (st->npieces == 1) {
        const sc_piece_t *pc = &st->pieces[0];
        for (int f = 0; f < faces; f++) {
            face[f] = rd->buf[pc->in] + (size_t)f * pc->stride + pc->offset;
            ghost[f] = rd->buf[pc->out] + (size_t)(faces + f) * pc->stride + pc->offset;
        }
        return sc_halo_exchange(comm, &st->grid, face, ghost, st->bytes);
    }
    spend(s, sc_model_copy_time(s->model, r, sc_stmt_gather_bytes(st, s->np, r)));
    for (int f = 0; f < faces; f++) {
        face[f] = rd->stage_in + (size_t)f * st->bytes;
        ghost[f] = rd->stage_out + (size_t)f * st->bytes;
        size_t pos = 0;
        for (int k = 0; k < st->npieces; k++) {
            const sc_piece_t *pc = &st->pieces[k];
            copy_if_real(s, (unsigned char *)face[f] + pos,
                         rd->buf[pc->in] + (size_t)f * pc->stride + pc->offset, pc->bytes);
            pos += pc->bytes;
        }
    }
    sc_err_t err = sc_halo_exchange(comm, &st->grid, face, ghost, st->bytes);
    for (int f = 0; !err && f < faces; f++) {
        size_t pos = 0;
        for (int k = 0; k < st->npieces; k++) {
            const sc_piece_t *pc = &st->pieces[k];
            copy_if_real(s, rd->buf[pc->out] + (size_t)(faces + f) * pc->stride + pc->offset,
                         (unsigned char *)ghost[f] + pos, pc->bytes);
            pos += pc->bytes;
        }
    }
    if (!err)
        spend(s, sc_model_copy_time(s->model, r, sc_stmt_scatter_bytes(st, s->np, r)));
    return err;
}

static sc_err_t run_send(sc_interp_t *s, sc_comm_t *comm, const sc_stmt_t *st)
{
    int r = comm->rank;
    sc_interp_rank_t *rd = &s->ranks[r];
    if (r != st->from && r != st->to)
        return SC_OK;
    int staged = sc_stmt_needs_stage(st);
    const sc_piece_t *pc = &st->pieces[0];
    if (r == st->from) {
        const void *data = rd->buf[pc->in] + pc->offset;
        if (staged) {
            spend(s, sc_model_copy_time(s->model, r, st->bytes));
            gather_call(s, r, st, rd->stage_in);
            data = rd->stage_in;
        }
        return sc_send(comm, data, st->bytes, st->to, SC_TAG_SEND);
    }
    sc_err_t err = sc_recv(comm, staged ? rd->stage_out : rd->buf[pc->out] + pc->offset, st->bytes,
                           st->from, SC_TAG_SEND);
    if (!err && staged) {
        scatter_call(s, r, st, rd->stage_out);
        spend(s, sc_model_copy_time(s->model, r, st->bytes));
    }
    return err;
}

/* The allreduce ending iteration k of an until loop: one double per rank,
 * its share of the global error; in runs with data, the sum checked
 * against the global error (allreduce-if may answer +inf, "at least the
 * threshold", when some rank's error alone reached it). */
static sc_err_t run_until_test(sc_interp_t *s, sc_comm_t *comm, const sc_stmt_t *st, long k,
                               int *verdict)
{
    int r = comm->rank, p = s->np;
    double mine = sc_until_local_error(st, k, r, p), sum = 0;
    sc_coll_args_t args = {.sendbuf = &mine,
                           .recvbuf = &sum,
                           .bytes = sizeof(double),
                           .op = SC_OP_SUM,
                           .type = SC_TYPE_DOUBLE,
                           .decides = mine >= st->until.tol,
                           .threshold = st->until.tol};
    comm->elem_size = sizeof(double);
    sc_err_t err = sc_algo_call(st->algo, comm, &args);
    if (err || !s->payload)
        return err;
    double truth = sc_until_error(st, k);
    if (isinf(sum))
        *verdict =
            (st->algo->needs & SC_UNTIL) && sc_until_local_error(st, k, p - 1, p) >= st->until.tol;
    else
        *verdict = fabs(sum - truth) <= 1e-9 * truth;
    s->checked++;
    s->wrong += !*verdict;
    return SC_OK;
}

static sc_err_t run_statement(sc_interp_t *s, sc_comm_t *comm, int index)
{
    const sc_stmt_t *st = &s->prog->stmts[index];
    int r = comm->rank;
    sc_interp_rank_t *rd = &s->ranks[r];
    if (s->host.statement_begins)
        s->host.statement_begins(s->host.ctx, r);
    begin_pieces(s, r, st);
    sc_err_t err;
    int barrier = st->kind == SC_STMT_CALL && st->collective == SC_BARRIER, verdict = -1;
    switch (st->kind) {
    case SC_STMT_CALL:
        err = barrier ? run_barrier(s, comm, st, index, &verdict) : run_call(s, comm, st);
        break;
    case SC_STMT_HALO: err = run_halo(s, comm, st); break;
    case SC_STMT_LOOP: err = run_until_test(s, comm, st, rd->iteration, &verdict); break;
    default: err = run_send(s, comm, st); break;
    }
    if (!err && !barrier && st->kind != SC_STMT_LOOP)
        verdict = end_pieces(s, r, st);
    if (s->host.statement_ends)
        s->host.statement_ends(s->host.ctx, r, index, rd->executed, verdict);
    rd->executed++;
    return err;
}

static sc_err_t run_range(sc_interp_t *s, sc_comm_t *comm, int first, int last);

/* The first statement of an until loop's body that is not a compute one:
 * the body's statements before it are what a bet runs ahead. */
static int first_communication(const sc_program_t *prog, const sc_stmt_t *loop)
{
    int i = (int)(loop - prog->stmts) + 1;
    while (i < loop->end && prog->stmts[i].kind == SC_STMT_COMPUTE)
        i++;
    return i;
}

/* An until loop on one rank. With predict, the bet on "go on" computes
 * the next iteration's leading compute statements as one activity on the
 * rank's node while the allreduce runs, and that iteration then starts at
 * its first communication. The allreduce's own combining shares the
 * node's cores with it (on a node with as many ranks as cores, a rank's
 * computing slows while its allreduce combines); its overheads do not. */
static sc_err_t run_until(sc_interp_t *s, sc_comm_t *comm, int index)
{
    const sc_stmt_t *st = &s->prog->stmts[index];
    sc_interp_rank_t *rd = &s->ranks[comm->rank];
    int ahead = first_communication(s->prog, st), bet = 0;
    double speed = s->host.speed(s->host.ctx);
    sc_err_t err = SC_OK;
    for (long k = 0; !err; k++) {
        err = run_range(s, comm, bet ? ahead : index + 1, st->end);
        bet = st->until.predict && k + 1 < st->count;
        void *next = NULL;
        if (!err && bet) {
            spend(s, st->until.save_s);
            double work = 0;
            for (int i = index + 1; i < ahead; i++) {
                const sc_stmt_t *c = &s->prog->stmts[i];
                work += (c->flops + c->seconds * speed) * sc_compute_factor(c, comm->rank, s->np);
            }
            if (work > 0)
                next = s->host.execute_async(s->host.ctx, work);
        }
        rd->iteration = k;
        if (!err)
            err = run_statement(s, comm, index);
        int goes_on = !err && sc_until_goes_on(st, k);
        /* A lost bet's computing stops as soon as the sum says so (a rank
         * tests for it while computing, or a progress thread tells it). */
        if (next)
            s->host.execute_end(s->host.ctx, next, goes_on);
        if (!goes_on) {
            if (!err && bet) /* the state as before the bet */
                spend(s, st->until.rollback_s);
            break;
        }
    }
    return err;
}

/* Runs statements first..last-1 on one rank, loops included. */
static sc_err_t run_range(sc_interp_t *s, sc_comm_t *comm, int first, int last)
{
    const sc_program_t *prog = s->prog;
    sc_err_t err = SC_OK;
    for (int i = first; !err && i < last; i++) {
        const sc_stmt_t *st = &prog->stmts[i];
        switch (st->kind) {
        case SC_STMT_LOOP:
            if (st->until.on)
                err = run_until(s, comm, i);
            for (long k = 0; !err && !st->until.on && k < st->count; k++)
                err = run_range(s, comm, i + 1, st->end);
            i = st->end;
            break;
        case SC_STMT_COMPUTE: {
            double factor = sc_compute_factor(st, comm->rank, s->np);
            if (st->flops > 0)
                s->host.execute(s->host.ctx, st->flops * factor);
            else if (st->seconds > 0)
                s->host.sleep(s->host.ctx, st->seconds * factor);
            break;
        }
        default: err = run_statement(s, comm, i); break;
        }
    }
    return err;
}

sc_err_t sc_interp_run(sc_interp_t *it, sc_comm_t *comm)
{
    return run_range(it, comm, 0, it->prog->nstmts);
}

static int count_origins(const sc_program_t *prog)
{
    int n = 0;
    for (int i = 0; i < prog->nstmts; i++)
        for (int k = 0; k < prog->stmts[i].npieces; k++)
            if (prog->stmts[i].pieces[k].origin >= n)
                n = prog->stmts[i].pieces[k].origin + 1;
    return n;
}

sc_err_t sc_interp_init(sc_interp_t *it, const size_t *buffer_bytes, size_t stage_in,
                        size_t stage_out, unsigned char *area)
{
    int p = it->np, nb = it->prog->nbuffers, ns = it->prog->nstmts;
    it->norigins = count_origins(it->prog);
    it->ranks = calloc((size_t)p, sizeof *it->ranks);
    it->barrier_entries = calloc((size_t)ns + 1, sizeof *it->barrier_entries);
    it->origins = calloc((size_t)it->norigins + 1, sizeof *it->origins);
    it->shared = area != NULL;
    it->checked = it->wrong = 0;
    it->first_wrong[0] = '\0';
    if (!it->ranks || !it->barrier_entries || !it->origins)
        return sc_error(SC_ERR_RUN, "out of memory for %d ranks", p);
    for (int o = 0; o < it->norigins; o++)
        it->origins[o].seed = -1;
    for (int r = 0; r < p; r++) {
        sc_interp_rank_t *rd = &it->ranks[r];
        rd->buf = calloc((size_t)nb + 1, sizeof *rd->buf);
        rd->occurrence = calloc((size_t)it->norigins + 1, sizeof *rd->occurrence);
        rd->barriers_done = calloc((size_t)ns + 1, sizeof *rd->barriers_done);
        if (!rd->buf || !rd->occurrence || !rd->barriers_done)
            return sc_error(SC_ERR_RUN, "out of memory for the buffers of rank %d", r);
        if (area) {
            for (int b = 0; b < nb; b++)
                rd->buf[b] = area;
            rd->stage_in = rd->stage_out = area;
            continue;
        }
        for (int b = 0; b < nb; b++)
            if (!(rd->buf[b] = calloc(1, buffer_bytes[b] + 1)))
                return sc_error(SC_ERR_RUN, "out of memory for the buffers of rank %d", r);
        rd->stage_in = malloc(stage_in + 1);
        rd->stage_out = malloc(stage_out + 1);
        if (!rd->stage_in || !rd->stage_out)
            return sc_error(SC_ERR_RUN, "out of memory for the buffers of rank %d", r);
    }
    return SC_OK;
}

void sc_interp_destroy(sc_interp_t *it)
{
    for (int r = 0; it->ranks && r < it->np; r++) {
        sc_interp_rank_t *rd = &it->ranks[r];
        if (!it->shared && rd->buf) {
            for (int b = 0; b < it->prog->nbuffers; b++)
                free(rd->buf[b]);
            free(rd->stage_in);
            free(rd->stage_out);
        }
        free(rd->buf);
        free(rd->occurrence);
        free(rd->barriers_done);
    }
    for (int o = 0; it->origins && o < it->norigins; o++)
        free(it->origins[o].expect);
    free(it->origins);
    free(it->ranks);
    free(it->barrier_entries);
    it->ranks = NULL;
    it->origins = NULL;
    it->barrier_entries = NULL;
}
