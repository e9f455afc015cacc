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
    /* peers as world ranks; a peer of a communicator nobody defined is
     * a use of it (cut by the first rule) */
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
    /* sends and receives side by side by their pair and tag, then
     * collectives by communicator and rank */
    size_t nsend = 0, nrecv = 0, ncoll = 0;
    for (size_t i = 0; i < c->nitems; i++) {
        nsend += c->items[i].kind == I_SEND;
        nrecv += c->items[i].kind == I_RECV;
        ncoll += c->items[i].kind == I_COLL;
    }
    qsort(c->items, c->nitems, sizeof *c->items, by_p2p); /* I_SEND, I_RECV, I_COLL, I_USE */
    item_t *sends = c->items, *recvs = sends + nsend, *colls = recvs + nrecv;
    qsort(colls, ncoll, sizeof *colls, by_coll);
    int *count = calloc((size_t)c->n, sizeof *count);
    if (!count)
        return sc_conv_fail(c, 1, "out of memory");
    long changed;
    do {
        changed = 0;
        char why[200];
        for (size_t i = 0; i < c->nitems; i++) {
            item_t *it = &c->items[i];
            if (it->call < c->ranks[it->rank].keep && !sc_conv_usable(c, it->comm)) {
                snprintf(why, sizeof why,
                         "its call %ld uses a communicator whose making was "
                         "not recorded",
                         it->call);
                cut_to(c, it->rank, it->call, why, &changed);
            }
        }
        /* collectives: per communicator, the fewest any member holds */
        for (size_t i = 0; i < ncoll;) {
            size_t j = i;
            while (j < ncoll && colls[j].comm == colls[i].comm)
                j++;
            uint64_t id = colls[i].comm;
            if (id != SC_SPOOL_SELF) {
                comm_t *m = id == SC_SPOOL_WORLD ? NULL : sc_conv_comm_get(c, id, 0);
                int size = m ? m->size : c->n;
                if (id == SC_SPOOL_WORLD || (m && m->members && m->nmembers == m->size)) {
                    int fewest = -1;
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
                    /* each rank's (fewest+1)-th collective there goes */
                    for (size_t k = i; k < j;) {
                        size_t e = k;
                        while (e < j && colls[e].rank == colls[k].rank)
                            e++;
                        if (e - k > (size_t)fewest) {
                            snprintf(why, sizeof why,
                                     "its collective in call %ld is one other "
                                     "ranks of its communicator did not reach",
                                     colls[k + (size_t)fewest].call);
                            cut_to(c, colls[k].rank, colls[k + (size_t)fewest].call, why, &changed);
                        }
                        k = e;
                    }
                }
            }
            i = j;
        }
        /* messages: sends and receives of a pair and tag, in order */
        size_t s = 0, v = 0;
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
                cut_to(c, key->src, sends[s + v_kept].call, why, &changed);
            } else if (v_kept > s_kept) {
                snprintf(why, sizeof why,
                         "its receive from rank %d (tag %d) in call %ld was "
                         "not sent",
                         key->src, key->tag, recvs[v + s_kept].call);
                cut_to(c, key->dst, recvs[v + s_kept].call, why, &changed);
            }
            s = s_end;
            v = v_end;
        }
    } while (changed);
    free(count);
    return 0;
}
