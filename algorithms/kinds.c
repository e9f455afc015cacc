/* Each collective described once.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "kinds.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collectives.h"

/* The bytes rank r contributes in verified runs: distinct for every rank
 * in the first byte up to 256 ranks, in the first four up to 2^32. */
static unsigned char pattern_byte(int rank, size_t offset)
{
    /* Knuth's multiplicative hash is a bijection on 32 bits, and its low
     * byte on the low byte (odd multiplier), so blocks of different ranks
     * differ in their first bytes; the offset term varies the rest. */
    uint32_t h = (uint32_t)(rank + 1) * 2654435761u;
    return (unsigned char)((h >> (8 * (offset % 4))) ^ (uint32_t)(offset / 4 * 131));
}

/* Calls of one program differ by their seed: the pattern runs on from
 * where the seed puts it. Seed 0 is the pattern of a single call. */
static void fill_pattern(const sc_data_t *d, int rank, unsigned char *buf)
{
    size_t start = d->seed * 4099;
    for (size_t k = 0; k < d->bytes; k++)
        buf[k] = pattern_byte(rank, start + k);
}

static void fill_block(const sc_data_t *d, int rank, void *in)
{
    fill_pattern(d, rank, in);
}

static void fill_root_message(const sc_data_t *d, int rank, void *in)
{
    if (rank == d->root)
        fill_pattern(d, rank, in);
}

/* The root's p blocks, block j destined for rank j: rank j's pattern, so
 * that a block delivered to the wrong rank shows whose it was. */
static void fill_root_blocks(const sc_data_t *d, int rank, void *in)
{
    if (rank == d->root)
        for (int j = 0; j < d->p; j++)
            fill_pattern(d, j, (unsigned char *)in + (size_t)j * d->bytes);
}

static void fill_vector(const sc_data_t *d, int rank, void *in)
{
    size_t elem = sc_type_size(d->type), n = d->bytes / elem, first = d->seed * n;
    if (d->extreme && (d->op == SC_OP_MAX || d->op == SC_OP_MIN)) {
        int holds = sc_extreme_holder(d->extreme, d->p, d->seed) == rank;
        for (size_t k = 0; k < n; k++)
            sc_op_sample_extreme(d->op, d->type, rank, holds, first + k, (char *)in + k * elem);
        return;
    }
    if (d->deciders && sc_op_can_decide(d->op)) {
        int decides = sc_deciders_has(d->deciders, rank, d->p, d->seed);
        for (size_t k = 0; k < n; k++)
            sc_op_sample_decider(d->op, rank, decides, first + k, (char *)in + k * elem);
        return;
    }
    sc_op_sample_n(d->op, d->type, rank, d->p, first, n, in);
}

/* Element k (counted from the call's first) of rank r's input. */
static void element(const sc_data_t *d, int r, size_t k, void *out)
{
    size_t first = d->seed * (d->bytes / sc_type_size(d->type)) + k;
    if (d->extreme)
        sc_op_sample_extreme(d->op, d->type, r,
                             sc_extreme_holder(d->extreme, d->p, d->seed) == r, first, out);
    else
        sc_op_sample(d->op, d->type, r, d->p, first, out);
}

int sc_kind_extreme_winner(const sc_data_t *d)
{
    if (d->extreme) /* its every element is the extreme, which no other reaches */
        return sc_extreme_holder(d->extreme, d->p, d->seed);
    double best[1], x[1];
    int winner = 0;
    element(d, 0, 0, best);
    for (int r = 1; r < d->p; r++) {
        element(d, r, 0, x);
        if (sc_op_better(d->op, d->type, x, best)) {
            memcpy(best, x, sizeof best);
            winner = r;
        }
    }
    return winner;
}

int sc_kind_rank_beats(const sc_data_t *d, int rank, int other)
{
    if (d->extreme) {
        int holder = sc_extreme_holder(d->extreme, d->p, d->seed);
        if (rank == holder || other == holder)
            return rank == holder && other != holder;
    }
    double a[1], b[1];
    size_t n = d->bytes / sc_type_size(d->type);
    for (size_t k = 0; k < n; k++) {
        element(d, rank, k, a);
        element(d, other, k, b);
        if (sc_op_better(d->op, d->type, a, b))
            return 1;
    }
    return 0;
}

int sc_kind_anyone_beats(const sc_data_t *d, int other)
{
    /* --data extreme: the holder's every element is the extreme, which no
     * other value reaches. */
    if (d->extreme)
        return sc_extreme_holder(d->extreme, d->p, d->seed) != other;
    for (int r = 0; r < d->p; r++)
        if (sc_kind_rank_beats(d, r, other))
            return 1;
    return 0;
}

int sc_kind_rank_decides(const sc_data_t *d, int rank, size_t first, size_t count)
{
    if (!sc_op_can_decide(d->op) || count == 0)
        return 0;
    if (d->deciders)
        return sc_deciders_has(d->deciders, rank, d->p, d->seed);
    /* sc_op_sample: rank k mod (p+1) decides element k of land and lor, so
     * a rank decides a span of one element only; the samples of band and
     * bor never decide. */
    size_t k = d->seed * (d->bytes / sc_type_size(d->type)) + first;
    return (d->op == SC_OP_LAND || d->op == SC_OP_LOR) && count == 1 &&
           k % (size_t)(d->p + 1) == (size_t)rank;
}

static void expect_blocks(const sc_data_t *d, void *out)
{
    for (int j = 0; j < d->p; j++)
        fill_pattern(d, j, (unsigned char *)out + (size_t)j * d->bytes);
}

static void expect_root_message(const sc_data_t *d, void *out)
{
    fill_pattern(d, d->root, out);
}

/* The sequential reduction of every rank's input, in rank order. The
 * samples make every order give this result bit for bit (reduce/ops.h). */
static void expect_reduction(const sc_data_t *d, void *out)
{
    size_t n = d->bytes / sc_type_size(d->type);
    char *input = malloc(d->bytes + 1);
    fill_vector(d, 0, out);
    for (int r = 1; r < d->p && input; r++) {
        fill_vector(d, r, input);
        sc_op_apply(d->op, d->type, out, input, n);
    }
    if (!input) /* never equal to a real result: the check fails loudly */
        memset(out, 0xA5, d->bytes);
    free(input);
}

static const sc_kind_t kinds[SC_NCOLLECTIVES] = {
    /*               name         root red data out-blocks in-place in-blocks fill  expect */
    [SC_ALLGATHER] = {SC_ALLGATHER, "allgather", 0, 0, 1, 1, 0, 0, fill_block, expect_blocks},
    [SC_BCAST] = {SC_BCAST, "bcast", 1, 0, 1, 0, 1, 0, fill_root_message, expect_root_message},
    [SC_BARRIER] = {SC_BARRIER, "barrier", 0, 0, 0, 0, 0, 0, NULL, NULL},
    [SC_REDUCE] = {SC_REDUCE, "reduce", 1, 1, 1, 0, 0, 0, fill_vector, expect_reduction},
    [SC_ALLREDUCE] = {SC_ALLREDUCE, "allreduce", 0, 1, 1, 0, 0, 0, fill_vector, expect_reduction},
    /* every rank's expected block is the root's input, computed once */
    [SC_SCATTER] = {SC_SCATTER, "scatter", 1, 0, 1, 0, 0, 1, fill_root_blocks, expect_blocks},
};

const sc_kind_t *sc_kind(sc_collective_t collective)
{
    return &kinds[collective];
}

const sc_kind_t *sc_kind_find(const char *name)
{
    for (int c = 0; c < SC_NCOLLECTIVES; c++)
        if (strcmp(kinds[c].name, name) == 0)
            return &kinds[c];
    return NULL;
}

const char *sc_kind_names(void)
{
    return "allgather, bcast, barrier, reduce, allreduce, scatter";
}

size_t sc_kind_output_bytes(const sc_kind_t *kind, const sc_data_t *d)
{
    if (!kind->has_data)
        return 0;
    return kind->output_blocks_per_rank ? (size_t)d->p * d->bytes : d->bytes;
}

size_t sc_kind_input_bytes(const sc_kind_t *kind, const sc_data_t *d)
{
    if (!kind->has_data)
        return 0;
    return kind->input_blocks_per_rank ? (size_t)d->p * d->bytes : d->bytes;
}

size_t sc_kind_expect_bytes(const sc_kind_t *kind, const sc_data_t *d)
{
    return kind->input_blocks_per_rank ? sc_kind_input_bytes(kind, d)
                                       : sc_kind_output_bytes(kind, d);
}

size_t sc_kind_expect_offset(const sc_kind_t *kind, const sc_data_t *d, int rank)
{
    return kind->input_blocks_per_rank ? (size_t)rank * d->bytes : 0;
}

int sc_kind_checks_rank(const sc_kind_t *kind, const sc_data_t *d, int rank)
{
    if (!kind->has_data)
        return 0;
    return kind->collective != SC_REDUCE || rank == d->root;
}
