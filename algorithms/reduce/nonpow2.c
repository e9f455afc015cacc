/* The patent's reduce and allreduce for any number of processes (reference
 * 000, IBM, Bin Jia: "method and system for optimizing global reduction
 * processing", claims 1-7).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "../collectives.h"
#include "vector.h"

/* Ranks are numbered from the root (virtual rank v). N = largest power of
 * two <= p, r = p - N. H1 and H2 are the lower and upper halves of the
 * vector.
 *
 * 1. S0 = v < 2r, in pairs (2j, 2j+1); S1 = the other p - 2r.
 * 2. Each S0 pair exchanges halves and combines: 2j holds H1 of the two
 *    inputs, 2j+1 holds H2.
 * 3. The partial halves merge into exactly N ranks:
 *    - the odd-numbered pairs among S0's pairs 0..r'-1 (r' = r for r even,
 *      r - 1 for r odd) send their halves to pair j-1, which combines them;
 *    - r odd: the last S0 pair holds X = 2r-1 (H2) and Y = 2r-2 (H1); X
 *      sends its H2 to Z = 2r, the first of S1; Z sends the H1 of its own
 *      input to Y; Z and Y combine;
 *    - the rest of S1 pairs up and exchanges halves like step 2.
 *    Of the N ranks left, N/2 hold partial H1 (group G1), N/2 partial H2
 *    (G2), each group in order of v. (Choosing X as the H2 holder keeps the
 *    root, v = 0, in G1 even when r = 1.)
 * 4. G1 runs recursive halving on H1 (sc_group_halving), G2 on H2; then
 *    allreduce: recursive doubling, and each holds its half complete;
 *    reduce: a gather to the group's first member, and G2's first member
 *    sends H2 to the root, which leads G1.
 * 5. allreduce only: receivers return the complete half to the pair that
 *    sent to them; r odd: Y sends H1 to Z, Z sends H2 to X; the rest of S1
 *    exchange halves in their pairs; then the S0 pairs exchange halves.
 *
 * With r = 0 the steps are exactly those of RHRD (rhrd.c). Cost on one
 * level, L divisible by 2N, r even or odd alike (derivation in
 * models/reduce.c):
 *   allreduce T = (2 + 2 log2 N) alpha + (3 - 2/N) L beta + (3/2 - 1/N) L gamma
 *   reduce    T = (1 + 2 log2 N) alpha + (5/2 - 2/N) L beta + (3/2 - 1/N) L gamma
 * against (3 + 2 log2 N) alpha + (4 - 2/N) L beta + (3/2 - 1/N) L gamma and
 * (2 + 2 log2 N) alpha + (3 - 2/N) L beta + ... for the prior art. */

/* Roles in steps 2-5. */
typedef enum { SENDER, RECEIVER, X, Y, Z, S1_PAIR } role_t;

typedef struct {
    int p, N, r;
    int regular_pairs; /* r': the S0 pairs that pair up with each other */
    int first_s1_pair; /* v of the first rank of S1's pairs */
} layout_t;

static layout_t layout_of(int p)
{
    layout_t l = {.p = p, .N = sc_pow2_below(p)};
    l.r = p - l.N;
    l.regular_pairs = l.r & 1 ? l.r - 1 : l.r;
    l.first_s1_pair = l.r & 1 ? 2 * l.r + 1 : 2 * l.r;
    return l;
}

static role_t role_of(const layout_t *l, int v)
{
    if (v < 2 * l->regular_pairs)
        return (v / 2) & 1 ? SENDER : RECEIVER;
    if (v < 2 * l->r)
        return v & 1 ? X : Y;
    if (v == 2 * l->r && (l->r & 1))
        return Z;
    return S1_PAIR;
}

/* The half (0: H1, 1: H2) rank v holds from step 2 or 3 on. */
static int half_of(const layout_t *l, int v)
{
    switch (role_of(l, v)) {
    case SENDER:
    case RECEIVER:
        return v & 1;
    case X:
    case Z:
        return 1;
    case Y:
        return 0;
    case S1_PAIR:
        return (v - l->first_s1_pair) & 1;
    }
    return 0;
}

/* Member k of the group working on half h in step 4: the receivers first,
 * then Y (G1) or Z (G2), then S1's pairs. */
static int member_v(const layout_t *l, int h, int k)
{
    int receivers = l->regular_pairs / 2;
    if (k < receivers)
        return 4 * k + h;
    if (l->r & 1) {
        if (k == receivers)
            return h ? 2 * l->r : 2 * l->r - 2;
        k--;
    }
    return l->first_s1_pair + 2 * (k - receivers) + h;
}

/* This rank's index in its step-4 group; -1 for senders and X. */
static int member_index(const layout_t *l, int v)
{
    int receivers = l->regular_pairs / 2;
    switch (role_of(l, v)) {
    case SENDER:
    case X:
        return -1;
    case RECEIVER:
        return v / 4;
    case Y:
    case Z:
        return receivers;
    case S1_PAIR:
        return receivers + (l->r & 1) + (v - l->first_s1_pair) / 2;
    }
    return -1;
}

static sc_err_t nonpow2(sc_comm_t *comm, const sc_coll_args_t *args, int root, int tag,
                        int allreduce)
{
    size_t n = sc_vector_elems(args);
    if (n == 0)
        return SC_OK;
    int p = comm->size, v = (comm->rank - root + p) % p;
    sc_vector_start(comm, args);
    if (p == 1)
        return SC_OK;
    layout_t l = layout_of(p);
    role_t role = role_of(&l, v);
    int h = half_of(&l, v);
    sc_span_t whole = {0, n}, mine = sc_span_half(whole, h), other = sc_span_half(whole, !h);
    char *vec = args->recvbuf, *tmp;
    sc_err_t err = sc_vector_alloc(comm, args, (n + 1) / 2, &tmp);
#define RANK(vv) sc_rank_of_virtual(comm, root, (vv))
    int z = 2 * l.r, x = 2 * l.r - 1, y = 2 * l.r - 2;
    int partner = v + (h ? -1 : 1); /* in S1's pairs */

    /* step 2 */
    if (!err && v < 2 * l.r)
        err = sc_vector_sendrecv_combine(comm, args, vec, tmp, other, RANK(v ^ 1), mine,
                                         RANK(v ^ 1), tag);
    /* step 3 */
    if (!err) {
        switch (role) {
        case SENDER: err = sc_vector_send(comm, args, vec, mine, RANK(v - 2), tag); break;
        case RECEIVER:
            err = sc_vector_recv_combine(comm, args, vec, tmp, mine, RANK(v + 2), tag);
            break;
        case X: err = sc_vector_send(comm, args, vec, mine, RANK(z), tag); break;
        case Y: err = sc_vector_recv_combine(comm, args, vec, tmp, mine, RANK(z), tag); break;
        case Z:
            err = sc_vector_sendrecv_combine(comm, args, vec, tmp, other, RANK(y), mine, RANK(x),
                                             tag);
            break;
        case S1_PAIR:
            err = sc_vector_sendrecv_combine(comm, args, vec, tmp, other, RANK(partner), mine,
                                             RANK(partner), tag);
            break;
        }
    }
    /* step 4 */
    int me = member_index(&l, v);
    if (!err && me >= 0) {
        sc_group_t g = {.size = l.N / 2, .me = me};
        for (int s = 0; (1 << s) < g.size; s++)
            g.peer[s] = RANK(member_v(&l, h, me ^ (1 << s)));
        err = sc_group_halving(comm, args, &g, vec, tmp, mine, tag, NULL);
        if (!err && allreduce)
            err = sc_group_doubling(comm, args, &g, vec, mine, tag);
        if (!err && !allreduce) {
            err = sc_group_gather(comm, args, &g, vec, mine, tag);
            if (!err && me == 0 && h == 1)
                err = sc_vector_send(comm, args, vec, mine, RANK(0), tag);
        }
    }
    if (!err && !allreduce && v == 0)
        err = sc_vector_recv(comm, args, vec, sc_span_half(whole, 1), RANK(member_v(&l, 1, 0)),
                             tag);
    /* step 5 */
    if (!err && allreduce) {
        switch (role) {
        case SENDER: err = sc_vector_recv(comm, args, vec, mine, RANK(v - 2), tag); break;
        case RECEIVER: err = sc_vector_send(comm, args, vec, mine, RANK(v + 2), tag); break;
        case X: err = sc_vector_recv(comm, args, vec, mine, RANK(z), tag); break;
        case Y: err = sc_vector_send(comm, args, vec, mine, RANK(z), tag); break;
        case Z:
            err = sc_vector_sendrecv(comm, args, vec, mine, RANK(x), other, RANK(y), tag);
            break;
        case S1_PAIR:
            err = sc_vector_sendrecv(comm, args, vec, mine, RANK(partner), other, RANK(partner),
                                     tag);
            break;
        }
        if (!err && v < 2 * l.r)
            err = sc_vector_sendrecv(comm, args, vec, mine, RANK(v ^ 1), other, RANK(v ^ 1), tag);
    }
#undef RANK
    if (tmp)
        sc_buf_free(comm, tmp);
    return err;
}

sc_err_t sc_reduce_nonpow2(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return nonpow2(comm, args, args->root, SC_TAG_REDUCE, 0);
}

sc_err_t sc_allreduce_nonpow2(sc_comm_t *comm, const sc_coll_args_t *args)
{
    return nonpow2(comm, args, 0, SC_TAG_ALLREDUCE, 1);
}
