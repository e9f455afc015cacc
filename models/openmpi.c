/* Open MPI 4.1's coll/tuned: the fixed decision rules, the trees of
 * ompi/mca/coll/base/coll_base_topo.c, and the cost of the schedules of
 * algorithms/openmpi/ replayed message by message.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "openmpi.h"

#include <stdlib.h>

#include "collectives.h"

/* ---- the fixed decision rules (coll_tuned_decision_fixed.c, v4.1.6) ----
 * Each row is a process-count band: `below` is its upper bound (exclusive)
 * and the band's thresholds are read in order, the first size bound above
 * the size giving the algorithm; `last` applies beyond them. */

typedef struct {
    size_t below;
    int alg;
} step_t;

static int pick(const step_t *steps, int nsteps, int last, size_t s)
{
    for (int i = 0; i < nsteps; i++)
        if (s < steps[i].below)
            return steps[i].alg;
    return last;
}

#define PICK(last, ...)                                                                           \
    do {                                                                                          \
        static const step_t steps_[] = {__VA_ARGS__};                                             \
        return pick(steps_, (int)(sizeof steps_ / sizeof steps_[0]), (last), s);                 \
    } while (0)

sc_ompi_allreduce_t sc_ompi41_allreduce_rule(size_t s, int p)
{
    /* ompi_coll_tuned_allreduce_intra_dec_fixed, commutative operations */
    if (p < 4)
        PICK(6, {8, 4}, {4096, 3}, {8192, 4}, {16384, 3}, {65536, 4}, {262144, 5});
    if (p < 8)
        PICK(6, {16, 4}, {8192, 3});
    if (p < 16)
        PICK(6, {8192, 3});
    if (p < 32)
        PICK(6, {64, 5}, {4096, 3});
    if (p < 64)
        PICK(6, {128, 5});
    if (p < 128)
        PICK(6, {262144, 3});
    if (p < 256)
        PICK(6, {131072, 2}, {262144, 3});
    if (p < 512)
        PICK(6, {4096, 2});
    if (p < 2048)
        PICK(6, {2048, 2}, {16384, 3});
    if (p < 4096)
        PICK(6, {2048, 2}, {4096, 5}, {16384, 3});
    PICK(6, {2048, 2}, {16384, 5}, {32768, 3});
}

sc_ompi_barrier_t sc_ompi41_barrier_rule(int p)
{
    /* ompi_coll_tuned_barrier_intra_dec_fixed */
    if (p < 4)
        return SC_OMPI_BARRIER_RECURSIVE_DOUBLING;
    if (p < 8)
        return SC_OMPI_BARRIER_LINEAR;
    if (p < 64)
        return SC_OMPI_BARRIER_RECURSIVE_DOUBLING;
    if (p < 256)
        return SC_OMPI_BARRIER_BRUCK;
    if (p < 512)
        return SC_OMPI_BARRIER_TREE;
    if (p < 1024)
        return SC_OMPI_BARRIER_BRUCK;
    if (p < 4096)
        return SC_OMPI_BARRIER_TREE;
    return SC_OMPI_BARRIER_BRUCK;
}

sc_ompi_bcast_t sc_ompi41_bcast_rule(size_t s, int p)
{
    /* ompi_coll_tuned_bcast_intra_dec_fixed */
    if (p < 4)
        PICK(5, {32, 3}, {256, 5}, {512, 3}, {1024, 7}, {32768, 1}, {131072, 5}, {262144, 2},
             {524288, 1}, {1048576, 6});
    if (p < 8)
        PICK(2, {64, 5}, {128, 6}, {2048, 5}, {8192, 6}, {1048576, 1});
    if (p < 16)
        PICK(1, {8, 7}, {64, 5}, {4096, 7}, {16384, 5}, {32768, 6});
    if (p < 32)
        PICK(8, {4096, 7}, {1048576, 6});
    if (p < 64)
        PICK(7, {2048, 6});
    if (p < 128)
        return SC_OMPI_BCAST_KNOMIAL;
    if (p < 256)
        PICK(7, {2, 6}, {16384, 5}, {32768, 1}, {65536, 5});
    if (p < 1024)
        PICK(7, {16384, 7}, {32768, 4});
    if (p < 2048)
        PICK(8, {524288, 7});
    if (p < 4096)
        PICK(8, {262144, 7});
    PICK(8, {8192, 7}, {16384, 5}, {262144, 7});
}

sc_ompi_reduce_t sc_ompi41_reduce_rule(size_t s, int p)
{
    /* ompi_coll_tuned_reduce_intra_dec_fixed, commutative operations */
    if (p < 4)
        PICK(3, {8, 7}, {16, 4}, {32, 3}, {262144, 1}, {524288, 3}, {1048576, 2});
    if (p < 8)
        PICK(1, {4096, 4}, {65536, 2}, {262144, 5}, {524288, 1}, {1048576, 5});
    if (p < 16)
        PICK(5, {8192, 4});
    if (p < 32)
        PICK(5, {4096, 4});
    if (p < 256)
        return SC_OMPI_REDUCE_BINOMIAL;
    if (p < 512)
        PICK(5, {8192, 5}, {16384, 6});
    if (p < 2048)
        return SC_OMPI_REDUCE_BINOMIAL;
    if (p < 4096)
        PICK(5, {512, 5}, {1024, 6}, {8192, 5}, {16384, 6});
    PICK(5, {16, 5}, {32, 6}, {1024, 5}, {2048, 6}, {8192, 5}, {16384, 6});
}

sc_ompi_allgather_t sc_ompi41_allgather_rule(size_t s, int p)
{
    /* ompi_coll_tuned_allgather_intra_dec_fixed: s is one rank's block */
    if (p == 2)
        return SC_OMPI_ALLGATHER_TWO_PROCS;
    if (p < 32)
        return SC_OMPI_ALLGATHER_RECURSIVE_DOUBLING;
    if (p < 64)
        PICK(4, {1024, 3}, {65536, 5});
    if (p < 128)
        PICK(4, {512, 3}, {65536, 5});
    if (p < 256)
        PICK(4, {512, 3}, {131072, 5}, {524288, 4}, {1048576, 5});
    if (p < 512)
        PICK(4, {32, 3}, {128, 2}, {1024, 3}, {131072, 5}, {524288, 4}, {1048576, 5});
    if (p < 1024)
        PICK(5, {64, 3}, {256, 2}, {2048, 3});
    if (p < 2048)
        PICK(5, {4, 3}, {8, 2}, {16, 3}, {32, 2}, {256, 3}, {512, 2}, {4096, 3});
    if (p < 4096)
        PICK(5, {32, 2}, {128, 3}, {512, 2}, {4096, 3});
    PICK(5, {2, 3}, {8, 2}, {16, 3}, {512, 2}, {4096, 3});
}

sc_ompi_scatter_t sc_ompi41_scatter_rule(size_t s, int p)
{
    /* ompi_coll_tuned_scatter_intra_dec_fixed: the same text in v4.1.6
     * and v5.0.5, the block being the root's scount elements */
    if (p < 4)
        PICK(1, {2, 3}, {131072, 1}, {262144, 3});
    if (p < 8)
        PICK(1, {2048, 2}, {4096, 1}, {8192, 2}, {32768, 1}, {1048576, 3});
    if (p < 16)
        PICK(1, {16384, 2}, {1048576, 3});
    if (p < 32)
        PICK(3, {16384, 2}, {32768, 1});
    if (p < 64)
        PICK(3, {512, 2}, {8192, 3}, {16384, 2});
    PICK(3, {512, 2});
}

/* ---- the older fixed rules (v3.1.6 and v4.0.3: the same text) ---- */

sc_ompi_scatter_t sc_ompi40_scatter_rule(size_t block, int p)
{
    /* ompi_coll_tuned_scatter_intra_dec_fixed: binomial for more than 10
     * processes and blocks below 300 bytes, else basic linear */
    return p > 10 && block < 300 ? SC_OMPI_SCATTER_BINOMIAL : SC_OMPI_SCATTER_BASIC_LINEAR;
}

sc_ompi_allreduce_t sc_ompi40_allreduce_rule(size_t bytes, size_t elems, int p, size_t *segsize)
{
    /* ompi_coll_tuned_allreduce_intra_dec_fixed: recursive doubling below
     * 10000 bytes; for commutative operations on more elements than ranks
     * the ring, segmented into 1 MiB pieces once the vector exceeds p MiB;
     * else reduce + broadcast */
    const size_t segment = (size_t)1 << 20;
    *segsize = 0;
    if (bytes < 10000)
        return SC_OMPI_ALLREDUCE_RECURSIVE_DOUBLING;
    if (elems > (size_t)p) {
        if ((size_t)p * segment >= bytes)
            return SC_OMPI_ALLREDUCE_RING;
        *segsize = segment;
        return SC_OMPI_ALLREDUCE_SEGMENTED_RING;
    }
    return SC_OMPI_ALLREDUCE_NONOVERLAPPING;
}

sc_ompi_barrier_t sc_ompi40_barrier_rule(int p)
{
    /* ompi_coll_tuned_barrier_intra_dec_fixed: two procs, recursive
     * doubling for a power of two, else Bruck */
    if (p == 2)
        return SC_OMPI_BARRIER_TWO_PROCS;
    return (p & (p - 1)) == 0 ? SC_OMPI_BARRIER_RECURSIVE_DOUBLING : SC_OMPI_BARRIER_BRUCK;
}

sc_ompi_bcast_t sc_ompi40_bcast_rule(size_t bytes, int p, size_t *segsize)
{
    /* ompi_coll_tuned_bcast_intra_dec_fixed; a broadcast's count is its
     * bytes (MPI_BYTE). The lines p = a m + b were fitted for 16, 64 and
     * 128 KiB segments. */
    double m = (double)bytes;
    *segsize = 0;
    if (bytes < 2048) /* its count <= 1 test is implied */
        return SC_OMPI_BCAST_BINOMIAL;
    if (bytes < 370728) {
        *segsize = 1024;
        return SC_OMPI_BCAST_SPLIT_BINTREE;
    }
    if (p < 1.6134e-6 * m + 2.1102)
        *segsize = 128 * 1024;
    else if (p < 13) {
        *segsize = 8 * 1024;
        return SC_OMPI_BCAST_SPLIT_BINTREE;
    } else if (p < 2.3679e-6 * m + 1.1787)
        *segsize = 64 * 1024;
    else if (p < 3.2118e-6 * m + 8.7936)
        *segsize = 16 * 1024;
    else
        *segsize = 8 * 1024;
    return SC_OMPI_BCAST_PIPELINE;
}

sc_ompi_reduce_t sc_ompi40_reduce_rule(size_t bytes, size_t elems, int p, size_t *segsize)
{
    /* ompi_coll_tuned_reduce_intra_dec_fixed, commutative operations */
    double m = (double)bytes;
    *segsize = 0;
    if (p < 8 && bytes < 512)
        return SC_OMPI_REDUCE_LINEAR;
    if ((p < 8 && bytes < 20480) || bytes < 2048 || elems <= 1)
        return SC_OMPI_REDUCE_BINOMIAL;
    if (p > 0.6016 / 1024.0 * m + 1.3496) {
        *segsize = 1024;
        return SC_OMPI_REDUCE_BINOMIAL;
    }
    if (p > 0.0410 / 1024.0 * m + 9.7128) {
        *segsize = 1024;
        return SC_OMPI_REDUCE_PIPELINE;
    }
    if (p > 0.0422 / 1024.0 * m + 1.1614) {
        *segsize = 32 * 1024;
        return SC_OMPI_REDUCE_BINARY;
    }
    *segsize = p > 0.0033 / 1024.0 * m + 1.6761 ? 32 * 1024 : 64 * 1024;
    return SC_OMPI_REDUCE_PIPELINE;
}

sc_ompi_allgather_t sc_ompi40_allgather_rule(size_t block, int p)
{
    /* ompi_coll_tuned_allgather_intra_dec_fixed: two procs; below 50000
     * bytes in all, recursive doubling (p a power of two) or Bruck; else
     * ring (odd p) or neighbour exchange (even p) */
    if (p == 2)
        return SC_OMPI_ALLGATHER_TWO_PROCS;
    if (block * (size_t)p < 50000)
        return (p & (p - 1)) == 0 ? SC_OMPI_ALLGATHER_RECURSIVE_DOUBLING : SC_OMPI_ALLGATHER_BRUCK;
    return p % 2 ? SC_OMPI_ALLGATHER_RING : SC_OMPI_ALLGATHER_NEIGHBOR;
}

/* ---- trees (coll_base_topo.c) ---- */

/* build_in_order_bintree: descend from the top (rank p - 1) to `rank`,
 * keeping the subtree's size and the offset of its lowest rank. */
static int in_order_binary(int p, int rank, int *parent, int *child)
{
    int size = p, me = rank, top = p - 1, offset = 0, n = 0;
    for (;;) {
        int right = size / 2, left_child = -1, right_child = -1;
        if (size > 1) {
            left_child = top - 1;
            if (left_child > 0)
                right_child = right - 1;
        }
        if (me == top) {
            if (left_child >= 0)
                child[n++] = left_child + offset;
            if (right_child >= 0)
                child[n++] = right_child + offset;
            return n;
        }
        if (me > right_child) { /* in the left subtree: ranks right .. top - 1 */
            if (me == left_child)
                *parent = top + offset;
            size -= right + 1;
            offset += right;
            me -= right;
            top = size - 1;
        } else { /* in the right subtree: ranks 0 .. right - 1 */
            if (me == right_child)
                *parent = top + offset;
            size = right;
            top = right_child;
        }
    }
}

int sc_ompi_tree(sc_ompi_tree_t tree, int p, int root, int rank, int *parent, int *child)
{
    int n = 0, v = (rank - root + p) % p;
    *parent = -1;
#define REAL(x) (((x) + root) % p)
    switch (tree) {
    case SC_OMPI_TREE_IN_ORDER_BINARY:
        return in_order_binary(p, rank, parent, child);
    case SC_OMPI_TREE_FLAT:
        if (v)
            *parent = root;
        else
            for (int r = 0; r < p; r++)
                if (r != root)
                    child[n++] = r;
        return n;
    case SC_OMPI_TREE_CHAIN:
        if (v)
            *parent = REAL(v - 1);
        if (v + 1 < p)
            child[n++] = REAL(v + 1);
        return n;
    case SC_OMPI_TREE_BINARY: {
        int first = 0, delta = 1; /* v's level starts at first = delta - 1 */
        while (2 * first + 1 <= v) {
            first = 2 * first + 1;
            delta *= 2;
        }
        for (int i = 1; i <= 2 && v + i * delta < p; i++)
            child[n++] = REAL(v + i * delta);
        if (v) {
            int up = v;
            if (up < 2)
                up = 0;
            else
                while (up >= first)
                    up -= delta / 2;
            *parent = REAL(up);
        }
        return n;
    }
    case SC_OMPI_TREE_BINOMIAL: {
        int mask = 1; /* the smallest power of two above v */
        while (mask <= v)
            mask <<= 1;
        if (v)
            *parent = REAL(v ^ (mask >> 1));
        for (; mask < p && (v ^ mask) < p; mask <<= 1)
            child[n++] = REAL(v ^ mask);
        return n;
    }
    case SC_OMPI_TREE_IN_ORDER_BINOMIAL:
        for (int mask = 1; mask < p; mask <<= 1) {
            int other = v ^ mask;
            if (other < v) {
                *parent = REAL(other);
                break;
            }
            if (other < p)
                child[n++] = REAL(other);
        }
        return n;
    case SC_OMPI_TREE_KNOMIAL: {
        const int k = SC_OMPI_KNOMIAL_RADIX;
        long mask = 1;
        for (; mask < p; mask *= k)
            if (v % (k * mask)) {
                *parent = REAL((int)(v / (k * mask) * (k * mask)));
                break;
            }
        for (mask /= k; mask > 0; mask /= k)
            for (int r = 1; r < k; r++)
                if (v + mask * r < p)
                    child[n++] = REAL((int)(v + mask * r));
        return n;
    }
    }
#undef REAL
    return n;
}

/* ---- one message as cost.c and the transport of sim/ cost it ---- */

static double max2(double a, double b)
{
    return a > b ? a : b;
}

static const sc_level_t *level(const sc_model_t *model, int a, int b)
{
    return sc_model_level(model, a, b);
}

/* The wire time of a piece carrying `bytes` of data from a to b. */
static double wire(const sc_model_t *model, int a, int b, size_t bytes)
{
    return sc_wire_time(model->plat, level(model, a, b), bytes);
}

static int is_eager(const sc_model_t *model, int a, int b, size_t bytes)
{
    return bytes <= level(model, a, b)->eager_limit;
}

static double recv_overhead(const sc_model_t *model, int a, int b, size_t bytes)
{
    return sc_level_recv_overhead(level(model, a, b), bytes);
}

/* A rank that calls isend at `now` spends o_s, waits for its NIC's gap
 * between nodes, and the message leaves: returns then, when isend returns. */
static double post(const sc_model_t *model, int a, int b, size_t bytes, double now)
{
    const sc_level_t *lv = level(model, a, b);
    double ready = now + sc_level_send_overhead(lv, bytes);
    if (sc_model_level_id(model, a, b) != SC_LEVEL_INTER)
        return ready;
    double first = sc_wire_time(model->plat, lv, bytes <= lv->eager_limit ? bytes : 0);
    return sc_model_depart(model->nic_free, model->node_of[a], model->node_of[b], lv->gap_s, ready,
                           first);
}

static sc_err_t no_memory(void)
{
    return sc_error(SC_ERR_RUN, "out of memory in the cost model");
}

/* Rounds of messages (sc_model_exchange): each rank one send, receive,
 * or both, then its combining. */
typedef struct {
    const sc_model_t *model;
    sc_round_t round;
    double *t;
} rounds_t;

static sc_err_t rounds_init(rounds_t *r, const sc_model_t *model, double *t)
{
    *r = (rounds_t){.model = model, .t = t};
    return sc_round_init(&r->round, model->size);
}

static void message(rounds_t *r, int a, int b, size_t bytes)
{
    r->round.dst[a] = b;
    r->round.src[b] = a;
    r->round.bytes[a] = bytes;
}

static void combine(rounds_t *r, int a, size_t bytes)
{
    r->round.reduce[a] += bytes;
}

static void end_round(rounds_t *r)
{
    sc_model_exchange(r->model, &r->round, r->t);
    sc_round_clear(&r->round, r->model->size);
}

/* A tree's ranks from its root down, level by level: parents before
 * children. child[] gets room for p entries. */
static sc_err_t tree_order(const sc_model_t *model, sc_ompi_tree_t tree, int root, int **order,
                           int **child)
{
    int p = model->size, head = 0, tail = 0, parent;
    *order = malloc((size_t)p * sizeof **order);
    *child = malloc((size_t)p * sizeof **child);
    if (!*order || !*child) {
        free(*order);
        free(*child);
        return no_memory();
    }
    (*order)[tail++] = tree == SC_OMPI_TREE_IN_ORDER_BINARY ? p - 1 : root;
    while (head < tail) {
        int n = sc_ompi_tree(tree, p, root, (*order)[head++], &parent, *child);
        for (int i = 0; i < n; i++)
            (*order)[tail++] = (*child)[i];
    }
    return SC_OK;
}

/* ---- broadcast ---- */

/* ompi_coll_base_bcast_intra_generic, one segment: every rank receives the
 * message from its parent (blocking), isends it to each child in order and
 * waits for all. A rendezvous answer reaching the parent while it still
 * posts sends is seen once it waits. */
static sc_err_t tree_bcast(const sc_model_t *model, size_t bytes, int root, double *t,
                           sc_ompi_tree_t tree)
{
    int p = model->size, *order = NULL, *child = NULL, parent;
    if (p == 1 || bytes == 0)
        return SC_OK;
    double *left = malloc((size_t)p * sizeof *left);
    sc_err_t err = left ? tree_order(model, tree, root, &order, &child) : no_memory();
    if (err) {
        free(left);
        return err;
    }
    for (int k = 0; k < p; k++) {
        int u = order[k], n = sc_ompi_tree(tree, p, root, u, &parent, child);
        double now = t[u];
        for (int i = 0; i < n; i++)
            left[i] = now = post(model, u, child[i], bytes, now);
        double finish = now; /* waitall entered */
        for (int i = 0; i < n; i++) {
            int c = child[i]; /* blocked in its receive since t[c] */
            double o_r = recv_overhead(model, u, c, bytes);
            if (is_eager(model, u, c, bytes)) {
                t[c] = max2(t[c], left[i] + wire(model, u, c, bytes)) + o_r;
            } else {
                double cts = max2(t[c], left[i] + wire(model, u, c, 0));
                double done = max2(cts + wire(model, c, u, 0), now) + wire(model, u, c, bytes);
                t[c] = done + o_r;
                finish = max2(finish, done);
            }
        }
        t[u] = finish;
    }
    free(left);
    free(order);
    free(child);
    return SC_OK;
}

sc_err_t sc_model_bcast_ompi_linear(const sc_model_t *model, size_t bytes, int root, double *t)
{
    return tree_bcast(model, bytes, root, t, SC_OMPI_TREE_FLAT);
}

sc_err_t sc_model_bcast_ompi_chain(const sc_model_t *model, size_t bytes, int root, double *t)
{
    return tree_bcast(model, bytes, root, t, SC_OMPI_TREE_CHAIN);
}

sc_err_t sc_model_bcast_ompi_bintree(const sc_model_t *model, size_t bytes, int root, double *t)
{
    return tree_bcast(model, bytes, root, t, SC_OMPI_TREE_BINARY);
}

sc_err_t sc_model_bcast_ompi_binomial(const sc_model_t *model, size_t bytes, int root, double *t)
{
    return tree_bcast(model, bytes, root, t, SC_OMPI_TREE_BINOMIAL);
}

sc_err_t sc_model_bcast_ompi_knomial(const sc_model_t *model, size_t bytes, int root, double *t)
{
    return tree_bcast(model, bytes, root, t, SC_OMPI_TREE_KNOMIAL);
}

/* ompi_coll_base_bcast_intra_split_bintree on elements of `elem` bytes:
 * the halves go down the two subtrees with blocking sends, then partners
 * swap them. */
static sc_err_t split_bintree(const sc_model_t *model, size_t bytes, int root, double *t,
                              size_t elem)
{
    int p = model->size, *order = NULL, *child = NULL, parent;
    size_t n = bytes / elem, cnt[2] = {(n + 1) / 2 * elem, n / 2 * elem};
    if (p == 1 || n == 0)
        return SC_OK;
    if (cnt[1] == 0)
        return tree_bcast(model, bytes, root, t, SC_OMPI_TREE_CHAIN);
    rounds_t r;
    sc_err_t err = tree_order(model, SC_OMPI_TREE_BINARY, root, &order, &child);
    if (err)
        return err;
    err = rounds_init(&r, model, t);
    for (int k = 0; k < p && !err; k++) {
        int u = order[k], side = ((u - root + p) % p + 1) % 2;
        int nc = sc_ompi_tree(SC_OMPI_TREE_BINARY, p, root, u, &parent, child);
        double now = t[u];
        for (int i = 0; i < nc; i++)
            t[child[i]] = sc_model_send(model, u, child[i], cnt[u == root ? i : side], &now,
                                        t[child[i]]);
        t[u] = now;
    }
    for (int u = 0; u < p && !err; u++) {
        int side = ((u - root + p) % p + 1) % 2;
        int pair = side == 0 ? (u + 1) % p : (u - 1 + p) % p;
        if (u == root)
            continue;
        if (p % 2 == 0 && u == (root + p - 1) % p)
            message(&r, root, u, cnt[1]);
        else
            message(&r, u, pair, cnt[side]);
    }
    if (!err) {
        end_round(&r);
        sc_round_destroy(&r.round);
    }
    free(order);
    free(child);
    return err;
}

sc_err_t sc_model_bcast_ompi_split_bintree(const sc_model_t *model, size_t bytes, int root,
                                           double *t)
{
    return split_bintree(model, bytes, root, t, 1);
}

/* ompi_coll_base_bcast_intra_scatter_allgather on elements of `elem` bytes:
 * MPICH's binomial scatter of ceil(n/p)-element chunks, then recursive
 * doubling with the non-power-of-two fix-up (algorithms/openmpi/bcast.c). */
static sc_err_t scatter_allgather(const sc_model_t *model, size_t bytes, int root, double *t,
                                  size_t elem)
{
    int p = model->size;
    size_t n = bytes / elem;
    if (p == 1 || n == 0)
        return SC_OK;
    if (n < (size_t)p)
        return tree_bcast(model, bytes, root, t, SC_OMPI_TREE_FLAT);
    for (int rel = 0; rel < p; rel++) { /* parents first */
        int rank = (rel + root) % p;
        double now = t[rank];
        for (int mask = sc_binomial_mask(rel, p) >> 1; mask > 0; mask >>= 1) {
            if (rel + mask >= p)
                continue;
            int c = (rank + mask) % p;
            size_t size = sc_chunk_span_bytes(n, p, rel + mask, mask) * elem;
            if (size)
                t[c] = sc_model_send(model, rank, c, size, &now, t[c]);
        }
        t[rank] = now;
    }
    rounds_t r;
    sc_err_t err = rounds_init(&r, model, t);
    for (int mask = 1; mask < p && !err; mask <<= 1) {
        for (int v = 0; v < p; v++)
            if ((v ^ mask) < p)
                message(&r, (v + root) % p, ((v ^ mask) + root) % p,
                        sc_chunk_span_bytes(n, p, v & ~(mask - 1), mask) * elem);
        end_round(&r);
        for (int half = mask >> 1; half > 0; half >>= 1) {
            for (int v = 0; v < p; v++) {
                int base = v & ~(mask - 1), partner_base = (v ^ mask) & ~(mask - 1);
                int have = p - base - mask, w = v ^ half, sub = v & ~(2 * half - 1);
                if (partner_base + mask > p && w > v && v < sub + have && w >= sub + have)
                    message(&r, (v + root) % p, (w + root) % p,
                            sc_chunk_span_bytes(n, p, base + mask, mask) * elem);
            }
            end_round(&r);
        }
    }
    if (!err)
        sc_round_destroy(&r.round);
    return err;
}

sc_err_t sc_model_bcast_ompi_scatter_allgather(const sc_model_t *model, size_t bytes, int root,
                                               double *t)
{
    return scatter_allgather(model, bytes, root, t, 1);
}

/* ---- reduce ---- */

/* ompi_coll_base_reduce_generic, one segment, commutative operation. A
 * rank with children c_0 .. c_(k-1) posts the receive of c_0, and for each
 * i posts that of c_(i+1) (if any) and waits for c_i (from W_i), pays o_r
 * and combines (after c_0, its own vector; after c_i, c_i's); at the end it
 * sends its result to its parent with a blocking send. Leaves send at once.
 * The receive of c_i is posted at P_i = W_(i-1) (P_0 = P_1 = the start); a
 * rendezvous request arriving at R is answered at P_i if R <= P_i, at once
 * while the rank waits for c_(i-1), else from W_i on. Children before
 * parents (reverse level order). */
static sc_err_t tree_reduce(const sc_model_t *model, size_t bytes, int root, double *t,
                            sc_ompi_tree_t tree)
{
    int p = model->size, *order = NULL, *child = NULL, parent;
    if (p == 1 || bytes == 0)
        return SC_OK;
    double *send_at = malloc((size_t)p * sizeof *send_at); /* when a rank starts its send */
    sc_err_t err = send_at ? tree_order(model, tree, root, &order, &child) : no_memory();
    if (err) {
        free(send_at);
        return err;
    }
    for (int k = p - 1; k >= 0; k--) {
        int v = order[k], n = sc_ompi_tree(tree, p, root, v, &parent, child);
        double W = t[v], posted = t[v], prev_end = t[v];
        for (int i = 0; i < n; i++) {
            int c = child[i];
            double left = post(model, c, v, bytes, send_at[c]), arrive;
            if (is_eager(model, c, v, bytes)) {
                arrive = left + wire(model, c, v, bytes);
                t[c] = left;
            } else {
                double R = left + wire(model, c, v, 0);
                double cts = R <= posted ? posted : R <= prev_end ? R : max2(R, W);
                arrive = cts + wire(model, v, c, 0) + wire(model, c, v, bytes);
                t[c] = arrive;
            }
            double end = max2(W, arrive);
            posted = W; /* c_(i+1) was posted as the wait for c_i started */
            prev_end = end;
            W = end + recv_overhead(model, c, v, bytes) + sc_model_reduce_time(model, v, bytes);
        }
        send_at[v] = W;
        if (parent < 0)
            t[v] = W;
    }
    free(send_at);
    free(order);
    free(child);
    return SC_OK;
}

/* ompi_coll_base_reduce_intra_basic_linear: the root receives rank p - 1's
 * vector (or copies its own), then those of p - 2 .. 0 in turn, combining
 * each (its own without a message); blocking calls. */
static sc_err_t reduce_linear(const sc_model_t *model, size_t bytes, int root, double *t)
{
    int p = model->size;
    if (p == 1 || bytes == 0)
        return SC_OK;
    double now = t[root], gamma = sc_model_reduce_time(model, root, bytes);
    if (root != p - 1)
        now = sc_model_send(model, p - 1, root, bytes, &t[p - 1], now);
    for (int i = p - 2; i >= 0; i--)
        now = (i == root ? now : sc_model_send(model, i, root, bytes, &t[i], now)) + gamma;
    t[root] = now;
    return SC_OK;
}

sc_err_t sc_model_reduce_ompi_linear(const sc_model_t *model, size_t bytes, int root, double *t)
{
    return reduce_linear(model, bytes, root, t);
}

sc_err_t sc_model_reduce_ompi_chain(const sc_model_t *model, size_t bytes, int root, double *t)
{
    return tree_reduce(model, bytes, root, t, SC_OMPI_TREE_CHAIN);
}

sc_err_t sc_model_reduce_ompi_binary(const sc_model_t *model, size_t bytes, int root, double *t)
{
    return tree_reduce(model, bytes, root, t, SC_OMPI_TREE_BINARY);
}

sc_err_t sc_model_reduce_ompi_binomial(const sc_model_t *model, size_t bytes, int root,
                                       double *t)
{
    return tree_reduce(model, bytes, root, t, SC_OMPI_TREE_IN_ORDER_BINOMIAL);
}

/* The in-order binary tree to rank p - 1, which then hands the result to
 * the root. */
sc_err_t sc_model_reduce_ompi_in_order_binary(const sc_model_t *model, size_t bytes, int root,
                                              double *t)
{
    int p = model->size;
    if (p == 1 || bytes == 0)
        return SC_OK;
    sc_err_t err = tree_reduce(model, bytes, root, t, SC_OMPI_TREE_IN_ORDER_BINARY);
    if (!err && root != p - 1)
        t[root] = sc_model_send(model, p - 1, root, bytes, &t[p - 1], t[root]);
    return err;
}

/* The span of the vector that virtual rank v splits at step s of recursive
 * halving: a lower rank keeps the lower half (coll_base_reduce.c and
 * coll_base_allreduce.c, like simcoll's sc_group_halving). */
static sc_span_t window(size_t n, int v, int s)
{
    sc_span_t x = {0, n};
    for (int i = 0; i < s; i++)
        x = sc_span_half(x, (v >> i) & 1);
    return x;
}

static size_t span_bytes(const sc_model_t *model, sc_span_t s)
{
    return sc_span_len(s) * model->elem_size;
}

/* ompi_coll_base_reduce_intra_redscat_gather (algorithms/openmpi/reduce.c):
 * ranks numbered from 0, not from the root. */
sc_err_t sc_model_reduce_ompi_redscat_gather(const sc_model_t *model, size_t bytes, int root,
                                             double *t)
{
    int p = model->size, N = sc_pow2_below(p), r = p - N, steps = sc_ceil_log2(N);
    size_t n = bytes / model->elem_size;
    if (bytes == 0)
        return SC_OK;
    if (N < 2 || n < (size_t)N)
        return reduce_linear(model, bytes, root, t);
    sc_span_t whole = {0, n}, H[2] = {sc_span_half(whole, 0), sc_span_half(whole, 1)};
    rounds_t R;
    char *gone = calloc((size_t)N, 1);
    sc_err_t err = gone ? rounds_init(&R, model, t) : no_memory();
    if (err) {
        free(gone);
        return err;
    }
    if (r > 0) {
        for (int j = 0; j < r; j++) {
            message(&R, 2 * j, 2 * j + 1, span_bytes(model, H[1]));
            message(&R, 2 * j + 1, 2 * j, span_bytes(model, H[0]));
            combine(&R, 2 * j, span_bytes(model, H[0]));
            combine(&R, 2 * j + 1, span_bytes(model, H[1]));
        }
        end_round(&R);
        for (int j = 0; j < r; j++)
            message(&R, 2 * j + 1, 2 * j, span_bytes(model, H[1]));
        end_round(&R);
    }
#define REAL(x) ((x) < r ? 2 * (x) : (x) + r)
    for (int s = 0; s < steps; s++) {
        for (int v = 0; v < N; v++) {
            int upper = (v >> s) & 1;
            message(&R, REAL(v), REAL(v ^ (1 << s)),
                    span_bytes(model, sc_span_half(window(n, v, s), !upper)));
            combine(&R, REAL(v), span_bytes(model, sc_span_half(window(n, v, s), upper)));
        }
        end_round(&R);
    }
    /* A root that dropped out gets vrank 0's block and plays vrank 0. */
    int odd_root = root < 2 * r && root % 2, vroot = odd_root ? 0 : root < 2 * r ? root / 2 : root - r;
    if (odd_root) {
        message(&R, 0, root, span_bytes(model, window(n, 0, steps)));
        end_round(&R);
    }
#define PLAYER(x) ((x) == 0 && odd_root ? root : REAL(x))
    for (int s = steps - 1; s >= 0; s--) {
        for (int v = 0; v < N; v++) {
            int w = v ^ (1 << s);
            if (gone[v] || (w >> s) != (vroot >> s))
                continue;
            message(&R, PLAYER(v), PLAYER(w),
                    span_bytes(model, sc_span_half(window(n, v, s), (v >> s) & 1)));
            gone[v] = 1;
        }
        end_round(&R);
    }
#undef PLAYER
#undef REAL
    sc_round_destroy(&R.round);
    free(gone);
    return SC_OK;
}

/* ---- allreduce ---- */

sc_err_t sc_model_allreduce_ompi_linear(const sc_model_t *model, size_t bytes, int root,
                                        double *t)
{
    (void)root;
    sc_err_t err = reduce_linear(model, bytes, 0, t);
    return err ? err : tree_bcast(model, bytes, 0, t, SC_OMPI_TREE_FLAT);
}

static sc_err_t reduce_by_rule(const sc_model_t *model, size_t bytes, double *t)
{
    switch (sc_ompi41_reduce_rule(bytes, model->size)) {
    case SC_OMPI_REDUCE_LINEAR:
        return reduce_linear(model, bytes, 0, t);
    case SC_OMPI_REDUCE_CHAIN:
    case SC_OMPI_REDUCE_PIPELINE:
        return tree_reduce(model, bytes, 0, t, SC_OMPI_TREE_CHAIN);
    case SC_OMPI_REDUCE_BINARY:
        return tree_reduce(model, bytes, 0, t, SC_OMPI_TREE_BINARY);
    case SC_OMPI_REDUCE_BINOMIAL:
        return tree_reduce(model, bytes, 0, t, SC_OMPI_TREE_IN_ORDER_BINOMIAL);
    case SC_OMPI_REDUCE_IN_ORDER_BINARY:
        return sc_model_reduce_ompi_in_order_binary(model, bytes, 0, t);
    case SC_OMPI_REDUCE_REDSCAT_GATHER:
        return sc_model_reduce_ompi_redscat_gather(model, bytes, 0, t);
    }
    return sc_error(SC_ERR_RUN, "internal: no Open MPI reduce for this rule");
}

static sc_err_t bcast_by_rule(const sc_model_t *model, size_t bytes, int root, double *t,
                              size_t elem)
{
    switch (sc_ompi41_bcast_rule(bytes, model->size)) {
    case SC_OMPI_BCAST_LINEAR: return tree_bcast(model, bytes, root, t, SC_OMPI_TREE_FLAT);
    case SC_OMPI_BCAST_CHAIN:
    case SC_OMPI_BCAST_PIPELINE: return tree_bcast(model, bytes, root, t, SC_OMPI_TREE_CHAIN);
    case SC_OMPI_BCAST_SPLIT_BINTREE: return split_bintree(model, bytes, root, t, elem);
    case SC_OMPI_BCAST_BINTREE: return tree_bcast(model, bytes, root, t, SC_OMPI_TREE_BINARY);
    case SC_OMPI_BCAST_BINOMIAL: return tree_bcast(model, bytes, root, t, SC_OMPI_TREE_BINOMIAL);
    case SC_OMPI_BCAST_KNOMIAL: return tree_bcast(model, bytes, root, t, SC_OMPI_TREE_KNOMIAL);
    case SC_OMPI_BCAST_SCATTER_ALLGATHER: return scatter_allgather(model, bytes, root, t, elem);
    case SC_OMPI_BCAST_SCATTER_ALLGATHER_RING:
        break; /* no 4.1 rule selects it */
    }
    return sc_error(SC_ERR_RUN, "internal: no Open MPI broadcast for this rule");
}

/* Reduce to rank 0, then broadcast from it, each chosen by its rule. */
sc_err_t sc_model_allreduce_ompi_nonoverlapping(const sc_model_t *model, size_t bytes, int root,
                                                double *t)
{
    (void)root;
    if (model->size == 1 || bytes == 0)
        return SC_OK;
    sc_err_t err = reduce_by_rule(model, bytes, t);
    return err ? err : bcast_by_rule(model, bytes, 0, t, model->elem_size);
}

size_t sc_ompi_ring_phases(size_t n, size_t elem, int p, size_t segsize)
{
    size_t seg = n; /* COLL_BASE_COMPUTED_SEGCOUNT: whole elements, rounded */
    if (segsize >= elem && segsize < elem * n)
        seg = segsize / elem + (segsize % elem > elem / 2);
    size_t round = (size_t)p * seg;
    if (n < round)
        return 1;
    size_t phases = n / round, rest = n % round;
    return phases + (rest >= (size_t)p && rest > round / 2);
}

/* Elements [begin, end) of a vector of n cut into `parts` parts, the first
 * n mod parts one longer (COLL_BASE_COMPUTE_BLOCKCOUNT). */
static void part(size_t n, size_t parts, size_t k, size_t *begin, size_t *end)
{
    size_t late = n / parts, split = n % parts, early = late + (split != 0);
    *begin = k < split ? k * early : k * late + split;
    *end = *begin + (k < split ? early : late);
}

/* ompi_coll_base_allreduce_intra_ring and _ring_segmented
 * (algorithms/openmpi/allreduce.c), `phases` reduce-scatters on pieces of
 * the blocks, then the allgather. Reduce-scatter step k = 1 .. p-1: rank
 * i's receive of step k is posted when its send of step k-1 has completed
 * (at the phase's start for k = 1); it then waits for step k-1's piece,
 * pays o_r, combines, and sends that piece right with a blocking send (its
 * own at step 1). A rendezvous request of step k is answered at once while
 * the rank waits for step k-1's piece or sends, otherwise when it next
 * does. A phase starts on each rank when its last combine of the one
 * before ends. */
static sc_err_t ring_model(const sc_model_t *model, size_t bytes, double *t, size_t phases)
{
    int p = model->size;
    size_t n = bytes / model->elem_size, e = model->elem_size;
    double *a = malloc(6 * (size_t)p * sizeof *a);
    if (!a)
        return no_memory();
    double *sent = a, *done = a + p, *arrive = a + 2 * p, *posted = a + 3 * p, *prev_end = a + 4 * p,
           *ready = a + 5 * p;
    for (size_t ph = 0; ph < phases; ph++) {
        size_t bb, be, pb, pe;
#define PIECE(b)                                                                                  \
    (part(n, (size_t)p, (size_t)(b), &bb, &be), part(be - bb, phases, ph, &pb, &pe), (pe - pb) * e)
        for (int i = 0; i < p; i++) {
            posted[i] = prev_end[i] = t[i];
            sent[i] = post(model, i, (i + 1) % p, PIECE(i), t[i]);
        }
        for (int k = 1; k < p; k++) {
            for (int i = 0; i < p; i++) { /* i receives step k's piece from l */
                int l = (i - 1 + p) % p;
                size_t b = PIECE((l - k + 1 + p) % p);
                if (is_eager(model, l, i, b)) {
                    arrive[i] = sent[l] + wire(model, l, i, b);
                    done[l] = sent[l];
                } else {
                    double R = sent[l] + wire(model, l, i, 0);
                    double cts = R <= posted[i]     ? posted[i]
                                 : R <= prev_end[i] ? R
                                                    : max2(R, sent[i]);
                    arrive[i] = cts + wire(model, i, l, 0) + wire(model, l, i, b);
                    done[l] = arrive[i];
                }
            }
            for (int i = 0; i < p; i++) {
                int l = (i - 1 + p) % p;
                size_t b = PIECE((i - k + p) % p);
                double end = max2(done[i], arrive[i]);
                ready[i] = end + recv_overhead(model, l, i, b) + sc_model_reduce_time(model, i, b);
                posted[i] = done[i];
                prev_end[i] = end;
                if (k < p - 1)
                    sent[i] = post(model, i, (i + 1) % p, b, ready[i]);
            }
        }
#undef PIECE
        for (int i = 0; i < p; i++)
            t[i] = ready[i];
    }
    free(a);
    rounds_t R;
    sc_err_t err = rounds_init(&R, model, t);
    for (int k = 0; k < p - 1 && !err; k++) {
        for (int i = 0; i < p; i++) {
            size_t bb, be;
            part(n, (size_t)p, (size_t)((i + 1 - k + p) % p), &bb, &be);
            message(&R, i, (i + 1) % p, (be - bb) * e);
        }
        end_round(&R);
    }
    if (!err)
        sc_round_destroy(&R.round);
    return err;
}

sc_err_t sc_model_allreduce_ompi_ring_segmented_by(const sc_model_t *model, size_t bytes,
                                                   double *t, size_t segsize)
{
    int p = model->size;
    size_t n = bytes / model->elem_size;
    if (p == 1 || n == 0)
        return SC_OK;
    if (n < (size_t)p)
        return sc_model_allreduce_rd(model, bytes, 0, t);
    return ring_model(model, bytes, t, sc_ompi_ring_phases(n, model->elem_size, p, segsize));
}

sc_err_t sc_model_allreduce_ompi_ring(const sc_model_t *model, size_t bytes, int root, double *t)
{
    (void)root;
    return sc_model_allreduce_ompi_ring_segmented_by(model, bytes, t, 0);
}

sc_err_t sc_model_allreduce_ompi_ring_segmented(const sc_model_t *model, size_t bytes, int root,
                                                double *t)
{
    (void)root;
    return sc_model_allreduce_ompi_ring_segmented_by(model, bytes, t, SC_OMPI_RING_SEGMENT);
}

/* ---- barrier ---- */

/* ompi_coll_base_barrier_intra_basic_linear: every other rank sends rank 0
 * an empty message and waits for one back; rank 0 receives them all, then
 * sends to 1 .. p-1 in order with blocking sends. */
sc_err_t sc_model_barrier_ompi_linear(const sc_model_t *model, size_t bytes, int root, double *t)
{
    (void)bytes;
    (void)root;
    int p = model->size;
    if (p == 1)
        return SC_OK;
    double last = t[0], o_r = 0;
    for (int i = 1; i < p; i++) {
        t[i] = post(model, i, 0, 0, t[i]);
        last = max2(last, t[i] + wire(model, i, 0, 0));
        o_r += recv_overhead(model, i, 0, 0);
    }
    double now = last + o_r;
    for (int i = 1; i < p; i++) {
        now = post(model, 0, i, 0, now);
        t[i] = max2(t[i], now + wire(model, 0, i, 0)) + recv_overhead(model, 0, i, 0);
    }
    t[0] = now;
    return SC_OK;
}

/* ompi_coll_base_barrier_intra_recursivedoubling with empty messages. */
sc_err_t sc_model_barrier_ompi_rd(const sc_model_t *model, size_t bytes, int root, double *t)
{
    (void)bytes;
    (void)root;
    int p = model->size, N = sc_pow2_below(p);
    if (p == 1)
        return SC_OK;
    rounds_t R;
    sc_err_t err = rounds_init(&R, model, t);
    if (err)
        return err;
    if (N != p) {
        for (int i = N; i < p; i++)
            message(&R, i, i - N, 0);
        end_round(&R);
    }
    for (int mask = 1; mask < N; mask <<= 1) {
        for (int i = 0; i < N; i++)
            message(&R, i, i ^ mask, 0);
        end_round(&R);
    }
    if (N != p) {
        for (int i = N; i < p; i++)
            message(&R, i - N, i, 0);
        end_round(&R);
    }
    sc_round_destroy(&R.round);
    return SC_OK;
}

/* ompi_coll_base_barrier_intra_tree: a binomial gather of empty messages to
 * rank 0, then a binomial broadcast back, one round per distance. */
sc_err_t sc_model_barrier_ompi_tree(const sc_model_t *model, size_t bytes, int root, double *t)
{
    (void)bytes;
    (void)root;
    int p = model->size, depth = 1;
    if (p == 1)
        return SC_OK;
    while (depth < p)
        depth <<= 1;
    rounds_t R;
    sc_err_t err = rounds_init(&R, model, t);
    if (err)
        return err;
    for (int jump = 1; jump < depth; jump <<= 1) {
        for (int i = 0; i < p; i++)
            if (!(i & (jump - 1)) && (i & jump) && (i ^ jump) < p)
                message(&R, i, i ^ jump, 0);
        end_round(&R);
    }
    for (int jump = depth >> 1; jump > 0; jump >>= 1) {
        for (int i = 0; i < p; i++)
            if (!(i & (jump - 1)) && (i & jump) && (i ^ jump) < p)
                message(&R, i ^ jump, i, 0);
        end_round(&R);
    }
    sc_round_destroy(&R.round);
    return SC_OK;
}

/* ---- allgather ---- */

/* ompi_coll_base_allgather_intra_neighborexchange: p/2 rounds, of one block
 * with neighbour 0, then two blocks alternately with neighbours 1 and 0;
 * ring for odd p. */
sc_err_t sc_model_allgather_ompi_neighbor(const sc_model_t *model, size_t bytes, int root,
                                          double *t)
{
    int p = model->size;
    if (p == 1 || bytes == 0)
        return SC_OK;
    if (p % 2)
        return sc_model_allgather_ring(model, bytes, root, t);
    rounds_t R;
    sc_err_t err = rounds_init(&R, model, t);
    if (err)
        return err;
    for (int k = 0; k < p / 2; k++) {
        for (int i = 0; i < p; i++) {
            int up = (i % 2 == 0) == (k % 2 == 0); /* even ranks start upwards */
            message(&R, i, up ? (i + 1) % p : (i - 1 + p) % p, k ? 2 * bytes : bytes);
        }
        end_round(&R);
    }
    sc_round_destroy(&R.round);
    return SC_OK;
}

/* ---- scatter ---- */

/* ompi_coll_base_scatter_intra_basic_linear: the root's blocking sends in
 * rank order, every other rank blocked in its receive from the start. */
sc_err_t sc_model_scatter_ompi_linear(const sc_model_t *model, size_t bytes, int root, double *t)
{
    for (int r = 0; r < model->size && bytes; r++)
        if (r != root)
            t[r] = sc_model_send(model, root, r, bytes, &t[root], t[r]);
    return SC_OK;
}

/* _linear_nb with max_requests 0: the root isends every block in rank
 * order and waits for all, as the flat broadcast tree does with the
 * message (the same sizes, to the same ranks, in the same order). */
sc_err_t sc_model_scatter_ompi_linear_nb(const sc_model_t *model, size_t bytes, int root, double *t)
{
    return tree_bcast(model, bytes, root, t, SC_OMPI_TREE_FLAT);
}

/* _binomial: parents before children (positions only grow down the tree),
 * each rank's blocking sends to its children largest subtree first, every
 * child still blocked in its receive from its start. */
sc_err_t sc_model_scatter_ompi_binomial(const sc_model_t *model, size_t bytes, int root, double *t)
{
    int p = model->size, *order = NULL, *child = NULL, parent;
    if (p == 1 || bytes == 0)
        return SC_OK;
    sc_err_t err = tree_order(model, SC_OMPI_TREE_IN_ORDER_BINOMIAL, root, &order, &child);
    if (err)
        return err;
    for (int k = 0; k < p; k++) {
        int u = order[k], v = (u - root + p) % p;
        int n = sc_ompi_tree(SC_OMPI_TREE_IN_ORDER_BINOMIAL, p, root, u, &parent, child);
        for (int i = n - 1; i >= 0; i--) {
            int d = (child[i] - u + p) % p, count = p - v - d < d ? p - v - d : d;
            t[child[i]] =
                sc_model_send(model, u, child[i], (size_t)count * bytes, &t[u], t[child[i]]);
        }
    }
    free(order);
    free(child);
    return SC_OK;
}

/* ---- Open MPI 5.0's coll/han broadcast (algorithms/openmpi/han.c) ----
 * Its steps on the subcommunicators, in the order the ranks run them: per
 * 64 KiB segment, the up level among the ranks of the root's local rank
 * (linear up to 4 nodes, binomial above), then each node from that rank.
 * Tuned's flat broadcast when han steps aside (one node, one rank a node,
 * nodes of unequal counts). */
static sc_err_t tuned_bcast(const sc_model_t *model, size_t bytes, int root, double *t)
{
    return bcast_by_rule(model, bytes, root, t, 1);
}

/* han's numbering (sc_smp_init's): nodes in the order of their lowest
 * rank, node[r] and local[r] each rank's node and place on it, count[k]
 * the ranks of node k; 4 p ints at node, members the last p of them.
 * Returns whether han runs: more than one node, as many ranks on each,
 * more than one. */
static int han_numbering(const sc_model_t *model, int *index_of, int *node, int *nnodes)
{
    int p = model->size, *local = node + p, *count = local + p;
    *nnodes = 0;
    for (int r = 0; r < p; r++) {
        int *k = &index_of[model->node_of[r]];
        if (*k < 0) {
            *k = *nnodes;
            count[(*nnodes)++] = 0;
        }
        node[r] = *k;
        local[r] = count[*k]++;
    }
    int even = *nnodes > 1 && count[0] > 1;
    for (int k = 1; k < *nnodes && even; k++)
        even = count[k] == count[0];
    return even;
}

/* Room for han_numbering: index_of by node id, 4 p ints at *node. */
static sc_err_t han_alloc(const sc_model_t *model, int **index_of, int **node)
{
    int p = model->size, most = 0;
    for (int r = 0; r < p; r++)
        most = model->node_of[r] > most ? model->node_of[r] : most;
    *index_of = malloc(((size_t)most + 1) * sizeof **index_of);
    *node = malloc(4 * (size_t)p * sizeof **node);
    if (!*index_of || !*node) {
        free(*index_of);
        free(*node);
        return no_memory();
    }
    for (int n = 0; n <= most; n++)
        (*index_of)[n] = -1;
    return SC_OK;
}

static sc_err_t han_bcast(const sc_model_t *model, size_t bytes, int root, double *t,
                          sc_model_fn low)
{
    int p = model->size, *index_of, *node, nnodes;
    if (p == 1 || bytes == 0)
        return SC_OK;
    sc_err_t err = han_alloc(model, &index_of, &node);
    if (err)
        return err;
    int *local = node + p, *count = local + p, *members = count + p;
    if (!han_numbering(model, index_of, node, &nnodes)) {
        err = low(model, bytes, root, t);
        goto done;
    }
    int c = count[0];
    sc_model_fn up = nnodes <= 4 ? sc_model_bcast_ompi_linear : sc_model_bcast_ompi_binomial;
    for (size_t at = 0; at < bytes && !err; at += 65536) {
        size_t seg = bytes - at < 65536 ? bytes - at : 65536;
        for (int r = 0; r < p; r++)
            if (local[r] == local[root])
                members[node[r]] = r;
        err = sc_model_sub(model, members, nnodes, up, seg, node[root], t);
        for (int k = 0; k < nnodes && !err; k++) {
            for (int r = 0; r < p; r++)
                if (node[r] == k)
                    members[local[r]] = r;
            err = sc_model_sub(model, members, c, low, seg, local[root], t);
        }
    }
done:
    free(index_of);
    free(node);
    return err;
}

/* coll/han's scatter (algorithms/openmpi/han.c): each node's blocks from
 * the root to the rank of its local rank there (libnbc's linear
 * iscatter), then each node's scatter from it; tuned's flat scatter when
 * han steps aside. */
static sc_err_t han_scatter(const sc_model_t *model, size_t bytes, int root, double *t,
                            sc_model_fn low)
{
    int p = model->size, *index_of, *node, nnodes;
    if (p == 1 || bytes == 0)
        return SC_OK;
    sc_err_t err = han_alloc(model, &index_of, &node);
    if (err)
        return err;
    int *local = node + p, *count = local + p, *members = count + p;
    if (!han_numbering(model, index_of, node, &nnodes)) {
        err = low(model, bytes, root, t);
        goto done;
    }
    int c = count[0];
    for (int r = 0; r < p; r++)
        if (local[r] == local[root])
            members[node[r]] = r;
    err = sc_model_sub(model, members, nnodes, sc_model_scatter_ompi_linear_nb, (size_t)c * bytes,
                       node[root], t);
    for (int k = 0; k < nnodes && !err; k++) {
        for (int r = 0; r < p; r++)
            if (node[r] == k)
                members[local[r]] = r;
        err = sc_model_sub(model, members, c, low, bytes, local[root], t);
    }
done:
    free(index_of);
    free(node);
    return err;
}

static sc_err_t tuned_scatter(const sc_model_t *model, size_t bytes, int root, double *t)
{
    switch (sc_ompi41_scatter_rule(bytes, model->size)) {
    case SC_OMPI_SCATTER_BINOMIAL: return sc_model_scatter_ompi_binomial(model, bytes, root, t);
    case SC_OMPI_SCATTER_LINEAR_NB: return sc_model_scatter_ompi_linear_nb(model, bytes, root, t);
    case SC_OMPI_SCATTER_BASIC_LINEAR: break;
    }
    return sc_model_scatter_ompi_linear(model, bytes, root, t);
}

sc_err_t sc_model_scatter_ompi_han(const sc_model_t *model, size_t bytes, int root, double *t)
{
    return han_scatter(model, bytes, root, t, tuned_scatter);
}

sc_err_t sc_model_scatter_ompi_han_linear(const sc_model_t *model, size_t bytes, int root,
                                          double *t)
{
    return han_scatter(model, bytes, root, t, sc_model_scatter_ompi_linear);
}

sc_err_t sc_model_scatter_ompi_han_linear_nb(const sc_model_t *model, size_t bytes, int root,
                                             double *t)
{
    return han_scatter(model, bytes, root, t, sc_model_scatter_ompi_linear_nb);
}

sc_err_t sc_model_scatter_ompi_han_binomial(const sc_model_t *model, size_t bytes, int root,
                                            double *t)
{
    return han_scatter(model, bytes, root, t, sc_model_scatter_ompi_binomial);
}

sc_err_t sc_model_bcast_ompi_han(const sc_model_t *model, size_t bytes, int root, double *t)
{
    return han_bcast(model, bytes, root, t, tuned_bcast);
}

sc_err_t sc_model_bcast_ompi_han_linear(const sc_model_t *model, size_t bytes, int root, double *t)
{
    return han_bcast(model, bytes, root, t, sc_model_bcast_ompi_linear);
}

sc_err_t sc_model_bcast_ompi_han_chain(const sc_model_t *model, size_t bytes, int root, double *t)
{
    return han_bcast(model, bytes, root, t, sc_model_bcast_ompi_chain);
}

sc_err_t sc_model_bcast_ompi_han_bintree(const sc_model_t *model, size_t bytes, int root, double *t)
{
    return han_bcast(model, bytes, root, t, sc_model_bcast_ompi_bintree);
}
