/* The cut (conversion.h): where a rank's spool does not end with
 * MPI_Finalize (the run was killed), each rank's calls are kept to the
 * longest prefixes whose messages, collectives and communicators pair up
 * with the other ranks': simcoll refuses a trace whose sends and receives
 * do not match.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>

#include "conversion.h"

static int cut_to(conv_t *c, int rank, long call, const char *why, long *changed)
{
    rank_t *r = &c->ranks[rank];
    if (call >= r->keep)
        return 0;
    r->keep = call;
    snprintf(r->why, sizeof r->why, "%s", why);
    (*changed)++;
    return 1;
}

int sc_conv_usable(conv_t *c, uint64_t comm)
{
    if (comm == SC_SPOOL_WORLD || comm == SC_SPOOL_SELF)
        return 1;
    comm_t *m = sc_conv_comm_get(c, comm, 0);
    return m && m->members && m->nmembers == m->size && m->definer >= 0 &&
           m->def_call < c->ranks[m->definer].keep;
}

#define CMP(f)                                                                                     \
    if (x->f != y->f)                                                                              \
        return x->f < y->f ? -1 : 1;

/* Messages of one pair of ranks on one communicator with one tag. */
static int same_pair(const item_t *x, const item_t *y)
{
    CMP(comm) CMP(src) CMP(dst) CMP(tag) return 0;
}

static int by_p2p(const void *a, const void *b)
{
    const item_t *x = a, *y = b;
    CMP(kind) CMP(comm) CMP(src) CMP(dst) CMP(tag) CMP(call) return 0;
}

static int by_coll(const void *a, const void *b)
{
    const item_t *x = a, *y = b;
    CMP(kind) CMP(comm) CMP(rank) CMP(call) return 0;
#undef CMP
}

/* The items as the rules read them: sends and receives side by side by
 * their pair and tag, then collectives by communicator and rank. */
typedef struct {
    item_t *sends, *recvs, *colls;
    size_t nsend, nrecv, ncoll;
    int *count; /* by world rank: a communicator's collectives kept */
} sorted_t;

/* Peers as world ranks; a peer of a communicator nobody defined is a use
 * of it (cut by the first rule). */
static void peers_to_world(conv_t *c)
{
    for (size_t i = 0; i < c->nitems; i++) {
        item_t *it = &c->items[i];
        if (it->kind != I_SEND && it->kind != I_RECV)
            continue;
        int w = sc_conv_world_of(c, it->rank, it->comm, it->peer);
        if (w < 0) {
            it->kind = I_USE;
            continue;
        }
        it->src = it->kind == I_SEND ? it->rank : w;
        it->dst = it->kind == I_SEND ? w : it->rank;
    }
}

static void sort_items(conv_t *c, sorted_t *o)
{
    o->nsend = o->nrecv = o->ncoll = 0;
    for (size_t i = 0; i < c->nitems; i++) {
        o->nsend += c->items[i].kind == I_SEND;
        o->nrecv += c->items[i].kind == I_RECV;
        o->ncoll += c->items[i].kind == I_COLL;
    }
    qsort(c->items, c->nitems, sizeof *c->items, by_p2p); /* I_SEND, I_RECV, I_COLL, I_USE */
    o->sends = c->items;
    o->recvs = o->sends + o->nsend;
    o->colls = o->recvs + o->nrecv;
    qsort(o->colls, o->ncoll, sizeof *o->colls, by_coll);
}

/* A communicator is used only where its first rank's prefix made it. */
static void cut_unmade(conv_t *c, long *changed)
{
    char why[200];
    for (size_t i = 0; i < c->nitems; i++) {
        item_t *it = &c->items[i];
        if (it->call < c->ranks[it->rank].keep && !sc_conv_usable(c, it->comm)) {
            snprintf(why, sizeof why,
                     "its call %ld uses a communicator whose making was "
                     "not recorded",
                     it->call);
            cut_to(c, it->rank, it->call, why, changed);
        }
    }
}

/* The collectives colls[i .. j) of one communicator, m (NULL: the world)
 * with its members known: each rank keeps as many as the fewest any
 * member holds, its (fewest+1)-th goes. */
static void cut_comm_collectives(conv_t *c, const comm_t *m, sorted_t *o, size_t i, size_t j,
                                 long *changed)
{
    const item_t *colls = o->colls;
    int *count = o->count;
    int size = m ? m->size : c->n;
    int fewest = -1;
    char why[200];
    for (int k = 0; k < size; k++)
        count[m ? m->members[k] : k] = 0;
    for (size_t k = i; k < j; k++)
        if (colls[k].call < c->ranks[colls[k].rank].keep)
            count[colls[k].rank]++;
    for (int k = 0; k < size; k++) {
        int w = m ? m->members[k] : k;
        if (fewest < 0 || count[w] < fewest)
            fewest = count[w];
    }
    for (size_t k = i; k < j;) {
        size_t e = k;
        while (e < j && colls[e].rank == colls[k].rank)
            e++;
        if (e - k > (size_t)fewest) {
            snprintf(why, sizeof why,
                     "its collective in call %ld is one other "
                     "ranks of its communicator did not reach",
                     colls[k + (size_t)fewest].call);
            cut_to(c, colls[k].rank, colls[k + (size_t)fewest].call, why, changed);
        }
        k = e;
    }
}

/* A communicator's ranks all hold as many of its collectives (self's
 * and those of communicators whose members are unknown aside). */
static void cut_collectives(conv_t *c, sorted_t *o, long *changed)
{
    const item_t *colls = o->colls;
    for (size_t i = 0; i < o->ncoll;) {
        size_t j = i;
        while (j < o->ncoll && colls[j].comm == colls[i].comm)
            j++;
        uint64_t id = colls[i].comm;
        if (id != SC_SPOOL_SELF) {
            comm_t *m = id == SC_SPOOL_WORLD ? NULL : sc_conv_comm_get(c, id, 0);
            if (id == SC_SPOOL_WORLD || (m && m->members && m->nmembers == m->size))
                cut_comm_collectives(c, m, o, i, j, changed);
        }
        i = j;
    }
}

/* Between two ranks on a communicator with a tag, as many messages are
 * sent as are received: the first k of each, in order. */
static void cut_messages(conv_t *c, const sorted_t *o, long *changed)
{
    const item_t *sends = o->sends, *recvs = o->recvs;
    size_t nsend = o->nsend, nrecv = o->nrecv, s = 0, v = 0;
    char why[200];
    while (s < nsend || v < nrecv) {
        int order = s == nsend ? 1 : v == nrecv ? -1 : same_pair(&sends[s], &recvs[v]);
        const item_t *key = order <= 0 ? &sends[s] : &recvs[v];
        size_t s_end = s, v_end = v, s_kept = 0, v_kept = 0;
        while (s_end < nsend && same_pair(&sends[s_end], key) == 0)
            s_kept += sends[s_end++].call < c->ranks[key->src].keep;
        while (v_end < nrecv && same_pair(&recvs[v_end], key) == 0)
            v_kept += recvs[v_end++].call < c->ranks[key->dst].keep;
        if (s_kept > v_kept) {
            snprintf(why, sizeof why,
                     "its send to rank %d (tag %d) in call %ld was not "
                     "received",
                     key->dst, key->tag, sends[s + v_kept].call);
            cut_to(c, key->src, sends[s + v_kept].call, why, changed);
        } else if (v_kept > s_kept) {
            snprintf(why, sizeof why,
                     "its receive from rank %d (tag %d) in call %ld was "
                     "not sent",
                     key->src, key->tag, recvs[v + s_kept].call);
            cut_to(c, key->dst, recvs[v + s_kept].call, why, changed);
        }
        s = s_end;
        v = v_end;
    }
}

/* Each rank's calls kept: the longest prefixes, every constraint met at
 * once (cutting one rank may cut others: repeated until none moves):
 *   - a communicator is used only where its first rank's prefix made it;
 *   - a communicator's ranks all hold as many of its collectives;
 *   - between two ranks on a communicator with a tag, as many messages
 *     are sent as are received (MPI's order: the first k of each). */
int sc_conv_cut(conv_t *c)
{
    for (int r = 0; r < c->n; r++)
        c->ranks[r].keep = c->ranks[r].calls;
    peers_to_world(c);
    sorted_t o;
    sort_items(c, &o);
    o.count = calloc((size_t)c->n, sizeof *o.count);
    if (!o.count)
        return sc_conv_fail(c, 1, "out of memory");
    long changed;
    do {
        changed = 0;
        cut_unmade(c, &changed);
        cut_collectives(c, &o, &changed);
        cut_messages(c, &o, &changed);
    } while (changed);
    free(o.count);
    return 0;
}
